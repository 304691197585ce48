// Test helpers of the writer's tests.
#pragma once

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "quiver/io/interfaces.h"

namespace quiver::parquet::testing {

// A directory under /tmp made for a test and removed with the files in it.
class TempDir {
 public:
  TempDir() {
    char templ[] = "/tmp/quiver-test-XXXXXX";
    path_ = ::mkdtemp(templ);
  }
  ~TempDir() {
    for (const auto& f : Files()) ::unlink((path_ + "/" + f).c_str());
    ::rmdir(path_.c_str());
  }
  const std::string& path() const { return path_; }
  std::vector<std::string> Files() const {
    std::vector<std::string> out;
    DIR* d = ::opendir(path_.c_str());
    while (dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name != "." && name != "..") out.push_back(name);
    }
    ::closedir(d);
    return out;
  }

 private:
  std::string path_;
};

// The bytes of a file.
inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A sink that keeps its bytes and fails, if asked, a write that would take
// it past `fail_at` bytes. It counts calls from any thread other than the
// one that made it (`foreign_calls`; a sink not callable from any thread
// must only get calls from the calling thread) and calls that overlap
// another (`overlapping_calls`: never allowed).
class CheckedSink final : public io::OutputStream {
 public:
  explicit CheckedSink(int64_t fail_at = -1, bool any_thread = false)
      : fail_at_(fail_at), any_thread_(any_thread) {}
  using OutputStream::Write;
  Status Write(const void* data, int64_t nbytes) override {
    Call call(this);
    if (fail_at_ >= 0 && static_cast<int64_t>(bytes_.size()) + nbytes > fail_at_) {
      return Status::IOError("disk full");
    }
    bytes_.append(static_cast<const char*>(data), static_cast<size_t>(nbytes));
    return Status::OK();
  }
  Result<int64_t> Tell() const override {
    Call call(this);
    return static_cast<int64_t>(bytes_.size());
  }
  bool CallableFromAnyThread() const override { return any_thread_; }
  Status Close() override { return Status::OK(); }
  bool closed() const override { return false; }

  const std::string& bytes() const { return bytes_; }
  int foreign_calls() const { return foreign_calls_.load(); }
  int overlapping_calls() const { return overlapping_calls_.load(); }

 private:
  struct Call {
    explicit Call(const CheckedSink* sink) : sink(sink) {
      if (std::this_thread::get_id() != sink->owner_) sink->foreign_calls_.fetch_add(1);
      if (sink->in_call_.fetch_add(1) != 0) sink->overlapping_calls_.fetch_add(1);
    }
    ~Call() { sink->in_call_.fetch_sub(1); }
    const CheckedSink* sink;
  };
  std::thread::id owner_ = std::this_thread::get_id();
  int64_t fail_at_;
  bool any_thread_;
  std::string bytes_;
  mutable std::atomic<int> foreign_calls_{0};
  mutable std::atomic<int> in_call_{0};
  mutable std::atomic<int> overlapping_calls_{0};
};

}  // namespace quiver::parquet::testing
