// Helpers the cast tests share (cast_test.cc, cast_temporal_test.cc):
// casting an array and checking what every result must satisfy. Not
// installed.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quiver/array/validate.h"
#include "quiver/compute/cast.h"

namespace quiver::compute::testing {

inline Result<ArrayDataPtr> CastArray(const ArrayDataPtr& in, const TypePtr& to, bool safe = true) {
  QUIVER_ASSIGN_OR_RAISE(Datum out, Cast(Datum(in), to, CastOptions{safe}));
  return out.array();
}

// A cast that must succeed: valid, of type `to`, no validity buffer
// without nulls.
inline ArrayDataPtr MustCast(const ArrayDataPtr& in, const TypePtr& to, bool safe = true) {
  Result<ArrayDataPtr> r = CastArray(in, to, safe);
  EXPECT_TRUE(r.ok()) << in->type->ToString() << " -> " << to->ToString() << ": "
                      << r.status().ToString();
  if (!r.ok()) return nullptr;
  ArrayDataPtr out = *r;
  EXPECT_TRUE(out->type->Equals(*to));
  EXPECT_EQ(out->length, in->length);
  const Status valid = ValidateArrayFull(*out);
  EXPECT_TRUE(valid.ok()) << valid.ToString();
  // (A cast to the input's own type returns the input as it is.)
  if (out != in && out->GetNullCount() == 0 && !out->buffers.empty() &&
      to->id() != Type::kNull) {
    EXPECT_EQ(out->buffers[0], nullptr) << "a validity buffer without nulls";
  }
  return out;
}

inline std::string Message(const Result<ArrayDataPtr>& r) {
  return r.ok() ? "" : r.status().message();
}

// The values of a fixed-width result.
template <typename T>
std::vector<T> Values(const ArrayDataPtr& a) {
  const T* v = a->GetValues<T>(1);
  return std::vector<T>(v, v + a->length);
}

}  // namespace quiver::compute::testing
