// The Parquet split-block Bloom filter (SBBF). Spec: apache/parquet-format
// BloomFilter.md ("Technical Approach", "Hash Function", "File Format");
// sizing and the 32-byte / 128-MiB bounds as Arrow C++'s
// parquet/bloom_filter.h (BlockSplitBloomFilter::OptimalNumOfBits).
//
// Layout: num_bytes / 32 blocks of eight 32-bit little-endian words.
//   block index  ((hash >> 32) * num_blocks) >> 32   (upper 32 bits)
//   key          uint32(hash)                        (lower 32 bits)
//   word i       bit ((key * kSalt[i]) mod 2^32) >> 27 is set / checked
// Insert sets one bit in each of the 8 words of one block; Find reports
// "maybe present" only if all 8 are set. No false negatives.
//
// Hash: XXH64 with seed 0 of the PLAIN encoding of the value: INT32 / INT64 /
// FLOAT / DOUBLE their little-endian bytes (floats bit for bit: 0.0 and
// -0.0 differ, as in Arrow), FIXED_LEN_BYTE_ARRAY its bytes, BYTE_ARRAY its
// bytes WITHOUT the 4-byte length prefix.
//
// Serialized form (what a column chunk's bloom_filter_offset points at): a
// Thrift compact BloomFilterHeader {numBytes, algorithm BLOCK, hash XXHASH,
// compression UNCOMPRESSED} followed by numBytes bytes of bitset.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <utility>

#include "quiver/memory/memory_pool.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/result.h"
#include "quiver/util/status.h"

namespace quiver::parquet {

class BloomFilter {
 public:
  // One block: eight 32-bit words.
  static constexpr int64_t kBytesPerBlock = 32;
  // Smallest filter: one block.
  static constexpr int64_t kMinimumBytes = kBytesPerBlock;
  // Largest filter Make / OptimalNumBytes produce and Deserialize accepts
  // (Arrow C++'s kMaximumBloomFilterBytes, the HDFS block size).
  static constexpr int64_t kMaximumBytes = int64_t{128} * 1024 * 1024;
  // The eight odd multipliers of the spec, one per word.
  static constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                        0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

  // An empty filter sized by OptimalNumBytes(ndv, fpp). ndv must be >= 0 and
  // fpp in (0, 1) (Invalid otherwise).
  static Result<BloomFilter> Make(int64_t ndv, double fpp, MemoryPool* pool = DefaultMemoryPool());
  // Make's check of its arguments, alone (for a writer that makes the
  // filter only when a first value comes).
  static Status CheckParameters(int64_t ndv, double fpp);
  // An empty filter of exactly `num_bytes` bytes: a power of two in
  // [kMinimumBytes, kMaximumBytes] (Invalid otherwise).
  static Result<BloomFilter> MakeWithNumBytes(int64_t num_bytes,
                                              MemoryPool* pool = DefaultMemoryPool());

  // Bitset size for `ndv` distinct values at false-positive probability
  // `fpp`: m = -8 * ndv / ln(1 - fpp^(1/8)) bits (the spec's formula),
  // truncated, raised to at least kMinimumBytes * 8, rounded up to a power of
  // two, capped at kMaximumBytes * 8, returned in bytes — the same numbers as
  // Arrow C++'s OptimalNumOfBytes. Never fails: ndv <= 0 or fpp >= 1 give
  // kMinimumBytes, fpp <= 0 or NaN give kMaximumBytes.
  // (Writers then shrink a filled filter with FoldToTargetFpp, as Arrow C++
  // does: so a row group's filter ends up sized for the values it holds.)
  static int64_t OptimalNumBytes(int64_t ndv, double fpp);

  BloomFilter(BloomFilter&&) noexcept = default;
  BloomFilter& operator=(BloomFilter&&) noexcept = default;
  BloomFilter(const BloomFilter&) = delete;
  BloomFilter& operator=(const BloomFilter&) = delete;

  // Adds one value by its hash (one of the Hash functions below).
  void InsertHash(uint64_t hash) {
    uint8_t* block = bitset_.data() + BlockOffset(hash);
    const uint32_t key = static_cast<uint32_t>(hash);
    for (int i = 0; i < 8; ++i) {
      StoreWord(block + 4 * i, LoadWord(block + 4 * i) | (uint32_t{1} << ((key * kSalt[i]) >> 27)));
    }
  }
  void InsertHashes(const uint64_t* hashes, int64_t n);

  // False: the value was never inserted. True: it probably was.
  bool FindHash(uint64_t hash) const {
    const uint8_t* block = bitset_.data() + BlockOffset(hash);
    const uint32_t key = static_cast<uint32_t>(hash);
    bool all = true;
    for (int i = 0; i < 8; ++i) {
      all &= ((LoadWord(block + 4 * i) >> ((key * kSalt[i]) >> 27)) & 1) != 0;
    }
    return all;
  }

  // XXH64 (seed 0) of the PLAIN encoding of one value. Hash(bytes) serves
  // BYTE_ARRAY (the bytes without the length prefix) and
  // FIXED_LEN_BYTE_ARRAY.
  static uint64_t Hash(int32_t value);
  static uint64_t Hash(int64_t value);
  static uint64_t Hash(float value);
  static uint64_t Hash(double value);
  static uint64_t Hash(std::string_view bytes);

  // The same for n values at once, into out[0, n). No allocation.
  static void Hashes(const int32_t* values, int64_t n, uint64_t* out);
  static void Hashes(const int64_t* values, int64_t n, uint64_t* out);
  static void Hashes(const float* values, int64_t n, uint64_t* out);
  static void Hashes(const double* values, int64_t n, uint64_t* out);
  static void Hashes(const std::string_view* values, int64_t n, uint64_t* out);
  // Binary values in Arrow layout: value i is data[offsets[i], offsets[i+1]).
  static void HashesBinary(const uint8_t* data, const int32_t* offsets, int64_t n, uint64_t* out);
  static void HashesBinary(const uint8_t* data, const int64_t* offsets, int64_t n, uint64_t* out);
  // n values of `width` bytes each, back to back (FIXED_LEN_BYTE_ARRAY).
  static void HashesFixedSize(const uint8_t* data, int32_t width, int64_t n, uint64_t* out);

  // Shrinks a filter filled past need: ORs groups of 2^k consecutive blocks
  // into one, with the largest k whose estimated false-positive probability
  // stays <= fpp (each fold turns the set-bit fraction f into 1 - (1 - f)^2;
  // the estimate is f^8). Exact, not approximate, for power-of-two block
  // counts: a hash's block among n/2^k blocks is its block among n, shifted
  // right by k. A filter with no bit set becomes one block. This is Arrow
  // C++'s FoldToTargetFpp, and how a filter first sized for the ndv option
  // ends up sized for the values actually inserted.
  void FoldToTargetFpp(double fpp);

  // Byte offset of the block selected by the upper 32 bits of `hash`
  // among `num_blocks` blocks (the layout above; also the AVX2 insertion's).
  static int64_t BlockOffsetOf(uint64_t hash, uint64_t num_blocks) {
    return static_cast<int64_t>(((hash >> 32) * num_blocks) >> 32) * kBytesPerBlock;
  }

  // Bitset size in bytes (a multiple of kBytesPerBlock).
  int64_t num_bytes() const { return bitset_.size(); }
  // The bitset as it is written to a file.
  std::span<const uint8_t> bitset() const {
    return {bitset_.data(), static_cast<size_t>(bitset_.size())};
  }

  // Appends the serialized filter (Thrift BloomFilterHeader + bitset) to
  // *out.
  Status Serialize(MutableBuffer* out) const;

  // Reads a serialized filter from data[0, size) — untrusted bytes. The
  // header must name BLOCK / XXHASH / UNCOMPRESSED and a numBytes that is a
  // multiple of kBytesPerBlock in [kMinimumBytes, kMaximumBytes] (not
  // necessarily a power of two: the spec's block index works for any number
  // of blocks) and the bitset must fit in `size`. Bytes after the bitset are
  // ignored; *consumed (if given) receives header + bitset size. The bitset
  // is copied.
  static Result<BloomFilter> Deserialize(const uint8_t* data, int64_t size,
                                         int64_t* consumed = nullptr,
                                         MemoryPool* pool = DefaultMemoryPool());

 private:
  explicit BloomFilter(MutableBuffer bitset)
      : bitset_(std::move(bitset)),
        num_blocks_(static_cast<uint64_t>(bitset_.size() / kBytesPerBlock)) {}

  static Result<BloomFilter> Allocate(int64_t num_bytes, MemoryPool* pool);

  int64_t BlockOffset(uint64_t hash) const { return BlockOffsetOf(hash, num_blocks_); }
  // Words are little-endian in memory and on disk.
  static uint32_t LoadWord(const uint8_t* p) {
    uint32_t word;
    std::memcpy(&word, p, sizeof(word));
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap32(word);
    return word;
  }
  static void StoreWord(uint8_t* p, uint32_t word) {
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap32(word);
    std::memcpy(p, &word, sizeof(word));
  }

  MutableBuffer bitset_;
  uint64_t num_blocks_;
};

}  // namespace quiver::parquet
