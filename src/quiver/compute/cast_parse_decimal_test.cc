// cast of strings parsed as numbers and booleans (cast_parse.cc) and of
// decimals (cast_decimal.cc), against pyarrow 26's results (values and
// messages measured there): the text forms Arrow accepts and refuses, the
// row an error names, nulls under invalid text, slices at odd offsets;
// decimal rescaling, precision, widths and bounds, safe and unsafe. Every
// result passes ValidateFull (MustCast). python/tests/test_compute_cast.py
// judges the same kernels by pyarrow on random data.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/compute/cast_test_util_internal.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::ArrayFromVector;
using testutil::StringArrayFromVector;
using namespace testing;  // NOLINT: the shared test helpers

std::string CastError(const ArrayDataPtr& in, const TypePtr& to, bool safe = true) {
  Result<ArrayDataPtr> r = CastArray(in, to, safe);
  EXPECT_FALSE(r.ok()) << in->type->ToString() << " -> " << to->ToString();
  return r.ok() ? "" : r.status().message();
}

ArrayDataPtr Text(const std::vector<std::string>& v, TypePtr type = utf8()) {
  return StringArrayFromVector(v, {}, std::move(type));
}

TEST(CastParse, Integers) {
  auto out = MustCast(Text({"1", "-1", "0x1F", "0XfF", "007", "-0", "127", "-128"}), int8());
  EXPECT_EQ(std::vector<int8_t>(out->GetValues<int8_t>(1), out->GetValues<int8_t>(1) + 8),
            (std::vector<int8_t>{1, -1, 31, -1, 7, 0, 127, -128}));
  for (const char* bad : {" 1", "1 ", "+1", "", "-", "0x", "0x100", "-0x1", "128", "-129", "1e2",
                          "1.0", "0x0000FF"}) {
    EXPECT_EQ(CastError(Text({bad}), int8()),
              std::string("Failed to parse string: '") + bad + "' as a scalar of type int8");
  }
  EXPECT_EQ(CastError(Text({"-0"}), uint8()), "Failed to parse string: '-0' as a scalar of type uint8");
  auto u64 = MustCast(Text({"18446744073709551615", "0xFFFFFFFFFFFFFFFF"}), uint64());
  EXPECT_EQ(u64->GetValues<uint64_t>(1)[0], UINT64_MAX);
  EXPECT_EQ(u64->GetValues<uint64_t>(1)[1], UINT64_MAX);
  auto i64 = MustCast(Text({"-9223372036854775808"}, large_utf8()), int64());
  EXPECT_EQ(i64->GetValues<int64_t>(1)[0], INT64_MIN);
  EXPECT_EQ(CastError(Text({"9223372036854775808"}), int64()),
            "Failed to parse string: '9223372036854775808' as a scalar of type int64");
}

TEST(CastParse, TheLastFailingRowIsNamed) {
  EXPECT_EQ(CastError(Text({"x", "1", "y", "2"}), int32()),
            "Failed to parse string: 'y' as a scalar of type int32");
  EXPECT_EQ(CastError(Text({"a", "-7"}), boolean()), "Failed to parse value: -7");
  EXPECT_EQ(CastError(Text({"x", "1"}), float64(), /*safe=*/false),
            "Failed to parse string: 'x' as a scalar of type double");
}

TEST(CastParse, Floats) {
  auto out = MustCast(Text({"1.5", "+1.5", "-.5", "5.", "1e5", "inf", "-Infinity", "nan", "1e400",
                            "-1e400", "1e-400"}),
                      float64());
  const double* v = out->GetValues<double>(1);
  EXPECT_EQ(v[0], 1.5);
  EXPECT_EQ(v[1], 1.5);
  EXPECT_EQ(v[2], -0.5);
  EXPECT_EQ(v[3], 5.0);
  EXPECT_EQ(v[4], 1e5);
  EXPECT_EQ(v[5], INFINITY);
  EXPECT_EQ(v[6], -INFINITY);
  EXPECT_TRUE(std::isnan(v[7]));
  EXPECT_EQ(v[8], INFINITY);
  EXPECT_EQ(v[9], -INFINITY);
  EXPECT_EQ(v[10], 0.0);
  for (const char* bad : {" 1", "+-1", "+", "1e", "1..5", "0x1p3", "infinit", ""}) {
    EXPECT_EQ(CastError(Text({bad}), float64()),
              std::string("Failed to parse string: '") + bad + "' as a scalar of type double");
  }
  auto f32 = MustCast(Text({"1e40", "0.1"}), float32());
  EXPECT_EQ(f32->GetValues<float>(1)[0], INFINITY);
  EXPECT_EQ(f32->GetValues<float>(1)[1], 0.1f);
  MustCast(Text({"0.1", "65520"}), float16());
}

TEST(CastParse, BooleansNullsAndSlices) {
  auto in = StringArrayFromVector({"junk", "TRUE", "not parsed", "0", "tRuE", "False", "1"},
                                  {true, true, false, true, true, true, true});
  auto sliced = in->Slice(1, 6);  // a bit offset of 1; the null hides "not parsed"
  auto out = MustCast(sliced, boolean());
  EXPECT_EQ(out->GetNullCount(), 1);
  for (int64_t i : {0, 2, 3, 4, 5}) {
    const bool expected = i == 0 || i == 3 || i == 5;
    EXPECT_EQ(bit_util::GetBit(out->buffers[1]->data(), i), expected) << i;
  }
  EXPECT_EQ(CastError(Text({"yes"}), boolean()), "Failed to parse value: yes");
  auto ints = MustCast(sliced->Slice(1, 1), int64());  // only the null row
  EXPECT_EQ(ints->GetNullCount(), 1);
}

// --- decimals -----------------------------------------------------------------

template <typename T>
ArrayDataPtr Dec(TypePtr type, const std::vector<T>& unscaled, const std::vector<bool>& validity = {}) {
  return ArrayFromVector(std::move(type), unscaled, validity);
}

TEST(CastDecimal, Rescale) {
  auto in = Dec(decimal64(15, 2), std::vector<int64_t>{155, -155, 99999});
  EXPECT_EQ(CastError(in, decimal64(15, 1)), "Rescaling Decimal value would cause data loss");
  auto down = MustCast(in, decimal64(15, 1), /*safe=*/false);
  EXPECT_EQ(down->GetValues<int64_t>(1)[0], 15);
  EXPECT_EQ(down->GetValues<int64_t>(1)[1], -15);
  auto up = MustCast(in, decimal32(9, 4));
  EXPECT_EQ(up->GetValues<int32_t>(1)[2], 9999900);
  EXPECT_EQ(CastError(in, decimal32(6, 4)), "Decimal value does not fit in precision 6");
  auto unchecked = MustCast(in, decimal32(6, 4), /*safe=*/false);
  EXPECT_EQ(unchecked->GetValues<int32_t>(1)[2], 9999900);
  // The last failing row names the error.
  auto both = Dec(decimal64(15, 4), std::vector<int64_t>{12345, 999999000});
  EXPECT_EQ(CastError(both, decimal32(7, 3)), "Decimal value does not fit in precision 7");
  auto flipped = Dec(decimal64(15, 4), std::vector<int64_t>{999999000, 12345});
  EXPECT_EQ(CastError(flipped, decimal32(7, 3)), "Rescaling Decimal value would cause data loss");
  // Towards decimal32 Arrow keeps the low 4 bytes first (pyarrow 26: 1).
  auto wide = Dec(decimal64(18, 0), std::vector<int64_t>{4294967297});
  EXPECT_EQ(MustCast(wide, decimal32(9, 0))->GetValues<int32_t>(1)[0], 1);
  // Upscaled in 32 bits: 1234567825 * 10 wraps (a loss); unsafe, the low bits.
  auto wraps = Dec(decimal64(10, 2), std::vector<int64_t>{1234567825});
  EXPECT_EQ(CastError(wraps, decimal32(9, 3)), "Rescaling Decimal value would cause data loss");
  EXPECT_EQ(MustCast(wraps, decimal32(9, 3), false)->GetValues<int32_t>(1)[0], -539223638);
}

TEST(CastDecimal, IntegersToDecimals) {
  auto in = ArrayFromVector(int8(), std::vector<int8_t>{-128, 0, 5, 127}, {true, false, true, true});
  auto out = MustCast(in->Slice(1, 3), decimal128(5, 2));
  EXPECT_EQ(out->null_count, 1);
  EXPECT_EQ(CastError(in, decimal128(4, 2)),
            "Precision is not great enough for the result. It should be at least 5");
  EXPECT_EQ(CastError(in, decimal128(4, 2), false),
            "Precision is not great enough for the result. It should be at least 5");
  EXPECT_EQ(CastError(in, decimal128(5, -1)), "Scale must be non-negative");
  auto i64 = ArrayFromVector(int64(), std::vector<int64_t>{INT64_MIN});
  auto wide = MustCast(i64, decimal256(40, 5));
  EXPECT_EQ(wide->GetValues<int64_t>(1)[3], -1);  // sign-extended to 256 bits
}

TEST(CastDecimal, DecimalsToIntegers) {
  auto in = Dec(decimal64(18, 1), std::vector<int64_t>{20, 25, -25, 3000});
  EXPECT_EQ(CastError(in->Slice(0, 2), int64()), "Rescaling Decimal value would cause data loss");
  EXPECT_EQ(CastError(in->Slice(3, 1), int8()), "Integer value out of bounds");
  auto unsafe = MustCast(in, int8(), false);
  EXPECT_EQ(std::vector<int8_t>(unsafe->GetValues<int8_t>(1), unsafe->GetValues<int8_t>(1) + 4),
            (std::vector<int8_t>{2, 2, -2, 44}));
  // Arrow's bounds in the decimal's width: decimal32 to int64 refuses every
  // value (pyarrow 26 does).
  auto small = Dec(decimal32(9, 0), std::vector<int32_t>{6});
  EXPECT_EQ(CastError(small, int64()), "Integer value out of bounds");
  EXPECT_EQ(MustCast(small, int32())->GetValues<int32_t>(1)[0], 6);
  // A negative scale multiplies.
  auto hundreds = Dec(decimal64(5, -2), std::vector<int64_t>{3});
  EXPECT_EQ(MustCast(hundreds, int16())->GetValues<int16_t>(1)[0], 300);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
