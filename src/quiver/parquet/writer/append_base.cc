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

// The element as the comparison sees it: no field id; the root unnamed.
Result<std::string> Key(format::SchemaElement e, bool root) {
  e.field_id.reset();
  if (root) e.name.clear();
  std::string bytes;
  QUIVER_RETURN_NOT_OK(thrift::SerializeThrift(e, &bytes));
  return bytes;
}

}  // namespace

Status CheckAppendSchema(const std::vector<format::SchemaElement>& old,
                         const std::vector<format::SchemaElement>& now) {
  const size_t n = std::min(old.size(), now.size());
  for (size_t i = 0; i < n; ++i) {
    QUIVER_ASSIGN_OR_RAISE(auto a, Key(old[i], i == 0));
    QUIVER_ASSIGN_OR_RAISE(auto b, Key(now[i], i == 0));
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

Status CopyAppendPrefix(const AppendBase& base, io::OutputStream* sink) {
  constexpr int64_t kStep = int64_t{8} << 20;
  for (int64_t at = 0; at < base.data_end; at += kStep) {
    const int64_t len = std::min(kStep, base.data_end - at);
    QUIVER_ASSIGN_OR_RAISE(auto bytes, base.file->ReadAt(at, len));
    if (bytes->size() != len) {
      return Status::IOError("'", base.file->name(), "': read ", bytes->size(), " bytes at offset ", at,
                             " where ", len, " were expected (the file changed while appending?)");
    }
    QUIVER_RETURN_NOT_OK(sink->Write(bytes->data(), len));
  }
  return Status::OK();
}

}  // namespace quiver::parquet
