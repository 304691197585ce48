// Level sections of data pages (apache/parquet-format Encodings.md). RLE
// sections go through RleBitPackedDecoder; the deprecated BIT_PACKED
// encoding is unpacked here: level i is bits [i * w, (i + 1) * w) of the
// section read as one big-endian bit string (the first level in the most
// significant bits of the first byte), the last byte padded with zeros.
#include "quiver/parquet/levels/level_decoder_internal.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <vector>

#include "quiver/util/bit_util.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace quiver::parquet {

namespace {

// Levels unpacked at once into scratch memory by Count() on BIT_PACKED data.
constexpr int64_t kScratchLevels = 256;

std::string EncodingText(format::Encoding encoding) {
  const std::string_view name = format::EnumName(encoding);
  if (!name.empty()) return std::string(name);
  return "unknown (" + std::to_string(static_cast<int32_t>(encoding)) + ")";
}

// The index of the first level above max_level in levels[0, n), or n: one
// pass taking the maximum (which vectorises), a search only if one is.
int64_t FirstAbove(const int16_t* levels, int64_t n, int16_t max_level) {
  int16_t highest = 0;
  int64_t i = 0;
#if defined(__SSE2__)
  __m128i m0 = _mm_setzero_si128();
  __m128i m1 = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) {
    m0 = _mm_max_epi16(m0, _mm_loadu_si128(reinterpret_cast<const __m128i*>(levels + i)));
    m1 = _mm_max_epi16(m1, _mm_loadu_si128(reinterpret_cast<const __m128i*>(levels + i + 8)));
  }
  m0 = _mm_max_epi16(m0, m1);
  m0 = _mm_max_epi16(m0, _mm_shuffle_epi32(m0, _MM_SHUFFLE(1, 0, 3, 2)));
  m0 = _mm_max_epi16(m0, _mm_shuffle_epi32(m0, _MM_SHUFFLE(2, 3, 0, 1)));
  m0 = _mm_max_epi16(m0, _mm_srli_epi32(m0, 16));
  highest = static_cast<int16_t>(_mm_cvtsi128_si32(m0));
#endif
  for (; i < n; ++i) highest = std::max(highest, levels[i]);
  if (highest <= max_level) return n;
  return std::find_if(levels, levels + n, [&](int16_t l) { return l > max_level; }) - levels;
}

}  // namespace

int LevelBitWidth(int16_t max_level) {
  return max_level <= 0 ? 0 : static_cast<int>(std::bit_width(static_cast<uint16_t>(max_level)));
}

Result<int64_t> V1LevelSectionSize(format::Encoding encoding, int16_t max_level, int64_t num_values,
                                   const uint8_t* data, int64_t size) {
  if (max_level < 0) return Status::Invalid("negative max level ", max_level);
  if (num_values < 0) return Status::Invalid("negative number of levels ", num_values);
  if (size < 0) return Status::Invalid("negative level section size ", size);
  if (max_level == 0) return 0;
  switch (encoding) {
    case format::Encoding::kRle: {
      QUIVER_ASSIGN_OR_RAISE(const int64_t length,
                             RleBitPackedDecoder::ReadLengthPrefix(data, size));
      return RleBitPackedEncoder::kLengthPrefixSize + length;
    }
    case format::Encoding::kBitPacked: {
      const int w = LevelBitWidth(max_level);
      if (num_values > (std::numeric_limits<int64_t>::max() - 7) / w) {
        return Status::Invalid("BIT_PACKED levels: ", num_values, " levels of ", w,
                               " bits cannot fit in ", size, " bytes");
      }
      const int64_t bytes = (num_values * w + 7) / 8;
      if (bytes > size) {
        return Status::Invalid("BIT_PACKED levels: ", num_values, " levels of ", w,
                               " bits need ", bytes, " bytes but only ", size, " remain");
      }
      return bytes;
    }
    default:
      return Status::Invalid("level encoding ", EncodingText(encoding),
                             " is not RLE or BIT_PACKED");
  }
}

int64_t CountLevels(const int16_t* levels, int64_t n, int16_t level) {
  int64_t count = 0;
  int64_t i = 0;
#if defined(__SSE2__)
  const __m128i want = _mm_set1_epi16(level);
  for (; i + 16 <= n; i += 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(levels + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(levels + i + 8));
    const __m128i eq = _mm_packs_epi16(_mm_cmpeq_epi16(a, want), _mm_cmpeq_epi16(b, want));
    count += std::popcount(static_cast<uint32_t>(_mm_movemask_epi8(eq)));
  }
#endif
  for (; i < n; ++i) count += levels[i] == level;
  return count;
}

namespace {

#if defined(__SSE2__)
// LevelHistogram for max_level kMax in [2, 7]: levels 0 .. kMax - 1 counted
// by compares, eight levels a step, in int16 lanes (each lane gains at most
// one a step, so at most 32767 steps before the lanes are added up); level
// kMax is what is left.
template <int kMax>
void HistogramByCompares(const int16_t* levels, int64_t n, int64_t* hist) {
  int64_t counts[kMax] = {};
  int64_t i = 0;
  const __m128i ones = _mm_set1_epi16(1);
  while (n - i >= 8) {
    const int64_t steps = std::min<int64_t>((n - i) / 8, 32767);
    __m128i acc[kMax];
    for (int k = 0; k < kMax; ++k) acc[k] = _mm_setzero_si128();
    for (int64_t s = 0; s < steps; ++s, i += 8) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(levels + i));
      for (int k = 0; k < kMax; ++k) {
        acc[k] = _mm_sub_epi16(acc[k], _mm_cmpeq_epi16(v, _mm_set1_epi16(static_cast<int16_t>(k))));
      }
    }
    for (int k = 0; k < kMax; ++k) {
      alignas(16) int32_t lanes[4];
      _mm_store_si128(reinterpret_cast<__m128i*>(lanes), _mm_madd_epi16(acc[k], ones));
      counts[k] += int64_t{lanes[0]} + lanes[1] + lanes[2] + lanes[3];
    }
  }
  for (; i < n; ++i) {
    const auto level = static_cast<uint16_t>(levels[i]);
    if (level < kMax) ++counts[level];
  }
  int64_t below = 0;
  for (int k = 0; k < kMax; ++k) {
    hist[k] = counts[k];
    below += counts[k];
  }
  hist[kMax] = n - below;
}
#endif

// LevelHistogram with four interleaved tables of w = max_level + 1 counters
// at t (4 * (w + 1), zeroed here: each table has a spare counter past its w
// for a level outside), so that runs of one level do not serialise on one
// counter.
void HistogramByTables(const int16_t* levels, int64_t n, size_t w, int64_t* t, int64_t* hist) {
  std::fill(t, t + 4 * (w + 1), 0);
  const auto at = [w](int16_t level) {  // a level outside [0, w) goes nowhere
    const auto u = static_cast<uint16_t>(level);
    return u < w ? u : w;
  };
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    ++t[at(levels[i])];
    ++t[(w + 1) + at(levels[i + 1])];
    ++t[2 * (w + 1) + at(levels[i + 2])];
    ++t[3 * (w + 1) + at(levels[i + 3])];
  }
  for (; i < n; ++i) ++t[at(levels[i])];
  for (size_t k = 0; k < w; ++k) hist[k] = t[k] + t[(w + 1) + k] + t[2 * (w + 1) + k] + t[3 * (w + 1) + k];
}

}  // namespace

void LevelHistogram(const int16_t* levels, int64_t n, int16_t max_level, int64_t* hist) {
  switch (max_level) {
    case 0:
      hist[0] = n;
      return;
    case 1: {
      const int64_t ones = CountLevels(levels, n, 1);
      hist[0] = n - ones;
      hist[1] = ones;
      return;
    }
#if defined(__SSE2__)
    case 2: return HistogramByCompares<2>(levels, n, hist);
    case 3: return HistogramByCompares<3>(levels, n, hist);
    case 4: return HistogramByCompares<4>(levels, n, hist);
    case 5: return HistogramByCompares<5>(levels, n, hist);
    case 6: return HistogramByCompares<6>(levels, n, hist);
    case 7: return HistogramByCompares<7>(levels, n, hist);
#endif
    default: break;
  }
  const size_t w = static_cast<size_t>(std::max<int16_t>(max_level, 0)) + 1;
  constexpr size_t kStackLevels = 32;
  if (w <= kStackLevels) {
    int64_t tables[4 * (kStackLevels + 1)];
    HistogramByTables(levels, n, w, tables, hist);
  } else {
    std::vector<int64_t> tables(4 * (w + 1));
    HistogramByTables(levels, n, w, tables.data(), hist);
  }
}

int64_t LevelsToBitmap(const int16_t* levels, int64_t n, int16_t level, uint8_t* out,
                       int64_t out_offset) {
  int64_t set = 0;
  int64_t i = 0;
  // Up to a byte boundary of the output, bit by bit.
  for (; i < n && ((out_offset + i) & 7) != 0; ++i) {
    const bool bit = levels[i] >= level;
    bit_util::SetBitTo(out, out_offset + i, bit);
    set += bit;
  }
  // Then whole bytes: eight compares a byte.
  uint8_t* bytes = out + ((out_offset + i) >> 3);
#if defined(__SSE2__)
  const __m128i below = _mm_set1_epi16(static_cast<int16_t>(level - 1));
  for (; i + 16 <= n; i += 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(levels + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(levels + i + 8));
    const __m128i ge = _mm_packs_epi16(_mm_cmpgt_epi16(a, below), _mm_cmpgt_epi16(b, below));
    const auto mask = static_cast<uint32_t>(_mm_movemask_epi8(ge));
    *bytes++ = static_cast<uint8_t>(mask);
    *bytes++ = static_cast<uint8_t>(mask >> 8);
    set += std::popcount(mask);
  }
#endif
  for (; i + 8 <= n; i += 8) {
    uint8_t byte = 0;
    for (int j = 0; j < 8; ++j) byte |= static_cast<uint8_t>((levels[i + j] >= level) << j);
    *bytes++ = byte;
    set += std::popcount(static_cast<unsigned>(byte));
  }
  for (; i < n; ++i) {
    const bool bit = levels[i] >= level;
    bit_util::SetBitTo(out, out_offset + i, bit);
    set += bit;
  }
  return set;
}

Status LevelDecoder::SetData(std::string_view kind, format::Encoding encoding, int16_t max_level,
                             int64_t num_values, const uint8_t* data, int64_t size) {
  kind_ = kind;
  status_ = Status::OK();
  num_values_ = 0;
  levels_left_ = 0;
  rle_ = RleBitPackedDecoder();
  data_ = nullptr;
  size_ = 0;
  bit_pos_ = 0;
  if (max_level < 0) return Fail(Status::Invalid(kind_, " levels: negative max level ", max_level));
  if (num_values < 0) {
    return Fail(Status::Invalid(kind_, " levels: negative number of levels ", num_values));
  }
  if (size < 0) return Fail(Status::Invalid(kind_, " levels: negative section size ", size));
  if (encoding != format::Encoding::kRle && encoding != format::Encoding::kBitPacked) {
    return Fail(Status::Invalid(kind_, " levels: encoding ", EncodingText(encoding),
                                " is not RLE or BIT_PACKED"));
  }
  encoding_ = encoding;
  max_level_ = max_level;
  bit_width_ = LevelBitWidth(max_level);
  num_values_ = num_values;
  levels_left_ = num_values;
  if (max_level == 0) return Status::OK();
  if (encoding == format::Encoding::kRle) {
    rle_ = RleBitPackedDecoder(data, size, bit_width_);
  } else {
    data_ = data;
    size_ = size;
  }
  return Status::OK();
}

Status LevelDecoder::Fail(Status status) {
  status_ = std::move(status);
  levels_left_ = 0;
  return status_;
}

Status LevelDecoder::CheckWanted(int64_t n) {
  QUIVER_RETURN_NOT_OK(status_);
  if (n < 0 || n > levels_left_) {
    return Fail(Status::Invalid(kind_, " levels: asked for ", n, " levels but ", levels_left_,
                                " are left"));
  }
  return Status::OK();
}

Status LevelDecoder::Exhausted(int64_t index) const {
  return Status::Invalid(kind_, " levels: the section ends before level ", index, " (the page has ",
                         num_values_, ")");
}

Status LevelDecoder::Malformed(int64_t index, const Status& cause) const {
  return Status::Invalid(kind_, " levels: level ", index, ": ", cause.message());
}

Status LevelDecoder::TooHigh(int64_t index, int value) const {
  return Status::Invalid(kind_, " levels: level ", index, " is ", value, ", above the max ", kind_,
                         " level ", max_level_);
}

Status LevelDecoder::RleStopped(int64_t index) {
  if (!rle_.status().ok()) return Malformed(index, rle_.status());
  return Exhausted(index);
}

int64_t LevelDecoder::UnpackMsbFirst(int64_t n, int16_t* out) {
  const int w = bit_width_;
  const uint32_t mask = (uint32_t{1} << w) - 1;
  // Levels whose bits are all in the section.
  const int64_t whole = (size_ * 8 - bit_pos_) / w;
  const int64_t k = std::min(n, whole);
  int64_t bit = bit_pos_;
  for (int64_t i = 0; i < k; ++i, bit += w) {
    // w <= 15 and the level starts at bit `shift` of its first byte, so
    // shift + w <= 22: three bytes hold it.
    const int64_t byte = bit >> 3;
    const int shift = static_cast<int>(bit & 7);
    uint32_t word = 0;
    if (byte + 3 <= size_) {
      word = uint32_t{data_[byte]} << 16 | uint32_t{data_[byte + 1]} << 8 | data_[byte + 2];
    } else {
      for (int b = 0; b < 3 && byte + b < size_; ++b) {
        word |= uint32_t{data_[byte + b]} << (16 - 8 * b);
      }
    }
    out[i] = static_cast<int16_t>((word >> (24 - shift - w)) & mask);
  }
  bit_pos_ = bit;
  return k;
}

Status LevelDecoder::Decode(int64_t n, int16_t* out) {
  QUIVER_RETURN_NOT_OK(CheckWanted(n));
  const int64_t base = num_values_ - levels_left_;
  if (max_level_ == 0) {
    std::fill_n(out, n, int16_t{0});
    levels_left_ -= n;
    return Status::OK();
  }
  const bool rle = encoding_ == format::Encoding::kRle;
  const int64_t got = rle ? rle_.GetBatch(out, n) : UnpackMsbFirst(n, out);
  // Levels of bit_width_ bits above max_level_ only if the width allows.
  if (max_level_ < static_cast<int>(bit_util::LeastSignificantBitMask(bit_width_))) {
    const int64_t above = FirstAbove(out, got, max_level_);
    if (above < got) return Fail(TooHigh(base + above, out[above]));
  }
  if (got < n) return Fail(rle ? RleStopped(base + got) : Exhausted(base + got));
  levels_left_ -= n;
  return Status::OK();
}

Result<int64_t> LevelDecoder::DecodeBits(int64_t n, uint8_t* out, int64_t out_offset) {
  QUIVER_RETURN_NOT_OK(CheckWanted(n));
  if (max_level_ != 1) {
    return Fail(Status::Invalid(kind_, " levels: decoding as bits needs max level 1, not ",
                                max_level_));
  }
  const int64_t base = num_values_ - levels_left_;
  int64_t ones = 0;
  if (encoding_ == format::Encoding::kRle) {
    const int64_t got = rle_.GetBits(out, out_offset, n, &ones);
    // Bit width 1 holds no level above 1: only a short section stops it.
    if (got < n) return Fail(RleStopped(base + got));
  } else {
    int16_t scratch[kScratchLevels];
    for (int64_t done = 0; done < n;) {
      const int64_t k = std::min(kScratchLevels, n - done);
      const int64_t got = UnpackMsbFirst(k, scratch);
      for (int64_t i = 0; i < got; ++i) {
        bit_util::SetBitTo(out, out_offset + done + i, scratch[i] != 0);
        ones += scratch[i] != 0;
      }
      if (got < k) return Fail(Exhausted(base + done + got));
      done += k;
    }
  }
  levels_left_ -= n;
  return ones;
}

Result<int64_t> LevelDecoder::Count(int64_t n, int16_t level) {
  QUIVER_RETURN_NOT_OK(CheckWanted(n));
  const int64_t base = num_values_ - levels_left_;
  if (max_level_ == 0) {
    levels_left_ -= n;
    return level == 0 ? n : 0;
  }
  int64_t equal = 0;
  if (encoding_ == format::Encoding::kRle) {
    // A negative level equals none: its uint32 value is above every level.
    const auto value = static_cast<uint32_t>(static_cast<int32_t>(level));
    const int64_t got = rle_.Count(n, value, static_cast<uint32_t>(max_level_), &equal);
    if (got < n) {
      if (!rle_.status().ok()) return Fail(Malformed(base + got, rle_.status()));
      // Count stopped before a level above max_level, or at the end.
      int16_t next = 0;
      if (rle_.GetBatch(&next, 1) == 1) return Fail(TooHigh(base + got, next));
      return Fail(RleStopped(base + got));
    }
  } else {
    int16_t scratch[kScratchLevels];
    for (int64_t done = 0; done < n;) {
      const int64_t k = std::min(kScratchLevels, n - done);
      const int64_t got = UnpackMsbFirst(k, scratch);
      const int64_t above = FirstAbove(scratch, got, max_level_);
      if (above < got) return Fail(TooHigh(base + done + above, scratch[above]));
      equal += std::count(scratch, scratch + got, level);
      if (got < k) return Fail(Exhausted(base + done + got));
      done += k;
    }
  }
  levels_left_ -= n;
  return equal;
}

}  // namespace quiver::parquet
