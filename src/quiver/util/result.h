// Result<T>: a value or an error Status (g++ 12 has no std::expected).
// [[nodiscard]] so an ignored error is a compiler warning.
#pragma once

#include <type_traits>
#include <utility>
#include <variant>

#include "quiver/util/status.h"

namespace quiver {

template <typename T>
class [[nodiscard]] Result {
  static_assert(!std::is_same_v<T, Status>, "Result<Status> makes no sense");

 public:
  // An error Result. Constructing from an OK status is a bug: it becomes
  // an UnknownError so the mistake is visible instead of silent.
  Result(Status status)  // NOLINT(runtime/explicit)
      : storage_(status.ok() ? Status::UnknownError("Result constructed from an OK Status")
                             : std::move(status)) {}
  Result(T value) : storage_(std::move(value)) {}  // NOLINT(runtime/explicit)
  template <typename U, typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Status>>>
  Result(U&& value) : storage_(T(std::forward<U>(value))) {}  // NOLINT(runtime/explicit)

  bool ok() const noexcept { return storage_.index() == 1; }

  const Status& status() const& noexcept {
    static const Status kOk;
    return ok() ? kOk : std::get<0>(storage_);
  }
  Status status() && { return ok() ? Status::OK() : std::get<0>(std::move(storage_)); }

  const T& ValueOrDie() const& {
    if (!ok()) std::get<0>(storage_).Abort("Result::ValueOrDie");
    return std::get<1>(storage_);
  }
  T& ValueOrDie() & {
    if (!ok()) std::get<0>(storage_).Abort("Result::ValueOrDie");
    return std::get<1>(storage_);
  }
  T ValueOrDie() && {
    if (!ok()) std::get<0>(storage_).Abort("Result::ValueOrDie");
    return std::get<1>(std::move(storage_));
  }

  // Unchecked access: only after ok() returned true.
  const T& operator*() const& { return std::get<1>(storage_); }
  T& operator*() & { return std::get<1>(storage_); }
  T operator*() && { return std::get<1>(std::move(storage_)); }
  const T* operator->() const { return &std::get<1>(storage_); }
  T* operator->() { return &std::get<1>(storage_); }

  T MoveValueUnsafe() { return std::get<1>(std::move(storage_)); }

  T ValueOr(T alternative) && {
    return ok() ? std::get<1>(std::move(storage_)) : std::move(alternative);
  }

 private:
  std::variant<Status, T> storage_;
};

namespace internal {
inline Status GenericToStatus(const Status& st) { return st; }
inline Status GenericToStatus(Status&& st) { return std::move(st); }
template <typename T>
Status GenericToStatus(const Result<T>& r) { return r.status(); }
template <typename T>
Status GenericToStatus(Result<T>&& r) { return std::move(r).status(); }
}  // namespace internal

}  // namespace quiver

#define QUIVER_ASSIGN_OR_RAISE_IMPL(result_name, lhs, rexpr) \
  auto&& result_name = (rexpr);                              \
  if (QUIVER_PREDICT_FALSE(!(result_name).ok()))             \
    return ::quiver::internal::GenericToStatus(std::move(result_name)); \
  lhs = std::move(result_name).MoveValueUnsafe();

// QUIVER_ASSIGN_OR_RAISE(auto x, MakeX()); returns the error from the caller.
#define QUIVER_ASSIGN_OR_RAISE(lhs, rexpr) \
  QUIVER_ASSIGN_OR_RAISE_IMPL(QUIVER_CONCAT(_quiver_result_, __COUNTER__), lhs, rexpr)
