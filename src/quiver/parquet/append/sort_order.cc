#include "quiver/parquet/append/sort_order_internal.h"

#include <cstdint>

#include "quiver/compute/compare.h"

namespace quiver::parquet::internal {

namespace {

bool Bit(const ArrayData& booleans, int64_t i) {
  return bit_util::GetBit(booleans.buffers[1]->data(), booleans.offset + i);
}

}  // namespace

Result<bool> PairsInOrder(const std::vector<ArrayDataPtr>& a, const std::vector<ArrayDataPtr>& b,
                          const std::vector<OrderKey>& keys) {
  if (keys.empty() || a.empty()) return true;
  const int64_t n = a[0]->length;
  std::vector<uint8_t> decided(static_cast<size_t>(n), 0);
  for (size_t k = 0; k < keys.size(); ++k) {
    const ArrayData& left = *a[k];
    const ArrayData& right = *b[k];
    // "before": strictly earlier in this key's direction.
    QUIVER_ASSIGN_OR_RAISE(auto before,
                           keys[k].descending ? compute::Less(b[k], a[k]) : compute::Less(a[k], b[k]));
    QUIVER_ASSIGN_OR_RAISE(auto equal, compute::Equal(a[k], b[k]));
    const ArrayData& lt = *before.array();
    const ArrayData& eq = *equal.array();
    for (int64_t i = 0; i < n; ++i) {
      if (decided[static_cast<size_t>(i)] != 0) continue;
      const bool left_null = left.IsNull(i), right_null = right.IsNull(i);
      if (left_null && right_null) continue;
      if (left_null || right_null) {
        if (left_null != keys[k].nulls_first) return false;
        decided[static_cast<size_t>(i)] = 1;
        continue;
      }
      if (lt.IsNull(i) || eq.IsNull(i)) return false;
      if (Bit(lt, i)) {
        decided[static_cast<size_t>(i)] = 1;
      } else if (!Bit(eq, i)) {
        return false;
      }
    }
  }
  return true;
}

Result<bool> RowsInOrder(const std::vector<ArrayDataPtr>& columns, const std::vector<ArrayDataPtr>& prev,
                         const std::vector<OrderKey>& keys) {
  if (keys.empty() || columns.empty() || columns[0]->length == 0) return true;
  const int64_t n = columns[0]->length;
  if (!prev.empty()) {
    std::vector<ArrayDataPtr> first;
    for (const auto& c : columns) first.push_back(c->Slice(0, 1));
    QUIVER_ASSIGN_OR_RAISE(bool ok, PairsInOrder(prev, first, keys));
    if (!ok) return false;
  }
  if (n < 2) return true;
  std::vector<ArrayDataPtr> earlier, later;
  for (const auto& c : columns) {
    earlier.push_back(c->Slice(0, n - 1));
    later.push_back(c->Slice(1, n - 1));
  }
  return PairsInOrder(earlier, later, keys);
}

}  // namespace quiver::parquet::internal
