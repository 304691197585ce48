// Scalar aggregates (see aggregate.h). The semantics follow Arrow C++'s
// arrow/compute/kernels/aggregate_basic_internal.h and
// aggregate_internal.h, checked against pyarrow 26:
//  - sum/mean keep a count of valid values, whether a null was seen, and a
//    running sum; chunks add in order. A float64 chunk's sum (and an
//    integer mean's) is Arrow's non-recursive pairwise summation (blocks of
//    16 valid values added in order from 0.0 within each run of valid
//    slots, the block sums folded through a binary counter of partial
//    sums): without nulls bit for bit pyarrow's; with nulls the blocks are
//    fixed strided ones with nulls as +0.0 (MaskedPairwiseChunkSum: SIMD
//    lanes instead of Arrow's short runs), equal up to rounding (pyarrow: no
//    int64 wrap in a mean). A float32 chunk's sum is a pairwise sum of
//    groups of 512 slots added in 32 SIMD lanes (aggregate_float_sum.cc):
//    equal up to rounding, NaN and infinities as pyarrow's (a float32 sum
//    cannot overflow a double).
//  - min/max keep the running extremes (floats: NaN skipped unless every
//    value is NaN, ties keep the first value), the count and whether a null
//    was seen; the result needs max(1, min_count) valid values.
// Hot loops run over the runs of valid slots (bitmap::VisitSetBitRuns);
// the AVX2 loops (aggregate_simd.cc) take runs long enough to pay.
#include "quiver/compute/aggregate.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "quiver/compute/aggregate_internal.h"
#include "quiver/compute/aggregate_simd.h"
#include "quiver/compute/simd_level.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute {

Result<CountMode> ParseCountMode(std::string_view name) {
  if (name == "only_valid") return CountMode::kOnlyValid;
  if (name == "only_null") return CountMode::kOnlyNull;
  if (name == "all") return CountMode::kAll;
  return Status::Invalid("\"", name, "\" is not a valid count mode");
}

std::string_view AggregateName(AggregateKind kind) {
  switch (kind) {
    case AggregateKind::kSum: return "sum";
    case AggregateKind::kMean: return "mean";
    case AggregateKind::kMin: return "min";
    case AggregateKind::kMax: return "max";
    case AggregateKind::kMinMax: return "min_max";
    case AggregateKind::kCount: return "count";
  }
  return "aggregate";
}

Status Aggregator::CheckChunk(const ArrayData& chunk) const {
  if (chunk.type == nullptr || !chunk.type->Equals(*type_)) {
    return Status::Invalid(AggregateName(kind_), ": a chunk of type ",
                           chunk.type ? chunk.type->ToString() : "(none)",
                           " given to an aggregate over ", type_->ToString());
  }
  return Status::OK();
}

Status Aggregator::CheckOther(const Aggregator& other) const {
  if (other.kind_ != kind_ || !other.type_->Equals(*type_)) {
    return Status::Invalid(AggregateName(kind_), " over ", type_->ToString(),
                           ": cannot merge the state of ", AggregateName(other.kind_), " over ",
                           other.type_->ToString());
  }
  return Status::OK();
}

namespace internal {

Status NoKernel(AggregateKind kind, const DataType& type) {
  const std::string_view name =
      (kind == AggregateKind::kMin || kind == AggregateKind::kMax) ? "min_max"
                                                                   : AggregateName(kind);
  return Status::NotImplemented("Function '", name, "' has no kernel matching input types (",
                                type.ToString(), ")");
}

uint64_t TrueCount(const ArrayData& a) {
  if (a.length == 0) return 0;
  const uint8_t* values = a.buffers[1]->data();
  const uint8_t* validity = a.validity();
  if (validity == nullptr || a.GetNullCount() == 0) {
    return static_cast<uint64_t>(bitmap::CountSetBits(values, a.offset, a.length));
  }
  uint64_t n = 0;
  for (int64_t pos = 0; pos < a.length; pos += 64) {
    const int nbits = static_cast<int>(std::min<int64_t>(64, a.length - pos));
    n += static_cast<uint64_t>(bit_util::PopCount(bitmap::LoadBits(values, a.offset + pos, nbits) &
                                                  bitmap::LoadBits(validity, a.offset + pos, nbits)));
  }
  return n;
}

Int256 LoadDecimal(const uint8_t* p, int width) {
  Int256 out;
  for (int w = 0; w < width / 8; ++w) out.words[static_cast<size_t>(w)] = bit_util::LoadLE64(p + 8 * w);
  if (width == 16) {
    const uint64_t fill = (out.words[1] >> 63) != 0 ? ~uint64_t{0} : 0;
    out.words[2] = fill;
    out.words[3] = fill;
  }
  return out;
}

int CompareInt256(const Int256& a, const Int256& b) {
  const auto ha = static_cast<int64_t>(a.words[3]);
  const auto hb = static_cast<int64_t>(b.words[3]);
  if (ha != hb) return ha < hb ? -1 : 1;
  for (int i = 2; i >= 0; --i) {
    const uint64_t x = a.words[static_cast<size_t>(i)];
    const uint64_t y = b.words[static_cast<size_t>(i)];
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

}  // namespace internal

namespace {

using internal::kMinVectorRun;
using internal::kPairwiseBlock;
using internal::LoadDecimal;
using internal::NoKernel;
using internal::PairwiseSum;
using internal::TrueCount;
using internal::UseAvx2;
using internal::VisitValidRuns;

// --- 256-bit integers for decimal sums ----------------------------------------------

void AddInto(Int256* acc, const Int256& v) {
  uint64_t carry = 0;
  for (size_t i = 0; i < 4; ++i) {
    const uint64_t a = acc->words[i];
    const uint64_t s = a + v.words[i];
    const uint64_t s2 = s + carry;
    carry = (s < a ? 1u : 0u) + (s2 < s ? 1u : 0u);
    acc->words[i] = s2;
  }
}

Int256 Negate(const Int256& v) {
  Int256 out;
  uint64_t carry = 1;
  for (size_t i = 0; i < 4; ++i) {
    const uint64_t w = ~v.words[i];
    out.words[i] = w + carry;
    carry = out.words[i] < w ? 1 : 0;
  }
  return out;
}

// Keeps the low 128 bits, sign-extended (decimal128 arithmetic wraps there).
Int256 Wrap128(Int256 v) {
  const uint64_t fill = (v.words[1] >> 63) != 0 ? ~uint64_t{0} : 0;
  v.words[2] = fill;
  v.words[3] = fill;
  return v;
}

// v / d rounded half away from zero (d > 0), as Arrow's decimal mean.
Int256 DivideRounded(const Int256& v, uint64_t d) {
  const bool negative = v.is_negative();
  Int256 q = negative ? Negate(v) : v;
  unsigned __int128 rem = 0;
  for (int i = 3; i >= 0; --i) {
    const unsigned __int128 cur = (rem << 64) | q.words[static_cast<size_t>(i)];
    q.words[static_cast<size_t>(i)] = static_cast<uint64_t>(cur / d);
    rem = cur % d;
  }
  if (rem * 2 >= d) AddInto(&q, Int256::FromInt64(1));
  return negative ? Negate(q) : q;
}

// A decimal result of `type`: Invalid where the value has more digits than
// the type's precision (pyarrow returns such values unchecked).
Result<Scalar> DecimalResult(std::string_view function, const TypePtr& type,
                             const Int256& value) {
  const auto& dec = TypeAs<DecimalType>(*type);
  if (static_cast<int64_t>(value.MagnitudeDigits().size()) > dec.precision()) {
    return Status::Invalid(function, ": the result ", value.ToString(), " (unscaled) overflows ",
                           type->ToString());
  }
  return Scalar::MakeDecimal(type, value);
}

// --- Sum and mean --------------------------------------------------------------------

// The pairwise double sum of a float64 or integer chunk's valid values. The scalar loop adds
// four blocks side by side (four independent chains of additions, each in
// its block's order); int64 and uint64 always take it (AVX2 has no
// conversion of them to double).
template <typename T>
double MaskedPairwiseChunkSum(const ArrayData& a, SimdLevel* used);

template <typename T>
double PairwiseChunkSum(const ArrayData& a, SimdLevel* used) {
  constexpr bool kHasVectorPath = sizeof(T) < 8 || std::is_same_v<T, double>;
  if (a.length > 0 && a.validity() != nullptr && a.GetNullCount() > 0) {
    return MaskedPairwiseChunkSum<T>(a, used);
  }
  const T* values = a.GetValues<T>(1);
  PairwiseSum acc;
  const bool avx2 = kHasVectorPath && UseAvx2();
  VisitValidRuns(a, [&](int64_t pos, int64_t len) {
    const T* v = values + pos;
    int64_t blocks = len / kPairwiseBlock;
    if constexpr (kHasVectorPath) {
      if (avx2 && blocks >= 4) {
        constexpr int64_t kGroups = 16;
        double sums[4 * kGroups];
        int64_t groups = blocks / 4;
        blocks -= 4 * groups;
        *used = std::max(*used, SimdLevel::kAvx2);
        while (groups > 0) {
          const int64_t g = std::min(groups, kGroups);
          internal::BlockSumsAvx2(v, g, sums);
          for (int64_t k = 0; k < 4 * g; k += 4) acc.AddFourBlocks(sums + k);
          v += 4 * kPairwiseBlock * g;
          groups -= g;
        }
      }
    }
    for (; blocks >= 4; blocks -= 4, v += 4 * kPairwiseBlock) {
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;  // (named: GCC keeps an array in memory)
      for (int64_t j = 0; j < kPairwiseBlock; ++j) {
        s0 += static_cast<double>(v[j]);
        s1 += static_cast<double>(v[kPairwiseBlock + j]);
        s2 += static_cast<double>(v[2 * kPairwiseBlock + j]);
        s3 += static_cast<double>(v[3 * kPairwiseBlock + j]);
      }
      const double s[4] = {s0, s1, s2, s3};
      acc.AddFourBlocks(s);
    }
    for (; blocks > 0; --blocks, v += kPairwiseBlock) {
      double s = 0;
      for (int64_t j = 0; j < kPairwiseBlock; ++j) s += static_cast<double>(v[j]);
      acc.AddBlock(s);
    }
    const int64_t rest = len % kPairwiseBlock;
    if (rest > 0) {
      double s = 0;
      for (int64_t j = 0; j < rest; ++j) s += static_cast<double>(v[j]);
      acc.AddBlock(s);
    }
  });
  return acc.Total();
}

// The pairwise double sum of a chunk with nulls. Arrow C++ starts a block
// at every run of valid slots, so with 10% nulls most blocks hold a few
// values and its loop is all branches and carries. Here the chunk is cut
// into groups of 128 slots, nulls counting as +0.0: a group is 8 blocks of
// 16 strided slots (block b: slots b, b + 8, ..., b + 120, added in order
// from 0.0; one SIMD lane each, so no per-run work and no transposes), its
// sum the fixed pairwise tree of its 8 block sums (aggregate_simd.h), and
// the group sums of the groups holding a valid slot enter the pairwise
// counter in order. The slots after the last whole group form blocks of 16
// (the last one shorter), each entering the counter when it holds a valid
// value. So every level (scalar, AVX2, AVX-512) gives the same bits, and
// the result is a pairwise sum of pyarrow's values grouped differently:
// equal up to rounding (error bound a few ulps times log2(n) of the sum of
// magnitudes), NaN and infinities alike, never -0.0 (blocks start from
// +0.0). Without nulls the blocks are Arrow's and the sum pyarrow's bits.
template <typename T>
double MaskedGroupSum(const T* v, const uint64_t* m) {
  double b[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int half = 0; half < 2; ++half) {
    for (int t = 0; t < 8; ++t) {
      for (int k = 0; k < 8; ++k) {
        const int slot = 64 * half + 8 * t + k;
        b[k] += ((m[half] >> (8 * t + k)) & 1) != 0 ? static_cast<double>(v[slot]) : 0.0;
      }
    }
  }
  const double c0 = b[0] + b[4], c1 = b[1] + b[5], c2 = b[2] + b[6], c3 = b[3] + b[7];
  return (c0 + c2) + (c1 + c3);
}

template <typename T>
double MaskedPairwiseChunkSum(const ArrayData& a, SimdLevel* used) {
  constexpr bool kHasVectorPath = sizeof(T) < 8 || std::is_same_v<T, double>;
  constexpr int64_t kGroup = 128;
  constexpr int64_t kBatch = 16;
  const T* values = a.GetValues<T>(1);
  const uint8_t* validity = a.validity();
  const int64_t n = a.length;
  const SimdLevel level = kHasVectorPath ? ActiveSimdLevel() : SimdLevel::kScalar;
  PairwiseSum acc;
  uint64_t masks[2 * kBatch];
  double sums[kBatch];
  int64_t pos = 0;
  while (n - pos >= kGroup) {
    const int64_t g = std::min(kBatch, (n - pos) / kGroup);
    for (int64_t k = 0; k < 2 * g; ++k) {
      masks[k] = bitmap::LoadBits(validity, a.offset + pos + 64 * k, 64);
    }
    if constexpr (kHasVectorPath) {
      if (level >= SimdLevel::kAvx512) {
        internal::MaskedGroupSumsAvx512(values + pos, masks, g, sums);
      } else if (level >= SimdLevel::kAvx2) {
        internal::MaskedGroupSumsAvx2(values + pos, masks, g, sums);
      }
    }
    if (level == SimdLevel::kScalar) {
      for (int64_t k = 0; k < g; ++k) sums[k] = MaskedGroupSum(values + pos + kGroup * k, masks + 2 * k);
    }
    for (int64_t k = 0; k < g; ++k) {
      if ((masks[2 * k] | masks[2 * k + 1]) != 0) acc.AddBlock(sums[k]);
    }
    pos += kGroup * g;
  }
  if (pos > 0) *used = std::max(*used, level);
  for (; pos < n; pos += kPairwiseBlock) {
    const int len = static_cast<int>(std::min(kPairwiseBlock, n - pos));
    const uint64_t m = bitmap::LoadBits(validity, a.offset + pos, len);
    if (m == 0) continue;
    double s = 0;
    for (int j = 0; j < len; ++j) s += ((m >> j) & 1) != 0 ? static_cast<double>(values[pos + j]) : 0.0;
    acc.AddBlock(s);
  }
  return acc.Total();
}

template <typename T>
uint64_t ToU64(T v) {
  if constexpr (std::is_signed_v<T>) {
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  } else {
    return static_cast<uint64_t>(v);
  }
}

// The wrapping sum of a chunk's valid integers.
template <typename T>
uint64_t WrappingChunkSum(const ArrayData& a, SimdLevel* used) {
  const T* values = a.GetValues<T>(1);
  const bool avx2 = UseAvx2();
  uint64_t sum = 0;
  VisitValidRuns(a, [&](int64_t pos, int64_t len) {
    if (avx2 && len >= kMinVectorRun) {
      sum += internal::WrappingSumAvx2(values + pos, len);
      *used = std::max(*used, SimdLevel::kAvx2);
      return;
    }
    for (int64_t i = pos; i < pos + len; ++i) sum += ToU64(values[i]);
  });
  return sum;
}

// What a sum or mean accumulates, by input type.
enum class SumFlavor : uint8_t { kBool, kSigned, kUnsigned, kFloating, kDecimal };

// sum and mean over bool, integers, floats and decimals. The accumulator:
// `bits` (bool and integers: the wrapping sum, the true count), `real`
// (floats, and integers in a mean), `dec` (decimals).
class SumAggregator final : public Aggregator {
 public:
  SumAggregator(AggregateKind kind, TypePtr type, const ScalarAggregateOptions& options,
                SumFlavor flavor)
      : Aggregator(kind, std::move(type), options), flavor_(flavor) {}

  Status Consume(const ArrayData& chunk) override {
    QUIVER_RETURN_NOT_OK(CheckChunk(chunk));
    const int64_t nulls = chunk.GetNullCount();
    count_ += chunk.length - nulls;
    nulls_observed_ = nulls_observed_ || nulls > 0;
    if (!options_.skip_nulls && nulls_observed_) return Status::OK();  // the result is null
    SimdLevel used = SimdLevel::kScalar;
    switch (type_->id()) {
      case Type::kBool: bits_ += TrueCount(chunk); break;
      case Type::kInt8: AddIntegers<int8_t>(chunk, &used); break;
      case Type::kInt16: AddIntegers<int16_t>(chunk, &used); break;
      case Type::kInt32: AddIntegers<int32_t>(chunk, &used); break;
      case Type::kInt64: AddIntegers<int64_t>(chunk, &used); break;
      case Type::kUInt8: AddIntegers<uint8_t>(chunk, &used); break;
      case Type::kUInt16: AddIntegers<uint16_t>(chunk, &used); break;
      case Type::kUInt32: AddIntegers<uint32_t>(chunk, &used); break;
      case Type::kUInt64: AddIntegers<uint64_t>(chunk, &used); break;
      case Type::kFloat: real_ += internal::Float32ChunkSum(chunk, &used); break;
      case Type::kDouble: real_ += PairwiseChunkSum<double>(chunk, &used); break;
      case Type::kDecimal128:
      case Type::kDecimal256: AddDecimals(chunk); break;
      default: return NoKernel(kind_, *type_);
    }
    RecordSimdLevel(used);
    return Status::OK();
  }

  Status Merge(const Aggregator& other) override {
    QUIVER_RETURN_NOT_OK(CheckOther(other));
    const auto& o = static_cast<const SumAggregator&>(other);
    count_ += o.count_;
    nulls_observed_ = nulls_observed_ || o.nulls_observed_;
    bits_ += o.bits_;
    real_ += o.real_;
    AddInto(&dec_, o.dec_);
    return Status::OK();
  }

  Result<Scalar> Finalize() const override {
    const bool mean = kind_ == AggregateKind::kMean;
    const bool null = (!options_.skip_nulls && nulls_observed_) ||
                      count_ < static_cast<int64_t>(options_.min_count);
    const double n = static_cast<double>(count_);
    switch (flavor_) {
      case SumFlavor::kBool:
        if (mean) return null ? Scalar::MakeNull(float64()) : Scalar::MakeDouble(static_cast<double>(bits_) / n);
        if (null) return Scalar::MakeNull(uint64());
        return Scalar::MakeUInt(uint64(), bits_);
      case SumFlavor::kSigned:
        if (mean) return null ? Scalar::MakeNull(float64()) : Scalar::MakeDouble(real_ / n);
        return null ? Scalar::MakeNull(int64()) : Scalar::MakeInt64(static_cast<int64_t>(bits_));
      case SumFlavor::kUnsigned:
        if (mean) return null ? Scalar::MakeNull(float64()) : Scalar::MakeDouble(real_ / n);
        if (null) return Scalar::MakeNull(uint64());
        return Scalar::MakeUInt(uint64(), bits_);
      case SumFlavor::kFloating:
        if (null) return Scalar::MakeNull(float64());
        return Scalar::MakeDouble(mean ? real_ / n : real_);
      case SumFlavor::kDecimal: {
        const bool wide = type_->id() == Type::kDecimal256;
        const Int256 sum = wide ? dec_ : Wrap128(dec_);
        if (mean) {
          if (null || count_ == 0) return Scalar::MakeNull(type_);
          Int256 q = DivideRounded(sum, static_cast<uint64_t>(count_));
          if (!wide) q = Wrap128(q);
          return DecimalResult("mean", type_, q);
        }
        const int32_t scale = TypeAs<DecimalType>(*type_).scale();
        const TypePtr out = wide ? decimal256(76, scale) : decimal128(38, scale);
        if (null) return Scalar::MakeNull(out);
        return DecimalResult("sum", out, sum);
      }
    }
    return Status::Invalid("sum: unknown flavor");
  }

 private:
  template <typename T>
  void AddIntegers(const ArrayData& chunk, SimdLevel* used) {
    if (kind_ == AggregateKind::kMean) {
      real_ += PairwiseChunkSum<T>(chunk, used);
    } else {
      bits_ += WrappingChunkSum<T>(chunk, used);
    }
  }

  void AddDecimals(const ArrayData& chunk) {
    if (chunk.length == 0) return;  // (maybe without buffers)
    const int width = type_->id() == Type::kDecimal256 ? 32 : 16;
    const uint8_t* base = chunk.buffers[1]->data() + chunk.offset * width;
    VisitValidRuns(chunk, [&](int64_t pos, int64_t len) {
      for (int64_t i = pos; i < pos + len; ++i) AddInto(&dec_, LoadDecimal(base + i * width, width));
    });
  }

  SumFlavor flavor_;
  int64_t count_ = 0;
  bool nulls_observed_ = false;
  uint64_t bits_ = 0;
  double real_ = 0;
  Int256 dec_;
};

// sum and mean of the null type: 0 (int64 / double) when min_count is 0
// and nulls are skipped or there were none, else null (Arrow's NullSumImpl).
class NullSumAggregator final : public Aggregator {
 public:
  using Aggregator::Aggregator;

  Status Consume(const ArrayData& chunk) override {
    QUIVER_RETURN_NOT_OK(CheckChunk(chunk));
    if (chunk.length > 0) empty_ = false;
    RecordSimdLevel(SimdLevel::kScalar);
    return Status::OK();
  }
  Status Merge(const Aggregator& other) override {
    QUIVER_RETURN_NOT_OK(CheckOther(other));
    empty_ = empty_ && static_cast<const NullSumAggregator&>(other).empty_;
    return Status::OK();
  }
  Result<Scalar> Finalize() const override {
    const bool mean = kind_ == AggregateKind::kMean;
    if ((options_.skip_nulls || empty_) && options_.min_count == 0) {
      return mean ? Scalar::MakeDouble(0) : Scalar::MakeInt64(0);
    }
    return Scalar::MakeNull(mean ? float64() : int64());
  }

 private:
  bool empty_ = true;
};

// --- Count ----------------------------------------------------------------------------------

class CountAggregator final : public Aggregator {
 public:
  CountAggregator(TypePtr type, CountMode mode)
      : Aggregator(AggregateKind::kCount, std::move(type), {}), mode_(mode) {}

  Status Consume(const ArrayData& chunk) override {
    QUIVER_RETURN_NOT_OK(CheckChunk(chunk));
    const int64_t nulls = chunk.GetNullCount();
    switch (mode_) {
      case CountMode::kOnlyValid: count_ += chunk.length - nulls; break;
      case CountMode::kOnlyNull: count_ += nulls; break;
      case CountMode::kAll: count_ += chunk.length; break;
    }
    RecordSimdLevel(SimdLevel::kScalar);
    return Status::OK();
  }
  Status Merge(const Aggregator& other) override {
    QUIVER_RETURN_NOT_OK(CheckOther(other));
    const auto& o = static_cast<const CountAggregator&>(other);
    if (o.mode_ != mode_) return Status::Invalid("count: cannot merge counts of different modes");
    count_ += o.count_;
    return Status::OK();
  }
  Result<Scalar> Finalize() const override { return Scalar::MakeInt64(count_); }

 private:
  CountMode mode_;
  int64_t count_ = 0;
};

// The sum flavor of a type (nullopt: no SumAggregator; the null type has
// its own).
std::optional<SumFlavor> SumFlavorOf(Type id) {
  switch (id) {
    case Type::kBool: return SumFlavor::kBool;
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64: return SumFlavor::kSigned;
    case Type::kUInt8:
    case Type::kUInt16:
    case Type::kUInt32:
    case Type::kUInt64: return SumFlavor::kUnsigned;
    case Type::kFloat:
    case Type::kDouble: return SumFlavor::kFloating;
    case Type::kDecimal128:
    case Type::kDecimal256: return SumFlavor::kDecimal;
    default: return std::nullopt;
  }
}

Result<Scalar> AggregateOne(AggregateKind kind, const ArrayData& values,
                            const ScalarAggregateOptions& options, CountMode mode) {
  if (values.type == nullptr) return Status::Invalid(AggregateName(kind), ": an array without a type");
  if (kind == AggregateKind::kSum || kind == AggregateKind::kMean) {
    if (values.type->id() == Type::kFloat) {
      // One float32 array: SumAggregator's rules without an aggregator (no
      // copy of the type, no dispatch): a short sum is mostly this call.
      const int64_t nulls = values.GetNullCount();
      const int64_t count = values.length - nulls;
      if ((!options.skip_nulls && nulls > 0) || count < static_cast<int64_t>(options.min_count)) {
        return Scalar::MakeNull(float64());
      }
      SimdLevel used = SimdLevel::kScalar;
      const double sum = internal::Float32ChunkSum(values, &used);
      RecordSimdLevel(used);
      return Scalar::MakeDouble(kind == AggregateKind::kMean ? sum / static_cast<double>(count) : sum);
    }
    // One array: the aggregator on the stack (no allocation per call).
    if (const auto flavor = SumFlavorOf(values.type->id())) {
      SumAggregator agg(kind, values.type, options, *flavor);
      QUIVER_RETURN_NOT_OK(agg.Consume(values));
      return agg.Finalize();
    }
  }
  QUIVER_ASSIGN_OR_RAISE(std::unique_ptr<Aggregator> agg,
                         Aggregator::Make(kind, values.type, options, mode));
  QUIVER_RETURN_NOT_OK(agg->Consume(values));
  return agg->Finalize();
}

}  // namespace

Result<std::unique_ptr<Aggregator>> Aggregator::Make(AggregateKind kind, const TypePtr& type,
                                                     const ScalarAggregateOptions& options,
                                                     CountMode mode) {
  if (type == nullptr) return Status::Invalid(AggregateName(kind), ": no input type");
  switch (kind) {
    case AggregateKind::kCount:
      return std::unique_ptr<Aggregator>(std::make_unique<CountAggregator>(type, mode));
    case AggregateKind::kMin:
    case AggregateKind::kMax:
    case AggregateKind::kMinMax: return internal::MakeMinMaxAggregator(kind, type, options);
    case AggregateKind::kSum:
    case AggregateKind::kMean: break;
  }
  if (type->id() == Type::kNull) {
    return std::unique_ptr<Aggregator>(std::make_unique<NullSumAggregator>(kind, type, options));
  }
  const auto flavor = SumFlavorOf(type->id());
  if (!flavor) return NoKernel(kind, *type);
  return std::unique_ptr<Aggregator>(std::make_unique<SumAggregator>(kind, type, options, *flavor));
}

Result<Scalar> Sum(const ArrayData& values, const ScalarAggregateOptions& options) {
  return AggregateOne(AggregateKind::kSum, values, options, CountMode::kOnlyValid);
}
Result<Scalar> Mean(const ArrayData& values, const ScalarAggregateOptions& options) {
  return AggregateOne(AggregateKind::kMean, values, options, CountMode::kOnlyValid);
}
Result<Scalar> Min(const ArrayData& values, const ScalarAggregateOptions& options) {
  return AggregateOne(AggregateKind::kMin, values, options, CountMode::kOnlyValid);
}
Result<Scalar> Max(const ArrayData& values, const ScalarAggregateOptions& options) {
  return AggregateOne(AggregateKind::kMax, values, options, CountMode::kOnlyValid);
}
Result<Scalar> MinMax(const ArrayData& values, const ScalarAggregateOptions& options) {
  return AggregateOne(AggregateKind::kMinMax, values, options, CountMode::kOnlyValid);
}
Result<Scalar> Count(const ArrayData& values, CountMode mode) {
  return AggregateOne(AggregateKind::kCount, values, {}, mode);
}

}  // namespace quiver::compute
