// Minimal byte streams for the IPC reader and writer.
//
// PROVISIONAL: these interfaces live in ipc/ only until Quiver has an io/
// module (files, memory maps, buffered and compressed streams); that module
// will take them over and ipc/ will then use it. Keep them small.
//
// OutputStream: sequential writes with a position (Tell). InputStream:
// sequential reads returning Buffers; BufferReader hands out zero-copy slices
// of the buffer it reads, which is what makes IPC reading zero-copy.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "quiver/memory/buffer.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/result.h"
#include "quiver/util/status.h"

namespace quiver::ipc {

class OutputStream {
 public:
  virtual ~OutputStream() = default;
  // Writes all `nbytes` bytes or fails.
  virtual Status Write(const void* data, int64_t nbytes) = 0;
  Status Write(const Buffer& buffer) { return Write(buffer.data(), buffer.size()); }
  // Bytes written so far (the position of the next byte).
  virtual Result<int64_t> Tell() const = 0;
  // Flushes and closes; further writes fail. Closing twice is a no-op.
  virtual Status Close() = 0;
  virtual bool closed() const = 0;
};

// Writes into a growable pool buffer; Finish() hands the bytes over.
class BufferOutputStream final : public OutputStream {
 public:
  explicit BufferOutputStream(MemoryPool* pool = DefaultMemoryPool()) : buffer_(pool) {}

  Status Write(const void* data, int64_t nbytes) override;
  Result<int64_t> Tell() const override { return buffer_.size(); }
  Status Close() override;
  bool closed() const override { return closed_; }

  // Closes the stream and returns everything written (no copy).
  Result<std::shared_ptr<Buffer>> Finish();

 private:
  MutableBuffer buffer_;
  bool closed_ = false;
};

// Writes to a POSIX file descriptor.
class FileOutputStream final : public OutputStream {
 public:
  // Creates or truncates `path`.
  static Result<std::unique_ptr<FileOutputStream>> Open(const std::string& path);
  // Writes to an open descriptor (closed by Close() only when `owns_fd`).
  static std::unique_ptr<FileOutputStream> FromDescriptor(int fd, bool owns_fd);
  ~FileOutputStream() override;

  Status Write(const void* data, int64_t nbytes) override;
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override;
  bool closed() const override { return fd_ < 0; }

 private:
  FileOutputStream(int fd, bool owns_fd, std::string path)
      : fd_(fd), owns_fd_(owns_fd), path_(std::move(path)) {}
  int fd_;
  bool owns_fd_;
  std::string path_;
  int64_t position_ = 0;
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

// Reads a Buffer; every Read is a zero-copy slice of it.
class BufferReader final : public InputStream {
 public:
  explicit BufferReader(std::shared_ptr<Buffer> buffer) : buffer_(std::move(buffer)) {}

  Result<std::shared_ptr<Buffer>> Read(int64_t nbytes) override;
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override;
  bool closed() const override { return closed_; }

  // Random access: a slice of [offset, offset + nbytes), clamped to the end.
  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t nbytes) const;
  Status Seek(int64_t position);
  int64_t size() const { return buffer_->size(); }
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }

 private:
  std::shared_ptr<Buffer> buffer_;
  int64_t position_ = 0;
  bool closed_ = false;
};

// Reads a POSIX file descriptor sequentially (files, pipes, sockets) into
// buffers from `pool`. A Read of n bytes grows its buffer as the bytes
// arrive, so a corrupt length that asks for far more than the stream holds
// costs at most about twice what the stream actually delivers.
class FileInputStream final : public InputStream {
 public:
  static Result<std::unique_ptr<FileInputStream>> Open(const std::string& path,
                                                       MemoryPool* pool = DefaultMemoryPool());
  static std::unique_ptr<FileInputStream> FromDescriptor(int fd, bool owns_fd,
                                                         MemoryPool* pool = DefaultMemoryPool());
  ~FileInputStream() override;

  Result<std::shared_ptr<Buffer>> Read(int64_t nbytes) override;
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override;
  bool closed() const override { return fd_ < 0; }

 private:
  FileInputStream(int fd, bool owns_fd, MemoryPool* pool, std::string path)
      : fd_(fd), owns_fd_(owns_fd), pool_(pool), path_(std::move(path)) {}
  int fd_;
  bool owns_fd_;
  MemoryPool* pool_;
  std::string path_;
  int64_t position_ = 0;
};

// The whole file at `path` in one pool buffer (what RecordBatchFileReader
// reads from).
Result<std::shared_ptr<Buffer>> ReadFileToBuffer(const std::string& path,
                                                 MemoryPool* pool = DefaultMemoryPool());

// The file at `path` mapped read-only; the mapping lives as long as the
// returned buffer (and every slice of it).
Result<std::shared_ptr<Buffer>> MemoryMapFile(const std::string& path);

}  // namespace quiver::ipc
