// A file written through a temporary file so that nothing partial ever
// appears at its path (what writers of Parquet and IPC files use).
//
// Open(path) creates `.<name>.quiver-XXXXXX` in the same folder (so the
// final rename cannot cross file systems), with mode 0644 less the umask;
// Close() flushes it to disk (fsync) and renames it over `path`; Abort(), a
// failed Close() or the destructor of a stream that was not closed remove
// it. Paths that are not regular files are handled as a user expects:
//   - a directory is refused (IOError "... is a directory");
//   - a device, FIFO or socket (/dev/stdout, a named pipe) is written in
//     place: a rename would replace it. Abort() cannot take back what was
//     written there.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "quiver/io/file.h"
#include "quiver/io/interfaces.h"

namespace quiver::io {

class AtomicFileOutputStream final : public OutputStream {
 public:
  static Result<std::unique_ptr<AtomicFileOutputStream>> Open(const std::string& path);
  // Aborts unless closed.
  ~AtomicFileOutputStream() override;

  using OutputStream::Write;
  Status Write(const void* data, int64_t nbytes) override { return stream_->Write(data, nbytes); }
  Result<int64_t> Tell() const override { return stream_->Tell(); }
  // Commits: fsync + rename (regular files). After a failed Close() the
  // temporary file is gone and nothing is at the path.
  Status Close() override;
  bool closed() const override { return done_; }
  // Gives up: the temporary file is removed; nothing appears at the path.
  void Abort();

  const std::string& path() const { return path_; }
  // Whether the path is written in place (a device, FIFO or socket).
  bool in_place() const { return in_place_; }

 private:
  AtomicFileOutputStream(std::string path, std::string temp_path, int fd, bool in_place);
  Status Commit();

  std::string path_;
  std::string temp_path_;  // empty when writing in place, or once renamed/removed
  int fd_;
  std::unique_ptr<FileOutputStream> stream_;
  bool in_place_;
  bool done_ = false;
};

}  // namespace quiver::io
