#include "quiver/compute/cast_numeric_internal.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "quiver/util/bit_util.h"

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

template <typename In, typename Out>
constexpr bool NeedsCheck() {
  if constexpr (std::is_floating_point_v<Out>) {
    return std::numeric_limits<In>::digits > std::numeric_limits<Out>::digits;
  } else if constexpr (std::is_integral_v<In>) {
    return !(std::in_range<Out>(std::numeric_limits<In>::min()) &&
             std::in_range<Out>(std::numeric_limits<In>::max()));
  } else {
    return true;
  }
}

// The range of In values that convert to Out exactly (Out an integer: its
// range; Out a float: +-2^digits). `checked` false when every In value
// fits.
template <typename In, typename Out>
struct SafeRange {
  static constexpr bool kOutFloat = std::is_floating_point_v<Out>;
  static constexpr bool checked = NeedsCheck<In, Out>();
  static bool Fits(In v) {
    if constexpr (kOutFloat) {
      constexpr uint64_t limit = uint64_t{1} << std::numeric_limits<Out>::digits;
      if constexpr (std::is_signed_v<In>) {
        return v >= -static_cast<int64_t>(limit) && v <= static_cast<int64_t>(limit);
      } else {
        return static_cast<uint64_t>(v) <= limit;
      }
    } else {
      return std::in_range<Out>(v);
    }
  }
  static Status Error(In v) {
    if constexpr (kOutFloat) {
      constexpr uint64_t limit = uint64_t{1} << std::numeric_limits<Out>::digits;
      if constexpr (std::is_signed_v<In>) {
        return Status::Invalid("Integer value ", Printable(v), " not in range: -", limit, " to ",
                               limit);
      } else {
        return Status::Invalid("Integer value ", Printable(v), " not in range: 0 to ", limit);
      }
    } else {
      // The bounds shown are the target's range clipped to the source
      // type's (Arrow prints "0 to 9223372036854775807" for uint64 to int64).
      using Wide = std::conditional_t<std::is_signed_v<In> || std::is_signed_v<Out>, int64_t, uint64_t>;
      const auto lo = std::max(static_cast<__int128>(std::numeric_limits<Out>::min()),
                               static_cast<__int128>(std::numeric_limits<In>::min()));
      const auto hi = std::min(static_cast<__int128>(std::numeric_limits<Out>::max()),
                               static_cast<__int128>(std::numeric_limits<In>::max()));
      return Status::Invalid("Integer value ", Printable(v), " not in range: ",
                             static_cast<Wide>(lo), " to ", static_cast<Wide>(hi));
    }
  }
};

template <typename In, typename Out>
Status CastLoop(const ArrayData& in, Out* out) {
  const In* v = in.GetValues<In>(1);
  const int64_t n = in.length;
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<Out>(v[i]);
  if constexpr (std::is_integral_v<In> && SafeRange<In, Out>::checked) {
    bool bad = false;
    for (int64_t i = 0; i < n; ++i) bad |= !SafeRange<In, Out>::Fits(v[i]);
    if (!bad) return Status::OK();
    const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
    for (int64_t i = 0; i < n; ++i) {
      if (validity != nullptr && !bit_util::GetBit(validity, in.offset + i)) continue;
      if (!SafeRange<In, Out>::Fits(v[i])) return SafeRange<In, Out>::Error(v[i]);
    }
  }
  return Status::OK();
}

template <typename In, typename Out>
constexpr bool kSupported =
    std::is_integral_v<In> || (std::is_floating_point_v<Out> && sizeof(Out) >= sizeof(In));

// Nanoseconds per unit step of a temporal type (date32: a day).
int64_t NanosPerTick(const DataType& type) {
  switch (type.id()) {
    case Type::kDate32: return int64_t{86400} * 1000000000;
    case Type::kDate64: return 1000000;
    default:
      switch (TypeAs<TemporalType>(type).unit()) {
        case TimeUnit::kSecond: return 1000000000;
        case TimeUnit::kMilli: return 1000000;
        case TimeUnit::kMicro: return 1000;
        case TimeUnit::kNano: return 1;
      }
  }
  return 1;
}

bool Is32BitTemporal(Type id) { return id == Type::kDate32 || id == Type::kTime32; }

Result<int64_t> TemporalFactor(const DataType& from, const DataType& to) {
  // A duration is no point in time (and the other way round): Arrow has no
  // such cast.
  if ((from.id() == Type::kDuration) != (to.id() == Type::kDuration)) {
    const std::string to_name(to.name());
    return Status::NotImplemented("Unsupported cast from ", from.ToString(), " to ", to_name,
                                  " using function cast_", to_name);
  }
  const int64_t a = NanosPerTick(from);
  const int64_t b = NanosPerTick(to);
  if (a < b || a % b != 0) {
    return Status::NotImplemented("cast from ", from.ToString(), " to ", to.ToString(),
                                  " to a coarser unit");
  }
  return a / b;
}

Status TemporalOverflow(const DataType& from, const DataType& to, int64_t v) {
  return Status::Invalid("Casting from ", from.ToString(), " to ", to.ToString(),
                         " would result in out of bounds timestamp: ", v);
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

Status CastNumericValues(const ArrayData& in, const DataType& to, void* out) {
  return VisitNumeric(in.type->id(), [&](auto in_tag) -> Status {
    using In = decltype(in_tag);
    return VisitNumeric(to.id(), [&](auto out_tag) -> Status {
      using Out = decltype(out_tag);
      if constexpr (kSupported<In, Out>) {
        return CastLoop<In, Out>(in, static_cast<Out*>(out));
      } else {
        return Status::NotImplemented("cast from ", in.type->ToString(), " to ", to.ToString());
      }
    });
  });
}

Result<Scalar> CastNumericScalar(const Scalar& in, const TypePtr& to) {
  if (!in.is_valid()) return Scalar::MakeNull(to);
  return VisitNumeric(in.type()->id(), [&](auto in_tag) -> Result<Scalar> {
    using In = decltype(in_tag);
    const In v = ScalarValue<In>(in);
    return VisitNumeric(to->id(), [&](auto out_tag) -> Result<Scalar> {
      using Out = decltype(out_tag);
      if constexpr (kSupported<In, Out>) {
        if constexpr (std::is_integral_v<In> && SafeRange<In, Out>::checked) {
          if (!SafeRange<In, Out>::Fits(v)) return SafeRange<In, Out>::Error(v);
        }
        return MakeValueScalar<Out>(to, static_cast<Out>(v));
      } else {
        return Status::NotImplemented("cast from ", in.type()->ToString(), " to ",
                                      to->ToString());
      }
    });
  });
}

Status CastTemporalValues(const ArrayData& in, const DataType& to, void* out) {
  QUIVER_ASSIGN_OR_RAISE(const int64_t factor, TemporalFactor(*in.type, to));
  const int64_t n = in.length;
  const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
  const bool in32 = Is32BitTemporal(in.type->id());
  const bool out32 = Is32BitTemporal(to.id());
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = in32 ? in.GetValues<int32_t>(1)[i] : in.GetValues<int64_t>(1)[i];
    int64_t r;
    if (__builtin_mul_overflow(v, factor, &r)) {
      if (validity == nullptr || bit_util::GetBit(validity, in.offset + i)) {
        return TemporalOverflow(*in.type, to, v);
      }
      r = 0;
    }
    if (out32) {
      static_cast<int32_t*>(out)[i] = static_cast<int32_t>(r);
    } else {
      static_cast<int64_t*>(out)[i] = r;
    }
  }
  return Status::OK();
}

Result<Scalar> CastTemporalScalar(const Scalar& in, const TypePtr& to) {
  if (!in.is_valid()) return Scalar::MakeNull(to);
  QUIVER_ASSIGN_OR_RAISE(const int64_t factor, TemporalFactor(*in.type(), *to));
  int64_t r;
  if (__builtin_mul_overflow(in.int_value(), factor, &r)) {
    return TemporalOverflow(*in.type(), *to, in.int_value());
  }
  return Scalar::MakeInt(to, r);
}

Result<Scalar> ScalarFromArray(const ArrayData& array, int64_t i) {
  const TypePtr& type = array.type;
  if (!array.IsValid(i)) return Scalar::MakeNull(type);
  const Type id = type->id();
  if (id == Type::kBool) {
    return Scalar::MakeBool(bit_util::GetBit(array.buffers[1]->data(), array.offset + i));
  }
  if (IsNumeric(id)) {
    return VisitNumeric(id, [&](auto tag) -> Result<Scalar> {
      using T = decltype(tag);
      return MakeValueScalar<T>(type, array.GetValues<T>(1)[i]);
    });
  }
  if (IsTemporal(id)) {
    const int64_t v = Is32BitTemporal(id) ? array.GetValues<int32_t>(1)[i]
                                          : array.GetValues<int64_t>(1)[i];
    return Scalar::MakeInt(type, v);
  }
  switch (id) {
    case Type::kHalfFloat: return Scalar::MakeHalfFloat(array.GetValues<uint16_t>(1)[i]);
    case Type::kDecimal32:
    case Type::kDecimal64:
    case Type::kDecimal128:
    case Type::kDecimal256: {
      const int64_t width = FixedWidthBytes(*type);
      const uint8_t* p = array.buffers[1]->data() + (array.offset + i) * width;
      Int256 v;
      uint8_t bytes[32];
      std::memcpy(bytes, p, static_cast<size_t>(width));
      const uint8_t fill = (p[width - 1] & 0x80) != 0 ? 0xFF : 0x00;
      std::memset(bytes + width, fill, static_cast<size_t>(32 - width));
      for (int w = 0; w < 4; ++w) v.words[static_cast<size_t>(w)] = bit_util::LoadLE64(bytes + 8 * w);
      return Scalar::MakeDecimal(type, v);
    }
    case Type::kString:
    case Type::kBinary: {
      const int32_t* o = array.GetValues<int32_t>(1);
      const auto* d = reinterpret_cast<const char*>(array.buffers[2]->data());
      return Scalar::MakeBytes(type, std::string(d + o[i], static_cast<size_t>(o[i + 1] - o[i])));
    }
    case Type::kLargeString:
    case Type::kLargeBinary: {
      const int64_t* o = array.GetValues<int64_t>(1);
      const auto* d = reinterpret_cast<const char*>(array.buffers[2]->data());
      return Scalar::MakeBytes(type, std::string(d + o[i], static_cast<size_t>(o[i + 1] - o[i])));
    }
    case Type::kFixedSizeBinary: {
      const int64_t w = TypeAs<FixedSizeBinaryType>(*type).fixed_byte_width();
      const auto* d = reinterpret_cast<const char*>(array.buffers[1]->data());
      return Scalar::MakeBytes(type, std::string(d + (array.offset + i) * w, static_cast<size_t>(w)));
    }
    default:
      return Status::NotImplemented("no scalar of type ", type->ToString());
  }
}

}  // namespace quiver::compute::internal
