#include "quiver/parquet/writer/distinct_count_internal.h"

#include <cstring>

namespace quiver::parquet {

Status BytesDistinctCounter::Add(const std::string_view* values, int64_t n) {
  for (int64_t j = 0; j < n; ++j) {
    const std::string_view v = values[j];
    if (j > 0) {
      const std::string_view prev = values[j - 1];
      if (v.size() == prev.size() &&
          (v.empty() || v.data() == prev.data() || std::memcmp(v.data(), prev.data(), v.size()) == 0)) {
        continue;
      }
    }
    QUIVER_RETURN_NOT_OK(table_.GetOrInsert(v).status());
  }
  return Status::OK();
}

}  // namespace quiver::parquet
