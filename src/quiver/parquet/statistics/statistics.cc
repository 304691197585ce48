#include "quiver/parquet/statistics/statistics.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

#include "quiver/parquet/statistics/min_max_simd.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/utf8.h"

namespace quiver::parquet {

namespace {

// IEEE 754 binary16 -> binary32.
float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1F;
  const uint32_t mant = h & 0x3FF;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      int e = -1;
      uint32_t m = mant;
      do {
        ++e;
        m <<= 1;
      } while ((m & 0x400) == 0);
      bits = sign | ((127 - 15 - e) << 23) | ((m & 0x3FF) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7F800000 | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

template <typename T>
std::string PlainBytes(T v) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &v, sizeof(T));
  return out;
}

// Calls f(i) for each valid slot i in [0, count).
template <typename F>
void ForEachValid(const uint8_t* valid, int64_t valid_offset, int64_t count, F&& f) {
  if (valid == nullptr) {
    for (int64_t i = 0; i < count; ++i) f(i);
    return;
  }
  bitmap::VisitSetBitRuns(valid, valid_offset, count, [&](int64_t pos, int64_t len) {
    for (int64_t i = pos; i < pos + len; ++i) f(i);
  });
}

// From this many values an Update runs the vector kernels of
// min_max_simd.h (where the CPU has them); fewer take the scalar loops.
constexpr int64_t kVectorMinCount = 64;

// --- Integers ---------------------------------------------------------------

// T: the comparison type (signed or unsigned); P: the physical type stored.
template <typename T, StatsKind K>
class IntegerStatistics final : public ColumnStatistics {
 public:
  IntegerStatistics() : ColumnStatistics(K) {}

  void Update(const void* values, int64_t count) override {
    if (count == 0) return;
    const T* v = static_cast<const T*>(values);
    const internal::MinMaxIsa isa = count >= kVectorMinCount ? internal::MinMaxIsaOfCpu() : internal::MinMaxIsa::kNone;
    if (isa == internal::MinMaxIsa::kNone) {
      internal::MinMaxIntScalar(v, count, &min_, &max_);
    } else {
      internal::MinMaxInt(isa, v, count, &min_, &max_);
    }
    has_ = true;
  }
  void UpdateSpaced(const void* values, const uint8_t* valid, int64_t valid_offset,
                    int64_t count) override {
    if (valid == nullptr) return Update(values, count);
    const T* v = static_cast<const T*>(values);
    bitmap::VisitSetBitRuns(valid, valid_offset, count,
                            [&](int64_t pos, int64_t len) { Update(v + pos, len); });
  }
  void UpdateBinary32(const int32_t*, const uint8_t*, const uint8_t*, int64_t, int64_t) override {}
  void UpdateBinary64(const int64_t*, const uint8_t*, const uint8_t*, int64_t, int64_t) override {}
  void UpdateOne(std::string_view) override {}

  bool has_min_max() const override { return has_; }
  void Merge(const ColumnStatistics& other) override {
    const auto& o = static_cast<const IntegerStatistics&>(other);
    null_count_ += o.null_count_;
    if (!o.has_) return;
    min_ = o.min_ < min_ ? o.min_ : min_;
    max_ = o.max_ > max_ ? o.max_ : max_;
    has_ = true;
  }
  void Reset() override {
    min_ = std::numeric_limits<T>::max();
    max_ = std::numeric_limits<T>::lowest();
    has_ = false;
    null_count_ = 0;
  }
  EncodedStatistics Encode(int64_t) const override {
    EncodedStatistics s;
    s.null_count = null_count_;
    if (has_) {
      s.min = PlainBytes(min_);
      s.max = PlainBytes(max_);
    }
    return s;
  }

 private:
  T min_ = std::numeric_limits<T>::max();
  T max_ = std::numeric_limits<T>::lowest();
  bool has_ = false;
};

// --- Floating point ---------------------------------------------------------

template <typename T, StatsKind K>
class FloatStatistics final : public ColumnStatistics {
 public:
  FloatStatistics() : ColumnStatistics(K) {}

  void Update(const void* values, int64_t count) override {
    const T* v = static_cast<const T*>(values);
    const internal::MinMaxIsa isa = count >= kVectorMinCount ? internal::MinMaxIsaOfCpu() : internal::MinMaxIsa::kNone;
    T lo = min_, hi = max_;
    int64_t nans = 0;
    if (isa == internal::MinMaxIsa::kNone) {
      internal::MinMaxFloatScalar(v, count, &lo, &hi, &nans);
    } else {
      internal::MinMaxFloat(isa, v, count, &lo, &hi, &nans);
    }
    Fold(lo, hi, count - nans, nans);
  }
  void UpdateSpaced(const void* values, const uint8_t* valid, int64_t valid_offset,
                    int64_t count) override {
    if (valid == nullptr) return Update(values, count);
    const T* v = static_cast<const T*>(values);
    bitmap::VisitSetBitRuns(valid, valid_offset, count,
                            [&](int64_t pos, int64_t len) { Update(v + pos, len); });
  }
  void UpdateBinary32(const int32_t*, const uint8_t*, const uint8_t*, int64_t, int64_t) override {}
  void UpdateBinary64(const int64_t*, const uint8_t*, const uint8_t*, int64_t, int64_t) override {}
  void UpdateOne(std::string_view) override {}

  bool has_min_max() const override { return has_; }
  void Merge(const ColumnStatistics& other) override {
    const auto& o = static_cast<const FloatStatistics&>(other);
    null_count_ += o.null_count_;
    nan_count_ += o.nan_count_;
    if (o.has_) Fold(o.min_, o.max_, 1, 0);
  }
  void Reset() override {
    min_ = std::numeric_limits<T>::infinity();
    max_ = -std::numeric_limits<T>::infinity();
    has_ = false;
    null_count_ = 0;
    nan_count_ = 0;
  }
  EncodedStatistics Encode(int64_t) const override {
    EncodedStatistics s;
    s.null_count = null_count_;
    s.nan_count = nan_count_;
    if (has_) {
      // Zeros: min as -0.0, max as +0.0 (whatever signs were seen).
      T lo = min_ == T(0) ? -T(0) : min_;
      T hi = max_ == T(0) ? T(0) : max_;
      s.min = PlainBytes(lo);
      s.max = PlainBytes(hi);
    }
    return s;
  }

 private:
  void Fold(T lo, T hi, int64_t non_nan, int64_t nans) {
    nan_count_ += nans;
    if (non_nan <= 0) return;
    min_ = lo < min_ ? lo : min_;
    max_ = hi > max_ ? hi : max_;
    has_ = true;
  }
  T min_ = std::numeric_limits<T>::infinity();
  T max_ = -std::numeric_limits<T>::infinity();
  bool has_ = false;
  int64_t nan_count_ = 0;
};

class Float16Statistics final : public ColumnStatistics {
 public:
  Float16Statistics() : ColumnStatistics(StatsKind::kFloat16) {}

  // A batch is reduced without converting to float: a non-NaN half maps to
  // an integer key in the order of its value (positive: 0x8000 + bits;
  // negative: 0x7FFF - magnitude), branch-free, and the batch's smallest and
  // largest keys are folded in with Consider. Only -0.0 and +0.0 compare
  // equal as floats yet differ as keys, and Encode writes zeros as -0.0 /
  // +0.0 whatever was kept, so the statistics are those of Add one by one.
  void Update(const void* values, int64_t count) override {
    const uint8_t* v = static_cast<const uint8_t*>(values);
    uint32_t lo = 0xFFFF, hi = 0;
    int64_t nans = 0;
    int64_t i = 0;
#if defined(__SSE4_1__)
    // Eight halves a step in 16-bit lanes (the compiler keeps the scalar
    // loop below scalar): the same keys, NaNs masked out of the min (as
    // 0xFFFF) and the max (as 0), counted per lane and summed every 8192
    // steps, before a lane could wrap.
    {
      const __m128i mag_mask = _mm_set1_epi16(0x7FFF);
      const __m128i inf = _mm_set1_epi16(0x7C00);
      const __m128i bias = _mm_set1_epi16(static_cast<int16_t>(0x8000));
      __m128i vlo = _mm_set1_epi16(-1), vhi = _mm_setzero_si128();
      while (i + 8 <= count) {
        __m128i vnan = _mm_setzero_si128();
        const int64_t stop = std::min(count - 7, i + 8 * 8192);
        for (; i < stop; i += 8) {
          const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(v + 2 * i));
          const __m128i mag = _mm_and_si128(h, mag_mask);
          const __m128i nan = _mm_cmpgt_epi16(mag, inf);  // (mag <= 0x7FFF: signed is fine)
          const __m128i negative = _mm_srai_epi16(h, 15);
          const __m128i key = _mm_blendv_epi8(_mm_add_epi16(mag, bias), _mm_sub_epi16(mag_mask, mag),
                                              negative);
          vlo = _mm_min_epu16(vlo, _mm_or_si128(key, nan));
          vhi = _mm_max_epu16(vhi, _mm_andnot_si128(nan, key));
          vnan = _mm_sub_epi16(vnan, nan);
        }
        alignas(16) uint16_t lanes[8];
        _mm_store_si128(reinterpret_cast<__m128i*>(lanes), vnan);
        for (uint16_t c : lanes) nans += c;
      }
      lo = static_cast<uint32_t>(_mm_extract_epi16(_mm_minpos_epu16(vlo), 0));
      hi = 0xFFFFu - static_cast<uint32_t>(_mm_extract_epi16(
                         _mm_minpos_epu16(_mm_xor_si128(vhi, _mm_set1_epi16(-1))), 0));
    }
#endif
    for (; i < count; ++i) {
      const uint32_t h = Load(v + 2 * i);
      const uint32_t mag = h & 0x7FFF;
      const bool nan = mag > 0x7C00;
      const uint32_t key = (h & 0x8000) != 0 ? 0x7FFF - mag : 0x8000 + mag;
      nans += nan;
      lo = std::min(lo, nan ? 0xFFFFu : key);
      hi = std::max(hi, nan ? 0u : key);
    }
    nan_count_ += nans;
    if (nans == count) return;
    Consider(FromKey(lo));
    Consider(FromKey(hi));
  }
  void UpdateSpaced(const void* values, const uint8_t* valid, int64_t valid_offset,
                    int64_t count) override {
    if (valid == nullptr) return Update(values, count);
    const uint8_t* v = static_cast<const uint8_t*>(values);
    ForEachValid(valid, valid_offset, count, [&](int64_t i) { Add(Load(v + 2 * i)); });
  }
  void UpdateBinary32(const int32_t*, const uint8_t*, const uint8_t*, int64_t, int64_t) override {}
  void UpdateBinary64(const int64_t*, const uint8_t*, const uint8_t*, int64_t, int64_t) override {}
  void UpdateOne(std::string_view v) override {
    if (v.size() == 2) Add(Load(reinterpret_cast<const uint8_t*>(v.data())));
  }

  bool has_min_max() const override { return has_; }
  void Merge(const ColumnStatistics& other) override {
    const auto& o = static_cast<const Float16Statistics&>(other);
    null_count_ += o.null_count_;
    nan_count_ += o.nan_count_;
    if (o.has_) {
      Consider(o.min_bits_);
      Consider(o.max_bits_);
    }
  }
  void Reset() override {
    has_ = false;
    null_count_ = 0;
    nan_count_ = 0;
  }
  EncodedStatistics Encode(int64_t) const override {
    EncodedStatistics s;
    s.null_count = null_count_;
    s.nan_count = nan_count_;
    if (has_) {
      uint16_t lo = HalfToFloat(min_bits_) == 0.0f ? uint16_t{0x8000} : min_bits_;
      uint16_t hi = HalfToFloat(max_bits_) == 0.0f ? uint16_t{0x0000} : max_bits_;
      s.min = PlainBytes(lo);
      s.max = PlainBytes(hi);
    }
    return s;
  }

 private:
  static uint16_t Load(const uint8_t* p) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return h;
  }
  // The half whose Update key is `key`.
  static uint16_t FromKey(uint32_t key) {
    return static_cast<uint16_t>(key >= 0x8000 ? key - 0x8000 : 0x8000 | (0x7FFF - key));
  }
  void Add(uint16_t h) {
    if (std::isnan(HalfToFloat(h))) {
      ++nan_count_;
      return;
    }
    Consider(h);
  }
  void Consider(uint16_t h) {
    float f = HalfToFloat(h);
    if (!has_) {
      min_bits_ = max_bits_ = h;
      has_ = true;
      return;
    }
    if (f < HalfToFloat(min_bits_)) min_bits_ = h;
    if (f > HalfToFloat(max_bits_)) max_bits_ = h;
  }
  uint16_t min_bits_ = 0;
  uint16_t max_bits_ = 0;
  bool has_ = false;
  int64_t nan_count_ = 0;
};

// --- Booleans ---------------------------------------------------------------

class BooleanStatistics final : public ColumnStatistics {
 public:
  BooleanStatistics() : ColumnStatistics(StatsKind::kBoolean) {}
  // Values are bytes 0/1.
  void Update(const void* values, int64_t count) override {
    const uint8_t* v = static_cast<const uint8_t*>(values);
    for (int64_t i = 0; i < count; ++i) Add(v[i] != 0);
  }
  void UpdateSpaced(const void* values, const uint8_t* valid, int64_t valid_offset,
                    int64_t count) override {
    const uint8_t* v = static_cast<const uint8_t*>(values);
    ForEachValid(valid, valid_offset, count, [&](int64_t i) { Add(v[i] != 0); });
  }
  void UpdateBinary32(const int32_t*, const uint8_t*, const uint8_t*, int64_t, int64_t) override {}
  void UpdateBinary64(const int64_t*, const uint8_t*, const uint8_t*, int64_t, int64_t) override {}
  void UpdateOne(std::string_view) override {}
  bool has_min_max() const override { return seen_false_ || seen_true_; }
  void Merge(const ColumnStatistics& other) override {
    const auto& o = static_cast<const BooleanStatistics&>(other);
    null_count_ += o.null_count_;
    seen_false_ |= o.seen_false_;
    seen_true_ |= o.seen_true_;
  }
  void Reset() override {
    seen_false_ = seen_true_ = false;
    null_count_ = 0;
  }
  EncodedStatistics Encode(int64_t) const override {
    EncodedStatistics s;
    s.null_count = null_count_;
    if (has_min_max()) {
      s.min = std::string(1, seen_false_ ? '\0' : '\1');
      s.max = std::string(1, seen_true_ ? '\1' : '\0');
    }
    return s;
  }
  void Add(bool b) { (b ? seen_true_ : seen_false_) = true; }

 private:
  bool seen_false_ = false;
  bool seen_true_ = false;
};

// --- Byte arrays ------------------------------------------------------------

int CompareUnsigned(std::string_view a, std::string_view b) {
  size_t n = a.size() < b.size() ? a.size() : b.size();
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

// Two's complement big-endian integers of possibly different lengths.
int CompareSigned(std::string_view a, std::string_view b) {
  bool a_neg = !a.empty() && (static_cast<uint8_t>(a[0]) & 0x80);
  bool b_neg = !b.empty() && (static_cast<uint8_t>(b[0]) & 0x80);
  if (a_neg != b_neg) return a_neg ? -1 : 1;
  // Same sign: sign-extend the shorter, then compare unsigned.
  size_t n = a.size() > b.size() ? a.size() : b.size();
  const uint8_t ext = a_neg ? 0xFF : 0x00;
  for (size_t i = 0; i < n; ++i) {
    size_t ai = i + a.size(), bi = i + b.size();
    uint8_t x = ai < n ? ext : static_cast<uint8_t>(a[ai - n]);
    uint8_t y = bi < n ? ext : static_cast<uint8_t>(b[bi - n]);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

class BytesStatistics final : public ColumnStatistics {
 public:
  BytesStatistics(StatsKind kind, bool is_string, int32_t fixed_length)
      : ColumnStatistics(kind), is_string_(is_string), fixed_length_(fixed_length) {}

  // FLBA values: count * fixed_length bytes.
  void Update(const void* values, int64_t count) override {
    const char* v = static_cast<const char*>(values);
    for (int64_t i = 0; i < count; ++i) {
      UpdateOne(std::string_view(v + i * fixed_length_, static_cast<size_t>(fixed_length_)));
    }
  }
  void UpdateSpaced(const void* values, const uint8_t* valid, int64_t valid_offset,
                    int64_t count) override {
    const char* v = static_cast<const char*>(values);
    ForEachValid(valid, valid_offset, count, [&](int64_t i) {
      UpdateOne(std::string_view(v + i * fixed_length_, static_cast<size_t>(fixed_length_)));
    });
  }
  void UpdateBinary32(const int32_t* offsets, const uint8_t* data, const uint8_t* valid,
                      int64_t valid_offset, int64_t count) override {
    UpdateOffsets(offsets, data, valid, valid_offset, count);
  }
  void UpdateBinary64(const int64_t* offsets, const uint8_t* data, const uint8_t* valid,
                      int64_t valid_offset, int64_t count) override {
    UpdateOffsets(offsets, data, valid, valid_offset, count);
  }
  void UpdateOne(std::string_view v) override {
    if (!has_) {
      min_.assign(v);
      max_.assign(v);
      has_ = true;
      return;
    }
    if (Compare(v, min_) < 0) min_.assign(v);
    if (Compare(v, max_) > 0) max_.assign(v);
  }

  bool has_min_max() const override { return has_; }
  void Merge(const ColumnStatistics& other) override {
    const auto& o = static_cast<const BytesStatistics&>(other);
    null_count_ += o.null_count_;
    if (!o.has_) return;
    UpdateOne(o.min_);
    UpdateOne(o.max_);
  }
  void Reset() override {
    has_ = false;
    min_.clear();
    max_.clear();
    null_count_ = 0;
  }
  EncodedStatistics Encode(int64_t max_bytes) const override {
    EncodedStatistics s;
    s.null_count = null_count_;
    if (!has_) return s;
    const bool can_truncate = max_bytes > 0 && kind_ == StatsKind::kBytes;
    if (can_truncate && static_cast<int64_t>(min_.size()) > max_bytes) {
      s.min = TruncateMin(min_, max_bytes, is_string_);
      s.is_min_exact = false;
    } else {
      s.min = min_;
    }
    if (can_truncate && static_cast<int64_t>(max_.size()) > max_bytes) {
      auto t = TruncateMax(max_, max_bytes, is_string_);
      if (t.has_value()) {
        s.max = std::move(*t);
        s.is_max_exact = false;
      } else {
        s.max = max_;
      }
    } else {
      s.max = max_;
    }
    return s;
  }

 private:
  int Compare(std::string_view a, std::string_view b) const {
    return kind_ == StatsKind::kSignedBytes ? CompareSigned(a, b) : CompareUnsigned(a, b);
  }
  template <typename O>
  void UpdateOffsets(const O* offsets, const uint8_t* data, const uint8_t* valid,
                     int64_t valid_offset, int64_t count) {
    const char* d = reinterpret_cast<const char*>(data);
    ForEachValid(valid, valid_offset, count, [&](int64_t i) {
      UpdateOne(std::string_view(d + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])));
    });
  }

  bool is_string_;
  int32_t fixed_length_;
  bool has_ = false;
  std::string min_;
  std::string max_;
};

class CountOnlyStatistics final : public ColumnStatistics {
 public:
  CountOnlyStatistics() : ColumnStatistics(StatsKind::kNone) {}
  void Update(const void*, int64_t) override {}
  void UpdateSpaced(const void*, const uint8_t*, int64_t, int64_t) override {}
  void UpdateBinary32(const int32_t*, const uint8_t*, const uint8_t*, int64_t, int64_t) override {}
  void UpdateBinary64(const int64_t*, const uint8_t*, const uint8_t*, int64_t, int64_t) override {}
  void UpdateOne(std::string_view) override {}
  bool has_min_max() const override { return false; }
  void Merge(const ColumnStatistics& other) override { null_count_ += other.null_count(); }
  void Reset() override { null_count_ = 0; }
  EncodedStatistics Encode(int64_t) const override {
    EncodedStatistics s;
    s.null_count = null_count_;
    return s;
  }
};

// UTF-8 helpers for truncation.

size_t Utf8Boundary(std::string_view v, size_t cut) {
  while (cut > 0 && cut < v.size() && IsUtf8Continuation(static_cast<uint8_t>(v[cut]))) --cut;
  return cut;
}

// Decodes the code point starting at s[i] (valid UTF-8 assumed; on invalid
// input returns false).
bool DecodeUtf8(std::string_view s, size_t i, uint32_t* cp, size_t* len) {
  uint8_t b = static_cast<uint8_t>(s[i]);
  size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return false;
  uint32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
  for (size_t k = 1; k < n; ++k) {
    uint8_t x = static_cast<uint8_t>(s[i + k]);
    if (!IsUtf8Continuation(x)) return false;
    c = (c << 6) | (x & 0x3F);
  }
  *cp = c;
  *len = n;
  return true;
}

}  // namespace

std::string TruncateMin(std::string_view value, int64_t max_bytes, bool is_string) {
  if (static_cast<int64_t>(value.size()) <= max_bytes) return std::string(value);
  size_t cut = static_cast<size_t>(max_bytes);
  if (is_string) cut = Utf8Boundary(value, cut);
  return std::string(value.substr(0, cut));
}

std::optional<std::string> TruncateMax(std::string_view value, int64_t max_bytes,
                                       bool is_string) {
  if (static_cast<int64_t>(value.size()) <= max_bytes) return std::string(value);
  size_t cut = static_cast<size_t>(max_bytes);
  if (is_string) {
    cut = Utf8Boundary(value, cut);
    // Collect code point starts of the prefix, then increment from the end.
    std::string prefix(value.substr(0, cut));
    std::vector<size_t> starts;
    for (size_t i = 0; i < prefix.size();) {
      uint32_t cp;
      size_t len;
      if (!DecodeUtf8(prefix, i, &cp, &len)) {
        starts.clear();
        break;
      }
      starts.push_back(i);
      i += len;
    }
    if (!starts.empty() || prefix.empty()) {
      while (!starts.empty()) {
        size_t at = starts.back();
        starts.pop_back();
        uint32_t cp;
        size_t len;
        DecodeUtf8(prefix, at, &cp, &len);
        uint32_t next = cp + 1;
        if (next == 0xD800) next = 0xE000;  // skip surrogates
        if (next > 0x10FFFF) continue;      // drop it, increment the previous one
        uint8_t buf[4];
        int n = EncodeUtf8(next, buf);
        if (static_cast<int64_t>(at) + n > max_bytes) continue;
        std::string out = prefix.substr(0, at);
        out.append(reinterpret_cast<const char*>(buf), static_cast<size_t>(n));
        return out;
      }
      return std::nullopt;
    }
    // Not valid UTF-8: fall back to bytes.
  }
  std::string out(value.substr(0, cut));
  while (!out.empty()) {
    uint8_t last = static_cast<uint8_t>(out.back());
    if (last != 0xFF) {
      out.back() = static_cast<char>(last + 1);
      return out;
    }
    out.pop_back();
  }
  return std::nullopt;
}

std::unique_ptr<ColumnStatistics> ColumnStatistics::Make(StatsKind kind, bool is_string,
                                                         int32_t fixed_length) {
  switch (kind) {
    case StatsKind::kBoolean: return std::make_unique<BooleanStatistics>();
    case StatsKind::kInt32: return std::make_unique<IntegerStatistics<int32_t, StatsKind::kInt32>>();
    case StatsKind::kUInt32:
      return std::make_unique<IntegerStatistics<uint32_t, StatsKind::kUInt32>>();
    case StatsKind::kInt64: return std::make_unique<IntegerStatistics<int64_t, StatsKind::kInt64>>();
    case StatsKind::kUInt64:
      return std::make_unique<IntegerStatistics<uint64_t, StatsKind::kUInt64>>();
    case StatsKind::kFloat: return std::make_unique<FloatStatistics<float, StatsKind::kFloat>>();
    case StatsKind::kDouble: return std::make_unique<FloatStatistics<double, StatsKind::kDouble>>();
    case StatsKind::kFloat16: return std::make_unique<Float16Statistics>();
    case StatsKind::kBytes:
    case StatsKind::kSignedBytes:
      return std::make_unique<BytesStatistics>(kind, is_string, fixed_length);
    case StatsKind::kNone: return std::make_unique<CountOnlyStatistics>();
  }
  return std::make_unique<CountOnlyStatistics>();
}

namespace {

template <typename T>
T LoadEncoded(std::string_view v) {
  T x{};
  std::memcpy(&x, v.data(), v.size() < sizeof(T) ? v.size() : sizeof(T));
  return x;
}

template <typename T>
int Order(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

}  // namespace

int CompareEncoded(StatsKind kind, std::string_view a, std::string_view b) {
  switch (kind) {
    case StatsKind::kBoolean:
    case StatsKind::kBytes: return CompareUnsigned(a, b);
    case StatsKind::kSignedBytes: return CompareSigned(a, b);
    case StatsKind::kInt32: return Order(LoadEncoded<int32_t>(a), LoadEncoded<int32_t>(b));
    case StatsKind::kUInt32: return Order(LoadEncoded<uint32_t>(a), LoadEncoded<uint32_t>(b));
    case StatsKind::kInt64: return Order(LoadEncoded<int64_t>(a), LoadEncoded<int64_t>(b));
    case StatsKind::kUInt64: return Order(LoadEncoded<uint64_t>(a), LoadEncoded<uint64_t>(b));
    case StatsKind::kFloat: return Order(LoadEncoded<float>(a), LoadEncoded<float>(b));
    case StatsKind::kDouble: return Order(LoadEncoded<double>(a), LoadEncoded<double>(b));
    case StatsKind::kFloat16:
      return Order(HalfToFloat(LoadEncoded<uint16_t>(a)), HalfToFloat(LoadEncoded<uint16_t>(b)));
    case StatsKind::kNone: return 0;
  }
  return 0;
}

BoundaryOrder ComputeBoundaryOrder(StatsKind kind, const std::vector<std::string>& mins,
                                   const std::vector<std::string>& maxs,
                                   const std::vector<bool>& null_pages) {
  if (kind == StatsKind::kNone) return BoundaryOrder::kUnordered;
  bool ascending = true, descending = true;
  int64_t prev = -1;
  for (size_t i = 0; i < mins.size() && (ascending || descending); ++i) {
    if (null_pages[i]) continue;
    if (prev >= 0) {
      const auto p = static_cast<size_t>(prev);
      const int cmin = CompareEncoded(kind, mins[i], mins[p]);
      const int cmax = CompareEncoded(kind, maxs[i], maxs[p]);
      if (cmin < 0 || cmax < 0) ascending = false;
      if (cmin > 0 || cmax > 0) descending = false;
    }
    prev = static_cast<int64_t>(i);
  }
  if (prev < 0) return BoundaryOrder::kUnordered;  // only null pages
  if (ascending) return BoundaryOrder::kAscending;
  return descending ? BoundaryOrder::kDescending : BoundaryOrder::kUnordered;
}

}  // namespace quiver::parquet
