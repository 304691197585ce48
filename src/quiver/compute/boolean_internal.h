// Bitmap output helpers of the boolean-producing kernels (boolean.cc,
// null_predicates.cc). Not installed.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/result.h"

namespace quiver::compute::internal {

// A bitmap of exactly BytesForBits(length) bytes for `length` bits at
// offset 0: not zeroed (every bit is written by the caller) except its
// last byte, so that the bits past `length` are 0.
inline Result<MutableBuffer> NewBitmap(int64_t length, MemoryPool* pool) {
  const int64_t nbytes = bit_util::BytesForBits(length);
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer buffer, MutableBuffer::WithCapacity(nbytes, pool));
  if (nbytes > 0) buffer.data()[nbytes - 1] = 0;
  buffer.UnsafeSetSize(nbytes);
  return buffer;
}

// Bits [pos, pos + nbits) of the bitmap at `data` from bit `offset`; all
// ones when `data` is null (no validity bitmap: every slot valid).
inline uint64_t WordAt(const uint8_t* data, int64_t offset, int64_t pos, int nbits) {
  if (data == nullptr) return bit_util::LeastSignificantBitMask(nbits);
  return bitmap::LoadBits(data, offset + pos, nbits);
}

// Writes bits [0, length) of `out` 64 at a time: word(pos, nbits) gives the
// bits from `pos` (nbits is 64 but for the last word).
template <typename Word>
void FillBitmap(uint8_t* out, int64_t length, Word&& word) {
  int64_t pos = 0;
  for (; pos + 64 <= length; pos += 64) bit_util::StoreLittleEndian(out + pos / 8, word(pos, 64));
  if (pos < length) {
    const int nbits = static_cast<int>(length - pos);
    bitmap::StoreBits(out, pos, nbits, word(pos, nbits));
  }
}

// A boolean array of `length` slots from bitmaps at offset 0; `validity`
// may be null (no nulls). The null count is `nulls` when the caller knows
// it (an input's validity passed through), else counted; a validity
// bitmap without a null is dropped.
inline ArrayDataPtr MakeBooleanArray(int64_t length, std::shared_ptr<Buffer> values,
                                     std::shared_ptr<Buffer> validity,
                                     int64_t nulls = kUnknownNullCount) {
  if (validity == nullptr) {
    nulls = 0;
  } else {
    if (nulls == kUnknownNullCount) nulls = length - bitmap::CountSetBits(validity->data(), 0, length);
    if (nulls == 0) validity = nullptr;
  }
  // (the vector filled by moves: a braced list would copy both pointers)
  std::vector<std::shared_ptr<Buffer>> buffers(2);
  buffers[0] = std::move(validity);
  buffers[1] = std::move(values);
  return ArrayData::Make(boolean(), length, std::move(buffers), nulls);
}

// Bits [offset, offset + length) of `buffer` as a bitmap at offset 0: a
// zero-copy slice when `offset` is a whole byte, else a copy (nullptr for
// a null buffer).
inline Result<std::shared_ptr<Buffer>> BitsAtZero(const std::shared_ptr<Buffer>& buffer,
                                                  int64_t offset, int64_t length,
                                                  MemoryPool* pool) {
  if (buffer == nullptr) return std::shared_ptr<Buffer>();
  if (offset % 8 == 0) return SliceBuffer(buffer, offset / 8, bit_util::BytesForBits(length));
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer out, NewBitmap(length, pool));
  bitmap::CopyBitmap(buffer->data(), offset, length, out.data(), 0);
  return out.Freeze();
}

// The validity of `a` for a result at offset 0 (BitsAtZero); nullptr when
// `a` has no null.
inline Result<std::shared_ptr<Buffer>> ValidityAtZero(const ArrayData& a, MemoryPool* pool) {
  if (a.buffers.empty() || a.GetNullCount() == 0) return std::shared_ptr<Buffer>();
  return BitsAtZero(a.buffers[0], a.offset, a.length, pool);
}

}  // namespace quiver::compute::internal
