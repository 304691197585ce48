// Arithmetic kernels (see arithmetic.h). The common type is found first
// (CommonNumeric), both arguments are brought to it (PrepareValues), then
// one loop per (type, op, shape) runs: array-array, array-scalar,
// scalar-array as template flags, so the scalar is a register broadcast.
// Plain integer ops run on the unsigned type of the same width (wrapping
// is then defined), floats as IEEE; ops that can fail (checked ones,
// integer division) visit valid rows only and keep the error of the last
// failing one (Arrow's ScalarBinaryNotNull kernels overwrite their status
// the same way).
#include "quiver/compute/arithmetic.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "quiver/compute/arithmetic_internal.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/compute/simd_level.h"
#include "quiver/compute/type_promotion.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute {

namespace {

using internal::Values;

// The type plain integer arithmetic runs in: unsigned, at least 32 bits
// (uint16 * uint16 would promote to a signed int and could overflow it).
template <typename T, typename = void>
struct Wide {
  using type = T;
};
template <typename T>
struct Wide<T, std::enable_if_t<std::is_integral_v<T>>> {
  using type = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;
};
template <typename T>
using WideT = typename Wide<T>::type;

struct AddOp {
  template <typename T>
  static T Plain(T a, T b) {
    return static_cast<T>(static_cast<WideT<T>>(a) + static_cast<WideT<T>>(b));
  }
  template <typename T>
  static int Checked(T a, T b, T* out) {
    return __builtin_add_overflow(a, b, out) ? 1 : 0;
  }
};

struct SubtractOp {
  template <typename T>
  static T Plain(T a, T b) {
    return static_cast<T>(static_cast<WideT<T>>(a) - static_cast<WideT<T>>(b));
  }
  template <typename T>
  static int Checked(T a, T b, T* out) {
    return __builtin_sub_overflow(a, b, out) ? 1 : 0;
  }
};

struct MultiplyOp {
  template <typename T>
  static T Plain(T a, T b) {
    return static_cast<T>(static_cast<WideT<T>>(a) * static_cast<WideT<T>>(b));
  }
  template <typename T>
  static int Checked(T a, T b, T* out) {
    return __builtin_mul_overflow(a, b, out) ? 1 : 0;
  }
};

// Error codes of the failing ops: 1 overflow, 2 divide by zero.
constexpr int kOverflow = 1;
constexpr int kDivideByZero = 2;

// Float division (plain): IEEE.
struct FloatDivideOp {
  template <typename T>
  static T Plain(T a, T b) {
    return a / b;
  }
};

// Integer division of values of at most 32 bits by a divisor other than 0
// and -1, through doubles (see DivideByScalar).
struct ExactDoubleDivideOp {
  template <typename T>
  static T Plain(T a, T b) {
    return static_cast<T>(static_cast<double>(a) / static_cast<double>(b));
  }
};

// Integer `divide`: zero divisor fails, INT_MIN / -1 is 0.
struct IntDivideOp {
  template <typename T>
  static int Checked(T a, T b, T* out) {
    if (b == 0) {
      *out = 0;
      return kDivideByZero;
    }
    if constexpr (std::is_signed_v<T>) {
      if (a == std::numeric_limits<T>::min() && b == -1) {
        *out = 0;
        return 0;
      }
    }
    *out = static_cast<T>(a / b);
    return 0;
  }
};

// `divide_checked`: zero divisor fails (floats too), INT_MIN / -1
// overflows.
struct DivideCheckedOp {
  template <typename T>
  static int Checked(T a, T b, T* out) {
    if (b == 0) {
      *out = 0;
      return kDivideByZero;
    }
    if constexpr (std::is_signed_v<T> && std::is_integral_v<T>) {
      if (a == std::numeric_limits<T>::min() && b == -1) {
        *out = 0;
        return kOverflow;
      }
    }
    *out = static_cast<T>(a / b);
    return 0;
  }
};

// Element i of an argument: the scalar's only value when it is broadcast.
template <bool kScalar, typename T>
inline T At(const T* v, int64_t i) {
  return v[kScalar ? 0 : i];
}

template <typename T, typename Op, bool LS, bool RS>
void PlainLoop(const T* __restrict l, const T* __restrict r, T* __restrict out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = Op::Plain(At<LS>(l, i), At<RS>(r, i));
}

#if defined(__x86_64__)
// The same loop compiled for AVX2 (the compiler vectorises it 256 bits
// wide); called only when ActiveSimdLevel() allows AVX2.
template <typename T, typename Op, bool LS, bool RS>
__attribute__((target("avx2"))) void PlainLoopAvx2(const T* __restrict l, const T* __restrict r,
                                                  T* __restrict out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = Op::Plain(At<LS>(l, i), At<RS>(r, i));
}
#endif

template <typename T, typename Op, bool LS, bool RS>
void RunPlain(const T* l, const T* r, T* out, int64_t n) {
#if defined(__x86_64__)
  if (ActiveSimdLevel() >= SimdLevel::kAvx2) {
    PlainLoopAvx2<T, Op, LS, RS>(l, r, out, n);
    RecordSimdLevel(SimdLevel::kAvx2);
    return;
  }
#endif
  PlainLoop<T, Op, LS, RS>(l, r, out, n);
  RecordSimdLevel(SimdLevel::kScalar);
}

// Ops that can fail; only valid rows' failures count (`valid`: the
// result's validity at offset 0, or null when every row is valid). Every
// row is computed (the ops never trap: a zero divisor is tested before
// dividing), 64 at a time with their error codes as bytes; a block without
// any error (the common case) costs one OR over them, and only a block
// with one looks at the validity, for the last failing valid row. Returns
// that row's error code (0: none).
template <typename T, typename Op, bool LS, bool RS>
int CheckedLoop(const T* l, const T* r, T* out, int64_t n, const uint8_t* valid) {
  int last = 0;
  for (int64_t base = 0; base < n; base += 64) {
    const int m = n - base < 64 ? static_cast<int>(n - base) : 64;
    uint8_t errors[64];
    uint8_t any = 0;
    for (int j = 0; j < m; ++j) {
      const int64_t i = base + j;
      errors[j] = static_cast<uint8_t>(Op::Checked(At<LS>(l, i), At<RS>(r, i), out + i));
      any |= errors[j];
    }
    if (any == 0) continue;
    for (int j = 0; j < m; ++j) {
      if (errors[j] != 0 && (valid == nullptr || bit_util::GetBit(valid, base + j))) {
        last = errors[j];
      }
    }
  }
  RecordSimdLevel(SimdLevel::kScalar);
  return last;
}

enum class Shape { kArrayArray, kArrayScalar, kScalarArray };

template <typename T, typename Op>
void DispatchPlain(Shape shape, const T* l, const T* r, T* out, int64_t n) {
  switch (shape) {
    case Shape::kArrayArray: return RunPlain<T, Op, false, false>(l, r, out, n);
    case Shape::kArrayScalar: return RunPlain<T, Op, false, true>(l, r, out, n);
    case Shape::kScalarArray: return RunPlain<T, Op, true, false>(l, r, out, n);
  }
}

template <typename T, typename Op>
int DispatchChecked(Shape shape, const T* l, const T* r, T* out, int64_t n,
                    const uint8_t* valid) {
  switch (shape) {
    case Shape::kArrayArray: return CheckedLoop<T, Op, false, false>(l, r, out, n, valid);
    case Shape::kArrayScalar: return CheckedLoop<T, Op, false, true>(l, r, out, n, valid);
    case Shape::kScalarArray: return CheckedLoop<T, Op, true, false>(l, r, out, n, valid);
  }
  return 0;
}

// Integer division by a scalar: the divisor is tested once, then the loop
// divides without a check per row. A zero divisor fails when any row is
// valid; -1 (INT_MIN / -1) takes the row-by-row loop.
template <typename T, typename Op>
int DivideByScalar(const T* l, T divisor, T* out, int64_t n, const uint8_t* valid) {
  if (divisor == 0) {
    std::memset(out, 0, static_cast<size_t>(n) * sizeof(T));
    const bool any_valid = n > 0 && (valid == nullptr || bitmap::CountSetBits(valid, 0, n) > 0);
    return any_valid ? kDivideByZero : 0;
  }
  if constexpr (std::is_signed_v<T>) {
    if (divisor == -1) return CheckedLoop<T, Op, false, true>(l, &divisor, out, n, valid);
  }
  if constexpr (sizeof(T) <= 4) {
    // Through doubles, which vectorise: for |a|, |b| < 2^32 the quotient's
    // rounding error (< |a| / |b| * 2^-53) is below its distance to the
    // next integer (>= 1 / |b| when inexact), so truncation is exact. Null
    // rows are divided too (any value / divisor fits T).
    RunPlain<T, ExactDoubleDivideOp, false, true>(l, &divisor, out, n);
    return 0;
  }
  if (valid == nullptr) {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(l[i] / divisor);
  } else {
    // Division is slow enough that skipping null rows pays (runs of valid
    // rows; the rows between them get 0).
    int64_t next = 0;
    bitmap::VisitSetBitRuns(valid, 0, n, [&](int64_t pos, int64_t len) {
      std::fill(out + next, out + pos, T{0});
      for (int64_t i = pos; i < pos + len; ++i) out[i] = static_cast<T>(l[i] / divisor);
      next = pos + len;
    });
    std::fill(out + next, out + n, T{0});
  }
  RecordSimdLevel(SimdLevel::kScalar);
  return 0;
}

template <typename T>
int RunOp(ArithmeticOp op, bool checked, Shape shape, const T* l, const T* r, T* out, int64_t n,
          const uint8_t* valid) {
  constexpr bool kFloat = std::is_floating_point_v<T>;
  switch (op) {
    case ArithmeticOp::kAdd:
      if (!checked || kFloat) {
        DispatchPlain<T, AddOp>(shape, l, r, out, n);
        return 0;
      }
      if constexpr (!kFloat) return DispatchChecked<T, AddOp>(shape, l, r, out, n, valid);
      break;
    case ArithmeticOp::kSubtract:
      if (!checked || kFloat) {
        DispatchPlain<T, SubtractOp>(shape, l, r, out, n);
        return 0;
      }
      if constexpr (!kFloat) return DispatchChecked<T, SubtractOp>(shape, l, r, out, n, valid);
      break;
    case ArithmeticOp::kMultiply:
      if (!checked || kFloat) {
        DispatchPlain<T, MultiplyOp>(shape, l, r, out, n);
        return 0;
      }
      if constexpr (!kFloat) return DispatchChecked<T, MultiplyOp>(shape, l, r, out, n, valid);
      break;
    case ArithmeticOp::kDivide:
      if constexpr (!kFloat) {
        if (shape == Shape::kArrayScalar) {
          return checked ? DivideByScalar<T, DivideCheckedOp>(l, r[0], out, n, valid)
                         : DivideByScalar<T, IntDivideOp>(l, r[0], out, n, valid);
        }
      }
      if (checked) return DispatchChecked<T, DivideCheckedOp>(shape, l, r, out, n, valid);
      if constexpr (kFloat) {
        DispatchPlain<T, FloatDivideOp>(shape, l, r, out, n);
        return 0;
      } else {
        return DispatchChecked<T, IntDivideOp>(shape, l, r, out, n, valid);
      }
  }
  return 0;
}

}  // namespace

std::string_view ArithmeticFunctionName(ArithmeticOp op, bool checked) {
  switch (op) {
    case ArithmeticOp::kAdd: return checked ? "add_checked" : "add";
    case ArithmeticOp::kSubtract: return checked ? "subtract_checked" : "subtract";
    case ArithmeticOp::kMultiply: return checked ? "multiply_checked" : "multiply";
    case ArithmeticOp::kDivide: return checked ? "divide_checked" : "divide";
  }
  return "arithmetic";
}

Result<Datum> Arithmetic(ArithmeticOp op, bool checked, const Datum& left, const Datum& right,
                         MemoryPool* pool) {
  const std::string_view name = ArithmeticFunctionName(op, checked);
  QUIVER_ASSIGN_OR_RAISE(const int64_t n, internal::BinaryLength(left, right));
  // A null-type argument takes the other's type (pyarrow's
  // ReplaceNullWithOtherType).
  const TypePtr& lt = left.type()->id() == Type::kNull ? right.type() : left.type();
  const TypePtr& rt = right.type()->id() == Type::kNull ? left.type() : right.type();
  if (lt->id() == Type::kNull && rt->id() == Type::kNull) {
    // null + null: a null of the null type (pyarrow's null kernel).
    if (left.is_scalar() && right.is_scalar()) return Datum(Scalar());
    return Datum(ArrayData::Make(null(), n, {}, n));
  }
  TypePtr common;
  if (internal::IsNumeric(lt->id()) && lt->Equals(*rt)) {
    common = lt;
  } else {
    common = CommonNumeric(*lt, *rt);
  }
  if (common == nullptr) return internal::NoKernel(name, *left.type(), *right.type());

  QUIVER_ASSIGN_OR_RAISE(internal::ResultValidity validity,
                         internal::IntersectValidity(left, right, n, pool));
  if (validity.all_null) {
    QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr result, internal::AllNullResult(common, n, pool));
    return internal::FinishResult(left, right, std::move(result));
  }
  const int64_t width = FixedWidthBytes(*common);
  // An array already of the common (numeric: unparameterised) type is read
  // in place without a call; anything else goes through PrepareValues.
  const auto prepare = [&](const Datum& arg, Values* out) -> Status {
    if (arg.is_array() && arg.array()->type->id() == common->id() &&
        internal::IsNumeric(common->id())) {
      const ArrayData& a = *arg.array();
      out->data = a.buffers[1]->data() + a.offset * width;
      return Status::OK();
    }
    return internal::PrepareValues(arg, common, out, pool);
  };
  Values lv;
  Values rv;
  QUIVER_RETURN_NOT_OK(prepare(left, &lv));
  QUIVER_RETURN_NOT_OK(prepare(right, &rv));
  // Two scalars: the left one as a one-row array.
  const Shape shape = left.is_array() && right.is_array() ? Shape::kArrayArray
                      : right.is_scalar()                 ? Shape::kArrayScalar
                                                          : Shape::kScalarArray;
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer values, internal::AllocateOutput(n * width, pool));
  const uint8_t* valid = validity.bitmap == nullptr ? nullptr : validity.bitmap->data();
  const int error = internal::VisitNumeric(common->id(), [&](auto tag) {
    using T = decltype(tag);
    return RunOp<T>(op, checked, shape, lv.as<T>(), rv.as<T>(), values.data_as<T>(), n, valid);
  });
  if (error == kDivideByZero) return Status::Invalid("divide by zero");
  if (error == kOverflow) return Status::Invalid("overflow");
  // Moved into place (a braced list would copy each shared_ptr).
  std::vector<std::shared_ptr<Buffer>> buffers(2);
  buffers[0] = std::move(validity.bitmap);
  buffers[1] = values.Freeze();
  auto result = ArrayData::Make(std::move(common), n, std::move(buffers), validity.null_count);
  return internal::FinishResult(left, right, std::move(result));
}

}  // namespace quiver::compute
