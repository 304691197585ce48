#include "quiver/parquet/reader/parallel_read_internal.h"

#include <algorithm>
#include <cstdlib>

#include "quiver/parquet/reader/file_reader.h"

namespace quiver::parquet::internal {

int64_t ParallelReadMinBytes() {
  const char* env = std::getenv("QUIVER_MIN_TASK_WORK");
  if (env == nullptr || *env == '\0') return kParallelReadMinBytes;
  char* end = nullptr;
  const long long v = std::strtoll(env, &end, 10);
  return *end == '\0' && v >= 0 ? static_cast<int64_t>(v) : kParallelReadMinBytes;
}

bool DecodesAtLeast(const format::FileMetaData& metadata, const std::vector<int>& groups,
                    const std::vector<int32_t>& leaves, const std::vector<RowRanges>* selections,
                    int64_t min_bytes, double share) {
  if (min_bytes <= 0) return true;
  double total = 0;  // (a double: no overflow, whatever the footer says)
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g] < 0 || static_cast<size_t>(groups[g]) >= metadata.row_groups.size()) continue;
    const format::RowGroup& group = metadata.row_groups[static_cast<size_t>(groups[g])];
    double group_share = share;
    if (selections != nullptr && g < selections->size()) {
      group_share *= group.num_rows > 0 ? static_cast<double>((*selections)[g].row_count()) /
                                              static_cast<double>(group.num_rows)
                                        : 0;
    }
    for (int32_t leaf : leaves) {
      if (leaf < 0 || static_cast<size_t>(leaf) >= group.columns.size()) continue;
      const format::ColumnChunk& chunk = group.columns[static_cast<size_t>(leaf)];
      if (!chunk.meta_data.has_value()) continue;
      const int64_t size = std::max<int64_t>(chunk.meta_data->total_uncompressed_size, 0);
      total += static_cast<double>(size) * group_share;
      if (total >= static_cast<double>(min_bytes)) return true;
    }
  }
  return false;
}

}  // namespace quiver::parquet::internal
