// Test-only helpers shared by the builder tests (builder_*_test.cc).
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "quiver/array/array.h"
#include "quiver/array/builder.h"
#include "quiver/memory/zero_size_area.h"
#include "quiver/util/result.h"

#define QUIVER_BUILDER_ASSERT_OK(expr)                              \
  do {                                                              \
    ::quiver::Status _st = ::quiver::internal::GenericToStatus(expr); \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.ToString();       \
  } while (false)

#define QUIVER_BUILDER_ASSIGN_OR_FAIL_IMPL(tmp, lhs, rexpr)                      \
  auto tmp = (rexpr);                                                            \
  ASSERT_TRUE(tmp.ok()) << #rexpr << ": " << tmp.status().ToString();            \
  lhs = std::move(tmp).MoveValueUnsafe();

#define QUIVER_BUILDER_ASSIGN_OR_FAIL(lhs, rexpr) \
  QUIVER_BUILDER_ASSIGN_OR_FAIL_IMPL(QUIVER_CONCAT(_builder_result_, __COUNTER__), lhs, rexpr)

#define BASSERT_OK(expr) QUIVER_BUILDER_ASSERT_OK(expr)
#define BASSIGN(lhs, rexpr) QUIVER_BUILDER_ASSIGN_OR_FAIL(lhs, rexpr)

namespace quiver::buildertest {

// Finishes `builder` into the typed view A (aborting the test on error).
template <typename A>
std::shared_ptr<A> FinishAs(ArrayBuilder& builder) {
  auto result = builder.Finish();
  if (!result.ok()) {
    ADD_FAILURE() << "Finish: " << result.status().ToString();
    return nullptr;
  }
  return std::make_shared<A>(*std::move(result));
}

inline bool AtZeroSizeArea(const std::shared_ptr<Buffer>& buffer) {
  return buffer != nullptr && buffer->size() == 0 && IsZeroSizeArea(buffer->data());
}

inline bool Aligned64(const std::shared_ptr<Buffer>& buffer) {
  return buffer != nullptr && reinterpret_cast<uintptr_t>(buffer->data()) % 64 == 0;
}

}  // namespace quiver::buildertest
