// Decimals of different scales, or a decimal against an integer, compared
// as pyarrow does it (Arrow C++ CastDecimalArgs): both sides at the larger
// scale, in a precision holding both (an integer counts as many digits as
// its type can hold). Here every value becomes a 256-bit integer at that
// scale, so one comparison loop (CompareKind::kDecimal256) serves all the
// widths.
#include <algorithm>
#include <array>
#include <cstring>

#include "quiver/compute/arithmetic_internal.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/compute/compare_internal.h"

namespace quiver::compute::internal {

int32_t IntegerDigits(Type id) {
  switch (id) {
    case Type::kInt8:
    case Type::kUInt8: return 3;
    case Type::kInt16:
    case Type::kUInt16: return 5;
    case Type::kInt32:
    case Type::kUInt32: return 10;
    case Type::kInt64: return 19;
    default: return 20;  // uint64
  }
}

namespace {

using Words = std::array<uint64_t, 4>;

// w * m modulo 2^256 (two's complement: right for negative w too).
void MultiplyBy(Words* w, uint64_t m) {
  unsigned __int128 carry = 0;
  for (auto& word : *w) {
    const unsigned __int128 p = static_cast<unsigned __int128>(word) * m + carry;
    word = static_cast<uint64_t>(p);
    carry = p >> 64;
  }
}

void ScaleUp(Words* w, int32_t digits) {
  for (; digits >= 19; digits -= 19) MultiplyBy(w, 10000000000000000000ULL);
  uint64_t rest = 1;
  for (int32_t i = 0; i < digits; ++i) rest *= 10;
  if (rest != 1) MultiplyBy(w, rest);
}

Words SignExtend(const uint8_t* p, int64_t width) {
  uint8_t bytes[32];
  std::memcpy(bytes, p, static_cast<size_t>(width));
  std::memset(bytes + width, (p[width - 1] & 0x80) != 0 ? 0xFF : 0x00,
              static_cast<size_t>(32 - width));
  Words w;
  std::memcpy(w.data(), bytes, 32);
  return w;
}

Words FromInt(int64_t v) {
  const auto u = static_cast<uint64_t>(v);
  const uint64_t fill = v < 0 ? ~uint64_t{0} : 0;
  return Words{u, fill, fill, fill};
}

int32_t ScaleOf(const DataType& t) { return IsDecimal(t.id()) ? TypeAs<DecimalType>(t).scale() : 0; }

int32_t PrecisionOf(const DataType& t) {
  return IsDecimal(t.id()) ? TypeAs<DecimalType>(t).precision() : IntegerDigits(t.id());
}

}  // namespace

Result<int32_t> CommonDecimalScale(const DataType& a, const DataType& b) {
  const int32_t scale = std::max(ScaleOf(a), ScaleOf(b));
  int32_t precision = 0;
  for (const DataType* t : {&a, &b}) {
    precision = std::max(precision, PrecisionOf(*t) + scale - ScaleOf(*t));
  }
  // pyarrow casts both to decimal128 unless one is decimal256, and refuses
  // a precision that type cannot hold.
  const bool wide = a.id() == Type::kDecimal256 || b.id() == Type::kDecimal256;
  const int32_t max_precision = wide ? 76 : 38;
  if (precision > max_precision) {
    return Status::Invalid("Decimal precision out of range [1, ", max_precision, "]: ", precision);
  }
  return scale;
}

Status PrepareDecimal256(const Datum& arg, int32_t scale, Values* out, MemoryPool* pool) {
  const DataType& type = *arg.type();
  const int32_t up = scale - ScaleOf(type);
  const bool decimal = IsDecimal(type.id());
  if (arg.is_scalar()) {
    out->data = out->storage;
    const Scalar& s = arg.scalar();
    if (!s.is_valid()) return Status::OK();
    Words w = decimal ? s.decimal().words
                      : (IsSignedInteger(type.id()) ? FromInt(s.int_value())
                                                    : Words{s.uint_value(), 0, 0, 0});
    ScaleUp(&w, up);
    std::memcpy(out->storage, w.data(), 32);
    return Status::OK();
  }
  const ArrayData& a = *arg.array();
  const int64_t n = a.length;
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer buffer, AllocateOutput(n * 32, pool));
  uint8_t* dest = buffer.data();
  if (decimal) {
    const int64_t width = FixedWidthBytes(type);
    const uint8_t* src = a.buffers[1]->data() + a.offset * width;
    for (int64_t i = 0; i < n; ++i) {
      Words w = SignExtend(src + i * width, width);
      ScaleUp(&w, up);
      std::memcpy(dest + 32 * i, w.data(), 32);
    }
  } else {
    VisitNumeric(type.id(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_integral_v<T>) {
        const T* src = a.GetValues<T>(1);
        for (int64_t i = 0; i < n; ++i) {
          Words w = std::is_signed_v<T> ? FromInt(static_cast<int64_t>(src[i]))
                                        : Words{static_cast<uint64_t>(src[i]), 0, 0, 0};
          ScaleUp(&w, up);
          std::memcpy(dest + 32 * i, w.data(), 32);
        }
      }
    });
  }
  out->owned = buffer.Freeze();
  out->data = out->owned->data();
  return Status::OK();
}

}  // namespace quiver::compute::internal
