// min, max and min_max (see aggregate.h): Arrow C++'s MinMaxImpl
// semantics (aggregate_basic_internal.h) with pyarrow 26's float rule (NaN
// skipped unless every value is NaN). The running extremes of one physical
// type live in an *Extremes struct; MinMaxAggregator adds the count, the
// nulls seen and the result rules.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "quiver/compute/aggregate_internal.h"
#include "quiver/compute/aggregate_simd.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute::internal {

namespace {

// The extremes of one physical type: Add(chunk) for a chunk's valid values,
// Merge, and the results as Scalars of `type`.
template <typename T>
struct IntegerExtremes {
  T min = std::numeric_limits<T>::max();
  T max = std::numeric_limits<T>::lowest();

  Status Add(const ArrayData& a, SimdLevel* level) {
    const T* values = a.GetValues<T>(1);
    const bool avx2 = UseAvx2();
    constexpr bool kWide = sizeof(T) == 8;
    const bool avx512 = kWide && ActiveSimdLevel() >= SimdLevel::kAvx512;
    VisitValidRuns(a, [&](int64_t pos, int64_t len) {
      if constexpr (kWide) {
        if (avx512 && len >= kMinVectorRun) {
          MinMaxAvx512(values + pos, len, &min, &max);
          *level = SimdLevel::kAvx512;
          return;
        }
      }
      if (avx2 && len >= kMinVectorRun) {
        MinMaxAvx2(values + pos, len, &min, &max);
        *level = std::max(*level, SimdLevel::kAvx2);
        return;
      }
      for (int64_t i = pos; i < pos + len; ++i) {
        min = std::min(min, values[i]);
        max = std::max(max, values[i]);
      }
    });
    return Status::OK();
  }
  void Merge(const IntegerExtremes& o) {
    min = std::min(min, o.min);
    max = std::max(max, o.max);
  }
  static Result<Scalar> Make(const TypePtr& type, T v) {
    if constexpr (std::is_signed_v<T>) {
      return Scalar::MakeInt(type, static_cast<int64_t>(v));
    } else {
      return Scalar::MakeUInt(type, static_cast<uint64_t>(v));
    }
  }
  Result<Scalar> MinScalar(const TypePtr& type) const { return Make(type, min); }
  Result<Scalar> MaxScalar(const TypePtr& type) const { return Make(type, max); }
};

// NaN until a number is seen: a number always replaces NaN, a NaN never
// replaces a number; among equal values the first stays (-0.0 vs 0.0).
template <typename T>
struct FloatExtremes {
  T min = std::numeric_limits<T>::quiet_NaN();
  T max = std::numeric_limits<T>::quiet_NaN();

  void Update(T lo, T hi) {
    if (lo < min || std::isnan(min)) min = lo;
    if (hi > max || std::isnan(max)) max = hi;
  }
  Status Add(const ArrayData& a, SimdLevel*) {
    const T* values = a.GetValues<T>(1);
    VisitValidRuns(a, [&](int64_t pos, int64_t len) {
      for (int64_t i = pos; i < pos + len; ++i) Update(values[i], values[i]);
    });
    return Status::OK();
  }
  void Merge(const FloatExtremes& o) { Update(o.min, o.max); }
  static Scalar Make(T v) {
    if constexpr (std::is_same_v<T, float>) {
      return Scalar::MakeFloat(v);
    } else {
      return Scalar::MakeDouble(v);
    }
  }
  Result<Scalar> MinScalar(const TypePtr&) const { return Make(min); }
  Result<Scalar> MaxScalar(const TypePtr&) const { return Make(max); }
};

struct BoolExtremes {
  bool min = true;   // every valid value true
  bool max = false;  // some valid value true

  Status Add(const ArrayData& a, SimdLevel*) {
    const int64_t valid = a.length - a.GetNullCount();
    const auto trues = static_cast<int64_t>(TrueCount(a));
    min = min && trues == valid;
    max = max || trues > 0;
    return Status::OK();
  }
  void Merge(const BoolExtremes& o) {
    min = min && o.min;
    max = max || o.max;
  }
  Result<Scalar> MinScalar(const TypePtr&) const { return Scalar::MakeBool(min); }
  Result<Scalar> MaxScalar(const TypePtr&) const { return Scalar::MakeBool(max); }
};

template <int kWidth>
struct DecimalExtremes {
  Int256 min, max;
  bool seen = false;

  void Update(const Int256& lo, const Int256& hi) {
    if (!seen || CompareInt256(lo, min) < 0) min = lo;
    if (!seen || CompareInt256(hi, max) > 0) max = hi;
    seen = true;
  }
  Status Add(const ArrayData& a, SimdLevel*) {
    const uint8_t* base = a.buffers[1]->data() + a.offset * kWidth;
    VisitValidRuns(a, [&](int64_t pos, int64_t len) {
      for (int64_t i = pos; i < pos + len; ++i) {
        const Int256 v = LoadDecimal(base + i * kWidth, kWidth);
        Update(v, v);
      }
    });
    return Status::OK();
  }
  void Merge(const DecimalExtremes& o) {
    if (o.seen) Update(o.min, o.max);
  }
  Result<Scalar> MinScalar(const TypePtr& type) const { return Scalar::MakeDecimal(type, min); }
  Result<Scalar> MaxScalar(const TypePtr& type) const { return Scalar::MakeDecimal(type, max); }
};

// The first 8 bytes of v[0..len) as a big-endian integer, zero-padded:
// two values order as their keys unless the keys tie (then a full
// comparison decides: a shorter value padded with zeros ties with a longer
// one holding zeros there). `room`: readable bytes from v, so that a value
// with 8 of them loads in one move.
// kPrefixMask[k]: the k high bytes (a table, not a branch on the length:
// lengths vary at random).
constexpr std::array<uint64_t, 9> kPrefixMask = {
    0, 0xff00000000000000, 0xffff000000000000, 0xffffff0000000000, 0xffffffff00000000,
    0xffffffffff000000, 0xffffffffffff0000, 0xffffffffffffff00, 0xffffffffffffffff};

inline uint64_t PrefixKey(const uint8_t* v, int64_t len, int64_t room) {
  if (room >= 8) [[likely]] {
    const uint64_t word = bit_util::LoadBigEndian<uint64_t>(v);
    return word & kPrefixMask[static_cast<size_t>(std::min<int64_t>(len, 8))];
  }
  uint64_t key = 0;
  for (int64_t k = 0; k < std::min<int64_t>(len, 8); ++k) key |= uint64_t{v[k]} << (56 - 8 * k);
  return key;
}

// One running extreme of a chunk: the value (a view into the chunk, no
// copy per change) and its prefix key.
struct BytesCandidate {
  std::string_view value;
  uint64_t key = 0;
  bool seen = false;
};

// Bytes compared as unsigned bytes (memcmp order), as Arrow compares
// binary and string values. OffsetT: int32_t / int64_t offsets, void for
// fixed_size_binary. Only the extremes the aggregate returns are tracked
// (min: the min alone). Arrow-rs's min_string keeps a &str and compares
// with memcmp; here each value's 8-byte prefix key is compared with the
// current extreme's first, the bytes only on a tie; a chunk with nulls is
// walked by word of its validity (the set bits of each 64-bit word).
template <typename OffsetT>
struct BytesExtremes {
  std::string min, max;
  bool seen = false;
  bool want_min = true, want_max = true;

  void SetKind(AggregateKind kind) {
    want_min = kind != AggregateKind::kMax;
    want_max = kind != AggregateKind::kMin;
  }
  void Update(std::string_view lo, std::string_view hi) {
    if (!seen || lo < std::string_view(min)) min.assign(lo);
    if (!seen || hi > std::string_view(max)) max.assign(hi);
    seen = true;
  }

  Status Add(const ArrayData& a, SimdLevel*) {
    if (want_min && want_max) return AddChunk<true, true>(a);
    if (want_min) return AddChunk<true, false>(a);
    return AddChunk<false, true>(a);
  }

  template <bool kMin, bool kMax>
  Status AddChunk(const ArrayData& a) {
    const uint8_t* data;
    const OffsetT* offsets = nullptr;
    int64_t width = 0, data_size;
    if constexpr (std::is_void_v<OffsetT>) {
      width = TypeAs<FixedSizeBinaryType>(*a.type).fixed_byte_width();
      data = a.buffers[1]->data() + a.offset * width;
      data_size = a.length * width;
    } else {
      offsets = a.GetValues<OffsetT>(1);
      data = a.buffers[2]->data();
      data_size = a.buffers[2]->size();
    }
    BytesCandidate lo, hi;
    lo.key = ~uint64_t{0};
    // Imports check the first and last offsets only: a slot whose offsets
    // run backwards or past the data is an error, never a read out of it.
    auto consider = [&](int64_t i) -> bool {
      int64_t begin, end;
      if constexpr (std::is_void_v<OffsetT>) {
        begin = i * width;
        end = begin + width;
      } else {
        begin = offsets[i];
        end = offsets[i + 1];
        if (static_cast<uint64_t>(begin) > static_cast<uint64_t>(end) ||
            end > data_size) [[unlikely]] {
          return false;
        }
      }
      const uint64_t key = PrefixKey(data + begin, end - begin, data_size - begin);
      if constexpr (kMin) {
        if (key <= lo.key) [[unlikely]] {
          const std::string_view v(reinterpret_cast<const char*>(data + begin),
                                   static_cast<size_t>(end - begin));
          if (key < lo.key || !lo.seen || v < lo.value) lo = {v, key, true};
        }
      }
      if constexpr (kMax) {
        if (key >= hi.key) [[unlikely]] {
          const std::string_view v(reinterpret_cast<const char*>(data + begin),
                                   static_cast<size_t>(end - begin));
          if (key > hi.key || !hi.seen || v > hi.value) hi = {v, key, true};
        }
      }
      return true;
    };
    int64_t bad_slot = -1;
    const uint8_t* validity = a.GetNullCount() > 0 ? a.validity() : nullptr;
    if (validity == nullptr) {
      for (int64_t i = 0; i < a.length; ++i) {
        if (!consider(i)) [[unlikely]] {
          bad_slot = i;
          break;
        }
      }
    } else {
      for (int64_t base = 0; base < a.length && bad_slot < 0; base += 64) {
        uint64_t word = bitmap::LoadBits(validity, a.offset + base,
                                         static_cast<int>(std::min<int64_t>(64, a.length - base)));
        for (; word != 0; word &= word - 1) {
          const int64_t i = base + bit_util::CountTrailingZeros(word);
          if (!consider(i)) [[unlikely]] {
            bad_slot = i;
            break;
          }
        }
      }
    }
    if (bad_slot >= 0) {
      return Status::Invalid("min_max: ", a.type->ToString(), " array: the offsets of slot ",
                             bad_slot, " run backwards or past the data");
    }
    // (The extremes not wanted stay at the chunk's first value or unset.)
    if (lo.seen || hi.seen) Update(lo.seen ? lo.value : hi.value, hi.seen ? hi.value : lo.value);
    return Status::OK();
  }
  void Merge(const BytesExtremes& o) {
    if (o.seen) Update(o.min, o.max);
  }
  Result<Scalar> MinScalar(const TypePtr& type) const { return Scalar::MakeBytes(type, min); }
  Result<Scalar> MaxScalar(const TypePtr& type) const { return Scalar::MakeBytes(type, max); }
};

TypePtr MinMaxType(const TypePtr& type) {
  return struct_({field("min", type), field("max", type)});
}

// min, max and min_max over one physical type.
template <typename Extremes>
class MinMaxAggregator final : public Aggregator {
 public:
  MinMaxAggregator(AggregateKind kind, TypePtr type, const ScalarAggregateOptions& options)
      : Aggregator(kind, std::move(type), options) {
    if constexpr (requires { extremes_.SetKind(kind); }) extremes_.SetKind(kind);
  }

  Status Consume(const ArrayData& chunk) override {
    QUIVER_RETURN_NOT_OK(CheckChunk(chunk));
    const int64_t nulls = chunk.GetNullCount();
    has_nulls_ = has_nulls_ || nulls > 0;
    count_ += chunk.length - nulls;
    SimdLevel level = SimdLevel::kScalar;
    // (An empty chunk may come without buffers: nothing to read.)
    if (chunk.length > 0 && (nulls == 0 || options_.skip_nulls)) {
      QUIVER_RETURN_NOT_OK(extremes_.Add(chunk, &level));
    }
    RecordSimdLevel(level);
    return Status::OK();
  }

  Status Merge(const Aggregator& other) override {
    QUIVER_RETURN_NOT_OK(CheckOther(other));
    const auto& o = static_cast<const MinMaxAggregator&>(other);
    has_nulls_ = has_nulls_ || o.has_nulls_;
    count_ += o.count_;
    extremes_.Merge(o.extremes_);
    return Status::OK();
  }

  Result<Scalar> Finalize() const override {
    const int64_t min_count = std::max<int64_t>(1, options_.min_count);
    const bool null = (has_nulls_ && !options_.skip_nulls) || count_ < min_count;
    Scalar lo = Scalar::MakeNull(type_);
    Scalar hi = Scalar::MakeNull(type_);
    if (!null) {
      if (kind_ != AggregateKind::kMax) {
        QUIVER_ASSIGN_OR_RAISE(lo, extremes_.MinScalar(type_));
      }
      if (kind_ != AggregateKind::kMin) {
        QUIVER_ASSIGN_OR_RAISE(hi, extremes_.MaxScalar(type_));
      }
    }
    if (kind_ == AggregateKind::kMin) return lo;
    if (kind_ == AggregateKind::kMax) return hi;
    return Scalar::MakeStruct(MinMaxType(type_), {std::move(lo), std::move(hi)});
  }

 private:
  Extremes extremes_;
  bool has_nulls_ = false;
  int64_t count_ = 0;
};

// min / max / min_max of the null type: always null (min_max: a struct
// of two nulls).
class NullMinMaxAggregator final : public Aggregator {
 public:
  using Aggregator::Aggregator;
  Status Consume(const ArrayData& chunk) override {
    RecordSimdLevel(SimdLevel::kScalar);
    return CheckChunk(chunk);
  }
  Status Merge(const Aggregator& other) override { return CheckOther(other); }
  Result<Scalar> Finalize() const override {
    if (kind_ != AggregateKind::kMinMax) return Scalar::MakeNull(null());
    return Scalar::MakeStruct(MinMaxType(null()), {Scalar(), Scalar()});
  }
};

template <typename Extremes>
std::unique_ptr<Aggregator> MakeMinMax(AggregateKind kind, const TypePtr& type,
                                       const ScalarAggregateOptions& options) {
  return std::make_unique<MinMaxAggregator<Extremes>>(kind, type, options);
}

}  // namespace

Result<std::unique_ptr<Aggregator>> MakeMinMaxAggregator(AggregateKind kind, const TypePtr& type,
                                                         const ScalarAggregateOptions& options) {
  switch (type->id()) {
    case Type::kNull: return std::unique_ptr<Aggregator>(std::make_unique<NullMinMaxAggregator>(kind, type, options));
    case Type::kBool: return MakeMinMax<BoolExtremes>(kind, type, options);
    case Type::kInt8: return MakeMinMax<IntegerExtremes<int8_t>>(kind, type, options);
    case Type::kInt16: return MakeMinMax<IntegerExtremes<int16_t>>(kind, type, options);
    case Type::kInt32:
    case Type::kDate32:
    case Type::kTime32: return MakeMinMax<IntegerExtremes<int32_t>>(kind, type, options);
    case Type::kInt64:
    case Type::kDate64:
    case Type::kTime64:
    case Type::kTimestamp: return MakeMinMax<IntegerExtremes<int64_t>>(kind, type, options);
    case Type::kUInt8: return MakeMinMax<IntegerExtremes<uint8_t>>(kind, type, options);
    case Type::kUInt16: return MakeMinMax<IntegerExtremes<uint16_t>>(kind, type, options);
    case Type::kUInt32: return MakeMinMax<IntegerExtremes<uint32_t>>(kind, type, options);
    case Type::kUInt64: return MakeMinMax<IntegerExtremes<uint64_t>>(kind, type, options);
    case Type::kFloat: return MakeMinMax<FloatExtremes<float>>(kind, type, options);
    case Type::kDouble: return MakeMinMax<FloatExtremes<double>>(kind, type, options);
    case Type::kDecimal128: return MakeMinMax<DecimalExtremes<16>>(kind, type, options);
    case Type::kDecimal256: return MakeMinMax<DecimalExtremes<32>>(kind, type, options);
    case Type::kString:
    case Type::kBinary: return MakeMinMax<BytesExtremes<int32_t>>(kind, type, options);
    case Type::kLargeString:
    case Type::kLargeBinary: return MakeMinMax<BytesExtremes<int64_t>>(kind, type, options);
    case Type::kFixedSizeBinary: return MakeMinMax<BytesExtremes<void>>(kind, type, options);
    default: return NoKernel(kind, *type);
  }
}

}  // namespace quiver::compute::internal
