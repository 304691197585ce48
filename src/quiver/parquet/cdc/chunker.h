// Content-defined chunking of a column chunk's values (docs/cdc.md), with
// boundaries identical to Arrow C++'s (pyarrow use_content_defined_chunking).
//
// A gear hash (8 tables, one per run of consecutive matches) rolls over the
// logical bytes of each level slot: the def level and rep level as 2-byte
// little-endian integers where the column has them, then the Arrow value's
// bytes if the value is present (fixed width: storage width; boolean: one
// byte; binary: the raw bytes; dictionary: the index). Bytes that only fill
// the first min_chunk_size of a chunk are not hashed. After each slot (each
// record start, for repeated columns) the chunker decides whether a chunk
// ends: the 8th slot with a mask match (each match moves to the next
// table), or max_chunk_size reached. A cut decided at slot i ends the chunk
// before slot i. chunker.cc says how it gets there fast (min-size windows
// skipped without hashing, one loop per column shape and value layout);
// chunker_test.cc checks it against a byte-at-a-time reference.
//
// The rolling state (hash, run, chunk size) belongs to the leaf column of the
// whole file, not to one row group: pyarrow 26 (Arrow C++) carries it across
// row groups, so a row group boundary ends a page but not the chunk. The
// column chunk writer makes a Chunker per row group; the Chunkers of one
// column share their state through ChunkerOptions::state.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "quiver/parquet/levels/level_builder.h"
#include "quiver/util/result.h"

namespace quiver::parquet::cdc {

// The rolling state of one leaf column, kept between row groups.
struct ChunkerState {
  uint64_t hash = 0;
  bool matched = false;
  int run = 0;
  int64_t size = 0;
};

struct ChunkerOptions {
  int64_t min_chunk_size = 256 * 1024;
  int64_t max_chunk_size = 1024 * 1024;
  uint64_t mask = 0;  // from CdcMask()
  // Shared by every copy of these options: the file writer builds one
  // ChunkerOptions per leaf column and copies it into each row group's column
  // writer, so that column's Chunkers continue one another's state. Build a
  // fresh ChunkerOptions (not a copy) for an independent column.
  std::shared_ptr<ChunkerState> state = std::make_shared<ChunkerState>();
};

namespace internal {
// Buffers a Chunker keeps between calls (chunker.cc: the bytes of levels and
// values gathered into one run).
struct Scratch {
  std::unique_ptr<uint8_t[]> bytes;
  int64_t byte_capacity = 0;
  void Reserve(int64_t num_bytes);
  // A call chunked in ranges: where the last range ended, and the leaf slot
  // cursor there (its range index and slot).
  int64_t next_level = 0;
  size_t cursor_range = 0;
  int64_t cursor_slot = 0;
  // The call's level-to-slot offset (LevelCuts: EverySlotBase), found on
  // its first range.
  int64_t slot_base = -1;
};
}  // namespace internal

class Chunker {
 public:
  // Continues from options.state (a fresh state for new options).
  explicit Chunker(const ChunkerOptions& options);

  // The level indices of `levels` (one write call) at which a new chunk
  // starts, in increasing order. For non-repeated columns an index may be 0
  // (the previous call's tail ends there); for repeated columns a cut at
  // level 0 is dropped, as in Arrow C++. Invalid for options Arrow C++
  // rejects (min < 0, max <= min) and for a mask that is not the top 1..63
  // bits of a word (CdcMask makes only such masks).
  Status FindCuts(const LeafLevels& levels, std::vector<int64_t>* cuts);
  // The same for levels [begin, end) of one write call, continuing the
  // state: successive ranges that tile a call, in order, give the cuts of
  // the whole call (cuts are indices into `levels`; a cut at `begin` > 0 is
  // a real cut, never dropped). Lets the writer hash a stretch and encode
  // it while its bytes are still in cache. Columns without def/rep levels
  // take any range; others must start at 0 or where the previous range of
  // the same call ended (Invalid otherwise: the leaf slot cursor continues).
  Status FindCuts(const LeafLevels& levels, int64_t begin, int64_t end,
                  std::vector<int64_t>* cuts);

  // Bytes fed to the hash so far in the current chunk (for tests).
  int64_t chunk_size() const { return state_.size; }

 private:
  ChunkerOptions options_;
  // The rolling state, copied from options_.state and stored back after
  // each FindCuts.
  ChunkerState state_;
  internal::Scratch scratch_;
};

}  // namespace quiver::parquet::cdc
