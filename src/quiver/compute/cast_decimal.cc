// Decimal casts: decimal32/64/128/256 among each other, integers to
// decimals and decimals to integers, as Arrow C++'s scalar_cast_numeric.cc
// (measured against pyarrow 26). Unscaled values are computed in 256-bit
// two's complement (enough for decimal256's 76 digits), wrapped to the
// width Arrow computes in:
//  - decimal to decimal: the unscaled value rescaled by 10^(out scale -
//    in scale), in the wider of the two widths, checked, then kept to the
//    target's low bytes; towards decimal32, Arrow keeps the value's low 4
//    bytes first and rescales in 32 bits (measured: decimal64 1234567800000
//    at scale 5 to decimal32(7, 3) is a rescaling error, decimal128
//    12345678901234500000 at scale 5 to decimal64(15, 4) a precision one). Down: divided, truncated toward zero; under
//    `safe` a remainder is Invalid "Rescaling Decimal value would cause
//    data loss". Up: multiplied (wrapping); under `safe` a product that
//    wrapped to the wrong side of the value (Arrow's test) is that error
//    too. Then, under `safe`, Invalid
//    "Decimal value does not fit in precision P" when it has more digits
//    than the target's precision. Unsafe: unchecked. As in Arrow, towards
//    decimal32 the precision check sees the wrapped value: decimal128
//    4294967297 cast to decimal32(9, 0) is 1, even under `safe` (pyarrow 26
//    gives 1). Past the width's largest multiplier (10^9, 10^18, 10^38,
//    10^76) an upscale gives 0, a loss for any value but 0, as Arrow's; a
//    downscale is exact there (Arrow's is not consistent; see Rescale).
//  Every row is converted; the error names the last failing row, as
//  Arrow's kernels do (pyarrow: 300 then 1.5 to int8 is the rescaling
//  error, 1.5 then 300 the bounds error).
//  - integer to decimal: a check of the types, safe or not: a negative
//    scale is Invalid "Scale must be non-negative", a precision below the
//    integer type's digits + scale is Invalid "Precision is not great
//    enough for the result. It should be at least N" (even when every
//    value is null); then each value times 10^scale, exact.
//  - decimal to integer: rescaled to scale 0 as above (in the decimal's
//    width; the same "Rescaling ..." error under `safe`), then under
//    `safe` a value outside the integer type is Invalid "Integer value out
//    of bounds"; unsafe, its low bits. Arrow compares with the integer
//    type's bounds converted to the decimal's width, wrapped when they do
//    not fit, and so refuses every value of decimal32 to int64, uint64 and
//    uint32 and of decimal64 to uint64, and negative decimal128 values to
//    uint32 / uint64 alike (pyarrow 26, measured); Quiver gives the same.
#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include "quiver/compute/cast_internal.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::compute::internal {

namespace {

// A 256-bit two's complement integer, words least significant first.
struct I256 {
  uint64_t w[4] = {0, 0, 0, 0};

  // `width` little-endian bytes, sign-extended.
  static I256 Load(const uint8_t* p, int64_t width) {
    uint8_t bytes[32];
    std::memcpy(bytes, p, static_cast<size_t>(width));
    std::memset(bytes + width, (p[width - 1] & 0x80) != 0 ? 0xFF : 0x00,
                static_cast<size_t>(32 - width));
    I256 v;
    std::memcpy(v.w, bytes, 32);
    return v;
  }
  static I256 FromInt(int64_t x) {
    I256 v;
    v.w[0] = static_cast<uint64_t>(x);
    const uint64_t fill = x < 0 ? ~uint64_t{0} : 0;
    v.w[1] = v.w[2] = v.w[3] = fill;
    return v;
  }
  static I256 FromUInt(uint64_t x) {
    I256 v;
    v.w[0] = x;
    return v;
  }
  // The low `width` bytes.
  void Store(uint8_t* p, int64_t width) const { std::memcpy(p, w, static_cast<size_t>(width)); }
  // Wrapped to `width` bytes (sign-extended back to 256 bits).
  I256 Wrap(int64_t width) const {
    uint8_t bytes[32];
    Store(bytes, width);
    return Load(bytes, width);
  }
  bool Negative() const { return (w[3] >> 63) != 0; }
  I256 Negated() const {
    I256 r;
    unsigned carry = 1;
    for (int k = 0; k < 4; ++k) {
      r.w[k] = ~w[k] + carry;
      carry = carry != 0 && r.w[k] == 0 ? 1 : 0;
    }
    return r;
  }
  I256 Abs() const { return Negative() ? Negated() : *this; }
  // Times m, modulo 2^256.
  void MulSmall(uint64_t m) {
    unsigned __int128 carry = 0;
    for (uint64_t& x : w) {
      const unsigned __int128 p = static_cast<unsigned __int128>(x) * m + carry;
      x = static_cast<uint64_t>(p);
      carry = p >> 64;
    }
  }
  // An unsigned value divided by d in place; returns the remainder.
  uint64_t DivSmallUnsigned(uint64_t d) {
    unsigned __int128 rem = 0;
    for (int k = 3; k >= 0; --k) {
      const unsigned __int128 cur = (rem << 64) | w[k];
      w[k] = static_cast<uint64_t>(cur / d);
      rem = cur % d;
    }
    return static_cast<uint64_t>(rem);
  }
  bool UnsignedLess(const I256& o) const {
    for (int k = 3; k >= 0; --k) {
      if (w[k] != o.w[k]) return w[k] < o.w[k];
    }
    return false;
  }
  bool Less(const I256& o) const {
    if (Negative() != o.Negative()) return Negative();
    return UnsignedLess(o);
  }
  bool operator==(const I256& o) const { return std::memcmp(w, o.w, sizeof(w)) == 0; }
};

// 10^p as an unsigned 256-bit value (p <= 77).
I256 Pow10(int p) {
  I256 m = I256::FromUInt(1);
  for (int k = 0; k < p; ++k) m.MulSmall(10);
  return m;
}

// Decimal digits of an integer type's widest value (Arrow's
// MaxDecimalDigitsForInteger).
int32_t IntegerDigits(Type id) {
  return VisitNumeric(id, [](auto tag) { return std::numeric_limits<decltype(tag)>::digits10 + 1; });
}

Status DataLoss() { return Status::Invalid("Rescaling Decimal value would cause data loss"); }

// v rescaled by `delta` decimal digits (up when positive) in `width`
// bytes, as Arrow's Decimal::Rescale; *loss says whether it lost data
// (a remainder, or a product that wrapped past the value).
I256 Rescale(const I256& v, int32_t delta, int64_t width, bool* loss) {
  *loss = false;
  if (delta == 0) return v;
  // Arrow's multipliers stop at the width's digits (9, 18, 38, 76): past
  // them an upscale gives 0, a loss unless the value is 0 (measured). A
  // downscale past them is exact here; Arrow's result there is not
  // consistent (pyarrow 26: 1.5 at scale 10 to decimal32(1, 0) is 0 even
  // safe, at scale 38 a rescaling error), so Quiver does not copy it.
  const int32_t max_digits = width == 4 ? 9 : width == 8 ? 18 : width == 16 ? 38 : 76;
  if (delta < 0) {
    I256 m = v.Abs();
    for (int32_t k = 0; k < -delta; ++k) {
      if (m.DivSmallUnsigned(10) != 0) *loss = true;
    }
    return v.Negative() ? m.Negated() : m;
  }
  if (delta > max_digits) {
    *loss = !(v == I256{});
    return I256{};
  }
  I256 r = v;
  for (int32_t k = 0; k < delta; ++k) r.MulSmall(10);
  r = r.Wrap(width);
  *loss = v.Negative() ? v.Less(r) : r.Less(v);
  return r;
}

// Each valid row of `in` through f(i, slot) -> Status into a fixed-width
// result of `to` (null slots zeroed). Every row is converted and the last
// error is the result's, as Arrow's kernels report it.
template <typename F>
Result<ArrayDataPtr> MapRows(const ArrayData& in, const TypePtr& to, MemoryPool* pool, F&& f) {
  const int64_t n = in.length;
  const int64_t width = FixedWidthBytes(*to);
  uint8_t* out = nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto values, AllocateExact(n * width, pool, &out));
  const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
  Status last_error;
  for (int64_t i = 0; i < n; ++i) {
    uint8_t* slot = out + i * width;
    if (validity != nullptr && !bit_util::GetBit(validity, in.offset + i)) {
      std::memset(slot, 0, static_cast<size_t>(width));
      continue;
    }
    Status st = f(i, slot);
    if (!st.ok()) last_error = std::move(st);
  }
  QUIVER_RETURN_NOT_OK(last_error);
  return FixedWidthResult(in, to, std::move(values), pool);
}

Result<ArrayDataPtr> DecimalToDecimal(const ArrayData& in, const TypePtr& to, bool safe,
                                      MemoryPool* pool) {
  const auto& from_type = TypeAs<DecimalType>(*in.type);
  const auto& to_type = TypeAs<DecimalType>(*to);
  const int64_t in_width = FixedWidthBytes(*in.type);
  const int64_t out_width = FixedWidthBytes(*to);
  // The width Arrow rescales in (see the top of this file).
  const int64_t width = out_width == 4 ? 4 : std::max(in_width, out_width);
  const int32_t delta = to_type.scale() - from_type.scale();
  const I256 limit = Pow10(to_type.precision());
  const uint8_t* values = in.buffers[1]->data() + in.offset * in_width;
  return MapRows(in, to, pool, [&](int64_t i, uint8_t* slot) -> Status {
    I256 v = I256::Load(values + i * in_width, in_width);
    if (out_width == 4) v = v.Wrap(out_width);
    bool loss = false;
    const I256 r = Rescale(v, delta, width, &loss);  // checked before it is narrowed
    r.Store(slot, out_width);
    if (!safe) return Status::OK();
    if (loss) return DataLoss();
    if (!r.Abs().UnsignedLess(limit)) {
      return Status::Invalid("Decimal value does not fit in precision ", to_type.precision());
    }
    return Status::OK();
  });
}

Result<ArrayDataPtr> IntegerToDecimal(const ArrayData& in, const TypePtr& to, MemoryPool* pool) {
  const Type from = in.type->id();
  const auto& to_type = TypeAs<DecimalType>(*to);
  if (to_type.scale() < 0) return Status::Invalid("Scale must be non-negative");
  const int32_t need = IntegerDigits(from) + to_type.scale();
  if (to_type.precision() < need) {
    return Status::Invalid("Precision is not great enough for the result. It should be at least ",
                           need);
  }
  const int64_t out_width = FixedWidthBytes(*to);
  return VisitNumeric(from, [&](auto tag) -> Result<ArrayDataPtr> {
    using In = decltype(tag);
    const In* values = in.GetValues<In>(1);
    return MapRows(in, to, pool, [&](int64_t i, uint8_t* slot) -> Status {
      I256 r = std::is_signed_v<In> ? I256::FromInt(static_cast<int64_t>(values[i]))
                                    : I256::FromUInt(static_cast<uint64_t>(values[i]));
      // Times 10^scale: the precision check above keeps it in range.
      for (int32_t k = 0; k < to_type.scale(); ++k) r.MulSmall(10);
      r.Store(slot, out_width);
      return Status::OK();
    });
  });
}

Result<ArrayDataPtr> DecimalToInteger(const ArrayData& in, const TypePtr& to, bool safe,
                                      MemoryPool* pool) {
  const auto& from_type = TypeAs<DecimalType>(*in.type);
  const int64_t in_width = FixedWidthBytes(*in.type);
  const uint8_t* values = in.buffers[1]->data() + in.offset * in_width;
  return VisitNumeric(to->id(), [&](auto tag) -> Result<ArrayDataPtr> {
    using Out = decltype(tag);
    // The bounds as Arrow compares them: converted to the decimal's width
    // (so wrapped when the integer type is wider; see the top of this file).
    const I256 lo = (std::is_signed_v<Out>
                         ? I256::FromInt(static_cast<int64_t>(std::numeric_limits<Out>::min()))
                         : I256::FromUInt(0))
                        .Wrap(in_width);
    const I256 hi =
        I256::FromUInt(static_cast<uint64_t>(std::numeric_limits<Out>::max())).Wrap(in_width);
    return MapRows(in, to, pool, [&](int64_t i, uint8_t* slot) -> Status {
      bool loss = false;
      const I256 r = Rescale(I256::Load(values + i * in_width, in_width), -from_type.scale(),
                             in_width, &loss);
      if (safe) {
        if (loss) return DataLoss();
        if (r.Less(lo) || hi.Less(r)) return Status::Invalid("Integer value out of bounds");
      }
      const Out v = static_cast<Out>(r.w[0]);  // the low bits
      std::memcpy(slot, &v, sizeof(Out));
      return Status::OK();
    });
  });
}

}  // namespace

bool DecimalCastSupported(const DataType& from, const DataType& to) {
  const Type f = from.id();
  const Type t = to.id();
  return (IsDecimal(f) && IsDecimal(t)) || (IsInteger(f) && IsDecimal(t)) ||
         (IsDecimal(f) && IsInteger(t));
}

Result<ArrayDataPtr> CastDecimalArray(const ArrayData& in, const TypePtr& to,
                                      const CastContext& ctx) {
  const Type f = in.type->id();
  const Type t = to->id();
  if (!DecimalCastSupported(*in.type, *to)) return UnsupportedCast(*in.type, *to);
  if (IsDecimal(f) && IsDecimal(t)) return DecimalToDecimal(in, to, ctx.safe, ctx.pool);
  if (IsDecimal(t)) return IntegerToDecimal(in, to, ctx.pool);
  return DecimalToInteger(in, to, ctx.safe, ctx.pool);
}

}  // namespace quiver::compute::internal
