#include "quiver/compute/string_predicates.h"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/array/validate.h"
#include "quiver/compute/boolean.h"
#include "quiver/compute/case_fold_internal.h"
#include "quiver/compute/like_pattern_internal.h"
#include "quiver/compute/simd_level.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testutil::BinaryViewArrayFromVector;
using testutil::StringArrayFromVector;
using Tri = std::optional<bool>;

// The three layouts of a string (or binary) array of `values`.
std::vector<ArrayDataPtr> Layouts(const std::vector<std::string>& values,
                                  const std::vector<bool>& validity, bool binary = false) {
  return {StringArrayFromVector(values, validity, binary ? quiver::binary() : utf8()),
          StringArrayFromVector(values, validity, binary ? large_binary() : large_utf8()),
          BinaryViewArrayFromVector(values, validity, binary ? binary_view() : utf8_view())};
}

std::vector<Tri> Bools(const Result<Datum>& got) {
  EXPECT_TRUE(got.ok()) << got.status();
  if (!got.ok()) return {};
  const ArrayData& a = *got->array();
  EXPECT_TRUE(ValidateArrayFull(a).ok());
  EXPECT_EQ(a.type->id(), Type::kBool);
  std::vector<Tri> out;
  for (int64_t i = 0; i < a.length; ++i) {
    out.push_back(a.IsValid(i) ? Tri(bit_util::GetBit(a.buffers[1]->data(), a.offset + i)) : Tri());
  }
  EXPECT_EQ(a.buffers[0] == nullptr, a.GetNullCount() == 0);
  return out;
}

using Kernel = Result<Datum> (*)(const Datum&, const MatchOptions&, MemoryPool*);

void Check(Kernel kernel, const std::string& pattern, bool ignore_case,
           const std::vector<std::string>& values, const std::vector<bool>& want,
           bool binary = false) {
  for (const ArrayDataPtr& a : Layouts(values, {}, binary)) {
    std::vector<Tri> expect(want.begin(), want.end());
    EXPECT_EQ(Bools(kernel(a, {pattern, ignore_case}, DefaultMemoryPool())), expect)
        << "pattern '" << pattern << "' " << a->type->ToString();
  }
}

// pyarrow 26's answers (python/tests/test_compute_string.py checks them
// against pyarrow itself).
TEST(MatchLike, PyarrowPatternShapes) {
  const std::vector<std::string> s = {"abc", "a\\bc", "ab", "xa%b", "a_b", "ABC", ""};
  // A raw prefix/suffix/substring shape keeps its backslashes.
  Check(MatchLike, "a\\b%", false, s, {false, true, false, false, false, false, false});
  Check(MatchLike, "a%", false, s, {true, true, true, false, true, false, false});
  Check(MatchLike, "%", false, s, {true, true, true, true, true, true, true});
  Check(MatchLike, "", false, s, {false, false, false, false, false, false, true});
  Check(MatchLike, "%%", false, s, {true, true, true, true, true, true, true});
  Check(MatchLike, "a\\%", false, s, {false, false, false, false, false, false, false});
  Check(MatchLike, "%c\\", false, s, {false, false, false, false, false, false, false});
  Check(MatchLike, "%c", false, s, {true, true, false, false, false, false, false});
  // A trailing lone backslash is dropped.
  Check(MatchLike, "ab\\", false, s, {false, false, true, false, false, false, false});
  Check(MatchLike, "a_c", false, s, {true, false, false, false, false, false, false});
  Check(MatchLike, "%b%", false, s, {true, true, true, true, true, false, false});
  Check(MatchLike, "%a\\%%", false, s, {false, false, false, true, false, false, false});
  Check(MatchLike, "a\\\\%", false, s, {false, true, false, false, false, false, false});
  Check(MatchLike, "a\\_b", false, s, {false, false, false, false, true, false, false});
  Check(MatchLike, "a%c", true, s, {true, true, false, false, false, true, false});
  Check(MatchLike, "a\\b%", true, s, {true, false, true, false, false, true, false});
}

TEST(MatchLike, MultiByteAndCaseFolding) {
  const std::vector<std::string> u = {"Straße", "STRASSE", "ΣΑΣ", "σας", "σασ", "K", "\u212a",
                                      "k", "İ", "i", "ı", "I", "ſ", "s", "ẞ", "ß", "Ⱥ", "ⱥ"};
  auto only = [&](std::vector<int> hits) {
    std::vector<bool> w(u.size(), false);
    for (int h : hits) w[static_cast<size_t>(h)] = true;
    return w;
  };
  Check(MatchLike, "straße", true, u, only({0}));
  Check(MatchLike, "strasse", true, u, only({1}));
  Check(MatchLike, "σας", true, u, only({2, 3, 4}));
  Check(MatchLike, "k", true, u, only({5, 6, 7}));
  Check(MatchLike, "i", true, u, only({9, 11}));
  Check(MatchLike, "ı", true, u, only({10}));
  Check(MatchLike, "İ", true, u, only({8}));
  Check(MatchLike, "s", true, u, only({12, 13}));
  Check(MatchLike, "ß", true, u, only({14, 15}));
  Check(MatchLike, "ⱥ", true, u, only({16, 17}));
  // '_' is one code point.
  Check(MatchLike, "_", false, u, only({5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}));
  Check(MatchLike, "___", false, u, only({2, 3, 4}));
  Check(StartsWith, "STR", true, u, only({0, 1}));
  Check(EndsWith, "SSE", true, u, only({1}));
  Check(MatchSubstring, "ASS", true, u, only({1}));
  Check(MatchSubstring, "\u212a", true, u, only({5, 6, 7}));
  // Newlines are characters like any other.
  Check(MatchLike, "a_b", false, {"a\nb"}, {true});
  Check(MatchLike, "a%", false, {"a\nb"}, {true});
}

TEST(MatchLike, BinaryIsBytesAndFoldsAscii) {
  const std::vector<std::string> b = {"\xc9", "\xe9", "A", "a", "\xc3\xa9", "\xc3\x89", "\xe3\xa9"};
  Check(MatchLike, "\xc3\xa9", true, b, {false, false, false, false, true, false, false}, true);
  Check(MatchLike, "\xe9", true, b, {false, true, false, false, false, false, false}, true);
  Check(MatchLike, "a", true, b, {false, false, true, true, false, false, false}, true);
  Check(MatchLike, "_", false, b, {true, true, true, true, false, false, false}, true);
  Check(MatchLike, "__", false, b, {false, false, false, false, true, true, true}, true);
}

// A reference LIKE matcher: dynamic programming over code points (no
// backslashes in the patterns it gets).
bool ReferenceLike(const std::string& pattern, const std::string& value) {
  auto split = [](const std::string& s) {
    std::vector<std::string> cps;
    for (size_t i = 0; i < s.size();) {
      size_t j = i + 1;
      while (j < s.size() && (static_cast<uint8_t>(s[j]) & 0xC0) == 0x80) ++j;
      cps.push_back(s.substr(i, j - i));
      i = j;
    }
    return cps;
  };
  const auto p = split(pattern);
  const auto v = split(value);
  std::vector<std::vector<char>> dp(p.size() + 1, std::vector<char>(v.size() + 1, 0));
  dp[0][0] = 1;
  for (size_t i = 1; i <= p.size(); ++i) {
    for (size_t j = 0; j <= v.size(); ++j) {
      if (p[i - 1] == "%") {
        dp[i][j] = dp[i - 1][j] || (j > 0 && dp[i][j - 1]);
      } else if (j > 0) {
        dp[i][j] = dp[i - 1][j - 1] && (p[i - 1] == "_" || p[i - 1] == v[j - 1]);
      }
    }
  }
  return dp[p.size()][v.size()] != 0;
}

TEST(MatchLike, RandomAgainstReference) {
  std::mt19937 rng(44);
  const std::vector<std::string> alphabet = {"a", "b", "é", "Σ"};
  const std::vector<std::string> pattern_alphabet = {"a", "b", "é", "Σ", "%", "_"};
  auto random_string = [&](const std::vector<std::string>& from, int max_len) {
    std::string s;
    const int n = static_cast<int>(rng() % static_cast<unsigned>(max_len + 1));
    for (int i = 0; i < n; ++i) s += from[rng() % from.size()];
    return s;
  };
  std::vector<std::string> values;
  std::vector<bool> validity;
  for (int i = 0; i < 200; ++i) {
    values.push_back(random_string(alphabet, 9));
    validity.push_back(rng() % 10 != 0);
  }
  for (int t = 0; t < 100; ++t) {
    const std::string pattern = random_string(pattern_alphabet, 6);
    for (const ArrayDataPtr& full : Layouts(values, validity)) {
      for (int64_t offset : {0, 3, 65}) {
        const ArrayDataPtr a = full->Slice(offset, full->length - offset);
        const std::vector<Tri> got = Bools(MatchLike(a, {pattern, false}));
        ASSERT_EQ(got.size(), static_cast<size_t>(a->length));
        for (int64_t i = 0; i < a->length; ++i) {
          const size_t k = static_cast<size_t>(offset + i);
          const Tri want = validity[k] ? Tri(ReferenceLike(pattern, values[k])) : Tri();
          ASSERT_EQ(got[static_cast<size_t>(i)], want)
              << "pattern '" << pattern << "' value '" << values[k] << "' " << a->type->ToString();
        }
      }
    }
  }
}

// LIKE without wildcards on the offsets layouts (lengths compared in
// vectors, then the candidates' bytes): every SIMD level, literals of 0 to
// 9 bytes (the 8-byte masked load and the byte compare), array lengths
// around a 64-row word, slices at odd offsets, 0 to 100% nulls, values at
// the end of the data buffer.
TEST(MatchLike, EqualsAtEveryLevel) {
  std::mt19937 rng(45);
  const std::vector<std::string> literals = {"", "x", "xy", "xxxx", "xyxyxyxy", "xyxyxyxyx"};
  for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    auto scoped = ScopedSimdLevel::Make(level);
    if (!scoped.ok()) continue;  // the CPU lacks it
    for (int64_t n : {0, 1, 63, 64, 65, 130, 3000}) {
      for (int null_pct : {0, 10, 50, 100}) {
        std::vector<std::string> values;
        std::vector<bool> validity;
        for (int64_t i = 0; i < n; ++i) {
          const std::string& lit = literals[rng() % literals.size()];
          std::string v = lit;
          if (rng() % 2 == 0 && !v.empty()) v[rng() % v.size()] = 'z';  // same length, differs
          if (rng() % 3 == 0) v.resize(rng() % 11, 'x');
          values.push_back(v);
          validity.push_back(static_cast<int>(rng() % 100) >= null_pct);
        }
        for (const TypePtr& type : {utf8(), large_utf8(), quiver::binary(), large_binary()}) {
          const ArrayDataPtr full = StringArrayFromVector(values, validity, type);
          for (int64_t offset : {0, 3, 65}) {
            if (offset > n) continue;
            const ArrayDataPtr a = full->Slice(offset, n - offset);
            for (const std::string& lit : literals) {
              const std::vector<Tri> got = Bools(MatchLike(a, {lit, false}));
              ASSERT_EQ(got.size(), static_cast<size_t>(a->length));
              for (int64_t i = 0; i < a->length; ++i) {
                const size_t k = static_cast<size_t>(offset + i);
                const Tri want = validity[k] ? Tri(values[k] == lit) : Tri();
                ASSERT_EQ(got[static_cast<size_t>(i)], want)
                    << "'" << lit << "' vs '" << values[k] << "' " << type->ToString() << " level "
                    << SimdLevelName(level) << " offset " << offset;
              }
              const SimdLevel ran = level != SimdLevel::kScalar && a->length >= 64
                                        ? SimdLevel::kAvx2
                                        : SimdLevel::kScalar;
              EXPECT_EQ(LastSimdLevel(), ran) << SimdLevelName(level) << " n " << a->length;
            }
          }
        }
      }
    }
  }
}

TEST(MatchLike, NoExponentialBacktracking) {
  const std::string value(20000, 'a');
  const auto start = std::chrono::steady_clock::now();
  const auto got = Bools(MatchLike(StringArrayFromVector({value}), {"%a%a%a%a%a%a%a%a%b", false}));
  EXPECT_EQ(got, std::vector<Tri>{false});
  const auto got2 = Bools(MatchLike(StringArrayFromVector({value}), {"%a_a%a_%b%", false}));
  EXPECT_EQ(got2, std::vector<Tri>{false});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(MatchLike, NotLikeIsInvertedLike) {
  const auto a = StringArrayFromVector({"abc", "x", "ab"}, {true, true, false});
  const auto like = MatchLike(a, {"a%", false});
  ASSERT_TRUE(like.ok());
  EXPECT_EQ(Bools(Invert(*like)), (std::vector<Tri>{false, true, Tri()}));
}

TEST(MatchLike, ScalarsTypesAndEmptyArrays) {
  auto s = MatchLike(Datum(Scalar::MakeString("abc")), {"a%", false});
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->scalar().bool_value());
  auto n = StartsWith(Datum(Scalar::MakeNull(utf8())), {"a", false});
  ASSERT_TRUE(n.ok());
  EXPECT_FALSE(n->scalar().is_valid());
  auto bad = MatchLike(testutil::ArrayFromVector<int64_t>(int64(), {1}), {"a", false});
  ASSERT_EQ(bad.status().code(), StatusCode::kNotImplemented);
  EXPECT_EQ(bad.status().message(), "Function 'match_like' has no kernel matching input types (int64)");
  for (const ArrayDataPtr& a : Layouts({}, {})) {
    EXPECT_EQ(Bools(MatchSubstring(a, {"x", false})).size(), 0u);
  }
  // All nulls: the validity passes through, values not read.
  const auto nulls = StringArrayFromVector({"a", "b"}, {false, false});
  EXPECT_EQ(Bools(EndsWith(nulls, {"a", true})), (std::vector<Tri>{Tri(), Tri()}));
}

TEST(FindBytes, MatchesStdFind) {
  std::mt19937 rng(7);
  for (int t = 0; t < 3000; ++t) {
    std::string h;
    const int n = static_cast<int>(rng() % 80);
    for (int i = 0; i < n; ++i) h.push_back("abc"[rng() % 3]);
    std::string needle;
    const int m = static_cast<int>(rng() % 6);
    for (int i = 0; i < m; ++i) needle.push_back("abc"[rng() % 3]);
    const size_t want = h.find(needle);
    const int64_t got = internal::FindBytes(h, needle);
    ASSERT_EQ(got, want == std::string::npos ? -1 : static_cast<int64_t>(want)) << h << " / " << needle;
    // Readable bytes after the haystack (an array's data buffer): the
    // same answer, whatever those bytes hold.
    const std::string buffer = h + needle + std::string(32, 'a');
    const int64_t padded = internal::FindBytes(std::string_view(buffer).substr(0, h.size()), needle,
                                               buffer.data() + buffer.size());
    ASSERT_EQ(padded, got) << h << " / " << needle;
  }
}

TEST(CaseFold, SimpleFolding) {
  using internal::SimpleCaseFold;
  EXPECT_EQ(SimpleCaseFold('A'), static_cast<uint32_t>('a'));
  EXPECT_EQ(SimpleCaseFold('a'), static_cast<uint32_t>('a'));
  EXPECT_EQ(SimpleCaseFold(0x212A), static_cast<uint32_t>('k'));
  EXPECT_EQ(SimpleCaseFold(0x3A3), 0x3C3u);
  EXPECT_EQ(SimpleCaseFold(0x3C2), 0x3C3u);
  EXPECT_EQ(SimpleCaseFold(0x1E9E), 0xDFu);
  EXPECT_EQ(SimpleCaseFold(0xDF), 0xDFu);
  EXPECT_EQ(SimpleCaseFold(0x130), 0x130u);
  EXPECT_EQ(SimpleCaseFold(0x131), 0x131u);
  EXPECT_EQ(SimpleCaseFold(0x10400), 0x10428u);  // Deseret, beyond the BMP
  EXPECT_EQ(SimpleCaseFold(0x10FFFF), 0x10FFFFu);
  // U+023A (2 bytes) folds to U+2C65 (3 bytes); U+212A (3) to 'k' (1).
  uint8_t out[internal::FoldedUtf8Capacity(16)];
  const std::string in = "\u023a\u212a";
  const int64_t n = internal::FoldUtf8(in, out);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(out), static_cast<size_t>(n)), "\u2c65k");
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
