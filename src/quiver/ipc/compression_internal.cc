// IPC body-buffer framing (see compression_internal.h) over the shared LZ4
// frame and zstd contexts of compression/contexts_internal.h.
#include "quiver/ipc/compression_internal.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <string>

#include "quiver/compression/contexts_internal.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"

namespace quiver::ipc {

std::string_view CompressionName(Compression compression) {
  switch (compression) {
    case Compression::kNone: return "none";
    case Compression::kLz4Frame: return "lz4_frame";
    case Compression::kZstd: return "zstd";
  }
  return "unknown";
}

Result<Compression> CompressionFromName(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "none" || lower == "uncompressed" || lower.empty()) return Compression::kNone;
  if (lower == "lz4_frame" || lower == "lz4") return Compression::kLz4Frame;
  if (lower == "zstd") return Compression::kZstd;
  return Status::Invalid("unknown IPC compression '", name,
                         "' (expected none, lz4_frame or zstd)");
}

namespace internal {

namespace {

constexpr int64_t kPrefixSize = 8;

using compression::internal::CompressLz4Frame;
using compression::internal::Lz4FrameDecompressor;
using compression::internal::MaxLz4FrameLength;
using compression::internal::StreamStep;
using compression::internal::ZstdCompressor;
using compression::internal::ZstdDecompressor;

// Drives `decoder` over the whole input into a buffer that grows with the
// output (never beyond declared + 1 bytes of content, so that overlong data
// is detected), and checks the output has exactly `declared` bytes.
template <typename Decoder>
Result<std::shared_ptr<Buffer>> DecodeAll(Decoder& decoder, const uint8_t* in, int64_t in_size,
                                          int64_t declared, MemoryPool* pool) {
  const int64_t limit = declared + 1;
  MutableBuffer out(pool);
  QUIVER_RETURN_NOT_OK(
      out.Reserve(std::min(limit, std::max<int64_t>(4 * in_size, int64_t{64} * 1024))));
  int64_t in_pos = 0;
  while (true) {
    if (out.size() == out.capacity()) {
      QUIVER_RETURN_NOT_OK(out.Reserve(std::max<int64_t>(1, std::min(limit - out.size(),
                                                                        out.size()))));
    }
    const int64_t room = std::min(out.capacity(), limit) - out.size();
    QUIVER_ASSIGN_OR_RAISE(StreamStep step,
                           decoder.DecompressStep(in + in_pos, static_cast<size_t>(in_size - in_pos),
                                        out.data() + out.size(), static_cast<size_t>(room)));
    in_pos += static_cast<int64_t>(step.consumed);
    out.UnsafeSetSize(out.size() + static_cast<int64_t>(step.produced));
    if (out.size() > declared) {
      return Status::Invalid("compressed buffer decodes to more than its declared ", declared,
                             " bytes");
    }
    if (in_pos == in_size && step.frame_done) break;
    if (step.consumed == 0 && step.produced == 0) {
      if (in_pos == in_size) {
        return Status::Invalid("truncated compressed buffer (", in_size, " bytes)");
      }
      return Status::Invalid("compressed buffer decoding made no progress at byte ", in_pos);
    }
  }
  if (out.size() != declared) {
    return Status::Invalid("compressed buffer decodes to ", out.size(), " bytes, its prefix says ",
                           declared);
  }
  return out.Freeze();
}

}  // namespace

int64_t MaxDecompressedSize(Compression codec, int64_t compressed_size) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  switch (codec) {
    case Compression::kNone:
      return compressed_size;
    case Compression::kLz4Frame:
      // An LZ4 sequence grows a match by at most 255 bytes per input byte.
      return compressed_size > kMax / 256 ? kMax : compressed_size * 256 + 1024;
    case Compression::kZstd:
      // A block holds at most 128 KiB and costs at least 4 bytes (an RLE
      // block: 3-byte header and the repeated byte).
      return compressed_size > kMax / 32768 ? kMax : compressed_size * 32768 + 131072;
  }
  return 0;
}

Result<std::shared_ptr<Buffer>> CompressBodyBuffer(Compression codec, int level,
                                                   const uint8_t* data, int64_t size,
                                                   MemoryPool* pool) {
  if (size == 0) return Buffer::Empty();
  MutableBuffer out(pool);
  int64_t compressed = -1;
  switch (codec) {
    case Compression::kNone:
      break;
    case Compression::kLz4Frame: {
      const int64_t bound = MaxLz4FrameLength(size, level);
      QUIVER_RETURN_NOT_OK(out.Reserve(kPrefixSize + bound));
      QUIVER_ASSIGN_OR_RAISE(compressed, CompressLz4Frame(data, size, out.data() + kPrefixSize,
                                                          bound, level));
      break;
    }
    case Compression::kZstd: {
      const int64_t bound = ZstdCompressor::MaxCompressedLength(size);
      QUIVER_RETURN_NOT_OK(out.Reserve(kPrefixSize + bound));
      ZstdCompressor compressor;
      QUIVER_ASSIGN_OR_RAISE(compressed, compressor.Compress(data, size, out.data() + kPrefixSize,
                                                             bound, level));
      break;
    }
  }
  if (compressed < 0 || compressed >= size) {
    // Not worth it (or no codec): store the bytes as they are, marked -1.
    out.Clear();
    QUIVER_RETURN_NOT_OK(out.Reserve(kPrefixSize + size));
    out.UnsafeAppend(bit_util::ToLittleEndian<int64_t>(-1));
    out.UnsafeExtendFromSlice(data, size);
    return out.Freeze();
  }
  bit_util::SafeStore(out.data(), bit_util::ToLittleEndian<int64_t>(size));
  out.UnsafeSetSize(kPrefixSize + compressed);
  return out.Freeze();
}

Result<std::shared_ptr<Buffer>> DecompressBodyBuffer(Compression codec,
                                                     const std::shared_ptr<Buffer>& framed,
                                                     int64_t max_size, MemoryPool* pool) {
  if (framed->size() == 0) return framed;
  if (framed->size() < kPrefixSize) {
    return Status::Invalid("compressed buffer of ", framed->size(),
                           " bytes is shorter than its 8-byte length prefix");
  }
  const int64_t declared = bit_util::LoadLittleEndian<int64_t>(framed->data());
  const int64_t payload = framed->size() - kPrefixSize;
  if (declared == -1) return SliceBuffer(framed, kPrefixSize, payload);
  if (declared < 0) {
    return Status::Invalid("compressed buffer declares a negative length ", declared);
  }
  // Arrow Java writes an empty buffer as a bare prefix of 0.
  if (declared == 0) return Buffer::Empty();
  if (declared > max_size) {
    return Status::Invalid("compressed buffer declares ", declared,
                           " uncompressed bytes, more than the limit of ", max_size);
  }
  if (declared > MaxDecompressedSize(codec, payload)) {
    return Status::Invalid("compressed buffer of ", payload, " bytes cannot hold the ", declared,
                           " bytes its prefix declares (", CompressionName(codec), ")");
  }
  const uint8_t* in = framed->data() + kPrefixSize;
  switch (codec) {
    case Compression::kNone:
      return Status::Invalid("compressed buffer in a message without compression");
    case Compression::kLz4Frame: {
      Lz4FrameDecompressor decoder;
      return DecodeAll(decoder, in, payload, declared, pool);
    }
    case Compression::kZstd: {
      ZstdDecompressor decoder;
      return DecodeAll(decoder, in, payload, declared, pool);
    }
  }
  return Status::Invalid("unknown compression codec");
}

}  // namespace internal
}  // namespace quiver::ipc
