// Test helpers shared by filter_test.cc and take_test.cc: random masks and
// indices, and the judge: every output row equals the input row it came
// from (Array::RangeEquals) or is null where a null was asked for, the
// result passes ValidateFull, its null count is right, and it has no
// validity buffer when it holds no null.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/array_data.h"
#include "quiver/array/record_batch.h"
#include "quiver/array/test_util_internal.h"

namespace quiver::compute::testing {

// Row j of `out` is row src[j] of `values`, or null when src[j] < 0.
inline void ExpectRows(const ArrayDataPtr& out, const ArrayDataPtr& values,
                       const std::vector<int64_t>& src) {
  ASSERT_EQ(out->length, static_cast<int64_t>(src.size()));
  ASSERT_TRUE(out->type->Equals(*values->type));
  auto o = MakeArray(out);
  auto v = MakeArray(values);
  const Status st = o->ValidateFull();
  ASSERT_TRUE(st.ok()) << st;
  int64_t nulls = 0;
  for (size_t j = 0; j < src.size(); ++j) {
    const auto row = static_cast<int64_t>(j);
    if (src[j] < 0) {
      EXPECT_TRUE(o->IsNull(row)) << "row " << j << " should be null";
      ++nulls;
      continue;
    }
    if (v->IsNull(src[j])) ++nulls;
    EXPECT_TRUE(o->RangeEquals(*v, row, row + 1, src[j]))
        << "row " << j << " (from " << src[j] << "): " << o->Slice(row, 1)->ToString() << " vs "
        << v->Slice(src[j], 1)->ToString();
  }
  EXPECT_EQ(out->GetNullCount(), nulls);
  if (nulls == 0 && out != values && out->type->id() != Type::kNull) {
    EXPECT_EQ(out->validity(), nullptr) << "a result without nulls has no validity buffer";
  }
}

// `n` bools, each true with probability `p` (0 and 1 exactly), and a
// validity vector with a `null_fraction` of nulls (empty when 0).
struct RandomMask {
  std::vector<bool> values;
  std::vector<bool> validity;
};

inline RandomMask MakeRandomMask(int64_t n, double p, double null_fraction, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  RandomMask m;
  for (int64_t i = 0; i < n; ++i) m.values.push_back(u(rng) < p);
  if (null_fraction > 0) {
    for (int64_t i = 0; i < n; ++i) m.validity.push_back(u(rng) >= null_fraction);
  }
  return m;
}

// The mask as an array sliced at a bit offset of 3 (so that its words
// straddle bytes).
inline ArrayDataPtr MaskArray(const RandomMask& m) {
  std::vector<bool> values(3, true);
  values.insert(values.end(), m.values.begin(), m.values.end());
  std::vector<bool> validity;
  if (!m.validity.empty()) {
    validity.assign(3, false);
    validity.insert(validity.end(), m.validity.begin(), m.validity.end());
  }
  auto whole = testutil::BooleanArrayFromVector(values, validity);
  return whole->Slice(3, static_cast<int64_t>(m.values.size()));
}

// A record batch of one column per type (testutil::AllTypeColumns), n rows.
inline RecordBatchPtr AllTypesBatch(int64_t n) {
  FieldVector fields;
  std::vector<ArrayDataPtr> data;
  for (const auto& c : testutil::AllTypeColumns(n)) {
    fields.push_back(field(c.name, c.data->type, c.nullable));
    data.push_back(c.data);
  }
  auto batch = RecordBatch::Make(schema(fields), n, data);
  EXPECT_TRUE(batch.ok()) << batch.status();
  return batch.ok() ? *batch : nullptr;
}

}  // namespace quiver::compute::testing
