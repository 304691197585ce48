#include "cli_common.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "quiver/io/file.h"
#include "quiver/io/interfaces.h"
#include "quiver/memory/mutable_buffer.h"

namespace quiver::cli {

void PrintError(std::string_view command, std::string_view message) {
  size_t start = 0;
  while (true) {
    size_t end = message.find('\n', start);
    std::string_view line = message.substr(start, end == std::string_view::npos ? end : end - start);
    fmt::print(stderr, "quiver {}: {}\n", command, EscapeBytes(line));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  std::fflush(stderr);
}

std::string ErrorMessage(const Status& status) {
  switch (status.code()) {
    case StatusCode::kInvalid:
    case StatusCode::kIOError:
      return status.message();
    case StatusCode::kNotImplemented:
      return "not implemented: " + status.message();
    case StatusCode::kOutOfMemory:
      return "out of memory: " + status.message();
    default:
      return status.ToString();
  }
}

Status WithName(const Status& status, const std::string& name) {
  if (status.ok() || status.message().starts_with(name)) return status;
  return status.WithContext(name, ": ");
}

Result<std::shared_ptr<Buffer>> LoadInput(const std::string& path) {
  if (path == "-") {
    auto stream = io::FileInputStream::FromDescriptor(STDIN_FILENO, /*owns_fd=*/false);
    MutableBuffer out;
    while (true) {
      QUIVER_ASSIGN_OR_RAISE(auto chunk, stream->Read(int64_t{1} << 20));
      if (chunk->size() == 0) break;
      QUIVER_RETURN_NOT_OK(out.ExtendFromSlice(chunk->data(), chunk->size()));
    }
    return out.Freeze();
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Status::IOError("'", path, "' is a directory");
    if (S_ISREG(st.st_mode)) return io::MemoryMapFile(path);
  }
  // Pipes, devices, or a missing file (whose error the reader reports).
  return io::ReadFileToBuffer(path);
}

namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void OnSignal(int signo) { g_signal = signo; }

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction action = {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int InterruptSignal() { return g_signal; }

namespace {
constexpr size_t kStdoutBufferSize = size_t{1} << 16;
}  // namespace

StdoutSink::~StdoutSink() {
  if (!closed_ && !broken_pipe_) (void)Flush();
}

Status StdoutSink::WriteOut(const char* data, size_t size) {
  if (broken_pipe_) return Status::IOError("cannot write to standard output: the pipe is closed");
  while (size > 0) {
    const ssize_t n = ::write(STDOUT_FILENO, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      if (err == EPIPE) broken_pipe_ = true;
      return Status::IOError("cannot write to standard output: ", std::strerror(err));
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return Status::OK();
}

Status StdoutSink::Write(const void* data, int64_t nbytes) {
  if (closed_) return Status::IOError("write to a closed standard output");
  const auto* bytes = static_cast<const char*>(data);
  const auto size = static_cast<size_t>(nbytes);
  position_ += nbytes;
  if (buffer_.size() + size < kStdoutBufferSize) {
    buffer_.append(bytes, size);
    return Status::OK();
  }
  QUIVER_RETURN_NOT_OK(Flush());
  if (size >= kStdoutBufferSize) return WriteOut(bytes, size);
  buffer_.append(bytes, size);
  return Status::OK();
}

Status StdoutSink::Flush() {
  Status st = WriteOut(buffer_.data(), buffer_.size());
  buffer_.clear();
  return st;
}

Status StdoutSink::Close() {
  if (closed_) return Status::OK();
  Status st = Flush();
  closed_ = true;
  return st;
}

void IgnoreSigpipe() { std::signal(SIGPIPE, SIG_IGN); }

std::string EscapeBytes(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  const bool utf8 = IsValidUtf8(bytes);
  for (char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F && u != '\\') {
      out.push_back(c);
    } else if (u == '\\') {
      out.append("\\\\");
    } else if (u >= 0x80 && utf8) {
      out.push_back(c);  // printable as part of valid UTF-8 text
    } else {
      fmt::format_to(std::back_inserter(out), "\\x{:02x}", u);
    }
  }
  return out;
}

std::string HexBytes(std::string_view bytes) {
  std::string out;
  out.reserve(2 * bytes.size());
  for (char c : bytes) fmt::format_to(std::back_inserter(out), "{:02x}", static_cast<uint8_t>(c));
  return out;
}

std::string HumanBytes(int64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double v = static_cast<double>(bytes);
  int unit = -1;
  while (v >= 1024.0 && unit < 4) {
    v /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.1f} {}", v, kUnits[unit]);
}

}  // namespace quiver::cli
