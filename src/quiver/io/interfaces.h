// Byte streams and random-access files: what every reader and writer of
// Quiver moves bytes through (Arrow IPC, the Parquet writer and reader, the
// dedup analysis, the CLI).
//
//   OutputStream      sequential writes with a position (Tell)
//   InputStream       sequential reads returning Buffers
//   RandomAccessFile  reads of exact byte ranges (ReadAt) of a file of known
//                     size: what a Parquet reader needs (footer first, then
//                     column chunks, page index, bloom filters)
//
// Implementations: io/memory.h (a Buffer), io/file.h (POSIX files: read,
// pread, an opt-in memory map), io/atomic_file.h (a file that appears at its
// path only when complete).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "quiver/memory/buffer.h"
#include "quiver/util/result.h"
#include "quiver/util/status.h"

namespace quiver::io {

class OutputStream {
 public:
  virtual ~OutputStream() = default;
  // Writes all `nbytes` bytes or fails.
  virtual Status Write(const void* data, int64_t nbytes) = 0;
  Status Write(const Buffer& buffer) { return Write(buffer.data(), buffer.size()); }
  // Writes `buffer`'s bytes. A stream that keeps what is written in memory
  // may keep the buffer itself instead of a copy (MinAdoptedBytes): its bytes
  // must not change afterwards.
  virtual Status WriteShared(std::shared_ptr<Buffer> buffer) { return Write(*buffer); }
  // The least size of a buffer WriteShared keeps without copying it (none:
  // INT64_MAX): above it, worth a writer's giving up a buffer it would
  // otherwise reuse.
  virtual int64_t MinAdoptedBytes() const { return std::numeric_limits<int64_t>::max(); }
  // Writing in place, for a stream that builds in memory: BeginInPlace(n)
  // gives room for up to n bytes at the stream's position (contiguous, the
  // caller's to fill), and CommitInPlace(k), k <= n, then writes the first
  // k of them; no other call on the stream in between. A compressor can
  // then write its output where it stays, with no copy. nullptr: this
  // stream has no such room (the default); Write the bytes instead.
  virtual Result<uint8_t*> BeginInPlace(int64_t nbytes);
  virtual Status CommitInPlace(int64_t nbytes);
  // Passes on what the stream holds back, for a stream that collects bytes
  // before handing them on (the Python file-object sink gives them to
  // write()); writers call it where the bytes so far make a whole (the
  // Parquet writer: after each row group). Nothing to do by default.
  virtual Status Flush() { return Status::OK(); }
  // Bytes written so far (the position of the next byte).
  virtual Result<int64_t> Tell() const = 0;
  // Whether one call may come from another thread than the last (never two
  // at once: the caller orders them, e.g. by a handoff under a mutex). A
  // stream over a file or memory may be; one that must be called on the
  // thread that made it (the Python file-object sink) is not (the default).
  virtual bool CallableFromAnyThread() const { return false; }
  // Flushes and closes; further writes fail. Closing twice is a no-op.
  virtual Status Close() = 0;
  virtual bool closed() const = 0;
};

class InputStream {
 public:
  virtual ~InputStream() = default;
  // Up to `nbytes` bytes; fewer only at the end of the stream (an empty
  // buffer there). The bytes stay valid as long as the returned buffer.
  virtual Result<std::shared_ptr<Buffer>> Read(int64_t nbytes) = 0;
  // Bytes consumed so far.
  virtual Result<int64_t> Tell() const = 0;
  virtual Status Close() = 0;
  virtual bool closed() const = 0;
};

// A file read by byte ranges. The size is fixed when the file is opened;
// ReadAt returns exactly the bytes asked for or fails, so a caller never
// sees a short buffer:
//   - a negative offset or length is Invalid;
//   - a range outside [0, Size()) is IOError, naming the file, the range
//     and the size ("read past the end");
//   - a file that became shorter since it was opened is IOError ("changed
//     size"), never a short read or a crash (except for a memory-mapped
//     file: see io/file.h).
// ReadAt is const and safe to call from several threads at once.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length) const = 0;
  virtual int64_t Size() const = 0;
  // For error messages: the path, or a description such as "<buffer>".
  virtual const std::string& name() const = 0;

 protected:
  // Invalid / IOError for a range ReadAt must refuse (see above), OK
  // otherwise.
  Status CheckReadRange(int64_t offset, int64_t length) const;
};

}  // namespace quiver::io
