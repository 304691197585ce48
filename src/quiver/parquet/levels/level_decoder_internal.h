// Decoding definition and repetition levels (apache/parquet-format
// Encodings.md: RLE / bit-packing hybrid, and the deprecated BIT_PACKED,
// which packs each value from its most significant bit first).
//
// A page's level section is untrusted: the decoder reads no byte outside
// it, and each of these is Invalid naming the level kind given at SetData
// ("definition" / "repetition") and the index of the level: the section
// ends before the page's num_values levels; a level above max_level; a
// malformed run. Memory is bounded by the caller's batch (nothing is
// allocated from a count in the data).
#pragma once

#include <cstdint>
#include <string_view>

#include "quiver/parquet/encoding/rle_bit_packed.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// Bits of one level: 0 for max_level 0 (or below), else bit_width(max_level)
// (at most 15: levels are int16).
int LevelBitWidth(int16_t max_level);

// v1 data pages: the byte length of a level section at the start of
// data[0, size), prefix included: RLE: 4 + the little-endian length prefix
// (checked against size); BIT_PACKED: ceil(num_values * bit_width / 8)
// (checked against size). 0 when max_level is 0 (the section is absent,
// whatever encoding the header names). Invalid otherwise (a negative
// max_level or num_values, other encodings too).
Result<int64_t> V1LevelSectionSize(format::Encoding encoding, int16_t max_level,
                                   int64_t num_values, const uint8_t* data, int64_t size);

// Bits [out_offset, out_offset + n) of `out` set where levels[i] >= level
// (a validity bitmap from definition levels); returns how many are set.
int64_t LevelsToBitmap(const int16_t* levels, int64_t n, int16_t level, uint8_t* out,
                       int64_t out_offset);

// How many of levels[0, n) equal `level`.
int64_t CountLevels(const int16_t* levels, int64_t n, int16_t level);

// hist[k] = how many of levels[0, n) equal k, for k in [0, max_level]
// (max_level >= 0; hist has max_level + 1 entries, all overwritten). The
// levels must lie in [0, max_level], as the level builder's do: a level
// outside is miscounted, but nothing outside hist is written. Up to
// max_level 7, eight levels a step (SSE2 compares).
void LevelHistogram(const int16_t* levels, int64_t n, int16_t max_level, int64_t* hist);

class LevelDecoder {
 public:
  // `kind`: "definition" or "repetition" (for messages; must outlive the
  // decoder). `data` without any length prefix. encoding RLE or BIT_PACKED
  // (else Invalid); max_level >= 0; num_values >= 0 levels in the section.
  // With max_level 0 the section is absent: `data` is not read and every
  // level is 0. A new SetData starts afresh (after an error too).
  Status SetData(std::string_view kind, format::Encoding encoding, int16_t max_level,
                 int64_t num_values, const uint8_t* data, int64_t size);

  // The next n levels (n <= levels_left(), else Invalid). On an error,
  // `out` may hold part of them and the decoder fails every later call.
  Status Decode(int64_t n, int16_t* out);
  // Counts, among the next n levels, those equal to `level`, and moves past
  // them (the same checks as Decode). Runs count without being expanded.
  Result<int64_t> Count(int64_t n, int16_t level);

  // max_level 1 only: the next n levels as bits [out_offset, out_offset +
  // n) of `out` (1 where the level is 1); returns how many are 1. The same
  // checks as Decode. RLE sections go run by run, never level by level.
  Result<int64_t> DecodeBits(int64_t n, uint8_t* out, int64_t out_offset);

  int64_t levels_left() const { return levels_left_; }

 private:
  Status Fail(Status status);
  Status CheckWanted(int64_t n);
  // Invalid naming level `index` (from the section's start): the section
  // ended there, or the RLE data is malformed there.
  Status Exhausted(int64_t index) const;
  Status Malformed(int64_t index, const Status& cause) const;
  Status TooHigh(int64_t index, int value) const;
  // After the RLE decoder stopped short of the n levels wanted, at level
  // `index`: why.
  Status RleStopped(int64_t index);
  // BIT_PACKED: the next n levels (n <= levels_left_) into out; how many
  // the bytes held.
  int64_t UnpackMsbFirst(int64_t n, int16_t* out);

  std::string_view kind_ = "definition";
  format::Encoding encoding_ = format::Encoding::kRle;
  int16_t max_level_ = 0;
  int bit_width_ = 0;
  int64_t num_values_ = 0;
  int64_t levels_left_ = 0;
  RleBitPackedDecoder rle_;
  // BIT_PACKED
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t bit_pos_ = 0;
  Status status_;
};

}  // namespace quiver::parquet
