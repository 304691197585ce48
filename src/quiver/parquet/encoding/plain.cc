// PLAIN encoders and decoders; see plain.h.
#include "quiver/parquet/encoding/plain.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <atomic>
#include <bit>
#include <cstring>
#include <limits>

#include "quiver/parquet/encoding/spaced_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/utf8.h"

namespace quiver::parquet {

static_assert(std::endian::native == std::endian::little,
              "PLAIN encoding copies Arrow's little-endian buffers as they are");

// ---------------------------------------------------------------------------
// Encoders

Status PlainEncodeFixedWidth(const void* values, int64_t num_values, int byte_width,
                             const uint8_t* validity, int64_t validity_offset,
                             MutableBuffer* out) {
  if (byte_width <= 0) return Status::Invalid("PLAIN encoder: byte width ", byte_width, " <= 0");
  const auto* src = static_cast<const uint8_t*>(values);
  if (validity == nullptr) {
    return out->ExtendFromSlice(src, num_values * byte_width);
  }
  const int64_t valid = bitmap::CountSetBits(validity, validity_offset, num_values);
  QUIVER_RETURN_NOT_OK(out->Reserve(valid * byte_width));
  bitmap::VisitSetBitRuns(validity, validity_offset, num_values,
                          [&](int64_t pos, int64_t len) {
                            out->UnsafeExtendFromSlice(src + pos * byte_width, len * byte_width);
                          });
  return Status::OK();
}

namespace {

template <typename Offset>
Status EncodeByteArrays(const Offset* offsets, const uint8_t* data, int64_t num_values,
                        const uint8_t* validity, int64_t validity_offset, MutableBuffer* out) {
  // Exact size first: 4 bytes per valid value plus their bytes.
  int64_t total = 0;
  Status status;
  auto size_run = [&](int64_t pos, int64_t len) {
    total += 4 * len + static_cast<int64_t>(offsets[pos + len] - offsets[pos]);
  };
  if (validity == nullptr) {
    size_run(0, num_values);
  } else {
    bitmap::VisitSetBitRuns(validity, validity_offset, num_values, size_run);
  }
  QUIVER_RETURN_NOT_OK(out->Reserve(total));
  auto write_run = [&](int64_t pos, int64_t len) {
    for (int64_t i = pos; i < pos + len; ++i) {
      const int64_t length = static_cast<int64_t>(offsets[i + 1] - offsets[i]);
      if constexpr (sizeof(Offset) > 4) {
        if (QUIVER_PREDICT_FALSE(length > std::numeric_limits<int32_t>::max())) {
          if (status.ok()) {
            status = Status::Invalid("PLAIN BYTE_ARRAY: value ", i, " has ", length,
                                     " bytes, more than a Parquet BYTE_ARRAY can hold (2^31-1)");
          }
          return;
        }
      }
      out->UnsafeAppend(bit_util::ToLittleEndian(static_cast<uint32_t>(length)));
      out->UnsafeExtendFromSlice(data + offsets[i], length);
    }
  };
  if (validity == nullptr) {
    write_run(0, num_values);
  } else {
    bitmap::VisitSetBitRuns(validity, validity_offset, num_values, write_run);
  }
  return status;
}

}  // namespace

Status PlainEncodeByteArray(const int32_t* offsets, const uint8_t* data, int64_t num_values,
                            const uint8_t* validity, int64_t validity_offset,
                            MutableBuffer* out) {
  return EncodeByteArrays(offsets, data, num_values, validity, validity_offset, out);
}

Status PlainEncodeByteArray(const int64_t* offsets, const uint8_t* data, int64_t num_values,
                            const uint8_t* validity, int64_t validity_offset,
                            MutableBuffer* out) {
  return EncodeByteArrays(offsets, data, num_values, validity, validity_offset, out);
}

Status PlainEncodeByteArray(std::string_view value, MutableBuffer* out) {
  if (value.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return Status::Invalid("PLAIN BYTE_ARRAY: value of ", value.size(),
                           " bytes is longer than a Parquet BYTE_ARRAY can hold (2^31-1)");
  }
  QUIVER_RETURN_NOT_OK(out->Reserve(4 + static_cast<int64_t>(value.size())));
  out->UnsafeAppend(bit_util::ToLittleEndian(static_cast<uint32_t>(value.size())));
  out->UnsafeExtendFromSlice(value.data(), static_cast<int64_t>(value.size()));
  return Status::OK();
}

Status PlainBooleanEncoder::Begin() {
  if (!started_) {
    start_ = out_->size();
    num_bits_ = 0;
    started_ = true;
  }
  return Status::OK();
}

Status PlainBooleanEncoder::Put(const uint8_t* bits, int64_t bit_offset, int64_t num_values,
                                const uint8_t* validity, int64_t validity_offset) {
  QUIVER_RETURN_NOT_OK(Begin());
  const int64_t count = validity == nullptr
                            ? num_values
                            : bitmap::CountSetBits(validity, validity_offset, num_values);
  // New bytes are zeroed, so the bits past the last value stay zero.
  QUIVER_RETURN_NOT_OK(out_->Resize(start_ + bit_util::BytesForBits(num_bits_ + count), 0));
  uint8_t* dest = out_->data() + start_;
  if (validity == nullptr) {
    bitmap::CopyBitmap(bits, bit_offset, num_values, dest, num_bits_);
    num_bits_ += num_values;
  } else {
    bitmap::VisitSetBitRuns(validity, validity_offset, num_values,
                            [&](int64_t pos, int64_t len) {
                              bitmap::CopyBitmap(bits, bit_offset + pos, len, dest, num_bits_);
                              num_bits_ += len;
                            });
  }
  return Status::OK();
}

Status PlainBooleanEncoder::Put(bool value) {
  const uint8_t byte = value ? 1 : 0;
  return Put(&byte, 0, 1, nullptr, 0);
}

int64_t PlainBooleanEncoder::Flush() {
  const int64_t bytes = started_ ? bit_util::BytesForBits(num_bits_) : 0;
  started_ = false;
  num_bits_ = 0;
  return bytes;
}

// ---------------------------------------------------------------------------
// Decoders

Status PlainFixedWidthDecoder::NotEnough(int64_t wanted) const {
  return Status::Invalid("PLAIN data: ", wanted, " values of ", byte_width_,
                         " bytes wanted at byte ", pos_, " but only ", size_ - pos_,
                         " bytes remain");
}

Status PlainFixedWidthDecoder::Decode(int64_t n, void* out) {
  if (n < 0 || n > values_left()) return NotEnough(n);
  const int64_t bytes = n * byte_width_;
  if (bytes > 0) std::memcpy(out, data_ + pos_, static_cast<size_t>(bytes));
  pos_ += bytes;
  return Status::OK();
}

Status PlainFixedWidthDecoder::Skip(int64_t n) {
  if (n < 0 || n > values_left()) return NotEnough(n);
  pos_ += n * byte_width_;
  return Status::OK();
}

Status PlainFixedWidthDecoder::DecodeSpaced(int64_t num_slots, const uint8_t* validity,
                                            int64_t validity_offset, void* out) {
  if (validity == nullptr) return Decode(num_slots, out);
  const int64_t valid = bitmap::CountSetBits(validity, validity_offset, num_slots);
  if (valid > values_left()) return NotEnough(valid);
  internal::ExpandSpaced(byte_width_, data_ + pos_, valid, validity, validity_offset, num_slots,
                         static_cast<uint8_t*>(out));
  pos_ += valid * byte_width_;
  return Status::OK();
}

Status PlainBooleanDecoder::Decode(int64_t n, uint8_t* out_bits, int64_t out_offset) {
  if (n < 0 || n > bits_left()) {
    return Status::Invalid("PLAIN BOOLEAN data: ", n, " values wanted at bit ", pos_,
                           " but only ", bits_left(), " bits remain");
  }
  bitmap::CopyBitmap(data_, pos_, n, out_bits, out_offset);
  pos_ += n;
  return Status::OK();
}

Status PlainBooleanDecoder::Decode(int64_t n, bool* out) {
  if (n < 0 || n > bits_left()) {
    return Status::Invalid("PLAIN BOOLEAN data: ", n, " values wanted at bit ", pos_,
                           " but only ", bits_left(), " bits remain");
  }
  for (int64_t i = 0; i < n; ++i) out[i] = bit_util::GetBit(data_, pos_ + i);
  pos_ += n;
  return Status::OK();
}

Status PlainBooleanDecoder::Skip(int64_t n) {
  if (n < 0 || n > bits_left()) {
    return Status::Invalid("PLAIN BOOLEAN data: ", n, " values to skip at bit ", pos_,
                           " but only ", bits_left(), " bits remain");
  }
  pos_ += n;
  return Status::OK();
}

namespace {

// A PLAIN byte array's 4-byte little-endian length at `out`; the byte after it.
uint8_t* PutLength(uint8_t* out, int64_t length) {
  const auto prefix = bit_util::ToLittleEndian(static_cast<uint32_t>(length));
  std::memcpy(out, &prefix, 4);
  return out + 4;
}

bool CpuHasCopyKernel() {
#if defined(__x86_64__)
  __builtin_cpu_init();  // (in case this runs before libgcc's own constructor)
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
#else
  return false;
#endif
}

std::atomic<bool>& CopyKernelEnabled() {
  static std::atomic<bool> enabled{CpuHasCopyKernel()};
  return enabled;
}

#if defined(__x86_64__)
// (clang ignores GCC's target pragma: its attribute pragma gives every
// function of the region the target.)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw")
#endif
// DecodeInto's loop with AVX-512 copies: each value in 64-byte loads and
// stores, the last part masked (no byte outside the value is read or
// written, so no room past it is needed), and with kAscii its bytes ORed
// together: the copy is the ASCII half of the UTF-8 check, one read of the
// bytes instead of memcpy's and then FindInvalidUtf8's. Returns the values
// decoded (fewer than n where a length or its bytes are missing).
template <typename End, bool kAscii>
int64_t CopyValuesAvx512(const uint8_t* data, int64_t size, int64_t* pos_io, int64_t n,
                         int64_t base, End* ends, uint8_t* out, int64_t* written_io, bool* ascii) {
  int64_t pos = *pos_io;
  int64_t written = 0;
  __m512i any = _mm512_setzero_si512();
  int64_t i = 0;
  for (; i < n; ++i) {
    if (QUIVER_PREDICT_FALSE(size - pos < 4)) break;
    const int64_t length = bit_util::FromLittleEndian(bit_util::SafeLoad<uint32_t>(data + pos));
    if (QUIVER_PREDICT_FALSE(length > size - pos - 4)) break;
    const uint8_t* src = data + pos + 4;
    uint8_t* dst = out + written;
    int64_t k = 0;
    for (; length - k >= 64; k += 64) {
      const __m512i v = _mm512_loadu_si512(src + k);
      _mm512_storeu_si512(dst + k, v);
      if constexpr (kAscii) any = _mm512_or_si512(any, v);
    }
    if (k < length) {
      const __mmask64 m = (uint64_t{1} << (length - k)) - 1;
      const __m512i v = _mm512_maskz_loadu_epi8(m, src + k);
      _mm512_mask_storeu_epi8(dst + k, m, v);
      if constexpr (kAscii) any = _mm512_or_si512(any, v);
    }
    written += length;
    ends[i] = static_cast<End>(base + written);
    pos += 4 + length;
  }
  *pos_io = pos;
  *written_io = written;
  if constexpr (kAscii) *ascii = _mm512_movepi8_mask(any) == 0;
  return i;
}

// One value's bytes copied (64-byte blocks, the last part masked), ORed
// into `any`.
inline void CopyOrAvx512(uint8_t* out, const uint8_t* src, int64_t length, __m512i* any) {
  int64_t k = 0;
  for (; length - k >= 64; k += 64) {
    const __m512i v = _mm512_loadu_si512(src + k);
    _mm512_storeu_si512(out + k, v);
    *any = _mm512_or_si512(*any, v);
  }
  if (k < length) {
    const __mmask64 m = (uint64_t{1} << (length - k)) - 1;
    const __m512i v = _mm512_maskz_loadu_epi8(m, src + k);
    _mm512_mask_storeu_epi8(out + k, m, v);
    *any = _mm512_or_si512(*any, v);
  }
}

// PlainPutValues' loop (see plain.h).
uint8_t* PutValuesAvx512(const std::string_view* values, int64_t n, bool length_prefix,
                         uint8_t* out, bool* ascii) {
  __m512i any = _mm512_setzero_si512();
  for (int64_t i = 0; i < n; ++i) {
    const auto length = static_cast<int64_t>(values[i].size());
    if (length_prefix) out = PutLength(out, length);
    CopyOrAvx512(out, reinterpret_cast<const uint8_t*>(values[i].data()), length, &any);
    out += length;
  }
  *ascii = _mm512_movepi8_mask(any) == 0;
  return out;
}

// ByteArrayCopyAscii's AVX-512 copy.
bool CopyAsciiAvx512(uint8_t* dst, const uint8_t* src, int64_t size) {
  __m512i any = _mm512_setzero_si512();
  CopyOrAvx512(dst, src, size, &any);
  return _mm512_movepi8_mask(any) == 0;
}
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif  // __x86_64__

}  // namespace

template <typename End>
Status PlainByteArrayDecoder::DecodeInto(int64_t n, int64_t base, End* ends, uint8_t* out,
                                         int64_t* bytes, bool* all_ascii) {
  int64_t written = 0;
  int64_t i = 0;
  bool ascii = false;  // known only from the kernel's copy
#if defined(__x86_64__)
  if (CopyKernelEnabled().load(std::memory_order_relaxed)) {
    i = all_ascii != nullptr
            ? CopyValuesAvx512<End, true>(data_, size_, &pos_, n, base, ends, out, &written, &ascii)
            : CopyValuesAvx512<End, false>(data_, size_, &pos_, n, base, ends, out, &written, nullptr);
  }
#endif
  // (After the kernel, only where it stopped early: the loop then stops at
  // the same value and its error is reported.)
  for (; i < n; ++i) {
    if (QUIVER_PREDICT_FALSE(size_ - pos_ < 4)) break;
    const int64_t length = bit_util::FromLittleEndian(bit_util::SafeLoad<uint32_t>(data_ + pos_));
    if (QUIVER_PREDICT_FALSE(length > size_ - pos_ - 4)) break;
    std::memcpy(out + written, data_ + pos_ + 4, static_cast<size_t>(length));
    written += length;
    ends[i] = static_cast<End>(base + written);
    pos_ += 4 + length;
  }
  values_read_ += i;
  *bytes = written;
  if (all_ascii != nullptr) *all_ascii = ascii;
  if (i == n) return Status::OK();
  std::string_view unused;
  return Decode(1, &unused);  // the error of value i
}

uint8_t* PlainPutValues(const std::string_view* values, int64_t n, bool length_prefix,
                        uint8_t* out, bool* ascii) {
#if defined(__x86_64__)
  if (CopyKernelEnabled().load(std::memory_order_relaxed)) {
    return PutValuesAvx512(values, n, length_prefix, out, ascii);
  }
#endif
  bool all = true;
  for (int64_t i = 0; i < n; ++i) {
    const auto size = static_cast<int64_t>(values[i].size());
    if (length_prefix) out = PutLength(out, size);
    all &= CopyAscii(out, reinterpret_cast<const uint8_t*>(values[i].data()), size);
    out += size;
  }
  *ascii = all;
  return out;
}

CopyAsciiFn ByteArrayCopyAscii() {
#if defined(__x86_64__)
  if (CopyKernelEnabled().load(std::memory_order_relaxed)) return &CopyAsciiAvx512;
#endif
  return [](uint8_t* dst, const uint8_t* src, int64_t size) { return CopyAscii(dst, src, size); };
}

bool SetByteArrayCopyKernelForTesting(bool on) {
  return CopyKernelEnabled().exchange(on && CpuHasCopyKernel(), std::memory_order_relaxed);
}

template Status PlainByteArrayDecoder::DecodeInto(int64_t, int64_t, int32_t*, uint8_t*,
                                                  int64_t*, bool*);
template Status PlainByteArrayDecoder::DecodeInto(int64_t, int64_t, int64_t*, uint8_t*,
                                                  int64_t*, bool*);

Status PlainByteArrayDecoder::NextLength(int64_t* length) const {
  if (size_ - pos_ < 4) {
    return Status::Invalid("PLAIN BYTE_ARRAY data: value ", values_read_,
                           " has no room for its 4-byte length at byte ", pos_, " of ", size_);
  }
  const int64_t announced = bit_util::FromLittleEndian(bit_util::SafeLoad<uint32_t>(data_ + pos_));
  if (announced > size_ - pos_ - 4) {
    return Status::Invalid("PLAIN BYTE_ARRAY data: value ", values_read_, " at byte ", pos_,
                           " claims ", announced, " bytes but only ", size_ - pos_ - 4,
                           " remain");
  }
  if (length != nullptr) *length = announced;
  return Status::OK();
}

Status PlainByteArrayDecoder::Decode(int64_t n, std::string_view* out) {
  for (int64_t i = 0; i < n; ++i) {
    if (QUIVER_PREDICT_FALSE(size_ - pos_ < 4)) return NextLength(nullptr);
    const int64_t length = bit_util::FromLittleEndian(bit_util::SafeLoad<uint32_t>(data_ + pos_));
    if (QUIVER_PREDICT_FALSE(length > size_ - pos_ - 4)) return NextLength(nullptr);
    out[i] = std::string_view(reinterpret_cast<const char*>(data_ + pos_ + 4),
                              static_cast<size_t>(length));
    pos_ += 4 + length;
    ++values_read_;
  }
  return Status::OK();
}

Status PlainByteArrayDecoder::Skip(int64_t n) {
  // The lengths only, in locals (a masked read skips most values of a page).
  int64_t pos = pos_;
  int64_t i = 0;
  for (; i < n; ++i) {
    if (QUIVER_PREDICT_FALSE(size_ - pos < 4)) break;
    const int64_t length = bit_util::FromLittleEndian(bit_util::SafeLoad<uint32_t>(data_ + pos));
    if (QUIVER_PREDICT_FALSE(length > size_ - pos - 4)) break;
    pos += 4 + length;
  }
  pos_ = pos;
  values_read_ += i;
  return i == n ? Status::OK() : NextLength(nullptr);
}

}  // namespace quiver::parquet
