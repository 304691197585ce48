#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "quiver/io/file.h"
#include "quiver/io/memory.h"
#include "quiver/io/test_util_internal.h"

namespace quiver::io {
namespace {
namespace QUIVER_UNITY_ID {

namespace fs = std::filesystem;

using testutil::ReadAll;
using testutil::TempDir;
using testutil::WriteFile;

std::string Bytes(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s.push_back(static_cast<char>('a' + i % 26));
  return s;
}

std::string AsString(const Buffer& b) {
  return std::string(reinterpret_cast<const char*>(b.data()), static_cast<size_t>(b.size()));
}

// Every RandomAccessFile must refuse the same ranges with the same errors.
void CheckRanges(const RandomAccessFile& file, const std::string& content) {
  const int64_t size = static_cast<int64_t>(content.size());
  ASSERT_EQ(file.Size(), size);
  for (int64_t offset : {int64_t{0}, int64_t{1}, size / 2, size - 1, size}) {
    for (int64_t length : {int64_t{0}, int64_t{1}, int64_t{7}, size - offset}) {
      if (offset < 0 || length < 0) continue;
      auto r = file.ReadAt(offset, length);
      if (offset + length <= size) {
        ASSERT_TRUE(r.ok()) << r.status() << " at " << offset << "+" << length;
        EXPECT_EQ(AsString(**r), content.substr(offset, length));
      } else {
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.status().code(), StatusCode::kIOError);
        EXPECT_NE(r.status().message().find("past the end"), std::string::npos) << r.status();
      }
    }
  }
  // Past the end by one byte, far past, and offsets beyond the size.
  for (auto [offset, length] : std::vector<std::pair<int64_t, int64_t>>{
           {size - 1, 2}, {0, size + 1}, {size + 1, 0}, {size, 1}, {1, INT64_MAX},
           {INT64_MAX, 1}, {INT64_MAX, INT64_MAX}}) {
    auto r = file.ReadAt(offset, length);
    ASSERT_FALSE(r.ok()) << offset << "+" << length;
    EXPECT_EQ(r.status().code(), StatusCode::kIOError) << r.status();
    EXPECT_NE(r.status().message().find(file.name()), std::string::npos) << r.status();
  }
  for (auto [offset, length] :
       std::vector<std::pair<int64_t, int64_t>>{{-1, 1}, {0, -1}, {INT64_MIN, 0}}) {
    auto r = file.ReadAt(offset, length);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kInvalid) << r.status();
  }
}

TEST(BufferReader, ReadsRangesExactlyAndStreamsShortAtTheEnd) {
  const std::string content = Bytes(100);
  BufferReader reader(Buffer::FromString(content), "mem");
  CheckRanges(reader, content);
  EXPECT_EQ(reader.name(), "mem");
  // Sequential reads are short only at the end; ranges do not move them.
  ASSERT_EQ(AsString(**reader.Read(60)), content.substr(0, 60));
  ASSERT_EQ(AsString(**reader.ReadAt(90, 10)), content.substr(90));
  ASSERT_EQ(AsString(**reader.Read(60)), content.substr(60));
  ASSERT_EQ((*reader.Read(60))->size(), 0);
  ASSERT_TRUE(reader.Seek(10).ok());
  ASSERT_EQ(AsString(**reader.Read(5)), content.substr(10, 5));
  EXPECT_FALSE(reader.Seek(101).ok());
  EXPECT_FALSE(reader.Read(-1).ok());
  // Zero-copy: a slice of the buffer.
  auto slice = *reader.ReadAt(3, 4);
  EXPECT_EQ(slice->data(), reader.buffer()->data() + 3);
  ASSERT_TRUE(reader.Close().ok());
  EXPECT_FALSE(reader.ReadAt(0, 1).ok());
}

TEST(BufferOutputStream, CollectsWrites) {
  BufferOutputStream out;
  ASSERT_TRUE(out.Write("abc", 3).ok());
  ASSERT_TRUE(out.Write(*Buffer::FromString("de")).ok());
  EXPECT_EQ(*out.Tell(), 5);
  EXPECT_FALSE(out.Write("x", -1).ok());
  auto buffer = out.Finish();
  ASSERT_TRUE(buffer.ok());
  EXPECT_EQ(AsString(**buffer), "abcde");
  EXPECT_FALSE(out.Write("x", 1).ok());
  EXPECT_FALSE(out.Finish().ok());
}

TEST(ChunkedOutputStream, CollectsWritesInGrowingChunks) {
  // Small writes, one spanning several chunks, and one larger than the
  // largest chunk (both copied with non-temporal stores, from an odd
  // position in the chunk): the chunks end to end are the bytes written,
  // in order.
  std::string expected;
  ChunkedOutputStream out;
  for (int i = 0; i < 1000; ++i) {
    const std::string s = std::to_string(i) + ",";
    ASSERT_TRUE(out.Write(s.data(), static_cast<int64_t>(s.size())).ok());
    expected += s;
  }
  const std::string big = Bytes(static_cast<int>(ChunkedOutputStream::kFirstChunk * 5 + 17));
  ASSERT_TRUE(out.Write(big.data(), static_cast<int64_t>(big.size())).ok());
  expected += big;
  const std::string huge = Bytes(static_cast<int>(ChunkedOutputStream::kMaxChunk + 3));
  ASSERT_TRUE(out.Write(huge.data(), static_cast<int64_t>(huge.size())).ok());
  expected += huge;
  ASSERT_TRUE(out.Write("z", 1).ok());
  expected += "z";
  ASSERT_TRUE(out.Write("", 0).ok());
  EXPECT_EQ(*out.Tell(), static_cast<int64_t>(expected.size()));
  EXPECT_FALSE(out.Write("x", -1).ok());
  auto chunks = out.Finish();
  ASSERT_TRUE(chunks.ok());
  ASSERT_GE(chunks->size(), 3u);
  std::string got;
  for (const auto& c : *chunks) {
    ASSERT_GT(c->size(), 0);
    got += AsString(*c);
  }
  EXPECT_EQ(got, expected);
  EXPECT_FALSE(out.Write("x", 1).ok());
  EXPECT_FALSE(out.Finish().ok());
  // Nothing written: no chunks.
  ChunkedOutputStream empty;
  auto none = empty.Finish();
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(ChunkedOutputStream, KeepsLargeSharedBuffersAndCopiesSmallOnes) {
  // WriteShared between plain writes: a buffer of at least kAdoptBytes is
  // one of Finish()'s pieces as it is (same memory), the bytes written to
  // the chunk before it a slice, the writes after it go on in the same
  // chunk; a smaller buffer is copied. The pieces end to end are the bytes
  // written, in order; Tell() counts every byte.
  std::string expected;
  ChunkedOutputStream out;
  EXPECT_EQ(out.MinAdoptedBytes(), ChunkedOutputStream::kAdoptBytes);
  auto write = [&](const std::string& s) {
    ASSERT_TRUE(out.Write(s.data(), static_cast<int64_t>(s.size())).ok());
    expected += s;
  };
  std::vector<const uint8_t*> adopted;
  auto share = [&](int64_t size, bool kept) {
    MutableBuffer b;
    const std::string bytes = Bytes(static_cast<int>(size));
    ASSERT_TRUE(b.Reserve(2 * size).ok());  // room left over: FreezeSlice zeroes none of it
    b.UnsafeExtendFromSlice(bytes.data(), size);
    std::shared_ptr<Buffer> frozen = b.FreezeSlice();
    ASSERT_EQ(frozen->size(), size);
    if (kept) adopted.push_back(frozen->data());
    ASSERT_TRUE(out.WriteShared(std::move(frozen)).ok());
    expected += bytes;
  };
  write("header 1;");
  share(ChunkedOutputStream::kAdoptBytes, true);
  write("header 2;");
  share(ChunkedOutputStream::kAdoptBytes - 1, false);
  share(3 * ChunkedOutputStream::kAdoptBytes + 5, true);  // twice in a row:
  share(ChunkedOutputStream::kAdoptBytes + 1, true);      // no empty slice
  write("tail");
  EXPECT_EQ(*out.Tell(), static_cast<int64_t>(expected.size()));
  auto pieces = out.Finish();
  ASSERT_TRUE(pieces.ok());
  std::string got;
  std::vector<const uint8_t*> starts;
  for (const auto& piece : *pieces) {
    ASSERT_GT(piece->size(), 0);
    got += AsString(*piece);
    starts.push_back(piece->data());
  }
  EXPECT_EQ(got, expected);
  // header 1 | kept | header 2 and the small one, copied (into the first
  // chunk, after header 1, and a second one) | kept | kept | tail.
  auto at = [&](const uint8_t* p) { return std::find(starts.begin(), starts.end(), p) - starts.begin(); };
  ASSERT_EQ(adopted.size(), 3u);
  EXPECT_EQ(at(adopted[0]), 1);
  EXPECT_EQ(starts[2], starts[0] + 9);  // the writes after a kept buffer: the same chunk
  EXPECT_GT(at(adopted[1]), 2);
  EXPECT_EQ(at(adopted[2]), at(adopted[1]) + 1);
  EXPECT_EQ(static_cast<size_t>(at(adopted[2])), pieces->size() - 2);
  EXPECT_FALSE(out.WriteShared(Buffer::Empty()).ok());
  // A stream that copies says it keeps nothing.
  BufferOutputStream copying;
  EXPECT_EQ(copying.MinAdoptedBytes(), std::numeric_limits<int64_t>::max());
}

TEST(ChunkedOutputStream, WritesInPlace) {
  // BeginInPlace gives room at the stream's position: in the current chunk
  // while it has that much left, else in a new one of at least that size
  // (the old chunk's tail unused); CommitInPlace writes the first k bytes.
  // The pieces end to end are the bytes written, in order.
  std::string expected;
  ChunkedOutputStream out;
  auto in_place = [&](int64_t room, const std::string& s) {
    auto at = out.BeginInPlace(room);
    ASSERT_TRUE(at.ok()) << at.status();
    ASSERT_NE(*at, nullptr);
    std::memcpy(*at, s.data(), s.size());
    ASSERT_TRUE(out.CommitInPlace(static_cast<int64_t>(s.size())).ok());
    expected += s;
  };
  in_place(0, "");                 // before any chunk
  in_place(10, "first");
  ASSERT_TRUE(out.Write("+", 1).ok());
  expected += "+";
  uint8_t* const first_chunk = *out.BeginInPlace(100);
  in_place(100, "second");         // the same chunk, right after
  EXPECT_EQ(first_chunk, *out.BeginInPlace(1) - 6);
  const std::string big = Bytes(static_cast<int>(ChunkedOutputStream::kFirstChunk));
  in_place(ChunkedOutputStream::kFirstChunk + 100, big);  // more than is left: a new chunk
  in_place(ChunkedOutputStream::kMaxChunk + 1, "x");      // larger than the largest chunk
  EXPECT_EQ(*out.Tell(), static_cast<int64_t>(expected.size()));
  // Committing more than the room, or with none given, fails.
  ASSERT_TRUE(out.BeginInPlace(4).ok());
  EXPECT_FALSE(out.CommitInPlace(5).ok());
  EXPECT_FALSE(out.CommitInPlace(-1).ok());
  ASSERT_TRUE(out.Write("y", 1).ok());
  expected += "y";
  EXPECT_FALSE(out.CommitInPlace(0).ok());
  EXPECT_FALSE(out.BeginInPlace(-1).ok());
  auto pieces = out.Finish();
  ASSERT_TRUE(pieces.ok());
  std::string got;
  for (const auto& piece : *pieces) {
    ASSERT_GT(piece->size(), 0);
    got += AsString(*piece);
  }
  EXPECT_EQ(got, expected);
  EXPECT_FALSE(out.BeginInPlace(1).ok());
}

TEST(BufferOutputStream, WritesInPlace) {
  BufferOutputStream out;
  ASSERT_TRUE(out.Write("ab", 2).ok());
  auto at = out.BeginInPlace(1000);
  ASSERT_TRUE(at.ok());
  ASSERT_NE(*at, nullptr);
  std::memcpy(*at, "cde", 3);
  ASSERT_TRUE(out.CommitInPlace(3).ok());
  EXPECT_EQ(*out.Tell(), 5);
  EXPECT_FALSE(out.CommitInPlace(0).ok());  // none open
  ASSERT_TRUE(out.BeginInPlace(2).ok());
  EXPECT_FALSE(out.CommitInPlace(3).ok());
  EXPECT_EQ(AsString(**out.Finish()), "abcde");
  // A stream with no memory of its own gives no room: the caller writes.
  TempDir dir;
  auto file = FileOutputStream::Open(dir / "f");
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(*(*file)->BeginInPlace(10), nullptr);
  EXPECT_FALSE((*file)->CommitInPlace(0).ok());
  ASSERT_TRUE((*file)->Close().ok());
}

TEST(MappedOutputStream, GrowsWithoutMovingTheBytesAndHandsOverOneBuffer) {
  MappedOutputStream out;
  std::string expected;
  // Writes across several growths (1 MiB, 2 MiB, 4 MiB...), in place too.
  const std::string piece = Bytes(300001);
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(out.Write(piece.data(), static_cast<int64_t>(piece.size())).ok());
    expected += piece;
    auto at = out.BeginInPlace(1000);
    ASSERT_TRUE(at.ok());
    ASSERT_NE(*at, nullptr);
    std::memcpy(*at, "xyz", 3);
    ASSERT_TRUE(out.CommitInPlace(3).ok());
    expected += "xyz";
  }
  EXPECT_EQ(*out.Tell(), static_cast<int64_t>(expected.size()));
  EXPECT_FALSE(out.CommitInPlace(1).ok());  // none open
  auto value = out.Finish();
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(AsString(**value), expected);
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*value)->data()) % 64, 0u);
  EXPECT_TRUE(out.closed());
  EXPECT_FALSE(out.Finish().ok());
  EXPECT_FALSE(out.Write("a", 1).ok());
  // The buffer owns the mapping: valid after the stream is gone.
  std::shared_ptr<Buffer> kept;
  {
    MappedOutputStream other;
    ASSERT_TRUE(other.Write("hello", 5).ok());
    kept = *other.Finish();
  }
  EXPECT_EQ(AsString(*kept), "hello");
  MappedOutputStream empty;
  EXPECT_EQ((**empty.Finish()).size(), 0);
  MappedOutputStream bad;
  EXPECT_FALSE(bad.Write("a", -1).ok());
}

TEST(ChunkedOutputStream, TakeHandsOutWhatWasWrittenAndGoesOn) {
  ChunkedOutputStream out;
  ASSERT_TRUE(out.Write("abc", 3).ok());
  auto first = out.Take();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(AsString(*first[0]), "abc");
  EXPECT_TRUE(out.Take().empty());
  // More writes go after the bytes handed out (in the same chunk), which
  // keep their value; adopted buffers come out as they are.
  const std::string big = Bytes(static_cast<int>(ChunkedOutputStream::kAdoptBytes));
  ASSERT_TRUE(out.Write("defg", 4).ok());
  MutableBuffer body;
  ASSERT_TRUE(body.ExtendFromSlice(big.data(), static_cast<int64_t>(big.size())).ok());
  auto adopted = body.Freeze();
  ASSERT_TRUE(out.WriteShared(adopted).ok());
  ASSERT_TRUE(out.Write("h", 1).ok());
  auto second = out.Take();
  ASSERT_EQ(second.size(), 3u);
  EXPECT_EQ(AsString(*second[0]), "defg");
  EXPECT_EQ(second[1].get(), adopted.get());
  EXPECT_EQ(AsString(*second[2]), "h");
  EXPECT_EQ(AsString(*first[0]), "abc");
  EXPECT_EQ(*out.Tell(), 8 + static_cast<int64_t>(big.size()));
  ASSERT_TRUE(out.Write("ij", 2).ok());
  auto rest = out.Finish();
  ASSERT_TRUE(rest.ok());
  ASSERT_EQ(rest->size(), 1u);
  EXPECT_EQ(AsString(*(*rest)[0]), "ij");
}

TEST(ReadableFile, ReadsRanges) {
  TempDir dir;
  const std::string content = Bytes(5000);
  WriteFile(dir / "f", content);
  auto file = ReadableFile::Open(dir / "f");
  ASSERT_TRUE(file.ok()) << file.status();
  CheckRanges(**file, content);
  EXPECT_EQ((*file)->name(), dir / "f");
}

TEST(FileOutputStream, CopyFromAppendsAnotherFilesRange) {
  TempDir dir;
  const std::string content = Bytes(300000);
  WriteFile(dir / "src", content);
  auto src = ReadableFile::Open(dir / "src");
  ASSERT_TRUE(src.ok());
  auto out = FileOutputStream::Open(dir / "dst");
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Write("head", 4).ok());
  ASSERT_TRUE((*out)->CopyFrom((*src)->fd(), 1000, 250000, dir / "src").ok());
  EXPECT_EQ(*(*out)->Tell(), 250004);
  ASSERT_TRUE((*out)->Write("tail", 4).ok());
  // Past the source's end: an error naming it.
  Status st = (*out)->CopyFrom((*src)->fd(), 299990, 100, dir / "src");
  EXPECT_TRUE(st.IsIOError()) << st;
  EXPECT_NE(st.message().find("ended at offset"), std::string::npos) << st;
  ASSERT_TRUE((*out)->Close().ok());
  std::ifstream in(dir / "dst", std::ios::binary);
  const std::string got((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GE(got.size(), 250008u);
  EXPECT_EQ(got.substr(0, 250008), "head" + content.substr(1000, 250000) + "tail");
}

TEST(FileOutputStream, CopyFromFallsBackToReadAndWrite) {
  // copy_file_range refuses a pipe (EINVAL): the bytes go through pread/write.
  TempDir dir;
  const std::string content = Bytes(20000);
  WriteFile(dir / "src", content);
  auto src = ReadableFile::Open(dir / "src");
  ASSERT_TRUE(src.ok());
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  auto out = FileOutputStream::FromDescriptor(fds[1], /*owns_fd=*/true, "pipe");
  ASSERT_TRUE(out->CopyFrom((*src)->fd(), 500, 10000, dir / "src").ok());
  EXPECT_EQ(*out->Tell(), 10000);
  ASSERT_TRUE(out->Close().ok());
  std::string got;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof(buf))) > 0) got.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  EXPECT_EQ(got, content.substr(500, 10000));
}

TEST(ReadableFile, ConcurrentReads) {
  TempDir dir;
  const std::string content = Bytes(1 << 16);
  WriteFile(dir / "f", content);
  auto file = ReadableFile::Open(dir / "f");
  ASSERT_TRUE(file.ok());
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        const int64_t offset = (t * 977 + i * 131) % 60000;
        auto r = (*file)->ReadAt(offset, 4096);
        if (!r.ok() || AsString(**r) != content.substr(offset, 4096)) ++mismatches[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

TEST(ReadableFile, FileThatChangedSize) {
  TempDir dir;
  const std::string content = Bytes(1000);
  WriteFile(dir / "f", content);
  auto file = ReadableFile::Open(dir / "f");
  ASSERT_TRUE(file.ok());
  // Truncated after opening: the size stays the one seen at Open, and a
  // range the file no longer holds is an error, not a short buffer.
  ASSERT_EQ(::truncate((dir / "f").c_str(), 600), 0);
  EXPECT_EQ((*file)->Size(), 1000);
  ASSERT_TRUE((*file)->ReadAt(0, 600).ok());
  auto r = (*file)->ReadAt(500, 200);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIOError);
  EXPECT_NE(r.status().message().find("changed size"), std::string::npos) << r.status();
  r = (*file)->ReadAt(800, 10);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("changed size"), std::string::npos) << r.status();
  // Grown: bytes past the size seen at Open are out of range.
  WriteFile(dir / "f", Bytes(2000));
  EXPECT_TRUE((*file)->ReadAt(900, 100).ok());
  r = (*file)->ReadAt(1000, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("past the end"), std::string::npos);
}

TEST(ReadableFile, RefusesWhatHasNoSize) {
  TempDir dir;
  auto missing = ReadableFile::Open(dir / "missing");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kIOError);
  EXPECT_NE(missing.status().message().find("missing"), std::string::npos);
  fs::create_directory(dir / "d");
  auto d = ReadableFile::Open(dir / "d");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("is a directory"), std::string::npos) << d.status();
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  // Opening a FIFO for reading blocks until a writer comes: open one first.
  int wfd = ::open((dir / "fifo").c_str(), O_RDWR);
  ASSERT_GE(wfd, 0);
  auto fifo = ReadableFile::Open(dir / "fifo");
  ::close(wfd);
  ASSERT_FALSE(fifo.ok());
  EXPECT_NE(fifo.status().message().find("not a regular file"), std::string::npos);
}

TEST(ReadableFile, EmptyFile) {
  TempDir dir;
  WriteFile(dir / "empty", "");
  auto file = ReadableFile::Open(dir / "empty");
  ASSERT_TRUE(file.ok());
  EXPECT_EQ((*file)->Size(), 0);
  EXPECT_EQ((**(*file)->ReadAt(0, 0)).size(), 0);
  EXPECT_FALSE((*file)->ReadAt(0, 1).ok());
}

TEST(MemoryMappedFile, ReadsZeroCopyRanges) {
  TempDir dir;
  const std::string content = Bytes(3000);
  WriteFile(dir / "f", content);
  auto file = MemoryMappedFile::Open(dir / "f");
  ASSERT_TRUE(file.ok()) << file.status();
  CheckRanges(**file, content);
  auto slice = *(*file)->ReadAt(100, 10);
  EXPECT_EQ(slice->data(), (*file)->buffer()->data() + 100);
  // The slice keeps the mapping alive.
  file->reset();
  EXPECT_EQ(AsString(*slice), content.substr(100, 10));
  WriteFile(dir / "empty", "");
  auto empty = MemoryMappedFile::Open(dir / "empty");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)->Size(), 0);
  EXPECT_FALSE(MemoryMappedFile::Open(dir / "missing").ok());
}

TEST(FileStreams, WriteThenReadBack) {
  TempDir dir;
  const std::string content = Bytes(300000);
  {
    auto out = FileOutputStream::Open(dir / "f");
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE((*out)->Write(content.data(), 1000).ok());
    ASSERT_TRUE((*out)->Write(content.data() + 1000, content.size() - 1000).ok());
    EXPECT_EQ(*(*out)->Tell(), static_cast<int64_t>(content.size()));
    ASSERT_TRUE((*out)->Close().ok());
    ASSERT_TRUE((*out)->Close().ok());
    EXPECT_FALSE((*out)->Write("x", 1).ok());
  }
  auto in = FileInputStream::Open(dir / "f");
  ASSERT_TRUE(in.ok());
  auto first = (*in)->Read(100);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(AsString(**first), content.substr(0, 100));
  // A read longer than what remains is short, then empty at the end.
  auto rest = (*in)->Read(int64_t{1} << 40);
  ASSERT_TRUE(rest.ok());
  EXPECT_EQ(AsString(**rest), content.substr(100));
  EXPECT_EQ((**(*in)->Read(10)).size(), 0);
  EXPECT_EQ(AsString(**ReadFileToBuffer(dir / "f")), content);
  EXPECT_EQ(AsString(**MemoryMapFile(dir / "f")), content);
  EXPECT_FALSE(ReadFileToBuffer(dir / "missing").ok());
  EXPECT_FALSE(FileOutputStream::Open(dir / "no-such-dir/x").ok());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::io
