// Tests for Concatenate (concatenate.h), on a column of every type.
#include "quiver/array/concatenate.h"

#include <gtest/gtest.h>

#include <string>

#include "quiver/array/array.h"
#include "quiver/array/test_util_internal.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

TEST(Concatenate, PiecesOfEveryTypeGiveTheWhole) {
  for (const auto& col : testutil::AllTypeColumns(21)) {
    SCOPED_TRACE(col.name);
    const auto& data = col.data;
    // Uneven pieces, some starting at bit offsets that are not multiples of 8.
    auto out = Concatenate({data->Slice(0, 3), data->Slice(3, 0), data->Slice(3, 10),
                            data->Slice(13, 8)});
    ASSERT_TRUE(out.ok()) << out.status();
    ASSERT_TRUE(MakeArray(*out)->ValidateFull().ok()) << MakeArray(*out)->ValidateFull();
    EXPECT_TRUE(MakeArray(*out)->Equals(*MakeArray(data)))
        << MakeArray(*out)->ToString() << "\nvs\n" << MakeArray(data)->ToString();
    EXPECT_EQ((*out)->GetNullCount(), data->GetNullCount());
  }
}

// Pieces long enough for the vector loop that re-bases offsets (and its
// scalar tail at every remainder): every type, cut at odd places.
TEST(Concatenate, LongPiecesGiveTheWhole) {
  for (int64_t n : {100, 1000, 4099}) {
    for (const auto& col : testutil::AllTypeColumns(n)) {
      SCOPED_TRACE(col.name + " n=" + std::to_string(n));
      const auto& data = col.data;
      const int64_t a = n / 3 + 1, b = n / 2 + 3;
      auto out = Concatenate({data->Slice(0, a), data->Slice(a, b - a), data->Slice(b, n - b)});
      ASSERT_TRUE(out.ok()) << out.status();
      ASSERT_TRUE(MakeArray(*out)->ValidateFull().ok()) << MakeArray(*out)->ValidateFull();
      EXPECT_TRUE(MakeArray(*out)->Equals(*MakeArray(data)));
      EXPECT_EQ((*out)->GetNullCount(), data->GetNullCount());
    }
  }
}

TEST(Concatenate, AppendsAndRebases) {
  auto a = testutil::StringArrayFromVector({"x", "yy"});
  auto b = testutil::StringArrayFromVector({"zzz", "", "w"}, {true, false, true});
  auto out = Concatenate({a, b->Slice(1, 2)});
  ASSERT_TRUE(out.ok());
  auto expected = testutil::StringArrayFromVector({"x", "yy", "", "w"}, {true, true, false, true});
  EXPECT_TRUE(MakeArray(*out)->Equals(*MakeArray(expected)));
  const auto* offsets = (*out)->GetValues<int32_t>(1);
  EXPECT_EQ(offsets[0], 0);
  EXPECT_EQ(offsets[4], 4);
}

TEST(Concatenate, RejectsMismatches) {
  auto a = testutil::ArrayFromVector(int32(), std::vector<int32_t>{1});
  auto b = testutil::ArrayFromVector(int64(), std::vector<int64_t>{1});
  // pyarrow.concat_arrays' class: ArrowInvalid.
  EXPECT_TRUE(Concatenate({a, b}).status().IsInvalid());
  EXPECT_TRUE(Concatenate({}).status().IsInvalid());
  // Dictionary arrays with unrelated dictionaries are unified, as pyarrow's.
  auto type = dictionary(int8(), utf8());
  auto d1 = testutil::DictionaryArrayFromIndices(type, {0},
                                                 testutil::StringArrayFromVector({"a"}));
  auto d2 = testutil::DictionaryArrayFromIndices(type, {0},
                                                 testutil::StringArrayFromVector({"b"}));
  {
    auto unified = Concatenate({d1, d2});
    ASSERT_TRUE(unified.ok()) << unified.status();
    ASSERT_TRUE(MakeArray(*unified)->ValidateFull().ok());
    EXPECT_TRUE(MakeArray((*unified)->dictionary)
                    ->Equals(*MakeArray(testutil::StringArrayFromVector({"a", "b"}))));
    EXPECT_EQ((*unified)->GetValues<int8_t>(1)[1], 1);
  }
  // A dictionary and its extension (as after a delta) are fine.
  auto d3 = testutil::DictionaryArrayFromIndices(type, {1},
                                                 testutil::StringArrayFromVector({"a", "c"}));
  auto out = Concatenate({d1, d3});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)->dictionary->length, 2);
}

TEST(Concatenate, ComparisonSeesDifferences) {
  // The round-trip tests rely on Array::Equals: make sure it is not vacuous
  // on these columns (shifted data must compare unequal).
  auto a = testutil::AllTypeColumns(21);
  auto b = testutil::AllTypeColumns(6);
  int different = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    auto shifted = MakeArray(a[i].data->Slice(1, 5));
    auto other = MakeArray(b[i].data->Slice(0, 5));
    if (!shifted->Equals(*other)) ++different;
  }
  EXPECT_GE(different, static_cast<int>(a.size()) - 2);  // all but null (and maybe one)
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
