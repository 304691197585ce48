// POSIX files (see file.h): read/write/pread with EINTR retries, mmap.
#include "quiver/io/file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "quiver/io/mapping_internal.h"
#include "quiver/memory/mutable_buffer.h"

namespace quiver::io {

namespace {

Status ErrnoStatus(const char* what, const std::string& path, int err) {
  return Status::IOError(what, " '", path, "': ", std::strerror(err));
}

// Largest single read/write request (Linux caps one call at ~2 GiB anyway).
constexpr int64_t kMaxIoChunk = int64_t{1} << 30;

Result<int> OpenForReading(const std::string& path) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return ErrnoStatus("cannot open", path, errno);
  return fd;
}

// The size of the regular file open at `fd`; IOError (and `fd` closed)
// for a directory or anything else without a size.
Result<int64_t> RegularFileSize(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return ErrnoStatus("cannot stat", path, err);
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::IOError("'", path, "' is a directory");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::IOError("cannot read '", path,
                           "' by ranges: not a regular file (a pipe or a device)");
  }
  return static_cast<int64_t>(st.st_size);
}

}  // namespace

// --- FileOutputStream --------------------------------------------------------

Result<std::unique_ptr<FileOutputStream>> FileOutputStream::Open(const std::string& path) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return ErrnoStatus("cannot open for writing", path, errno);
  return std::unique_ptr<FileOutputStream>(new FileOutputStream(fd, true, path));
}

std::unique_ptr<FileOutputStream> FileOutputStream::FromDescriptor(int fd, bool owns_fd,
                                                                   std::string name) {
  if (name.empty()) name = "fd " + std::to_string(fd);
  return std::unique_ptr<FileOutputStream>(new FileOutputStream(fd, owns_fd, std::move(name)));
}

FileOutputStream::~FileOutputStream() {
  if (fd_ >= 0 && owns_fd_) ::close(fd_);
}

Status FileOutputStream::Write(const void* data, int64_t nbytes) {
  if (fd_ < 0) return Status::IOError("write to a closed file '", path_, "'");
  if (nbytes < 0) return Status::Invalid("negative write size ", nbytes);
  const auto* p = static_cast<const uint8_t*>(data);
  int64_t remaining = nbytes;
  while (remaining > 0) {
    ssize_t n = ::write(fd_, p, static_cast<size_t>(std::min(remaining, kMaxIoChunk)));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("cannot write", path_, errno);
    }
    p += n;
    remaining -= n;
    position_ += n;
  }
  return Status::OK();
}

Status FileOutputStream::Close() {
  if (fd_ < 0) return Status::OK();
  int fd = fd_;
  fd_ = -1;
  if (owns_fd_ && ::close(fd) != 0) return ErrnoStatus("cannot close", path_, errno);
  return Status::OK();
}

Status FileOutputStream::CopyFrom(int in_fd, int64_t offset, int64_t length, const std::string& in_name) {
  if (fd_ < 0) return Status::IOError("write to a closed file '", path_, "'");
  if (offset < 0 || length < 0) return Status::Invalid("negative copy range ", offset, "+", length);
  const int64_t end = offset + length;
  off_t in_off = static_cast<off_t>(offset);
  bool kernel_copy = true;
  std::vector<uint8_t> buffer;  // the user-space fallback's
  while (in_off < end) {
    const auto want = static_cast<size_t>(std::min<int64_t>(end - in_off, kMaxIoChunk));
    if (kernel_copy) {
      const ssize_t n = ::copy_file_range(in_fd, &in_off, fd_, nullptr, want, 0);
      if (n > 0) {
        position_ += n;
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP ||
                    errno == EBADF || errno == EPERM)) {
        kernel_copy = false;  // copy through user space from here
        continue;
      }
      if (n < 0) return ErrnoStatus("cannot copy bytes into", path_, errno).WithContext("from '", in_name, "': ");
      return Status::IOError("'", in_name, "' ended at offset ", in_off, " where ", end, " bytes were expected");
    }
    buffer.resize(std::min<size_t>(want, size_t{8} << 20));
    const ssize_t n = ::pread(in_fd, buffer.data(), buffer.size(), in_off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus("cannot read", in_name, errno);
    if (n == 0) {
      return Status::IOError("'", in_name, "' ended at offset ", in_off, " where ", end, " bytes were expected");
    }
    QUIVER_RETURN_NOT_OK(Write(buffer.data(), n));
    in_off += n;
  }
  return Status::OK();
}

// --- FileInputStream ---------------------------------------------------------

Result<std::unique_ptr<FileInputStream>> FileInputStream::Open(const std::string& path,
                                                               MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(int fd, OpenForReading(path));
  return std::unique_ptr<FileInputStream>(new FileInputStream(fd, true, pool, path));
}

std::unique_ptr<FileInputStream> FileInputStream::FromDescriptor(int fd, bool owns_fd,
                                                                 MemoryPool* pool) {
  return std::unique_ptr<FileInputStream>(
      new FileInputStream(fd, owns_fd, pool, "fd " + std::to_string(fd)));
}

FileInputStream::~FileInputStream() {
  if (fd_ >= 0 && owns_fd_) ::close(fd_);
}

Result<std::shared_ptr<Buffer>> FileInputStream::Read(int64_t nbytes) {
  if (fd_ < 0) return Status::IOError("read from a closed file '", path_, "'");
  if (nbytes < 0) return Status::Invalid("negative read size ", nbytes);
  // Grow with what actually arrives: start small, double while bytes keep
  // coming, so that the allocation follows the data and not the request.
  constexpr int64_t kInitial = 64 * 1024;
  MutableBuffer out(pool_);
  QUIVER_RETURN_NOT_OK(out.Reserve(std::min(nbytes, kInitial)));
  while (out.size() < nbytes) {
    if (out.capacity() == out.size()) {
      QUIVER_RETURN_NOT_OK(out.Reserve(std::min(nbytes - out.size(), out.size())));
    }
    int64_t want = std::min({nbytes - out.size(), out.capacity() - out.size(), kMaxIoChunk});
    ssize_t n = ::read(fd_, out.data() + out.size(), static_cast<size_t>(want));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("cannot read", path_, errno);
    }
    if (n == 0) break;  // end of file
    out.UnsafeSetSize(out.size() + n);
    position_ += n;
  }
  return out.Freeze();
}

Status FileInputStream::Close() {
  if (fd_ < 0) return Status::OK();
  int fd = fd_;
  fd_ = -1;
  if (owns_fd_ && ::close(fd) != 0) return ErrnoStatus("cannot close", path_, errno);
  return Status::OK();
}

// --- ReadableFile ------------------------------------------------------------

Result<std::unique_ptr<ReadableFile>> ReadableFile::Open(const std::string& path,
                                                         MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(int fd, OpenForReading(path));
  QUIVER_ASSIGN_OR_RAISE(int64_t size, RegularFileSize(fd, path));
  return std::unique_ptr<ReadableFile>(new ReadableFile(fd, size, pool, path));
}

ReadableFile::~ReadableFile() { ::close(fd_); }

Result<std::shared_ptr<Buffer>> ReadableFile::ReadAt(int64_t offset, int64_t length) const {
  QUIVER_RETURN_NOT_OK(CheckReadRange(offset, length));
  MutableBuffer out(pool_);
  QUIVER_RETURN_NOT_OK(out.Reserve(length));
  out.UnsafeSetSize(length);  // filled by pread below (no zeroing first)
  int64_t done = 0;
  while (done < length) {
    const ssize_t n = ::pread(fd_, out.data() + done,
                              static_cast<size_t>(std::min(length - done, kMaxIoChunk)),
                              static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("cannot read", path_, errno);
    }
    if (n == 0) {
      return Status::IOError("'", path_, "' changed size while open: ", length,
                             " bytes at offset ", offset, " were in its ", size_,
                             " bytes, and only ", done, " of them could be read");
    }
    done += n;
  }
  return out.Freeze();
}

// --- MemoryMappedFile --------------------------------------------------------

Result<std::unique_ptr<MemoryMappedFile>> MemoryMappedFile::Open(const std::string& path) {
  QUIVER_ASSIGN_OR_RAISE(auto mapping, MemoryMapFile(path));
  return std::unique_ptr<MemoryMappedFile>(new MemoryMappedFile(std::move(mapping), path));
}

Result<std::shared_ptr<Buffer>> MemoryMappedFile::ReadAt(int64_t offset, int64_t length) const {
  QUIVER_RETURN_NOT_OK(CheckReadRange(offset, length));
  return SliceBuffer(mapping_, offset, length);
}

// --- Whole files -------------------------------------------------------------

Result<std::shared_ptr<Buffer>> ReadFileToBuffer(const std::string& path, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(auto stream, FileInputStream::Open(path, pool));
  struct stat st;
  int64_t size_hint = 0;
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) size_hint = st.st_size;
  // Read by size when known (one allocation), then make sure nothing follows.
  MutableBuffer out(pool);
  QUIVER_RETURN_NOT_OK(out.Reserve(size_hint));
  while (true) {
    QUIVER_ASSIGN_OR_RAISE(auto chunk, stream->Read(std::max<int64_t>(size_hint - out.size(),
                                                                       1 << 20)));
    if (chunk->size() == 0) break;
    QUIVER_RETURN_NOT_OK(out.ExtendFromSlice(chunk->data(), chunk->size()));
  }
  QUIVER_RETURN_NOT_OK(stream->Close());
  return out.Freeze();
}

Result<std::shared_ptr<Buffer>> MemoryMapFile(const std::string& path) {
  QUIVER_ASSIGN_OR_RAISE(int fd, OpenForReading(path));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return ErrnoStatus("cannot stat", path, err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::IOError("cannot map '", path, "': not a regular file");
  }
  if (st.st_size == 0) {
    ::close(fd);
    return Buffer::Empty();
  }
  void* address = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  int err = errno;
  ::close(fd);
  if (address == MAP_FAILED) return ErrnoStatus("cannot map", path, err);
  auto mapping = std::make_shared<internal::Mapping>();
  mapping->address = address;
  mapping->length = static_cast<size_t>(st.st_size);
  return Buffer::WrapWithOwner(address, st.st_size, std::move(mapping));
}

}  // namespace quiver::io
