#include "quiver/parquet/reader/row_selection.h"

#include <algorithm>

namespace quiver::parquet {

void RowRanges::Append(int64_t begin, int64_t end) {
  if (begin >= end) return;
  row_count_ += end - begin;
  if (!ranges_.empty() && ranges_.back().end == begin) {
    ranges_.back().end = end;
    return;
  }
  ranges_.push_back({begin, end});
}

Result<RowRanges> RowRanges::Make(std::vector<RowRange> ranges) {
  RowRanges out;
  int64_t previous_end = 0;
  for (size_t i = 0; i < ranges.size(); ++i) {
    const RowRange& r = ranges[i];
    if (r.begin < 0 || r.begin > r.end) {
      return Status::Invalid("row range ", i, " [", r.begin, ", ", r.end,
                             ") is not a range of rows (0 <= begin <= end)");
    }
    if (r.begin < previous_end) {
      return Status::Invalid("row range ", i, " [", r.begin, ", ", r.end,
                             ") starts before the end of the one before it (", previous_end,
                             "): row ranges must be sorted and disjoint");
    }
    out.Append(r.begin, r.end);
    previous_end = std::max(previous_end, r.end);
  }
  return out;
}

RowRanges RowRanges::All(int64_t num_rows) {
  RowRanges out;
  out.Append(0, num_rows);
  return out;
}

Result<RowRanges> RowRanges::FromRows(std::span<const int64_t> rows) {
  RowRanges out;
  size_t i = 0;
  while (i < rows.size()) {
    const int64_t begin = rows[i];
    if (begin < 0 || (i > 0 && begin <= rows[i - 1])) {
      return Status::Invalid("row ", i, " (", begin,
                             ") is negative or not after the row before it: rows must be "
                             "sorted ascending without repeats");
    }
    size_t j = i + 1;
    while (j < rows.size() && rows[j] == rows[j - 1] + 1) ++j;
    out.Append(begin, rows[j - 1] + 1);
    i = j;
  }
  return out;
}

bool RowRanges::Contains(int64_t row) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), row,
                             [](int64_t r, const RowRange& range) { return r < range.end; });
  return it != ranges_.end() && it->begin <= row;
}

RowRanges RowRanges::Intersect(const RowRanges& other) const {
  RowRanges out;
  size_t i = 0;
  size_t j = 0;
  while (i < ranges_.size() && j < other.ranges_.size()) {
    const RowRange& a = ranges_[i];
    const RowRange& b = other.ranges_[j];
    out.Append(std::max(a.begin, b.begin), std::min(a.end, b.end));
    if (a.end < b.end) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

RowRanges RowRanges::Union(const RowRanges& other) const {
  RowRanges out;
  size_t i = 0;
  size_t j = 0;
  int64_t begin = -1;
  int64_t end = -1;
  while (i < ranges_.size() || j < other.ranges_.size()) {
    // The next range by start, from either side.
    const bool take_a = j == other.ranges_.size() ||
                        (i < ranges_.size() && ranges_[i].begin <= other.ranges_[j].begin);
    const RowRange& r = take_a ? ranges_[i++] : other.ranges_[j++];
    if (begin >= 0 && r.begin <= end) {
      end = std::max(end, r.end);
      continue;
    }
    if (begin >= 0) out.Append(begin, end);
    begin = r.begin;
    end = r.end;
  }
  if (begin >= 0) out.Append(begin, end);
  return out;
}

std::string RowRanges::ToString() const {
  std::string out;
  for (const RowRange& r : ranges_) {
    if (!out.empty()) out += ", ";
    out += "[" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ")";
  }
  return out;
}

}  // namespace quiver::parquet
