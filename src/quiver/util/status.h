// Status: the one error type of Quiver. OK is a null pointer (free to copy and
// test); an error owns a code and a message. Bad input (user data, corrupt
// files) is reported with a Status; internal invariants use QUIVER_DCHECK
// (util/dcheck.h, included here: on in debug builds, compiled out in release).
// Modelled on Arrow C++'s arrow/status.h.
#pragma once

#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "quiver/util/dcheck.h"

namespace quiver {

enum class StatusCode : unsigned char {
  kOK = 0,
  kInvalid,
  kIOError,
  kOutOfMemory,
  kNotImplemented,
  kKeyError,
  kTypeError,
  kIndexError,
  kCapacityError,
  kCancelled,
  kUnknownError,
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() noexcept = default;
  Status(StatusCode code, std::string message);

  Status(const Status& other)
      : state_(other.state_ ? std::make_unique<State>(*other.state_) : nullptr) {}
  Status& operator=(const Status& other) {
    if (this != &other) {
      state_ = other.state_ ? std::make_unique<State>(*other.state_) : nullptr;
    }
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status OK() { return Status(); }

  template <typename... Args>
  static Status Invalid(Args&&... args) {
    return FromArgs(StatusCode::kInvalid, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status IOError(Args&&... args) {
    return FromArgs(StatusCode::kIOError, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status OutOfMemory(Args&&... args) {
    return FromArgs(StatusCode::kOutOfMemory, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status NotImplemented(Args&&... args) {
    return FromArgs(StatusCode::kNotImplemented, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status KeyError(Args&&... args) {
    return FromArgs(StatusCode::kKeyError, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status TypeError(Args&&... args) {
    return FromArgs(StatusCode::kTypeError, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status IndexError(Args&&... args) {
    return FromArgs(StatusCode::kIndexError, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status CapacityError(Args&&... args) {
    return FromArgs(StatusCode::kCapacityError, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status Cancelled(Args&&... args) {
    return FromArgs(StatusCode::kCancelled, std::forward<Args>(args)...);
  }
  template <typename... Args>
  static Status UnknownError(Args&&... args) {
    return FromArgs(StatusCode::kUnknownError, std::forward<Args>(args)...);
  }

  bool ok() const noexcept { return state_ == nullptr; }
  StatusCode code() const noexcept { return state_ ? state_->code : StatusCode::kOK; }
  const std::string& message() const noexcept;

  bool IsInvalid() const noexcept { return code() == StatusCode::kInvalid; }
  bool IsIOError() const noexcept { return code() == StatusCode::kIOError; }
  bool IsOutOfMemory() const noexcept { return code() == StatusCode::kOutOfMemory; }
  bool IsNotImplemented() const noexcept { return code() == StatusCode::kNotImplemented; }
  bool IsKeyError() const noexcept { return code() == StatusCode::kKeyError; }
  bool IsTypeError() const noexcept { return code() == StatusCode::kTypeError; }
  bool IsIndexError() const noexcept { return code() == StatusCode::kIndexError; }
  bool IsCapacityError() const noexcept { return code() == StatusCode::kCapacityError; }

  // "Invalid: message", or "OK".
  std::string ToString() const;

  // A copy whose message is prefixed with `context` (e.g. "column 'a': ").
  template <typename... Args>
  Status WithContext(Args&&... args) const {
    if (ok()) return *this;
    std::ostringstream ss;
    (ss << ... << std::forward<Args>(args));
    return Status(code(), ss.str() + state_->message);
  }

  bool operator==(const Status& other) const noexcept {
    return code() == other.code() && message() == other.message();
  }

  // Terminates with the message if not OK: for tests, examples and places
  // where an error is an internal bug.
  void Abort(std::string_view context = {}) const;

 private:
  struct State {
    StatusCode code;
    std::string message;
  };

  template <typename... Args>
  static Status FromArgs(StatusCode code, Args&&... args) {
    if constexpr (sizeof...(Args) == 0) {
      return Status(code, std::string());
    } else {
      std::ostringstream ss;
      (ss << ... << std::forward<Args>(args));
      return Status(code, ss.str());
    }
  }

  std::unique_ptr<State> state_;
};

std::ostream& operator<<(std::ostream& os, const Status& status);

}  // namespace quiver

#define QUIVER_CONCAT_INNER(a, b) a##b
#define QUIVER_CONCAT(a, b) QUIVER_CONCAT_INNER(a, b)

#define QUIVER_PREDICT_FALSE(x) (__builtin_expect(!!(x), 0))
#define QUIVER_PREDICT_TRUE(x) (__builtin_expect(!!(x), 1))

// Evaluates an expression returning Status; returns it from the caller if not OK.
#define QUIVER_RETURN_NOT_OK(expr)                                  \
  do {                                                              \
    ::quiver::Status _quiver_st = (expr);                           \
    if (QUIVER_PREDICT_FALSE(!_quiver_st.ok())) return _quiver_st;  \
  } while (false)

// Returns Status::Invalid(args...) from the caller when `cond` is false.
#define QUIVER_CHECK_INPUT(cond, ...)                                         \
  do {                                                                        \
    if (QUIVER_PREDICT_FALSE(!(cond))) return ::quiver::Status::Invalid(__VA_ARGS__); \
  } while (false)
