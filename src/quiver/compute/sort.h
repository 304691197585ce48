// sort_indices: the row order that sorts an array, or a record batch by
// several columns, as pyarrow.compute.sort_indices gives it.
//
//  - Stable: rows with equal keys keep their input order, so the result is
//    exactly pyarrow's (which is stable too), whatever the order.
//  - Each key ascending or descending, with its nulls at_end or at_start.
//    Floating-point NaN sorts after every number and before the nulls in
//    both orders (at_end: numbers, NaN, nulls; at_start: nulls, NaN,
//    numbers); -0.0 equals +0.0; every NaN equals every other.
//  - Types: every integer, float16/32/64, boolean (false < true), date,
//    time, timestamp, duration, decimal32/64/128/256 (by value), string /
//    binary in their three layouts and fixed_size_binary (bytes in memcmp
//    order, a prefix before its extensions), dictionary arrays (by the
//    value each index points to; a null value is a null row), null.
//    Others: NotImplemented naming the function and the type.
//  - Result: uint64 row indices, no validity buffer.
// Memory: the keys and row numbers of every row and the radix sort's two
// buffers: up to about 64 bytes a row for one key (string keys also keep a
// 16-byte view and two 8-byte entries a row), and 8 bytes a row more for
// each key of a multi-key sort (its ranks). The algorithm is in sort.cc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/array/record_batch.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute {

enum class SortOrder : uint8_t { kAscending, kDescending };
enum class NullPlacement : uint8_t { kAtEnd, kAtStart };

// pyarrow's spellings: "ascending" / "descending", "at_end" / "at_start".
Result<SortOrder> ParseSortOrder(std::string_view text);
Result<NullPlacement> ParseNullPlacement(std::string_view text);

// One key of a multi-column sort: a column (by name, or by the array
// itself for SortIndices(std::vector<ColumnSortKey>)).
struct SortKey {
  std::string name;
  SortOrder order = SortOrder::kAscending;
  NullPlacement null_placement = NullPlacement::kAtEnd;
};
struct ColumnSortKey {
  ArrayDataPtr values;
  SortOrder order = SortOrder::kAscending;
  NullPlacement null_placement = NullPlacement::kAtEnd;
};

Result<ArrayDataPtr> SortIndices(const ArrayData& values, SortOrder order = SortOrder::kAscending,
                                 NullPlacement null_placement = NullPlacement::kAtEnd,
                                 MemoryPool* pool = DefaultMemoryPool());
// Lexicographic by the keys, first key first; the columns have equal
// lengths. No key: Invalid "Must specify one or more sort keys".
Result<ArrayDataPtr> SortIndices(const std::vector<ColumnSortKey>& keys,
                                 MemoryPool* pool = DefaultMemoryPool());
// Keys by top-level column name; a name the batch lacks is Invalid naming
// it and the batch's columns.
Result<ArrayDataPtr> SortIndices(const RecordBatch& batch, const std::vector<SortKey>& keys,
                                 MemoryPool* pool = DefaultMemoryPool());

}  // namespace quiver::compute
