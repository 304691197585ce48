// filter (filter.h) on a column of every type (testutil::AllTypeColumns),
// sliced, with masks from empty to full, with nulls under both null
// selection behaviours; the reusable context on many columns; every SIMD
// level the CPU has on the same inputs, with the level that ran checked.
#include "quiver/compute/filter.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "quiver/compute/selection_internal.h"
#include "quiver/compute/selection_test_util_internal.h"
#include "quiver/compute/simd_level.h"

namespace quiver::compute {
namespace {
namespace QUIVER_UNITY_ID {

using testing::ExpectRows;
using testing::MakeRandomMask;
using testing::MaskArray;

std::vector<int64_t> ExpectedRows(const testing::RandomMask& m, FilterOptions::NullSelection b) {
  std::vector<int64_t> rows;
  for (size_t i = 0; i < m.values.size(); ++i) {
    const bool valid = m.validity.empty() || m.validity[i];
    if (!valid) {
      if (b == FilterOptions::NullSelection::kEmitNull) rows.push_back(-1);
    } else if (m.values[i]) {
      rows.push_back(static_cast<int64_t>(i));
    }
  }
  return rows;
}

TEST(Filter, EveryTypeEveryMaskShape) {
  for (int64_t n : {0, 1, 63, 64, 65, 300}) {
    const auto columns = testutil::AllTypeColumns(n + 8);
    for (double p : {0.0, 0.01, 0.5, 0.99, 1.0}) {
      for (double null_fraction : {0.0, 0.1}) {
        const auto m = MakeRandomMask(n, p, null_fraction, static_cast<uint32_t>(n * 7 + p * 100));
        const auto mask = MaskArray(m);
        for (auto behaviour : {FilterOptions::NullSelection::kDrop,
                               FilterOptions::NullSelection::kEmitNull}) {
          FilterOptions options;
          options.null_selection_behavior = behaviour;
          const auto expected = ExpectedRows(m, behaviour);
          auto context = FilterContext::Make(mask, options);
          ASSERT_TRUE(context.ok()) << context.status();
          EXPECT_EQ(context->output_length(), static_cast<int64_t>(expected.size()));
          for (const auto& col : columns) {
            SCOPED_TRACE(col.name + " n=" + std::to_string(n) + " p=" + std::to_string(p) +
                         " nulls=" + std::to_string(null_fraction) +
                         " emit=" + std::to_string(behaviour == FilterOptions::NullSelection::kEmitNull));
            // Sliced at an odd offset.
            const auto values = col.data->Slice(5, n);
            auto out = Filter(values, mask, options);
            ASSERT_TRUE(out.ok()) << out.status();
            ExpectRows(*out, values, expected);
            // The shared context gives the same.
            auto again = context->Apply(values);
            ASSERT_TRUE(again.ok()) << again.status();
            ExpectRows(*again, values, expected);
          }
        }
      }
    }
  }
}

// A reusable context over a mask whose runs of kept rows are long copies
// fixed-width values by the runs (one memcpy each) and bitmaps by
// AppendRunsOfBits (whole words from the source at one shift per run):
// every type, values sliced at byte and odd bit offsets, masks sliced too,
// dropped or emitted null mask slots; the scalar level recorded for
// fixed-width values at every level proves the runs ran.
TEST(Filter, ContextWithLongRunsCopiesRuns) {
  // (Up to 5,000 rows: further on, the test columns' half floats hold NaN,
  // which RangeEquals never finds equal.)
  for (int64_t n : {1000, 5000}) {
    const auto columns = testutil::AllTypeColumns(n + 16);
    for (double p : {0.999, 0.9999}) {
      for (double null_fraction : {0.0, 0.0003}) {
        const auto m = MakeRandomMask(n + 3, p, null_fraction, static_cast<uint32_t>(n + p * 1e4));
        testing::RandomMask sliced = m;
        sliced.values.erase(sliced.values.begin(), sliced.values.begin() + 3);
        if (!sliced.validity.empty()) {
          sliced.validity.erase(sliced.validity.begin(), sliced.validity.begin() + 3);
        }
        const auto mask = MaskArray(m)->Slice(3, n);
        for (auto behaviour : {FilterOptions::NullSelection::kDrop,
                               FilterOptions::NullSelection::kEmitNull}) {
          FilterOptions options;
          options.null_selection_behavior = behaviour;
          const auto expected = ExpectedRows(sliced, behaviour);
          auto context = FilterContext::Make(mask, options);
          ASSERT_TRUE(context.ok()) << context.status();
          for (int64_t offset : {8, 5}) {
            for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx512}) {
              auto scoped = ScopedSimdLevel::Make(level);
              if (!scoped.ok()) continue;
              for (const auto& col : columns) {
                SCOPED_TRACE(col.name + " n=" + std::to_string(n) + " p=" + std::to_string(p) +
                             " offset=" + std::to_string(offset) + " level=" +
                             std::string(SimdLevelName(level)));
                const auto values = col.data->Slice(offset, n);
                auto out = context->Apply(values);
                ASSERT_TRUE(out.ok()) << out.status();
                ExpectRows(*out, values, expected);
                const int width = col.data->type->byte_width();
                if ((width == 1 || width == 8) && col.data->type->id() != Type::kBool &&
                    !IsNested(col.data->type->id()) && col.data->type->id() != Type::kDictionary) {
                  EXPECT_EQ(LastSimdLevel(), SimdLevel::kScalar);
                }
                // The one-column Filter (word loops) agrees.
                auto once = Filter(values, mask, options);
                ASSERT_TRUE(once.ok()) << once.status();
                ExpectRows(*once, values, expected);
              }
            }
          }
        }
      }
    }
  }
}

TEST(Filter, DenseAndSparseStrategiesAgree) {
  // A selectivity on each side of the runs/indices switch, on the types
  // that use the positions.
  const int64_t n = 1000;
  const auto columns = testutil::AllTypeColumns(n);
  for (double p : {0.3, 0.79, 0.81, 0.95}) {
    const auto m = MakeRandomMask(n, p, 0.0, 11);
    const auto mask = MaskArray(m);
    const auto expected = ExpectedRows(m, FilterOptions::NullSelection::kDrop);
    for (const auto& col : columns) {
      SCOPED_TRACE(col.name + " p=" + std::to_string(p));
      auto out = Filter(col.data, mask);
      ASSERT_TRUE(out.ok()) << out.status();
      ExpectRows(*out, col.data, expected);
    }
  }
}

TEST(Filter, AllTrueIsZeroCopyAndAllFalseIsEmpty) {
  const auto col = testutil::AllTypeColumns(10)[4].data;  // int32
  auto all = Filter(col, testutil::BooleanArrayFromVector(std::vector<bool>(10, true)));
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, col);
  auto none = Filter(col, testutil::BooleanArrayFromVector(std::vector<bool>(10, false)));
  ASSERT_TRUE(none.ok());
  EXPECT_EQ((*none)->length, 0);
  EXPECT_EQ((*none)->validity(), nullptr);
}

TEST(Filter, Errors) {
  const auto col = testutil::AllTypeColumns(4)[4].data;
  auto short_mask = testutil::BooleanArrayFromVector({true, false});
  EXPECT_TRUE(Filter(col, short_mask).status().IsInvalid());
  EXPECT_TRUE(Filter(col, col).status().IsNotImplemented());
  auto context = FilterContext::Make(short_mask);
  ASSERT_TRUE(context.ok());
  EXPECT_TRUE(context->Apply(col).status().IsInvalid());
}

TEST(Filter, RecordBatchSharesTheMask) {
  const int64_t n = 100;
  const auto batch = testing::AllTypesBatch(n);
  ASSERT_NE(batch, nullptr);
  const auto m = MakeRandomMask(n, 0.4, 0.2, 5);
  auto out = Filter(*batch, MaskArray(m));
  ASSERT_TRUE(out.ok()) << out.status();
  const auto expected = ExpectedRows(m, FilterOptions::NullSelection::kDrop);
  EXPECT_EQ((*out)->num_rows(), static_cast<int64_t>(expected.size()));
  for (int i = 0; i < (*out)->num_columns(); ++i) {
    SCOPED_TRACE(batch->schema()->field(i)->name());
    ExpectRows((*out)->column_data(i), batch->column_data(i), expected);
  }
}

// Each SIMD level on the same inputs: equal results, and the level that
// ran is the one expected (compress at avx512 for 1/2/4/8-byte values,
// PEXT from avx2 for bitmaps, scalar otherwise).
TEST(Filter, EverySimdLevelAgrees) {
  const int64_t n = 1000;
  const auto columns = testutil::AllTypeColumns(n + 3);
  for (double p : {0.02, 0.5, 0.97}) {
    const auto m = MakeRandomMask(n, p, 0.0, 21);
    const auto mask = MaskArray(m);
    const auto expected = ExpectedRows(m, FilterOptions::NullSelection::kDrop);
    for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
      auto scoped = ScopedSimdLevel::Make(level);
      if (!scoped.ok()) {
        std::printf("[ SKIPPED  ] SIMD level %s: %s\n", std::string(SimdLevelName(level)).c_str(),
                    scoped.status().ToString().c_str());
        continue;
      }
      for (const auto& col : columns) {
        const Type id = col.data->type->id();
        const int width = col.data->type->byte_width();
        SCOPED_TRACE(col.name + " level=" + std::string(SimdLevelName(level)));
        const auto values = col.data->Slice(3, n);
        auto out = Filter(values, mask);
        ASSERT_TRUE(out.ok()) << out.status();
        ExpectRows(*out, values, expected);
        const bool compress_width =
            (width == 1 || width == 2 || width == 4 || width == 8) && id != Type::kBool;
        if (id == Type::kBool) {
          EXPECT_EQ(LastSimdLevel(), level >= SimdLevel::kAvx2 ? SimdLevel::kAvx2 : SimdLevel::kScalar);
        } else if (compress_width && !IsNested(id) && id != Type::kDictionary) {
          EXPECT_EQ(LastSimdLevel(), level == SimdLevel::kAvx512 ? SimdLevel::kAvx512 : SimdLevel::kScalar);
        }
      }
    }
  }
}

// Nearly full masks: runs of whole all-ones mask words, which FilterBits
// copies whole (BitAppender::AppendBitmap) or by its branch-free PEXT loop
// (byte-aligned bitmaps, AVX2 level), and no byte written past the
// output's, at every level, mask and
// source bit offsets, against a bit-by-bit reference; then through filter
// on every type (validity and boolean values) with nulls, sliced.
TEST(Filter, RunsOfFullMaskWords) {
  for (int64_t n : {300, 5000, 20000}) {
    // (0.1 and 0.5: the branch-free PEXT loop on byte-aligned bitmaps.)
    for (double p : {0.1, 0.5, 0.99, 0.999, 1.0}) {
      for (int64_t bit_offset : {0, 5, 8}) {
        const auto m = MakeRandomMask(n + bit_offset, p, 0.0, static_cast<uint32_t>(n + p * 1000));
        std::vector<uint8_t> bits(static_cast<size_t>((n + bit_offset + 7) / 8), 0);
        for (int64_t i = 0; i < n + bit_offset; ++i) {
          if (m.values[static_cast<size_t>(i)]) bit_util::SetBit(bits.data(), i);
        }
        std::vector<uint8_t> src(static_cast<size_t>(n / 8 + 4));
        uint32_t state = static_cast<uint32_t>(n) * 2654435761u;
        for (auto& b : src) b = static_cast<uint8_t>((state = state * 1664525u + 1013904223u) >> 24);
        for (int64_t src_offset : {0, 3, 9}) {
          std::vector<uint8_t> want(static_cast<size_t>(n / 8 + 8), 0);
          int64_t k = 0;
          for (int64_t i = 0; i < n; ++i) {
            if (bit_util::GetBit(bits.data(), bit_offset + i)) {
              bit_util::SetBitTo(want.data(), k++, bit_util::GetBit(src.data(), src_offset + i));
            }
          }
          for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2}) {
            auto scoped = ScopedSimdLevel::Make(level);
            if (!scoped.ok()) continue;
            std::vector<uint8_t> got(want.size(), 0);
            const int64_t out_bytes = bit_util::BytesForBits(k);
            int64_t zeros = -1;
            internal::FilterBits(src.data(), src_offset, bits.data(), bit_offset, n, got.data(),
                                 out_bytes, &zeros);
            int64_t want_zeros = 0;
            for (int64_t i = 0; i < k; ++i) want_zeros += !bit_util::GetBit(want.data(), i);
            EXPECT_EQ(zeros, want_zeros) << "n=" << n << " p=" << p << " level "
                                         << SimdLevelName(level);
            for (size_t b = static_cast<size_t>(out_bytes); b < got.size(); ++b) {
              ASSERT_EQ(got[b], 0) << "byte " << b << " past the output was written";
            }
            for (int64_t i = 0; i < k; ++i) {
              ASSERT_EQ(bit_util::GetBit(got.data(), i), bit_util::GetBit(want.data(), i))
                  << "n=" << n << " p=" << p << " mask offset " << bit_offset << " src offset "
                  << src_offset << " level " << SimdLevelName(level) << " bit " << i;
            }
          }
        }
      }
    }
  }
  const int64_t n = 5000;
  const auto columns = testutil::AllTypeColumns(n + 7);
  const auto m = MakeRandomMask(n, 0.999, 0.0, 77);
  const auto mask = MaskArray(m);
  const auto expected = ExpectedRows(m, FilterOptions::NullSelection::kDrop);
  for (const auto& col : columns) {
    SCOPED_TRACE(col.name);
    const auto values = col.data->Slice(7, n);
    auto out = Filter(values, mask);
    ASSERT_TRUE(out.ok()) << out.status();
    ExpectRows(*out, values, expected);
  }
}

TEST(Filter, WordLoopsDirectly) {
  // FilterFixedWidth at every level against a plain loop, for each width,
  // at lengths around the 64-row words, mask bit offsets 0 and 5, sparse,
  // dense and nearly full masks (each branch of the word loops).
  for (int64_t width : {1, 2, 3, 4, 8, 16, 32}) {
    for (int64_t n : {1, 63, 64, 65, 127, 128, 200}) {
      for (int64_t bit_offset : {0, 5}) {
       for (double p : {0.03, 0.6, 0.97}) {
        const auto m = MakeRandomMask(n + bit_offset, p, 0.0,
                                      static_cast<uint32_t>(width * n + p * 100));
        std::vector<uint8_t> bits(static_cast<size_t>((n + bit_offset + 7) / 8), 0);
        for (int64_t i = 0; i < n + bit_offset; ++i) {
          if (m.values[static_cast<size_t>(i)]) bit_util::SetBit(bits.data(), i);
        }
        std::vector<uint8_t> in(static_cast<size_t>(n * width));
        for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 31 + 7);
        std::vector<uint8_t> expected;
        for (int64_t i = 0; i < n; ++i) {
          if (m.values[static_cast<size_t>(i + bit_offset)]) {
            expected.insert(expected.end(), in.begin() + i * width, in.begin() + (i + 1) * width);
          }
        }
        for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
          auto scoped = ScopedSimdLevel::Make(level);
          if (!scoped.ok()) continue;
          std::vector<uint8_t> out(expected.size());
          internal::FilterFixedWidth(in.data(), width, bits.data(), bit_offset, n, out.data());
          EXPECT_EQ(out, expected) << "width " << width << " n " << n << " offset " << bit_offset
                                   << " p " << p << " level " << SimdLevelName(level);
        }
       }
      }
    }
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compute
