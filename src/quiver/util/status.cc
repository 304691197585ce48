#include "quiver/util/status.h"

#include <cstdio>
#include <cstdlib>
#include <ostream>

namespace quiver {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOK: return "OK";
    case StatusCode::kInvalid: return "Invalid";
    case StatusCode::kIOError: return "IOError";
    case StatusCode::kOutOfMemory: return "OutOfMemory";
    case StatusCode::kNotImplemented: return "NotImplemented";
    case StatusCode::kKeyError: return "KeyError";
    case StatusCode::kTypeError: return "TypeError";
    case StatusCode::kIndexError: return "IndexError";
    case StatusCode::kCapacityError: return "CapacityError";
    case StatusCode::kCancelled: return "Cancelled";
    case StatusCode::kUnknownError: return "UnknownError";
  }
  return "UnknownError";
}

Status::Status(StatusCode code, std::string message) {
  if (code != StatusCode::kOK) {
    state_ = std::make_unique<State>(State{code, std::move(message)});
  }
}

const std::string& Status::message() const noexcept {
  static const std::string kEmpty;
  return state_ ? state_->message : kEmpty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(StatusCodeName(state_->code));
  if (!state_->message.empty()) {
    out += ": ";
    out += state_->message;
  }
  return out;
}

void Status::Abort(std::string_view context) const {
  if (ok()) return;
  std::fprintf(stderr, "quiver: fatal: %.*s%s%s\n", static_cast<int>(context.size()),
               context.data(), context.empty() ? "" : ": ", ToString().c_str());
  std::abort();
}

std::ostream& operator<<(std::ostream& os, const Status& status) {
  return os << status.ToString();
}

}  // namespace quiver
