// QUIVER_DCHECK: assertions of internal invariants (bugs in Quiver, never
// bad input: user data and corrupt files are reported with a Status, see
// status.h). On in debug builds, where a failed check prints
//   quiver: DCHECK failed at file.cc:123: offset <= size (7 vs 5) <message>
// to stderr and aborts; compiled out when NDEBUG is defined (release
// builds): the condition is then neither evaluated nor costs anything, but
// still compiles, so it cannot rot. As Arrow C++'s DCHECK
// (arrow/util/logging.h) and Velox's VELOX_DCHECK.
//
//   QUIVER_DCHECK(cond)                  QUIVER_DCHECK(cond, "message ", value, ...)
//   QUIVER_DCHECK_EQ(a, b)  _NE  _LT  _LE  _GT  _GE   (print both values)
#pragma once

#include <sstream>
#include <string>

namespace quiver::internal {

[[noreturn]] void DCheckFailed(const char* file, int line, const char* condition,
                               const std::string& detail);

template <typename... Args>
std::string DCheckMessage(const Args&... args) {
  if constexpr (sizeof...(Args) == 0) {
    return std::string();
  } else {
    std::ostringstream ss;
    ((ss << args), ...);
    return ss.str();
  }
}

template <typename A, typename B>
[[noreturn]] void DCheckOpFailed(const char* file, int line, const char* condition, const A& a,
                                 const B& b) {
  std::ostringstream ss;
  ss << "(" << a << " vs " << b << ")";
  DCheckFailed(file, line, condition, ss.str());
}

}  // namespace quiver::internal

#ifndef NDEBUG
#define QUIVER_DCHECK_IS_ON 1
#define QUIVER_DCHECK(condition, ...)                                                    \
  do {                                                                                   \
    if (__builtin_expect(!(condition), 0)) {                                             \
      ::quiver::internal::DCheckFailed(__FILE__, __LINE__, #condition,                   \
                                       ::quiver::internal::DCheckMessage(__VA_ARGS__)); \
    }                                                                                    \
  } while (false)
#define QUIVER_DCHECK_OP(op, a, b)                                                          \
  do {                                                                                      \
    const auto& _quiver_dcheck_a = (a);                                                     \
    const auto& _quiver_dcheck_b = (b);                                                     \
    if (__builtin_expect(!(_quiver_dcheck_a op _quiver_dcheck_b), 0)) {                     \
      ::quiver::internal::DCheckOpFailed(__FILE__, __LINE__, #a " " #op " " #b,             \
                                         _quiver_dcheck_a, _quiver_dcheck_b);               \
    }                                                                                       \
  } while (false)
#else
#define QUIVER_DCHECK_IS_ON 0
// Type-checked, never evaluated.
#define QUIVER_DCHECK(condition, ...) \
  do {                                \
    if (false) {                      \
      (void)(condition);              \
    }                                 \
  } while (false)
#define QUIVER_DCHECK_OP(op, a, b) \
  do {                             \
    if (false) {                   \
      (void)((a)op(b));            \
    }                              \
  } while (false)
#endif

#define QUIVER_DCHECK_EQ(a, b) QUIVER_DCHECK_OP(==, a, b)
#define QUIVER_DCHECK_NE(a, b) QUIVER_DCHECK_OP(!=, a, b)
#define QUIVER_DCHECK_LT(a, b) QUIVER_DCHECK_OP(<, a, b)
#define QUIVER_DCHECK_LE(a, b) QUIVER_DCHECK_OP(<=, a, b)
#define QUIVER_DCHECK_GT(a, b) QUIVER_DCHECK_OP(>, a, b)
#define QUIVER_DCHECK_GE(a, b) QUIVER_DCHECK_OP(>=, a, b)
