// String predicates (string_predicates.h): one loop per binary layout and
// pattern kind, 64 rows to an output word; a row under a null is not read
// (a view under a null may point anywhere).
#include "quiver/compute/string_predicates.h"

#include <bit>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "quiver/array/memo_table.h"  // BytesEqual
#include "quiver/compute/binary_reader_internal.h"
#include "quiver/compute/boolean_internal.h"
#include "quiver/compute/case_fold_internal.h"
#include "quiver/compute/like_pattern_internal.h"
#include "quiver/compute/simd_level.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace quiver::compute {

namespace {

using internal::BinLayout;
using internal::BinReader;
using internal::MatchKind;
using internal::Pattern;
using quiver::internal::BytesEqual;

bool IsMatchableType(Type id) {
  switch (id) {
    case Type::kString:
    case Type::kLargeString:
    case Type::kStringView:
    case Type::kBinary:
    case Type::kLargeBinary:
    case Type::kBinaryView: return true;
    default: return false;
  }
}

// Row predicates, one per pattern kind (the literal is the pattern's).
struct Equals {
  std::string_view lit;
  bool operator()(std::string_view v) const {
    return v.size() == lit.size() && BytesEqual(v.data(), lit.data(), lit.size());
  }
};
struct Prefix {
  std::string_view lit;
  bool operator()(std::string_view v) const {
    return v.size() >= lit.size() && BytesEqual(v.data(), lit.data(), lit.size());
  }
};
struct Suffix {
  std::string_view lit;
  bool operator()(std::string_view v) const {
    return v.size() >= lit.size() &&
           BytesEqual(v.data() + v.size() - lit.size(), lit.data(), lit.size());
  }
};
struct Substring {
  std::string_view lit;
  const char* readable_end = nullptr;  // the data buffer's end (offset layouts)
  bool operator()(std::string_view v) const { return internal::FindBytes(v, lit, readable_end) >= 0; }
};
struct Like {
  const Pattern* pattern;
  bool operator()(std::string_view v) const { return internal::MatchLikeGeneral(*pattern, v); }
};

// Prefix and suffix of at most 8 bytes in an offsets layout: one 8-byte
// load compared under a mask, when the 8 bytes lie in the data buffer
// (the bytes of the next values, or those before, are read and ignored).
struct PrefixWord {
  uint64_t pattern = 0;
  uint64_t mask = 0;
  size_t m;
  const char* readable_end;
  explicit PrefixWord(std::string_view lit, const char* end) : m(lit.size()), readable_end(end) {
    std::memcpy(&pattern, lit.data(), m);
    mask = m == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * m)) - 1;
  }
  bool operator()(std::string_view v) const {
    if (readable_end - v.data() < 8) return Prefix{{reinterpret_cast<const char*>(&pattern), m}}(v);
    uint64_t x;
    std::memcpy(&x, v.data(), 8);
    return (v.size() >= m) & (((x ^ pattern) & mask) == 0);
  }
};
struct SuffixWord {
  uint64_t pattern = 0;  // the literal in the top bytes
  int shift;
  size_t m;
  const char* data_begin;
  explicit SuffixWord(std::string_view lit, const char* begin)
      : shift(static_cast<int>(8 * (8 - lit.size()))), m(lit.size()), data_begin(begin) {
    std::memcpy(reinterpret_cast<char*>(&pattern) + (8 - m), lit.data(), m);
  }
  bool operator()(std::string_view v) const {
    const char* end = v.data() + v.size();
    if (end - data_begin < 8) {
      return Suffix{{reinterpret_cast<const char*>(&pattern) + (8 - m), m}}(v);
    }
    uint64_t x;
    std::memcpy(&x, end - 8, 8);
    return (v.size() >= m) & (((x ^ pattern) >> shift) == 0);
  }
};

// ignore_case prefix / equality / suffix: folded as far as the literal
// reaches, stopping at the first difference.
struct FoldedPrefix {
  std::string_view lit;
  bool utf8;
  bool whole;
  bool operator()(std::string_view v) const { return internal::FoldedStartsWith(v, lit, utf8, whole); }
};
struct FoldedSuffix {
  std::string_view lit;
  bool utf8;
  bool operator()(std::string_view v) const { return internal::FoldedEndsWith(v, lit, utf8); }
};

// Substrings and LIKE patterns on a case-folded copy of the value (one
// scratch buffer, grown to the longest value seen: no allocation per
// value).
class Folded {
 public:
  explicit Folded(const Pattern* pattern) : pattern_(pattern) {}
  bool operator()(std::string_view v) {
    const auto n = static_cast<int64_t>(v.size());
    const int64_t need = pattern_->utf8 ? internal::FoldedUtf8Capacity(n) : n;
    if (static_cast<int64_t>(scratch_.size()) < need) scratch_.resize(static_cast<size_t>(need));
    int64_t len = n;
    if (pattern_->utf8) {
      len = internal::FoldUtf8(v, scratch_.data());
    } else {
      internal::FoldBinary(v, scratch_.data());
    }
    const std::string_view f(reinterpret_cast<const char*>(scratch_.data()),
                             static_cast<size_t>(len));
    if (pattern_->kind == MatchKind::kLike) return internal::MatchLikeGeneral(*pattern_, f);
    return Substring{pattern_->literal}(f);
  }

 private:
  const Pattern* pattern_;
  std::vector<uint8_t> scratch_;
};

template <BinLayout kL, typename Pred>
void MatchLoop(const ArrayData& a, Pred pred, uint8_t* out) {
  const BinReader<kL> reader(a);
  const uint8_t* validity = a.MayHaveNulls() ? a.validity() : nullptr;
  internal::FillBitmap(out, a.length, [&](int64_t pos, int nbits) {
    const uint64_t valid = internal::WordAt(validity, a.offset, pos, nbits);
    uint64_t w = 0;
    if (valid == bit_util::LeastSignificantBitMask(nbits)) {
      for (int j = 0; j < nbits; ++j) {
        w |= static_cast<uint64_t>(pred(reader(pos + j))) << j;
      }
    } else {
      for (uint64_t v = valid; v != 0; v &= v - 1) {
        const int j = std::countr_zero(v);
        w |= static_cast<uint64_t>(pred(reader(pos + j))) << j;
      }
    }
    return w;
  });
}

// The data buffer's bounds of an offsets layout (null for the others, or
// without a data buffer).
struct DataBounds {
  const char* begin = nullptr;
  const char* end = nullptr;
};
DataBounds BoundsOf(const ArrayData& a, BinLayout layout) {
  if ((layout != BinLayout::kOffsets32 && layout != BinLayout::kOffsets64) || a.buffers.size() < 3 ||
      a.buffers[2] == nullptr) {
    return {};
  }
  const auto* begin = reinterpret_cast<const char*>(a.buffers[2]->data());
  return {begin, begin + a.buffers[2]->size()};
}

// Equality with a literal on the offsets layouts (LIKE without wildcards,
// the common case of the bench's LIKE 'xxxx'): a row can match only when
// its length is the literal's, so the lengths are compared first, from the
// offsets' differences, a vector of 8 (AVX2) or 4 (SSE2) rows at a time,
// into a word of 64 candidates; only the valid candidates' bytes are then
// compared (a literal of up to 8 bytes by one masked 8-byte load when it
// lies in the data buffer). arrow-rs compares the lengths first too, but
// one row at a time, branching on each.
template <typename O>
uint64_t LengthsEqualScalar(const O* o, int nbits, O m) {
  uint64_t w = 0;
  for (int j = 0; j < nbits; ++j) w |= static_cast<uint64_t>(o[j + 1] - o[j] == m) << j;
  return w;
}

#if defined(__x86_64__)
// 64 rows: bit j is whether o[j + 1] - o[j] == m (8 int32 or 4 int64
// lanes a step).
template <typename O>
__attribute__((target("avx2"))) uint64_t LengthsEqualAvx2(const O* o, O m) {
  constexpr int kLanes = 32 / static_cast<int>(sizeof(O));
  const __m256i want = sizeof(O) == 4 ? _mm256_set1_epi32(static_cast<int32_t>(m))
                                      : _mm256_set1_epi64x(static_cast<int64_t>(m));
  uint64_t w = 0;
  for (int j = 0; j < 64; j += kLanes) {
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(o + j));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(o + j + 1));
    int bits;
    if constexpr (sizeof(O) == 4) {
      const __m256i eq = _mm256_cmpeq_epi32(_mm256_sub_epi32(hi, lo), want);
      bits = _mm256_movemask_ps(_mm256_castsi256_ps(eq));
    } else {
      const __m256i eq = _mm256_cmpeq_epi64(_mm256_sub_epi64(hi, lo), want);
      bits = _mm256_movemask_pd(_mm256_castsi256_pd(eq));
    }
    w |= static_cast<uint64_t>(bits) << j;
  }
  return w;
}
uint64_t LengthsEqualSse2(const int32_t* o, int32_t m) {
  const __m128i want = _mm_set1_epi32(m);
  uint64_t w = 0;
  for (int j = 0; j < 64; j += 4) {
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(o + j));
    const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(o + j + 1));
    const __m128i eq = _mm_cmpeq_epi32(_mm_sub_epi32(hi, lo), want);
    w |= static_cast<uint64_t>(_mm_movemask_ps(_mm_castsi128_ps(eq))) << j;
  }
  return w;
}
#endif

template <typename O>
void EqualsOffsets(const ArrayData& a, std::string_view lit, const char* data,
                   const char* data_end, uint8_t* out) {
  const O* o = a.GetValues<O>(1);  // at the array's offset
  const auto m = static_cast<O>(lit.size());
  const uint8_t* validity = a.MayHaveNulls() ? a.validity() : nullptr;
  uint64_t pattern = 0;
  uint64_t mask = 0;
  const bool word = lit.size() <= 8;
  if (word && !lit.empty()) {
    std::memcpy(&pattern, lit.data(), lit.size());
    mask = lit.size() == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * lit.size())) - 1;
  }
  const auto equal_at = [&](O start) {
    const char* v = data + start;
    if (word && data_end - v >= 8) {
      uint64_t x;
      std::memcpy(&x, v, 8);
      return ((x ^ pattern) & mask) == 0;
    }
    return BytesEqual(v, lit.data(), lit.size());
  };
  SimdLevel level = SimdLevel::kScalar;
#if defined(__x86_64__)
  const bool avx2 = ActiveSimdLevel() >= SimdLevel::kAvx2;
  if (avx2 && a.length >= 64) level = SimdLevel::kAvx2;
#endif
  internal::FillBitmap(out, a.length, [&](int64_t pos, int nbits) {
    uint64_t w;
#if defined(__x86_64__)
    if (nbits == 64 && avx2) {
      w = LengthsEqualAvx2(o + pos, m);
    } else if constexpr (std::is_same_v<O, int32_t>) {
      w = nbits == 64 ? LengthsEqualSse2(o + pos, m) : LengthsEqualScalar(o + pos, nbits, m);
    } else {
      w = LengthsEqualScalar(o + pos, nbits, m);
    }
#else
    w = LengthsEqualScalar(o + pos, nbits, m);
#endif
    w &= internal::WordAt(validity, a.offset, pos, nbits);
    if (lit.empty()) return w;
    uint64_t result = 0;
    for (uint64_t c = w; c != 0; c &= c - 1) {
      const int j = std::countr_zero(c);
      result |= static_cast<uint64_t>(equal_at(o[pos + j])) << j;
    }
    return result;
  });
  RecordSimdLevel(level);
}

template <BinLayout kL>
void MatchArray(const Pattern& p, const ArrayData& a, uint8_t* out) {
  const std::string_view lit = p.literal;
  if (p.ignore_case) {
    switch (p.kind) {
      case MatchKind::kEquals: return MatchLoop<kL>(a, FoldedPrefix{lit, p.utf8, true}, out);
      case MatchKind::kPrefix: return MatchLoop<kL>(a, FoldedPrefix{lit, p.utf8, false}, out);
      case MatchKind::kSuffix: return MatchLoop<kL>(a, FoldedSuffix{lit, p.utf8}, out);
      default: return MatchLoop<kL>(a, Folded(&p), out);
    }
  }
  const DataBounds bounds = BoundsOf(a, kL);
  const bool words = bounds.begin != nullptr && !lit.empty() && lit.size() <= 8;
  switch (p.kind) {
    case MatchKind::kEquals:
      if constexpr (kL == BinLayout::kOffsets32 || kL == BinLayout::kOffsets64) {
        if (a.length > 0 && (bounds.begin != nullptr || lit.empty())) {
          using O = std::conditional_t<kL == BinLayout::kOffsets32, int32_t, int64_t>;
          return EqualsOffsets<O>(a, lit, bounds.begin, bounds.end, out);
        }
      }
      return MatchLoop<kL>(a, Equals{lit}, out);
    case MatchKind::kPrefix:
      if (words) return MatchLoop<kL>(a, PrefixWord(lit, bounds.end), out);
      return MatchLoop<kL>(a, Prefix{lit}, out);
    case MatchKind::kSuffix:
      if (words) return MatchLoop<kL>(a, SuffixWord(lit, bounds.begin), out);
      return MatchLoop<kL>(a, Suffix{lit}, out);
    case MatchKind::kSubstring: return MatchLoop<kL>(a, Substring{lit, bounds.end}, out);
    case MatchKind::kLike: return MatchLoop<kL>(a, Like{&p}, out);
  }
}

bool MatchOne(const Pattern& p, std::string_view v) {
  const std::string_view lit = p.literal;
  if (p.ignore_case) {
    switch (p.kind) {
      case MatchKind::kEquals: return FoldedPrefix{lit, p.utf8, true}(v);
      case MatchKind::kPrefix: return FoldedPrefix{lit, p.utf8, false}(v);
      case MatchKind::kSuffix: return FoldedSuffix{lit, p.utf8}(v);
      default: return Folded(&p)(v);
    }
  }
  switch (p.kind) {
    case MatchKind::kEquals: return Equals{lit}(v);
    case MatchKind::kPrefix: return Prefix{lit}(v);
    case MatchKind::kSuffix: return Suffix{lit}(v);
    case MatchKind::kSubstring: return Substring{lit}(v);
    case MatchKind::kLike: return internal::MatchLikeGeneral(p, v);
  }
  return false;
}

enum class Function { kMatchLike, kStartsWith, kEndsWith, kMatchSubstring };

std::string_view FunctionName(Function f) {
  switch (f) {
    case Function::kMatchLike: return "match_like";
    case Function::kStartsWith: return "starts_with";
    case Function::kEndsWith: return "ends_with";
    case Function::kMatchSubstring: return "match_substring";
  }
  return "";
}

Result<Datum> Match(Function function, const Datum& values, const MatchOptions& options,
                    MemoryPool* pool) {
  const Type id = values.type()->id();
  if (!IsMatchableType(id)) {
    return Status::NotImplemented("Function '", FunctionName(function),
                                  "' has no kernel matching input types (",
                                  values.type()->ToString(), ")");
  }
  const bool utf8 = IsStringLike(id);
  Pattern pattern;
  switch (function) {
    case Function::kMatchLike:
      pattern = internal::CompileLike(options.pattern, options.ignore_case, utf8);
      break;
    case Function::kStartsWith:
      pattern = internal::CompileLiteral(MatchKind::kPrefix, options.pattern, options.ignore_case, utf8);
      break;
    case Function::kEndsWith:
      pattern = internal::CompileLiteral(MatchKind::kSuffix, options.pattern, options.ignore_case, utf8);
      break;
    case Function::kMatchSubstring:
      pattern = internal::CompileLiteral(MatchKind::kSubstring, options.pattern,
                                         options.ignore_case, utf8);
      break;
  }
  RecordSimdLevel(SimdLevel::kScalar);  // (the equality loop records its own)
  if (values.is_scalar()) {
    const Scalar& s = values.scalar();
    if (!s.is_valid()) return Datum(Scalar::MakeNull(boolean()));
    return Datum(Scalar::MakeBool(MatchOne(pattern, s.bytes())));
  }
  const ArrayData& a = *values.array();
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer out, internal::NewBitmap(a.length, pool));
  internal::VisitBinLayout(id, [&](auto layout) {
    MatchArray<decltype(layout)::value>(pattern, a, out.data());
  });
  QUIVER_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> validity, internal::ValidityAtZero(a, pool));
  const int64_t nulls = validity == nullptr ? 0 : a.GetNullCount();
  return Datum(internal::MakeBooleanArray(a.length, out.Freeze(), std::move(validity), nulls));
}

}  // namespace

Result<Datum> MatchLike(const Datum& values, const MatchOptions& options, MemoryPool* pool) {
  return Match(Function::kMatchLike, values, options, pool);
}
Result<Datum> StartsWith(const Datum& values, const MatchOptions& options, MemoryPool* pool) {
  return Match(Function::kStartsWith, values, options, pool);
}
Result<Datum> EndsWith(const Datum& values, const MatchOptions& options, MemoryPool* pool) {
  return Match(Function::kEndsWith, values, options, pool);
}
Result<Datum> MatchSubstring(const Datum& values, const MatchOptions& options, MemoryPool* pool) {
  return Match(Function::kMatchSubstring, values, options, pool);
}

}  // namespace quiver::compute
