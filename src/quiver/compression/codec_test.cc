#include "quiver/compression/codec.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <gtest/gtest.h>
#include <lz4.h>
#include <lz4hc.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace quiver::compression {
namespace {
namespace QUIVER_UNITY_ID {

using Bytes = std::vector<uint8_t>;

Bytes RandomBytes(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Bytes out(static_cast<size_t>(n));
  for (auto& b : out) b = static_cast<uint8_t>(rng());
  return out;
}

// Text-like data with repeats and some noise: compresses well.
Bytes CompressibleBytes(int64_t n, uint64_t seed) {
  static const char* kWords[] = {"parquet ", "arrow ", "column ", "quiver ", "page ",
                                 "0123 ",    "row ",   "group ",  "\n"};
  std::mt19937_64 rng(seed);
  Bytes out;
  out.reserve(static_cast<size_t>(n));
  while (static_cast<int64_t>(out.size()) < n) {
    const char* w = kWords[rng() % 9];
    for (const char* p = w; *p != '\0' && static_cast<int64_t>(out.size()) < n; ++p) {
      out.push_back(static_cast<uint8_t>(*p));
    }
  }
  return out;
}

std::unique_ptr<Codec> MakeCodec(CompressionCodec c, int level = Codec::kDefaultLevel) {
  auto codec = Codec::Create(c, level);
  EXPECT_TRUE(codec.ok()) << codec.status().ToString();
  return std::move(codec).ValueOrDie();
}

Bytes Compress(Codec* codec, const Bytes& in) {
  Bytes out(static_cast<size_t>(codec->MaxCompressedLength(static_cast<int64_t>(in.size()))));
  auto n = codec->Compress(in.data(), static_cast<int64_t>(in.size()), out.data(),
                           static_cast<int64_t>(out.size()));
  EXPECT_TRUE(n.ok()) << codec->name() << ": " << n.status().ToString();
  if (!n.ok()) return {};
  EXPECT_LE(*n, static_cast<int64_t>(out.size()));
  out.resize(static_cast<size_t>(*n));
  return out;
}

// Decompresses into a buffer of exactly `expected` bytes (so ASan sees any
// write past it).
Result<Bytes> Decompress(Codec* codec, const Bytes& in, int64_t expected) {
  auto out = std::make_unique<uint8_t[]>(static_cast<size_t>(expected) + 0);
  QUIVER_ASSIGN_OR_RAISE(
      int64_t n,
      codec->Decompress(in.data(), static_cast<int64_t>(in.size()), out.get(), expected));
  if (n != expected) return Status::UnknownError("returned ", n, " instead of ", expected);
  return Bytes(out.get(), out.get() + expected);
}

struct CodecLevels {
  CompressionCodec codec;
  std::vector<int> levels;        // tried on every size
  std::vector<int> small_levels;  // slow levels, tried up to 100 bytes
};

const std::vector<CodecLevels>& AllCodecs() {
  static const std::vector<CodecLevels> kAll = {
      {CompressionCodec::UNCOMPRESSED, {Codec::kDefaultLevel}, {}},
      {CompressionCodec::SNAPPY, {Codec::kDefaultLevel}, {}},
      {CompressionCodec::GZIP, {Codec::kDefaultLevel, 1, 0, -1}, {}},
      {CompressionCodec::BROTLI, {Codec::kDefaultLevel, 0, 1}, {11}},
      {CompressionCodec::ZSTD, {Codec::kDefaultLevel, -5, 0, 3}, {19, 22}},
      {CompressionCodec::LZ4_RAW, {Codec::kDefaultLevel, 2, 3}, {9, 12}},
  };
  return kAll;
}

// ---------------------------------------------------------------------------
// Names, parsing, levels

TEST(CodecTest, ParseCompression) {
  struct Case {
    const char* name;
    CompressionCodec expected;
  };
  for (const Case& c : std::vector<Case>{{"none", CompressionCodec::UNCOMPRESSED},
                                         {"NONE", CompressionCodec::UNCOMPRESSED},
                                         {"uncompressed", CompressionCodec::UNCOMPRESSED},
                                         {"snappy", CompressionCodec::SNAPPY},
                                         {"Snappy", CompressionCodec::SNAPPY},
                                         {"gzip", CompressionCodec::GZIP},
                                         {"BROTLI", CompressionCodec::BROTLI},
                                         {"lz4", CompressionCodec::LZ4_RAW},
                                         {"LZ4", CompressionCodec::LZ4_RAW},
                                         {"lz4_raw", CompressionCodec::LZ4_RAW},
                                         {"zstd", CompressionCodec::ZSTD},
                                         {"ZsTd", CompressionCodec::ZSTD},
                                         {"lzo", CompressionCodec::LZO}}) {
    auto parsed = ParseCompression(c.name);
    ASSERT_TRUE(parsed.ok()) << c.name;
    EXPECT_EQ(*parsed, c.expected) << c.name;
  }
  for (const char* bad : {"", "zip", "lz4-raw", "snappy ", "bz2"}) {
    auto parsed = ParseCompression(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_TRUE(parsed.status().IsInvalid());
    EXPECT_NE(parsed.status().message().find("unknown compression"), std::string::npos);
  }
}

TEST(CodecTest, NamesMirrorParquetThrift) {
  EXPECT_EQ(static_cast<int>(CompressionCodec::UNCOMPRESSED), 0);
  EXPECT_EQ(static_cast<int>(CompressionCodec::SNAPPY), 1);
  EXPECT_EQ(static_cast<int>(CompressionCodec::GZIP), 2);
  EXPECT_EQ(static_cast<int>(CompressionCodec::LZO), 3);
  EXPECT_EQ(static_cast<int>(CompressionCodec::BROTLI), 4);
  EXPECT_EQ(static_cast<int>(CompressionCodec::LZ4), 5);
  EXPECT_EQ(static_cast<int>(CompressionCodec::ZSTD), 6);
  EXPECT_EQ(static_cast<int>(CompressionCodec::LZ4_RAW), 7);
  EXPECT_EQ(CompressionCodecName(CompressionCodec::LZ4_RAW), "LZ4_RAW");
  EXPECT_EQ(CompressionCodecName(static_cast<CompressionCodec>(99)), "UNKNOWN");
  EXPECT_EQ(MakeCodec(CompressionCodec::ZSTD)->name(), "ZSTD");
  EXPECT_EQ(MakeCodec(CompressionCodec::UNCOMPRESSED)->codec(), CompressionCodec::UNCOMPRESSED);
}

TEST(CodecTest, DefaultLevelsAreArrows) {
  EXPECT_EQ(*Codec::DefaultLevel(CompressionCodec::ZSTD), 1);
  EXPECT_EQ(*Codec::DefaultLevel(CompressionCodec::GZIP), 9);
  EXPECT_EQ(*Codec::DefaultLevel(CompressionCodec::BROTLI), 8);
  EXPECT_EQ(*Codec::DefaultLevel(CompressionCodec::LZ4_RAW), 1);
  EXPECT_EQ(MakeCodec(CompressionCodec::ZSTD)->level(), 1);
  EXPECT_EQ(MakeCodec(CompressionCodec::GZIP)->level(), 9);
  EXPECT_EQ(MakeCodec(CompressionCodec::BROTLI)->level(), 8);
  EXPECT_EQ(MakeCodec(CompressionCodec::ZSTD, 7)->level(), 7);
  EXPECT_EQ(MakeCodec(CompressionCodec::SNAPPY)->level(), 0);
  EXPECT_EQ(*Codec::MaximumLevel(CompressionCodec::ZSTD), 22);
  EXPECT_LT(*Codec::MinimumLevel(CompressionCodec::ZSTD), 0);
  EXPECT_EQ(*Codec::MinimumLevel(CompressionCodec::GZIP), -1);
  EXPECT_EQ(*Codec::MaximumLevel(CompressionCodec::GZIP), 9);
  EXPECT_EQ(*Codec::MaximumLevel(CompressionCodec::BROTLI), 11);
  EXPECT_EQ(*Codec::MaximumLevel(CompressionCodec::LZ4_RAW), 12);
  for (auto c : {CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY, CompressionCodec::LZ4}) {
    EXPECT_FALSE(Codec::SupportsLevel(c));
    EXPECT_TRUE(Codec::DefaultLevel(c).status().IsInvalid());
  }
}

TEST(CodecTest, LevelValidation) {
  // Codecs without levels reject an explicit one, as Arrow's Codec::Create
  // (and so pyarrow's write_table) does.
  for (auto c : {CompressionCodec::UNCOMPRESSED, CompressionCodec::SNAPPY, CompressionCodec::LZ4}) {
    auto codec = Codec::Create(c, 1);
    ASSERT_FALSE(codec.ok());
    EXPECT_TRUE(codec.status().IsInvalid());
    EXPECT_NE(codec.status().message().find("does not support a compression level"),
              std::string::npos)
        << codec.status().ToString();
  }
  struct Bad {
    CompressionCodec codec;
    int level;
  };
  for (const Bad& b : std::vector<Bad>{{CompressionCodec::ZSTD, 23},
                                       {CompressionCodec::ZSTD, ZSTD_minCLevel() - 1},
                                       {CompressionCodec::GZIP, 10},
                                       {CompressionCodec::GZIP, -2},
                                       {CompressionCodec::BROTLI, 12},
                                       {CompressionCodec::BROTLI, -1},
                                       {CompressionCodec::LZ4_RAW, 0},
                                       {CompressionCodec::LZ4_RAW, 13}}) {
    auto codec = Codec::Create(b.codec, b.level);
    ASSERT_FALSE(codec.ok()) << CompressionCodecName(b.codec) << " " << b.level;
    EXPECT_TRUE(codec.status().IsInvalid());
    EXPECT_NE(codec.status().message().find("compression level must be in"), std::string::npos);
  }
  auto lzo = Codec::Create(CompressionCodec::LZO);
  ASSERT_FALSE(lzo.ok());
  EXPECT_TRUE(lzo.status().IsNotImplemented());
  auto unknown = Codec::Create(static_cast<CompressionCodec>(42));
  ASSERT_FALSE(unknown.ok());
  EXPECT_TRUE(unknown.status().IsInvalid());
}

// ---------------------------------------------------------------------------
// Round trips

TEST(CodecTest, RoundTripAllCodecsLevelsAndSizes) {
  for (const CodecLevels& cl : AllCodecs()) {
    std::vector<int> levels = cl.levels;
    levels.insert(levels.end(), cl.small_levels.begin(), cl.small_levels.end());
    for (int level : levels) {
      const bool slow = level != Codec::kDefaultLevel &&
                        std::find(cl.small_levels.begin(), cl.small_levels.end(), level) !=
                            cl.small_levels.end();
      // One codec object for every call: exercises context reuse.
      auto codec = MakeCodec(cl.codec, level);
      for (int64_t size : {0, 1, 100, 1 << 20}) {
        if (slow && size > 100) continue;
        for (bool compressible : {false, true}) {
          SCOPED_TRACE(std::string(codec->name()) + " level " + std::to_string(level) +
                       " size " + std::to_string(size) +
                       (compressible ? " compressible" : " random"));
          const Bytes input = compressible ? CompressibleBytes(size, size + 1)
                                           : RandomBytes(size, size + 7);
          const Bytes compressed = Compress(codec.get(), input);
          const bool stores = cl.codec == CompressionCodec::UNCOMPRESSED ||
                              (cl.codec == CompressionCodec::GZIP && level == 0);
          if (compressible && size == (1 << 20) && !stores) {
            EXPECT_LT(compressed.size() * 2, input.size());
          }
          auto output = Decompress(codec.get(), compressed, size);
          ASSERT_TRUE(output.ok()) << output.status().ToString();
          EXPECT_TRUE(*output == input);
          // Twice in a row through the same (reused) contexts.
          EXPECT_TRUE(Compress(codec.get(), input) == compressed);
          auto again = Decompress(codec.get(), compressed, size);
          ASSERT_TRUE(again.ok()) << again.status().ToString();
          EXPECT_TRUE(*again == input);
        }
      }
    }
  }
}

TEST(CodecTest, EmptyInputWithZeroExpectedSizeIsAccepted) {
  for (const CodecLevels& cl : AllCodecs()) {
    auto codec = MakeCodec(cl.codec);
    auto n = codec->Decompress(nullptr, 0, nullptr, 0);
    ASSERT_TRUE(n.ok()) << codec->name();
    EXPECT_EQ(*n, 0);
  }
}

// ---------------------------------------------------------------------------
// Cross-checks with the libraries' own one-shot APIs

TEST(CodecTest, GzipWritesAGzipStream) {
  auto codec = MakeCodec(CompressionCodec::GZIP);
  const Bytes input = CompressibleBytes(10000, 3);
  const Bytes compressed = Compress(codec.get(), input);
  ASSERT_GE(compressed.size(), 18u);
  EXPECT_EQ(compressed[0], 0x1f);  // gzip magic
  EXPECT_EQ(compressed[1], 0x8b);
  EXPECT_EQ(compressed[2], 8);  // deflate
  // The trailer: CRC-32 and the input size, little endian.
  const size_t t = compressed.size() - 8;
  const auto crc =
      static_cast<uint32_t>(crc32(0, input.data(), static_cast<uInt>(input.size())));
  uint32_t stored_crc, stored_size;
  std::memcpy(&stored_crc, compressed.data() + t, 4);
  std::memcpy(&stored_size, compressed.data() + t + 4, 4);
  EXPECT_EQ(stored_crc, crc);
  EXPECT_EQ(stored_size, input.size());

  // zlib's inflate in gzip-only mode (windowBits 15 + 16) reads it.
  z_stream s;
  std::memset(&s, 0, sizeof(s));
  ASSERT_EQ(inflateInit2(&s, 15 + 16), Z_OK);
  Bytes out(input.size());
  s.next_in = const_cast<Bytef*>(compressed.data());
  s.avail_in = static_cast<uInt>(compressed.size());
  s.next_out = out.data();
  s.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&s, Z_FINISH), Z_STREAM_END);
  EXPECT_EQ(s.total_out, input.size());
  inflateEnd(&s);
  EXPECT_TRUE(out == input);
}

Bytes ZlibDeflate(const Bytes& input, int window_bits, int level = 6) {
  z_stream s;
  std::memset(&s, 0, sizeof(s));
  EXPECT_EQ(deflateInit2(&s, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY), Z_OK);
  Bytes out(deflateBound(&s, input.size()) + 32);
  s.next_in = const_cast<Bytef*>(input.data());
  s.avail_in = static_cast<uInt>(input.size());
  s.next_out = out.data();
  s.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

TEST(CodecTest, GzipReadsGzipZlibAndMultiMemberStreams) {
  auto codec = MakeCodec(CompressionCodec::GZIP);
  const Bytes input = CompressibleBytes(5000, 4);
  // A gzip stream from zlib directly.
  auto gz = Decompress(codec.get(), ZlibDeflate(input, 15 + 16), 5000);
  ASSERT_TRUE(gz.ok()) << gz.status().ToString();
  EXPECT_TRUE(*gz == input);
  // A zlib (RFC 1950) stream, as Arrow also accepts.
  auto zl = Decompress(codec.get(), ZlibDeflate(input, 15), 5000);
  ASSERT_TRUE(zl.ok()) << zl.status().ToString();
  EXPECT_TRUE(*zl == input);
  // compress2()'s output too.
  Bytes c2(compressBound(input.size()));
  uLongf c2_len = c2.size();
  ASSERT_EQ(compress2(c2.data(), &c2_len, input.data(), input.size(), 9), Z_OK);
  c2.resize(c2_len);
  auto z2 = Decompress(codec.get(), c2, 5000);
  ASSERT_TRUE(z2.ok());
  EXPECT_TRUE(*z2 == input);
  // Two gzip members back to back decompress to the concatenation.
  const Bytes first(input.begin(), input.begin() + 2000);
  const Bytes second(input.begin() + 2000, input.end());
  Bytes members = ZlibDeflate(first, 15 + 16);
  const Bytes m2 = ZlibDeflate(second, 15 + 16);
  members.insert(members.end(), m2.begin(), m2.end());
  auto mm = Decompress(codec.get(), members, 5000);
  ASSERT_TRUE(mm.ok()) << mm.status().ToString();
  EXPECT_TRUE(*mm == input);
  // Other trailing bytes are not accepted.
  Bytes trailing = ZlibDeflate(input, 15 + 16);
  trailing.push_back(0);
  auto tr = Decompress(codec.get(), trailing, 5000);
  ASSERT_FALSE(tr.ok());
  EXPECT_TRUE(tr.status().IsInvalid());
  EXPECT_NE(tr.status().message().find("after the end of the stream"), std::string::npos);
}

TEST(CodecTest, ZstdInterop) {
  auto codec = MakeCodec(CompressionCodec::ZSTD, 3);
  const Bytes input = CompressibleBytes(100000, 5);
  const Bytes ours = Compress(codec.get(), input);
  Bytes out(input.size());
  EXPECT_EQ(ZSTD_decompress(out.data(), out.size(), ours.data(), ours.size()), input.size());
  EXPECT_TRUE(out == input);
  Bytes theirs(ZSTD_compressBound(input.size()));
  theirs.resize(ZSTD_compress(theirs.data(), theirs.size(), input.data(), input.size(), 5));
  auto back = Decompress(codec.get(), theirs, static_cast<int64_t>(input.size()));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(*back == input);
  // Two frames back to back (as libzstd reads them).
  Bytes two = theirs;
  two.insert(two.end(), theirs.begin(), theirs.end());
  auto both = Decompress(codec.get(), two, 2 * static_cast<int64_t>(input.size()));
  ASSERT_TRUE(both.ok()) << both.status().ToString();
}

// The zstd linked is the release whose header Quiver compiled against (the
// pinned one built from source, or a system library as new: a page then
// compresses to the bytes pyarrow's zstd 1.5.7 gives the same page), and
// a page's frame is the library's one-shot frame at the codec's level on
// compressible, incompressible and mixed input (block pre-splitting on).
TEST(CodecTest, ZstdIsTheReleaseCompiledAgainst) {
  EXPECT_EQ(ZSTD_versionNumber(), static_cast<unsigned>(ZSTD_VERSION_NUMBER));
  Bytes mixed = CompressibleBytes(3 << 20, 11);
  const Bytes noise = RandomBytes(1 << 20, 12);
  mixed.insert(mixed.begin() + (1 << 20), noise.begin(), noise.end());
  for (int level : {1, 3}) {
    auto codec = MakeCodec(CompressionCodec::ZSTD, level);
    for (const Bytes& in : {mixed, RandomBytes(700001, 13), CompressibleBytes(1000, 14)}) {
      Bytes reference(ZSTD_compressBound(in.size()));
      const size_t n = ZSTD_compress(reference.data(), reference.size(), in.data(), in.size(), level);
      ASSERT_FALSE(ZSTD_isError(n));
      reference.resize(n);
      EXPECT_EQ(Compress(codec.get(), in), reference) << "level " << level << ", " << in.size() << " bytes";
    }
  }
}

// What the data's own header says: SNAPPY's block length, a single zstd
// frame's content size; nothing for the other codecs, several zstd frames
// or a frame written without its size.
TEST(CodecTest, DecompressedSizeHint) {
  const Bytes input = CompressibleBytes(1000, 8);
  for (const auto& c : AllCodecs()) {
    auto codec = MakeCodec(c.codec);
    const Bytes compressed = Compress(codec.get(), input);
    auto hint = DecompressedSizeHint(c.codec, compressed.data(),
                                     static_cast<int64_t>(compressed.size()));
    ASSERT_TRUE(hint.ok()) << codec->name() << ": " << hint.status();
    if (c.codec == CompressionCodec::SNAPPY || c.codec == CompressionCodec::ZSTD) {
      EXPECT_EQ(*hint, std::optional<int64_t>(1000)) << codec->name();
    } else {
      EXPECT_EQ(*hint, std::nullopt) << codec->name();
    }
    hint = DecompressedSizeHint(c.codec, nullptr, 0);
    ASSERT_TRUE(hint.ok());
    EXPECT_EQ(*hint, std::nullopt);
  }
  // Two zstd frames: the first frame's size is not the whole.
  auto zstd = MakeCodec(CompressionCodec::ZSTD);
  Bytes two = Compress(zstd.get(), input);
  two.insert(two.end(), two.begin(), two.end());
  auto hint =
      DecompressedSizeHint(CompressionCodec::ZSTD, two.data(), static_cast<int64_t>(two.size()));
  ASSERT_TRUE(hint.ok());
  EXPECT_EQ(*hint, std::nullopt);
  // A frame without its content size.
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ASSERT_EQ(ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0)), 0u);
  Bytes unsized(ZSTD_compressBound(input.size()));
  unsized.resize(ZSTD_compress2(cctx, unsized.data(), unsized.size(), input.data(), input.size()));
  ZSTD_freeCCtx(cctx);
  ASSERT_EQ(ZSTD_getFrameContentSize(unsized.data(), unsized.size()), ZSTD_CONTENTSIZE_UNKNOWN);
  hint = DecompressedSizeHint(CompressionCodec::ZSTD, unsized.data(),
                              static_cast<int64_t>(unsized.size()));
  ASSERT_TRUE(hint.ok());
  EXPECT_EQ(*hint, std::nullopt);
  // A 13-byte frame header (magic, single-segment descriptor, 8-byte
  // content size) stating 4 GiB, no blocks: the size is read all the same.
  const Bytes bomb = {0x28, 0xB5, 0x2F, 0xFD, 0xE0, 0, 0, 0, 0, 1, 0, 0, 0};
  hint = DecompressedSizeHint(CompressionCodec::ZSTD, bomb.data(), 13);
  ASSERT_TRUE(hint.ok()) << hint.status();
  EXPECT_EQ(*hint, std::optional<int64_t>(int64_t{1} << 32));
  // Cut-off or corrupt headers.
  hint = DecompressedSizeHint(CompressionCodec::ZSTD, bomb.data(), 4);
  ASSERT_FALSE(hint.ok());
  EXPECT_EQ(hint.status().message(),
            "ZSTD data: corrupt or truncated frame header (4 input bytes)");
  const Bytes garbage(6, 0xFF);
  hint = DecompressedSizeHint(CompressionCodec::SNAPPY, garbage.data(), 6);
  ASSERT_FALSE(hint.ok());
  EXPECT_EQ(hint.status().message(), "SNAPPY data: corrupt block header (6 input bytes)");
  EXPECT_FALSE(DecompressedSizeHint(CompressionCodec::SNAPPY, garbage.data(), -1).ok());
}

TEST(CodecTest, SnappyInterop) {
  auto codec = MakeCodec(CompressionCodec::SNAPPY);
  const Bytes input = CompressibleBytes(70000, 6);
  const Bytes ours = Compress(codec.get(), input);
  Bytes out(input.size());
  size_t out_len = out.size();
  ASSERT_EQ(snappy_uncompress(reinterpret_cast<const char*>(ours.data()), ours.size(),
                              reinterpret_cast<char*>(out.data()), &out_len),
            SNAPPY_OK);
  EXPECT_EQ(out_len, input.size());
  EXPECT_TRUE(out == input);
  Bytes theirs(snappy_max_compressed_length(input.size()));
  size_t theirs_len = theirs.size();
  ASSERT_EQ(snappy_compress(reinterpret_cast<const char*>(input.data()), input.size(),
                            reinterpret_cast<char*>(theirs.data()), &theirs_len),
            SNAPPY_OK);
  theirs.resize(theirs_len);
  auto back = Decompress(codec.get(), theirs, static_cast<int64_t>(input.size()));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(*back == input);
}

TEST(CodecTest, Lz4RawInterop) {
  const Bytes input = CompressibleBytes(70000, 7);
  for (int level : {1, 9}) {
    auto codec = MakeCodec(CompressionCodec::LZ4_RAW, level);
    const Bytes ours = Compress(codec.get(), input);
    Bytes out(input.size());
    EXPECT_EQ(LZ4_decompress_safe(reinterpret_cast<const char*>(ours.data()),
                                  reinterpret_cast<char*>(out.data()),
                                  static_cast<int>(ours.size()), static_cast<int>(out.size())),
              static_cast<int>(input.size()));
    EXPECT_TRUE(out == input);
  }
  auto codec = MakeCodec(CompressionCodec::LZ4_RAW);
  Bytes theirs(LZ4_compressBound(static_cast<int>(input.size())));
  theirs.resize(LZ4_compress_HC(reinterpret_cast<const char*>(input.data()),
                                reinterpret_cast<char*>(theirs.data()),
                                static_cast<int>(input.size()), static_cast<int>(theirs.size()),
                                12));
  auto back = Decompress(codec.get(), theirs, static_cast<int64_t>(input.size()));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(*back == input);
  // Level 9 (LZ4-HC) compresses better than level 1.
  EXPECT_LT(Compress(MakeCodec(CompressionCodec::LZ4_RAW, 9).get(), input).size(),
            Compress(codec.get(), input).size());
}

TEST(CodecTest, BrotliInterop) {
  auto codec = MakeCodec(CompressionCodec::BROTLI);
  const Bytes input = CompressibleBytes(70000, 8);
  const Bytes ours = Compress(codec.get(), input);
  Bytes out(input.size());
  size_t out_len = out.size();
  ASSERT_EQ(BrotliDecoderDecompress(ours.size(), ours.data(), &out_len, out.data()),
            BROTLI_DECODER_RESULT_SUCCESS);
  EXPECT_EQ(out_len, input.size());
  EXPECT_TRUE(out == input);
  Bytes theirs(BrotliEncoderMaxCompressedSize(input.size()));
  size_t theirs_len = theirs.size();
  ASSERT_TRUE(BrotliEncoderCompress(5, 20, BROTLI_MODE_TEXT, input.size(), input.data(),
                                    &theirs_len, theirs.data()));
  theirs.resize(theirs_len);
  auto back = Decompress(codec.get(), theirs, static_cast<int64_t>(input.size()));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(*back == input);
}

Bytes Lz4Block(const Bytes& input) {
  Bytes out(LZ4_compressBound(static_cast<int>(input.size())));
  out.resize(LZ4_compress_default(reinterpret_cast<const char*>(input.data()),
                                  reinterpret_cast<char*>(out.data()),
                                  static_cast<int>(input.size()), static_cast<int>(out.size())));
  return out;
}

void AppendBigEndian32(Bytes* out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out->push_back(static_cast<uint8_t>(v >> s));
}

TEST(CodecTest, Lz4HadoopDecompressOnly) {
  auto codec = MakeCodec(CompressionCodec::LZ4);
  EXPECT_EQ(codec->name(), "LZ4");
  const Bytes input = CompressibleBytes(9000, 9);
  // Two Hadoop frames: [BE raw size][BE compressed size][lz4 block].
  const Bytes a(input.begin(), input.begin() + 4000);
  const Bytes b(input.begin() + 4000, input.end());
  Bytes framed;
  for (const Bytes* part : {&a, &b}) {
    const Bytes block = Lz4Block(*part);
    AppendBigEndian32(&framed, static_cast<uint32_t>(part->size()));
    AppendBigEndian32(&framed, static_cast<uint32_t>(block.size()));
    framed.insert(framed.end(), block.begin(), block.end());
  }
  auto out = Decompress(codec.get(), framed, 9000);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(*out == input);
  // A bare block (old parquet-cpp files) is read too, as Arrow does.
  auto bare = Decompress(codec.get(), Lz4Block(input), 9000);
  ASSERT_TRUE(bare.ok());
  EXPECT_TRUE(*bare == input);
  // Wrong size and garbage are Invalid.
  EXPECT_TRUE(Decompress(codec.get(), framed, 8999).status().IsInvalid());
  EXPECT_TRUE(Decompress(codec.get(), RandomBytes(64, 1), 100).status().IsInvalid());
  // Writing it is not supported, with a message pointing to LZ4_RAW.
  Bytes dest(codec->MaxCompressedLength(9000));
  auto st = codec->Compress(input.data(), 9000, dest.data(), static_cast<int64_t>(dest.size()));
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(st.status().IsNotImplemented());
  EXPECT_NE(st.status().message().find("LZ4_RAW"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Bad input

TEST(CodecTest, WrongExpectedSizeIsInvalid) {
  for (const CodecLevels& cl : AllCodecs()) {
    auto codec = MakeCodec(cl.codec);
    for (bool compressible : {false, true}) {
      const Bytes input = compressible ? CompressibleBytes(1000, 11) : RandomBytes(1000, 11);
      const Bytes compressed = Compress(codec.get(), input);
      for (int64_t expected : {0, 1, 999, 1001, 4000}) {
        auto out = Decompress(codec.get(), compressed, expected);
        ASSERT_FALSE(out.ok()) << codec->name() << " expected " << expected;
        EXPECT_TRUE(out.status().IsInvalid()) << out.status().ToString();
        EXPECT_NE(out.status().message().find(codec->name()), std::string::npos)
            << out.status().ToString();
      }
      // The codec still works afterwards.
      auto ok = Decompress(codec.get(), compressed, 1000);
      ASSERT_TRUE(ok.ok()) << codec->name() << ": " << ok.status().ToString();
      EXPECT_TRUE(*ok == input);
    }
  }
}

TEST(CodecTest, CorruptOrTruncatedInputIsInvalid) {
  for (const CodecLevels& cl : AllCodecs()) {
    auto codec = MakeCodec(cl.codec);
    const Bytes input = CompressibleBytes(20000, 12);
    const Bytes compressed = Compress(codec.get(), input);
    // Truncations.
    for (size_t cut : {size_t{1}, size_t{2}, compressed.size() / 2, compressed.size() - 1}) {
      const Bytes truncated(compressed.begin(), compressed.begin() + static_cast<long>(cut));
      auto out = Decompress(codec.get(), truncated, 20000);
      ASSERT_FALSE(out.ok()) << codec->name() << " cut at " << cut;
      EXPECT_TRUE(out.status().IsInvalid()) << out.status().ToString();
    }
    // Random garbage of various sizes.
    for (uint64_t seed = 0; seed < 20; ++seed) {
      const Bytes garbage = RandomBytes(static_cast<int64_t>(1 + seed * 37), seed);
      auto out = Decompress(codec.get(), garbage, 20000);
      ASSERT_FALSE(out.ok()) << codec->name() << " seed " << seed;
      EXPECT_TRUE(out.status().IsInvalid()) << out.status().ToString();
    }
    // Flipped bytes: an error, or (where the format has no checksum) some
    // output of the right size, but never a crash or an overrun.
    for (size_t i = 0; i < compressed.size(); i += 1 + compressed.size() / 50) {
      Bytes flipped = compressed;
      flipped[i] ^= 0x5a;
      auto out = Decompress(codec.get(), flipped, 20000);
      if (!out.ok()) {
        EXPECT_TRUE(out.status().IsInvalid() || out.status().IsOutOfMemory())
            << out.status().ToString();
      }
    }
  }
}

TEST(CodecTest, OutputTooSmallForCompressIsInvalid) {
  for (const CodecLevels& cl : AllCodecs()) {
    auto codec = MakeCodec(cl.codec);
    const Bytes input = RandomBytes(5000, 13);
    for (int64_t capacity : {0, 10, 4000}) {
      auto dest = std::make_unique<uint8_t[]>(static_cast<size_t>(capacity) + 0);
      auto n = codec->Compress(input.data(), 5000, dest.get(), capacity);
      ASSERT_FALSE(n.ok()) << codec->name() << " capacity " << capacity;
      EXPECT_TRUE(n.status().IsInvalid()) << n.status().ToString();
    }
    // The codec still works afterwards.
    const Bytes compressed = Compress(codec.get(), input);
    auto back = Decompress(codec.get(), compressed, 5000);
    ASSERT_TRUE(back.ok()) << codec->name();
    EXPECT_TRUE(*back == input);
  }
}

TEST(CodecTest, NegativeAndHugeSizesAreInvalid) {
  auto codec = MakeCodec(CompressionCodec::ZSTD);
  uint8_t byte = 0;
  EXPECT_TRUE(codec->Decompress(&byte, -1, &byte, 1).status().IsInvalid());
  EXPECT_TRUE(codec->Decompress(&byte, 1, &byte, -1).status().IsInvalid());
  EXPECT_TRUE(codec->Decompress(&byte, 1, &byte, int64_t{1} << 32).status().IsInvalid());
  EXPECT_TRUE(codec->Compress(&byte, int64_t{1} << 32, &byte, 1).status().IsInvalid());
  EXPECT_TRUE(codec->Compress(&byte, 1, &byte, -1).status().IsInvalid());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::compression
