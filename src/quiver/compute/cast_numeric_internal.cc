// Numeric value casts (see cast_numeric_internal.h for the rules), and the
// scalar <-> array plumbing of the kernels.
//
// One loop per (source, target) C type converts every value and, when the
// pair can fail under `safe`, ORs each value's check into one flag in the
// same pass (Arrow C++ checks in a second pass over the input): a loop the
// vectoriser handles, compiled for the baseline and AVX2 (and AVX-512 DQ
// for the conversions between doubles and 64-bit integers, which only it
// packs), chosen by ActiveSimdLevel(). Only when the flag is set does a second loop look
// for the first failing valid slot, whose value the error names (Arrow
// reports the first one too). Float to integer conversion is written so
// that no value is undefined behaviour (see FloatToInt).
#include "quiver/compute/cast_numeric_internal.h"

#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "quiver/compute/cast_internal.h"
#include "quiver/compute/simd_level.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/float16.h"

namespace quiver::compute::internal {

namespace {

// A value for a Status message (int8_t would print as a character).
template <typename T>
auto Printable(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<double>(v);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<int64_t>(v);
  } else {
    return static_cast<uint64_t>(v);
  }
}

// float16 in the templates below: a tag with the value's bits.
struct Half {
  uint16_t bits;
};

template <typename T>
constexpr bool kIsFloat = std::is_floating_point_v<T>;
template <typename T>
constexpr bool kIsInt = std::is_integral_v<T>;

// Float to integer, truncating toward zero, with Arrow C++'s x86-64
// results for values out of range (see the header) and no undefined
// behaviour: the C++ conversion runs only on values it is defined for.
// Written as selects, without branches, so that the loops vectorise (a
// value out of range is replaced by 0 before the conversion, its result by
// the minimum after).
template <typename Out, typename In>
inline Out FloatToInt(In v) {
  if constexpr (std::is_same_v<Out, int32_t> || std::is_same_v<Out, int64_t>) {
    constexpr In kLow = static_cast<In>(std::numeric_limits<Out>::min());  // -2^31, -2^63
    const bool in_range = (v >= kLow) & (v < -kLow);
    const Out converted = static_cast<Out>(in_range ? v : In{0});
    return in_range ? converted : std::numeric_limits<Out>::min();
  } else if constexpr (sizeof(Out) < 4) {
    return static_cast<Out>(FloatToInt<int32_t>(v));
  } else {
    using Signed = std::make_signed_t<Out>;
    constexpr In kTop = -static_cast<In>(std::numeric_limits<Signed>::min());  // 2^31, 2^63
    constexpr Out kTopBit = Out{1} << (8 * sizeof(Out) - 1);
    const Out high = static_cast<Out>(FloatToInt<Signed>(v - kTop)) ^ kTopBit;
    const Out low = static_cast<Out>(FloatToInt<Signed>(v));
    return v >= kTop ? high : low;
  }
}

template <typename In, typename Out>
inline Out Convert(In v) {
  if constexpr (std::is_same_v<Out, Half>) {
    if constexpr (std::is_same_v<In, double>) {
      return Half{util::DoubleToHalf(v)};
    } else {
      return Half{util::FloatToHalf(static_cast<float>(v))};
    }
  } else if constexpr (std::is_same_v<In, Half>) {
    return Convert<float, Out>(util::HalfToFloat(v.bits));
  } else if constexpr (kIsFloat<In> && kIsInt<Out>) {
    return FloatToInt<Out>(v);
  } else {
    return static_cast<Out>(v);
  }
}

// Whether a (source, target) pair can fail under `safe`, and its check.
template <typename In, typename Out>
struct Check {
  static constexpr bool kNeeded = [] {
    if constexpr (std::is_same_v<Out, Half>) {
      // Arrow checks integers as it checks them towards float32 (up to 32
      // bits) or float64 (64 bits), and floats not at all.
      return kIsInt<In> && std::numeric_limits<In>::digits > (sizeof(In) <= 4 ? 24 : 53);
    } else if constexpr (std::is_same_v<In, Half>) {
      return kIsInt<Out>;
    } else if constexpr (kIsInt<In> && kIsFloat<Out>) {
      return std::numeric_limits<In>::digits > std::numeric_limits<Out>::digits;
    } else if constexpr (kIsInt<In>) {
      return !(std::in_range<Out>(std::numeric_limits<In>::min()) &&
               std::in_range<Out>(std::numeric_limits<In>::max()));
    } else {
      return kIsInt<Out>;  // float to float never fails
    }
  }();

  // Integer to float: |v| <= 2^digits converts exactly (to float16:
  // float32's or float64's limit, as Arrow checks it).
  static constexpr uint64_t kExactLimit = [] {
    if constexpr (std::is_same_v<Out, Half>) {
      return uint64_t{1} << (sizeof(In) <= 4 ? 24 : 53);
    } else if constexpr (kIsFloat<Out>) {
      return uint64_t{1} << std::numeric_limits<Out>::digits;
    } else {
      return uint64_t{0};
    }
  }();
  static constexpr bool kOutFloat = kIsFloat<Out> || std::is_same_v<Out, Half>;

  static bool Ok(In v, Out out) {
    if constexpr (std::is_same_v<In, Half>) {
      return static_cast<float>(out) == util::HalfToFloat(v.bits);
    } else if constexpr (kIsFloat<In>) {
      return static_cast<In>(out) == v;  // false for NaN
    } else if constexpr (kOutFloat) {
      if constexpr (std::is_signed_v<In>) {
        return v >= -static_cast<int64_t>(kExactLimit) && v <= static_cast<int64_t>(kExactLimit);
      } else {
        return static_cast<uint64_t>(v) <= kExactLimit;
      }
    } else {
      return std::in_range<Out>(v);
    }
  }

  static Status Error(In v, const DataType& to) {
    if constexpr (std::is_same_v<In, Half>) {
      // Arrow prints a float16's bits here.
      return Status::Invalid("Float value ", v.bits, " was truncated converting to ", to.ToString());
    } else if constexpr (kIsFloat<In>) {
      char text[400];
      std::snprintf(text, sizeof(text), "%f", static_cast<double>(v));
      return Status::Invalid("Float value ", text, " was truncated converting to ", to.ToString());
    } else if constexpr (kOutFloat) {
      if constexpr (std::is_signed_v<In>) {
        return Status::Invalid("Integer value ", Printable(v), " not in range: -", kExactLimit,
                               " to ", kExactLimit);
      } else {
        return Status::Invalid("Integer value ", Printable(v), " not in range: 0 to ", kExactLimit);
      }
    } else {
      // The bounds shown are the target's range clipped to the source
      // type's (Arrow prints "0 to 9223372036854775807" for uint64 to int64).
      using Wide =
          std::conditional_t<std::is_signed_v<In> || std::is_signed_v<Out>, int64_t, uint64_t>;
      const auto lo = std::max(static_cast<__int128>(std::numeric_limits<Out>::min()),
                               static_cast<__int128>(std::numeric_limits<In>::min()));
      const auto hi = std::min(static_cast<__int128>(std::numeric_limits<Out>::max()),
                               static_cast<__int128>(std::numeric_limits<In>::max()));
      return Status::Invalid("Integer value ", Printable(v), " not in range: ",
                             static_cast<Wide>(lo), " to ", static_cast<Wide>(hi));
    }
  }
};

// Converts n values; with kCheck, returns whether any of them (valid or
// not) fails its check.
template <typename In, typename Out, bool kCheck>
inline bool ConvertLoopBody(const In* __restrict in, Out* __restrict out, int64_t n) {
  uint32_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    const Out o = Convert<In, Out>(in[i]);
    out[i] = o;
    if constexpr (kCheck) bad |= Check<In, Out>::Ok(in[i], o) ? 0u : 1u;
  }
  return bad != 0;
}

template <typename In, typename Out, bool kCheck>
bool ConvertLoop(const In* in, Out* out, int64_t n) {
  return ConvertLoopBody<In, Out, kCheck>(in, out, n);
}

#if defined(__x86_64__)
template <typename In, typename Out, bool kCheck>
__attribute__((target("avx2"))) bool ConvertLoopAvx2(const In* in, Out* out, int64_t n) {
  return ConvertLoopBody<In, Out, kCheck>(in, out, n);
}

// AVX-512 with DQ: packed conversions between doubles and 64-bit integers
// (VCVTTPD2QQ, VCVTQQ2PD), which AVX2 lacks, and twice the lanes for the
// float-to-integer selects. Only for those pairs; the others are memory
// bound with AVX2 already.
template <typename In, typename Out, bool kCheck>
__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))) bool ConvertLoopAvx512(
    const In* in, Out* out, int64_t n) {
  return ConvertLoopBody<In, Out, kCheck>(in, out, n);
}

template <typename In, typename Out>
constexpr bool kWantsAvx512 = (kIsFloat<In> && kIsInt<Out>) ||
                              (kIsInt<In> && sizeof(In) == 8 && kIsFloat<Out>);

bool HasAvx512Dq() {
  static const bool has = __builtin_cpu_supports("avx512dq");
  return has;
}
#endif

template <typename In, typename Out, bool kCheck>
bool RunConvert(const In* in, Out* out, int64_t n) {
#if defined(__x86_64__)
  if constexpr (kWantsAvx512<In, Out>) {
    if (ActiveSimdLevel() >= SimdLevel::kAvx512 && HasAvx512Dq()) {
      RecordSimdLevel(SimdLevel::kAvx512);
      return ConvertLoopAvx512<In, Out, kCheck>(in, out, n);
    }
  }
  if (ActiveSimdLevel() >= SimdLevel::kAvx2) {
    RecordSimdLevel(SimdLevel::kAvx2);
    return ConvertLoopAvx2<In, Out, kCheck>(in, out, n);
  }
#endif
  RecordSimdLevel(SimdLevel::kScalar);
  return ConvertLoop<In, Out, kCheck>(in, out, n);
}

template <typename In, typename Out>
Status CastTyped(const ArrayData& in, const DataType& to, Out* out, bool safe) {
  const In* v = in.GetValues<In>(1);
  const int64_t n = in.length;
  if constexpr (Check<In, Out>::kNeeded) {
    if (safe) {
      if (!RunConvert<In, Out, true>(v, out, n)) return Status::OK();
      const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
      for (int64_t i = 0; i < n; ++i) {
        if (validity != nullptr && !bit_util::GetBit(validity, in.offset + i)) continue;
        if (!Check<In, Out>::Ok(v[i], out[i])) return Check<In, Out>::Error(v[i], to);
      }
      return Status::OK();
    }
  }
  RunConvert<In, Out, false>(v, out, n);
  return Status::OK();
}

// Calls f(T{}) with T the C type of numeric type `id`, Half for float16.
template <typename F>
decltype(auto) VisitCastType(Type id, F&& f) {
  if (id == Type::kHalfFloat) return f(Half{});
  return VisitNumeric(id, std::forward<F>(f));
}

// bool to a number: 0 or 1 (float16 has no such cast in Arrow).
template <typename Out>
void BoolToNumber(const ArrayData& in, Out* out) {
  const uint8_t* bits = in.buffers[1]->data();
  for (int64_t i = 0; i < in.length; ++i) {
    out[i] = static_cast<Out>(bit_util::GetBit(bits, in.offset + i) ? 1 : 0);
  }
}

// A number to bool: not zero (NaN is true), 64 values to a word.
template <typename In>
void NumberToBool(const ArrayData& in, uint8_t* out) {
  const In* v = in.GetValues<In>(1);
  uint8_t bytes[64];
  for (int64_t base = 0; base < in.length; base += 64) {
    const int64_t m = std::min<int64_t>(64, in.length - base);
    for (int64_t j = 0; j < m; ++j) bytes[j] = v[base + j] != 0 ? 1 : 0;
    bitmap::PackBytes(bytes, m, out + base / 8);
  }
}

}  // namespace

bool IsTemporal(Type id) {
  switch (id) {
    case Type::kDate32:
    case Type::kDate64:
    case Type::kTime32:
    case Type::kTime64:
    case Type::kTimestamp:
    case Type::kDuration: return true;
    default: return false;
  }
}

Status CastNumericValues(const ArrayData& in, const DataType& to, void* out, bool safe) {
  for (Type id : {in.type->id(), to.id()}) {
    if (!IsNumeric(id) && id != Type::kHalfFloat) {
      return Status::NotImplemented("numeric cast from ", in.type->ToString(), " to ",
                                    to.ToString());
    }
  }
  return VisitCastType(in.type->id(), [&](auto in_tag) -> Status {
    using In = decltype(in_tag);
    return VisitCastType(to.id(), [&](auto out_tag) -> Status {
      using Out = decltype(out_tag);
      if constexpr (std::is_same_v<In, Out>) {
        if (in.length > 0) {
          std::memcpy(out, in.GetValues<In>(1), static_cast<size_t>(in.length) * sizeof(In));
        }
        return Status::OK();
      } else {
        return CastTyped<In, Out>(in, to, static_cast<Out*>(out), safe);
      }
    });
  });
}

bool IsNumericCastType(Type id) {
  return id == Type::kBool || id == Type::kHalfFloat || IsNumeric(id);
}

Result<ArrayDataPtr> CastNumericArray(const ArrayData& in, const TypePtr& to,
                                      const CastContext& ctx) {
  uint8_t* data = nullptr;
  std::shared_ptr<Buffer> values;
  if (to->id() == Type::kBool) {
    const int64_t nbytes = bit_util::BytesForBits(in.length);
    QUIVER_ASSIGN_OR_RAISE(values, AllocateExact(nbytes, ctx.pool, &data));
    if (!IsNumeric(in.type->id())) return UnsupportedCast(*in.type, *to);
    VisitNumeric(in.type->id(), [&](auto tag) { NumberToBool<decltype(tag)>(in, data); });
    return FixedWidthResult(in, to, std::move(values), ctx.pool);
  }
  QUIVER_ASSIGN_OR_RAISE(values, AllocateExact(in.length * FixedWidthBytes(*to), ctx.pool, &data));
  if (in.type->id() == Type::kBool) {
    if (!IsNumeric(to->id())) return UnsupportedCast(*in.type, *to);
    VisitNumeric(to->id(), [&](auto tag) {
      using Out = decltype(tag);
      BoolToNumber<Out>(in, reinterpret_cast<Out*>(data));
    });
  } else {
    QUIVER_RETURN_NOT_OK(CastNumericValues(in, *to, data, ctx.safe));
  }
  return FixedWidthResult(in, to, std::move(values), ctx.pool);
}

Result<Scalar> CastNumericScalar(const Scalar& in, const TypePtr& to, bool safe) {
  if (!in.is_valid()) return Scalar::MakeNull(to);
  // Through a one-row array over the scalar's value.
  alignas(8) uint8_t value[8] = {};
  alignas(8) uint8_t result[8] = {};
  const Type id = in.type()->id();
  if (id == Type::kHalfFloat) {
    const uint16_t bits = in.half_bits();
    std::memcpy(value, &bits, sizeof(bits));
  } else if (IsNumeric(id)) {
    VisitNumeric(id, [&](auto tag) {
      const auto v = ScalarValue<decltype(tag)>(in);
      std::memcpy(value, &v, sizeof(v));
    });
  } else {
    return Status::NotImplemented("numeric cast from ", in.type()->ToString(), " to ",
                                  to->ToString());
  }
  const ArrayData one(in.type(), 1, {nullptr, Buffer::Wrap(value, sizeof(value))}, 0);
  QUIVER_RETURN_NOT_OK(CastNumericValues(one, *to, result, safe));
  const ArrayData out(to, 1, {nullptr, Buffer::Wrap(result, sizeof(result))}, 0);
  return ScalarFromArray(out, 0);
}

}  // namespace quiver::compute::internal
