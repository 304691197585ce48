// Reading a file by planned byte ranges: the ranges a read needs are
// coalesced (nearby ones merged) and fetched once, then reads inside them are
// served from those buffers (zero-copy slices) with no request to the file.
// In the spirit of Arrow C++'s io::internal::ReadRangeCache and arrow-rs's
// get_byte_ranges / coalesce_ranges.
//
//   auto cache = std::make_shared<io::ReadRangeCache>(file);
//   QUIVER_RETURN_NOT_OK(cache->Cache({{4, 1000}, {1010, 500}}));  // one read
//   cache->ReadAt(100, 50);    // a slice of it, nothing requested
//   cache->ReadAt(9000, 10);   // outside the cached ranges: from `file`
//
// The Parquet reader fetches a row group's column chunks (or, for a row
// selection with an offset index, the pages it needs) this way; a file
// system (a Python file object, an fsspec or object-store file) then sees
// few, large, non-overlapping requests.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quiver/io/interfaces.h"

namespace quiver::io {

struct ReadRange {
  int64_t offset = 0;
  int64_t length = 0;
  int64_t end() const { return offset + length; }
  bool operator==(const ReadRange&) const = default;
};

struct CoalesceOptions {
  // Two ranges with at most this many bytes between them are read as one
  // (the hole's bytes are read and dropped). 8 KiB, Arrow C++'s
  // CacheOptions default: on a local file or in memory a hole costs a copy,
  // so it stays small; a caller facing a high per-request latency (an
  // object store: arrow-rs uses 1 MiB) passes more.
  int64_t hole_size_limit = 8 * 1024;
  // Ranges are not merged into one read longer than this (32 MiB, Arrow
  // C++'s default); a single range longer than it is read whole, not split.
  int64_t range_size_limit = 32 * 1024 * 1024;
};

// `ranges` sorted by offset, empty ones dropped, overlapping or touching
// ones merged, and ranges whose hole is at most hole_size_limit merged while
// the merged range stays within range_size_limit. Every byte of `ranges` is
// in exactly one range of the result.
std::vector<ReadRange> CoalesceRanges(std::vector<ReadRange> ranges,
                                      const CoalesceOptions& options = {});

// A RandomAccessFile over `file` whose reads inside the ranges it caches
// come from the buffers read then (a read spanning several touching cached
// pieces is served too, as one copy). Reads outside them go to `file` as
// asked. ReadAt is safe from several threads at once; Cache(), Add() and
// Clear() must not run while another call does.
//
// `held` (Cache, Add): another cache whose bytes are taken rather than
// fetched again, so that a read planned in rounds (a filtered read: the
// page index and dictionaries its pruning fetched, then the pages) asks
// the file for each byte once. Held bytes between two ranges to fetch and
// at most hole_size_limit long are read through, as any hole that short
// is; longer ones split the fetch, and held bytes at either end of a
// coalesced range trim it.
class ReadRangeCache final : public RandomAccessFile {
 public:
  explicit ReadRangeCache(std::shared_ptr<RandomAccessFile> file, CoalesceOptions options = {});

  // Drops what was cached, then Add(ranges, held). A range outside the
  // file fails as the file's ReadAt does (nothing stays cached then).
  Status Cache(std::vector<ReadRange> ranges, const ReadRangeCache* held = nullptr);
  // Adds `ranges` to what is cached: CoalesceRanges(ranges), less the bytes
  // this cache or `held` holds (see above), one ReadAt each. On failure
  // what was cached before stays.
  Status Add(std::vector<ReadRange> ranges, const ReadRangeCache* held = nullptr);
  // Holds `bytes` (read by the caller from the file at `offset`) as if
  // fetched; ignored where it overlaps what is held.
  void Hold(int64_t offset, std::shared_ptr<Buffer> bytes);
  void Clear();
  // The ranges held, in file order (touching pieces as one range).
  std::vector<ReadRange> cached_ranges() const;
  const CoalesceOptions& options() const { return options_; }

  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length) const override;
  int64_t Size() const override { return file_->Size(); }
  const std::string& name() const override { return file_->name(); }

 private:
  struct Entry {
    int64_t offset = 0;
    std::shared_ptr<Buffer> bytes;
  };
  // The pieces of [begin, end) that entries_ hold (clipped), in order.
  std::vector<Entry> Pieces(int64_t begin, int64_t end) const;
  std::shared_ptr<RandomAccessFile> file_;
  CoalesceOptions options_;
  std::vector<Entry> entries_;  // sorted by offset, disjoint
};

}  // namespace quiver::io
