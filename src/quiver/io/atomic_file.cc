// Temporary file + fsync + rename + fsync of the folder (see atomic_file.h).
//
// The durable sequence is the one of every careful writer (SQLite's journal,
// git's lockfiles, Go's renameio): write a temporary file in the target's
// folder, fsync it, rename it over the target, fsync the folder so that the
// rename itself is on disk. The temporary file is created with
// open(O_CREAT | O_EXCL, 0666) under a random name rather than mkstemp (which
// creates with 0600): the kernel applies the umask and any default ACL
// itself, so the mode is right without reading the umask, whose only
// interface, umask(2), sets it (a window in which another thread's files get
// a wrong mode).
#include "quiver/io/atomic_file.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>

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

Status ErrnoError(const std::string& what, int err) {
  return Status::IOError(what, ": ", std::strerror(err));
}

// The file a write to `path` replaces: `path` itself, or the end of its
// chain of symbolic links (a relative link resolved from the folder that
// holds it), which need not exist (a dangling link). At most 40 links, as
// the kernel's own limit (MAXSYMLINKS).
Result<std::string> ResolveLinks(const std::string& path) {
  std::string at = path;
  for (int hops = 0; hops <= 40; ++hops) {
    struct stat st;
    if (::lstat(at.c_str(), &st) != 0) {
      if (errno == ENOENT) return at;  // a new file (or a dangling link's target)
      return ErrnoError("cannot stat '" + at + "'", errno);
    }
    if (!S_ISLNK(st.st_mode)) return at;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(at.c_str(), buf, sizeof(buf));
    if (n < 0) return ErrnoError("cannot read the link '" + at + "'", errno);
    if (n == static_cast<ssize_t>(sizeof(buf))) {
      return Status::IOError("the link '", at, "' points at a path too long to follow");
    }
    std::string link(buf, static_cast<size_t>(n));
    at = link.empty() || link[0] == '/' ? link : DirName(at) + "/" + link;
  }
  return Status::IOError("cannot write '", path, "': too many levels of symbolic links");
}

// A name for a temporary file: 6 characters of [A-Za-z0-9] from getrandom,
// else from the clock and a counter (O_EXCL makes any name safe; the
// randomness only avoids clashes and guessable names).
std::string RandomSuffix() {
  static constexpr char kChars[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  static std::atomic<uint64_t> counter{0};
  uint64_t bits = 0;
  if (::getrandom(&bits, sizeof(bits), GRND_NONBLOCK) != static_cast<ssize_t>(sizeof(bits))) {
    bits = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
           (counter.fetch_add(1, std::memory_order_relaxed) * 0x9E3779B97F4A7C15ull);
  }
  std::string out(6, 'x');
  for (char& c : out) {
    c = kChars[bits % 62];
    bits /= 62;
  }
  return out;
}

Result<int> OpenInPlace(const std::string& path) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return ErrnoError("cannot open '" + path + "'", errno);
  return fd;
}

// fsync of the folder `dir` (after a rename into it). A file system that
// cannot sync a folder (EINVAL: some FUSE and network ones) has nothing
// more to make durable.
Status SyncDirectory(const std::string& dir) {
  int fd;
  do {
    fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return ErrnoError("cannot open the folder '" + dir + "' to fsync it", errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && err != EINVAL) return ErrnoError("fsync of the folder '" + dir + "' failed", err);
  return Status::OK();
}

}  // namespace

AtomicFileOutputStream::AtomicFileOutputStream(std::string path, std::string target,
                                               std::string temp_path, int fd, bool in_place,
                                               bool fsync)
    : path_(std::move(path)),
      target_(std::move(target)),
      temp_path_(std::move(temp_path)),
      fd_(fd),
      stream_(FileOutputStream::FromDescriptor(fd, /*owns_fd=*/false,
                                               temp_path_.empty() ? path_ : temp_path_)),
      in_place_(in_place),
      fsync_(fsync) {}

Result<std::unique_ptr<AtomicFileOutputStream>> AtomicFileOutputStream::Open(
    const std::string& path, bool fsync) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) return Status::IOError("'", path, "' is a directory");
    // A device, FIFO or socket (/dev/stdout, a named pipe): written in
    // place; a temporary file and a rename would replace it.
    QUIVER_ASSIGN_OR_RAISE(int fd, OpenInPlace(path));
    return std::unique_ptr<AtomicFileOutputStream>(new AtomicFileOutputStream(
        path, path, std::string(), fd, /*in_place=*/true, /*fsync=*/false));
  }
  QUIVER_ASSIGN_OR_RAISE(std::string target, ResolveLinks(path));
  // An existing regular file keeps its permission bits.
  int keep_mode = -1;
  if (::stat(target.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    keep_mode = static_cast<int>(st.st_mode & 07777);
  }
  const std::string prefix = DirName(target) + "/." + BaseName(target) + ".quiver-";
  std::string temp;
  int fd = -1;
  for (int attempt = 0; fd < 0; ++attempt) {
    temp = prefix + RandomSuffix();
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) break;
    if ((errno == EEXIST && attempt < 100) || errno == EINTR) continue;
    const std::string of = target == path ? "'" + path + "'"
                                          : "'" + target + "' (the target of '" + path + "')";
    return ErrnoError("cannot create a temporary file next to " + of, errno);
  }
  if (keep_mode >= 0 && ::fchmod(fd, static_cast<mode_t>(keep_mode)) != 0) {
    const int err = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    return ErrnoError("cannot give the new '" + target + "' the mode of the old one", err);
  }
  return std::unique_ptr<AtomicFileOutputStream>(new AtomicFileOutputStream(
      path, std::move(target), std::move(temp), fd, /*in_place=*/false, fsync));
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
    if (::close(fd) != 0) return ErrnoError("cannot close '" + path_ + "'", errno);
    return Status::OK();
  }
  if (fsync_ && ::fsync(fd_) != 0) return ErrnoError("fsync of '" + temp_path_ + "' failed", errno);
  const int fd = fd_;
  fd_ = -1;
  // close() reports a delayed write error (NFS): the file would be short.
  if (::close(fd) != 0) return ErrnoError("cannot close '" + temp_path_ + "'", errno);
  if (::rename(temp_path_.c_str(), target_.c_str()) != 0) {
    return ErrnoError("cannot rename '" + temp_path_ + "' to '" + target_ + "'", errno);
  }
  temp_path_.clear();
  done_ = true;
  if (fsync_) {
    Status st = SyncDirectory(DirName(target_));
    if (!st.ok()) {
      return st.WithContext("'", target_, "' is written, but its name may not survive a crash: ");
    }
    synced_ = true;
  }
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
