#include "quiver/parquet/metadata/page_index_internal.h"

#include <string_view>

#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/footer_internal.h"

namespace quiver::parquet {

namespace {

template <typename T>
Result<std::optional<T>> ReadIndexStruct(const io::RandomAccessFile& file,
                                         std::optional<int64_t> offset,
                                         std::optional<int32_t> length, std::string_view what,
                                         int64_t data_end, const thrift::ThriftLimits& limits,
                                         const encryption::ChunkDecryptor* decryptor,
                                         encryption::ModuleType module) {
  if (!offset.has_value() && !length.has_value()) return std::optional<T>();
  if (!offset.has_value() || !length.has_value()) {
    return Status::Invalid(what, ": offset and length must both be set");
  }
  if (!RangeWithin(*offset, *length, kParquetMagicSize, data_end)) {
    return Status::Invalid(what, " [", *offset, ", +", *length,
                           ") lies outside the data region [4, ", data_end, ")");
  }
  QUIVER_ASSIGN_OR_RAISE(auto bytes, file.ReadAt(*offset, *length));
  const uint8_t* data = bytes->data();
  int64_t size = bytes->size();
  std::string plain;
  if (decryptor != nullptr) {
    QUIVER_RETURN_NOT_OK(decryptor->Decrypt(module, -1, data, size, &plain));
    data = reinterpret_cast<const uint8_t*>(plain.data());
    size = static_cast<int64_t>(plain.size());
  }
  auto value = thrift::DeserializeThrift<T>(data, size, nullptr, limits);
  if (!value.ok()) {
    return Status::Invalid(what, " at offset ", *offset, ": ", value.status().message());
  }
  return std::optional<T>(std::move(*value));
}

}  // namespace

Result<std::optional<format::ColumnIndex>> ReadColumnIndex(const io::RandomAccessFile& file,
                                                           const format::ColumnChunk& chunk,
                                                           int64_t data_end,
                                                           const thrift::ThriftLimits& limits,
                                                           const encryption::ChunkDecryptor* decryptor) {
  return ReadIndexStruct<format::ColumnIndex>(file, chunk.column_index_offset,
                                              chunk.column_index_length, "column index",
                                              data_end, limits, decryptor,
                                              encryption::ModuleType::kColumnIndex);
}

Result<std::optional<format::OffsetIndex>> ReadOffsetIndex(const io::RandomAccessFile& file,
                                                           const format::ColumnChunk& chunk,
                                                           int64_t data_end,
                                                           const thrift::ThriftLimits& limits,
                                                           const encryption::ChunkDecryptor* decryptor) {
  return ReadIndexStruct<format::OffsetIndex>(file, chunk.offset_index_offset,
                                              chunk.offset_index_length, "offset index",
                                              data_end, limits, decryptor,
                                              encryption::ModuleType::kOffsetIndex);
}

}  // namespace quiver::parquet

namespace quiver::parquet {

static_assert(static_cast<int>(BoundaryOrder::kDescending) ==
              static_cast<int>(format::BoundaryOrder::kDescending));

class ColumnIndexBuilder {
 public:
  static Result<ColumnIndex> Make(const format::ColumnIndex& index, const LeafAnnotations& leaf) {
    const size_t n = index.null_pages.size();
    auto check = [&](size_t size, const char* what) -> Status {
      if (size == n) return Status::OK();
      return Status::Invalid("column index: ", what, " has ", size, " entries for ", n,
                             " pages (null_pages)");
    };
    QUIVER_RETURN_NOT_OK(check(index.min_values.size(), "min_values"));
    QUIVER_RETURN_NOT_OK(check(index.max_values.size(), "max_values"));
    if (index.null_counts) QUIVER_RETURN_NOT_OK(check(index.null_counts->size(), "null_counts"));
    if (index.nan_counts) QUIVER_RETURN_NOT_OK(check(index.nan_counts->size(), "nan_counts"));
    ColumnIndex out;
    out.null_pages_ = index.null_pages;
    out.value_type_ = StatisticsBoundType(leaf);
    out.sort_order_ = ColumnSortOrder(leaf);
    out.boundary_order_ = static_cast<BoundaryOrder>(index.boundary_order);
    out.null_counts_ = index.null_counts;
    out.nan_counts_ = index.nan_counts;
    const Scalar null = Scalar::MakeNull(out.value_type_);
    out.min_values_.assign(n, null);
    out.max_values_.assign(n, null);
    if (out.sort_order_ == SortOrder::kUnknown) return out;
    for (size_t i = 0; i < n; ++i) {
      if (index.null_pages[i]) continue;
      if (auto v = DecodeStatisticsValue(index.min_values[i], leaf)) out.min_values_[i] = *v;
      if (auto v = DecodeStatisticsValue(index.max_values[i], leaf)) out.max_values_[i] = *v;
    }
    return out;
  }
};

Result<ColumnIndex> MakeColumnIndex(const format::ColumnIndex& index, const LeafAnnotations& leaf) {
  return ColumnIndexBuilder::Make(index, leaf);
}

OffsetIndex MakeOffsetIndex(const format::OffsetIndex& index) {
  OffsetIndex out;
  out.page_locations.reserve(index.page_locations.size());
  for (const auto& p : index.page_locations) {
    out.page_locations.push_back({p.offset, p.compressed_page_size, p.first_row_index});
  }
  out.unencoded_byte_array_data_bytes = index.unencoded_byte_array_data_bytes;
  return out;
}

}  // namespace quiver::parquet
