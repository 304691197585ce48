#include "convert_json.h"

#include <sys/stat.h>

#include <algorithm>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "quiver/csv/input.h"
#include "quiver/csv/schema_spec.h"
#include "quiver/json/reader.h"

namespace quiver::cli {

namespace {

class JsonSource final : public BatchSource {
 public:
  std::unique_ptr<json::StreamingReader> reader;

  const SchemaPtr& schema() const override { return reader->schema(); }
  std::string_view format_name() const override { return "JSON Lines"; }
  Result<RecordBatchPtr> Next() override { return reader->Next(); }
  int64_t total_rows() const override { return -1; }
  int64_t bytes_done() const override { return reader->bytes_read(); }
  void set_name(std::string n) { name_ = std::move(n); }
  void set_total_bytes(int64_t n) { total_bytes_ = n; }
};

Status CheckJsonFlags(const TextInputFlags& f) {
  const std::string flag = FirstCsvOnlyFlag(f);
  if (!flag.empty()) {
    return Status::Invalid(flag, " applies to CSV / TSV input only, not JSON Lines (a JSON "
                           "Lines error stops the conversion)");
  }
  if (!f.infer_rows.empty() && f.infer_rows != "all") {
    return Status::Invalid("--infer-rows for JSON Lines: only 'all' (types widened over the "
                           "whole input, held in memory); the default is the first block "
                           "(--block-size)");
  }
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<BatchSource>> OpenJsonSource(const std::string& path,
                                                    const TextInputFlags& f,
                                                    int64_t block_size) {
  QUIVER_RETURN_NOT_OK(CheckJsonFlags(f));
  const std::string name = path == "-" ? "<stdin>" : path;
  json::ReadOptions read;
  read.block_size = block_size;
  if (f.infer_rows == "all") read.infer_blocks = json::ReadOptions::kInferAll;
  json::ParseOptions parse;
  if (!f.schema.empty()) {
    QUIVER_ASSIGN_OR_RAISE(auto types, csv::ParseSchemaSpec(f.schema));
    // In the order given (the map is by name).
    std::vector<std::pair<size_t, FieldPtr>> ordered;
    for (const auto& [field_name, type] : types) {
      ordered.emplace_back(f.schema.find(field_name), field(field_name, type));
    }
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    FieldVector fields;
    for (auto& entry : ordered) fields.push_back(std::move(entry.second));
    parse.explicit_schema = schema(std::move(fields));
  }
  QUIVER_ASSIGN_OR_RAISE(auto input, csv::OpenInput(path, f.encoding));
  auto source = std::make_unique<JsonSource>();
  source->set_name(name);
  if (path != "-") {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 &&
        csv::CompressionFromName(path) == csv::Compression::kNone) {
      source->set_total_bytes(st.st_size);
    }
  }
  QUIVER_ASSIGN_OR_RAISE(source->reader,
                         json::StreamingReader::Open(std::move(input), name, read, parse));
  return std::unique_ptr<BatchSource>(std::move(source));
}

}  // namespace quiver::cli
