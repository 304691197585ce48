#include "quiver/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/io/test_util_internal.h"

namespace quiver::io {
namespace {
namespace QUIVER_UNITY_ID {

namespace fs = std::filesystem;
using testutil::ReadAll;
using testutil::TempDir;
using testutil::WriteFile;

// Writes `data` to `path` through an AtomicFileOutputStream.
Status WriteAtomically(const std::string& path, const std::string& data, bool fsync = true) {
  QUIVER_ASSIGN_OR_RAISE(auto out, AtomicFileOutputStream::Open(path, fsync));
  QUIVER_RETURN_NOT_OK(out->Write(data.data(), static_cast<int64_t>(data.size())));
  return out->Close();
}

mode_t ModeOf(const std::string& path) {
  struct stat st;
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

// The process's umask as the kernel reports it, without changing it.
std::string UmaskLine() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Umask:", 0) == 0) return line;
  }
  return "";
}

TEST(AtomicFileOutputStream, AppearsOnlyWhenClosed) {
  TempDir dir;
  WriteFile(dir / "out", "old contents");
  auto out = AtomicFileOutputStream::Open(dir / "out");
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_FALSE((*out)->in_place());
  ASSERT_TRUE((*out)->Write("new", 3).ok());
  // While writing: the old file is untouched, the temporary file is beside it.
  EXPECT_EQ(ReadAll(dir / "out"), "old contents");
  auto names = dir.Names();
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].rfind(".out.quiver-", 0), 0u) << names[0];
  ASSERT_TRUE((*out)->Close().ok());
  EXPECT_TRUE((*out)->synced());
  EXPECT_EQ(ReadAll(dir / "out"), "new");
  EXPECT_EQ(dir.Names(), std::vector<std::string>{"out"});
}

TEST(AtomicFileOutputStream, AbortAndDestructorLeaveNothing) {
  TempDir dir;
  {
    auto out = AtomicFileOutputStream::Open(dir / "a");
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE((*out)->Write("x", 1).ok());
    (*out)->Abort();
    EXPECT_TRUE((*out)->closed());
    EXPECT_TRUE((*out)->Close().ok());  // nothing left to commit
  }
  {
    auto out = AtomicFileOutputStream::Open(dir / "b");
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE((*out)->Write("x", 1).ok());
  }  // destroyed without Close()
  EXPECT_TRUE(dir.Names().empty());
  WriteFile(dir / "keep", "kept");
  {
    auto out = AtomicFileOutputStream::Open(dir / "keep");
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE((*out)->Write("lost", 4).ok());
  }
  EXPECT_EQ(ReadAll(dir / "keep"), "kept");
  EXPECT_EQ(dir.Names(), std::vector<std::string>{"keep"});
}

TEST(AtomicFileOutputStream, FailedCommitLeavesNothing) {
  // The rename fails (a folder took the file's place meanwhile): Close()
  // reports it, the temporary file is gone, the folder is what it was.
  TempDir dir;
  auto out = AtomicFileOutputStream::Open(dir / "x");
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Write("data", 4).ok());
  fs::create_directory(dir / "x");
  WriteFile(dir / "x/inside", "i");
  Status st = (*out)->Close();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("cannot rename"), std::string::npos) << st;
  EXPECT_EQ(dir.Names(), std::vector<std::string>{"x"});
  EXPECT_TRUE(fs::is_directory(dir / "x"));
}

TEST(AtomicFileOutputStream, RefusesDirectoriesAndMissingFolders) {
  TempDir dir;
  fs::create_directory(dir / "d");
  auto d = AtomicFileOutputStream::Open(dir / "d");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), StatusCode::kIOError);
  EXPECT_NE(d.status().message().find("is a directory"), std::string::npos) << d.status();
  auto missing = AtomicFileOutputStream::Open(dir / "no-such-dir/x");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("temporary file"), std::string::npos);
}

TEST(AtomicFileOutputStream, WritesFifosInPlace) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  // Hold the read end open so that opening for writing does not block.
  int rfd = ::open((dir / "fifo").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(rfd, 0);
  auto out = AtomicFileOutputStream::Open(dir / "fifo");
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE((*out)->in_place());
  ASSERT_TRUE((*out)->Write("hello", 5).ok());
  ASSERT_TRUE((*out)->Close().ok());  // a FIFO is not fsynced (EINVAL)
  EXPECT_FALSE((*out)->synced());
  char buf[16] = {};
  EXPECT_EQ(::read(rfd, buf, sizeof(buf)), 5);
  EXPECT_EQ(std::string(buf, 5), "hello");
  ::close(rfd);
  // Still a FIFO, and nothing else in the folder.
  struct stat st;
  ASSERT_EQ(::stat((dir / "fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(dir.Names(), std::vector<std::string>{"fifo"});
}

TEST(AtomicFileOutputStream, NewFileModeFollowsTheUmask) {
  // Each umask in a child process of its own (the umask is process-wide):
  // the file gets 0666 less it, as open(path, O_CREAT, 0666) would give.
  TempDir dir;
  for (mode_t mask : {mode_t{022}, mode_t{077}, mode_t{0}, mode_t{027}}) {
    const std::string path = dir / ("m" + std::to_string(mask));
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::umask(mask);
      _exit(WriteAtomically(path, "x").ok() ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    EXPECT_EQ(ModeOf(path), 0666 & ~mask) << "umask " << std::oct << mask;
  }
}

TEST(AtomicFileOutputStream, ExistingFileKeepsItsMode) {
  TempDir dir;
  for (mode_t mode : {mode_t{0600}, mode_t{0755}, mode_t{0640}, mode_t{0444}}) {
    const std::string path = dir / ("f" + std::to_string(mode));
    WriteFile(path, "old");
    ASSERT_EQ(::chmod(path.c_str(), mode), 0);
    ASSERT_TRUE(WriteAtomically(path, "new").ok());
    EXPECT_EQ(ReadAll(path), "new");
    EXPECT_EQ(ModeOf(path), mode) << std::oct << mode;
  }
}

TEST(AtomicFileOutputStream, WritesThroughSymlinks) {
  TempDir dir;
  fs::create_directory(dir / "data");
  WriteFile(dir / "data/real.parquet", "old");
  ASSERT_EQ(::chmod((dir / "data/real.parquet").c_str(), 0640), 0);
  // A relative link, and a chain: top -> mid (absolute) -> data/real.parquet.
  fs::create_symlink("data/real.parquet", dir / "mid");
  fs::create_symlink(dir / "mid", dir / "top");
  ASSERT_TRUE(WriteAtomically(dir / "top", "new").ok());
  EXPECT_TRUE(fs::is_symlink(dir / "top"));
  EXPECT_TRUE(fs::is_symlink(dir / "mid"));
  EXPECT_EQ(fs::read_symlink(dir / "mid"), "data/real.parquet");
  EXPECT_EQ(ReadAll(dir / "data/real.parquet"), "new");
  EXPECT_EQ(ModeOf(dir / "data/real.parquet"), 0640);
  // No temporary file in either folder.
  EXPECT_EQ(dir.Names(), (std::vector<std::string>{"data", "mid", "top"}));
  std::vector<std::string> in_data;
  for (const auto& e : fs::directory_iterator(dir / "data")) in_data.push_back(e.path().filename());
  EXPECT_EQ(in_data, std::vector<std::string>{"real.parquet"});
  auto out = AtomicFileOutputStream::Open(dir / "top");
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)->target(), dir / "data/real.parquet");
  (*out)->Abort();
}

TEST(AtomicFileOutputStream, DanglingLinkCreatesItsTarget) {
  TempDir dir;
  fs::create_directory(dir / "sub");
  fs::create_symlink("sub/new.parquet", dir / "link");
  ASSERT_TRUE(WriteAtomically(dir / "link", "made").ok());
  EXPECT_TRUE(fs::is_symlink(dir / "link"));
  EXPECT_EQ(ReadAll(dir / "sub/new.parquet"), "made");
  EXPECT_EQ(ReadAll(dir / "link"), "made");
  // A dangling link into a folder that does not exist: a clear error that
  // names the target and the link.
  fs::create_symlink("nowhere/x.parquet", dir / "broken");
  Status st = WriteAtomically(dir / "broken", "x");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("nowhere/x.parquet"), std::string::npos) << st;
  EXPECT_NE(st.message().find("the target of"), std::string::npos) << st;
  EXPECT_TRUE(fs::is_symlink(dir / "broken"));
  // A loop of links is refused.
  fs::create_symlink("loop_b", dir / "loop_a");
  fs::create_symlink("loop_a", dir / "loop_b");
  st = WriteAtomically(dir / "loop_a", "x");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("symbolic links"), std::string::npos) << st;
}

TEST(AtomicFileOutputStream, HardLinksKeepTheOldBytes) {
  // As documented: the rename gives the path a new inode; another hard link
  // to the old one still has the old bytes.
  TempDir dir;
  WriteFile(dir / "f", "old");
  fs::create_hard_link(dir / "f", dir / "h");
  ASSERT_TRUE(WriteAtomically(dir / "f", "new").ok());
  EXPECT_EQ(ReadAll(dir / "f"), "new");
  EXPECT_EQ(ReadAll(dir / "h"), "old");
}

TEST(AtomicFileOutputStream, FsyncCanBeTurnedOff) {
  TempDir dir;
  for (bool fsync : {true, false}) {
    const std::string path = dir / (fsync ? "durable" : "scratch");
    auto out = AtomicFileOutputStream::Open(path, fsync);
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE((*out)->Write("abc", 3).ok());
    ASSERT_TRUE((*out)->Close().ok());
    // synced(): the file and then its folder were fsynced without error.
    EXPECT_EQ((*out)->synced(), fsync);
    EXPECT_EQ(ReadAll(path), "abc");
  }
  EXPECT_EQ(dir.Names(), (std::vector<std::string>{"durable", "scratch"}));
}

TEST(AtomicFileOutputStream, ConcurrentWritersNeverChangeTheUmask) {
  // Threads writing files while two probes watch the umask: one reads it
  // from /proc/self/status, the other creates files with open(0666) and
  // checks the mode the kernel gave them (a few microseconds a probe, so it
  // catches a short window). Neither may ever see the umask change (the old
  // umask(0)/umask(m) pair showed 0000 in between, and two threads doing it
  // at once could leave it at 0000), and every file gets 0666 less it.
  TempDir dir;
  fs::create_directory(dir / "probes");
  const mode_t old_mask = ::umask(027);  // one where a wrong mode shows
  const std::string expected = UmaskLine();
  ASSERT_FALSE(expected.empty());
  std::atomic<bool> stop{false};
  std::atomic<int64_t> polls{0}, changes{0}, probes{0}, wrong_modes{0};
  std::thread poller([&] {
    while (!stop.load()) {
      if (UmaskLine() != expected) changes.fetch_add(1);
      polls.fetch_add(1);
    }
  });
  std::thread prober([&] {
    const std::string probe = dir / "probes/p";
    while (!stop.load()) {
      const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0) continue;
      struct stat st;
      if (::fstat(fd, &st) == 0 && (st.st_mode & 0777) != 0640) wrong_modes.fetch_add(1);
      ::close(fd);
      ::unlink(probe.c_str());
      probes.fetch_add(1);
    }
  });
  constexpr int kThreads = 4, kFiles = 100;
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&, t] {
      for (int i = 0; i < kFiles; ++i) {
        const std::string path = dir / ("w" + std::to_string(t) + "_" + std::to_string(i % 5));
        if (!WriteAtomically(path, std::to_string(t * 1000 + i), /*fsync=*/false).ok()) {
          failures.fetch_add(1);
        }
      }
    });
  }
  for (auto& w : writers) w.join();
  stop = true;
  poller.join();
  prober.join();
  const mode_t mask_after = ::umask(old_mask);
  EXPECT_EQ(mask_after, mode_t{027});
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GT(polls.load(), 0);
  EXPECT_GT(probes.load(), 0);
  EXPECT_EQ(changes.load(), 0);
  EXPECT_EQ(wrong_modes.load(), 0);
  std::vector<std::string> names = dir.Names();
  ASSERT_EQ(names.size(), static_cast<size_t>(kThreads * 5 + 1));  // no temporary file left
  for (const auto& name : names) {
    if (name != "probes") {
      EXPECT_EQ(ModeOf(dir / name), 0640u) << name;
    }
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::io
