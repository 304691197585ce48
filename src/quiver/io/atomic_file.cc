// Temporary file + fsync + rename (see atomic_file.h).
#include "quiver/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace quiver::io {

namespace {

std::string DirName(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

mode_t CurrentUmask() {
  mode_t m = ::umask(0);
  ::umask(m);
  return m;
}

}  // namespace

AtomicFileOutputStream::AtomicFileOutputStream(std::string path, std::string temp_path, int fd,
                                               bool in_place)
    : path_(std::move(path)),
      temp_path_(std::move(temp_path)),
      fd_(fd),
      stream_(FileOutputStream::FromDescriptor(fd, /*owns_fd=*/false,
                                               temp_path_.empty() ? path_ : temp_path_)),
      in_place_(in_place) {}

Result<std::unique_ptr<AtomicFileOutputStream>> AtomicFileOutputStream::Open(
    const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return Status::IOError("'", path, "' is a directory");
    // A device, FIFO or socket (/dev/stdout, a named pipe): written in
    // place; a temporary file and a rename would replace it.
    int fd;
    do {
      fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return Status::IOError("cannot open '", path, "': ", std::strerror(errno));
    return std::unique_ptr<AtomicFileOutputStream>(
        new AtomicFileOutputStream(path, std::string(), fd, /*in_place=*/true));
  }
  std::string templ = DirName(path) + "/." + BaseName(path) + ".quiver-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  int fd = ::mkstemp(buf.data());
  if (fd < 0) {
    return Status::IOError("cannot create a temporary file next to '", path, "': ",
                           std::strerror(errno));
  }
  ::fchmod(fd, 0644 & ~CurrentUmask());
  return std::unique_ptr<AtomicFileOutputStream>(
      new AtomicFileOutputStream(path, std::string(buf.data()), fd, /*in_place=*/false));
}

AtomicFileOutputStream::~AtomicFileOutputStream() { Abort(); }

Status AtomicFileOutputStream::Close() {
  if (done_) return Status::OK();
  Status st = Commit();
  if (!st.ok()) Abort();
  return st;
}

Status AtomicFileOutputStream::Commit() {
  QUIVER_RETURN_NOT_OK(stream_->Close());
  if (in_place_) {
    const int fd = fd_;
    fd_ = -1;
    done_ = true;
    if (::close(fd) != 0) {
      return Status::IOError("cannot close '", path_, "': ", std::strerror(errno));
    }
    return Status::OK();
  }
  if (::fsync(fd_) != 0) {
    return Status::IOError("fsync of '", temp_path_, "' failed: ", std::strerror(errno));
  }
  ::close(fd_);
  fd_ = -1;
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    return Status::IOError("cannot rename '", temp_path_, "' to '", path_, "': ",
                           std::strerror(errno));
  }
  temp_path_.clear();
  done_ = true;
  return Status::OK();
}

void AtomicFileOutputStream::Abort() {
  if (done_) return;
  done_ = true;
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!temp_path_.empty()) {
    ::unlink(temp_path_.c_str());
    temp_path_.clear();
  }
}

}  // namespace quiver::io
