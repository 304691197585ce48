// Split-block Bloom filter: sizing, hashing, (de)serialization. See
// bloom_filter.h for the layout and its sources.
#include "quiver/parquet/bloom/bloom_filter.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

// Inline xxHash so that hashing a 4- or 8-byte value compiles to XXH64's
// short-input path without a library call.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "quiver/parquet/bloom/bloom_insert_simd.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"

namespace quiver::parquet {

namespace {

constexpr std::string_view kWhat = "parquet bloom filter: ";

inline uint64_t XxHash64(const void* data, size_t length) { return XXH64(data, length, 0); }

// XXH64 of the little-endian bytes of a 4- or 8-byte value.
template <typename T>
inline uint64_t HashLittleEndian(T value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  if constexpr (std::endian::native == std::endian::big) {
    if constexpr (sizeof(T) == 4) {
      uint32_t bits = __builtin_bswap32(std::bit_cast<uint32_t>(value));
      return XxHash64(&bits, sizeof(bits));
    } else {
      uint64_t bits = __builtin_bswap64(std::bit_cast<uint64_t>(value));
      return XxHash64(&bits, sizeof(bits));
    }
  }
  return XxHash64(&value, sizeof(value));
}

template <typename T>
void HashValues(const T* values, int64_t n, uint64_t* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = HashLittleEndian(values[i]);
}

template <typename Offset>
void HashBinary(const uint8_t* data, const Offset* offsets, int64_t n, uint64_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    out[i] = XxHash64(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
  }
}

bool IsPowerOfTwo(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

}  // namespace

int64_t BloomFilter::OptimalNumBytes(int64_t ndv, double fpp) {
  constexpr int64_t kMinBits = kMinimumBytes * 8;
  constexpr int64_t kMaxBits = kMaximumBytes * 8;
  if (std::isnan(fpp) || fpp <= 0.0) return kMaximumBytes;
  if (ndv <= 0 || fpp >= 1.0) return kMinimumBytes;
  // The spec's bits-per-value formula times ndv, written as Arrow C++ writes
  // it so that the power of two chosen agrees with Arrow's even at the edges.
  const double m = -8.0 * static_cast<double>(ndv) / std::log(1.0 - std::pow(fpp, 1.0 / 8));
  int64_t num_bits;
  if (!(m >= 0.0) || m > static_cast<double>(kMaxBits)) {
    num_bits = kMaxBits;
  } else {
    num_bits = static_cast<int64_t>(m);
  }
  if (num_bits < kMinBits) num_bits = kMinBits;
  num_bits = static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(num_bits)));
  if (num_bits > kMaxBits) num_bits = kMaxBits;
  return num_bits / 8;
}

Result<BloomFilter> BloomFilter::Allocate(int64_t num_bytes, MemoryPool* pool) {
  MutableBuffer bitset(pool);
  QUIVER_RETURN_NOT_OK(bitset.Resize(num_bytes, 0));
  return BloomFilter(std::move(bitset));
}

Status BloomFilter::CheckParameters(int64_t ndv, double fpp) {
  if (ndv < 0) return Status::Invalid(kWhat, "ndv must be >= 0, got ", ndv);
  if (!(fpp > 0.0 && fpp < 1.0)) {
    return Status::Invalid(kWhat, "fpp must be in (0, 1), got ", fpp);
  }
  return Status::OK();
}

Result<BloomFilter> BloomFilter::Make(int64_t ndv, double fpp, MemoryPool* pool) {
  QUIVER_RETURN_NOT_OK(CheckParameters(ndv, fpp));
  return Allocate(OptimalNumBytes(ndv, fpp), pool);
}

Result<BloomFilter> BloomFilter::MakeWithNumBytes(int64_t num_bytes, MemoryPool* pool) {
  if (num_bytes < kMinimumBytes || num_bytes > kMaximumBytes || !IsPowerOfTwo(num_bytes)) {
    return Status::Invalid(kWhat, "num_bytes must be a power of two in [", kMinimumBytes, ", ",
                           kMaximumBytes, "], got ", num_bytes);
  }
  return Allocate(num_bytes, pool);
}

void BloomFilter::FoldToTargetFpp(double fpp) {
  const int64_t num_bytes = bitset_.size();
  int64_t set_bits = 0;
  for (int64_t i = 0; i + 8 <= num_bytes; i += 8) {
    uint64_t w;
    std::memcpy(&w, bitset_.data() + i, 8);
    set_bits += std::popcount(w);
  }
  if (set_bits == 0) {
    (void)bitset_.Resize(kMinimumBytes);  // shrinking never fails
    num_blocks_ = 1;
    return;
  }
  const uint64_t blocks = num_blocks_;
  if (blocks < 2 || !IsPowerOfTwo(static_cast<int64_t>(blocks))) return;
  const double fill = static_cast<double>(set_bits) / static_cast<double>(num_bytes * 8);
  const int max_folds = std::countr_zero(blocks);
  int folds = 0;
  double unset = 1.0 - fill;
  for (int i = 0; i < max_folds; ++i) {
    unset *= unset;
    if (std::pow(1.0 - unset, 8) > fpp) break;
    ++folds;
  }
  if (folds == 0) return;
  const uint64_t group = uint64_t{1} << folds;
  const uint64_t new_blocks = blocks / group;
  uint8_t* data = bitset_.data();
  for (uint64_t dst = 0; dst < new_blocks; ++dst) {
    uint8_t out[kBytesPerBlock];
    std::memcpy(out, data + dst * group * kBytesPerBlock, kBytesPerBlock);
    for (uint64_t g = 1; g < group; ++g) {
      const uint8_t* src = data + (dst * group + g) * kBytesPerBlock;
      for (int b = 0; b < kBytesPerBlock; ++b) out[b] |= src[b];
    }
    std::memcpy(data + dst * kBytesPerBlock, out, kBytesPerBlock);
  }
  (void)bitset_.Resize(static_cast<int64_t>(new_blocks) * kBytesPerBlock);
  num_blocks_ = new_blocks;
}

void BloomFilter::InsertHashes(const uint64_t* hashes, int64_t n) {
  if constexpr (std::endian::native == std::endian::little) {
    if (internal::BloomInsertSimdEnabled()) {
      internal::BloomInsertHashesAvx2(bitset_.data(), num_blocks_, hashes, n);
      return;
    }
  }
  // The block eight inserts ahead is prefetched (the inserts are independent;
  // a filter of a million values is past the L2 cache).
  constexpr int64_t kAhead = 8;
  for (int64_t i = 0; i < n; ++i) {
    if (i + kAhead < n) __builtin_prefetch(bitset_.data() + BlockOffset(hashes[i + kAhead]), 1);
    InsertHash(hashes[i]);
  }
}

uint64_t BloomFilter::Hash(int32_t value) { return HashLittleEndian(value); }
uint64_t BloomFilter::Hash(int64_t value) { return HashLittleEndian(value); }
uint64_t BloomFilter::Hash(float value) { return HashLittleEndian(value); }
uint64_t BloomFilter::Hash(double value) { return HashLittleEndian(value); }
uint64_t BloomFilter::Hash(std::string_view bytes) {
  return XxHash64(bytes.data(), bytes.size());
}

void BloomFilter::Hashes(const int32_t* values, int64_t n, uint64_t* out) {
  HashValues(values, n, out);
}
void BloomFilter::Hashes(const int64_t* values, int64_t n, uint64_t* out) {
  HashValues(values, n, out);
}
void BloomFilter::Hashes(const float* values, int64_t n, uint64_t* out) {
  HashValues(values, n, out);
}
void BloomFilter::Hashes(const double* values, int64_t n, uint64_t* out) {
  HashValues(values, n, out);
}
void BloomFilter::Hashes(const std::string_view* values, int64_t n, uint64_t* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = XxHash64(values[i].data(), values[i].size());
}
void BloomFilter::HashesBinary(const uint8_t* data, const int32_t* offsets, int64_t n,
                               uint64_t* out) {
  HashBinary(data, offsets, n, out);
}
void BloomFilter::HashesBinary(const uint8_t* data, const int64_t* offsets, int64_t n,
                               uint64_t* out) {
  HashBinary(data, offsets, n, out);
}
void BloomFilter::HashesFixedSize(const uint8_t* data, int32_t width, int64_t n, uint64_t* out) {
  const size_t w = static_cast<size_t>(width);
  for (int64_t i = 0; i < n; ++i) out[i] = XxHash64(data + static_cast<size_t>(i) * w, w);
}

Status BloomFilter::Serialize(MutableBuffer* out) const {
  format::BloomFilterHeader header;
  header.num_bytes = static_cast<int32_t>(num_bytes());
  header.algorithm.block.emplace();
  header.hash.xxhash.emplace();
  header.compression.uncompressed.emplace();
  // The header is 15-16 bytes; reserve both parts at once.
  QUIVER_RETURN_NOT_OK(out->Reserve(32 + num_bytes()));
  QUIVER_RETURN_NOT_OK(thrift::SerializeThrift(header, out));
  return out->ExtendFromSlice(bitset_.data(), num_bytes());
}

Result<BloomFilter> BloomFilter::Deserialize(const uint8_t* data, int64_t size,
                                             int64_t* consumed, MemoryPool* pool) {
  if (size < 0) return Status::Invalid(kWhat, "negative input size ", size);
  int64_t header_size = 0;
  auto header_result =
      thrift::DeserializeThrift<format::BloomFilterHeader>(data, size, &header_size);
  if (!header_result.ok()) {
    return Status::Invalid(kWhat, "header: ", header_result.status().message());
  }
  const format::BloomFilterHeader& header = *header_result;
  if (header.algorithm.num_set() != 1 ||
      header.algorithm.kind() != format::BloomFilterAlgorithm::Kind::kBlock) {
    return Status::NotImplemented(kWhat, "unsupported algorithm (only BLOCK is defined)");
  }
  if (header.hash.num_set() != 1 ||
      header.hash.kind() != format::BloomFilterHash::Kind::kXxhash) {
    return Status::NotImplemented(kWhat, "unsupported hash (only XXHASH is defined)");
  }
  if (header.compression.num_set() != 1 ||
      header.compression.kind() != format::BloomFilterCompression::Kind::kUncompressed) {
    return Status::NotImplemented(kWhat,
                                  "unsupported compression (only UNCOMPRESSED is defined)");
  }
  const int64_t num_bytes = header.num_bytes;
  if (num_bytes < kMinimumBytes || num_bytes > kMaximumBytes || num_bytes % kBytesPerBlock != 0) {
    return Status::Invalid(kWhat, "numBytes ", num_bytes, " is not a multiple of ",
                           kBytesPerBlock, " in [", kMinimumBytes, ", ", kMaximumBytes, "]");
  }
  if (num_bytes > size - header_size) {
    return Status::Invalid(kWhat, "bitset of ", num_bytes, " bytes at byte ", header_size,
                           " runs past the end of the ", size, "-byte input");
  }
  QUIVER_ASSIGN_OR_RAISE(BloomFilter filter, Allocate(num_bytes, pool));
  std::memcpy(filter.bitset_.data(), data + header_size, static_cast<size_t>(num_bytes));
  if (consumed != nullptr) *consumed = header_size + num_bytes;
  return filter;
}

}  // namespace quiver::parquet
