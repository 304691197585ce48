// min, max and min_max (see aggregate.h): Arrow C++'s MinMaxImpl
// semantics (aggregate_basic_internal.h) with pyarrow 26's float rule (NaN
// skipped unless every value is NaN). The running extremes of one physical
// type live in an *Extremes struct; MinMaxAggregator adds the count, the
// nulls seen and the result rules.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "quiver/compute/aggregate_internal.h"
#include "quiver/compute/aggregate_simd.h"

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

// Bytes compared as unsigned bytes (memcmp order), as Arrow compares
// binary and string values. OffsetT: int32_t / int64_t offsets, void for
// fixed_size_binary.
template <typename OffsetT>
struct BytesExtremes {
  std::string min, max;
  bool seen = false;

  void Update(std::string_view lo, std::string_view hi) {
    if (!seen || lo < std::string_view(min)) min.assign(lo);
    if (!seen || hi > std::string_view(max)) max.assign(hi);
    seen = true;
  }
  // One value: below the min it cannot be above the max (one comparison
  // for most values, as Arrow's MergeOne).
  void AddOne(std::string_view v) {
    if (!seen) {
      min.assign(v);
      max.assign(v);
      seen = true;
    } else if (v < std::string_view(min)) {
      min.assign(v);
    } else if (v > std::string_view(max)) {
      max.assign(v);
    }
  }
  Status Add(const ArrayData& a, SimdLevel*) {
    const char* data;
    const OffsetT* offsets = nullptr;
    int64_t width = 0;
    if constexpr (std::is_void_v<OffsetT>) {
      width = TypeAs<FixedSizeBinaryType>(*a.type).fixed_byte_width();
      data = reinterpret_cast<const char*>(a.buffers[1]->data()) + a.offset * width;
    } else {
      offsets = a.GetValues<OffsetT>(1);
      data = reinterpret_cast<const char*>(a.buffers[2]->data());
    }
    // Imports check the first and last offsets only: a slot whose offsets
    // run backwards or past the data is an error, never a read out of it.
    const int64_t data_size = std::is_void_v<OffsetT> ? 0 : a.buffers[2]->size();
    int64_t bad_slot = -1;
    VisitValidRuns(a, [&](int64_t pos, int64_t len) {
      for (int64_t i = pos; i < pos + len && bad_slot < 0; ++i) {
        std::string_view v;
        if constexpr (std::is_void_v<OffsetT>) {
          v = std::string_view(data + i * width, static_cast<size_t>(width));
        } else {
          const int64_t begin = offsets[i], end = offsets[i + 1];
          if (begin < 0 || end < begin || end > data_size) {
            bad_slot = i;
            break;
          }
          v = std::string_view(data + begin, static_cast<size_t>(end - begin));
        }
        AddOne(v);
      }
    });
    if (bad_slot >= 0) {
      return Status::Invalid("min_max: ", a.type->ToString(), " array: the offsets of slot ",
                             bad_slot, " run backwards or past the data");
    }
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
  using Aggregator::Aggregator;

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
