#include "quiver/parquet/bloom/distinct_hashes.h"

namespace quiver::parquet {

void DistinctHashes::Grow() {
  std::vector<uint64_t> old = std::move(slots_);
  const size_t capacity = old.empty() ? 1024 : old.size() * 2;
  slots_.assign(capacity, 0);
  mask_ = capacity - 1;
  size_ = 0;
  for (uint64_t k : old) {
    if (k != 0) Insert(k);
  }
}

std::vector<uint64_t> DistinctHashes::Values() const {
  std::vector<uint64_t> out;
  out.reserve(static_cast<size_t>(size()));
  for (uint64_t k : slots_) {
    if (k != 0) out.push_back(k);
  }
  if (has_zero_) out.push_back(0);
  return out;
}

}  // namespace quiver::parquet
