#include "quiver/io/read_ranges.h"

#include <algorithm>
#include <cstring>
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

std::vector<ReadRangeCache::Entry> ReadRangeCache::Pieces(int64_t begin, int64_t end) const {
  std::vector<Entry> out;
  auto it = std::upper_bound(entries_.begin(), entries_.end(), begin,
                             [](int64_t o, const Entry& e) { return o < e.offset; });
  if (it != entries_.begin()) --it;
  for (; it != entries_.end() && it->offset < end; ++it) {
    const int64_t lo = std::max(begin, it->offset);
    const int64_t hi = std::min(end, it->offset + it->bytes->size());
    if (lo < hi) out.push_back({lo, SliceBuffer(it->bytes, lo - it->offset, hi - lo)});
  }
  return out;
}

Status ReadRangeCache::Cache(std::vector<ReadRange> ranges, const ReadRangeCache* held) {
  entries_.clear();
  return Add(std::move(ranges), held);
}

Status ReadRangeCache::Add(std::vector<ReadRange> ranges, const ReadRangeCache* held) {
  // Each range cut to the span from its first byte not held to its last
  // (dropped when all is held) before coalescing, so that no hole is read
  // to reach bytes already held.
  const std::vector<ReadRange> asked = held != nullptr ? ranges : std::vector<ReadRange>{};
  for (ReadRange& r : ranges) {
    std::vector<ReadRange> covered;
    for (const ReadRangeCache* cache : {static_cast<const ReadRangeCache*>(this), held}) {
      if (cache == nullptr) continue;
      for (const Entry& e : cache->Pieces(r.offset, r.end())) {
        covered.push_back({e.offset, e.bytes->size()});
      }
    }
    std::sort(covered.begin(), covered.end(),
              [](const ReadRange& a, const ReadRange& b) { return a.offset < b.offset; });
    int64_t first = -1;
    int64_t last = -1;
    int64_t at = r.offset;
    auto gap = [&](int64_t begin, int64_t end) {
      if (begin >= end) return;
      if (first < 0) first = begin;
      last = end;
    };
    for (const ReadRange& c : covered) {
      gap(at, c.offset);
      at = std::max(at, c.end());
    }
    gap(at, r.end());
    r = first < 0 ? ReadRange{r.offset, 0} : ReadRange{first, last - first};
  }
  std::vector<ReadRange> fetch;  // coalesced, less what is held
  std::vector<Entry> taken;      // the pieces of `held` kept
  for (const ReadRange& r : CoalesceRanges(std::move(ranges), options_)) {
    // The parts of r this cache lacks.
    std::vector<ReadRange> missing;
    int64_t at = r.offset;
    for (const Entry& own : Pieces(r.offset, r.end())) {
      if (own.offset > at) missing.push_back({at, own.offset - at});
      at = own.offset + own.bytes->size();
    }
    if (at < r.end()) missing.push_back({at, r.end() - at});
    for (const ReadRange& m : missing) {
      if (held == nullptr) {
        fetch.push_back(m);
        continue;
      }
      // m less held's pieces; pieces between two parts to fetch read
      // through when short.
      std::vector<Entry> pieces = held->Pieces(m.offset, m.end());
      const size_t first_fetch = fetch.size();
      std::vector<Entry> between;  // held pieces after the last part fetched
      int64_t pos = m.offset;
      auto fetch_to = [&](int64_t end) {
        if (end <= pos) return;
        const bool through =
            fetch.size() > first_fetch &&
            pos - fetch.back().end() <= options_.hole_size_limit;
        if (through) {
          fetch.back().length = end - fetch.back().offset;
          between.clear();
        } else {
          for (Entry& e : between) taken.push_back(std::move(e));
          between.clear();
          fetch.push_back({pos, end - pos});
        }
      };
      for (Entry& piece : pieces) {
        fetch_to(piece.offset);
        pos = piece.offset + piece.bytes->size();
        between.push_back(std::move(piece));
      }
      fetch_to(m.end());
      for (Entry& e : between) taken.push_back(std::move(e));
    }
  }
  std::vector<Entry> added;
  for (const ReadRange& r : fetch) {
    QUIVER_ASSIGN_OR_RAISE(auto bytes, file_->ReadAt(r.offset, r.length));
    added.push_back({r.offset, std::move(bytes)});
  }
  for (Entry& e : taken) added.push_back(std::move(e));
  // The held pieces of the ranges asked that nothing fetched or cached
  // covers: held here too (a read spanning them and fetched bytes is then
  // joined here rather than sent to the file).
  auto overlaps = [&](int64_t begin, int64_t end) {
    if (!Pieces(begin, end).empty()) return true;
    return std::any_of(added.begin(), added.end(), [&](const Entry& e) {
      return e.offset < end && begin < e.offset + e.bytes->size();
    });
  };
  for (const ReadRange& r : asked) {
    for (Entry& piece : held->Pieces(r.offset, r.end())) {
      if (!overlaps(piece.offset, piece.offset + piece.bytes->size())) {
        added.push_back(std::move(piece));
      }
    }
  }
  for (Entry& e : added) entries_.push_back(std::move(e));
  std::sort(entries_.begin(), entries_.end(),
            [](const Entry& a, const Entry& b) { return a.offset < b.offset; });
  return Status::OK();
}

void ReadRangeCache::Hold(int64_t offset, std::shared_ptr<Buffer> bytes) {
  const int64_t end = offset + bytes->size();
  if (bytes->size() == 0 || !Pieces(offset, end).empty()) return;
  entries_.push_back({offset, std::move(bytes)});
  std::sort(entries_.begin(), entries_.end(),
            [](const Entry& a, const Entry& b) { return a.offset < b.offset; });
}

void ReadRangeCache::Clear() { entries_.clear(); }

std::vector<ReadRange> ReadRangeCache::cached_ranges() const {
  std::vector<ReadRange> out;
  for (const Entry& e : entries_) {
    if (!out.empty() && out.back().end() == e.offset) {
      out.back().length += e.bytes->size();
    } else {
      out.push_back({e.offset, e.bytes->size()});
    }
  }
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
      if (offset < e.offset + e.bytes->size()) {
        // Touching pieces that hold it all: joined.
        int64_t end = e.offset + e.bytes->size();
        auto next = it;
        while (end < offset + length && next != entries_.end() && next->offset == end) {
          end += next->bytes->size();
          ++next;
        }
        if (end >= offset + length) {
          std::vector<uint8_t> joined(static_cast<size_t>(length));
          for (const Entry& piece : Pieces(offset, offset + length)) {
            std::memcpy(joined.data() + (piece.offset - offset), piece.bytes->data(),
                        static_cast<size_t>(piece.bytes->size()));
          }
          return Buffer::FromVector(std::move(joined));
        }
      }
    }
  }
  return file_->ReadAt(offset, length);
}

}  // namespace quiver::io
