// RLE / bit-packing hybrid encoder and decoder; see rle_bit_packed.h for the
// format and the run-choice rule.
#include "quiver/parquet/encoding/rle_bit_packed.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <type_traits>

#include "quiver/parquet/encoding/bit_packing_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/varint.h"

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

namespace quiver::parquet {

namespace {
// Spec: run lengths are in [1, 2^31 - 1].
constexpr int64_t kMaxRunLength = std::numeric_limits<int32_t>::max();
}  // namespace

// ---------------------------------------------------------------------------
// Encoder

RleBitPackedEncoder::RleBitPackedEncoder(int bit_width, MutableBuffer* out, bool length_prefix)
    : bit_width_(bit_width),
      max_value_(bit_util::LeastSignificantBitMask(bit_width)),
      out_(out),
      length_prefix_(length_prefix) {}

int64_t RleBitPackedEncoder::MaxEncodedSize(int bit_width, int64_t num_values) {
  // Per group of 8 values, a bit-packed group costs bit_width bytes plus at
  // most one header byte, an RLE run of >= 8 values at most
  // 1 + ceil(bit_width / 8) bytes for fewer than 64 values (longer runs have
  // longer headers but cover more groups); the last group, padded, likewise.
  return (num_values + 7) / 8 * (bit_width + 1);
}

Status RleBitPackedEncoder::ValueTooWide(uint64_t value) const {
  return Status::Invalid("RLE/bit-packed encoder: value ", value, " does not fit in ",
                         bit_width_, " bits");
}

Status RleBitPackedEncoder::Begin() {
  if (started_) return Status::OK();
  start_ = out_->size();
  if (length_prefix_) QUIVER_RETURN_NOT_OK(out_->Append<uint32_t>(0));
  started_ = true;
  return Status::OK();
}

Status RleBitPackedEncoder::PutRepeated(uint64_t value, int64_t count) {
  if (count < 0) return Status::Invalid("RLE/bit-packed encoder: negative count ", count);
  if (QUIVER_PREDICT_FALSE(value > max_value_)) return ValueTooWide(value);
  while (count > 0) {
    if (repeat_count_ >= 8 && value == current_value_) {
      // An RLE run of this value is open (and nothing is buffered).
      repeat_count_ += count;
      num_values_ += count;
      return Status::OK();
    }
    QUIVER_RETURN_NOT_OK(Put(value));
    --count;
  }
  return Status::OK();
}

template <typename T>
void RleBitPackedEncoder::AppendLiteralGroup(const T* v) {
  if (bit_width_ == 1) {
    uint8_t byte = 0;
    for (int k = 0; k < 8; ++k) byte |= static_cast<uint8_t>((v[k] & 1) << k);
    literal_bits_[num_literal_ / 8] = byte;
  } else {
    for (int k = 0; k < 8; ++k) literal_[num_literal_ + k] = static_cast<uint32_t>(v[k]);
  }
  num_literal_ += 8;
}

namespace {

// LiteralGroup, a value at a time.
template <typename U>
inline bool LiteralGroupLoop(const void* g, U limit) {
  U v[8];
  std::memcpy(v, g, sizeof(v));
  U differ = 0, hi = 0;
  for (int k = 0; k < 8; ++k) {
    differ |= static_cast<U>(v[k] ^ v[0]);
    hi = std::max(hi, v[k]);
  }
  return differ != 0 && hi <= limit;
}

// Whether the 8 values at g (U: the unsigned type of the values' bits) are
// not all equal and all in [0, limit] as unsigned (a negative value is above
// any limit its signed type allows): a bit-packed group. For 32- and 16-bit
// values one or two 16-byte loads and compares (SSE4.1); a loop otherwise.
template <typename U>
inline bool LiteralGroup(const void* g, U limit) {
#if defined(__SSE4_1__)
  if constexpr (sizeof(U) == 1) {
    return LiteralGroupLoop(g, limit);
  } else if constexpr (sizeof(U) == 4) {
    const auto* p = static_cast<const __m128i*>(g);
    const __m128i a = _mm_loadu_si128(p);
    const __m128i b = _mm_loadu_si128(p + 1);
    const __m128i first = _mm_shuffle_epi32(a, 0);
    const __m128i equal = _mm_and_si128(_mm_cmpeq_epi32(a, first), _mm_cmpeq_epi32(b, first));
    const __m128i lim = _mm_set1_epi32(static_cast<int>(limit));
    const __m128i within = _mm_cmpeq_epi32(_mm_max_epu32(_mm_max_epu32(a, b), lim), lim);
    return _mm_movemask_epi8(equal) != 0xFFFF && _mm_movemask_epi8(within) == 0xFFFF;
  } else {
    const __m128i a = _mm_loadu_si128(static_cast<const __m128i*>(g));
    const __m128i first = _mm_set1_epi16(static_cast<int16_t>(_mm_cvtsi128_si32(a)));
    const __m128i equal = _mm_cmpeq_epi16(a, first);
    const __m128i lim = _mm_set1_epi16(static_cast<int16_t>(limit));
    const __m128i within = _mm_cmpeq_epi16(_mm_max_epu16(a, lim), lim);
    return _mm_movemask_epi8(equal) != 0xFFFF && _mm_movemask_epi8(within) == 0xFFFF;
  }
#else
  return LiteralGroupLoop(g, limit);
#endif
}

// The 8 values at g (U bits, in range: not negative) as uint32 at out.
template <typename U>
inline void WidenGroup(const void* g, uint32_t* out) {
  if constexpr (sizeof(U) == 4) {
    std::memcpy(out, g, 8 * sizeof(uint32_t));
  } else if constexpr (sizeof(U) == 1) {
    U v[8];
    std::memcpy(v, g, sizeof(v));
    for (int k = 0; k < 8; ++k) out[k] = v[k];
  } else {
#if defined(__SSE4_1__)
    const __m128i a = _mm_loadu_si128(static_cast<const __m128i*>(g));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_cvtepu16_epi32(a));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out) + 1, _mm_cvtepu16_epi32(_mm_srli_si128(a, 8)));
#else
    U v[8];
    std::memcpy(v, g, sizeof(v));
    for (int k = 0; k < 8; ++k) out[k] = v[k];
#endif
  }
}

}  // namespace

template <typename T>
Status RleBitPackedEncoder::PutBatchImpl(const T* values, int64_t n) {
  int64_t i = 0;
  while (i < n) {
    // Fast path: at a group boundary with no run open, a group of 8 values
    // that are not all equal is a bit-packed group whatever comes next (Put
    // would buffer the 8, then FlushGroup would append them to the literal
    // run), so whole groups are appended at once. A group of 8 equal values
    // (an RLE run starts) and the tail go through Put / PutRepeated.
    if (num_buffered_ == 0 && repeat_count_ == 0) {
      // A group is checked at once (LiteralGroup: not all equal, every value
      // within the bit width as unsigned, which refuses a negative value
      // too) and appended by one copy (a byte of bits at width 1).
      using U = std::make_unsigned_t<T>;
      const auto limit = static_cast<U>(
          std::min<uint64_t>(max_value_, static_cast<uint64_t>(std::numeric_limits<T>::max())));
      while (n - i >= 8 && LiteralGroup<U>(values + i, limit)) {
        if (bit_width_ == 1) {
          AppendLiteralGroup(values + i);
        } else {
          WidenGroup<U>(values + i, literal_ + num_literal_);
          num_literal_ += 8;
        }
        num_values_ += 8;
        i += 8;
        if (num_literal_ == kMaxLiteralGroups * 8) QUIVER_RETURN_NOT_OK(FlushLiteralRun());
      }
      if (i >= n) break;
    }
    const T v = values[i];
    int64_t j = i + 1;
    while (j < n && values[j] == v) ++j;
    if (QUIVER_PREDICT_FALSE(v < 0)) {
      return Status::Invalid("RLE/bit-packed encoder: negative value ",
                             static_cast<int64_t>(v), " at index ", i);
    }
    if (j - i == 1) {
      QUIVER_RETURN_NOT_OK(Put(static_cast<uint64_t>(v)));
    } else {
      QUIVER_RETURN_NOT_OK(PutRepeated(static_cast<uint64_t>(v), j - i));
    }
    i = j;
  }
  return Status::OK();
}

Status RleBitPackedEncoder::PutBatch(const uint8_t* values, int64_t n) {
  return PutBatchImpl(values, n);
}
Status RleBitPackedEncoder::PutBatch(const int16_t* values, int64_t n) {
  return PutBatchImpl(values, n);
}
Status RleBitPackedEncoder::PutBatch(const int32_t* values, int64_t n) {
  return PutBatchImpl(values, n);
}
Status RleBitPackedEncoder::PutBatch(const uint32_t* values, int64_t n) {
  return PutBatchImpl(values, n);
}

namespace {

// The high bit of each zero byte of `w` set, and maybe of bytes above the
// lowest zero byte (a borrow runs up from it): exact up to the lowest.
inline uint64_t ZeroBytes(uint64_t w) {
  return (w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL;
}

// Bits [pos, pos + 8) of an LSB-first bitmap (all within the bitmap).
inline uint8_t EightBitsAt(const uint8_t* bits, int64_t pos) {
  return static_cast<uint8_t>(bitmap::LoadBits(bits, pos, 8));
}

// Length of the run of bits equal to bit `pos` starting there, at most
// `limit` (>= 1) bits: a word at a time.
inline int64_t RunOfEqualBits(const uint8_t* bits, int64_t pos, int64_t limit) {
  const bool one = bit_util::GetBit(bits, pos);
  int64_t len = 0;
  while (len < limit) {
    if (((pos + len) & 7) == 0) {
      // Byte aligned (a page's levels, from bit 0): 256 bits a step while
      // they are all equal (long null runs of sparse columns).
      const uint64_t flip = one ? ~uint64_t{0} : 0;
      const uint8_t* p = bits + ((pos + len) >> 3);
      for (; limit - len >= 256; p += 32, len += 256) {
        const uint64_t w0 = bit_util::SafeLoad<uint64_t>(p) ^ flip;
        const uint64_t w1 = bit_util::SafeLoad<uint64_t>(p + 8) ^ flip;
        const uint64_t w2 = bit_util::SafeLoad<uint64_t>(p + 16) ^ flip;
        const uint64_t w3 = bit_util::SafeLoad<uint64_t>(p + 24) ^ flip;
        if ((w0 | w1 | w2 | w3) != 0) break;
      }
    }
    const int take = static_cast<int>(std::min<int64_t>(64, limit - len));
    uint64_t word = bitmap::LoadBits(bits, pos + len, take);
    if (one) word = ~word & bit_util::LeastSignificantBitMask(take);
    if (word != 0) return len + std::countr_zero(word);  // set bits: where the run breaks
    len += take;
  }
  return limit;
}

}  // namespace

// PutBitmap from a group boundary with no run open. Put's rule, read off the
// bitmap: 8 bits that are not all equal are a bit-packed group (its byte)
// whatever follows; 8 equal bits open an RLE run that lasts as long as the
// bit does. The bytes go straight to out_, reserved a block of bits at a
// time; the open bit-packed run lives in out_ during a block (its header
// patched when it ends) and in literal_bits_ between blocks and calls. Takes
// every bit but the last < 8 (which Put buffers), or every bit when an RLE
// run reaches the end (it stays open: the next call may extend it).
Status RleBitPackedEncoder::PutBitmapGroups(const uint8_t* bits, int64_t offset, int64_t n,
                                            int64_t* taken) {
  QUIVER_RETURN_NOT_OK(Begin());
  constexpr int64_t kBlockBits = 8192;
  constexpr uint8_t kFullRunHeader = kMaxLiteralGroups << 1 | 1;
  int64_t i = 0;
  while (n - i >= 8) {
    const int64_t block_end = i + std::min(n - i, kBlockBits);
    // Room: the open bit-packed run (header and < 63 groups), then per group
    // of 8 bits a byte, or an RLE run (a header of <= 5 bytes, the value and
    // the next bit-packed run's header); the 64-bit step may pass block_end
    // by 7 groups.
    QUIVER_RETURN_NOT_OK(out_->Reserve(64 + ((block_end - i) / 8 + 8) * 8));
    uint8_t* const base = out_->data();
    uint8_t* p = base + out_->size();
    uint8_t* header = p++;
    int groups = num_literal_ / 8;
    std::memcpy(p, literal_bits_, static_cast<size_t>(groups));
    p += groups;
    num_literal_ = 0;
    bool left_to_run_state = false;
    // A full bit-packed run: the groups past it move up a byte for the next
    // run's header.
    auto close_full_run = [&] {
      *header = kFullRunHeader;
      groups -= kMaxLiteralGroups;
      header += 1 + kMaxLiteralGroups;
      std::memmove(header + 1, header, static_cast<size_t>(groups));
      ++p;
    };
    while (block_end - i >= 8) {
      // Up to 8 groups at once: those before the first of all-equal bits
      // are bit-packed groups, their bytes.
      int avail = 8;
      uint64_t w;
      if (QUIVER_PREDICT_TRUE(n - i >= 72)) {
        // 64 bits from 9 bytes, without LoadBits' branches (<< 1 << (63 -
        // shift): nothing of the ninth byte when the shift is 0).
        const int64_t first = offset + i;
        const uint8_t* src = bits + (first >> 3);
        const int shift = static_cast<int>(first & 7);
        w = (bit_util::FromLittleEndian(bit_util::SafeLoad<uint64_t>(src)) >> shift) |
            (static_cast<uint64_t>(src[8]) << 1 << (63 - shift));
      } else {
        avail = static_cast<int>(std::min<int64_t>(8, (n - i) / 8));
        w = bitmap::LoadBits(bits, offset + i, 8 * avail);
      }
      const uint64_t equal = ZeroBytes(w) | ZeroBytes(~w);
      const int k = equal == 0 ? avail : std::min(avail, std::countr_zero(equal) / 8);
      const uint64_t le = bit_util::ToLittleEndian(w);
      std::memcpy(p, &le, 8);  // (k bytes kept)
      p += k;
      groups += k;
      i += 8 * k;
      if (groups >= kMaxLiteralGroups) close_full_run();
      if (k == avail) continue;
      const uint8_t g = static_cast<uint8_t>(w >> (8 * k));
      // 8 equal bits: the bit-packed run (if any) ends, an RLE run starts.
      if (groups > 0) {
        *header = static_cast<uint8_t>(groups << 1 | 1);
      } else {
        p = header;
      }
      groups = 0;
      // The run's length: from the loaded word, then past it if it reaches
      // the word's end.
      const bool one = g != 0;
      const int loaded = 8 * (avail - k);
      uint64_t differ = (one ? ~w : w) >> (8 * k);
      if (loaded < 64) differ |= ~uint64_t{0} << loaded;
      int64_t run = differ == 0 ? 64 : std::countr_zero(differ);
      if (run == loaded && i + run < n && bit_util::GetBit(bits, offset + i + run) == one) {
        run += RunOfEqualBits(bits, offset + i + run, n - i - run);
      }
      if (i + run == n || run > kMaxRunLength) {
        // Open at the end (the next call may extend it), or longer than one
        // run header allows: the run state takes it.
        out_->UnsafeSetSize(p - base);
        current_value_ = one ? 1 : 0;
        repeat_count_ = run;
        i += run;
        left_to_run_state = true;
        break;
      }
      p += PutUleb128(static_cast<uint64_t>(run) << 1, p);
      *p++ = one ? 1 : 0;
      i += run;
      header = p++;
    }
    if (left_to_run_state) {
      if (i == n) break;
      QUIVER_RETURN_NOT_OK(FlushRepeatedRun());
      continue;
    }
    // The block's end: the open bit-packed run goes back to literal_bits_.
    std::memcpy(literal_bits_, header + 1, static_cast<size_t>(groups));
    num_literal_ = 8 * groups;
    out_->UnsafeSetSize(header - base);
  }
  num_values_ += i;
  *taken = i;
  return Status::OK();
}

Status RleBitPackedEncoder::PutBitmap(const uint8_t* bits, int64_t offset, int64_t n) {
  if (bit_width_ != 1) {
    return Status::Invalid("RLE/bit-packed encoder: PutBitmap needs bit width 1, not ", bit_width_);
  }
  int64_t i = 0;
  while (i < n) {
    // An RLE run is open and the next bit ends it: if the 8 bits from there
    // are not all equal, Put would close the run and buffer them into a
    // bit-packed group, so the run is closed now and they take the fast
    // path below.
    if (repeat_count_ >= 8 && num_buffered_ == 0 && n - i >= 8 &&
        bit_util::GetBit(bits, offset + i) != (current_value_ != 0)) {
      const uint8_t g = EightBitsAt(bits, offset + i);
      if (g != 0 && g != 0xFF) QUIVER_RETURN_NOT_OK(FlushRepeatedRun());
    }
    // At a group boundary with no run open: the groups and runs that follow,
    // straight to out_.
    if (num_buffered_ == 0 && repeat_count_ == 0 && n - i >= 8) {
      int64_t taken = 0;
      QUIVER_RETURN_NOT_OK(PutBitmapGroups(bits, offset + i, n - i, &taken));
      i += taken;
      if (i >= n) break;
    }
    const int64_t run = RunOfEqualBits(bits, offset + i, n - i);
    const uint64_t v = bit_util::GetBit(bits, offset + i) ? 1 : 0;
    if (run == 1) {
      QUIVER_RETURN_NOT_OK(Put(v));
    } else {
      QUIVER_RETURN_NOT_OK(PutRepeated(v, run));
    }
    i += run;
  }
  return Status::OK();
}

Status RleBitPackedEncoder::FlushGroup() {
  num_buffered_ = 0;
  if (repeat_count_ >= 8) {
    // The 8 buffered values are all equal: they start an RLE run, which ends
    // the open bit-packed run (if any).
    if (num_literal_ > 0) return FlushLiteralRun();
    return Status::OK();
  }
  AppendLiteralGroup(buffered_);
  repeat_count_ = 0;
  if (num_literal_ == kMaxLiteralGroups * 8) return FlushLiteralRun();
  return Status::OK();
}

Status RleBitPackedEncoder::FlushRepeatedRun() {
  QUIVER_RETURN_NOT_OK(Begin());
  const int value_bytes = (bit_width_ + 7) / 8;
  int64_t remaining = repeat_count_;
  while (remaining > 0) {
    const int64_t run = std::min(remaining, kMaxRunLength);
    QUIVER_RETURN_NOT_OK(out_->Reserve(kMaxUleb128Bytes + value_bytes));
    uint8_t* p = out_->data() + out_->size();
    p += PutUleb128(static_cast<uint64_t>(run) << 1, p);
    for (int b = 0; b < value_bytes; ++b) *p++ = static_cast<uint8_t>(current_value_ >> (8 * b));
    out_->UnsafeSetSize(p - out_->data());
    remaining -= run;
  }
  repeat_count_ = 0;
  num_buffered_ = 0;
  return Status::OK();
}

Status RleBitPackedEncoder::FlushLiteralRun() {
  QUIVER_RETURN_NOT_OK(Begin());
  const int groups = num_literal_ / 8;
  QUIVER_RETURN_NOT_OK(out_->Reserve(1 + int64_t{groups} * bit_width_));
  uint8_t* p = out_->data() + out_->size();
  *p++ = static_cast<uint8_t>(groups << 1 | 1);  // groups <= 63: one byte
  if (bit_width_ == 1) {  // the groups are their bytes
    std::memcpy(p, literal_bits_, static_cast<size_t>(groups));
    out_->UnsafeSetSize(p + groups - out_->data());
    num_literal_ = 0;
    return Status::OK();
  }
  const int full_blocks = num_literal_ / 32;
  for (int b = 0; b < full_blocks; ++b) {
    internal::Pack32(literal_ + 32 * b, bit_width_, p);
    p += 4 * bit_width_;
  }
  // The 0, 8, 16 or 24 values left, a group of 8 (bit_width_ bytes) at a
  // time through a bit accumulator (a run of one group is common: the
  // scattered values of a sparse column's levels).
  const uint32_t* v = literal_ + 32 * full_blocks;
  const uint32_t* const v_end = literal_ + num_literal_;
  for (; v < v_end; v += 8) {
    uint64_t acc = 0;  // (< 8 bits pending + 32: fits)
    int pending = 0;
    for (int k = 0; k < 8; ++k) {
      acc |= static_cast<uint64_t>(v[k]) << pending;
      pending += bit_width_;
      for (; pending >= 8; pending -= 8, acc >>= 8) *p++ = static_cast<uint8_t>(acc);
    }
  }
  out_->UnsafeSetSize(p - out_->data());
  num_literal_ = 0;
  return Status::OK();
}

Result<int64_t> RleBitPackedEncoder::Flush() {
  QUIVER_RETURN_NOT_OK(Begin());
  if (num_literal_ > 0 || repeat_count_ > 0 || num_buffered_ > 0) {
    const bool all_repeat =
        num_literal_ == 0 && (repeat_count_ == num_buffered_ || num_buffered_ == 0);
    if (repeat_count_ > 0 && all_repeat) {
      QUIVER_RETURN_NOT_OK(FlushRepeatedRun());
    } else {
      if (num_buffered_ > 0) {
        std::fill(buffered_ + num_buffered_, buffered_ + 8, 0u);
        AppendLiteralGroup(buffered_);
        num_buffered_ = 0;
      }
      QUIVER_RETURN_NOT_OK(FlushLiteralRun());
      repeat_count_ = 0;
    }
  }
  const int64_t total = out_->size() - start_;
  if (length_prefix_) {
    bit_util::SafeStore(out_->data() + start_,
                        bit_util::ToLittleEndian(static_cast<uint32_t>(total - kLengthPrefixSize)));
  }
  started_ = false;
  num_values_ = 0;
  current_value_ = 0;
  repeat_count_ = 0;
  return total;
}

// ---------------------------------------------------------------------------
// Decoder

RleBitPackedDecoder::RleBitPackedDecoder(const uint8_t* data, int64_t size, int bit_width)
    : begin_(data), pos_(data), end_(data), bit_width_(bit_width) {
  if (bit_width < 0 || bit_width > RleBitPackedEncoder::kMaxBitWidth) {
    status_ = Status::Invalid("RLE/bit-packed data: bit width ", bit_width,
                              " is outside [0, 32]");
  } else if (size < 0) {
    status_ = Status::Invalid("RLE/bit-packed data: negative size ", size);
  } else {
    end_ = data + size;
  }
}

Result<int64_t> RleBitPackedDecoder::ReadLengthPrefix(const uint8_t* data, int64_t size) {
  if (size < RleBitPackedEncoder::kLengthPrefixSize) {
    return Status::Invalid("RLE/bit-packed data: ", size,
                           " bytes is too short for the 4-byte length prefix");
  }
  const int64_t length = bit_util::FromLittleEndian(bit_util::SafeLoad<uint32_t>(data));
  if (length > size - RleBitPackedEncoder::kLengthPrefixSize) {
    return Status::Invalid("RLE/bit-packed data: length prefix says ", length,
                           " bytes but only ", size - RleBitPackedEncoder::kLengthPrefixSize,
                           " follow it");
  }
  return length;
}

void RleBitPackedDecoder::Fail(Status status) {
  status_ = std::move(status);
  pos_ = end_;
  rle_left_ = 0;
  lit_left_ = 0;
}

bool RleBitPackedDecoder::NextRun() {
  if (pos_ >= end_ || !status_.ok()) return false;
  const int64_t header_offset = pos_ - begin_;
  uint64_t header;
  if (!GetUleb128(&pos_, end_, &header) || (header >> 1) > uint64_t{kMaxRunLength}) {
    Fail(Status::Invalid("RLE/bit-packed data: invalid run header at byte ", header_offset));
    return false;
  }
  const int64_t count = static_cast<int64_t>(header >> 1);
  if (count == 0) {
    Fail(Status::Invalid("RLE/bit-packed data: empty run at byte ", header_offset));
    return false;
  }
  if (header & 1) {
    // Bit-packed run of `count` groups of 8 values.
    int64_t values = count * 8;
    int64_t bytes = count * bit_width_;
    const int64_t available = end_ - pos_;
    if (bytes > available) {
      // Truncated: keep the values whose bits are all present.
      values = available * 8 / bit_width_;
      bytes = available;
    }
    lit_data_ = pos_;
    lit_left_ = values;
    lit_block_ = 0;
    block_pos_ = 32;
    lazy_pos_ = 0;
    pos_ += bytes;
    return values > 0;
  }
  const int value_bytes = (bit_width_ + 7) / 8;
  if (end_ - pos_ < value_bytes) {
    Fail(Status::Invalid("RLE/bit-packed data: RLE run at byte ", header_offset,
                         " is truncated (its value needs ", value_bytes, " bytes)"));
    return false;
  }
  uint64_t value = 0;
  for (int b = 0; b < value_bytes; ++b) value |= uint64_t{pos_[b]} << (8 * b);
  if (value > bit_util::LeastSignificantBitMask(bit_width_)) {
    Fail(Status::Invalid("RLE/bit-packed data: RLE run at byte ", header_offset, " repeats ",
                         value, ", which does not fit in bit width ", bit_width_));
    return false;
  }
  pos_ += value_bytes;
  rle_value_ = static_cast<uint32_t>(value);
  rle_left_ = count;
  return true;
}

void RleBitPackedDecoder::LoadBlock() {
  // Block b of a bit-packed run starts at byte 4 * bit_width * b. Its 4 *
  // bit_width bytes may extend past the run (only for the last, partial
  // block): read them directly if they are inside the buffer, else from a
  // zero-padded copy of what is there.
  const int64_t block_bytes = 4 * int64_t{bit_width_};
  const uint8_t* p = lit_data_ + lit_block_ * block_bytes;
  if (end_ - p >= block_bytes) {
    internal::UnpackBlocks32(p, end_ - p, bit_width_, 1, block_);
  } else {
    uint8_t padded[4 * 32] = {};
    std::memcpy(padded, p, static_cast<size_t>(end_ - p));
    internal::Unpack32(padded, bit_width_, block_);
  }
  ++lit_block_;
  block_pos_ = lazy_pos_;
  lazy_pos_ = 0;
}

int64_t RleBitPackedDecoder::GetBits(uint8_t* out, int64_t out_offset, int64_t n,
                                     int64_t* ones) {
  int64_t read = 0;
  int64_t set = 0;
  bitmap::BitAppender bits(out, out_offset);
  while (read < n) {
    if (rle_left_ > 0) {
      const int64_t k = std::min(rle_left_, n - read);
      bits.AppendRepeated(rle_value_ != 0, k);
      if (rle_value_ != 0) set += k;
      rle_left_ -= k;
      read += k;
    } else if (lit_left_ > 0) {
      // The run's values are within its bytes (NextRun cut a truncated run),
      // which lie in [lit_data_, end_).
      const int64_t k = std::min(lit_left_, n - read);
      const int64_t size = end_ - lit_data_;
      int64_t index = LiteralIndex();
      for (int64_t left = k; left > 0;) {
        const int m = static_cast<int>(std::min<int64_t>(left, 57));
        const uint64_t word = bitmap::LoadBitsIn(lit_data_, size, index, m);
        set += std::popcount(word);
        bits.Append(word, m);
        index += m;
        left -= m;
      }
      SkipLiteral(k);
      read += k;
    } else if (!NextRun()) {
      break;
    }
  }
  bits.Finish();
  *ones += set;
  return read;
}

namespace {

// Byte b's eight bits as eight bytes (0 or 1), least significant first.
constexpr std::array<uint64_t, 256> MakeSpreadBits() {
  std::array<uint64_t, 256> table{};
  for (int b = 0; b < 256; ++b) {
    for (int i = 0; i < 8; ++i) table[b] |= static_cast<uint64_t>((b >> i) & 1) << (8 * i);
  }
  return table;
}
constexpr std::array<uint64_t, 256> kSpreadBits = MakeSpreadBits();

// Bits [index, index + k) of `bits` as k values of T (0 or 1): the bits
// before a byte boundary one at a time, then a byte (eight values) at a
// time through kSpreadBits (widened to 16 bits by one SSE4.1 move where
// T is 2 bytes). Reads only the bytes that hold those bits.
template <typename T>
void ExpandBits(const uint8_t* bits, int64_t index, int64_t k, T* out) {
  int64_t i = 0;
  for (; i < k && ((index + i) & 7) != 0; ++i) out[i] = static_cast<T>(bit_util::GetBit(bits, index + i));
  for (; k - i >= 8; i += 8) {
    const uint64_t spread = kSpreadBits[bits[(index + i) >> 3]];
    if constexpr (sizeof(T) == 1) {
      std::memcpy(out + i, &spread, 8);
    } else {
#if defined(__SSE4_1__)
      if constexpr (sizeof(T) == 2) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                         _mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<long long>(spread))));
        continue;
      }
#endif
      for (int j = 0; j < 8; ++j) out[i + j] = static_cast<T>((spread >> (8 * j)) & 1);
    }
  }
  for (; i < k; ++i) out[i] = static_cast<T>(bit_util::GetBit(bits, index + i));
}

}  // namespace

template <typename T>
int64_t RleBitPackedDecoder::GetBatch(T* out, int64_t n) {
  int64_t read = 0;
  while (read < n) {
    if (rle_left_ > 0) {
      const int64_t k = std::min(rle_left_, n - read);
      std::fill_n(out + read, k, static_cast<T>(rle_value_));
      rle_left_ -= k;
      read += k;
    } else if (lit_left_ > 0 && bit_width_ == 1 && sizeof(T) <= 2) {
      // Levels of maximum 1 (int16): a bit-packed run's bytes expanded
      // eight values at a time, not unpacked to a block of 32 and copied
      // a value at a time (the run's values lie within its bytes).
      const int64_t k = std::min(lit_left_, n - read);
      ExpandBits(lit_data_, LiteralIndex(), k, out + read);
      SkipLiteral(k);
      read += k;
    } else if (lit_left_ > 0 && block_pos_ == 32 && n - read < 8) {
      // A few values where no block is unpacked (after a skip): each read
      // from its bits, not a block of 32 unpacked.
      const int64_t k = std::min(lit_left_, n - read);
      const int64_t size = end_ - lit_data_;
      const int64_t index = LiteralIndex();
      for (int64_t j = 0; j < k; ++j) {
        out[read + j] = static_cast<T>(
            bitmap::LoadBitsIn(lit_data_, size, (index + j) * bit_width_, bit_width_));
      }
      SkipLiteral(k);
      read += k;
    } else if (lit_left_ > 0) {
      int64_t k = std::min(lit_left_, n - read);
      lit_left_ -= k;
      // Whole blocks straight into the output when the types match.
      if constexpr (sizeof(T) == sizeof(uint32_t)) {
        if (block_pos_ == 32 && lazy_pos_ == 0 && k >= 32) {
          const int64_t blocks = k / 32;
          const uint8_t* p = lit_data_ + lit_block_ * 4 * int64_t{bit_width_};
          internal::UnpackBlocks32(p, end_ - p, bit_width_, blocks,
                                   reinterpret_cast<uint32_t*>(out + read));
          lit_block_ += blocks;
          read += 32 * blocks;
          k -= 32 * blocks;
        }
      }
      while (k > 0) {
        if (block_pos_ == 32) LoadBlock();
        const int m = static_cast<int>(std::min<int64_t>(k, 32 - block_pos_));
        for (int j = 0; j < m; ++j) out[read + j] = static_cast<T>(block_[block_pos_ + j]);
        block_pos_ += m;
        read += m;
        k -= m;
      }
    } else if (!NextRun()) {
      break;
    }
  }
  return read;
}

int64_t RleBitPackedDecoder::Count(int64_t n, uint32_t value, uint32_t max_value,
                                   int64_t* equal) {
  int64_t read = 0;
  int64_t count = 0;
  while (read < n) {
    if (rle_left_ > 0) {
      if (rle_value_ > max_value) break;
      const int64_t k = std::min(rle_left_, n - read);
      if (rle_value_ == value) count += k;
      rle_left_ -= k;
      read += k;
    } else if (lit_left_ > 0 && bit_width_ == 1 && max_value >= 1) {
      // Every value is 0 or 1: count the run's bits in bulk.
      const int64_t k = std::min(lit_left_, n - read);
      const int64_t ones = bitmap::CountSetBits(lit_data_, LiteralIndex(), k);
      if (value == 1) count += ones;
      if (value == 0) count += k - ones;
      SkipLiteral(k);
      read += k;
    } else if (lit_left_ > 0) {
      if (block_pos_ == 32) LoadBlock();
      const int m = static_cast<int>(std::min<int64_t>({lit_left_, n - read, 32 - block_pos_}));
      const uint32_t* block = block_ + block_pos_;
      int j = 0;
      int64_t same = 0;
      uint32_t above = 0;
      for (; j < m; ++j) {
        same += block[j] == value;
        above |= static_cast<uint32_t>(block[j] > max_value);
      }
      if (above != 0) {
        // Only the values before the first one above max_value count.
        same = 0;
        for (j = 0; block[j] <= max_value; ++j) same += block[j] == value;
      }
      count += same;
      block_pos_ += j;
      lit_left_ -= j;
      read += j;
      if (j < m) break;
    } else if (!NextRun()) {
      break;
    }
  }
  *equal += count;
  return read;
}

template int64_t RleBitPackedDecoder::GetBatch(uint8_t*, int64_t);
template int64_t RleBitPackedDecoder::GetBatch(int16_t*, int64_t);
template int64_t RleBitPackedDecoder::GetBatch(uint16_t*, int64_t);
template int64_t RleBitPackedDecoder::GetBatch(int32_t*, int64_t);
template int64_t RleBitPackedDecoder::GetBatch(uint32_t*, int64_t);
template int64_t RleBitPackedDecoder::GetBatch(int64_t*, int64_t);
template int64_t RleBitPackedDecoder::GetBatch(uint64_t*, int64_t);

}  // namespace quiver::parquet
