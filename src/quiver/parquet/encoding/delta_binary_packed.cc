// DELTA_BINARY_PACKED encoder and decoder; see delta_binary_packed.h.
#include "quiver/parquet/encoding/delta_binary_packed.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "quiver/parquet/encoding/bit_packing_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/varint.h"

namespace quiver::parquet {

namespace {

// Largest block the decoder accepts (values). Writers use 128 (parquet-mr,
// Arrow C++) or a few thousand; the cap bounds the decoder's buffer.
constexpr uint64_t kMaxBlockSize = 1 << 16;

inline void Unpack(const uint8_t* in, int bit_width, uint32_t* out) {
  internal::Unpack32(in, bit_width, out);
}
inline void Unpack(const uint8_t* in, int bit_width, uint64_t* out) {
  internal::Unpack64(in, bit_width, out);
}
inline void Pack(const uint32_t* in, int bit_width, uint8_t* out) {
  internal::Pack32(in, bit_width, out);
}
inline void Pack(const uint64_t* in, int bit_width, uint8_t* out) {
  internal::Pack64(in, bit_width, out);
}

}  // namespace

// ---------------------------------------------------------------------------
// Encoder

template <typename T>
Status DeltaBinaryPackedEncoder<T>::Put(const T* values, int64_t n) {
  int64_t i = 0;
  if (n > 0 && total_ == 0) {
    first_ = previous_ = static_cast<U>(values[0]);
    total_ = 1;
    i = 1;
  }
  while (i < n) {
    const int64_t k = std::min<int64_t>(n - i, kBlockSize - num_deltas_);
    U previous = previous_;
    U* deltas = deltas_ + num_deltas_;
    for (int64_t j = 0; j < k; ++j) {
      const U v = static_cast<U>(values[i + j]);
      deltas[j] = v - previous;
      previous = v;
    }
    previous_ = previous;
    num_deltas_ += static_cast<int>(k);
    total_ += k;
    i += k;
    if (num_deltas_ == kBlockSize) QUIVER_RETURN_NOT_OK(FlushBlock());
  }
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedEncoder<T>::PutSpaced(const T* values, int64_t n, const uint8_t* validity,
                                              int64_t validity_offset) {
  if (validity == nullptr) return Put(values, n);
  Status status;
  bitmap::VisitSetBitRuns(validity, validity_offset, n, [&](int64_t pos, int64_t len) {
    if (status.ok()) status = Put(values + pos, len);
  });
  return status;
}

template <typename T>
int64_t DeltaBinaryPackedEncoder<T>::EstimatedSize() const {
  // As Arrow C++ estimates it (writers compare this with data_page_size, so
  // the same estimate cuts pages where pyarrow does): a 32-byte allowance
  // for the header plus the finished blocks; the open block is not counted.
  constexpr int64_t kHeaderAllowance = 32;
  return kHeaderAllowance + blocks_.size();
}

template <typename T>
Status DeltaBinaryPackedEncoder<T>::FlushBlock() {
  const int n = num_deltas_;
  T min_delta = static_cast<T>(deltas_[0]);
  for (int i = 1; i < n; ++i) min_delta = std::min(min_delta, static_cast<T>(deltas_[i]));
  const U umin = static_cast<U>(min_delta);
  for (int i = 0; i < n; ++i) deltas_[i] -= umin;
  std::fill(deltas_ + n, deltas_ + kBlockSize, U{0});

  const int used = (n + kMiniblockSize - 1) / kMiniblockSize;
  uint8_t widths[kMiniblocks] = {};
  int64_t data_bytes = 0;
  for (int m = 0; m < used; ++m) {
    U bits = 0;
    for (int j = 0; j < kMiniblockSize; ++j) bits |= deltas_[m * kMiniblockSize + j];
    widths[m] = static_cast<uint8_t>(bit_util::NumRequiredBits(bits));
    data_bytes += kMiniblockSize / 8 * widths[m];
  }
  QUIVER_RETURN_NOT_OK(blocks_.Reserve(kMaxUleb128Bytes + kMiniblocks + data_bytes));
  uint8_t* p = blocks_.data() + blocks_.size();
  p += PutUleb128(ZigZagEncode(min_delta), p);
  std::memcpy(p, widths, kMiniblocks);
  p += kMiniblocks;
  for (int m = 0; m < used; ++m) {
    for (int g = 0; g < kMiniblockSize / 32; ++g) {
      Pack(deltas_ + m * kMiniblockSize + g * 32, widths[m], p);
      p += 4 * widths[m];
    }
  }
  blocks_.UnsafeSetSize(p - blocks_.data());
  num_deltas_ = 0;
  return Status::OK();
}

template <typename T>
Result<int64_t> DeltaBinaryPackedEncoder<T>::Flush(MutableBuffer* out) {
  if (num_deltas_ > 0) QUIVER_RETURN_NOT_OK(FlushBlock());
  uint8_t header[4 * kMaxUleb128Bytes];
  uint8_t* p = header;
  p += PutUleb128(kBlockSize, p);
  p += PutUleb128(kMiniblocks, p);
  p += PutUleb128(static_cast<uint64_t>(total_), p);
  p += PutUleb128(ZigZagEncode(static_cast<T>(first_)), p);
  const int64_t header_size = p - header;
  QUIVER_RETURN_NOT_OK(out->Reserve(header_size + blocks_.size()));
  out->UnsafeExtendFromSlice(header, header_size);
  out->UnsafeExtendFromSlice(blocks_.data(), blocks_.size());
  const int64_t bytes = header_size + blocks_.size();
  blocks_.Clear();
  total_ = 0;
  first_ = previous_ = 0;
  return bytes;
}

// ---------------------------------------------------------------------------
// Decoder

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Corrupt(const char* what) const {
  return Status::Invalid("DELTA_BINARY_PACKED data: ", what, " at byte ", pos_, " of ", size_);
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Init(const uint8_t* data, int64_t size) {
  *this = DeltaBinaryPackedDecoder();
  data_ = data;
  size_ = size < 0 ? 0 : size;
  const uint8_t* p = data_;
  const uint8_t* end = data_ + size_;
  uint64_t block_size, miniblocks, total, first;
  if (!GetUleb128(&p, end, &block_size) || !GetUleb128(&p, end, &miniblocks) ||
      !GetUleb128(&p, end, &total) || !GetUleb128(&p, end, &first)) {
    return Corrupt("truncated or malformed header");
  }
  pos_ = p - data_;
  if (block_size == 0 || block_size % 128 != 0 || block_size > kMaxBlockSize) {
    return Status::Invalid("DELTA_BINARY_PACKED data: block size ", block_size,
                           " is not a positive multiple of 128 (up to ", kMaxBlockSize, ")");
  }
  if (miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0) {
    return Status::Invalid("DELTA_BINARY_PACKED data: ", miniblocks,
                           " miniblocks do not divide a block of ", block_size,
                           " values into multiples of 32");
  }
  block_size_ = static_cast<int64_t>(block_size);
  miniblocks_ = static_cast<int64_t>(miniblocks);
  miniblock_size_ = block_size_ / miniblocks_;
  // Every block costs at least its min delta byte and its width bytes.
  const int64_t max_blocks = (size_ - pos_) / (1 + miniblocks_);
  if (total > 1 && total - 1 > static_cast<uint64_t>(max_blocks) * block_size) {
    return Status::Invalid("DELTA_BINARY_PACKED data: header claims ", total, " values but ",
                           size_ - pos_, " bytes can hold at most ",
                           max_blocks * block_size_ + 1);
  }
  const int64_t first_value = ZigZagDecode(first);
  if (first_value < std::numeric_limits<T>::min() || first_value > std::numeric_limits<T>::max()) {
    return Status::Invalid("DELTA_BINARY_PACKED data: first value ", first_value,
                           " is out of range for ", sizeof(T) == 4 ? "INT32" : "INT64");
  }
  total_ = left_ = static_cast<int64_t>(total);
  deltas_left_ = total_ > 0 ? total_ - 1 : 0;
  first_pending_ = total_ > 0;
  first_ = static_cast<U>(static_cast<T>(first_value));
  widths_.assign(static_cast<size_t>(miniblocks_), 0);
  buffer_.assign(static_cast<size_t>(miniblock_size_), 0);
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::ReadBlockHeader() {
  const uint8_t* p = data_ + pos_;
  uint64_t min_delta;
  if (!GetUleb128(&p, data_ + size_, &min_delta)) {
    return Corrupt("truncated or malformed block header (min delta)");
  }
  pos_ = p - data_;
  if (size_ - pos_ < miniblocks_) return Corrupt("truncated block header (bit widths)");
  // Wraps for an out-of-range INT32 min delta: the sums are modular anyway.
  min_delta_ = static_cast<U>(ZigZagDecode(min_delta));
  std::memcpy(widths_.data(), data_ + pos_, static_cast<size_t>(miniblocks_));
  pos_ += miniblocks_;
  miniblock_ = 0;
  in_block_ = true;
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::LoadMiniblock(bool decode) {
  if (!in_block_ || miniblock_ == miniblocks_) QUIVER_RETURN_NOT_OK(ReadBlockHeader());
  const int width = widths_[static_cast<size_t>(miniblock_)];
  // Widths of unused miniblocks may be anything; those of used ones may not.
  if (width > static_cast<int>(8 * sizeof(T))) {
    return Status::Invalid("DELTA_BINARY_PACKED data: miniblock bit width ", width,
                           " exceeds ", 8 * sizeof(T), " bits at byte ", pos_);
  }
  const int64_t count = std::min(miniblock_size_, deltas_left_);
  const int64_t group_bytes = 4 * int64_t{width};  // 32 values
  const int64_t full_bytes = miniblock_size_ / 32 * group_bytes;
  const int64_t available = size_ - pos_;
  if (full_bytes > available) {
    // Only a truncated last miniblock is acceptable, holding every value used.
    if ((count * width + 7) / 8 > available) return Corrupt("truncated miniblock");
  }
  if (decode) {
    const int64_t groups = (count + 31) / 32;
    for (int64_t g = 0; g < groups; ++g) {
      const uint8_t* p = data_ + pos_ + g * group_bytes;
      U* dest = buffer_.data() + g * 32;
      if (size_ - (pos_ + g * group_bytes) >= group_bytes) {
        Unpack(p, width, dest);
      } else {
        uint8_t padded[4 * 64] = {};
        std::memcpy(padded, p, static_cast<size_t>(size_ - (pos_ + g * group_bytes)));
        Unpack(padded, width, dest);
      }
    }
    buffer_pos_ = 0;
    buffer_len_ = count;
  }
  pos_ = full_bytes > available ? size_ : pos_ + full_bytes;
  deltas_left_ -= count;
  ++miniblock_;
  return Status::OK();
}

template <typename T>
Result<int64_t> DeltaBinaryPackedDecoder<T>::GetBatch(T* out, int64_t n) {
  if (n < 0) return Status::Invalid("DELTA_BINARY_PACKED: negative batch size ", n);
  n = std::min(n, left_);
  int64_t i = 0;
  if (n > 0 && first_pending_) {
    out[0] = static_cast<T>(first_);
    last_ = first_;
    first_pending_ = false;
    i = 1;
  }
  while (i < n) {
    if (buffer_pos_ == buffer_len_) {
      Status st = LoadMiniblock(/*decode=*/true);
      if (!st.ok()) {
        left_ -= i;
        return st;
      }
    }
    const int64_t k = std::min(n - i, buffer_len_ - buffer_pos_);
    U last = last_;
    const U min_delta = min_delta_;
    const U* src = buffer_.data() + buffer_pos_;
    for (int64_t j = 0; j < k; ++j) {
      last += min_delta + src[j];
      out[i + j] = static_cast<T>(last);
    }
    last_ = last;
    buffer_pos_ += k;
    i += k;
  }
  left_ -= n;
  return n;
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::SkipAll() {
  first_pending_ = false;
  buffer_pos_ = buffer_len_ = 0;
  while (deltas_left_ > 0) QUIVER_RETURN_NOT_OK(LoadMiniblock(/*decode=*/false));
  left_ = 0;
  return Status::OK();
}

template class DeltaBinaryPackedEncoder<int32_t>;
template class DeltaBinaryPackedEncoder<int64_t>;
template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;

}  // namespace quiver::parquet
