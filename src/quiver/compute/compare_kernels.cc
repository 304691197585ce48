// Comparison loops (compare_internal.h), after arrow-rs arrow-ord/src/cmp.rs:
// results are built 64 rows to a uint64 word and stored once per word,
// never bit by bit. A reader gives row i of a side (an array, a broadcast
// scalar, a layout of binary values); one template loop serves every
// (operator, reader pair): 64 results as bytes, packed by a multiply eight
// at a time, compiled twice (baseline and AVX2, as arithmetic.cc's loops).
// int32, int64, float and double also have hand-written AVX2 loops: eight
// (or four) rows per compare, their sign bits gathered by movemask.
#include "quiver/compute/compare_internal.h"

#include <cstring>
#include <memory>

#include "quiver/compute/binary_reader_internal.h"
#include "quiver/compute/simd_level.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/float16.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace quiver::compute::internal {

namespace {

template <CompareOp kOp>
struct Cmp {
  template <typename T>
  static bool Call(const T& a, const T& b) {
    if constexpr (kOp == CompareOp::kEqual) {
      return a == b;
    } else if constexpr (kOp == CompareOp::kNotEqual) {
      return !(a == b);
    } else if constexpr (kOp == CompareOp::kLess) {
      return a < b;
    } else if constexpr (kOp == CompareOp::kLessEqual) {
      return a <= b;
    } else if constexpr (kOp == CompareOp::kGreater) {
      return a > b;
    } else {  // kOp == CompareOp::kGreaterEqual
      return a >= b;
    }
  }
};

// The low BytesForBits(nbits) bytes of `word` (nbits < 64).
inline void StoreTail(uint8_t* out, uint64_t word, int64_t nbits) {
  const int64_t nbytes = bit_util::BytesForBits(nbits);
  for (int64_t b = 0; b < nbytes; ++b) out[b] = static_cast<uint8_t>(word >> (8 * b));
}

// Eight 0/1 bytes (little-endian in x) to eight bits: each byte's bit
// lands at bit 56 + j of the product, and the cross terms fall below bit
// 56 or past bit 63 without carrying into them.
inline uint64_t PackEightBytes(uint64_t x) { return (x * 0x0102040810204080ULL) >> 56; }

// Rows [i, i + 64) as one word: 64 results as bytes first (a loop the
// compiler vectorises), then packed eight at a time.
template <CompareOp kOp, typename L, typename R>
inline uint64_t Word64(const L& l, const R& r, int64_t i) {
  uint8_t bytes[64];
  for (int j = 0; j < 64; ++j) bytes[j] = Cmp<kOp>::Call(l(i + j), r(i + j)) ? 1 : 0;
  uint64_t word = 0;
  for (int k = 0; k < 8; ++k) word |= PackEightBytes(bit_util::LoadLE64(bytes + 8 * k)) << (8 * k);
  return word;
}

// Rows [start, n): whole words, then the tail.
template <CompareOp kOp, typename L, typename R>
void PackLoop(const L& l, const R& r, int64_t start, int64_t n, uint8_t* out) {
  int64_t i = start;
  for (; i + 64 <= n; i += 64) bit_util::StoreLittleEndian(out + i / 8, Word64<kOp>(l, r, i));
  if (i < n) {
    uint64_t word = 0;
    for (int64_t j = 0; i + j < n; ++j) {
      word |= static_cast<uint64_t>(Cmp<kOp>::Call(l(i + j), r(i + j))) << j;
    }
    StoreTail(out + i / 8, word, n - i);
  }
}

#if defined(__x86_64__)
// The same loop compiled for AVX2 (the byte loop vectorises 256 bits wide).
template <CompareOp kOp, typename L, typename R>
__attribute__((target("avx2"))) void PackLoopAvx2(const L& l, const R& r, int64_t start,
                                                  int64_t n, uint8_t* out) {
  int64_t i = start;
  for (; i + 64 <= n; i += 64) bit_util::StoreLittleEndian(out + i / 8, Word64<kOp>(l, r, i));
  if (i < n) {
    uint64_t word = 0;
    for (int64_t j = 0; i + j < n; ++j) {
      word |= static_cast<uint64_t>(Cmp<kOp>::Call(l(i + j), r(i + j))) << j;
    }
    StoreTail(out + i / 8, word, n - i);
  }
}
#endif

template <CompareOp kOp, typename L, typename R>
void RunPackLoop(bool avx2, const L& l, const R& r, int64_t start, int64_t n, uint8_t* out) {
#if defined(__x86_64__)
  if (avx2) return PackLoopAvx2<kOp>(l, r, start, n, out);
#endif
  PackLoop<kOp>(l, r, start, n, out);
}

// --- Fixed-width readers ----------------------------------------------------

// A signed 256-bit integer (little-endian words) ordered as a number.
struct Int256Value {
  int64_t hi;
  uint64_t w2, w1, w0;
  friend bool operator==(const Int256Value&, const Int256Value&) = default;
  friend bool operator<(const Int256Value& a, const Int256Value& b) {
    if (a.hi != b.hi) return a.hi < b.hi;
    if (a.w2 != b.w2) return a.w2 < b.w2;
    if (a.w1 != b.w1) return a.w1 < b.w1;
    return a.w0 < b.w0;
  }
  friend bool operator>(const Int256Value& a, const Int256Value& b) { return b < a; }
  friend bool operator<=(const Int256Value& a, const Int256Value& b) { return !(b < a); }
  friend bool operator>=(const Int256Value& a, const Int256Value& b) { return !(a < b); }
};

template <typename T>
struct Plain {
  using Value = T;
  static T Load(const uint8_t* p, int64_t i) {
    T v;
    std::memcpy(&v, p + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
    return v;
  }
};

struct Half {
  using Value = float;
  static float Load(const uint8_t* p, int64_t i) {
    uint16_t bits;
    std::memcpy(&bits, p + 2 * i, 2);
    return util::HalfToFloat(bits);
  }
};

struct Dec128 {
  using Value = __int128;
  static __int128 Load(const uint8_t* p, int64_t i) {
    __int128 v;
    std::memcpy(&v, p + 16 * i, 16);
    return v;
  }
};

struct Dec256 {
  using Value = Int256Value;
  static Int256Value Load(const uint8_t* p, int64_t i) {
    uint64_t w[4];
    std::memcpy(w, p + 32 * i, 32);
    return Int256Value{static_cast<int64_t>(w[3]), w[2], w[1], w[0]};
  }
};

template <typename Traits, bool kScalar>
struct FixedReader {
  const uint8_t* p;
  typename Traits::Value operator()(int64_t i) const { return Traits::Load(p, kScalar ? 0 : i); }
};

#if defined(__x86_64__)
#define QUIVER_AVX2 __attribute__((target("avx2")))

// The 32- and 64-bit integer lanes' intrinsics.
struct I32Lanes {
  using T = int32_t;
  static constexpr int kLanes = 8;
  QUIVER_AVX2 static __m256i Set1(T v) { return _mm256_set1_epi32(v); }
  QUIVER_AVX2 static __m256i Eq(__m256i a, __m256i b) { return _mm256_cmpeq_epi32(a, b); }
  QUIVER_AVX2 static __m256i Gt(__m256i a, __m256i b) { return _mm256_cmpgt_epi32(a, b); }
  QUIVER_AVX2 static uint32_t Bits(__m256i m) {
    return static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(m)));
  }
};

struct I64Lanes {
  using T = int64_t;
  static constexpr int kLanes = 4;
  QUIVER_AVX2 static __m256i Set1(T v) { return _mm256_set1_epi64x(v); }
  QUIVER_AVX2 static __m256i Eq(__m256i a, __m256i b) { return _mm256_cmpeq_epi64(a, b); }
  QUIVER_AVX2 static __m256i Gt(__m256i a, __m256i b) { return _mm256_cmpgt_epi64(a, b); }
  QUIVER_AVX2 static uint32_t Bits(__m256i m) {
    return static_cast<uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(m)));
  }
};

// One AVX2 compare of kLanes integer rows: the result's bits, lane 0
// lowest (AVX2 has == and > only: < swaps the arguments, the others negate).
template <typename Lanes, CompareOp kOp>
struct VecInt {
  using T = typename Lanes::T;
  static constexpr int kLanes = Lanes::kLanes;
  static constexpr uint32_t kAll = (1u << kLanes) - 1;
  QUIVER_AVX2 static __m256i Load(const T* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  QUIVER_AVX2 static __m256i Set1(T v) { return Lanes::Set1(v); }
  QUIVER_AVX2 static uint32_t Mask(__m256i a, __m256i b) {
    if constexpr (kOp == CompareOp::kEqual) {
      return Lanes::Bits(Lanes::Eq(a, b));
    } else if constexpr (kOp == CompareOp::kNotEqual) {
      return ~Lanes::Bits(Lanes::Eq(a, b)) & kAll;
    } else if constexpr (kOp == CompareOp::kGreater) {
      return Lanes::Bits(Lanes::Gt(a, b));
    } else if constexpr (kOp == CompareOp::kLess) {
      return Lanes::Bits(Lanes::Gt(b, a));
    } else if constexpr (kOp == CompareOp::kGreaterEqual) {
      return ~Lanes::Bits(Lanes::Gt(b, a)) & kAll;
    } else {  // kOp == CompareOp::kLessEqual
      return ~Lanes::Bits(Lanes::Gt(a, b)) & kAll;
    }
  }
};

template <CompareOp kOp>
using VecI32 = VecInt<I32Lanes, kOp>;
template <CompareOp kOp>
using VecI64 = VecInt<I64Lanes, kOp>;

// The float and double lanes' intrinsics (the predicate a template
// argument: -O0 builds expand _mm256_cmp_* as a macro over a builtin that
// wants an immediate).
struct F32Lanes {
  using T = float;
  using V = __m256;
  static constexpr int kLanes = 8;
  QUIVER_AVX2 static V Load(const T* p) { return _mm256_loadu_ps(p); }
  QUIVER_AVX2 static V Set1(T v) { return _mm256_set1_ps(v); }
  template <int kPredicate>
  QUIVER_AVX2 static uint32_t Cmp(V a, V b) {
    return static_cast<uint32_t>(_mm256_movemask_ps(_mm256_cmp_ps(a, b, kPredicate)));
  }
};

struct F64Lanes {
  using T = double;
  using V = __m256d;
  static constexpr int kLanes = 4;
  QUIVER_AVX2 static V Load(const T* p) { return _mm256_loadu_pd(p); }
  QUIVER_AVX2 static V Set1(T v) { return _mm256_set1_pd(v); }
  template <int kPredicate>
  QUIVER_AVX2 static uint32_t Cmp(V a, V b) {
    return static_cast<uint32_t>(_mm256_movemask_pd(_mm256_cmp_pd(a, b, kPredicate)));
  }
};

// IEEE predicates: ordered (false with a NaN) except not_equal, unordered
// (true with a NaN), as C++'s operators.
template <typename Lanes, CompareOp kOp>
struct VecFloat : Lanes {
  QUIVER_AVX2 static uint32_t Mask(typename Lanes::V a, typename Lanes::V b) {
    if constexpr (kOp == CompareOp::kEqual) {
      return Lanes::template Cmp<_CMP_EQ_OQ>(a, b);
    } else if constexpr (kOp == CompareOp::kNotEqual) {
      return Lanes::template Cmp<_CMP_NEQ_UQ>(a, b);
    } else if constexpr (kOp == CompareOp::kLess) {
      return Lanes::template Cmp<_CMP_LT_OQ>(a, b);
    } else if constexpr (kOp == CompareOp::kLessEqual) {
      return Lanes::template Cmp<_CMP_LE_OQ>(a, b);
    } else if constexpr (kOp == CompareOp::kGreater) {
      return Lanes::template Cmp<_CMP_GT_OQ>(a, b);
    } else {
      return Lanes::template Cmp<_CMP_GE_OQ>(a, b);
    }
  }
};

template <CompareOp kOp>
using VecF32 = VecFloat<F32Lanes, kOp>;
template <CompareOp kOp>
using VecF64 = VecFloat<F64Lanes, kOp>;

// Whole words of 64 rows; returns the rows done (a multiple of 64).
template <typename V, bool kRightScalar>
QUIVER_AVX2 int64_t CompareWordsAvx2(const typename V::T* l, const typename V::T* r, int64_t n,
                                     uint8_t* out) {
  constexpr int kLanes = V::kLanes;
  int64_t i = 0;
  if (n < 64) return 0;
  const auto broadcast = V::Set1(r[0]);
  for (; i + 64 <= n; i += 64) {
    uint64_t word = 0;
    for (int k = 0; k < 64 / kLanes; ++k) {
      const auto a = V::Load(l + i + k * kLanes);
      if constexpr (kRightScalar) {
        word |= static_cast<uint64_t>(V::Mask(a, broadcast)) << (k * kLanes);
      } else {
        word |= static_cast<uint64_t>(V::Mask(a, V::Load(r + i + k * kLanes))) << (k * kLanes);
      }
    }
    bit_util::StoreLittleEndian(out + i / 8, word);
  }
  return i;
}

template <CompareOp kOp>
int64_t VectorWords(CompareKind kind, const void* l, const void* r, bool right_scalar, int64_t n,
                    uint8_t* out) {
  switch (kind) {
#define QUIVER_VEC_CASE(KIND, VEC, T)                                                   \
  case CompareKind::KIND:                                                               \
    return right_scalar                                                                 \
               ? CompareWordsAvx2<VEC<kOp>, true>(static_cast<const T*>(l),             \
                                                  static_cast<const T*>(r), n, out)     \
               : CompareWordsAvx2<VEC<kOp>, false>(static_cast<const T*>(l),            \
                                                   static_cast<const T*>(r), n, out);
    QUIVER_VEC_CASE(kInt32, VecI32, int32_t)
    QUIVER_VEC_CASE(kInt64, VecI64, int64_t)
    QUIVER_VEC_CASE(kFloat, VecF32, float)
    QUIVER_VEC_CASE(kDouble, VecF64, double)
#undef QUIVER_VEC_CASE
    default:
      return 0;
  }
}
#endif  // __x86_64__

template <CompareOp kOp, typename Traits>
void FixedLoop(bool avx2, const void* l, const void* r, bool right_scalar, int64_t start,
               int64_t n, uint8_t* out) {
  const FixedReader<Traits, false> left{static_cast<const uint8_t*>(l)};
  if (right_scalar) {
    RunPackLoop<kOp>(avx2, left, FixedReader<Traits, true>{static_cast<const uint8_t*>(r)}, start,
                     n, out);
  } else {
    RunPackLoop<kOp>(avx2, left, FixedReader<Traits, false>{static_cast<const uint8_t*>(r)},
                     start, n, out);
  }
}

template <CompareOp kOp>
void CompareFixedOp(CompareKind kind, const void* l, const void* r, bool right_scalar, int64_t n,
                    uint8_t* out) {
  int64_t done = 0;
  bool avx2 = false;
#if defined(__x86_64__)
  avx2 = ActiveSimdLevel() >= SimdLevel::kAvx2;
  if (avx2) done = VectorWords<kOp>(kind, l, r, right_scalar, n, out);
#endif
  const bool rs = right_scalar;
  switch (kind) {
    case CompareKind::kInt8: FixedLoop<kOp, Plain<int8_t>>(avx2, l, r, rs, done, n, out); break;
    case CompareKind::kInt16: FixedLoop<kOp, Plain<int16_t>>(avx2, l, r, rs, done, n, out); break;
    case CompareKind::kInt32: FixedLoop<kOp, Plain<int32_t>>(avx2, l, r, rs, done, n, out); break;
    case CompareKind::kInt64: FixedLoop<kOp, Plain<int64_t>>(avx2, l, r, rs, done, n, out); break;
    case CompareKind::kUInt8: FixedLoop<kOp, Plain<uint8_t>>(avx2, l, r, rs, done, n, out); break;
    case CompareKind::kUInt16: FixedLoop<kOp, Plain<uint16_t>>(avx2, l, r, rs, done, n, out); break;
    case CompareKind::kUInt32: FixedLoop<kOp, Plain<uint32_t>>(avx2, l, r, rs, done, n, out); break;
    case CompareKind::kUInt64: FixedLoop<kOp, Plain<uint64_t>>(avx2, l, r, rs, done, n, out); break;
    case CompareKind::kFloat: FixedLoop<kOp, Plain<float>>(avx2, l, r, rs, done, n, out); break;
    case CompareKind::kDouble: FixedLoop<kOp, Plain<double>>(avx2, l, r, rs, done, n, out); break;
    case CompareKind::kHalf: FixedLoop<kOp, Half>(avx2, l, r, rs, done, n, out); break;
    case CompareKind::kDecimal128: FixedLoop<kOp, Dec128>(avx2, l, r, rs, done, n, out); break;
    case CompareKind::kDecimal256: FixedLoop<kOp, Dec256>(avx2, l, r, rs, done, n, out); break;
  }
  RecordSimdLevel(avx2 ? SimdLevel::kAvx2 : SimdLevel::kScalar);
}

// --- Binary values (BinReader: binary_reader_internal.h) -----------------------

struct ConstBytes {
  std::string_view v;
  std::string_view operator()(int64_t) const { return v; }
};

template <CompareOp kOp, BinLayout kL>
void BinaryLayoutLoop(const ArrayData& l, const ArrayData* r, const std::string_view* rs,
                      int64_t n, uint8_t* out) {
  const BinReader<kL> left(l);
  if (rs != nullptr) {
    PackLoop<kOp>(left, ConstBytes{*rs}, 0, n, out);
  } else {
    PackLoop<kOp>(left, BinReader<kL>(*r), 0, n, out);
  }
}

template <CompareOp kOp>
void CompareBinaryOp(const ArrayData& l, const ArrayData* r, const std::string_view* rs,
                     int64_t n, uint8_t* out) {
  const BinLayout layout = LayoutOf(l.type->id());
  if (r != nullptr && LayoutOf(r->type->id()) != layout) {
    return BinaryLayoutLoop<kOp, BinLayout::kAny>(l, r, rs, n, out);
  }
  switch (layout) {
    case BinLayout::kOffsets32: return BinaryLayoutLoop<kOp, BinLayout::kOffsets32>(l, r, rs, n, out);
    case BinLayout::kOffsets64: return BinaryLayoutLoop<kOp, BinLayout::kOffsets64>(l, r, rs, n, out);
    case BinLayout::kView: return BinaryLayoutLoop<kOp, BinLayout::kView>(l, r, rs, n, out);
    default: return BinaryLayoutLoop<kOp, BinLayout::kFixed>(l, r, rs, n, out);
  }
}

template <template <CompareOp> class F, typename... Args>
void WithOp(CompareOp op, Args&&... args) {
  switch (op) {
    case CompareOp::kEqual: return F<CompareOp::kEqual>::Run(args...);
    case CompareOp::kNotEqual: return F<CompareOp::kNotEqual>::Run(args...);
    case CompareOp::kLess: return F<CompareOp::kLess>::Run(args...);
    case CompareOp::kLessEqual: return F<CompareOp::kLessEqual>::Run(args...);
    case CompareOp::kGreater: return F<CompareOp::kGreater>::Run(args...);
    case CompareOp::kGreaterEqual: return F<CompareOp::kGreaterEqual>::Run(args...);
  }
}

template <CompareOp kOp>
struct FixedRun {
  static void Run(CompareKind kind, const void* l, const void* r, bool rs, int64_t n,
                  uint8_t* out) {
    CompareFixedOp<kOp>(kind, l, r, rs, n, out);
  }
};

template <CompareOp kOp>
struct BinaryRun {
  static void Run(const ArrayData& l, const ArrayData* r, const std::string_view* rs, int64_t n,
                  uint8_t* out) {
    CompareBinaryOp<kOp>(l, r, rs, n, out);
    RecordSimdLevel(SimdLevel::kScalar);
  }
};

uint64_t BoolWord(CompareOp op, uint64_t a, uint64_t b) {
  switch (op) {
    case CompareOp::kEqual: return ~(a ^ b);
    case CompareOp::kNotEqual: return a ^ b;
    case CompareOp::kLess: return ~a & b;
    case CompareOp::kLessEqual: return ~a | b;
    case CompareOp::kGreater: return a & ~b;
    case CompareOp::kGreaterEqual: return a | ~b;
  }
  return 0;
}

}  // namespace

CompareOp FlipCompare(CompareOp op) {
  switch (op) {
    case CompareOp::kLess: return CompareOp::kGreater;
    case CompareOp::kLessEqual: return CompareOp::kGreaterEqual;
    case CompareOp::kGreater: return CompareOp::kLess;
    case CompareOp::kGreaterEqual: return CompareOp::kLessEqual;
    default: return op;
  }
}

void CompareFixed(CompareOp op, CompareKind kind, const void* left, const void* right,
                  bool right_scalar, int64_t n, uint8_t* out) {
  WithOp<FixedRun>(op, kind, left, right, right_scalar, n, out);
}

void CompareBool(CompareOp op, const BoolSide& left, const BoolSide& right, int64_t n,
                 uint8_t* out) {
  for (int64_t pos = 0; pos < n; pos += 64) {
    const int nbits = n - pos < 64 ? static_cast<int>(n - pos) : 64;
    const uint64_t a = left.is_scalar ? (left.value ? ~uint64_t{0} : 0)
                                      : bitmap::LoadBits(left.bits, left.offset + pos, nbits);
    const uint64_t b = right.is_scalar ? (right.value ? ~uint64_t{0} : 0)
                                       : bitmap::LoadBits(right.bits, right.offset + pos, nbits);
    const uint64_t word = BoolWord(op, a, b) & bit_util::LeastSignificantBitMask(nbits);
    if (nbits == 64) {
      bit_util::StoreLittleEndian(out + pos / 8, word);
    } else {
      StoreTail(out + pos / 8, word, nbits);
    }
  }
  RecordSimdLevel(SimdLevel::kScalar);
}

void CompareBinary(CompareOp op, const ArrayData& left, const ArrayData* right,
                   const std::string_view* right_scalar, int64_t n, uint8_t* out) {
  WithOp<BinaryRun>(op, left, right, right_scalar, n, out);
}

}  // namespace quiver::compute::internal
