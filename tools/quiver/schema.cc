// `quiver schema FILE [--json]`: a Parquet file's schema twice over: the
// Arrow schema the reader returns (parquet::FileReader::schema(), with
// ARROW:schema applied) and the Parquet schema tree of the footer (name,
// repetition, physical type, type length, logical and converted type,
// field id; rendered as `quiver inspect` does). --json prints one document:
//
//   {"arrow": {"fields": [{"name", "type", "nullable", "metadata"?,
//                          "children"?: [...]}], "metadata"?: {...}},
//    "parquet": [{"name", "path", "depth", "is_leaf", "repetition_type", ...}],
//    "warnings": [...]}
//
// Exit codes: 0 ok, 1 unreadable file, 2 usage.
#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "cli_common.h"
#include "inspect_model.h"
#include "inspect_render.h"
#include "json_writer.h"
#include "quiver/io/memory.h"
#include "quiver/parquet/reader/file_reader.h"
#include "text_table.h"

namespace quiver::cli {

namespace {

constexpr std::string_view kCommand = "schema";
// Text output cuts metadata values (a pandas schema is kilobytes of JSON).
constexpr size_t kMaxMetadataWidth = 100;

struct SchemaArgs {
  std::string path;
  bool json = false;
};

void MetadataText(const KeyValueMetadata* metadata, size_t indent, std::string* out) {
  if (metadata == nullptr) return;
  for (int64_t i = 0; i < metadata->size(); ++i) {
    *out += std::string(indent, ' ') + EscapeBytes(metadata->key(i)) + ": " +
            TruncateDisplay(EscapeBytes(metadata->value(i)), kMaxMetadataWidth) + "\n";
  }
}

std::string SchemaText(const Schema& arrow, const InspectedFile& file,
                       const std::vector<std::string>& warnings) {
  std::string out = "arrow schema:\n";
  for (const auto& field : arrow.fields()) {
    out += "  " + EscapeBytes(field->ToString()) + "\n";
    if (field->metadata() != nullptr && field->metadata()->size() > 0) {
      out += "    field metadata:\n";
      MetadataText(field->metadata().get(), 6, &out);
    }
  }
  if (arrow.metadata() != nullptr && arrow.metadata()->size() > 0) {
    out += "  schema metadata:\n";
    MetadataText(arrow.metadata().get(), 4, &out);
  }
  out += "\nparquet schema:\n";
  RenderSchemaText(file, &out);
  if (!warnings.empty()) {
    out += "\nwarnings:\n";
    for (const auto& w : warnings) out += "  " + EscapeBytes(w) + "\n";
  }
  return out;
}

void MetadataJson(JsonWriter* w, const KeyValueMetadata* metadata) {
  if (metadata == nullptr || metadata->size() == 0) return;
  w->Key("metadata");
  w->BeginObject();
  for (int64_t i = 0; i < metadata->size(); ++i) w->Member(metadata->key(i), metadata->value(i));
  w->EndObject();
}

void FieldJson(JsonWriter* w, const Field& field) {
  w->BeginObject();
  w->Member("name", field.name());
  w->Member("type", field.type()->ToString());
  w->Member("nullable", field.nullable());
  MetadataJson(w, field.metadata().get());
  if (field.type()->num_fields() > 0) {
    w->Key("children");
    w->BeginArray();
    for (const auto& child : field.type()->fields()) FieldJson(w, *child);
    w->EndArray();
  }
  w->EndObject();
}

std::string SchemaJson(const Schema& arrow, const InspectedFile& file,
                       const std::vector<std::string>& warnings) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  w.Key("arrow");
  w.BeginObject();
  w.Key("fields");
  w.BeginArray();
  for (const auto& field : arrow.fields()) FieldJson(&w, *field);
  w.EndArray();
  MetadataJson(&w, arrow.metadata().get());
  w.EndObject();
  w.Key("parquet");
  WriteSchemaJson(&w, file);
  w.Key("warnings");
  w.BeginArray();
  for (const auto& warning : warnings) w.String(warning);
  w.EndArray();
  w.EndObject();
  return out;
}

int RunSchema(const SchemaArgs& args) {
  const std::string name = args.path == "-" ? "<stdin>" : args.path;
  auto data = LoadInput(args.path);
  if (!data.ok()) {
    PrintError(kCommand, name + ": " + ErrorMessage(data.status()));
    return kExitFailure;
  }
  auto reader = parquet::FileReader::Open(std::make_shared<io::BufferReader>(*data, name));
  if (!reader.ok()) {
    PrintError(kCommand, ErrorMessage(WithName(reader.status(), name)));
    return kExitFailure;
  }
  InspectOptions options;
  options.walk_pages = false;
  options.read_page_index = false;
  auto file = InspectFile(**data, name, options);
  if (!file.ok()) {
    PrintError(kCommand, ErrorMessage(WithName(file.status(), name)));
    return kExitFailure;
  }
  const Schema& arrow = *(*reader)->schema();
  const auto& warnings = (*reader)->warnings();
  const std::string text =
      args.json ? SchemaJson(arrow, *file, warnings) : SchemaText(arrow, *file, warnings);
  StdoutSink sink;
  Status st = sink.Write(text);
  if (st.ok()) st = sink.Close();
  if (!st.ok()) {
    PrintError(kCommand, ErrorMessage(st));
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

Runner AddSchemaCommand(CLI::App* app) {
  auto args = std::make_shared<SchemaArgs>();
  CLI::App* cmd = app->add_subcommand(
      "schema", "Show a Parquet file's Arrow schema and Parquet schema tree");
  cmd->add_option("FILE", args->path, "Parquet file ('-' = standard input)")->required();
  cmd->add_flag("--json", args->json, "Print one JSON document");
  return [args] { return RunSchema(*args); };
}

}  // namespace quiver::cli
