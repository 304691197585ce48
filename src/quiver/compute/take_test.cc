// take (take.h) on a column of every type with random, repeated and null
// indices of every integer type; pyarrow's bounds rules (a valid index out
// of range is IndexError "Index N out of bounds", an index under a null is
// not looked at); 32-bit offsets that would overflow (a crafted offset,
// cheap; and a real 1 GiB string when QUIVER_DEEP_TESTS=1).
#include "quiver/compute/take.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "quiver/compute/selection_test_util_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testing::ExpectRows;

// `n` indices into [0, rows), a `null_fraction` of them null (and holding
// an out-of-range value, which must not matter); src gets the expected
// source rows (-1 for null).
ArrayDataPtr RandomIndices(int64_t n, int64_t rows, double null_fraction, uint32_t seed,
                           std::vector<int64_t>* src) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<int64_t> values;
  std::vector<bool> validity;
  src->clear();
  for (int64_t i = 0; i < n; ++i) {
    const bool valid = rows > 0 && u(rng) >= null_fraction;
    if (valid) {
      const auto v = static_cast<int64_t>(u(rng) * static_cast<double>(rows)) % rows;
      values.push_back(v);
      src->push_back(v);
    } else {
      values.push_back(rows + 1000);  // out of range, under a null
      src->push_back(-1);
    }
    validity.push_back(valid);
  }
  bool any_null = false;
  for (bool v : validity) any_null |= !v;
  if (!any_null) validity.clear();
  return testutil::ArrayFromVector(int64(), values, validity);
}

TEST(Take, EveryTypeRandomRepeatedAndNullIndices) {
  for (int64_t rows : {0, 1, 63, 64, 65, 300}) {
    const auto columns = testutil::AllTypeColumns(rows + 8);
    for (int64_t n : {0, 1, 65, 500}) {
      for (double null_fraction : {0.0, 0.1, 1.0}) {
        if (rows == 0 && null_fraction < 1.0 && n > 0) continue;  // nothing to point at
        std::vector<int64_t> src;
        auto indices = RandomIndices(n, rows, null_fraction,
                                     static_cast<uint32_t>(rows * 131 + n), &src);
        for (const auto& col : columns) {
          SCOPED_TRACE(col.name + " rows=" + std::to_string(rows) + " n=" + std::to_string(n) +
                       " nulls=" + std::to_string(null_fraction));
          const auto values = col.data->Slice(7, rows);
          auto out = Take(values, indices);
          ASSERT_TRUE(out.ok()) << out.status();
          ExpectRows(*out, values, src);
        }
      }
    }
  }
}

TEST(Take, EveryIndexType) {
  const auto columns = testutil::AllTypeColumns(50);
  const std::vector<int64_t> picks{49, 0, 0, 17, 3, 49, 25};
  const std::vector<bool> validity{true, true, false, true, true, true, false};
  std::vector<int64_t> src;
  for (size_t i = 0; i < picks.size(); ++i) src.push_back(validity[i] ? picks[i] : -1);
  std::vector<ArrayDataPtr> index_arrays{
      testutil::ArrayFromVector(int8(), std::vector<int8_t>(picks.begin(), picks.end()), validity),
      testutil::ArrayFromVector(int16(), std::vector<int16_t>(picks.begin(), picks.end()), validity),
      testutil::ArrayFromVector(int32(), std::vector<int32_t>(picks.begin(), picks.end()), validity),
      testutil::ArrayFromVector(int64(), picks, validity),
      testutil::ArrayFromVector(uint8(), std::vector<uint8_t>(picks.begin(), picks.end()), validity),
      testutil::ArrayFromVector(uint16(), std::vector<uint16_t>(picks.begin(), picks.end()), validity),
      testutil::ArrayFromVector(uint32(), std::vector<uint32_t>(picks.begin(), picks.end()), validity),
      testutil::ArrayFromVector(uint64(), std::vector<uint64_t>(picks.begin(), picks.end()), validity),
  };
  for (const auto& indices : index_arrays) {
    for (const auto& col : columns) {
      SCOPED_TRACE(col.name + " indices " + indices->type->ToString());
      auto out = Take(col.data, indices);
      ASSERT_TRUE(out.ok()) << out.status();
      ExpectRows(*out, col.data, src);
    }
  }
}

TEST(Take, BoundsAsPyarrow) {
  auto values = testutil::ArrayFromVector(int32(), std::vector<int32_t>{1, 2, 3});
  auto check = [&](const ArrayDataPtr& indices, const std::string& message) {
    auto out = Take(values, indices);
    ASSERT_FALSE(out.ok());
    EXPECT_TRUE(out.status().IsIndexError()) << out.status();
    EXPECT_EQ(out.status().message(), message);
  };
  check(testutil::ArrayFromVector(int64(), std::vector<int64_t>{0, 5}), "Index 5 out of bounds");
  check(testutil::ArrayFromVector(int8(), std::vector<int8_t>{-1}), "Index -1 out of bounds");
  check(testutil::ArrayFromVector(int32(), std::vector<int32_t>{0, 3}, {true, true}),
        "Index 3 out of bounds");
  check(testutil::ArrayFromVector(uint64(), std::vector<uint64_t>{~uint64_t{0}}),
        "Index 18446744073709551615 out of bounds");
  // Under a null, any value: not checked.
  auto under_null = Take(values, testutil::ArrayFromVector(int64(), std::vector<int64_t>{0, 99},
                                                           {true, false}));
  ASSERT_TRUE(under_null.ok()) << under_null.status();
  ExpectRows(*under_null, values, {0, -1});
  // Not integers.
  EXPECT_TRUE(Take(values, testutil::ArrayFromVector(float64(), std::vector<double>{0}))
                  .status()
                  .IsNotImplemented());
  EXPECT_TRUE(Take(values, testutil::NullArrayOfLength(2)).status().IsNotImplemented());
}

TEST(Take, RecordBatchSharesTheIndices) {
  const int64_t n = 80;
  const auto batch = testing::AllTypesBatch(n);
  ASSERT_NE(batch, nullptr);
  std::vector<int64_t> src;
  auto indices = RandomIndices(120, n, 0.1, 3, &src);
  auto out = Take(*batch, indices);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ((*out)->num_rows(), 120);
  for (int i = 0; i < (*out)->num_columns(); ++i) {
    SCOPED_TRACE(batch->schema()->field(i)->name());
    ExpectRows((*out)->column_data(i), batch->column_data(i), src);
  }
  EXPECT_TRUE(Take(*batch, testutil::ArrayFromVector(int64(), std::vector<int64_t>{n}))
                  .status()
                  .IsIndexError());
}

// Strings of 0..80 bytes (the 32-byte copies, the memcpy of longer ones,
// the last values where a 32-byte copy would pass either buffer's end),
// whole and partial 64-row words of validity (all valid, all null, mixed),
// null indices and null values: every null slot is empty, the data holds
// exactly the valid slots' bytes, at every offset width.
TEST(Take, BinaryIndicesNullSlotsEmptyAndExactData) {
  std::mt19937 rng(11);
  for (const auto& type : {utf8(), large_binary()}) {
    for (int64_t rows : {1, 40, 700}) {
      std::vector<std::string> strings;
      std::vector<bool> valid;
      for (int64_t i = 0; i < rows; ++i) {
        strings.push_back(std::string(rng() % 81, static_cast<char>('a' + i % 26)));
        valid.push_back(rng() % 10 != 0);
      }
      for (double value_nulls : {0.0, 0.1}) {
        const auto values = testutil::StringArrayFromVector(
            strings, value_nulls > 0 ? valid : std::vector<bool>{}, type);
        for (int64_t n : {1, 63, 64, 65, 200, 1000}) {
          for (double index_nulls : {0.0, 0.3, 1.0}) {
            SCOPED_TRACE(type->ToString() + " rows=" + std::to_string(rows) +
                         " n=" + std::to_string(n) + " index nulls=" +
                         std::to_string(index_nulls) + " value nulls=" +
                         std::to_string(value_nulls));
            std::vector<int64_t> src;
            auto indices = RandomIndices(n, rows, index_nulls, static_cast<uint32_t>(n + rows), &src);
            auto out = Take(values, indices);
            ASSERT_TRUE(out.ok()) << out.status();
            ExpectRows(*out, values, src);
            int64_t bytes = 0;
            for (int64_t j = 0; j < n; ++j) {
              const bool null = (*out)->validity() != nullptr &&
                                !bit_util::GetBit((*out)->validity(), (*out)->offset + j);
              const int64_t begin = IsLargeBinaryLike(type->id())
                                        ? (*out)->GetValues<int64_t>(1)[j]
                                        : (*out)->GetValues<int32_t>(1)[j];
              const int64_t end = IsLargeBinaryLike(type->id())
                                      ? (*out)->GetValues<int64_t>(1)[j + 1]
                                      : (*out)->GetValues<int32_t>(1)[j + 1];
              if (null) {
                EXPECT_EQ(end, begin) << "null slot " << j << " is not empty";
              } else {
                bytes += static_cast<int64_t>(strings[static_cast<size_t>(src[j])].size());
              }
            }
            EXPECT_EQ((*out)->buffers[2]->size(), bytes);
          }
        }
      }
    }
  }
}

// A string slot claiming 1 GiB (its bytes are never read: the offsets are
// summed, and checked, before any byte is copied).
TEST(Take, OffsetOverflowIsAnErrorNotAWrap) {
  static const uint8_t kFew[16] = {};
  const int32_t gib = int32_t{1} << 30;
  auto offsets = testutil::BufferFromValues(std::vector<int32_t>{0, gib});
  auto fake_data = Buffer::Wrap(kFew, gib);
  auto strings = ArrayData::Make(utf8(), 1, {nullptr, offsets, fake_data}, 0);
  auto twice = testutil::ArrayFromVector(int64(), std::vector<int64_t>{0, 0});
  auto out = Take(strings, twice);
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(out.status().IsCapacityError()) << out.status();
  // The same for a list's child values.
  auto child = ArrayData::Make(int8(), gib, {nullptr, fake_data}, 0);
  auto lists = ArrayData::Make(list(int8()), 1, {nullptr, offsets}, {child}, 0);
  auto list_out = Take(lists, twice);
  ASSERT_FALSE(list_out.ok());
  EXPECT_TRUE(list_out.status().IsCapacityError()) << list_out.status();
}

TEST(Take, DeepOffsetOverflowWithRealBytes) {
  const char* deep = std::getenv("QUIVER_DEEP_TESTS");
  if (deep == nullptr || std::string(deep) != "1") GTEST_SKIP() << "QUIVER_DEEP_TESTS=1 runs it";
  const int64_t size = (int64_t{1} << 30) + 1;
  std::string big(static_cast<size_t>(size), 'q');
  auto strings = testutil::StringArrayFromVector({big});
  big.clear();
  big.shrink_to_fit();
  auto out = Take(strings, testutil::ArrayFromVector(int64(), std::vector<int64_t>{0, 0}));
  ASSERT_FALSE(out.ok());
  EXPECT_TRUE(out.status().IsCapacityError()) << out.status();
  // large_string holds it.
  auto large = testutil::StringArrayFromVector({std::string(static_cast<size_t>(size), 'q')}, {},
                                               large_utf8());
  auto large_out = Take(large, testutil::ArrayFromVector(int64(), std::vector<int64_t>{0, 0}));
  ASSERT_TRUE(large_out.ok()) << large_out.status();
  EXPECT_EQ((*large_out)->GetValues<int64_t>(1)[2], 2 * size);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
