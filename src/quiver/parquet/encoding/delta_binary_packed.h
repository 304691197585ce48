// DELTA_BINARY_PACKED (apache/parquet-format Encodings.md, "Delta Encoding
// (DELTA_BINARY_PACKED = 5)"), for INT32 and INT64:
//
//   header: ULEB128 block size in values, ULEB128 miniblocks per block,
//           ULEB128 total value count, zigzag ULEB128 first value
//   block:  zigzag ULEB128 min delta, one bit-width byte per miniblock, then
//           each miniblock's (delta - min delta) values bit-packed LSB first
//
// The encoder writes blocks in 4 miniblocks, of 128 values for INT32 and 256
// for INT64, exactly as Arrow C++ does (DeltaBitPackEncoder; its bytes match
// pyarrow's); parquet-mr uses 128 for both. Miniblocks of the last block that hold no
// value get bit width 0 and no bytes; the last used miniblock is padded with
// zero values to its full size. Deltas and their sums are computed in
// the unsigned type, so overflow wraps in two's complement as the spec asks.
//
// The decoder accepts any header the spec allows (block size a multiple of
// 128, miniblock size a multiple of 32), checks every width against the
// type (<= 32 bits for INT32, <= 64 for INT64) and every length against the
// buffer, and never reads outside it.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

template <typename T>
class DeltaBinaryPackedEncoder {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>);

 public:
  static constexpr int kBlockSize = sizeof(T) == 4 ? 128 : 256;
  static constexpr int kMiniblocks = 4;
  static constexpr int kMiniblockSize = kBlockSize / kMiniblocks;

  explicit DeltaBinaryPackedEncoder(MemoryPool* pool = DefaultMemoryPool()) : blocks_(pool) {}

  // Appends n values.
  Status Put(const T* values, int64_t n);
  // Appends the valid ones of n slots (validity bit validity_offset + i).
  Status PutSpaced(const T* values, int64_t n, const uint8_t* validity,
                   int64_t validity_offset);

  int64_t num_values() const { return total_; }
  // Arrow C++'s estimate of the encoded size: a 32-byte header allowance
  // plus the finished blocks (the open block is not counted).
  int64_t EstimatedSize() const;

  // Appends the header and all blocks to `out`; returns the number of bytes
  // appended. The encoder is then empty.
  Result<int64_t> Flush(MutableBuffer* out);

 private:
  using U = std::make_unsigned_t<T>;
  Status FlushBlock();

  MutableBuffer blocks_;
  int64_t total_ = 0;
  U first_ = 0;
  U previous_ = 0;
  U deltas_[kBlockSize];
  int num_deltas_ = 0;
};

template <typename T>
class DeltaBinaryPackedDecoder {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>);

 public:
  DeltaBinaryPackedDecoder() = default;

  // Parses the header of the stream at data[0, size); Invalid if it is
  // malformed or claims more values than `size` bytes can hold.
  Status Init(const uint8_t* data, int64_t size);

  // Decodes min(n, values_left()) values; Invalid on corrupt or truncated
  // data (with the byte offset).
  Result<int64_t> GetBatch(T* out, int64_t n);

  // Moves past every remaining value without decoding it (reading only the
  // block headers), so that bytes_consumed() is the stream's length: what
  // DELTA_LENGTH_BYTE_ARRAY needs to find the bytes that follow the lengths.
  Status SkipAll();

  int64_t total_values() const { return total_; }
  int64_t values_left() const { return left_; }
  // Bytes of the stream read so far; once every value is decoded, the
  // stream's length (the header, block headers and full miniblocks used).
  int64_t bytes_consumed() const { return pos_; }

 private:
  using U = std::make_unsigned_t<T>;
  Status ReadBlockHeader();
  // Reads the next miniblock; unpacks it into buffer_ if `decode`.
  Status LoadMiniblock(bool decode);
  Status Corrupt(const char* what) const;

  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;

  int64_t block_size_ = 0;
  int64_t miniblocks_ = 0;
  int64_t miniblock_size_ = 0;
  int64_t total_ = 0;
  int64_t left_ = 0;
  int64_t deltas_left_ = 0;  // deltas not yet loaded from a miniblock
  bool first_pending_ = false;
  U first_ = 0;
  U last_ = 0;

  U min_delta_ = 0;
  std::vector<uint8_t> widths_;
  int64_t miniblock_ = 0;  // next miniblock of the current block
  bool in_block_ = false;

  std::vector<U> buffer_;  // decoded (delta - min delta) of the miniblock
  int64_t buffer_pos_ = 0;
  int64_t buffer_len_ = 0;
};

extern template class DeltaBinaryPackedEncoder<int32_t>;
extern template class DeltaBinaryPackedEncoder<int64_t>;
extern template class DeltaBinaryPackedDecoder<int32_t>;
extern template class DeltaBinaryPackedDecoder<int64_t>;

}  // namespace quiver::parquet
