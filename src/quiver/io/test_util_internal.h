// Test helpers for code that reads through io::RandomAccessFile, and for
// tests of files (a temporary folder, whole-file reads and writes).
#pragma once

#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "quiver/io/memory.h"

namespace quiver::io::testutil {

// A fresh folder per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    namespace fs = std::filesystem;
    std::string templ = (fs::temp_directory_path() / "quiver-io-test-XXXXXX").string();
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    path_ = ::mkdtemp(buf.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }
  // The names in the folder (not below it), sorted.
  std::vector<std::string> Names() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path_)) out.push_back(e.path().filename());
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::filesystem::path path_;
};

inline void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
}

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

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
