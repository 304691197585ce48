// The distinct 64-bit value hashes of a column chunk, for sizing and filling
// its Bloom filter: Arrow C++ sizes a chunk's filter for the distinct values
// actually written (at most the ndv option), so the hashes are collected
// first and inserted at the end. An open-addressing set (linear probing, at
// most half full) keyed by the hash itself: XXH64 output is already
// uniformly distributed, so its low bits pick the slot.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace quiver::parquet {

class DistinctHashes {
 public:
  void Insert(uint64_t hash) {
    if (hash == 0) {
      has_zero_ = true;
      return;
    }
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    size_t i = static_cast<size_t>(hash) & mask_;
    while (true) {
      const uint64_t k = slots_[i];
      if (k == hash) return;
      if (k == 0) {
        slots_[i] = hash;
        ++size_;
        return;
      }
      i = (i + 1) & mask_;
    }
  }
  void Insert(const uint64_t* hashes, int64_t n) {
    for (int64_t i = 0; i < n; ++i) Insert(hashes[i]);
  }

  int64_t size() const { return static_cast<int64_t>(size_) + (has_zero_ ? 1 : 0); }

  // The distinct hashes, in no particular order.
  std::vector<uint64_t> Values() const;

 private:
  void Grow();

  std::vector<uint64_t> slots_;  // 0 = empty
  size_t mask_ = 0;
  size_t size_ = 0;  // non-zero hashes stored
  bool has_zero_ = false;
};

}  // namespace quiver::parquet
