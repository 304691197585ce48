#include "inspect_render.h"

namespace quiver::cli {

ValueContext ContextFor(const InspectedFile& file, const ChunkRecord& chunk) {
  ValueContext context;
  const auto& cc = file.column_chunk(chunk);
  if (cc.meta_data.has_value()) context.type = cc.meta_data->type;
  if (const auto* leaf = file.leaf_element(chunk)) {
    // Annotations only apply when the chunk agrees with the schema.
    if (!leaf->type.has_value() || *leaf->type == context.type) {
      context.element = leaf;
      context.type_length = leaf->type_length.value_or(0);
    }
  }
  return context;
}

StatsView ViewStatistics(const format::Statistics& stats, const ValueContext& context) {
  StatsView view;
  if (stats.min_value.has_value() || stats.max_value.has_value()) {
    if (stats.min_value) view.min = DecodeValue(*stats.min_value, context);
    if (stats.max_value) view.max = DecodeValue(*stats.max_value, context);
  } else if (stats.min.has_value() || stats.max.has_value()) {
    view.legacy = true;
    if (stats.min) view.min = DecodeValue(*stats.min, context);
    if (stats.max) view.max = DecodeValue(*stats.max, context);
  }
  return view;
}

}  // namespace quiver::cli
