// Test helpers for code that reads through io::RandomAccessFile.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "quiver/io/memory.h"

namespace quiver::io::testutil {

// A file over `bytes` (named "recorded") that records every range asked of
// ReadAt, so a test can check what a reader reads.
class RecordingFile final : public RandomAccessFile {
 public:
  struct Range {
    int64_t offset = 0;
    int64_t length = 0;
    int64_t end() const { return offset + length; }
  };

  explicit RecordingFile(std::shared_ptr<Buffer> bytes) : inner_(std::move(bytes), "recorded") {}

  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length) const override {
    std::lock_guard<std::mutex> lock(mu_);
    reads_.push_back({offset, length});
    return inner_.ReadAt(offset, length);
  }
  int64_t Size() const override { return inner_.Size(); }
  const std::string& name() const override { return inner_.name(); }

  // The ranges read so far, in order.
  std::vector<Range> reads() const {
    std::lock_guard<std::mutex> lock(mu_);
    return reads_;
  }

 private:
  BufferReader inner_;
  mutable std::mutex mu_;
  mutable std::vector<Range> reads_;
};

}  // namespace quiver::io::testutil
