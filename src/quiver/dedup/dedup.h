// Deduplication analysis: how much of a Parquet file ("the target") a
// content-addressed store already holds when it stores other files ("the
// base"), measured two ways (docs/cdc.md, "Measuring dedup"):
//   - page level: each page's bytes as stored (Thrift header + compressed
//     body, see parquet_pages.h) are hashed; a target page is shared when a
//     page with the same hash and length occurs in any base file. The
//     denominator is the target's page bytes (the footer, page index, Bloom
//     filters and magic are not pages).
//   - byte level: each whole file is cut into content-defined chunks (FastCDC,
//     ~64 KiB average, 8 KiB min, 128 KiB max; see byte_chunker.h), as dedup
//     storage backends do; a target chunk is shared when a chunk with the
//     same hash and length occurs in any base file. The denominator is the
//     target's file size.
// Content is identified by XXH3-128 of its bytes plus its length (a
// collision needs a 128-bit hash collision at equal length). Only sharing
// with the base counts: repeats inside the target itself are not credited.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "quiver/dedup/byte_chunker.h"
#include "quiver/dedup/parquet_pages.h"
#include "quiver/util/result.h"

namespace quiver::dedup {

// A file's bytes (not owned: the caller keeps them alive during the call).
struct FileBytes {
  std::string name;
  const uint8_t* data = nullptr;
  int64_t size = 0;
};

// A piece of content: XXH3-128 of its bytes and its length.
struct ContentKey {
  uint64_t low = 0;
  uint64_t high = 0;
  int64_t size = 0;

  bool operator==(const ContentKey& other) const = default;
};

ContentKey HashContent(const uint8_t* data, int64_t size);

struct DedupOptions {
  // false: skip the page level (then any file, Parquet or not, is accepted).
  bool page_level = true;
  ByteChunkerOptions chunker;
};

// The content keys of one file's pages and byte chunks, in file order.
struct FileDigest {
  std::string name;
  int64_t file_size = 0;
  bool has_pages = false;
  std::vector<ContentKey> pages;
  // Per page: its leaf column (an index into column_paths).
  std::vector<int32_t> page_columns;
  std::vector<std::string> column_paths;
  std::vector<ContentKey> chunks;

  int64_t page_bytes() const;
};

// Invalid / NotImplemented (prefixed with the file name) when page_level is
// on and the file is not readable Parquet.
Result<FileDigest> DigestFile(const FileBytes& file, const DedupOptions& options = {});
// The same for a file on disk (memory-mapped while it is digested); IOError
// when it cannot be read.
Result<FileDigest> DigestPath(const std::string& path, const DedupOptions& options = {});

// The target's pages (or chunks) and how many of them the base already holds.
struct SharedStats {
  int64_t count = 0;
  int64_t shared_count = 0;
  int64_t bytes = 0;
  int64_t shared_bytes = 0;

  int64_t new_bytes() const { return bytes - shared_bytes; }
  // shared_bytes / bytes (0 when there are no bytes).
  double shared_ratio() const;
};

struct ColumnShare {
  // Dotted leaf path ("tags.list.element").
  std::string column;
  SharedStats pages;
};

struct DedupReport {
  std::string target;
  int64_t target_size = 0;
  int64_t base_files = 0;
  // Sum of the base files' sizes.
  int64_t base_size = 0;
  // False when the page level was skipped (DedupOptions::page_level).
  bool has_page_level = false;
  SharedStats pages;
  SharedStats chunks;
  // The page level per leaf column of the target (all row groups).
  std::vector<ColumnShare> page_columns;
};

// The distinct pages and chunks of the files added so far: what a
// content-addressed store holding them would hold.
class DedupIndex {
 public:
  void Add(const FileDigest& digest);
  // How much of `target` this index already holds.
  DedupReport Compare(const FileDigest& target) const;

  int64_t num_files() const { return num_files_; }
  int64_t total_size() const { return total_size_; }
  int64_t distinct_pages() const { return static_cast<int64_t>(pages_.size()); }
  int64_t distinct_chunks() const { return static_cast<int64_t>(chunks_.size()); }
  // Bytes of the distinct pages / chunks: what the store keeps.
  int64_t distinct_page_bytes() const { return distinct_page_bytes_; }
  int64_t distinct_chunk_bytes() const { return distinct_chunk_bytes_; }

 private:
  struct KeyHash {
    size_t operator()(const ContentKey& key) const { return static_cast<size_t>(key.low); }
  };
  std::unordered_set<ContentKey, KeyHash> pages_;
  std::unordered_set<ContentKey, KeyHash> chunks_;
  int64_t num_files_ = 0;
  int64_t total_size_ = 0;
  int64_t distinct_page_bytes_ = 0;
  int64_t distinct_chunk_bytes_ = 0;
  // The page level is reported only when every file had its pages listed.
  bool all_have_pages_ = true;
};

// How much of `target` the `base` files already hold.
Result<DedupReport> CompareFiles(const std::vector<FileBytes>& base, const FileBytes& target,
                                 const DedupOptions& options = {});
// The same for files on disk.
Result<DedupReport> ComparePaths(const std::vector<std::string>& base, const std::string& target,
                                 const DedupOptions& options = {});

}  // namespace quiver::dedup
