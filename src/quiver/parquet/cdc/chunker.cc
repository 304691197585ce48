// Speed (docs/cdc.md, "Speed"). The statement of the algorithm is a byte at
// a time: each item (a 2-byte level, or one value's bytes) adds its length
// to the chunk size and, if the size has reached min_chunk_size, rolls all
// of its bytes into the gear hash; after each slot (record start, for
// repeated columns) a cut is decided. chunker_test.cc keeps that statement
// as its reference and checks this file against it on random inputs. What
// makes this file faster while cutting at exactly the same places:
//
//  1. The min-size window is skipped without hashing. Inside it nothing is
//     hashed, so no match can be recorded, and the size stays below
//     min < max, so no cut can be decided either: only the sizes matter.
//     (A match can only be pending while the size is >= min, because the
//     size only drops below min at a cut, and a cut clears it; the loops
//     still check, and take the plain path if a state from elsewhere holds
//     one.) Required fixed-width columns skip by a division, required binary
//     columns by a binary search over the offsets, columns with levels by a
//     size-only loop. The item whose bytes reach min is then hashed whole,
//     as the statement says, and hashing continues until the next cut.
//  2. Separate loops for required columns (values only) and for columns
//     with def levels, with or without rep levels, each instantiated per
//     value layout (fixed width 1/2/4/8, other widths, boolean, binary with
//     32/64-bit offsets, binary views, no bytes), reading the Arrow buffers
//     directly: no per-value switch or indirect call.
//  3. Rolling reports "some byte matched" as one compare against a
//     threshold (gear_roll_internal.h, which also says why the hash chain
//     is not split per word here).
//  4. In the level loops, no unpredictable branch per level besides
//     validity: the leaf slot advances by a 0/1 add, and the decision at a
//     record start is entered only when a match is pending or max is
//     reached.
//  5. Long stretches are hashed as contiguous runs of bytes by one tight
//     loop that stops at the first match (internal::FirstMatch,
//     gear_roll_internal.h; with AVX-512 VBMI and at least ~4 KiB of bytes,
//     gear_simd.h's FirstMatchSimd: 8 lanes and the scalar chain side by
//     side, 1.7x as fast). Only the first match of a stretch is needed (the
//     table changes after it), so matches are found first and the per-slot
//     logic replayed on them: ContiguousCuts for required fixed-width and
//     binary columns, whose bytes already lie in one buffer; GatherStretch
//     (and GatherBinaryStretch for strings and binary) for columns with
//     levels, whose level and value bytes are first copied into one
//     buffer, for fixed widths without a branch on presence (with
//     AVX-512, gather_simd.h: lists of 4- and 8-byte values, and nullable
//     flat columns of 2/4/8-byte values, a block of levels at a time).
//  6. The min-size window of fixed-width columns with levels is skipped in
//     blocks of levels whose sizes are counted (vectorised; with AVX-512,
//     gather_simd.h's SkipLevels first), not summed one by one.
//
// The loops are split by column shape: required_cuts.cc (values only) and
// level_cuts.cc (with levels), over the layouts of slot_bytes_internal.h,
// sharing the hashing and the cut decision of boundary_internal.h.
#include "quiver/parquet/cdc/chunker.h"

#include <bit>
#include <memory>

#include "quiver/parquet/cdc/boundary_internal.h"

namespace quiver::parquet::cdc {

void internal::Scratch::Reserve(int64_t num_bytes) {
  if (byte_capacity < num_bytes) {
    bytes = std::make_unique<uint8_t[]>(static_cast<size_t>(num_bytes));
    byte_capacity = num_bytes;
  }
}

Chunker::Chunker(const ChunkerOptions& options) : options_(options) {
  if (options_.state == nullptr) options_.state = std::make_shared<ChunkerState>();
  state_ = *options_.state;
}

Status Chunker::FindCuts(const LeafLevels& levels, std::vector<int64_t>* cuts) {
  return FindCuts(levels, 0, levels.num_levels, cuts);
}

Status Chunker::FindCuts(const LeafLevels& levels, int64_t begin, int64_t end,
                         std::vector<int64_t>* cuts) {
  cuts->clear();
  const bool has_levels = levels.max_def > 0 || levels.max_rep > 0;
  if (begin < 0 || end < begin || end > levels.num_levels ||
      (has_levels && begin != 0 && begin != scratch_.next_level)) {
    return Status::Invalid("content-defined chunking: levels [", begin, ", ", end,
                           ") do not continue the previous range of this call's ",
                           levels.num_levels, " levels");
  }
  scratch_.next_level = end;
  const int64_t min_size = options_.min_chunk_size;
  const int64_t max_size = options_.max_chunk_size;
  if (min_size < 0 || max_size <= min_size) {
    return Status::Invalid("content-defined chunking: need 0 <= min_chunk_size < max_chunk_size, "
                           "got min ",
                           min_size, ", max ", max_size);
  }
  // The skipped min-size window relies on max > min (no max-size cut can
  // fall inside it) and the match test on the mask's shape.
  const uint64_t mask = options_.mask;
  const int zeros = std::countr_zero(mask);
  if (mask == 0 || zeros == 0 || mask != (~uint64_t{0} << zeros)) {
    return Status::Invalid("content-defined chunking: the mask must be the top 1..63 bits of a "
                           "word, got ",
                           mask);
  }
  const internal::Limits limits{min_size, max_size, uint64_t{1} << zeros};

  const bool has_def = levels.max_def > 0;
  const bool has_rep = levels.max_rep > 0;
  if (has_rep && !has_def) {
    return Status::Invalid("content-defined chunking: repetition levels without definition levels");
  }
  ChunkerState& s = state_;
  Status st;
  if (!has_def && !has_rep) {
    // Required, not nested: one contiguous leaf range, a value per level
    // (cuts are found relative to `begin`, then shifted).
    st = internal::FindRequiredCuts(levels, begin, end, limits, s, cuts);
    if (begin != 0) {
      for (int64_t& c : *cuts) c += begin;
    }
  } else {
    st = internal::FindLevelCuts(levels, begin, end, has_rep, limits, s, cuts, &scratch_);
  }
  *options_.state = state_;
  return st;
}

}  // namespace quiver::parquet::cdc
