// Tests for the shared zstd / LZ4 frame contexts (contexts_internal.h),
// cross-checked against the libraries' own one-shot APIs.
#include "quiver/compression/contexts_internal.h"

#include <gtest/gtest.h>
#include <lz4frame.h>
#include <zstd.h>

#include <random>
#include <string>
#include <thread>
#include <vector>

namespace quiver::compression::internal {
namespace {
namespace QUIVER_UNITY_ID {

using Bytes = std::vector<uint8_t>;

Bytes Text(size_t n) {
  static const char* kWords[] = {"page ", "column ", "quiver ", "arrow ", "\n"};
  std::mt19937_64 rng(3);
  Bytes out;
  while (out.size() < n) {
    for (const char* p = kWords[rng() % 5]; *p != '\0' && out.size() < n; ++p) out.push_back(*p);
  }
  return out;
}

// Runs a streaming decoder to the end of `in`, `chunk` output bytes at a
// time.
template <typename Decoder>
Bytes Stream(Decoder& decoder, const Bytes& in, size_t chunk, bool* frame_done) {
  Bytes out;
  size_t pos = 0;
  *frame_done = false;
  while (true) {
    const size_t old = out.size();
    out.resize(old + chunk);
    auto step = decoder.DecompressStep(in.data() + pos, in.size() - pos, out.data() + old, chunk);
    EXPECT_TRUE(step.ok()) << step.status();
    if (!step.ok()) return {};
    pos += step->consumed;
    out.resize(old + step->produced);
    *frame_done = step->frame_done;
    if (step->consumed == 0 && step->produced == 0) break;
    if (pos == in.size() && step->frame_done) break;
  }
  return out;
}

TEST(ZstdContexts, CompressMatchesTheOneShotApiAndRoundTrips) {
  const Bytes data = Text(100'000);
  ZstdCompressor compressor;
  ZstdDecompressor decompressor;
  for (int level : {1, 3, 9}) {
    SCOPED_TRACE(level);
    Bytes frame(static_cast<size_t>(ZstdCompressor::MaxCompressedLength(data.size())));
    auto n = compressor.Compress(data.data(), data.size(), frame.data(), frame.size(), level);
    ASSERT_TRUE(n.ok()) << n.status();
    frame.resize(static_cast<size_t>(*n));
    // The reused context writes exactly what ZSTD_compress writes.
    Bytes reference(ZSTD_compressBound(data.size()));
    reference.resize(ZSTD_compress(reference.data(), reference.size(), data.data(), data.size(),
                                   level));
    EXPECT_EQ(frame, reference);

    Bytes back(data.size());
    auto produced = decompressor.Decompress(frame.data(), frame.size(), back.data(), back.size());
    ASSERT_TRUE(produced.ok()) << produced.status();
    EXPECT_EQ(*produced, static_cast<int64_t>(data.size()));
    EXPECT_EQ(back, data);

    bool done = false;
    ZstdDecompressor streaming;
    EXPECT_EQ(Stream(streaming, frame, 4096, &done), data);
    EXPECT_TRUE(done);
  }
}

// A thread keeps one context between compressors (a writer makes one per
// column chunk): whatever the compressor before it did with the context
// (frames at other levels, a capacity error), the next one writes what
// ZSTD_compress writes.
TEST(ZstdContexts, ContextKeptBetweenCompressorsWritesTheSameFrames) {
  const Bytes data = Text(70'000);
  auto reference = [&](int level) {
    Bytes out(ZSTD_compressBound(data.size()));
    out.resize(ZSTD_compress(out.data(), out.size(), data.data(), data.size(), level));
    return out;
  };
  auto one_shot = [&](int level) {
    ZstdCompressor compressor;
    Bytes frame(static_cast<size_t>(ZstdCompressor::MaxCompressedLength(data.size())));
    auto n = compressor.Compress(data.data(), data.size(), frame.data(), frame.size(), level);
    EXPECT_TRUE(n.ok()) << n.status();
    frame.resize(n.ok() ? static_cast<size_t>(*n) : 0);
    return frame;
  };
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round);
    EXPECT_EQ(one_shot(1), reference(1));
    EXPECT_EQ(one_shot(3), reference(3));
    EXPECT_EQ(one_shot(19), reference(19));  // a workspace too big to keep
    EXPECT_EQ(one_shot(-5), reference(-5));
    {
      ZstdCompressor compressor;  // a capacity error leaves no frame open
      Bytes small(10);
      EXPECT_TRUE(compressor.Compress(data.data(), data.size(), small.data(), small.size(), 1)
                      .status()
                      .IsCapacityError());
    }
    EXPECT_EQ(one_shot(1), reference(1));
  }
  // Other threads keep their own.
  std::vector<std::thread> threads;
  std::vector<Bytes> got(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 3; ++i) got[t] = one_shot(1 + t % 2);
    });
  }
  for (auto& t : threads) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(got[t], reference(1 + t % 2)) << t;
}

TEST(ZstdContexts, ErrorsAreReported) {
  const Bytes data = Text(10'000);
  ZstdCompressor compressor;
  Bytes small(10);
  EXPECT_TRUE(compressor.Compress(data.data(), data.size(), small.data(), small.size(), 1)
                  .status()
                  .IsCapacityError());
  Bytes frame(static_cast<size_t>(ZstdCompressor::MaxCompressedLength(data.size())));
  auto n = compressor.Compress(data.data(), data.size(), frame.data(), frame.size(), 1);
  ASSERT_TRUE(n.ok());
  frame.resize(static_cast<size_t>(*n));
  ZstdDecompressor decompressor;
  Bytes out(data.size() - 1);
  EXPECT_TRUE(decompressor.Decompress(frame.data(), frame.size(), out.data(), out.size())
                  .status()
                  .IsCapacityError());
  Bytes garbage(64, 0x5A);
  auto bad = decompressor.Decompress(garbage.data(), garbage.size(), out.data(), out.size());
  EXPECT_TRUE(bad.status().IsInvalid()) << bad.status();
  auto bad_step = decompressor.DecompressStep(garbage.data(), garbage.size(), out.data(),
                                              out.size());
  EXPECT_TRUE(bad_step.status().IsInvalid());
  EXPECT_NE(bad_step.status().message().find("corrupt zstd frame"), std::string::npos);
}

TEST(Lz4FrameContexts, RoundTripAndCorruption) {
  const Bytes data = Text(300'000);  // several 64 KiB blocks
  for (int level : {0, 9}) {
    SCOPED_TRACE(level);
    Bytes frame(static_cast<size_t>(MaxLz4FrameLength(data.size(), level)));
    auto n = CompressLz4Frame(data.data(), data.size(), frame.data(), frame.size(), level);
    ASSERT_TRUE(n.ok()) << n.status();
    frame.resize(static_cast<size_t>(*n));
    EXPECT_LT(frame.size(), data.size() / 2);
    // The frame header records the content size.
    LZ4F_dctx* ctx = nullptr;
    ASSERT_FALSE(LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION)));
    LZ4F_frameInfo_t info;
    size_t header = frame.size();
    ASSERT_FALSE(LZ4F_isError(LZ4F_getFrameInfo(ctx, &info, frame.data(), &header)));
    EXPECT_EQ(info.contentSize, data.size());
    LZ4F_freeDecompressionContext(ctx);

    Lz4FrameDecompressor decompressor;
    bool done = false;
    EXPECT_EQ(Stream(decompressor, frame, 10'000, &done), data);
    EXPECT_TRUE(done);
  }
  Bytes garbage(64, 0x5A);
  Lz4FrameDecompressor decompressor;
  Bytes out(100);
  auto bad = decompressor.DecompressStep(garbage.data(), garbage.size(), out.data(), out.size());
  EXPECT_TRUE(bad.status().IsInvalid());
  EXPECT_NE(bad.status().message().find("corrupt LZ4 frame"), std::string::npos);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compression::internal
