// Test helpers of the writer's tests.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include "quiver/io/interfaces.h"

namespace quiver::parquet::testing {

// A sink that keeps its bytes, counts calls from any thread other than the
// one that made it (the writer's threads must leave the sink to the
// calling thread), and fails, if asked, a write that would take it past
// `fail_at` bytes.
class CheckedSink final : public io::OutputStream {
 public:
  explicit CheckedSink(int64_t fail_at = -1) : fail_at_(fail_at) {}
  using OutputStream::Write;
  Status Write(const void* data, int64_t nbytes) override {
    CheckThread();
    if (fail_at_ >= 0 && static_cast<int64_t>(bytes_.size()) + nbytes > fail_at_) {
      return Status::IOError("disk full");
    }
    bytes_.append(static_cast<const char*>(data), static_cast<size_t>(nbytes));
    return Status::OK();
  }
  Result<int64_t> Tell() const override {
    CheckThread();
    return static_cast<int64_t>(bytes_.size());
  }
  Status Close() override { return Status::OK(); }
  bool closed() const override { return false; }

  const std::string& bytes() const { return bytes_; }
  int foreign_calls() const { return foreign_calls_.load(); }

 private:
  void CheckThread() const {
    if (std::this_thread::get_id() != owner_) foreign_calls_.fetch_add(1);
  }
  std::thread::id owner_ = std::this_thread::get_id();
  int64_t fail_at_;
  std::string bytes_;
  mutable std::atomic<int> foreign_calls_{0};
};

}  // namespace quiver::parquet::testing
