#include "quiver/io/read_ranges.h"

#include <algorithm>
#include <utility>

namespace quiver::io {

std::vector<ReadRange> CoalesceRanges(std::vector<ReadRange> ranges,
                                      const CoalesceOptions& options) {
  std::erase_if(ranges, [](const ReadRange& r) { return r.length <= 0; });
  std::sort(ranges.begin(), ranges.end(), [](const ReadRange& a, const ReadRange& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.length > b.length;
  });
  std::vector<ReadRange> out;
  for (const ReadRange& r : ranges) {
    if (!out.empty()) {
      ReadRange& last = out.back();
      const int64_t end = std::max(last.end(), r.end());
      const bool overlaps = r.offset <= last.end();
      const bool near = r.offset - last.end() <= options.hole_size_limit &&
                        end - last.offset <= options.range_size_limit;
      if (overlaps || near) {
        last.length = end - last.offset;
        continue;
      }
    }
    out.push_back(r);
  }
  return out;
}

ReadRangeCache::ReadRangeCache(std::shared_ptr<RandomAccessFile> file, CoalesceOptions options)
    : file_(std::move(file)), options_(options) {}

Status ReadRangeCache::Cache(std::vector<ReadRange> ranges) {
  entries_.clear();
  for (const ReadRange& r : CoalesceRanges(std::move(ranges), options_)) {
    auto bytes = file_->ReadAt(r.offset, r.length);
    if (!bytes.ok()) {
      entries_.clear();
      return bytes.status();
    }
    entries_.push_back({r.offset, std::move(*bytes)});
  }
  return Status::OK();
}

void ReadRangeCache::Clear() { entries_.clear(); }

std::vector<ReadRange> ReadRangeCache::cached_ranges() const {
  std::vector<ReadRange> out;
  for (const Entry& e : entries_) out.push_back({e.offset, e.bytes->size()});
  return out;
}

Result<std::shared_ptr<Buffer>> ReadRangeCache::ReadAt(int64_t offset, int64_t length) const {
  if (offset >= 0 && length >= 0 && !entries_.empty()) {
    // The last entry starting at or before `offset`.
    auto it = std::upper_bound(entries_.begin(), entries_.end(), offset,
                               [](int64_t o, const Entry& e) { return o < e.offset; });
    if (it != entries_.begin()) {
      const Entry& e = *(it - 1);
      if (offset - e.offset <= e.bytes->size() - length) {
        return SliceBuffer(e.bytes, offset - e.offset, length);
      }
    }
  }
  return file_->ReadAt(offset, length);
}

}  // namespace quiver::io
