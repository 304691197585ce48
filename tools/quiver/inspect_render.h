// The two outputs of `quiver inspect`: an aligned human-readable report
// (inspect_text.cc) and one JSON document (inspect_json.cc), both rendered
// from an InspectedFile, plus the helpers they share.
#pragma once

#include <optional>
#include <string>

#include "inspect_model.h"
#include "inspect_values.h"

namespace quiver::cli {

struct RenderOptions {
  bool show_pages = true;
};

std::string RenderText(const InspectedFile& file, const RenderOptions& options);
std::string RenderJson(const InspectedFile& file, const RenderOptions& options);
// The self-contained HTML page of `quiver inspect --html` (inspect_html.cc).
std::string RenderHtml(const InspectedFile& file);

class JsonWriter;
// The Parquet schema tree (name, repetition, physical type, length, logical
// and converted type, field id): an aligned table indented by two spaces, or
// a JSON array of one object per element.
void RenderSchemaText(const InspectedFile& file, std::string* out);
void WriteSchemaJson(JsonWriter* w, const InspectedFile& file);

// How to decode the statistics values of a chunk.
ValueContext ContextFor(const InspectedFile& file, const ChunkRecord& chunk);

// min/max of a Statistics struct: min_value/max_value, else the deprecated
// min/max (`legacy`).
struct StatsView {
  std::optional<DecodedValue> min;
  std::optional<DecodedValue> max;
  bool legacy = false;
};
StatsView ViewStatistics(const format::Statistics& stats, const ValueContext& context);

}  // namespace quiver::cli
