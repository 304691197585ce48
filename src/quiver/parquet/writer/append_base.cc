#include "quiver/parquet/writer/append_base_internal.h"

#include <algorithm>
#include <string>

#include "quiver/parquet/thrift/compact_protocol_internal.h"

namespace quiver::parquet {

namespace {

std::string Describe(const format::SchemaElement& e) {
  std::string out;
  if (e.repetition_type.has_value()) out += std::string(format::EnumName(*e.repetition_type)) + " ";
  if (e.type.has_value()) {
    out += std::string(format::EnumName(*e.type));
    if (e.type_length.has_value()) out += "(" + std::to_string(*e.type_length) + ")";
  } else {
    out += "group of " + std::to_string(e.num_children.value_or(0));
  }
  if (e.converted_type.has_value()) out += " " + std::string(format::EnumName(*e.converted_type));
  return out;
}

// What the comparison ignores: field ids; the root's name and repetition
// (writers set them freely); plain signed INT32/INT64 annotations (some
// writers annotate them, some do not).
void Normalize(format::SchemaElement* e, bool root) {
  e->field_id.reset();
  if (root) {
    e->name.clear();
    e->repetition_type.reset();
  }
  const bool int32 = e->type == format::Type::kInt32, int64 = e->type == format::Type::kInt64;
  if ((int32 && e->converted_type == format::ConvertedType::kInt32) ||
      (int64 && e->converted_type == format::ConvertedType::kInt64)) {
    e->converted_type.reset();
  }
  if (e->logical_type.has_value() && e->logical_type->integer.has_value()) {
    const auto& i = *e->logical_type->integer;
    if (i.is_signed && ((int32 && i.bit_width == 32) || (int64 && i.bit_width == 64))) e->logical_type.reset();
  }
}

// The two elements' bytes as compared: annotations by logical type when
// both have one, else by converted type (files from older writers).
Status Keys(format::SchemaElement a, format::SchemaElement b, bool root, std::string* ka, std::string* kb) {
  Normalize(&a, root);
  Normalize(&b, root);
  if (a.logical_type.has_value() && b.logical_type.has_value()) {
    a.converted_type.reset();
    b.converted_type.reset();
  } else {
    a.logical_type.reset();
    b.logical_type.reset();
  }
  QUIVER_RETURN_NOT_OK(thrift::SerializeThrift(a, ka));
  return thrift::SerializeThrift(b, kb);
}

}  // namespace

Status CheckAppendSchema(const std::vector<format::SchemaElement>& old,
                         const std::vector<format::SchemaElement>& now) {
  const size_t n = std::min(old.size(), now.size());
  for (size_t i = 0; i < n; ++i) {
    std::string a, b;
    QUIVER_RETURN_NOT_OK(Keys(old[i], now[i], i == 0, &a, &b));
    if (a == b) continue;
    const std::string what = Describe(old[i]) == Describe(now[i])
                                 ? std::string("its logical type annotation differs")
                                 : "the file has " + Describe(old[i]) + ", the new rows " + Describe(now[i]);
    return Status::Invalid("the new rows would be stored differently from the file's column '", old[i].name,
                           "' (Parquet schema element ", i, "): ", what,
                           " (check the writer options that change how columns are stored: version, "
                           "coerce_timestamps)");
  }
  if (old.size() != now.size()) {
    return Status::Invalid("the new rows' Parquet schema has ", now.size(), " elements, the file's ",
                           old.size());
  }
  return Status::OK();
}

Status CopyAppendPrefix(const AppendBase& base, io::AtomicFileOutputStream* sink) {
  QUIVER_ASSIGN_OR_RAISE(int64_t at, sink->Tell());
  if (at != 0) return Status::Invalid("the copied bytes must start the file (at ", at, ")");
  return sink->CopyFrom(base.file->fd(), 0, base.data_end, base.file->name());
}

}  // namespace quiver::parquet
