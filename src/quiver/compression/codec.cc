// Codec names, option parsing, level validation and the factory; the
// per-library codecs live in codec_<library>.cc. Levels and defaults follow
// Arrow C++ (cpp/src/arrow/util/compression.cc, compression_internal.h).
#include "quiver/compression/codec.h"

#include <zstd.h>

#include <cctype>
#include <cstring>
#include <string>

#include "quiver/compression/codec_internal.h"

namespace quiver::compression {

namespace {

struct LevelRange {
  bool supported;
  int min;
  int max;
  int def;
};

LevelRange LevelsOf(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::GZIP:
      return {true, -1, 9, internal::kGzipDefaultLevel};
    case CompressionCodec::BROTLI:
      return {true, 0, 11, internal::kBrotliDefaultLevel};
    case CompressionCodec::ZSTD:
      return {true, ZSTD_minCLevel(), ZSTD_maxCLevel(), internal::kZstdDefaultLevel};
    case CompressionCodec::LZ4_RAW:
      return {true, 1, 12, internal::kLz4DefaultLevel};
    default:
      return {false, 0, 0, 0};
  }
}

bool IsKnown(CompressionCodec codec) {
  const auto v = static_cast<int32_t>(codec);
  return v >= 0 && v <= static_cast<int32_t>(CompressionCodec::LZ4_RAW);
}

Status NoLevels(CompressionCodec codec) {
  return Status::Invalid("compression codec ", CompressionCodecName(codec),
                         " does not support a compression level");
}

// Copies bytes as they are.
class UncompressedCodec final : public Codec {
 public:
  UncompressedCodec() : Codec(CompressionCodec::UNCOMPRESSED, 0) {}

  int64_t MaxCompressedLength(int64_t input_len) const override { return input_len; }

  Result<int64_t> Compress(const uint8_t* in, int64_t in_len, uint8_t* out,
                           int64_t out_capacity) override {
    QUIVER_RETURN_NOT_OK(internal::CheckCompressSizes(codec(), in_len, out_capacity));
    if (out_capacity < in_len) {
      return internal::OutputTooSmall(codec(), in_len, out_capacity, in_len);
    }
    if (in_len > 0) std::memcpy(out, in, static_cast<size_t>(in_len));
    return in_len;
  }

  Result<int64_t> Decompress(const uint8_t* in, int64_t in_len, uint8_t* out,
                             int64_t out_len) override {
    QUIVER_RETURN_NOT_OK(internal::CheckDecompressSizes(codec(), in_len, out_len));
    if (in_len != out_len) return internal::DecompressedSizeMismatch(codec(), in_len, out_len);
    if (in_len > 0) std::memcpy(out, in, static_cast<size_t>(in_len));
    return out_len;
  }
};

}  // namespace

namespace internal {

Status CheckDecompressSizes(CompressionCodec codec, int64_t in_len, int64_t out_len) {
  if (in_len < 0 || out_len < 0) {
    return Status::Invalid(CompressionCodecName(codec),
                           " decompression: negative buffer length (input ", in_len,
                           ", output ", out_len, ")");
  }
  if (in_len > kMaxCodecBufferSize || out_len > kMaxCodecBufferSize) {
    return Status::Invalid(CompressionCodecName(codec), " decompression: buffer of ",
                           in_len > out_len ? in_len : out_len,
                           " bytes exceeds the 2 GiB limit of a Parquet page");
  }
  return Status::OK();
}

Status CheckCompressSizes(CompressionCodec codec, int64_t in_len, int64_t out_capacity) {
  if (in_len < 0 || out_capacity < 0) {
    return Status::Invalid(CompressionCodecName(codec),
                           " compression: negative buffer length (input ", in_len,
                           ", output capacity ", out_capacity, ")");
  }
  if (in_len > kMaxCodecBufferSize) {
    return Status::Invalid(CompressionCodecName(codec), " compression: input of ", in_len,
                           " bytes exceeds the 2 GiB limit of a Parquet page");
  }
  return Status::OK();
}

Status DecompressedSizeMismatch(CompressionCodec codec, int64_t actual, int64_t expected) {
  return Status::Invalid(CompressionCodecName(codec), " decompression: data decompresses to ",
                         actual, " bytes but the page header says ", expected);
}

Status OutputTooSmall(CompressionCodec codec, int64_t in_len, int64_t out_capacity,
                      int64_t bound) {
  return Status::Invalid(CompressionCodecName(codec), " compression of ", in_len,
                         " bytes: output buffer of ", out_capacity,
                         " bytes is too small (MaxCompressedLength is ", bound, ")");
}

}  // namespace internal

std::string_view CompressionCodecName(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED:
      return "UNCOMPRESSED";
    case CompressionCodec::SNAPPY:
      return "SNAPPY";
    case CompressionCodec::GZIP:
      return "GZIP";
    case CompressionCodec::LZO:
      return "LZO";
    case CompressionCodec::BROTLI:
      return "BROTLI";
    case CompressionCodec::LZ4:
      return "LZ4";
    case CompressionCodec::ZSTD:
      return "ZSTD";
    case CompressionCodec::LZ4_RAW:
      return "LZ4_RAW";
  }
  return "UNKNOWN";
}

Result<CompressionCodec> ParseCompression(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "none" || lower == "uncompressed") return CompressionCodec::UNCOMPRESSED;
  if (lower == "snappy") return CompressionCodec::SNAPPY;
  if (lower == "gzip") return CompressionCodec::GZIP;
  if (lower == "brotli") return CompressionCodec::BROTLI;
  if (lower == "lz4" || lower == "lz4_raw") return CompressionCodec::LZ4_RAW;
  if (lower == "zstd") return CompressionCodec::ZSTD;
  if (lower == "lzo") return CompressionCodec::LZO;
  return Status::Invalid("unknown compression '", name,
                         "': expected one of none, uncompressed, snappy, gzip, brotli, lz4, "
                         "lz4_raw, zstd (any case)");
}

Result<std::optional<int64_t>> DecompressedSizeHint(CompressionCodec codec, const uint8_t* data,
                                                    int64_t size) {
  if (size < 0) return Status::Invalid("negative compressed size ", size);
  if (size == 0) return std::optional<int64_t>();
  switch (codec) {
    case CompressionCodec::SNAPPY:
      return internal::SnappyDecompressedSize(data, size);
    case CompressionCodec::ZSTD:
      return internal::ZstdDecompressedSize(data, size);
    default:
      return std::optional<int64_t>();
  }
}

bool Codec::SupportsLevel(CompressionCodec codec) { return LevelsOf(codec).supported; }

Result<int> Codec::DefaultLevel(CompressionCodec codec) {
  const LevelRange r = LevelsOf(codec);
  if (!r.supported) return NoLevels(codec);
  return r.def;
}

Result<int> Codec::MinimumLevel(CompressionCodec codec) {
  const LevelRange r = LevelsOf(codec);
  if (!r.supported) return NoLevels(codec);
  return r.min;
}

Result<int> Codec::MaximumLevel(CompressionCodec codec) {
  const LevelRange r = LevelsOf(codec);
  if (!r.supported) return NoLevels(codec);
  return r.max;
}

Result<std::unique_ptr<Codec>> Codec::Create(CompressionCodec codec, int level) {
  if (!IsKnown(codec)) {
    return Status::Invalid("unknown compression codec value ", static_cast<int32_t>(codec));
  }
  if (codec == CompressionCodec::LZO) {
    return Status::NotImplemented("LZO compression is not supported (nor by Arrow C++)");
  }
  const LevelRange r = LevelsOf(codec);
  if (level != kDefaultLevel) {
    if (!r.supported) return NoLevels(codec);
    if (level < r.min || level > r.max) {
      return Status::Invalid(CompressionCodecName(codec), " compression level must be in [",
                             r.min, ", ", r.max, "], got ", level);
    }
  }
  const int resolved = level == kDefaultLevel ? r.def : level;
  switch (codec) {
    case CompressionCodec::UNCOMPRESSED:
      return std::unique_ptr<Codec>(std::make_unique<UncompressedCodec>());
    case CompressionCodec::SNAPPY:
      return internal::MakeSnappyCodec();
    case CompressionCodec::GZIP:
      return internal::MakeGzipCodec(resolved);
    case CompressionCodec::BROTLI:
      return internal::MakeBrotliCodec(resolved);
    case CompressionCodec::LZ4:
      return internal::MakeLz4HadoopCodec();
    case CompressionCodec::ZSTD:
      return internal::MakeZstdCodec(resolved);
    case CompressionCodec::LZ4_RAW:
      return internal::MakeLz4RawCodec(resolved);
    case CompressionCodec::LZO:
      break;
  }
  return Status::UnknownError("unreachable codec ", static_cast<int32_t>(codec));
}

}  // namespace quiver::compression
