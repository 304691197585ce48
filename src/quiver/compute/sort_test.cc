// sort_indices (sort.h) against a reference stable sort (std::stable_sort
// with pyarrow's rules written out: NaN after numbers and before nulls,
// -0.0 == +0.0, bytes in memcmp order) on random columns of every kind,
// both orders, both null placements; hand-made cases pyarrow 26 printed;
// several keys; errors.
#include "quiver/compute/sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/util/float16.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using namespace quiver::testutil;  // NOLINT
using util::FloatToHalf;

std::vector<uint64_t> Indices(const Result<ArrayDataPtr>& r) {
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return {};
  const ArrayData& a = **r;
  EXPECT_EQ(a.type->id(), Type::kUInt64);
  EXPECT_EQ(a.GetNullCount(), 0);
  const uint64_t* v = a.GetValues<uint64_t>(1);
  return std::vector<uint64_t>(v, v + a.length);
}

// The reference: rows ordered stably by (class, value) where class puts
// values, NaN and nulls as `placement` says.
template <typename T, typename Less, typename IsNaN>
std::vector<uint64_t> Reference(const std::vector<std::optional<T>>& v, SortOrder order,
                                NullPlacement placement, Less less, IsNaN is_nan) {
  auto cls = [&](size_t i) {
    const int c = !v[i] ? 2 : is_nan(*v[i]) ? 1 : 0;
    return placement == NullPlacement::kAtEnd ? c : 2 - c;
  };
  std::vector<uint64_t> rows(v.size());
  std::iota(rows.begin(), rows.end(), uint64_t{0});
  std::stable_sort(rows.begin(), rows.end(), [&](uint64_t a, uint64_t b) {
    const int ca = cls(a), cb = cls(b);
    if (ca != cb) return ca < cb;
    if (!v[a] || is_nan(*v[a])) return false;
    return order == SortOrder::kAscending ? less(*v[a], *v[b]) : less(*v[b], *v[a]);
  });
  return rows;
}

constexpr SortOrder kOrders[] = {SortOrder::kAscending, SortOrder::kDescending};
constexpr NullPlacement kPlacements[] = {NullPlacement::kAtEnd, NullPlacement::kAtStart};

template <typename T>
std::vector<std::optional<T>> WithNulls(const std::vector<T>& values,
                                        const std::vector<bool>& validity) {
  std::vector<std::optional<T>> out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (validity.empty() || validity[i]) out.emplace_back(values[i]); else out.emplace_back();
  }
  return out;
}

std::vector<bool> RandomValidity(size_t n, double null_fraction, std::mt19937_64* rng) {
  std::bernoulli_distribution valid(1.0 - null_fraction);
  std::vector<bool> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = valid(*rng);
  return v;
}

template <typename T>
void CheckIntegers(TypePtr type, T lo, T hi, size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> dist(static_cast<int64_t>(lo), static_cast<int64_t>(hi));
  std::vector<T> values(n);
  for (auto& x : values) x = static_cast<T>(dist(rng));
  for (double nulls : {0.0, 0.1}) {
    const auto validity = nulls > 0 ? RandomValidity(n, nulls, &rng) : std::vector<bool>{};
    auto array = ArrayFromVector(type, values, validity);
    const auto ref = WithNulls(values, validity);
    for (SortOrder o : kOrders) {
      for (NullPlacement p : kPlacements) {
        EXPECT_EQ(Indices(SortIndices(*array, o, p)),
                  Reference(ref, o, p, std::less<T>(), [](T) { return false; }))
            << type->ToString() << " n=" << n << " nulls=" << nulls;
      }
    }
  }
}

TEST(SortIndices, Integers) {
  for (size_t n : {0, 1, 2, 63, 5000}) {
    CheckIntegers<int8_t>(int8(), -128, 127, n, 1);
    CheckIntegers<uint8_t>(uint8(), 0, 255, n, 2);
    CheckIntegers<int16_t>(int16(), -300, 300, n, 3);
    CheckIntegers<uint16_t>(uint16(), 0, 65535, n, 4);
    CheckIntegers<int32_t>(int32(), std::numeric_limits<int32_t>::min(),
                           std::numeric_limits<int32_t>::max(), n, 5);
    CheckIntegers<uint32_t>(uint32(), 0, 10, n, 6);
    // Full range: keys and rows do not fit one word (16-byte entries).
    CheckIntegers<int64_t>(int64(), std::numeric_limits<int64_t>::min(),
                           std::numeric_limits<int64_t>::max(), n, 7);
    CheckIntegers<int64_t>(timestamp(TimeUnit::kMicro), -1000000, 1000000, n, 8);
    CheckIntegers<int32_t>(date32(), -100, 100, n, 9);
  }
  // uint64 beyond 2^63 (no sign flip for unsigned).
  std::vector<uint64_t> u = {~uint64_t{0}, 0, uint64_t{1} << 63, 5, (uint64_t{1} << 63) - 1};
  EXPECT_EQ(Indices(SortIndices(*ArrayFromVector(uint64(), u))),
            (std::vector<uint64_t>{1, 3, 4, 2, 0}));
}

bool IsNaN(double d) { return std::isnan(d); }

TEST(SortIndices, FloatsLikePyarrow) {
  // pyarrow 26: pa.array([1.0, None, nan, -0.0, 0.0, -1.0, nan, None, inf]).
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> v = {1.0, 0, nan, -0.0, 0.0, -1.0, nan, 0, inf};
  std::vector<bool> valid = {true, false, true, true, true, true, true, false, true};
  auto a = ArrayFromVector(float64(), v, valid);
  using V = std::vector<uint64_t>;
  EXPECT_EQ(Indices(SortIndices(*a)), (V{5, 3, 4, 0, 8, 2, 6, 1, 7}));
  EXPECT_EQ(Indices(SortIndices(*a, SortOrder::kAscending, NullPlacement::kAtStart)),
            (V{1, 7, 2, 6, 5, 3, 4, 0, 8}));
  EXPECT_EQ(Indices(SortIndices(*a, SortOrder::kDescending)), (V{8, 0, 3, 4, 5, 2, 6, 1, 7}));
  EXPECT_EQ(Indices(SortIndices(*a, SortOrder::kDescending, NullPlacement::kAtStart)),
            (V{1, 7, 2, 6, 8, 0, 3, 4, 5}));
  std::vector<float> f(v.begin(), v.end());
  EXPECT_EQ(Indices(SortIndices(*ArrayFromVector(float32(), f, valid), SortOrder::kDescending)),
            (V{8, 0, 3, 4, 5, 2, 6, 1, 7}));
  std::vector<uint16_t> h;
  for (double d : v) h.push_back(FloatToHalf(static_cast<float>(d)));
  EXPECT_EQ(Indices(SortIndices(*ArrayFromVector(float16(), h, valid))),
            (V{5, 3, 4, 0, 8, 2, 6, 1, 7}));
}

TEST(SortIndices, RandomDoubles) {
  std::mt19937_64 rng(11);
  const double specials[] = {std::nan(""), -0.0, 0.0, std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::lowest(),
                             std::numeric_limits<double>::denorm_min(), -1.5, 1.5};
  for (size_t n : {10, 1000, 50000}) {
    std::vector<double> values(n);
    std::uniform_int_distribution<int> pick(0, 12);
    std::normal_distribution<double> normal(0, 100);
    for (auto& x : values) {
      const int k = pick(rng);
      x = k < 9 ? specials[k] : normal(rng);
    }
    const auto validity = RandomValidity(n, 0.1, &rng);
    const auto ref = WithNulls(values, validity);
    for (SortOrder o : kOrders) {
      for (NullPlacement p : kPlacements) {
        EXPECT_EQ(Indices(SortIndices(*ArrayFromVector(float64(), values, validity), o, p)),
                  Reference(ref, o, p, std::less<double>(), IsNaN));
      }
    }
  }
}

TEST(SortIndices, BooleanAndNull) {
  auto b = BooleanArrayFromVector({true, false, true, false}, {true, true, false, true});
  EXPECT_EQ(Indices(SortIndices(*b)), (std::vector<uint64_t>{1, 3, 0, 2}));
  EXPECT_EQ(Indices(SortIndices(*b, SortOrder::kDescending, NullPlacement::kAtStart)),
            (std::vector<uint64_t>{2, 0, 1, 3}));
  EXPECT_EQ(Indices(SortIndices(*NullArrayOfLength(3))), (std::vector<uint64_t>{0, 1, 2}));
}

std::vector<std::string> RandomStrings(size_t n, std::mt19937_64* rng) {
  // Shared prefixes longer than 8 bytes, empty strings, embedded zeros and
  // high bytes (memcmp order is unsigned).
  const std::string stems[] = {"", "a", "abcdefgh", "abcdefghij", std::string("a\0b", 3),
                               "\xff\x01", "zz", "abcdefgh\xc3\xa9"};
  std::uniform_int_distribution<int> pick(0, 7), len(0, 20), byte(0, 255);
  std::vector<std::string> out(n);
  for (auto& s : out) {
    s = stems[pick(*rng)];
    const int extra = len(*rng) % 4 == 0 ? len(*rng) : 0;
    for (int i = 0; i < extra; ++i) s += static_cast<char>(byte(*rng) % 4 == 0 ? 'q' : byte(*rng));
  }
  return out;
}

TEST(SortIndices, BinaryLayouts) {
  std::mt19937_64 rng(21);
  for (size_t n : {0, 5, 3000}) {
    const auto values = RandomStrings(n, &rng);
    const auto validity = RandomValidity(n, 0.2, &rng);
    const auto ref = WithNulls(values, validity);
    const ArrayDataPtr arrays[] = {
        StringArrayFromVector(values, validity, binary()),
        StringArrayFromVector(values, validity, large_utf8()),
        BinaryViewArrayFromVector(values, validity, binary_view()),
    };
    for (const auto& array : arrays) {
      for (SortOrder o : kOrders) {
        for (NullPlacement p : kPlacements) {
          EXPECT_EQ(Indices(SortIndices(*array, o, p)),
                    Reference(ref, o, p, std::less<std::string>(),
                              [](const std::string&) { return false; }))
              << array->type->ToString();
        }
      }
    }
  }
  // fixed_size_binary: equal widths, bytes as unsigned.
  std::vector<std::string> fixed = {"ab", "\xff" "a", "aa", "ab", std::string("\0z", 2)};
  auto f = FixedSizeBinaryArrayFromVector(fixed_size_binary(2), fixed);
  EXPECT_EQ(Indices(SortIndices(*f)), (std::vector<uint64_t>{4, 2, 0, 3, 1}));
  EXPECT_EQ(Indices(SortIndices(*f, SortOrder::kDescending)),
            (std::vector<uint64_t>{1, 0, 3, 2, 4}));
}

TEST(SortIndices, LongSharedPrefixesAndDuplicates) {
  // Runs longer than 16 that share 7, 14, 21... bytes, strings that are
  // prefixes of others (also with trailing zero bytes), many duplicates.
  std::mt19937_64 rng(41);
  std::uniform_int_distribution<int> pick(0, 29), digit(0, 9);
  std::vector<std::string> pool;
  for (int i = 0; i < 30; ++i) {
    std::string s = i % 3 == 0 ? "customer-number-" : i % 3 == 1 ? "customer-" : "";
    for (int k = 0; k < i % 5; ++k) s += static_cast<char>('0' + digit(rng));
    if (i % 7 == 0) s += std::string(2, '\0');
    pool.push_back(s);
  }
  pool.push_back(std::string(40, 'x'));
  pool.push_back(std::string(41, 'x'));
  std::vector<std::string> values(4000);
  for (auto& v : values) v = pool[static_cast<size_t>(pick(rng))];
  values[5] = pool[30];
  values[6] = pool[31];
  const auto validity = RandomValidity(values.size(), 0.05, &rng);
  const auto ref = WithNulls(values, validity);
  for (SortOrder o : kOrders) {
    for (NullPlacement p : kPlacements) {
      EXPECT_EQ(Indices(SortIndices(*StringArrayFromVector(values, validity), o, p)),
                Reference(ref, o, p, std::less<std::string>(),
                          [](const std::string&) { return false; }));
    }
  }
}

TEST(SortIndices, Decimals) {
  // decimal128 values as little-endian 16-byte integers: -2, 150, -300, 150, 0, null.
  auto le = [](int64_t v, int width) {
    std::string s(static_cast<size_t>(width), v < 0 ? '\xff' : '\0');
    std::memcpy(s.data(), &v, 8);
    return s;
  };
  const int64_t v[] = {-2, 150, -300, 150, 0, 7};
  for (int width : {16, 32}) {
    std::vector<std::string> bytes;
    for (int64_t x : v) bytes.push_back(le(x, width));
    auto type = width == 16 ? decimal128(10, 2) : decimal256(40, 2);
    auto a = FixedSizeBinaryArrayFromVector(type, bytes, {true, true, true, true, true, false});
    EXPECT_EQ(Indices(SortIndices(*a)), (std::vector<uint64_t>{2, 0, 4, 1, 3, 5}));
    EXPECT_EQ(Indices(SortIndices(*a, SortOrder::kDescending, NullPlacement::kAtStart)),
              (std::vector<uint64_t>{5, 1, 3, 4, 0, 2}));
  }
  auto d64 = ArrayFromVector(decimal64(10, 2), std::vector<int64_t>{5, -5, 0});
  EXPECT_EQ(Indices(SortIndices(*d64)), (std::vector<uint64_t>{1, 2, 0}));
}

TEST(SortIndices, DictionaryByValue) {
  // pyarrow 26: indices [0, 1, 2, 0, None] into [3.0, None, nan] -> [0, 3, 2, 1, 4].
  auto dict = ArrayFromVector(float64(), std::vector<double>{3.0, 0, std::nan("")},
                              {true, false, true});
  auto a = DictionaryArrayFromIndices(dictionary(int64(), float64()), {0, 1, 2, 0, 0}, dict,
                                      {true, true, true, true, false});
  EXPECT_EQ(Indices(SortIndices(*a)), (std::vector<uint64_t>{0, 3, 2, 1, 4}));
  // Strings, dictionary order unlike value order.
  auto sdict = StringArrayFromVector({"pear", "apple", "fig"});
  auto s = DictionaryArrayFromIndices(dictionary(int8(), utf8()), {0, 2, 1, 0, 1}, sdict);
  EXPECT_EQ(Indices(SortIndices(*s)), (std::vector<uint64_t>{2, 4, 1, 0, 3}));
  EXPECT_EQ(Indices(SortIndices(*s, SortOrder::kDescending)),
            (std::vector<uint64_t>{0, 3, 1, 2, 4}));
}

TEST(SortIndices, SlicedInput) {
  std::vector<int32_t> v = {9, 8, 7, 6, 5, 4, 3};
  auto a = ArrayFromVector(int32(), v, {true, true, false, true, true, true, true})->Slice(1, 5);
  // Rows 8, null, 6, 5, 4: ascending 4 3 2 0, the null last.
  EXPECT_EQ(Indices(SortIndices(*a)), (std::vector<uint64_t>{4, 3, 2, 0, 1}));
  auto s = StringArrayFromVector({"x", "c", "b", "a"})->Slice(1, 3);
  EXPECT_EQ(Indices(SortIndices(*s)), (std::vector<uint64_t>{2, 1, 0}));
}

TEST(SortIndices, SeveralKeys) {
  std::mt19937_64 rng(31);
  const size_t n = 5000;
  std::uniform_int_distribution<int32_t> small(0, 5);
  std::vector<int32_t> a(n);
  std::vector<double> b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = small(rng);
    const int k = small(rng);
    b[i] = k == 0 ? std::nan("") : k == 1 ? -0.0 : k == 2 ? 0.0 : static_cast<double>(small(rng));
  }
  const auto strings = RandomStrings(n, &rng);
  const auto va = RandomValidity(n, 0.1, &rng), vb = RandomValidity(n, 0.1, &rng),
             vc = RandomValidity(n, 0.1, &rng);
  const auto ra = WithNulls(a, va);
  const auto rb = WithNulls(b, vb);
  const auto rc = WithNulls(strings, vc);
  auto batch = std::make_shared<RecordBatch>(
      schema({field("a", int32()), field("b", float64()), field("c", utf8())}),
      static_cast<int64_t>(n),
      std::vector<ArrayDataPtr>{ArrayFromVector(int32(), a, va), ArrayFromVector(float64(), b, vb),
                                StringArrayFromVector(strings, vc)});
  for (SortOrder o1 : kOrders) {
    for (NullPlacement p2 : kPlacements) {
      for (SortOrder o3 : kOrders) {
        // Reference: compose the one-key comparators.
        auto cmp = [&](auto& v, SortOrder o, NullPlacement p, auto is_nan, uint64_t x,
                       uint64_t y) -> int {
          auto cls = [&](uint64_t i) {
            const int c = !v[i] ? 2 : is_nan(*v[i]) ? 1 : 0;
            return p == NullPlacement::kAtEnd ? c : 2 - c;
          };
          if (cls(x) != cls(y)) return cls(x) < cls(y) ? -1 : 1;
          if (!v[x] || is_nan(*v[x])) return 0;
          if (*v[x] < *v[y]) return o == SortOrder::kAscending ? -1 : 1;
          if (*v[y] < *v[x]) return o == SortOrder::kAscending ? 1 : -1;
          return 0;
        };
        auto no_nan = [](const auto&) { return false; };
        std::vector<uint64_t> expected(n);
        std::iota(expected.begin(), expected.end(), uint64_t{0});
        std::stable_sort(expected.begin(), expected.end(), [&](uint64_t x, uint64_t y) {
          if (int c = cmp(ra, o1, NullPlacement::kAtEnd, no_nan, x, y)) return c < 0;
          if (int c = cmp(rb, SortOrder::kAscending, p2, IsNaN, x, y)) return c < 0;
          return cmp(rc, o3, NullPlacement::kAtStart, no_nan, x, y) < 0;
        });
        std::vector<SortKey> keys = {{"a", o1, NullPlacement::kAtEnd},
                                     {"b", SortOrder::kAscending, p2},
                                     {"c", o3, NullPlacement::kAtStart}};
        EXPECT_EQ(Indices(SortIndices(*batch, keys)), expected);
      }
    }
  }
}

TEST(SortIndices, Errors) {
  auto batch = std::make_shared<RecordBatch>(schema({field("a", int32())}), 1,
                                             std::vector<ArrayDataPtr>{ArrayFromVector(
                                                 int32(), std::vector<int32_t>{1})});
  auto missing = SortIndices(*batch, {{"zz"}});
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().IsInvalid());
  EXPECT_NE(missing.status().message().find("'zz'"), std::string::npos);
  auto none = SortIndices(std::vector<ColumnSortKey>{});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(), "Must specify one or more sort keys");
  auto lists = ListArrayFromOffsets(list(int32()), {0, 1}, ArrayFromVector(int32(), std::vector<int32_t>{1}));
  auto nested = SortIndices(*lists);
  ASSERT_FALSE(nested.ok());
  EXPECT_TRUE(nested.status().IsNotImplemented());
  EXPECT_NE(nested.status().message().find("sort_indices"), std::string::npos);
  EXPECT_FALSE(ParseSortOrder("up").ok());
  EXPECT_FALSE(ParseNullPlacement("middle").ok());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
