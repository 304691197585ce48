// ValueWriter (value_writer_internal.h): the factory, the null-column writer and the
// shared pieces of value_writer_internal.h that are not templates.
#include "quiver/parquet/writer/value_writer_internal.h"

#include <memory>
#include <utility>

#include "quiver/io/interfaces.h"
#include "quiver/parquet/writer/value_writer_internal.h"

namespace quiver::parquet {

namespace {

// --- Null columns -----------------------------------------------------------

class NullValueWriter final : public ValueWriter {
 public:
  NullValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
                  const ValueWriterOptions& options)
      : ValueWriter(column, arrow, options) {}
  Status Append(int64_t, int64_t) override { return Status::OK(); }
  int64_t EstimatedPageSize() const override { return 0; }
  Result<format::Encoding> FlushPage(MutableBuffer*) override {
    ResetPage();
    return format::Encoding::kPlain;
  }
};

}  // namespace

Status BadDictionaryIndex(const ColumnDescriptor& column, int64_t k, int64_t slot) {
  return Status::Invalid("column '", column.path, "': dictionary index ", k, " at slot ", slot,
                         " is out of range or refers to a null dictionary value");
}

Status TakePlain(MutableBuffer* values, MutableBuffer* out) {
  if (out->empty()) {
    std::swap(*values, *out);
  } else {
    QUIVER_RETURN_NOT_OK(out->ExtendFromSlice(values->data(), values->size()));
  }
  values->Clear();
  return Status::OK();
}

Status ValueWriter::WriteDictionaryTo(io::OutputStream* stream, MutableBuffer* staging) const {
  staging->Clear();
  QUIVER_RETURN_NOT_OK(WriteDictionary(staging));
  QUIVER_RETURN_NOT_OK(stream->Write(staging->data(), staging->size()));
  staging->Clear();
  return Status::OK();
}

Result<std::unique_ptr<ValueWriter>> ValueWriter::Make(const ColumnDescriptor& column,
                                                       const ArrowLeaf& arrow,
                                                       const ValueWriterOptions& options) {
  std::unique_ptr<ValueWriter> w;
  ValueWriterOptions o = options;
  if (arrow.value_kind == ValueKind::kNull || arrow.value_kind == ValueKind::kBool) {
    o.dictionary = false;  // as Arrow C++: booleans and null columns never use a dictionary
  }
  if (arrow.value_kind == ValueKind::kNull) {
    w = std::make_unique<NullValueWriter>(column, arrow, o);
  } else {
    switch (column.physical_type) {
      case format::Type::kBoolean: w = MakeBooleanValueWriter(column, arrow, o); break;
      case format::Type::kInt32:
      case format::Type::kInt64:
      case format::Type::kFloat:
      case format::Type::kDouble: w = MakeFixedValueWriter(column, arrow, o); break;
      case format::Type::kByteArray:
      case format::Type::kFixedLenByteArray: w = MakeBytesValueWriter(column, arrow, o); break;
      default:
        return Status::NotImplemented("column '", column.path, "': physical type ",
                                      format::EnumName(column.physical_type), " is not written");
    }
  }
  w->page_stats_ = ColumnStatistics::Make(arrow.stats_kind, arrow.is_string, column.type_length);
  return w;
}

}  // namespace quiver::parquet
