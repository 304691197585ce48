// Arithmetic kernels against a reference computed in __int128 / in the
// float type: every numeric type, every shape, lengths around the 64-row
// word, sliced inputs, 0..100% nulls, at every SIMD level the CPU has.
// pyarrow judges the same kernels in python/tests/test_compute_arith.py.
#include "quiver/compute/arithmetic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/test_util_internal.h"
#include "quiver/compute/arithmetic_test_util_internal.h"
#include "quiver/compute/simd_level.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;

using namespace testing;  // NOLINT: the shared test helpers

template <typename T>
std::vector<T> RandomValues(std::mt19937_64& rng, int64_t n, bool nonzero) {
  std::vector<T> v(static_cast<size_t>(n));
  const T specials[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
                        std::numeric_limits<T>::lowest(), T(0), T(1), static_cast<T>(-1)};
  for (auto& x : v) {
    const uint64_t r = rng();
    if (r % 8 == 0) {
      x = specials[(r >> 8) % 6];
    } else if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000) / 7.0);
      if (r % 29 == 1) x = std::numeric_limits<T>::quiet_NaN();
      if (r % 31 == 1) x = -std::numeric_limits<T>::infinity();
      if (r % 37 == 1) x = T(-0.0);
    } else {
      T y;
      const uint64_t bits = rng();
      std::memcpy(&y, &bits, sizeof(T));
      x = (r % 3 == 0) ? y : static_cast<T>(static_cast<int64_t>(rng() % 200) - 100);
    }
    if (nonzero && x == T(0)) x = T(3);
  }
  return v;
}

// Expected value (or error code 1 overflow, 2 divide by zero) of one row.
template <typename T>
int Reference(ArithmeticOp op, bool checked, T a, T b, T* out) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case ArithmeticOp::kAdd: *out = a + b; return 0;
      case ArithmeticOp::kSubtract: *out = a - b; return 0;
      case ArithmeticOp::kMultiply: *out = a * b; return 0;
      case ArithmeticOp::kDivide:
        if (checked && b == 0) return 2;
        *out = a / b;
        return 0;
    }
    return 0;
  } else {
    const __int128 x = a;
    const __int128 y = b;
    __int128 exact = 0;
    switch (op) {
      case ArithmeticOp::kAdd: exact = x + y; break;
      case ArithmeticOp::kSubtract: exact = x - y; break;
      case ArithmeticOp::kMultiply: {
        // |x*y| < 2^128 for 64-bit operands except the unsigned corner;
        // compute the low 128 bits unsigned, exactness checked by division.
        const auto ux = static_cast<unsigned __int128>(x);
        const auto uy = static_cast<unsigned __int128>(y);
        exact = static_cast<__int128>(ux * uy);
        break;
      }
      case ArithmeticOp::kDivide:
        if (y == 0) return 2;
        exact = x / y;
        break;
    }
    const bool fits = exact >= static_cast<__int128>(std::numeric_limits<T>::min()) &&
                      exact <= static_cast<__int128>(std::numeric_limits<T>::max());
    if (op == ArithmeticOp::kDivide && !fits) {
      *out = 0;
      return checked ? 1 : 0;
    }
    if (checked && !fits) return 1;
    *out = static_cast<T>(exact);
    return 0;
  }
}

template <typename T>
bool SameValue(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
  } else {
    return a == b;
  }
}

template <typename T>
void CheckOne(const TypePtr& type, ArithmeticOp op, bool checked, std::mt19937_64& rng,
              int64_t n, double null_fraction, int shape, SimdLevel level) {
  const int64_t offset = static_cast<int64_t>(rng() % 5);
  const bool divide = op == ArithmeticOp::kDivide && std::is_integral_v<T>;
  auto lv = RandomValues<T>(rng, n + offset, false);
  auto rv = RandomValues<T>(rng, n + offset, divide);
  auto lvalid = RandomValidity(rng, n + offset, null_fraction);
  auto rvalid = RandomValidity(rng, n + offset, null_fraction / 2);
  ArrayDataPtr la = ArrayFromVector<T>(type, lv, lvalid)->Slice(offset, n);
  ArrayDataPtr ra = ArrayFromVector<T>(type, rv, rvalid)->Slice(offset, n);
  // shape 0: array-array, 1: array-scalar, 2: scalar-array.
  const T scalar_value = divide ? T(7) : T(5);
  auto scalar = Scalar::MakeDouble(0);
  if constexpr (std::is_floating_point_v<T>) {
    scalar = type->id() == Type::kFloat ? Scalar::MakeFloat(static_cast<float>(scalar_value))
                                        : Scalar::MakeDouble(static_cast<double>(scalar_value));
  } else if constexpr (std::is_signed_v<T>) {
    scalar = *Scalar::MakeInt(type, scalar_value);
  } else {
    scalar = *Scalar::MakeUInt(type, scalar_value);
  }
  Datum left = shape == 2 ? Datum(scalar) : Datum(la);
  Datum right = shape == 1 ? Datum(scalar) : Datum(ra);

  // The expected rows and error.
  int expected_error = 0;
  std::vector<T> expected(static_cast<size_t>(n));
  std::vector<bool> expected_valid(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const bool lok = shape == 2 || la->IsValid(i);
    const bool rok = shape == 1 || ra->IsValid(i);
    expected_valid[static_cast<size_t>(i)] = lok && rok;
    if (!(lok && rok)) continue;
    const T a = shape == 2 ? scalar_value : la->GetValues<T>(1)[i];
    const T b = shape == 1 ? scalar_value : ra->GetValues<T>(1)[i];
    T r{};
    const int e = Reference<T>(op, checked, a, b, &r);
    if (e != 0) expected_error = e;
    expected[static_cast<size_t>(i)] = r;
  }
  auto scoped = ScopedSimdLevel::Make(level);
  ASSERT_TRUE(scoped.ok());
  auto result = Arithmetic(op, checked, left, right);
  const std::string where = std::string(ArithmeticFunctionName(op, checked)) + " " +
                            type->ToString() + " n=" + std::to_string(n) +
                            " shape=" + std::to_string(shape);
  if (expected_error != 0) {
    ASSERT_FALSE(result.ok()) << where;
    EXPECT_EQ(result.status().message(), expected_error == 1 ? "overflow" : "divide by zero")
        << where;
    return;
  }
  ASSERT_TRUE(result.ok()) << where << ": " << result.status();
  ASSERT_TRUE(result->is_array());
  const ArrayDataPtr& out = result->array();
  ASSERT_TRUE(MakeArray(out)->ValidateFull().ok()) << where;
  ASSERT_TRUE(out->type->Equals(*type)) << where;
  ASSERT_EQ(out->length, n);
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(out->IsValid(i), expected_valid[static_cast<size_t>(i)]) << where << " row " << i;
    if (!expected_valid[static_cast<size_t>(i)]) {
      ++nulls;
      continue;
    }
    ASSERT_TRUE(SameValue(out->GetValues<T>(1)[i], expected[static_cast<size_t>(i)]))
        << where << " row " << i;
  }
  EXPECT_EQ(out->GetNullCount(), nulls);
  if (nulls == 0) {
    EXPECT_EQ(out->buffers[0], nullptr) << where;
  }
  const bool plain = !(checked && std::is_integral_v<T>) &&
                     !(op == ArithmeticOp::kDivide && (checked || std::is_integral_v<T>));
  if (nulls < n && plain) {
    EXPECT_EQ(LastSimdLevel(), std::min(level, SimdLevel::kAvx2)) << where;
  }
}

template <typename T>
void CheckType(const TypePtr& type) {
  std::mt19937_64 rng(42);
  for (SimdLevel level : Levels()) {
    for (ArithmeticOp op : {ArithmeticOp::kAdd, ArithmeticOp::kSubtract, ArithmeticOp::kMultiply,
                            ArithmeticOp::kDivide}) {
      for (bool checked : {false, true}) {
        for (int64_t n : kLengths) {
          for (double nulls : kNullFractions) {
            for (int shape = 0; shape < 3; ++shape) {
              CheckOne<T>(type, op, checked, rng, n, nulls, shape, level);
              if (::testing::Test::HasFatalFailure()) return;
            }
          }
        }
      }
    }
  }
}

TEST(Arithmetic, Int8) { CheckType<int8_t>(int8()); }
TEST(Arithmetic, Int16) { CheckType<int16_t>(int16()); }
TEST(Arithmetic, Int32) { CheckType<int32_t>(int32()); }
TEST(Arithmetic, Int64) { CheckType<int64_t>(int64()); }
TEST(Arithmetic, UInt8) { CheckType<uint8_t>(uint8()); }
TEST(Arithmetic, UInt16) { CheckType<uint16_t>(uint16()); }
TEST(Arithmetic, UInt32) { CheckType<uint32_t>(uint32()); }
TEST(Arithmetic, UInt64) { CheckType<uint64_t>(uint64()); }
TEST(Arithmetic, Float) { CheckType<float>(float32()); }
TEST(Arithmetic, Double) { CheckType<double>(float64()); }

TEST(Arithmetic, IntMinDividedByMinusOne) {
  auto a = ArrayFromVector<int32_t>(int32(), {std::numeric_limits<int32_t>::min(), 7});
  auto b = ArrayFromVector<int32_t>(int32(), {-1, -2});
  auto plain = Divide(a, b);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->array()->GetValues<int32_t>(1)[0], 0);
  EXPECT_EQ(plain->array()->GetValues<int32_t>(1)[1], -3);  // truncates toward zero
  auto checked = DivideChecked(a, b);
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.status().message(), "overflow");
}

TEST(Arithmetic, NullRowsNeverFail) {
  auto a = ArrayFromVector<int8_t>(int8(), {100, 1}, {false, true});
  auto b = ArrayFromVector<int8_t>(int8(), {100, 0}, {true, false});
  auto sum = AddChecked(a, b);
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(sum->array()->GetNullCount(), 2);
  auto quotient = Divide(a, b);
  ASSERT_TRUE(quotient.ok()) << quotient.status();
}

TEST(Arithmetic, Promotion) {
  auto i8 = ArrayFromVector<int8_t>(int8(), {-1, 2});
  auto u8 = ArrayFromVector<uint8_t>(uint8(), {255, 2});
  auto sum = Add(i8, u8);
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_TRUE(sum->type()->Equals(*int16()));
  EXPECT_EQ(sum->array()->GetValues<int16_t>(1)[0], 254);
  auto f = Add(ArrayFromVector<int32_t>(int32(), {1}), Datum(Scalar::MakeFloat(0.5f)));
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(f->type()->Equals(*float32()));
  // uint64 past int64's range cannot become int64.
  auto u64 = ArrayFromVector<uint64_t>(uint64(), {uint64_t{1} << 63});
  auto bad = Add(u64, Datum(Scalar::MakeInt64(1)));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("not in range"), std::string::npos);
  // int64 beyond 2^53 cannot become float64 exactly.
  auto big = ArrayFromVector<int64_t>(int64(), {(int64_t{1} << 53) + 1});
  EXPECT_FALSE(Add(big, Datum(Scalar::MakeDouble(1.0))).ok());
}

TEST(Arithmetic, ScalarsGiveAScalar) {
  auto r = Multiply(Datum(Scalar::MakeInt64(6)), Datum(Scalar::MakeInt64(7)));
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->is_scalar());
  EXPECT_EQ(r->scalar().int_value(), 42);
  auto n = Add(Datum(Scalar::MakeInt64(6)), Datum(Scalar()));
  ASSERT_TRUE(n.ok());
  ASSERT_TRUE(n->is_scalar());
  EXPECT_FALSE(n->scalar().is_valid());
  EXPECT_TRUE(n->type()->Equals(*int64()));
}

TEST(Arithmetic, Errors) {
  auto a = ArrayFromVector<int32_t>(int32(), {1, 2});
  auto b = ArrayFromVector<int32_t>(int32(), {1});
  auto r = Add(a, b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalid);
  auto s = Add(a, Datum(Scalar::MakeString("x")));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kNotImplemented);
  EXPECT_NE(s.status().message().find("add"), std::string::npos);
  auto h = Add(ArrayFromVector<uint16_t>(float16(), {0}), ArrayFromVector<uint16_t>(float16(), {0}));
  EXPECT_EQ(h.status().code(), StatusCode::kNotImplemented);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
