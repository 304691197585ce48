// The rows of one row group a read returns: sorted, disjoint, coalesced
// half-open ranges [begin, end) of row indices within the row group (as
// Arrow C++'s parquet RowRanges and arrow-rs's RowSelection as runs).
//
//   QUIVER_ASSIGN_OR_RAISE(auto rows, RowRanges::Make({{0, 10}, {500, 600}}));
//   reader->ReadRowGroups({0}, {rows});   // 110 rows, in file order
//
// Ranges that touch ({0, 5}, {5, 9}) are merged into one and empty ranges
// dropped, so two RowRanges of the same rows compare equal. The reader
// (file_reader.h) skips the rows between ranges: whole pages without
// reading them where the column chunk has an offset index, otherwise by
// decoding their levels and skipping their values unmaterialised.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "quiver/util/result.h"

namespace quiver::parquet {

struct RowRange {
  int64_t begin = 0;  // first row
  int64_t end = 0;    // one past the last row
  int64_t length() const { return end - begin; }
  bool operator==(const RowRange&) const = default;
};

class RowRanges {
 public:
  // No rows.
  RowRanges() = default;

  // `ranges` checked: every begin >= 0 and begin <= end, each range after
  // the previous one (begin >= the previous end); Invalid naming the first
  // range that is not. Touching ranges are merged, empty ones dropped.
  static Result<RowRanges> Make(std::vector<RowRange> ranges);
  // [0, num_rows) (no rows when num_rows <= 0).
  static RowRanges All(int64_t num_rows);
  // The rows `rows` (sorted ascending, no repeats, >= 0; else Invalid) as
  // runs.
  static Result<RowRanges> FromRows(std::span<const int64_t> rows);

  const std::vector<RowRange>& ranges() const { return ranges_; }
  // Rows selected (the sum of the lengths).
  int64_t row_count() const { return row_count_; }
  bool empty() const { return ranges_.empty(); }
  // One past the last row selected (0 when empty).
  int64_t end() const { return ranges_.empty() ? 0 : ranges_.back().end; }
  bool Contains(int64_t row) const;

  // The rows in both / in either.
  RowRanges Intersect(const RowRanges& other) const;
  RowRanges Union(const RowRanges& other) const;

  bool operator==(const RowRanges& other) const { return ranges_ == other.ranges_; }
  // "[0, 10), [500, 600)" ("" when empty).
  std::string ToString() const;

 private:
  // Appends [begin, end) after the last range (begin >= end()), merging.
  void Append(int64_t begin, int64_t end);

  std::vector<RowRange> ranges_;
  int64_t row_count_ = 0;
};

}  // namespace quiver::parquet
