#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>

#include "quiver/compute/sort_internal.h"

namespace quiver::compute::internal {

namespace {

constexpr int kDigitBits = 11;
constexpr size_t kBuckets = size_t{1} << kDigitBits;
constexpr int kMaxDigits = (64 + kDigitBits - 1) / kDigitBits;

// Entries of one layout: Key(e) gives the (min-subtracted) key.
struct Packed {
  using Entry = uint64_t;
  int row_bits;
  uint64_t Key(const Entry& e) const { return e >> row_bits; }
};
struct Pair {
  struct Entry {
    uint64_t key;
    uint64_t row;
  };
  uint64_t Key(const Entry& e) const { return e.key; }
};

// Sorts entries a[0, n) by the low `key_bits` bits of their keys, stably;
// `b` is scratch of n entries. Returns where the sorted entries are (a or b).
template <typename Layout>
typename Layout::Entry* LsdSort(const Layout& layout, typename Layout::Entry* a,
                                typename Layout::Entry* b, size_t n, int key_bits) {
  const int digits = (key_bits + kDigitBits - 1) / kDigitBits;
  std::vector<std::array<size_t, kBuckets>> counts(static_cast<size_t>(digits));
  for (auto& c : counts) c.fill(0);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t k = layout.Key(a[i]);
    for (int d = 0; d < digits; ++d) ++counts[static_cast<size_t>(d)][(k >> (d * kDigitBits)) & (kBuckets - 1)];
  }
  for (int d = 0; d < digits; ++d) {
    auto& c = counts[static_cast<size_t>(d)];
    // Every key has the same digit here: nothing moves.
    if (c[(layout.Key(a[0]) >> (d * kDigitBits)) & (kBuckets - 1)] == n) continue;
    size_t sum = 0;
    for (auto& x : c) {
      const size_t t = x;
      x = sum;
      sum += t;
    }
    const int shift = d * kDigitBits;
    for (size_t i = 0; i < n; ++i) {
      b[c[(layout.Key(a[i]) >> shift) & (kBuckets - 1)]++] = a[i];
    }
    std::swap(a, b);
  }
  return a;
}

}  // namespace

void RadixSortByKey(const uint64_t* keys, const uint64_t* rows, size_t n, uint64_t* out_rows,
                    uint64_t* out_keys) {
  if (n == 0) return;
  if (n < 256) {
    std::vector<Pair::Entry> e(n);
    for (size_t i = 0; i < n; ++i) e[i] = {keys[i], rows[i]};
    std::stable_sort(e.begin(), e.end(),
                     [](const Pair::Entry& x, const Pair::Entry& y) { return x.key < y.key; });
    for (size_t i = 0; i < n; ++i) out_rows[i] = e[i].row;
    if (out_keys != nullptr) {
      for (size_t i = 0; i < n; ++i) out_keys[i] = e[i].key;
    }
    return;
  }
  uint64_t min = keys[0], max = keys[0], max_row = 0;
  for (size_t i = 0; i < n; ++i) {
    min = std::min(min, keys[i]);
    max = std::max(max, keys[i]);
    max_row = std::max(max_row, rows[i]);
  }
  const int key_bits = std::bit_width(max - min);
  const int row_bits = std::bit_width(max_row);
  if (key_bits == 0) {  // one key value: the entry order
    std::memcpy(out_rows, rows, n * sizeof(uint64_t));
    if (out_keys != nullptr) std::fill(out_keys, out_keys + n, min);
    return;
  }
  if (key_bits + row_bits <= 64) {
    // Not zeroed: every entry is written before it is read.
    std::unique_ptr<uint64_t[]> a(new uint64_t[n]), b(new uint64_t[n]);
    for (size_t i = 0; i < n; ++i) a[i] = ((keys[i] - min) << row_bits) | rows[i];
    const Packed layout{row_bits};
    const uint64_t* sorted = LsdSort(layout, a.get(), b.get(), n, key_bits);
    const uint64_t row_mask = row_bits == 64 ? ~uint64_t{0} : (uint64_t{1} << row_bits) - 1;
    for (size_t i = 0; i < n; ++i) out_rows[i] = sorted[i] & row_mask;
    if (out_keys != nullptr) {
      for (size_t i = 0; i < n; ++i) out_keys[i] = (sorted[i] >> row_bits) + min;
    }
    return;
  }
  std::unique_ptr<Pair::Entry[]> a(new Pair::Entry[n]), b(new Pair::Entry[n]);
  for (size_t i = 0; i < n; ++i) a[i] = {keys[i] - min, rows[i]};
  const Pair::Entry* sorted = LsdSort(Pair{}, a.get(), b.get(), n, key_bits);
  for (size_t i = 0; i < n; ++i) out_rows[i] = sorted[i].row;
  if (out_keys != nullptr) {
    for (size_t i = 0; i < n; ++i) out_keys[i] = sorted[i].key + min;
  }
}

}  // namespace quiver::compute::internal
