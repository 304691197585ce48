// POSIX files: sequential streams over a descriptor, and random-access
// files (pread, or an opt-in memory map). Every call retries on EINTR and
// reports errors as IOError naming the path and the system's reason.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "quiver/io/interfaces.h"
#include "quiver/memory/memory_pool.h"

namespace quiver::io {

// Writes to a POSIX file descriptor.
class FileOutputStream final : public OutputStream {
 public:
  // Creates or truncates `path` (in place: see AtomicFileOutputStream for a
  // file that appears only when complete).
  static Result<std::unique_ptr<FileOutputStream>> Open(const std::string& path);
  // Writes to an open descriptor (closed by Close() only when `owns_fd`).
  static std::unique_ptr<FileOutputStream> FromDescriptor(int fd, bool owns_fd,
                                                          std::string name = {});
  ~FileOutputStream() override;

  using OutputStream::Write;
  Status Write(const void* data, int64_t nbytes) override;
  Result<int64_t> Tell() const override { return position_; }
  // Appends bytes [offset, offset + length) of the file open at `in_fd`
  // (named `in_name` in errors) in the kernel: copy_file_range(2), which
  // file systems that can share extents (btrfs, XFS) turn into a reflink,
  // falling back to pread/write where the kernel refuses (another file
  // system, an older kernel). IOError if the source holds fewer bytes.
  Status CopyFrom(int in_fd, int64_t offset, int64_t length, const std::string& in_name);
  Status Close() override;
  bool closed() const override { return fd_ < 0; }
  bool CallableFromAnyThread() const override { return true; }
  int fd() const { return fd_; }

 private:
  FileOutputStream(int fd, bool owns_fd, std::string path)
      : fd_(fd), owns_fd_(owns_fd), path_(std::move(path)) {}
  int fd_;
  bool owns_fd_;
  std::string path_;
  int64_t position_ = 0;
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

// A regular file read with pread into buffers from `pool`: the default way
// to read a file by ranges. Its size is taken when it is opened; a range
// that the file no longer holds (it was truncated since) is an IOError.
class ReadableFile final : public RandomAccessFile {
 public:
  // IOError if `path` cannot be opened, is a directory, or is not a regular
  // file (a pipe or device has no size to read ranges from).
  static Result<std::unique_ptr<ReadableFile>> Open(const std::string& path,
                                                    MemoryPool* pool = DefaultMemoryPool());
  ~ReadableFile() override;

  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length) const override;
  int64_t Size() const override { return size_; }
  const std::string& name() const override { return path_; }
  int fd() const { return fd_; }

 private:
  ReadableFile(int fd, int64_t size, MemoryPool* pool, std::string path)
      : fd_(fd), size_(size), pool_(pool), path_(std::move(path)) {}
  int fd_;
  int64_t size_;
  MemoryPool* pool_;
  std::string path_;
};

// A regular file mapped read-only; ReadAt returns zero-copy slices of the
// mapping (which they keep alive). Opt-in: it avoids a copy per read, but a
// file truncated by another process while mapped raises SIGBUS on access to
// the lost pages, which no check can turn into an error. Use it for files
// nothing else writes to.
class MemoryMappedFile final : public RandomAccessFile {
 public:
  static Result<std::unique_ptr<MemoryMappedFile>> Open(const std::string& path);

  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length) const override;
  int64_t Size() const override { return mapping_->size(); }
  const std::string& name() const override { return path_; }
  // The whole mapping.
  const std::shared_ptr<Buffer>& buffer() const { return mapping_; }

 private:
  MemoryMappedFile(std::shared_ptr<Buffer> mapping, std::string path)
      : mapping_(std::move(mapping)), path_(std::move(path)) {}
  std::shared_ptr<Buffer> mapping_;
  std::string path_;
};

// The whole file (or pipe, or device) at `path` in one pool buffer.
Result<std::shared_ptr<Buffer>> ReadFileToBuffer(const std::string& path,
                                                 MemoryPool* pool = DefaultMemoryPool());

// The regular file at `path` mapped read-only; the mapping lives as long as
// the returned buffer (and every slice of it). The SIGBUS caveat of
// MemoryMappedFile applies.
Result<std::shared_ptr<Buffer>> MemoryMapFile(const std::string& path);

}  // namespace quiver::io
