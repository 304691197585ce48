// cast against references computed here (exact arithmetic in __int128 /
// long double) and against tables of pyarrow 26's results: every numeric
// pair, safe and unsafe, lengths around the 64-row word, sliced inputs,
// 0..100% nulls, every SIMD level the CPU has; temporal unit changes and
// wall-clock conversions; the binary layouts; numbers to strings;
// dictionaries, the null type, scalars. Every result passes ValidateFull.
// python/tests/test_compute_cast.py judges the same kernel by pyarrow.
#include "quiver/compute/cast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/compare.h"
#include "quiver/array/test_util_internal.h"
#include "quiver/array/validate.h"
#include "quiver/compute/arithmetic_test_util_internal.h"
#include "quiver/compute/cast_test_util_internal.h"
#include "quiver/compute/simd_level.h"
#include "quiver/util/float16.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;
using testutil::BinaryViewArrayFromVector;
using testutil::StringArrayFromVector;
using namespace testing;  // NOLINT: the shared test helpers

// --- numeric pairs -----------------------------------------------------------

template <typename F>
void VisitCTypes(F&& f) {
  f(int8(), int8_t{});
  f(int16(), int16_t{});
  f(int32(), int32_t{});
  f(int64(), int64_t{});
  f(uint8(), uint8_t{});
  f(uint16(), uint16_t{});
  f(uint32(), uint32_t{});
  f(uint64(), uint64_t{});
  f(float32(), float{});
  f(float64(), double{});
}

// Values of T: with `clean`, integral values that fit every integer type
// (so safe casts to them succeed); otherwise anything, specials included.
template <typename T>
std::vector<T> RandomValues(std::mt19937_64& rng, int64_t n, bool clean) {
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) {
    const uint64_t r = rng();
    if (clean) {
      x = static_cast<T>(r % 128);
      continue;
    }
    if constexpr (std::is_floating_point_v<T>) {
      const T specials[] = {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                            -std::numeric_limits<T>::infinity(), T(-0.0), T(1.5), T(-2.5),
                            T(3e9), T(1e20), T(-1e20), T(16777217.0), std::numeric_limits<T>::max(),
                            T(-129.0), T(65536.0), T(9.2233720368547758e18)};
      x = r % 4 == 0 ? specials[(r >> 8) % std::size(specials)]
                     : static_cast<T>(static_cast<int64_t>(rng() % 4001) - 2000);
    } else {
      const uint64_t bits = rng();
      std::memcpy(&x, &bits, sizeof(T));
      if (r % 3 == 0) x = static_cast<T>(r % 100);
    }
  }
  return v;
}

// The exact value of x, and whether it is one.
template <typename T>
long double Exact(T x) {
  return static_cast<long double>(x);
}

// Whether In value x converts to Out exactly (the safe rule).
template <typename In, typename Out>
bool SafeFits(In x) {
  if constexpr (std::is_integral_v<Out>) {
    if constexpr (std::is_floating_point_v<In>) {
      if (!std::isfinite(x) || std::trunc(x) != x) return false;
    }
    const long double v = Exact(x);
    return v >= static_cast<long double>(std::numeric_limits<Out>::min()) &&
           v <= static_cast<long double>(std::numeric_limits<Out>::max());
  } else if constexpr (std::is_integral_v<In>) {
    const long double limit = std::ldexp(1.0L, std::numeric_limits<Out>::digits);
    return std::fabs(Exact(x)) <= limit;
  } else {
    return true;
  }
}

template <typename In, typename Out>
void CheckNumericPair(const TypePtr& from, const TypePtr& to, std::mt19937_64& rng) {
  for (int64_t n : kLengths) {
    for (double null_fraction : kNullFractions) {
      for (bool clean : {true, false}) {
        const int64_t offset = 3;
        auto values = RandomValues<In>(rng, n + offset, clean);
        auto validity = RandomValidity(rng, n + offset, null_fraction);
        ArrayDataPtr in = ArrayFromVector(from, values, validity)->Slice(offset, n);
        // The reference: the first failing valid row, else each value.
        int64_t first_bad = -1;
        for (int64_t i = 0; i < n && first_bad < 0; ++i) {
          if (validity[static_cast<size_t>(offset + i)] &&
              !SafeFits<In, Out>(values[static_cast<size_t>(offset + i)])) {
            first_bad = i;
          }
        }
        for (bool safe : {true, false}) {
          std::vector<ArrayDataPtr> results;
          for (SimdLevel level : Levels()) {
            auto scoped = ScopedSimdLevel::Make(level);
            ASSERT_TRUE(scoped.ok());
            const std::string where = from->ToString() + " -> " + to->ToString() + " n=" +
                                      std::to_string(n) + " safe=" + std::to_string(safe) +
                                      " level=" + std::string(SimdLevelName(level));
            Result<ArrayDataPtr> r = CastArray(in, to, safe);
            if (safe && first_bad >= 0) {
              ASSERT_FALSE(r.ok()) << where;
              EXPECT_TRUE(r.status().IsInvalid()) << where;
              const In bad = values[static_cast<size_t>(offset + first_bad)];
              std::string expected;
              if constexpr (std::is_floating_point_v<In>) {
                char text[400];
                std::snprintf(text, sizeof(text), "%f", static_cast<double>(bad));
                expected = "Float value " + std::string(text) + " was truncated converting to " +
                           to->ToString();
              } else {
                expected = "Integer value " + std::to_string(bad) + " not in range: ";
              }
              EXPECT_EQ(r.status().message().substr(0, expected.size()), expected) << where;
              continue;
            }
            ArrayDataPtr out = MustCast(in, to, safe);
            ASSERT_NE(out, nullptr) << where;
            EXPECT_EQ(out->GetNullCount(), in->GetNullCount()) << where;
            const Out* got = out->GetValues<Out>(1);
            for (int64_t i = 0; i < n; ++i) {
              if (!validity[static_cast<size_t>(offset + i)]) continue;
              const In x = values[static_cast<size_t>(offset + i)];
              if (!SafeFits<In, Out>(x) && std::is_floating_point_v<In> && std::is_integral_v<Out>) {
                continue;  // out of range, unsafe: the table test below
              }
              Out want;
              if constexpr (std::is_floating_point_v<In> && std::is_integral_v<Out>) {
                want = static_cast<Out>(std::trunc(x));
              } else {
                want = static_cast<Out>(x);
              }
              if constexpr (std::is_floating_point_v<Out>) {
                if (std::isnan(want)) {
                  EXPECT_TRUE(std::isnan(got[i])) << where << " row " << i;
                  continue;
                }
              }
              EXPECT_EQ(std::memcmp(&got[i], &want, sizeof(Out)), 0)
                  << where << " row " << i << ": " << +got[i] << " != " << +want;
            }
            results.push_back(out);
          }
          // Every level gives the same bits.
          for (size_t k = 1; k < results.size(); ++k) {
            ASSERT_EQ(std::memcmp(results[0]->GetValues<Out>(1), results[k]->GetValues<Out>(1),
                                  static_cast<size_t>(n) * sizeof(Out)),
                      0);
          }
        }
      }
    }
  }
}

TEST(Cast, EveryNumericPair) {
  std::mt19937_64 rng(42);
  VisitCTypes([&](const TypePtr& from, auto in_tag) {
    VisitCTypes([&](const TypePtr& to, auto out_tag) {
      using In = decltype(in_tag);
      using Out = decltype(out_tag);
      if (from->Equals(*to)) return;
      CheckNumericPair<In, Out>(from, to, rng);
    });
  });
}

// Safe-cast messages: the bounds Arrow prints.
TEST(Cast, NumericErrorMessages) {
  auto one = [](TypePtr type, auto value) {
    return ArrayFromVector(std::move(type), std::vector<decltype(value)>{value});
  };
  EXPECT_EQ(Message(CastArray(one(int8(), int8_t{-1}), uint64())),
            "Integer value -1 not in range: 0 to 127");
  EXPECT_EQ(Message(CastArray(one(int64(), int64_t{-1}), uint64())),
            "Integer value -1 not in range: 0 to 9223372036854775807");
  EXPECT_EQ(Message(CastArray(one(uint64(), uint64_t{1} << 63), int64())),
            "Integer value 9223372036854775808 not in range: 0 to 9223372036854775807");
  EXPECT_EQ(Message(CastArray(one(int32(), int32_t{200}), int8())),
            "Integer value 200 not in range: -128 to 127");
  EXPECT_EQ(Message(CastArray(one(int64(), int64_t{16777217}), float32())),
            "Integer value 16777217 not in range: -16777216 to 16777216");
  EXPECT_EQ(Message(CastArray(one(int64(), int64_t{-16777217}), float32())),
            "Integer value -16777217 not in range: -16777216 to 16777216");
  EXPECT_EQ(Message(CastArray(one(uint64(), (uint64_t{1} << 53) + 1), float64())),
            "Integer value 9007199254740993 not in range: 0 to 9007199254740992");
  EXPECT_EQ(Message(CastArray(one(float64(), 1.5), int64())),
            "Float value 1.500000 was truncated converting to int64");
  EXPECT_EQ(Message(CastArray(one(float64(), std::nan("")), int8())),
            "Float value nan was truncated converting to int8");
  EXPECT_EQ(Message(CastArray(one(float32(), 1e20f), int32())),
            "Float value 100000002004087734272.000000 was truncated converting to int32");
  EXPECT_EQ(Message(CastArray(one(float64(), -1.0), uint8())),
            "Float value -1.000000 was truncated converting to uint8");
  // float16: Arrow prints the value's bits (1.5 is 0x3E00).
  EXPECT_EQ(Message(CastArray(one(float16(), uint16_t{0x3E00}), int32())),
            "Float value 15872 was truncated converting to int32");
  // Exactly at the limits: fine.
  EXPECT_TRUE(CastArray(one(int64(), int64_t{16777216}), float32()).ok());
  EXPECT_TRUE(CastArray(one(int64(), int64_t{1} << 53), float64()).ok());
  EXPECT_TRUE(CastArray(one(float64(), -9223372036854775808.0), int64()).ok());
  EXPECT_FALSE(CastArray(one(float64(), 9223372036854775808.0), int64()).ok());
}

// Unsafe float to integer out of range: pyarrow 26's results on x86-64
// (its vectorised loops), which Quiver reproduces without undefined
// behaviour (UBSan runs this test).
TEST(Cast, UnsafeFloatToIntOutOfRange) {
  const std::vector<double> v = {1.5,  -1.5,  2.9,   -2.9,   std::nan(""), INFINITY, -INFINITY,
                                 1e20, -1e20, 300.0, -300.0, 70000.0,      -70000.0, 3e9,
                                 -3e9, 5e9,   1e19,  9223372036854775808.0,  18446744073709551616.0,
                                 -9223372036854775808.0, 1.7e308, -129.0, 128.0, 256.0, 65536.0};
  const ArrayDataPtr in = ArrayFromVector(float64(), v);
  auto check = [&](const TypePtr& to, auto tag, const std::vector<decltype(tag)>& want) {
    using T = decltype(tag);
    for (SimdLevel level : Levels()) {
      auto scoped = ScopedSimdLevel::Make(level);
      ArrayDataPtr out = MustCast(in, to, false);
      ASSERT_NE(out, nullptr);
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(out->GetValues<T>(1)[i], want[i]) << to->ToString() << " row " << i;
      }
    }
  };
  const int32_t m32 = std::numeric_limits<int32_t>::min();
  const int64_t m64 = std::numeric_limits<int64_t>::min();
  check(int8(), int8_t{}, {1, -1, 2, -2, 0, 0, 0, 0, 0, 44, -44, 112, -112, 0, 0, 0, 0, 0, 0, 0, 0,
                           127, -128, 0, 0});
  check(int16(), int16_t{}, {1, -1, 2, -2, 0, 0, 0, 0, 0, 300, -300, 4464, -4464, 0, 0, 0, 0, 0,
                             0, 0, 0, -129, 128, 256, 0});
  check(int32(), int32_t{}, {1, -1, 2, -2, m32, m32, m32, m32, m32, 300, -300, 70000, -70000, m32,
                             m32, m32, m32, m32, m32, m32, m32, -129, 128, 256, 65536});
  check(int64(), int64_t{}, {1, -1, 2, -2, m64, m64, m64, m64, m64, 300, -300, 70000, -70000,
                             3000000000, -3000000000, 5000000000, m64, m64, m64, m64, m64, -129,
                             128, 256, 65536});
  check(uint8(), uint8_t{}, {1, 255, 2, 254, 0, 0, 0, 0, 0, 44, 212, 112, 144, 0, 0, 0, 0, 0, 0, 0,
                             0, 127, 128, 0, 0});
  check(uint16(), uint16_t{}, {1, 65535, 2, 65534, 0, 0, 0, 0, 0, 300, 65236, 4464, 61072, 0, 0, 0,
                               0, 0, 0, 0, 0, 65407, 128, 256, 0});
  check(uint32(), uint32_t{}, {1, 4294967295u, 2, 4294967294u, 2147483648u, 0, 2147483648u, 0,
                               2147483648u, 300, 4294966996u, 70000, 4294897296u, 3000000000u,
                               2147483648u, 0, 0, 0, 0, 2147483648u, 0, 4294967167u, 128, 256,
                               65536});
  check(uint64(), uint64_t{},
        {1, 18446744073709551615ull, 2, 18446744073709551614ull, 9223372036854775808ull, 0,
         9223372036854775808ull, 0, 9223372036854775808ull, 300, 18446744073709551316ull, 70000,
         18446744073709481616ull, 3000000000ull, 18446744070709551616ull, 5000000000ull,
         10000000000000000000ull, 9223372036854775808ull, 0, 9223372036854775808ull, 0,
         18446744073709551487ull, 128, 256, 65536});
}

TEST(Cast, HalfFloat) {
  // Narrowing rounds once, to nearest even; 65520 is past the largest half.
  const ArrayDataPtr d = ArrayFromVector(
      float64(), std::vector<double>{1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40), 65504.0,
                                     65520.0, 1e300, 0.1, -0.0, std::nan(""), 1e-10, 6e-8});
  ArrayDataPtr h = MustCast(d, float16());
  ASSERT_NE(h, nullptr);
  const std::vector<uint16_t> want = {0x3C01, 0x7BFF, 0x7C00, 0x7C00, 0x2E66, 0x8000, 0x7E00, 0, 1};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(h->GetValues<uint16_t>(1)[i], want[i]) << i;
  // Integers are checked against float32's or float64's limit only (70000
  // is inf); back to float exactly.
  ArrayDataPtr hi = MustCast(ArrayFromVector(int32(), std::vector<int32_t>{1, 2049, 70000, -70000}),
                             float16());
  ASSERT_NE(hi, nullptr);
  EXPECT_EQ(hi->GetValues<uint16_t>(1)[1], util::FloatToHalf(2048.0f));
  EXPECT_EQ(hi->GetValues<uint16_t>(1)[2], 0x7C00);
  EXPECT_EQ(hi->GetValues<uint16_t>(1)[3], 0xFC00);
  ArrayDataPtr back = MustCast(h, float32());
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->GetValues<float>(1)[1], 65504.0f);
  // To integers: truncation checked; unsafe through int32.
  const ArrayDataPtr hv = ArrayFromVector(float16(), std::vector<uint16_t>{0x3C00, 0x7BFF});
  EXPECT_EQ(MustCast(hv, int16(), false)->GetValues<int16_t>(1)[1], -32);
  EXPECT_EQ(Message(CastArray(ArrayFromVector(int32(), std::vector<int32_t>{16777217}), float16())),
            "Integer value 16777217 not in range: -16777216 to 16777216");
  EXPECT_EQ(Message(CastArray(ArrayFromVector(uint64(), std::vector<uint64_t>{(uint64_t{1} << 53) + 1}),
                              float16())),
            "Integer value 9007199254740993 not in range: 0 to 9007199254740992");
  EXPECT_FALSE(CastArray(hv, int16()).ok());
  // No cast between bool and float16 (as pyarrow).
  EXPECT_EQ(Message(CastArray(testutil::BooleanArrayFromVector({true}), float16())),
            "Unsupported cast from bool to halffloat using function func");
  EXPECT_FALSE(CanCast(*float16(), *boolean()));
}

TEST(Cast, Boolean) {
  const ArrayDataPtr b = testutil::BooleanArrayFromVector({true, false, true, true}, {true, true, false, true});
  ArrayDataPtr d = MustCast(b->Slice(1, 3), float64());
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->GetValues<double>(1)[0], 0.0);
  EXPECT_TRUE(d->IsNull(1));
  EXPECT_EQ(d->GetValues<double>(1)[2], 1.0);
  const ArrayDataPtr f = ArrayFromVector(float64(), std::vector<double>{0.0, -0.0, std::nan(""), 0.5});
  ArrayDataPtr fb = MustCast(f, boolean());
  ASSERT_NE(fb, nullptr);
  const std::vector<bool> want = {false, false, true, true};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(bit_util::GetBit(fb->buffers[1]->data(), static_cast<int64_t>(i)), want[i]);
  }
  // 130 values at an odd offset, through the 64-value packing.
  std::vector<int16_t> v(131);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int16_t>(i % 3);
  ArrayDataPtr ib = MustCast(ArrayFromVector(int16(), v)->Slice(1, 130), boolean());
  ASSERT_NE(ib, nullptr);
  for (int64_t i = 0; i < 130; ++i) {
    EXPECT_EQ(bit_util::GetBit(ib->buffers[1]->data(), i), (i + 1) % 3 != 0) << i;
  }
}

// --- binary and string layouts --------------------------------------------------

std::vector<std::string> SampleStrings(int64_t n) {
  std::vector<std::string> v;
  const std::string pieces[] = {"", "a", "héllo", "exactly12byt", "thirteen byte", "日本語のテキストです",
                                "a much longer string than twelve bytes"};
  for (int64_t i = 0; i < n; ++i) v.push_back(pieces[i % 7] + (i % 5 == 0 ? std::to_string(i) : ""));
  return v;
}

ArrayDataPtr MakeBinaryLike(const TypePtr& type, const std::vector<std::string>& v,
                            const std::vector<bool>& valid) {
  if (IsBinaryView(type->id())) return BinaryViewArrayFromVector(v, valid, type);
  return StringArrayFromVector(v, valid, type);
}

TEST(Cast, BinaryLayouts) {
  const std::vector<TypePtr> types = {utf8(), large_utf8(), utf8_view(), binary(), large_binary(),
                                      binary_view()};
  for (int64_t n : kLengths) {
    const auto values = SampleStrings(n + 3);
    const auto valid = testutil::Validity(n + 3);
    for (const TypePtr& from : types) {
      ArrayDataPtr in = MakeBinaryLike(from, values, valid)->Slice(3, n);
      for (const TypePtr& to : types) {
        ArrayDataPtr out = MustCast(in, to);
        ASSERT_NE(out, nullptr);
        ArrayDataPtr expected = MakeBinaryLike(to, values, valid)->Slice(3, n);
        EXPECT_TRUE(ArrayEquals(*out, *expected)) << from->ToString() << " -> " << to->ToString();
        if (from->Equals(*to)) {
          EXPECT_EQ(out, in);
        }
      }
    }
  }
}

TEST(Cast, Utf8Validation) {
  // One invalid value; split characters across values; invalid bytes under
  // a null slot (not looked at).
  const std::vector<TypePtr> sources = {binary(), large_binary(), binary_view()};
  for (const TypePtr& from : sources) {
    for (const TypePtr& to : {utf8(), large_utf8(), utf8_view()}) {
      Result<ArrayDataPtr> bad = CastArray(MakeBinaryLike(from, {"ok", "\xff"}, {}), to);
      EXPECT_EQ(Message(bad), "Invalid UTF8 payload") << from->ToString() << " -> " << to->ToString();
      EXPECT_EQ(Message(CastArray(MakeBinaryLike(from, {"\xc3", "\xa9"}, {}), to)),
                "Invalid UTF8 payload");
      EXPECT_EQ(Message(CastArray(MakeBinaryLike(from, {"\xc3", "x", "\xa9"}, {true, false, true}), to)),
                "Invalid UTF8 payload");
      MustCast(MakeBinaryLike(from, {"\xff", "a", "é"}, {false, true, true}), to);
      // Unsafe casts do not look.
      EXPECT_TRUE(CastArray(MakeBinaryLike(from, {"\xff"}, {}), to, false).ok());
    }
  }
}

TEST(Cast, OffsetOverflowIsAnError) {
  // A large_string whose values span more than 2^31 - 1 bytes: refused
  // before any byte is read (the data buffer here is small).
  const std::vector<int64_t> offsets = {0, 5, int64_t{3} << 30};
  auto in = ArrayData::Make(large_utf8(), 2,
                            {nullptr, testutil::BufferFromValues(offsets), testutil::MakeBuffer("hello")}, 0);
  EXPECT_EQ(Message(CastArray(in, utf8(), false)),
            "Failed casting from large_string to string: input array too large");
  EXPECT_EQ(Message(CastArray(in, binary(), false)),
            "Failed casting from large_string to binary: input array too large");
}

TEST(Cast, FixedSizeBinary) {
  ArrayDataPtr fsb = testutil::FixedSizeBinaryArrayFromVector(fixed_size_binary(3), {"abc", "xyz", "\xff\xff\xff"},
                                                              {true, true, false});
  for (const TypePtr& to : {utf8(), large_utf8(), utf8_view(), binary(), large_binary(), binary_view()}) {
    ArrayDataPtr out = MustCast(fsb->Slice(1, 2), to);
    ASSERT_NE(out, nullptr);
    EXPECT_TRUE(ArrayEquals(*out, *MakeBinaryLike(to, {"xyz", ""}, {true, false})));
    ArrayDataPtr back = MustCast(out, fixed_size_binary(3));
    ASSERT_NE(back, nullptr);
    EXPECT_TRUE(ArrayEquals(*back, *fsb->Slice(1, 2)));
  }
  EXPECT_EQ(Message(CastArray(MakeBinaryLike(utf8(), {"abcd"}, {}), fixed_size_binary(3))),
            "Failed casting from string to fixed_size_binary[3]: widths must match");
  EXPECT_EQ(Message(CastArray(fsb, fixed_size_binary(4))),
            "Failed casting from fixed_size_binary[3] to fixed_size_binary[4]: widths must match");
}

// --- numbers to strings -----------------------------------------------------------

// The values of a string array of any layout ("<null>" for a null).
std::vector<std::string> Texts(const ArrayDataPtr& a) {
  std::vector<std::string> out;
  if (a == nullptr) return out;
  ArrayDataPtr large = MustCast(a, large_utf8());
  const int64_t* o = large->GetValues<int64_t>(1);
  const char* data = reinterpret_cast<const char*>(large->buffers[2]->data());
  for (int64_t i = 0; i < a->length; ++i) {
    out.push_back(a->IsNull(i) ? "<null>" : std::string(data + o[i], static_cast<size_t>(o[i + 1] - o[i])));
  }
  return out;
}

TEST(Cast, NumbersToStrings) {
  const std::vector<double> d = {0.0, -0.0, 1.0, -1.0, 1.5, 0.1, 1.0 / 3, 100.0, 1e5, 1234567.0, 1e9,
                                 1e10, 12345678901.0, 1e15, 1e16, 1e20, 1e22, 1.5e300, 1e-5, 1e-6, 1e-7,
                                 1.5e-7, 0.000123, 5e-324, 1.7976931348623157e308, INFINITY, -INFINITY,
                                 std::nan(""), 9007199254740992.0, 123.456, -0.001, 1e-10};
  const std::vector<std::string> want_d = {
      "0", "-0", "1", "-1", "1.5", "0.1", "0.3333333333333333", "100", "100000", "1234567",
      "1000000000", "1e+10", "1.2345678901e+10", "1e+15", "1e+16", "1e+20", "1e+22", "1.5e+300",
      "0.00001", "0.000001", "1e-7", "1.5e-7", "0.000123", "5e-324", "1.7976931348623157e+308",
      "inf", "-inf", "nan", "9.007199254740992e+15", "123.456", "-0.001", "1e-10"};
  EXPECT_EQ(Texts(MustCast(ArrayFromVector(float64(), d), utf8())), want_d);
  const std::vector<float> f = {1.0f / 3, 12345678901.0f, 9007199254740992.0f, 0.1f, 1e-7f};
  EXPECT_EQ(Texts(MustCast(ArrayFromVector(float32(), f), large_utf8())),
            (std::vector<std::string>{"0.33333334", "1.2345679e+10", "9.007199e+15", "0.1", "1e-7"}));
  const std::vector<uint16_t> h = {0x3E00, 0x2E66, 0x7BFF, 0x0001, 0x8000};
  EXPECT_EQ(Texts(MustCast(ArrayFromVector(float16(), h), utf8())),
            (std::vector<std::string>{"1.5", "0.0999755859375", "65504", "5.960464477539063e-8", "-0"}));
  EXPECT_EQ(Texts(MustCast(ArrayFromVector(int64(), std::vector<int64_t>{0, -1, std::numeric_limits<int64_t>::min(), 42},
                                           {true, true, true, false}),
                           utf8())),
            (std::vector<std::string>{"0", "-1", "-9223372036854775808", "<null>"}));
  EXPECT_EQ(Texts(MustCast(ArrayFromVector(uint64(), std::vector<uint64_t>{~uint64_t{0}}), utf8())),
            (std::vector<std::string>{"18446744073709551615"}));
  EXPECT_EQ(Texts(MustCast(testutil::BooleanArrayFromVector({true, false, true}, {true, true, false}), utf8())),
            (std::vector<std::string>{"true", "false", "<null>"}));
  ArrayDataPtr view = MustCast(ArrayFromVector(int32(), std::vector<int32_t>{7, -2147483647 - 1}), utf8_view());
  ASSERT_NE(view, nullptr);
  EXPECT_TRUE(ArrayEquals(*view, *BinaryViewArrayFromVector({"7", "-2147483648"})));
}

TEST(Cast, DecimalsToStrings) {
  auto dec = [](TypePtr type, std::vector<int64_t> unscaled) {
    std::vector<std::string> bytes;
    const int64_t w = FixedWidthBytes(*type);
    for (int64_t u : unscaled) {
      std::string b(static_cast<size_t>(w), u < 0 ? '\xff' : '\0');
      std::memcpy(b.data(), &u, static_cast<size_t>(std::min<int64_t>(w, 8)));
      bytes.push_back(b);
    }
    return testutil::FixedSizeBinaryArrayFromVector(std::move(type), bytes);
  };
  EXPECT_EQ(Texts(MustCast(dec(decimal128(10, 2), {123, -5, 0, 1234567890}), utf8())),
            (std::vector<std::string>{"1.23", "-0.05", "0.00", "12345678.90"}));
  EXPECT_EQ(Texts(MustCast(dec(decimal128(5, -3), {1, -5, 0}), utf8())),
            (std::vector<std::string>{"1E+3", "-5E+3", "0E+3"}));
  EXPECT_EQ(Texts(MustCast(dec(decimal256(10, 7), {1, 10, 10000000, -12}), utf8())),
            (std::vector<std::string>{"1E-7", "0.0000010", "1.0000000", "-0.0000012"}));
  EXPECT_EQ(Texts(MustCast(dec(decimal32(5, 1), {15}), utf8())), (std::vector<std::string>{"1.5"}));
  EXPECT_EQ(Texts(MustCast(dec(decimal64(12, 12), {10, 1}), utf8())),
            (std::vector<std::string>{"1.0E-11", "1E-12"}));
}

// --- dictionaries, null, scalars, unsupported pairs --------------------------------

TEST(Cast, Dictionary) {
  ArrayDataPtr dict = StringArrayFromVector({"a", "bb", "a much longer value"}, {true, false, true});
  ArrayDataPtr in = testutil::DictionaryArrayFromIndices(dictionary(int8(), utf8()), {0, 1, 2, 0, 2},
                                                         dict, {true, true, true, false, true});
  for (const TypePtr& to : {utf8(), large_utf8(), utf8_view(), binary()}) {
    ArrayDataPtr out = MustCast(in->Slice(1, 4), to);
    ASSERT_NE(out, nullptr);
    EXPECT_TRUE(ArrayEquals(*out, *MakeBinaryLike(to, {"", "a much longer value", "", "a much longer value"},
                                                  {false, true, false, true})));
  }
  EXPECT_EQ(MustCast(in, null())->GetNullCount(), 5);
  // Values cast after decoding: an unreferenced value out of range is fine.
  ArrayDataPtr nums = testutil::DictionaryArrayFromIndices(dictionary(int32(), int64()), {1},
                                                           ArrayFromVector(int64(), std::vector<int64_t>{500, 1}));
  EXPECT_EQ(Values<int8_t>(MustCast(nums, int8())), (std::vector<int8_t>{1}));
  EXPECT_EQ(Message(CastArray(testutil::DictionaryArrayFromIndices(dictionary(int32(), int64()), {0},
                                                                   ArrayFromVector(int64(), std::vector<int64_t>{500})),
                              int8())),
            "Integer value 500 not in range: -128 to 127");
  // A pair Arrow cannot cast either is Invalid, as pyarrow says it.
  EXPECT_EQ(Message(CastArray(in, time32(TimeUnit::kSecond))),
            "Cast type time32[s] incompatible with dictionary type string");
  EXPECT_TRUE(CastArray(in, decimal128(10, 2)).status().IsNotImplemented());  // Arrow only
  EXPECT_EQ(Message(CastArray(in, int32())),  // decoded, then parsed
            "Failed to parse string: 'a much longer value' as a scalar of type int32");
}

TEST(Cast, NullType) {
  for (const TypePtr& to : {int32(), utf8(), utf8_view(), timestamp(TimeUnit::kMilli, "UTC"),
                            dictionary(int8(), utf8()), list(int64())}) {
    ArrayDataPtr out = MustCast(testutil::NullArrayOfLength(5), to);
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(out->GetNullCount(), 5);
  }
  EXPECT_EQ(Message(CastArray(ArrayFromVector(int8(), std::vector<int8_t>{1}), null())),
            "Unsupported cast from int8 to null using function cast_null");
}

TEST(Cast, Scalars) {
  Result<Datum> r = Cast(Datum(Scalar::MakeInt64(300)), int16());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->scalar(), *Scalar::MakeInt(int16(), 300));
  EXPECT_EQ(Cast(Datum(Scalar::MakeInt64(300)), int8()).status().message(),
            "Integer value 300 not in range: -128 to 127");
  r = Cast(Datum(Scalar::MakeDouble(1.5)), utf8());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->scalar().bytes(), "1.5");
  r = Cast(Datum(Scalar::MakeNull(int32())), float64());
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->scalar().is_valid());
  EXPECT_TRUE(r->scalar().type()->Equals(*float64()));
  EXPECT_TRUE(Cast(Datum(Scalar::MakeNull(int32())), binary()).status().IsNotImplemented());
  r = Cast(Datum(*Scalar::MakeInt(timestamp(TimeUnit::kSecond), 86401)), date32());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->scalar().int_value(), 1);
  r = Cast(Datum(Scalar::MakeBinary("abc")), utf8());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->scalar(), Scalar::MakeString("abc"));
  EXPECT_EQ(Cast(Datum(Scalar::MakeBinary("\xff")), utf8()).status().message(), "Invalid UTF8 payload");
  r = Cast(Datum(Scalar::MakeHalfFloat(0x3C00)), float64());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->scalar().double_value(), 1.0);
}

TEST(Cast, SameTypeIsTheInput) {
  ArrayDataPtr in = ArrayFromVector(int32(), std::vector<int32_t>{1, 2, 3})->Slice(1, 2);
  Result<ArrayDataPtr> out = CastArray(in, int32());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, in);
}

TEST(Cast, UnsupportedPairs) {
  EXPECT_EQ(Message(CastArray(ArrayFromVector(int32(), std::vector<int32_t>{1}), binary())),
            "Unsupported cast from int32 to binary using function cast_binary");
  EXPECT_EQ(Message(CastArray(ArrayFromVector(float64(), std::vector<double>{1}), decimal128(10, 2))),
            "Unsupported cast from double to decimal128 using function cast_decimal");
  EXPECT_EQ(Message(CastArray(StringArrayFromVector({"1"}), decimal128(10, 2))),
            "Unsupported cast from string to decimal128 using function cast_decimal");
  EXPECT_EQ(Message(CastArray(ArrayFromVector(date32(), std::vector<int32_t>{1}), utf8())),
            "Unsupported cast from date32[day] to utf8 using function cast_string");
  EXPECT_EQ(Message(CastArray(ArrayFromVector(int32(), std::vector<int32_t>{1}), list(int32()))),
            "Unsupported cast from int32 to list using function cast_list");
}

TEST(Cast, ValidityIsSharedAtByteOffsets) {
  std::vector<bool> valid(40);
  for (size_t i = 0; i < valid.size(); ++i) valid[i] = i % 3 != 0;
  ArrayDataPtr base = ArrayFromVector(int32(), std::vector<int32_t>(40, 7), valid);
  ArrayDataPtr at8 = MustCast(base->Slice(8, 30), int64());
  ASSERT_NE(at8, nullptr);
  EXPECT_EQ(at8->buffers[0]->data(), base->buffers[0]->data() + 1);
  ArrayDataPtr at5 = MustCast(base->Slice(5, 30), int64());
  ASSERT_NE(at5, nullptr);
  EXPECT_EQ(at5->offset, 0);
  for (int64_t i = 0; i < 30; ++i) EXPECT_EQ(at5->IsValid(i), valid[static_cast<size_t>(5 + i)]);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
