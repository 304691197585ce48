// The gather behind filter and take: build a new array from chosen rows of
// `values`, for every type (selection.cc), and the word-wise filter loops of
// fixed-width values and bitmaps with their SIMD versions
// (selection_simd.cc). Not installed.
//
// A Selection names the rows in one of three forms (arrow-rs
// arrow-select/src/filter.rs: IterationStrategy):
//  - a bitmap over the input rows (filter): fixed-width values, bitmaps and
//    dictionary indices are filtered 64 rows (one mask word) at a time
//    (polars-compute filter/: skip an empty word, copy a full one, pick the
//    few set bits of a sparse one, write branch-free for a dense one);
//  - runs of consecutive rows (filter with a dense mask; list children):
//    one memcpy per run;
//  - indices (filter with a sparse mask; take): one gather per row.
// Binary and list-like types need the positions (runs or indices) to
// compute their offsets; the bitmap form alone serves the others.
#pragma once

#include <cstdint>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/compute/simd_level.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/result.h"

namespace quiver::compute::internal {

struct Run {
  int64_t start;
  int64_t length;
};

struct Selection {
  // Output rows.
  int64_t length = 0;
  // Bitmap form: bits [bits_offset, bits_offset + rows) choose among the
  // `rows` input rows (exactly `length` bits set).
  const uint8_t* bits = nullptr;
  int64_t bits_offset = 0;
  int64_t rows = 0;
  // Positions, one of the two (or neither when only `bits` is given):
  // ascending, non-empty runs, or `length` indices, each in [0, rows of the
  // values).
  const std::vector<Run>* runs = nullptr;
  const int64_t* indices = nullptr;
  // Output rows forced to null (take's null indices, filter's null mask
  // slots under emit_null): bit j of [valid_bits, valid_offset) clear.
  // nullptr when forced_nulls == 0. The positions of such a row still name
  // a row in range (its value is not read back).
  const uint8_t* valid_bits = nullptr;
  int64_t valid_offset = 0;
  int64_t forced_nulls = 0;

  bool has_positions() const { return runs != nullptr || indices != nullptr; }
};

// Whether gathering `type` needs the positions form (binary and list-like
// types, nested anywhere but under a dictionary).
bool NeedsPositions(const DataType& type);

// The selected rows of `values` (any offset) as a new array: buffers
// allocated at their exact size, no validity buffer when the result has no
// nulls, view data buffers and dictionaries shared. `what` names the
// calling function in errors ("filter", "take"). CapacityError when 32-bit
// offsets would overflow; NotImplemented for a type it does not handle.
Result<ArrayDataPtr> Gather(const ArrayData& values, const Selection& selection,
                            const char* what, MemoryPool* pool);

// A MutableBuffer of `size` bytes (capacity rounded up to 64), not zeroed.
Result<MutableBuffer> AllocateExact(int64_t size, MemoryPool* pool);
// A bitmap of `bits` bits, not zeroed but for its last byte (so that the
// padding bits past `bits` are zero: no uninitialised byte reaches a file).
Result<MutableBuffer> AllocateBitmap(int64_t bits, MemoryPool* pool);

// --- Word-wise filter loops (bitmap form) -------------------------------------

// out[k++] = in[i] for every set bit i of bits [bits_offset, bits_offset +
// n); `width` bytes per value. Returns the level that ran: kAvx512 for
// widths 1, 2, 4 and 8 when the active level allows it (compress
// instructions) and kUseAvx512Compress says it pays; scalar otherwise.
SimdLevel FilterFixedWidth(const uint8_t* in, int64_t width, const uint8_t* bits,
                           int64_t bits_offset, int64_t n, uint8_t* out);

// The bits of `src` (from src_offset) where the mask bits are set, packed
// into out (from bit 0): a filter of a bitmap. `out` holds out_bytes bytes
// (at least the bytes of the set bits' count); nothing past them is
// written. `zeros` (if given): how many of the packed bits are 0 (a
// validity's nulls, counted on the way).
SimdLevel FilterBits(const uint8_t* src, int64_t src_offset, const uint8_t* bits,
                     int64_t bits_offset, int64_t n, uint8_t* out, int64_t out_bytes,
                     int64_t* zeros = nullptr);

// Where the run of full (all-ones) 64-bit words of a selection bitmap
// that starts at `pos` (whose word is full) ends: pos + 64 * k, at most n.
// FilterBits copies such a run with one BitAppender::AppendBitmap.
inline int64_t FullWordsEnd(const uint8_t* bits, int64_t bits_offset, int64_t pos, int64_t n) {
  int64_t end = pos + 64;
  if ((bits_offset & 7) == 0) {  // whole bytes: plain loads (all ones in any byte order)
    const uint8_t* p = bits + (bits_offset >> 3);
    while (end + 64 <= n && bit_util::SafeLoad<uint64_t>(p + (end >> 3)) == ~uint64_t{0}) {
      end += 64;
    }
    return end;
  }
  while (end + 64 <= n && bitmap::LoadBits(bits, bits_offset + end, 64) == ~uint64_t{0}) {
    end += 64;
  }
  return end;
}

// The SIMD versions (selection_simd.cc): they process whole 64-row words
// and return how many rows they handled (a multiple of 64); the caller
// finishes the tail.
int64_t FilterFixedWidthAvx512(const uint8_t* in, int width, const uint8_t* bits,
                               int64_t bits_offset, int64_t n, uint8_t* out, int64_t* written);
// Bitmaps with BMI2's PEXT (AVX2 level and up); returns the packed zeros.
int64_t FilterBitsBmi2(const uint8_t* src, int64_t src_offset, const uint8_t* bits,
                       int64_t bits_offset, int64_t n, uint8_t* out, int64_t out_bytes);

}  // namespace quiver::compute::internal
