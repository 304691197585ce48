// The radix sort under sort_indices (sort.h). Not installed.
#pragma once

#include <cstdint>
#include <vector>

namespace quiver::compute::internal {

// Sorts the entries (keys[i], rows[i]) by key, unsigned, stably (equal
// keys keep their entry order). Writes the sorted rows to out_rows and, when
// out_keys is not null, the sorted keys to out_keys (each n entries).
//
// LSD radix sort (Knuth, TAOCP vol. 3, 5.2.5) on 11-bit digits of
// key - min(key), skipping the digits every key shares. When the key's
// range and the row numbers fit together in 64 bits, each entry is one
// packed word (key above, row below) and only the key's bits are sorted;
// otherwise the entries are 16-byte pairs.
// Fewer than 256 entries are sorted by std::stable_sort instead (the
// histograms would cost more than the sort).
void RadixSortByKey(const uint64_t* keys, const uint64_t* rows, size_t n, uint64_t* out_rows,
                    uint64_t* out_keys);
inline void RadixSortByKey(const std::vector<uint64_t>& keys, const std::vector<uint64_t>& rows,
                           uint64_t* out_rows, uint64_t* out_keys) {
  RadixSortByKey(keys.data(), rows.data(), keys.size(), out_rows, out_keys);
}

}  // namespace quiver::compute::internal
