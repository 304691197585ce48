// Temporal casts (see cast.h and cast_numeric_internal.h), measured
// against pyarrow 26:
//  - Unit changes (dates, times, timestamps, durations, dates to
//    timestamps) are Arrow C++'s ShiftTime: towards a finer unit the value
//    is multiplied in 64 bits and the product converted to the target's C
//    type (a time32 wraps at 32 bits: Arrow checks the 64-bit product only);
//    under `safe` a valid value outside int64 / factor is "would result in
//    out of bounds timestamp". Towards a coarser unit it is divided
//    (truncated toward zero) and converted; under `safe` a quotient that
//    does not multiply back to the value is "would lose data".
//  - Timestamps to dates and times read the wall-clock time: the value
//    plus the zone's offset (UTC and fixed offsets "+HH:MM" / "+HHMM";
//    other named zones need a time zone database Quiver does not have:
//    NotImplemented), then floor division by a day (a date, wrapping at 32
//    bits for date32 as Arrow's does) and the remainder (a time of day,
//    its unit changed with "Cast would lose data: V" under `safe`, V the
//    last failing slot's time of day, as Arrow reports it).
//  - Integers to and from the temporal types of their width
//    (int32: date32, time32; int64: date64, time64, timestamp, duration)
//    reinterpret the values without copying, as Arrow's zero-copy casts.
//  - Timestamps change zone freely: the values are UTC instants.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "quiver/compute/cast_internal.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/compute/simd_level.h"
#include "quiver/util/bit_util.h"

namespace quiver::compute::internal {

namespace {

constexpr int64_t kNanosPerDay = int64_t{86400} * 1000000000;

int64_t NanosPerUnit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 1000000000;
    case TimeUnit::kMilli: return 1000000;
    case TimeUnit::kMicro: return 1000;
    case TimeUnit::kNano: return 1;
  }
  return 1;
}

// Nanoseconds per unit step of a temporal type (date32: a day).
int64_t NanosPerTick(const DataType& type) {
  switch (type.id()) {
    case Type::kDate32: return kNanosPerDay;
    case Type::kDate64: return 1000000;
    default: return NanosPerUnit(TypeAs<TemporalType>(type).unit());
  }
}

bool Is32Bit(Type id) { return id == Type::kDate32 || id == Type::kTime32; }
bool IsDate(Type id) { return id == Type::kDate32 || id == Type::kDate64; }
bool IsTime(Type id) { return id == Type::kTime32 || id == Type::kTime64; }

// Pairs Arrow's ShiftTime serves.
bool IsUnitChange(Type from, Type to) {
  if (IsDate(from)) return IsDate(to) || to == Type::kTimestamp;
  if (IsTime(from)) return IsTime(to);
  if (from == Type::kTimestamp || from == Type::kDuration) return to == from;
  return false;
}

// Integers and the temporal types of their width.
bool IsReinterpret(Type from, Type to) {
  auto int32_pair = [](Type t) { return t == Type::kDate32 || t == Type::kTime32; };
  auto int64_pair = [](Type t) {
    return t == Type::kDate64 || t == Type::kTime64 || t == Type::kTimestamp ||
           t == Type::kDuration;
  };
  if (from == Type::kInt32) return int32_pair(to);
  if (from == Type::kInt64) return int64_pair(to);
  if (to == Type::kInt32) return int32_pair(from);
  if (to == Type::kInt64) return int64_pair(from);
  return false;
}

// --- unit changes (ShiftTime) -------------------------------------------------

// The first failing valid slot of `in` for `fails(i)`.
template <typename Fails>
int64_t FirstFailure(const ArrayData& in, Fails&& fails) {
  const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
  for (int64_t i = 0; i < in.length; ++i) {
    if (validity != nullptr && !bit_util::GetBit(validity, in.offset + i)) continue;
    if (fails(i)) return i;
  }
  return -1;
}

// The factor of a unit change: a compile-time constant for the ones that
// occur (so that a division is a multiplication by its reciprocal), else
// a run-time value.
template <int64_t kValue>
struct ConstantFactor {
  static constexpr int64_t value() { return kValue; }
};
struct RuntimeFactor {
  int64_t factor;
  int64_t value() const { return factor; }
};

template <typename F>
Status VisitFactor(int64_t factor, F&& f) {
  switch (factor) {
    case 1000: return f(ConstantFactor<1000>{});
    case 1000000: return f(ConstantFactor<1000000>{});
    case 1000000000: return f(ConstantFactor<1000000000>{});
    case 86400: return f(ConstantFactor<86400>{});
    case 86400000: return f(ConstantFactor<86400000>{});
    case int64_t{86400000000}: return f(ConstantFactor<int64_t{86400000000}>{});
    case int64_t{86400000000000}: return f(ConstantFactor<int64_t{86400000000000}>{});
    default: return f(RuntimeFactor{factor});
  }
}

// Products into `out` (wrapping); returns whether any value (valid or
// not) is outside int64 / factor.
template <typename In, typename Out, typename Factor>
inline bool MultiplyLoopBody(const In* __restrict v, Factor f, int64_t n, Out* __restrict out) {
  const int64_t factor = f.value();
  const int64_t max_val = std::numeric_limits<int64_t>::max() / factor;
  const int64_t min_val = std::numeric_limits<int64_t>::min() / factor;
  uint32_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t x = v[i];
    out[i] = static_cast<Out>(static_cast<uint64_t>(x) * static_cast<uint64_t>(factor));
    bad |= static_cast<uint32_t>((x < min_val) | (x > max_val));
  }
  return bad != 0;
}

#if defined(__x86_64__)
// AVX-512 DQ multiplies 64-bit integers in vectors (VPMULLQ).
template <typename In, typename Out, typename Factor>
__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))) bool MultiplyLoopAvx512(
    const In* v, Factor f, int64_t n, Out* out) {
  return MultiplyLoopBody(v, f, n, out);
}
#endif

template <typename In, typename Out, typename Factor>
bool RunMultiply(const In* v, Factor f, int64_t n, Out* out) {
#if defined(__x86_64__)
  static const bool dq = __builtin_cpu_supports("avx512dq");
  if (ActiveSimdLevel() >= SimdLevel::kAvx512 && dq) {
    RecordSimdLevel(SimdLevel::kAvx512);
    return MultiplyLoopAvx512(v, f, n, out);
  }
#endif
  RecordSimdLevel(SimdLevel::kScalar);
  return MultiplyLoopBody(v, f, n, out);
}

template <typename In, typename Out, typename Factor>
Status Multiply(const ArrayData& in, const DataType& to, Factor f, bool safe, Out* out) {
  const In* v = in.GetValues<In>(1);
  const int64_t factor = f.value();
  const int64_t max_val = std::numeric_limits<int64_t>::max() / factor;
  const int64_t min_val = std::numeric_limits<int64_t>::min() / factor;
  const bool bad = RunMultiply(v, f, in.length, out);
  if (!safe || !bad) return Status::OK();
  const int64_t i = FirstFailure(in, [&](int64_t j) { return v[j] < min_val || v[j] > max_val; });
  if (i < 0) return Status::OK();
  return Status::Invalid("Casting from ", in.type->ToString(), " to ", to.ToString(),
                         " would result in out of bounds timestamp: ", static_cast<int64_t>(v[i]));
}

// x / factor truncated toward zero, through a double (see DaysLoopBody):
// for factor >= 10^5 the double quotient is within 0.01 of the exact one,
// so the truncated q0 is within one of it, and the remainder's sign and
// size say which way.
inline int64_t TruncDivideThroughDouble(int64_t x, int64_t factor, double inverse) {
  const auto q0 = static_cast<int64_t>(static_cast<double>(x) * inverse);  // |q0| < 2^47
  const auto r = static_cast<int64_t>(static_cast<uint64_t>(x) -
                                      static_cast<uint64_t>(q0) * static_cast<uint64_t>(factor));
  const int64_t up = static_cast<int64_t>(r >= factor) - static_cast<int64_t>(r < 0);
  const int64_t down = static_cast<int64_t>(r > 0) - static_cast<int64_t>(r <= -factor);
  return q0 + (x >= 0 ? up : down);
}

constexpr int64_t kMinDoubleFactor = 100000;

// Quotients into `out`; returns whether any (valid or not) loses data.
template <bool kThroughDouble, typename In, typename Out, typename Factor>
inline bool DivideLoopBody(const In* __restrict v, Factor f, int64_t n, Out* __restrict out) {
  const int64_t factor = f.value();
  const double inverse = 1.0 / static_cast<double>(factor);
  uint32_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t x = v[i];
    int64_t q;
    if constexpr (kThroughDouble) {
      q = TruncDivideThroughDouble(x, factor, inverse);
    } else {
      q = x / factor;
    }
    const Out narrowed = static_cast<Out>(q);
    out[i] = narrowed;
    bad |= static_cast<int64_t>(narrowed) * factor != x;
  }
  return bad != 0;
}

#if defined(__x86_64__)
template <typename In, typename Out, typename Factor>
__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))) bool DivideLoopAvx512(
    const In* v, Factor f, int64_t n, Out* out) {
  return DivideLoopBody<true>(v, f, n, out);
}
#endif

template <typename In, typename Out, typename Factor>
bool RunDivide(const In* v, Factor f, int64_t n, Out* out) {
#if defined(__x86_64__)
  static const bool dq = __builtin_cpu_supports("avx512dq");
  if (std::is_same_v<In, int64_t> && f.value() >= kMinDoubleFactor &&
      ActiveSimdLevel() >= SimdLevel::kAvx512 && dq) {
    RecordSimdLevel(SimdLevel::kAvx512);
    return DivideLoopAvx512(v, f, n, out);
  }
#endif
  RecordSimdLevel(SimdLevel::kScalar);
  return DivideLoopBody<false>(v, f, n, out);
}

template <typename In, typename Out, typename Factor>
Status Divide(const ArrayData& in, const DataType& to, Factor f, bool safe, Out* out) {
  const In* v = in.GetValues<In>(1);
  const int64_t n = in.length;
  const int64_t factor = f.value();
  const bool bad = RunDivide(v, f, n, out);
  if (!safe || !bad) return Status::OK();
  const int64_t i =
      FirstFailure(in, [&](int64_t j) { return static_cast<int64_t>(out[j]) * factor != v[j]; });
  if (i < 0) return Status::OK();
  return Status::Invalid("Casting from ", in.type->ToString(), " to ", to.ToString(),
                         " would lose data: ", static_cast<int64_t>(v[i]));
}

template <typename In, typename Out>
Status ShiftTime(const ArrayData& in, const DataType& to, bool safe, Out* out) {
  const int64_t a = NanosPerTick(*in.type);
  const int64_t b = NanosPerTick(to);
  if (a >= b) {
    return VisitFactor(a / b, [&](auto factor) {
      return Multiply<In, Out>(in, to, factor, safe, out);
    });
  }
  return VisitFactor(b / a, [&](auto factor) { return Divide<In, Out>(in, to, factor, safe, out); });
}

// --- timestamps to dates and times --------------------------------------------

// The zone's offset from UTC in seconds: 0 for no zone and "UTC"; "+HH:MM"
// or "+HHMM" (HH up to 23, MM up to 59) as Arrow parses them.
Result<int64_t> ZoneOffsetSeconds(const TemporalType& type) {
  const std::string& tz = type.timezone();
  if (tz.empty() || tz == "UTC") return 0;
  if (tz[0] == '+' || tz[0] == '-') {
    auto digit = [&](size_t i) { return i < tz.size() && tz[i] >= '0' && tz[i] <= '9'; };
    const bool colon = tz.size() == 6 && tz[3] == ':';
    const size_t m = colon ? 4 : 3;
    if ((tz.size() == 6 && colon) || tz.size() == 5) {
      if (digit(1) && digit(2) && digit(m) && digit(m + 1)) {
        const int hours = (tz[1] - '0') * 10 + (tz[2] - '0');
        const int minutes = (tz[m] - '0') * 10 + (tz[m + 1] - '0');
        if (hours <= 23 && minutes <= 59) {
          const int64_t seconds = hours * 3600 + minutes * 60;
          return tz[0] == '-' ? -seconds : seconds;
        }
      }
    }
    return Status::Invalid("Cannot locate or parse timezone '", tz, "'");
  }
  return Status::NotImplemented(
      "cast from ", type.ToString(), ": the wall-clock time in time zone '", tz,
      "' needs a time zone database, which Quiver does not have (UTC and fixed offsets such as "
      "'+05:30' work)");
}

// a / b rounded toward negative infinity, for b > 0.
inline int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return a % b < 0 ? q - 1 : q;
}

// Days since the epoch of n instants (plus `offset`), each in units of
// which a day has per_day, rounded toward negative infinity: through a
// double (AVX-512 DQ converts and multiplies 64-bit integers in vectors;
// 64-bit integer division has no vector form). The truncated quotient q0 is
// within 1.05 of x / per_day (the double's relative error is under 2^-51,
// far less than a day), so the remainder r = x - q0 * per_day lies in
// [-1.05, 1.05) days and two comparisons correct q0 to the floor. date64
// is that day in milliseconds.
template <typename Out>
inline void DaysLoopBody(const int64_t* __restrict v, uint64_t offset, int64_t per_day,
                         int64_t n, Out* __restrict out) {
  const double inverse = 1.0 / static_cast<double>(per_day);
  for (int64_t i = 0; i < n; ++i) {
    const auto x = static_cast<int64_t>(static_cast<uint64_t>(v[i]) + offset);
    const auto q0 = static_cast<int64_t>(static_cast<double>(x) * inverse);  // |q0| < 2^47
    const auto r = static_cast<int64_t>(static_cast<uint64_t>(x) -
                                        static_cast<uint64_t>(q0) * static_cast<uint64_t>(per_day));
    const int64_t q = q0 - static_cast<int64_t>(r < 0) - static_cast<int64_t>(r < -per_day) +
                      static_cast<int64_t>(r >= per_day);
    if constexpr (sizeof(Out) == 4) {
      out[i] = static_cast<Out>(q);
    } else {
      out[i] = static_cast<Out>(static_cast<uint64_t>(q) * 86400000u);
    }
  }
}

template <typename Out>
void DaysLoop(const int64_t* v, uint64_t offset, int64_t per_day, int64_t n, Out* out) {
  DaysLoopBody(v, offset, per_day, n, out);
}

#if defined(__x86_64__)
template <typename Out>
__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))) void DaysLoopAvx512(
    const int64_t* v, uint64_t offset, int64_t per_day, int64_t n, Out* out) {
  DaysLoopBody(v, offset, per_day, n, out);
}
#endif

// (AVX2 has no packed int64 <-> double conversion: the scalar build serves
// that level.)
template <typename Out>
void RunDays(const int64_t* v, uint64_t offset, int64_t per_day, int64_t n, Out* out) {
#if defined(__x86_64__)
  static const bool dq = __builtin_cpu_supports("avx512dq");
  if (ActiveSimdLevel() >= SimdLevel::kAvx512 && dq) {
    RecordSimdLevel(SimdLevel::kAvx512);
    return DaysLoopAvx512(v, offset, per_day, n, out);
  }
#endif
  RecordSimdLevel(SimdLevel::kScalar);
  DaysLoop(v, offset, per_day, n, out);
}

template <typename Out, typename PerDay>
Status TimestampToDateOrTime(const ArrayData& in, const DataType& to, bool safe, int64_t offset,
                             PerDay day, Out* out) {
  const int64_t per_day = day.value();
  const int64_t* v = in.GetValues<int64_t>(1);
  const int64_t n = in.length;
  auto local = [&](int64_t i) { return static_cast<int64_t>(static_cast<uint64_t>(v[i]) + static_cast<uint64_t>(offset)); };
  if (IsDate(to.id())) {
    RunDays<Out>(v, static_cast<uint64_t>(offset), per_day, n, out);
    return Status::OK();
  }
  // A time of day: the remainder, in the time type's unit.
  const int64_t a = kNanosPerDay / per_day;
  const int64_t b = NanosPerUnit(TypeAs<TemporalType>(to).unit());
  auto time_of_day = [&](int64_t i) {
    const int64_t t = local(i) % per_day;
    return t < 0 ? t + per_day : t;
  };
  if (a >= b) {
    const int64_t factor = a / b;
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<Out>(time_of_day(i) * factor);
    return Status::OK();
  }
  const int64_t factor = b / a;
  uint32_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t t = time_of_day(i);
    out[i] = static_cast<Out>(t / factor);
    bad |= t % factor != 0;
  }
  if (!safe || bad == 0) return Status::OK();
  // Arrow's kernel keeps the last failing slot's error here.
  int64_t last = -1;
  const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
  for (int64_t i = 0; i < n; ++i) {
    if (validity != nullptr && !bit_util::GetBit(validity, in.offset + i)) continue;
    if (time_of_day(i) % factor != 0) last = i;
  }
  if (last < 0) return Status::OK();
  return Status::Invalid("Cast would lose data: ", time_of_day(last));
}

template <typename Out>
Status TimestampToDateOrTime(const ArrayData& in, const DataType& to, bool safe, Out* out) {
  const auto& ts = TypeAs<TemporalType>(*in.type);
  QUIVER_ASSIGN_OR_RAISE(const int64_t offset_seconds, ZoneOffsetSeconds(ts));
  const int64_t unit_nanos = NanosPerUnit(ts.unit());
  const int64_t offset = offset_seconds * (1000000000 / unit_nanos);
  return VisitFactor(kNanosPerDay / unit_nanos, [&](auto per_day) {
    return TimestampToDateOrTime<Out>(in, to, safe, offset, per_day, out);
  });
}

// Runs f(In{}, Out{}) with the C types of the two temporal types.
template <typename F>
Status VisitWidths(Type from, Type to, F&& f) {
  if (Is32Bit(from)) {
    return Is32Bit(to) ? f(int32_t{}, int32_t{}) : f(int32_t{}, int64_t{});
  }
  return Is32Bit(to) ? f(int64_t{}, int32_t{}) : f(int64_t{}, int64_t{});
}

}  // namespace

Status CastTemporalValues(const ArrayData& in, const DataType& to, void* out, bool safe) {
  const Type from = in.type->id();
  if (!IsUnitChange(from, to.id())) return UnsupportedCast(*in.type, to);
  return VisitWidths(from, to.id(), [&](auto in_tag, auto out_tag) {
    using In = decltype(in_tag);
    using Out = decltype(out_tag);
    return ShiftTime<In, Out>(in, to, safe, static_cast<Out*>(out));
  });
}

Result<Scalar> CastTemporalScalar(const Scalar& in, const TypePtr& to, bool safe) {
  if (!in.is_valid()) return Scalar::MakeNull(to);
  const int64_t value = in.int_value();
  int32_t value32 = static_cast<int32_t>(value);
  alignas(8) uint8_t result[8] = {};
  const bool in32 = Is32Bit(in.type()->id());
  const ArrayData one(in.type(), 1,
                      {nullptr, in32 ? Buffer::Wrap(&value32, 4) : Buffer::Wrap(&value, 8)}, 0);
  QUIVER_RETURN_NOT_OK(CastTemporalValues(one, *to, result, safe));
  int64_t r;
  if (Is32Bit(to->id())) {
    int32_t r32;
    std::memcpy(&r32, result, 4);
    r = r32;
  } else {
    std::memcpy(&r, result, 8);
  }
  return Scalar::MakeInt(to, r);
}

bool TemporalCastSupported(const DataType& from, const DataType& to) {
  const Type f = from.id();
  const Type t = to.id();
  if (IsReinterpret(f, t) || IsUnitChange(f, t)) return true;
  return f == Type::kTimestamp && (IsDate(t) || IsTime(t));
}

Result<ArrayDataPtr> CastTemporalArray(const ArrayData& in, const TypePtr& to,
                                       const CastContext& ctx) {
  const Type from = in.type->id();
  if (IsReinterpret(from, to->id())) {
    auto out = std::make_shared<ArrayData>(in);
    out->type = to;
    if (out->GetNullCount() == 0) out->buffers[0] = nullptr;
    return out;
  }
  if (!TemporalCastSupported(*in.type, *to)) return UnsupportedCast(*in.type, *to);
  const int64_t width = Is32Bit(to->id()) ? 4 : 8;
  uint8_t* data = nullptr;
  QUIVER_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> values,
                         AllocateExact(in.length * width, ctx.pool, &data));
  if (IsUnitChange(from, to->id())) {
    QUIVER_RETURN_NOT_OK(CastTemporalValues(in, *to, data, ctx.safe));
  } else if (width == 4) {
    QUIVER_RETURN_NOT_OK(
        TimestampToDateOrTime(in, *to, ctx.safe, reinterpret_cast<int32_t*>(data)));
  } else {
    QUIVER_RETURN_NOT_OK(
        TimestampToDateOrTime(in, *to, ctx.safe, reinterpret_cast<int64_t*>(data)));
  }
  return FixedWidthResult(in, to, std::move(values), ctx.pool);
}

}  // namespace quiver::compute::internal
