// A file written through a temporary file so that nothing partial ever
// appears at its path (what writers of Parquet and IPC files use).
//
// Open(path) creates `.<name>.quiver-XXXXXX` (random, created with O_EXCL,
// retried on a clash) in the folder of the file that will be replaced, so
// that the final rename cannot cross file systems. Close() flushes it,
// fsyncs it, renames it over the destination and fsyncs the folder (so the
// new name survives a crash too); Abort(), a failed Close() or the
// destructor of a stream that was not closed remove it. With fsync=false
// both fsyncs are skipped (scratch output: the file is complete for every
// reader at once, but a power loss may lose it).
//
// What the destination becomes:
//   - a new file gets the mode any program's open(path, O_CREAT, 0666) gives
//     it: 0666 less the umask (or the folder's default ACL), applied by the
//     kernel when the temporary file is created. The umask is never read
//     with umask(2), which would change it for every thread for a moment.
//   - an existing regular file keeps its permission bits (the new file is
//     given them before it is renamed); it gets a new inode, owned by the
//     writing user, so OTHER HARD LINKS to the old file keep the old bytes:
//     the rename replaces one name, it does not rewrite the inode.
//   - a symbolic link (or a chain of them, relative ones resolved from the
//     link's folder) is written through: the final target is replaced and
//     the link stays a link. A dangling link gets its target created.
//   - a directory is refused (IOError "... is a directory");
//   - a device, FIFO or socket (/dev/stdout, a named pipe) is written in
//     place, never fsynced: a rename would replace it. Abort() cannot take
//     back what was written there.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "quiver/io/file.h"
#include "quiver/io/interfaces.h"

namespace quiver::io {

class AtomicFileOutputStream final : public OutputStream {
 public:
  // fsync: whether Close() makes the file and its name durable (the file
  // before the rename, its folder after it).
  static Result<std::unique_ptr<AtomicFileOutputStream>> Open(const std::string& path,
                                                              bool fsync = true);
  // Aborts unless closed.
  ~AtomicFileOutputStream() override;

  using OutputStream::Write;
  Status Write(const void* data, int64_t nbytes) override { return stream_->Write(data, nbytes); }
  Result<int64_t> Tell() const override { return stream_->Tell(); }
  // FileOutputStream::CopyFrom (in-kernel copy or reflink of another file's bytes).
  Status CopyFrom(int in_fd, int64_t offset, int64_t length, const std::string& in_name) {
    return stream_->CopyFrom(in_fd, offset, length, in_name);
  }
  // Commits: [fsync] + rename + [fsync of the folder] (regular files).
  // After a failed Close() the temporary file is gone and nothing new is at
  // the path, except when only the folder's fsync fails: the file has then
  // been renamed into place, and the error says that its name may not
  // survive a crash.
  Status Close() override;
  bool closed() const override { return done_; }
  bool CallableFromAnyThread() const override { return true; }
  // Gives up: the temporary file is removed; nothing appears at the path.
  void Abort();

  const std::string& path() const { return path_; }
  // The file that is replaced: `path`, or the end of its chain of links.
  const std::string& target() const { return target_; }
  // Whether the path is written in place (a device, FIFO or socket).
  bool in_place() const { return in_place_; }
  // Whether the last Close() fsynced the file and its folder.
  bool synced() const { return synced_; }

 private:
  AtomicFileOutputStream(std::string path, std::string target, std::string temp_path, int fd,
                         bool in_place, bool fsync);
  Status Commit();

  std::string path_;
  std::string target_;
  std::string temp_path_;  // empty when writing in place, or once renamed/removed
  int fd_;
  std::unique_ptr<FileOutputStream> stream_;
  bool in_place_;
  bool fsync_;
  bool synced_ = false;
  bool done_ = false;
};

}  // namespace quiver::io
