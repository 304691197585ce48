#include "quiver/parquet/reader/leaf_builder_internal.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "quiver/array/builder_binary.h"
#include "quiver/array/memo_table.h"
#include "quiver/parquet/encoding/dictionary_indices.h"
#include "quiver/parquet/encoding/spaced_internal.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/utf8.h"

namespace quiver::parquet::internal {
namespace {

constexpr int64_t kSecondsPerDay = 86400;
constexpr int64_t kMillisPerDay = kSecondsPerDay * 1000;
// Julian day of 1970-01-01.
constexpr int64_t kJulianEpochDay = 2440588;

// Decodes `num_values` values and spreads them over `num_slots` slots
// (null slots get T{}), into out[0, num_slots).
template <typename T>
Status DecodeSpacedInto(TypedDecoder<T>* decoder, int64_t num_slots, const uint8_t* valid,
                        int64_t valid_offset, T* out) {
  return decoder->DecodeSpaced(num_slots, valid, valid_offset, out);
}


// Leaves whose Arrow values are `width` bytes each, in one buffer.
class FixedWidthLeaf : public LeafBuilder {
 public:
  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) override {
    const int64_t length = values_.size() / width_;
    return ArrayData::Make(type_, length, {std::move(validity), values_.Freeze()}, null_count);
  }

  int64_t bytes_buffered() const override { return values_.size(); }
  Status Reserve(int64_t slots, int64_t) override { return values_.Reserve(slots * width_); }

 protected:
  FixedWidthLeaf(TypePtr type, int width, MemoryPool* pool)
      : type_(std::move(type)), width_(width), values_(pool) {}

  TypePtr type_;
  int width_;
  MutableBuffer values_;
};

// ---------------------------------------------------------------------------
// Fixed-width values: the physical type P converted to the Arrow value type
// A by Convert (a functor A(P)); same-width copies decode straight into the
// output.

template <typename P, typename A, typename Convert>
class FixedWidthBuilder final : public FixedWidthLeaf {
 public:
  FixedWidthBuilder(TypePtr type, MemoryPool* pool, Convert convert)
      : FixedWidthLeaf(std::move(type), static_cast<int>(sizeof(A)), pool), convert_(convert) {}

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t /*num_values*/) override {
    auto* typed = static_cast<TypedDecoder<P>*>(decoder);
    QUIVER_RETURN_NOT_OK(values_.Reserve(num_slots * static_cast<int64_t>(sizeof(A))));
    A* out = reinterpret_cast<A*>(values_.data() + values_.size());
    if constexpr (std::is_same_v<Convert, std::nullptr_t>) {
      static_assert(sizeof(A) == sizeof(P));
      QUIVER_RETURN_NOT_OK(
          DecodeSpacedInto(typed, num_slots, valid, valid_offset, reinterpret_cast<P*>(out)));
    } else {
      scratch_.resize(static_cast<size_t>(num_slots));
      QUIVER_RETURN_NOT_OK(
          DecodeSpacedInto(typed, num_slots, valid, valid_offset, scratch_.data()));
      for (int64_t i = 0; i < num_slots; ++i) out[i] = convert_(scratch_[static_cast<size_t>(i)]);
    }
    values_.UnsafeSetSize(values_.size() + num_slots * static_cast<int64_t>(sizeof(A)));
    return Status::OK();
  }

 private:
  Convert convert_;
  std::vector<P> scratch_;
};

template <typename P, typename A, typename Convert>
std::unique_ptr<LeafBuilder> MakeFixed(const TypePtr& type, MemoryPool* pool, Convert convert) {
  return std::make_unique<FixedWidthBuilder<P, A, Convert>>(type, pool, convert);
}
template <typename P, typename A>
std::unique_ptr<LeafBuilder> MakeCopy(const TypePtr& type, MemoryPool* pool) {
  return std::make_unique<FixedWidthBuilder<P, A, std::nullptr_t>>(type, pool, nullptr);
}

// Decimals: the unscaled integer sign-extended to `Words` little-endian
// 64-bit words (decimal128: 2, decimal256: 4).
template <int Words>
struct DecimalWords {
  uint64_t w[Words];
};
template <int Words, typename I>
DecimalWords<Words> ExtendDecimal(I v) {
  DecimalWords<Words> out;
  const int64_t wide = static_cast<int64_t>(v);
  out.w[0] = static_cast<uint64_t>(wide);
  for (int i = 1; i < Words; ++i) out.w[i] = wide < 0 ? ~uint64_t{0} : 0;
  return out;
}

// INT96 (nanoseconds of the day, then the Julian day) to a timestamp of
// `unit`. As Arrow C++, in unsigned 64-bit arithmetic, the Julian day taken
// as unsigned: values out of range wrap the same way as in pyarrow.
int64_t Int96ToTimestamp(const Int96& v, TimeUnit unit) {
  const uint64_t nanos = static_cast<uint64_t>(v.value[0]) | (static_cast<uint64_t>(v.value[1]) << 32);
  const uint64_t d = static_cast<uint64_t>(v.value[2]) - static_cast<uint64_t>(kJulianEpochDay);
  switch (unit) {
    case TimeUnit::kSecond:
      return static_cast<int64_t>(d * kSecondsPerDay + nanos / 1000000000);
    case TimeUnit::kMilli:
      return static_cast<int64_t>(d * kMillisPerDay + nanos / 1000000);
    case TimeUnit::kMicro:
      return static_cast<int64_t>(d * kMillisPerDay * 1000 + nanos / 1000);
    case TimeUnit::kNano:
      return static_cast<int64_t>(d * kMillisPerDay * 1000000 + nanos);
  }
  return 0;
}

// ---------------------------------------------------------------------------
// Booleans: bits.

class BooleanBuilder final : public LeafBuilder {
 public:
  explicit BooleanBuilder(MemoryPool* pool) : bits_(pool) {}

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    auto* typed = static_cast<BooleanDecoder*>(decoder);
    QUIVER_RETURN_NOT_OK(bits_.Resize(bit_util::BytesForBits(length_ + num_slots)));
    uint8_t* out = bits_.data();
    if (valid == nullptr) {
      QUIVER_RETURN_NOT_OK(typed->Decode(num_slots, out, length_));
    } else {
      // The values as bytes, spaced out to a byte a slot without branches
      // (a slot takes the next value or false; the value index moves on by
      // the slot's bit and stops at the last value), then packed: a bit
      // read-modify-write a slot was most of reading a column of nullable
      // booleans.
      scratch_.resize(static_cast<size_t>(num_values));
      QUIVER_RETURN_NOT_OK(
          typed->Decode(num_values, reinterpret_cast<bool*>(scratch_.data())));
      slots_.resize(static_cast<size_t>(num_slots));
      if (num_values == 0) {
        std::fill(slots_.begin(), slots_.end(), uint8_t{0});
      } else {
        const uint8_t* in = scratch_.data();
        const int64_t last = num_values - 1;
        int64_t v = 0;
        for (int64_t s = 0; s < num_slots; ++s) {
          const auto bit = static_cast<uint8_t>(bit_util::GetBit(valid, valid_offset + s));
          slots_[static_cast<size_t>(s)] = static_cast<uint8_t>(in[std::min(v, last)] & bit);
          v += bit;
        }
      }
      if (length_ % 8 == 0) {
        bitmap::PackBytes(slots_.data(), num_slots, out + length_ / 8);
      } else {
        packed_.resize(static_cast<size_t>(bit_util::BytesForBits(num_slots)));
        bitmap::PackBytes(slots_.data(), num_slots, packed_.data());
        bitmap::CopyBitmap(packed_.data(), 0, num_slots, out, length_);
      }
    }
    length_ += num_slots;
    return Status::OK();
  }

  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) override {
    const int64_t length = length_;
    length_ = 0;
    return ArrayData::Make(boolean(), length, {std::move(validity), bits_.Freeze()}, null_count);
  }

  int64_t bytes_buffered() const override { return bits_.size(); }

 private:
  MutableBuffer bits_;
  int64_t length_ = 0;
  std::vector<uint8_t> scratch_;  // the values, a byte each
  std::vector<uint8_t> slots_;    // a byte a slot
  std::vector<uint8_t> packed_;   // slots_ packed, when length_ is not on a byte
};

// ---------------------------------------------------------------------------
// Null type (INT32 UNKNOWN): only the slots count.

class NullBuilder final : public LeafBuilder {
 public:
  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t*, int64_t,
                int64_t num_values) override {
    if (num_values > 0) QUIVER_RETURN_NOT_OK(decoder->Skip(num_values));
    length_ += num_slots;
    return Status::OK();
  }
  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer>, int64_t) override {
    const int64_t length = length_;
    length_ = 0;
    return ArrayData::Make(null(), length, {}, length);
  }
  Result<std::vector<ArrayDataPtr>> FinishChunks(const std::shared_ptr<Buffer>&,
                                                 MemoryPool*) override {
    QUIVER_ASSIGN_OR_RAISE(auto array, Finish(nullptr, 0));
    return std::vector<ArrayDataPtr>{std::move(array)};
  }
  int64_t bytes_buffered() const override { return 0; }

 private:
  int64_t length_ = 0;
};

// ---------------------------------------------------------------------------
// Byte arrays into binary / string (int32 offsets): the decoder appends.

// The first of slots [0, n) (values offsets[i]..offsets[i + 1] of `data`)
// that is not UTF-8: its slot, or -1.
struct BadUtf8 {
  int64_t slot = -1;
  bool starts_inside = false;  // valid bytes, but the value starts mid-character
};

template <typename Offset>
BadUtf8 FindBadUtf8(const Offset* offsets, int64_t n, const uint8_t* data) {
  const int64_t begin = offsets[0];
  const int64_t end = offsets[n];
  bool ascii = false;
  const int64_t bad = FindInvalidUtf8(data + begin, end - begin, &ascii);
  if (bad >= 0) {
    // The value holding the bad byte.
    int64_t i = 0;
    while (i + 1 < n && offsets[i + 1] <= begin + bad) ++i;
    return {i, false};
  }
  // A valid run whose values all start on a character boundary is valid
  // value by value (an ASCII run has no byte that is not a boundary).
  if (ascii) return {};
  for (int64_t i = 0; i < n; ++i) {
    if (offsets[i] < offsets[i + 1] && IsUtf8Continuation(data[offsets[i]])) return {i, true};
  }
  return {};
}

// The index among the values of slot `slot` (a slot holding a value).
int64_t ValueOfSlot(const uint8_t* valid, int64_t valid_offset, int64_t slot) {
  return valid == nullptr ? slot : bitmap::CountSetBits(valid, valid_offset, slot);
}

// The string leaves' UTF-8 check of the slots an Append added.
class StringLeaf : public LeafBuilder {
 protected:
  explicit StringLeaf(const DataType& type) : utf8_(IsStringLike(type.id())) {}

  bool check() const { return utf8_ && checking_utf8(); }

  // Slots [0, n) of offsets, the Append's slots from `first_slot` on.
  template <typename Offset>
  Status CheckSlots(const Offset* offsets, int64_t n, const uint8_t* data, const uint8_t* valid,
                    int64_t valid_offset, int64_t first_slot = 0) {
    const BadUtf8 bad = FindBadUtf8(offsets, n, data);
    if (bad.slot < 0) return Status::OK();
    return InvalidUtf8(ValueOfSlot(valid, valid_offset, first_slot + bad.slot),
                       bad.starts_inside ? "it starts inside a character" : "");
  }

  bool utf8_;
};

// Values as views, handed to `sink(view)` slot by slot (null slots get an
// empty view and valid == false).
template <typename Sink>
Status VisitByteArraySlots(ByteArrayDecoder* decoder, std::vector<std::string_view>* views,
                           int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                           int64_t num_values, Sink&& sink) {
  views->resize(static_cast<size_t>(num_values));
  QUIVER_RETURN_NOT_OK(decoder->Decode(num_values, views->data()));
  int64_t v = 0;
  for (int64_t s = 0; s < num_slots; ++s) {
    if (valid == nullptr || bit_util::GetBit(valid, valid_offset + s)) {
      QUIVER_RETURN_NOT_OK(sink((*views)[static_cast<size_t>(v++)], true));
    } else {
      QUIVER_RETURN_NOT_OK(sink(std::string_view(), false));
    }
  }
  return Status::OK();
}

class BinaryBuilder32 final : public StringLeaf {
 public:
  BinaryBuilder32(TypePtr type, MemoryPool* pool)
      : StringLeaf(*type),
        type_(std::move(type)),
        pool_(pool),
        offsets_(pool),
        data_(pool) {}

  void set_allow_chunks(bool allow) override { allow_chunks_ = allow; }

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    auto* typed = static_cast<ByteArrayDecoder*>(decoder);
    // Value by value only where the chunk may end within these values.
    if (allow_chunks_ && typed->value_bytes_bound(num_values) > kChunkBytes - data_.size()) {
      return AppendChunked(typed, num_slots, valid, valid_offset, num_values);
    }
    const int64_t first = offsets_.empty() ? 0 : offsets_.size() / 4 - 1;
    QUIVER_RETURN_NOT_OK(typed->DecodeArrow(num_slots, valid, valid_offset, &offsets_, &data_));
    if (check() && !typed->appended_ascii()) {
      QUIVER_RETURN_NOT_OK(CheckSlots(offsets_.data_as<int32_t>() + first, num_slots,
                                      data_.data(), valid, valid_offset));
    }
    return Status::OK();
  }

  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) override {
    if (!done_.empty()) {
      return Status::CapacityError(type_->ToString(), " values of more than ", kChunkBytes,
                                   " bytes in one array");
    }
    return FinishValues(std::move(validity), null_count);
  }

  Result<std::vector<ArrayDataPtr>> FinishChunks(const std::shared_ptr<Buffer>& validity,
                                                 MemoryPool* pool) override {
    QUIVER_ASSIGN_OR_RAISE(auto last, FinishValues(nullptr, 0));
    std::vector<ArrayDataPtr> chunks = std::move(done_);
    done_.clear();
    chunks.push_back(std::move(last));
    // Each chunk's validity: its slots' bits of `validity`, copied to offset 0.
    int64_t start = 0;
    for (ArrayDataPtr& chunk : chunks) {
      if (validity != nullptr) {
        const int64_t valid = bitmap::CountSetBits(validity->data(), start, chunk->length);
        if (valid < chunk->length) {
          MutableBuffer bits(pool);
          QUIVER_RETURN_NOT_OK(bits.AppendRepeated(0, bit_util::BytesForBits(chunk->length)));
          bitmap::CopyBitmap(validity->data(), start, chunk->length, bits.data(), 0);
          chunk->buffers[0] = bits.Freeze();
          chunk->null_count = chunk->length - valid;
        }
      }
      start += chunk->length;
    }
    return chunks;
  }

  int64_t bytes_buffered() const override { return offsets_.size() + data_.size(); }
  Status Reserve(int64_t slots, int64_t value_bytes) override {
    QUIVER_RETURN_NOT_OK(offsets_.Reserve((slots + 1) * 4));
    return data_.Reserve(std::min(value_bytes, kChunkBytes - data_.size()));
  }

 private:
  // Value by value through views, ending the chunk where a value would
  // take its data past kChunkBytes (the same copies DecodeArrow makes).
  Status AppendChunked(ByteArrayDecoder* decoder, int64_t num_slots, const uint8_t* valid,
                       int64_t valid_offset, int64_t num_values) {
    if (offsets_.empty()) QUIVER_RETURN_NOT_OK(offsets_.Append(int32_t{0}));
    int64_t first = offsets_.size() / 4 - 1;
    int64_t slot = 0;        // of the Append
    int64_t first_slot = 0;  // the Append's slot at offsets_[first]
    QUIVER_RETURN_NOT_OK(offsets_.Reserve(num_slots * 4));
    Status st = VisitByteArraySlots(
        decoder, &views_, num_slots, valid, valid_offset, num_values,
        [&](std::string_view value, bool) -> Status {
          const int64_t size = static_cast<int64_t>(value.size());
          if (data_.size() + size > kChunkBytes && data_.size() > 0) {
            if (check()) {
              QUIVER_RETURN_NOT_OK(CheckSlots(offsets_.data_as<int32_t>() + first,
                                              offsets_.size() / 4 - 1 - first, data_.data(),
                                              valid, valid_offset, first_slot));
            }
            first_slot = slot;
            QUIVER_ASSIGN_OR_RAISE(auto chunk, FinishValues(nullptr, 0));
            done_.push_back(std::move(chunk));
            offsets_ = MutableBuffer(pool_);
            data_ = MutableBuffer(pool_);
            QUIVER_RETURN_NOT_OK(offsets_.Append(int32_t{0}));
            QUIVER_RETURN_NOT_OK(offsets_.Reserve(num_slots * 4));
            first = 0;
          }
          if (size > INT32_MAX - data_.size()) {
            return Status::CapacityError("a BYTE_ARRAY value of ", size, " bytes");
          }
          ++slot;
          QUIVER_RETURN_NOT_OK(data_.ExtendFromSlice(value.data(), size));
          return offsets_.Append(static_cast<int32_t>(data_.size()));
        });
    QUIVER_RETURN_NOT_OK(st);
    if (check()) {
      QUIVER_RETURN_NOT_OK(CheckSlots(offsets_.data_as<int32_t>() + first,
                                      offsets_.size() / 4 - 1 - first, data_.data(), valid,
                                      valid_offset, first_slot));
    }
    return Status::OK();
  }

  Result<ArrayDataPtr> FinishValues(std::shared_ptr<Buffer> validity, int64_t null_count) {
    if (offsets_.empty()) QUIVER_RETURN_NOT_OK(offsets_.Append(int32_t{0}));
    const int64_t length = offsets_.size() / 4 - 1;
    auto offsets = offsets_.Freeze();
    auto data = data_.Freeze();
    return ArrayData::Make(type_, length, {std::move(validity), std::move(offsets), std::move(data)},
                           null_count);
  }

  TypePtr type_;
  MemoryPool* pool_;
  bool allow_chunks_ = false;
  MutableBuffer offsets_;
  MutableBuffer data_;
  std::vector<ArrayDataPtr> done_;  // chunks ended at kChunkBytes
  std::vector<std::string_view> views_;
};

// large_binary / large_string (int64 offsets): the decoder appends.
class LargeBinaryLeaf final : public StringLeaf {
 public:
  LargeBinaryLeaf(TypePtr type, MemoryPool* pool)
      : StringLeaf(*type), type_(std::move(type)), offsets_(pool), data_(pool) {}

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    const int64_t first = offsets_.empty() ? 0 : offsets_.size() / 8 - 1;
    auto* typed = static_cast<ByteArrayDecoder*>(decoder);
    QUIVER_RETURN_NOT_OK(
        typed->DecodeArrowLarge(num_slots, valid, valid_offset, &offsets_, &data_));
    if (check() && !typed->appended_ascii()) {
      QUIVER_RETURN_NOT_OK(CheckSlots(offsets_.data_as<int64_t>() + first, num_slots,
                                      data_.data(), valid, valid_offset));
    }
    return Status::OK();
  }

  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) override {
    if (offsets_.empty()) QUIVER_RETURN_NOT_OK(offsets_.Append(int64_t{0}));
    const int64_t length = offsets_.size() / 8 - 1;
    auto offsets = offsets_.Freeze();
    auto data = data_.Freeze();
    return ArrayData::Make(type_, length, {std::move(validity), std::move(offsets), std::move(data)},
                           null_count);
  }

  int64_t bytes_buffered() const override { return offsets_.size() + data_.size(); }
  Status Reserve(int64_t slots, int64_t value_bytes) override {
    QUIVER_RETURN_NOT_OK(offsets_.Reserve((slots + 1) * 8));
    return data_.Reserve(value_bytes);
  }

 private:
  TypePtr type_;
  MutableBuffer offsets_;
  MutableBuffer data_;
};

// binary_view / string_view through the
// array builders (empty values in null slots; the validity is the column
// reader's).
template <typename B>
class BuilderBackedBinary final : public StringLeaf {
 public:
  BuilderBackedBinary(TypePtr type, MemoryPool* pool)
      : StringLeaf(*type), type_(type), builder_(MakeBuilder(type, pool)) {}

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    int64_t index = 0;  // of the values
    return VisitByteArraySlots(
        static_cast<ByteArrayDecoder*>(decoder), &views_, num_slots, valid, valid_offset,
        num_values, [&](std::string_view value, bool is_valid) -> Status {
          if (is_valid && check() && !IsValidUtf8(value)) {
            QUIVER_RETURN_NOT_OK(InvalidUtf8(index));
          }
          index += is_valid;
          bytes_ += static_cast<int64_t>(value.size());
          return builder_->Append(value);
        });
  }

  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) override {
    QUIVER_ASSIGN_OR_RAISE(auto data, builder_->Finish());
    data->type = type_;
    data->buffers[0] = std::move(validity);
    data->null_count = null_count;
    bytes_ = 0;
    return data;
  }

  int64_t bytes_buffered() const override { return bytes_; }

 private:
  static std::unique_ptr<B> MakeBuilder(const TypePtr& type, MemoryPool* pool) {
    if constexpr (std::is_same_v<B, BinaryViewBuilder>) {
      return std::make_unique<B>(type, pool);
    } else {
      return std::make_unique<B>(pool);
    }
  }

  TypePtr type_;
  std::unique_ptr<B> builder_;
  std::vector<std::string_view> views_;
  int64_t bytes_ = 0;
};

// ---------------------------------------------------------------------------
// Fixed-length byte arrays: fixed_size_binary, float16, decimals.

class FixedBytesBuilder final : public FixedWidthLeaf {
 public:
  FixedBytesBuilder(TypePtr type, int width, MemoryPool* pool)
      : FixedWidthLeaf(std::move(type), width, pool) {}

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    auto* typed = static_cast<FixedLenByteArrayDecoder*>(decoder);
    QUIVER_RETURN_NOT_OK(values_.Reserve(num_slots * width_));
    uint8_t* out = values_.data() + values_.size();
    if (valid == nullptr || num_values == num_slots) {
      QUIVER_RETURN_NOT_OK(typed->Decode(num_values, out));
    } else {
      // The values at the end of the slots, then spaced out forward (see
      // spaced_internal.h), null slots zeroed.
      uint8_t* tail = out + (num_slots - num_values) * width_;
      QUIVER_RETURN_NOT_OK(typed->Decode(num_values, tail));
      ExpandSpaced(width_, tail, num_values, valid, valid_offset, num_slots, out);
    }
    values_.UnsafeSetSize(values_.size() + num_slots * width_);
    return Status::OK();
  }
};

// A big-endian two's complement integer of `length` bytes (1..out_width)
// into `out_width` little-endian bytes, sign-extended.
void BigEndianToDecimal(const uint8_t* in, int64_t length, uint8_t* out, int out_width) {
  const bool negative = length > 0 && (in[0] & 0x80) != 0;
  for (int64_t i = 0; i < length; ++i) out[i] = in[length - 1 - i];
  std::memset(out + length, negative ? 0xFF : 0, static_cast<size_t>(out_width - length));
}

// Decimals stored big-endian in FLBA or BYTE_ARRAY.
class BigEndianDecimalBuilder final : public FixedWidthLeaf {
 public:
  BigEndianDecimalBuilder(TypePtr type, format::Type physical, int type_length, MemoryPool* pool)
      : FixedWidthLeaf(type, type->byte_width(), pool),
        physical_(physical),
        type_length_(type_length) {}

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    QUIVER_RETURN_NOT_OK(values_.Reserve(num_slots * width_));
    uint8_t* out = values_.data() + values_.size();
    if (physical_ == format::Type::kFixedLenByteArray) {
      scratch_.resize(static_cast<size_t>(num_values * type_length_));
      QUIVER_RETURN_NOT_OK(
          static_cast<FixedLenByteArrayDecoder*>(decoder)->Decode(num_values, scratch_.data()));
      int64_t v = 0;
      for (int64_t s = 0; s < num_slots; ++s) {
        if (valid == nullptr || bit_util::GetBit(valid, valid_offset + s)) {
          BigEndianToDecimal(scratch_.data() + (v++) * type_length_, type_length_, out + s * width_,
                             width_);
        } else {
          std::memset(out + s * width_, 0, static_cast<size_t>(width_));
        }
      }
    } else {
      int64_t s = 0;
      QUIVER_RETURN_NOT_OK(VisitByteArraySlots(
          static_cast<ByteArrayDecoder*>(decoder), &views_, num_slots, valid, valid_offset,
          num_values, [&](std::string_view value, bool) -> Status {
            if (static_cast<int64_t>(value.size()) > width_) {
              return Status::Invalid("a decimal value of ", value.size(),
                                     " bytes does not fit in ", type_->ToString());
            }
            BigEndianToDecimal(reinterpret_cast<const uint8_t*>(value.data()),
                               static_cast<int64_t>(value.size()), out + (s++) * width_, width_);
            return Status::OK();
          }));
    }
    values_.UnsafeSetSize(values_.size() + num_slots * width_);
    return Status::OK();
  }

 private:
  format::Type physical_;
  int type_length_;
  std::vector<uint8_t> scratch_;
  std::vector<std::string_view> views_;
};

// ---------------------------------------------------------------------------
// Dictionary columns (read_dictionary, or dictionary types from
// ARROW:schema), int32 indices narrowed at Finish. Two ways to a batch's
// dictionary:
// - adopted: while the batch's values all come from dictionary-encoded
//   pages of one page dictionary, the batch's dictionary is that page's
//   values as they are and the page's indices pass through unmapped (as
//   pyarrow and arrow-rs read them). The Arrow dictionary shares the
//   decoder's buffers (Decoder::dictionary_buffers) and the batches of the
//   column chunk share it. Only a page dictionary that is valid as a whole
//   (UTF-8 for strings, indexable by the index type) is adopted;
// - memo: otherwise (PLAIN pages after a dictionary fallback, a batch
//   crossing a new dictionary, a page dictionary not adopted) values are
//   looked up in a memo table and the dictionary holds every distinct value
//   of the batch in order of first use. A batch leaving the adopted way
//   first inserts the adopted values into the memo, in order.

class DictionaryBuilder final : public LeafBuilder {
 public:
  DictionaryBuilder(TypePtr type, format::Type physical, int type_length, MemoryPool* pool)
      : type_(std::move(type)),
        physical_(physical),
        type_length_(type_length),
        pool_(pool),
        indices_(pool),
        memo_(pool) {}

  void DictionaryChanged() override {
    remap_.clear();
    identity_prefix_ = 0;
    adopted_current_ = false;
    adopt_tried_ = false;
    // The batch's indices so far may point into the adopted dictionary.
    if (mode_ != Mode::kAdopted) adopted_.reset();
  }

  Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                int64_t num_values) override {
    QUIVER_RETURN_NOT_OK(indices_.Reserve(num_slots * 4));
    if (decoder->encoding() == format::Encoding::kRleDictionary ||
        decoder->encoding() == format::Encoding::kPlainDictionary) {
      if (mode_ != Mode::kMemo) {
        QUIVER_ASSIGN_OR_RAISE(const bool adopted, Adopt(decoder));
        if (adopted) return AppendAdopted(decoder, num_slots, valid, valid_offset, num_values);
      }
      QUIVER_RETURN_NOT_OK(UseMemo());
      return AppendIndices(decoder, num_slots, valid, valid_offset, num_values);
    }
    QUIVER_RETURN_NOT_OK(UseMemo());
    const bool utf8 = IsStringLike(TypeAs<DictionaryType>(*type_).value_type()->id());
    int64_t value_index = 0;
    auto put = [&](std::string_view value, bool is_valid) -> Status {
      int32_t index = 0;
      if (is_valid) {
        bool inserted = false;
        QUIVER_ASSIGN_OR_RAISE(index, memo_.GetOrInsert(value, &inserted));
        if (inserted && utf8 && checking_utf8() && !IsValidUtf8(value)) {
          QUIVER_RETURN_NOT_OK(InvalidUtf8(value_index));
        }
        ++value_index;
      }
      indices_.UnsafeAppend(index);
      return Status::OK();
    };
    if (physical_ == format::Type::kByteArray) {
      return VisitByteArraySlots(static_cast<ByteArrayDecoder*>(decoder), &views_, num_slots,
                                 valid, valid_offset, num_values, put);
    }
    scratch_.resize(static_cast<size_t>(num_values * type_length_));
    QUIVER_RETURN_NOT_OK(
        static_cast<FixedLenByteArrayDecoder*>(decoder)->Decode(num_values, scratch_.data()));
    int64_t v = 0;
    for (int64_t s = 0; s < num_slots; ++s) {
      if (valid == nullptr || bit_util::GetBit(valid, valid_offset + s)) {
        QUIVER_RETURN_NOT_OK(put(std::string_view(reinterpret_cast<const char*>(scratch_.data()) +
                                                      (v++) * type_length_,
                                                  static_cast<size_t>(type_length_)),
                                 true));
      } else {
        QUIVER_RETURN_NOT_OK(put(std::string_view(), false));
      }
    }
    return Status::OK();
  }

  Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) override {
    const auto& dict_type = TypeAs<DictionaryType>(*type_);
    const TypePtr& value_type = dict_type.value_type();
    ArrayDataPtr dictionary;
    if (mode_ == Mode::kAdopted) {
      // (Adopt checked that the index type addresses every entry.)
      const int64_t length = indices_.size() / 4;
      QUIVER_ASSIGN_OR_RAISE(auto indices, NarrowIndices(dict_type.index_type()->id(), length));
      auto data =
          ArrayData::Make(type_, length, {std::move(validity), std::move(indices)}, null_count);
      data->dictionary = adopted_;
      mode_ = Mode::kEmpty;
      if (!adopted_current_) adopted_.reset();
      return data;
    }
    mode_ = Mode::kEmpty;
    if (memo_.size() == 0 && indices_.size() > 0) {
      // Slots without values only (e.g. a non-nullable leaf under null
      // parents, whose index 0 is not masked): give index 0 a value.
      std::string_view empty;
      std::string zeros;
      if (value_type->id() == Type::kFixedSizeBinary) {
        zeros.assign(static_cast<size_t>(type_length_), '\0');
        empty = zeros;
      }
      QUIVER_RETURN_NOT_OK(memo_.GetOrInsert(empty).status());
    }
    const int64_t n = memo_.size();
    if (value_type->id() == Type::kFixedSizeBinary) {
      MutableBuffer values(pool_);
      QUIVER_RETURN_NOT_OK(values.Reserve(memo_.data_length()));
      values.UnsafeExtendFromSlice(memo_.data(), memo_.data_length());
      dictionary = ArrayData::Make(value_type, n, {nullptr, values.Freeze()}, 0);
    } else if (IsLargeBinaryLike(value_type->id())) {
      MutableBuffer offsets(pool_);
      MutableBuffer values(pool_);
      QUIVER_RETURN_NOT_OK(offsets.Reserve((n + 1) * 8));
      offsets.UnsafeExtendFromSlice(memo_.offsets(), (n + 1) * 8);
      QUIVER_RETURN_NOT_OK(values.ExtendFromSlice(memo_.data(), memo_.data_length()));
      dictionary =
          ArrayData::Make(value_type, n, {nullptr, offsets.Freeze(), values.Freeze()}, 0);
    } else {
      if (memo_.data_length() > INT32_MAX) {
        return Status::CapacityError("the dictionary of ", type_->ToString(), " holds ",
                                     memo_.data_length(), " bytes, more than int32 offsets allow");
      }
      MutableBuffer offsets(pool_);
      MutableBuffer values(pool_);
      QUIVER_RETURN_NOT_OK(offsets.Reserve((n + 1) * 4));
      for (int64_t i = 0; i <= n; ++i) {
        offsets.UnsafeAppend(static_cast<int32_t>(memo_.offsets()[i]));
      }
      QUIVER_RETURN_NOT_OK(values.ExtendFromSlice(memo_.data(), memo_.data_length()));
      dictionary =
          ArrayData::Make(value_type, n, {nullptr, offsets.Freeze(), values.Freeze()}, 0);
    }
    const int64_t length = indices_.size() / 4;
    QUIVER_ASSIGN_OR_RAISE(auto indices, NarrowIndices(dict_type.index_type()->id(), length));
    // Each batch has its own dictionary: the values it uses, in order of
    // first use (memory stays bounded by the batch).
    memo_.Clear();
    remap_.clear();
    identity_prefix_ = 0;
    auto data =
        ArrayData::Make(type_, length, {std::move(validity), std::move(indices)}, null_count);
    data->dictionary = std::move(dictionary);
    return data;
  }

  int64_t bytes_buffered() const override {
    return indices_.size() + memo_.memory_used() + (mode_ == Mode::kAdopted ? adopted_bytes_ : 0);
  }
  Status Reserve(int64_t slots, int64_t) override { return indices_.Reserve(slots * 4); }

 private:
  // The largest index the dictionary type's index type holds.
  static uint64_t IndexLimit(Type index_type) {
    switch (index_type) {
      case Type::kInt8: return std::numeric_limits<int8_t>::max();
      case Type::kUInt8: return std::numeric_limits<uint8_t>::max();
      case Type::kInt16: return std::numeric_limits<int16_t>::max();
      case Type::kUInt16: return std::numeric_limits<uint16_t>::max();
      default: return std::numeric_limits<int32_t>::max();  // the int32 indices
    }
  }

  // Whether the batch can take the decoder's page dictionary as its own
  // (building the Arrow dictionary on the first try per page dictionary).
  Result<bool> Adopt(const Decoder* decoder) {
    if (adopted_current_) return true;
    // Indices of another page dictionary already in the batch, or this one
    // tried and not adoptable.
    if (mode_ == Mode::kAdopted || adopt_tried_) return false;
    adopt_tried_ = true;
    adopted_.reset();
    const auto& dict_type = TypeAs<DictionaryType>(*type_);
    const TypePtr& value_type = dict_type.value_type();
    const int64_t n = decoder->dictionary_length();
    if (n == 0 || static_cast<uint64_t>(n - 1) > IndexLimit(dict_type.index_type()->id())) {
      return false;
    }
    const Decoder::DictionaryBuffers page = decoder->dictionary_buffers();
    if (page.data == nullptr) return false;
    if (value_type->id() == Type::kFixedSizeBinary) {
      adopted_ = ArrayData::Make(value_type, n, {nullptr, page.data}, 0);
      adopted_bytes_ = page.data->size();
    } else {
      if (page.offsets == nullptr) return false;
      const int32_t* ends = page.offsets->data_as<int32_t>();
      // Not valid UTF-8 as a whole: the memo way checks only the entries
      // the batch uses.
      if (IsStringLike(value_type->id()) && !page.ascii &&
          FindBadUtf8(ends, n, page.data->data()).slot >= 0) {
        return false;
      }
      std::shared_ptr<Buffer> offsets = page.offsets;
      if (IsLargeBinaryLike(value_type->id())) {
        MutableBuffer wide(pool_);
        QUIVER_RETURN_NOT_OK(wide.Reserve((n + 1) * 8));
        for (int64_t i = 0; i <= n; ++i) wide.UnsafeAppend(static_cast<int64_t>(ends[i]));
        offsets = wide.Freeze();
      }
      adopted_bytes_ = offsets->size() + page.data->size();
      adopted_ = ArrayData::Make(value_type, n, {nullptr, std::move(offsets), page.data}, 0);
    }
    adopted_current_ = true;
    return true;
  }

  // A dictionary-encoded page of the adopted dictionary: its indices as
  // they are (null slots: index 0).
  Status AppendAdopted(Decoder* decoder, int64_t num_slots, const uint8_t* valid,
                       int64_t valid_offset, int64_t num_values) {
    mode_ = Mode::kAdopted;
    int32_t* out = reinterpret_cast<int32_t*>(indices_.data() + indices_.size());
    if (valid == nullptr) {
      QUIVER_RETURN_NOT_OK(decoder->DecodeIndices(num_slots, out));
    } else {
      page_indices_.resize(static_cast<size_t>(num_values));
      QUIVER_RETURN_NOT_OK(decoder->DecodeIndices(num_values, page_indices_.data()));
      const int32_t* in = page_indices_.data();
      std::memset(out, 0, static_cast<size_t>(num_slots) * 4);
      bitmap::VisitSetBitRuns(valid, valid_offset, num_slots, [&](int64_t pos, int64_t len) {
        std::memcpy(out + pos, in, static_cast<size_t>(len) * 4);
        in += len;
      });
    }
    indices_.UnsafeSetSize(indices_.size() + num_slots * 4);
    return Status::OK();
  }

  // The batch goes on the memo way; a batch on the adopted way first puts
  // the adopted values into the memo in order (and maps its indices when
  // the page dictionary repeats a value).
  Status UseMemo() {
    if (mode_ == Mode::kAdopted) {
      const ArrayData& dict = *adopted_;
      const int64_t n = dict.length;
      std::vector<int32_t> to_memo(static_cast<size_t>(n));
      bool identity = true;
      for (int64_t i = 0; i < n; ++i) {
        std::string_view value;
        if (dict.type->id() == Type::kFixedSizeBinary) {
          value = std::string_view(
              reinterpret_cast<const char*>(dict.buffers[1]->data()) + i * type_length_,
              static_cast<size_t>(type_length_));
        } else if (IsLargeBinaryLike(dict.type->id())) {
          const int64_t* o = dict.buffers[1]->data_as<int64_t>();
          value = std::string_view(reinterpret_cast<const char*>(dict.buffers[2]->data()) + o[i],
                                   static_cast<size_t>(o[i + 1] - o[i]));
        } else {
          const int32_t* o = dict.buffers[1]->data_as<int32_t>();
          value = std::string_view(reinterpret_cast<const char*>(dict.buffers[2]->data()) + o[i],
                                   static_cast<size_t>(o[i + 1] - o[i]));
        }
        QUIVER_ASSIGN_OR_RAISE(to_memo[static_cast<size_t>(i)], memo_.GetOrInsert(value));
        identity = identity && to_memo[static_cast<size_t>(i)] == i;
      }
      if (!identity) {
        int32_t* idx = reinterpret_cast<int32_t*>(indices_.data());
        for (int64_t i = 0, m = indices_.size() / 4; i < m; ++i) idx[i] = to_memo[idx[i]];
      }
      if (adopted_current_) {
        // The page dictionary's entries already have their memo indices.
        identity_prefix_ = 0;
        while (identity_prefix_ < n &&
               to_memo[static_cast<size_t>(identity_prefix_)] == identity_prefix_) {
          ++identity_prefix_;
        }
        remap_ = std::move(to_memo);
      } else {
        adopted_.reset();
      }
    }
    mode_ = Mode::kMemo;
    return Status::OK();
  }

  // The memo's index of the page dictionary's entry `entry`, inserted on
  // its first use in the batch.
  Result<int32_t> FirstUse(const Decoder* decoder, int32_t entry) {
    const std::string_view value = decoder->dictionary_entry(entry);
    bool inserted = false;
    QUIVER_ASSIGN_OR_RAISE(int32_t index, memo_.GetOrInsert(value, &inserted));
    if (inserted && IsStringLike(TypeAs<DictionaryType>(*type_).value_type()->id()) &&
        checking_utf8() && !IsValidUtf8(value)) {
      QUIVER_RETURN_NOT_OK(InvalidUtf8Entry(entry));
    }
    remap_[static_cast<size_t>(entry)] = index;
    if (index == entry && entry == identity_prefix_) ++identity_prefix_;
    return index;
  }

  // A dictionary-encoded page: its indices mapped to the batch's
  // dictionary through remap_ (the page dictionary's entry -> the memo's
  // index, -1 until first used), so each distinct entry is hashed once per
  // batch and every value costs a table lookup.
  Status AppendIndices(Decoder* decoder, int64_t num_slots, const uint8_t* valid,
                       int64_t valid_offset, int64_t num_values) {
    const int64_t entries = decoder->dictionary_length();
    if (static_cast<int64_t>(remap_.size()) != entries) {
      remap_.assign(static_cast<size_t>(entries), -1);
      identity_prefix_ = 0;
    }
    int32_t* remap = remap_.data();
    int32_t* out = reinterpret_cast<int32_t*>(indices_.data() + indices_.size());
    // Maps in[0, n) to out[0, n).
    auto map_run = [&](const int32_t* from, int32_t* to, int64_t n) -> Status {
      for (int64_t i = 0; i < n; ++i) {
        int32_t index = remap[from[i]];
        if (QUIVER_PREDICT_FALSE(index < 0)) {
          QUIVER_ASSIGN_OR_RAISE(index, FirstUse(decoder, from[i]));
        }
        to[i] = index;
      }
      return Status::OK();
    };
    if (valid == nullptr) {
      // Straight into the batch's indices; mapped in place unless every
      // index is in the identity prefix.
      QUIVER_RETURN_NOT_OK(decoder->DecodeIndices(num_slots, out));
      // (Checked indices are below the dictionary's size: non-negative.)
      const bool identity =
          num_slots == 0 || MaxIndex(reinterpret_cast<const uint32_t*>(out), num_slots) <
                                static_cast<uint32_t>(identity_prefix_);
      if (!identity) QUIVER_RETURN_NOT_OK(map_run(out, out, num_slots));
    } else {
      page_indices_.resize(static_cast<size_t>(num_values));
      QUIVER_RETURN_NOT_OK(decoder->DecodeIndices(num_values, page_indices_.data()));
      const int32_t* in = page_indices_.data();
      std::memset(out, 0, static_cast<size_t>(num_slots) * 4);  // null slots: index 0
      Status status;
      bitmap::VisitSetBitRuns(valid, valid_offset, num_slots, [&](int64_t pos, int64_t len) {
        if (status.ok()) status = map_run(in, out + pos, len);
        in += len;
      });
      QUIVER_RETURN_NOT_OK(status);
    }
    indices_.UnsafeSetSize(indices_.size() + num_slots * 4);
    return Status::OK();
  }

  // The int32 indices in the dictionary type's index type (ARROW:schema
  // keeps the writer's, e.g. int8); CapacityError when the dictionary has
  // more values than that type can index.
  template <typename I>
  Result<std::shared_ptr<Buffer>> Narrow(int64_t length) {
    if (memo_.size() > 0 &&
        static_cast<uint64_t>(memo_.size() - 1) > static_cast<uint64_t>(std::numeric_limits<I>::max())) {
      return Status::CapacityError("the dictionary of ", type_->ToString(), " has ", memo_.size(),
                                   " values, more than its index type can address");
    }
    MutableBuffer out(pool_);
    QUIVER_RETURN_NOT_OK(out.Reserve(length * static_cast<int64_t>(sizeof(I))));
    const int32_t* in = indices_.data_as<int32_t>();
    for (int64_t i = 0; i < length; ++i) out.UnsafeAppend(static_cast<I>(in[i]));
    indices_.Clear();
    return out.Freeze();
  }
  Result<std::shared_ptr<Buffer>> NarrowIndices(Type index_type, int64_t length) {
    switch (index_type) {
      case Type::kInt8: return Narrow<int8_t>(length);
      case Type::kUInt8: return Narrow<uint8_t>(length);
      case Type::kInt16: return Narrow<int16_t>(length);
      case Type::kUInt16: return Narrow<uint16_t>(length);
      case Type::kUInt32: return Narrow<uint32_t>(length);
      case Type::kInt64: return Narrow<int64_t>(length);
      case Type::kUInt64: return Narrow<uint64_t>(length);
      default: return indices_.Freeze();
    }
  }


 private:
  TypePtr type_;
  format::Type physical_;
  int type_length_;
  MemoryPool* pool_;
  MutableBuffer indices_;
  quiver::internal::BinaryMemoTable memo_;
  std::vector<std::string_view> views_;
  std::vector<int32_t> remap_;         // see AppendIndices
  // Entries [0, identity_prefix_) of the page dictionary are the memo's
  // first values in the same order (a writer's dictionary in order of
  // first use): their indices need no mapping.
  int32_t identity_prefix_ = 0;
  std::vector<int32_t> page_indices_;  // AppendIndices' scratch
  std::vector<uint8_t> scratch_;
  // The batch's way so far (kEmpty: no slot yet).
  enum class Mode { kEmpty, kAdopted, kMemo };
  Mode mode_ = Mode::kEmpty;
  ArrayDataPtr adopted_;          // an adopted page dictionary, as an Arrow array
  int64_t adopted_bytes_ = 0;
  bool adopted_current_ = false;  // adopted_ holds the current page dictionary
  bool adopt_tried_ = false;      // Adopt ran for the current page dictionary
};

}  // namespace

namespace {

constexpr std::string_view kUtf8Hint =
    " (the reader option invalid_utf8='binary' reads such a column as binary)";

}  // namespace

Status LeafBuilder::InvalidUtf8(int64_t value, std::string_view what) {
  if (record_invalid_utf8_) {
    saw_invalid_utf8_ = true;
    return Status::OK();
  }
  return Status::Invalid("invalid UTF-8 in string value ", page_values_before_ + value,
                         " of the page", what.empty() ? "" : " (", what, what.empty() ? "" : ")",
                         kUtf8Hint);
}

Status LeafBuilder::InvalidUtf8Entry(int64_t entry) {
  if (record_invalid_utf8_) {
    saw_invalid_utf8_ = true;
    return Status::OK();
  }
  return Status::Invalid("invalid UTF-8 in entry ", entry,
                         " of the page dictionary, a string value of the page", kUtf8Hint);
}

Result<std::vector<ArrayDataPtr>> LeafBuilder::FinishChunks(const std::shared_ptr<Buffer>& validity,
                                                           MemoryPool*) {
  int64_t nulls = 0;
  QUIVER_ASSIGN_OR_RAISE(auto array, Finish(validity, 0));
  if (validity != nullptr) {
    nulls = array->length - bitmap::CountSetBits(validity->data(), 0, array->length);
  }
  array->null_count = nulls;
  if (nulls == 0) array->buffers[0] = nullptr;
  return std::vector<ArrayDataPtr>{std::move(array)};
}

namespace {

Status Unsupported(const ColumnDescriptor& column, const DataType& type) {
  return Status::Invalid("column '", column.path, "': cannot read ",
                         format::EnumName(column.physical_type), " values as ", type.ToString());
}

}  // namespace

Result<std::unique_ptr<LeafBuilder>> MakeLeafBuilder(const ColumnDescriptor& column,
                                                     const TypePtr& type, MemoryPool* pool) {
  const Type id = type->id();
  if (id == Type::kNull) return std::unique_ptr<LeafBuilder>(new NullBuilder());
  switch (column.physical_type) {
    case format::Type::kBoolean:
      if (id == Type::kBool) return std::unique_ptr<LeafBuilder>(new BooleanBuilder(pool));
      break;
    case format::Type::kInt32:
      switch (id) {
        case Type::kInt32:
        case Type::kUInt32:
        case Type::kDate32:
        case Type::kTime32:
        case Type::kDecimal32:
          return MakeCopy<int32_t, int32_t>(type, pool);
        case Type::kInt8:
          return MakeFixed<int32_t, int8_t>(type, pool, [](int32_t v) { return static_cast<int8_t>(v); });
        case Type::kUInt8:
          return MakeFixed<int32_t, uint8_t>(type, pool, [](int32_t v) { return static_cast<uint8_t>(v); });
        case Type::kInt16:
          return MakeFixed<int32_t, int16_t>(type, pool, [](int32_t v) { return static_cast<int16_t>(v); });
        case Type::kUInt16:
          return MakeFixed<int32_t, uint16_t>(type, pool,
                                              [](int32_t v) { return static_cast<uint16_t>(v); });
        case Type::kDate64:
          return MakeFixed<int32_t, int64_t>(type, pool,
                                             [](int32_t v) { return int64_t{v} * kMillisPerDay; });
        case Type::kDecimal64:
          return MakeFixed<int32_t, int64_t>(type, pool, [](int32_t v) { return int64_t{v}; });
        case Type::kDecimal128:
          return MakeFixed<int32_t, DecimalWords<2>>(type, pool, ExtendDecimal<2, int32_t>);
        case Type::kDecimal256:
          return MakeFixed<int32_t, DecimalWords<4>>(type, pool, ExtendDecimal<4, int32_t>);
        default:
          break;
      }
      break;
    case format::Type::kInt64:
      switch (id) {
        case Type::kInt64:
        case Type::kUInt64:
        case Type::kTimestamp:
        case Type::kTime64:
        case Type::kDuration:
        case Type::kDecimal64:
        case Type::kDate64:
          return MakeCopy<int64_t, int64_t>(type, pool);
        case Type::kDecimal32:
          return MakeFixed<int64_t, int32_t>(type, pool, [](int64_t v) { return static_cast<int32_t>(v); });
        case Type::kDecimal128:
          return MakeFixed<int64_t, DecimalWords<2>>(type, pool, ExtendDecimal<2, int64_t>);
        case Type::kDecimal256:
          return MakeFixed<int64_t, DecimalWords<4>>(type, pool, ExtendDecimal<4, int64_t>);
        default:
          break;
      }
      break;
    case format::Type::kInt96:
      if (id == Type::kTimestamp) {
        const TimeUnit unit = TypeAs<TemporalType>(*type).unit();
        return MakeFixed<Int96, int64_t>(type, pool,
                                         [unit](const Int96& v) { return Int96ToTimestamp(v, unit); });
      }
      break;
    case format::Type::kFloat:
      if (id == Type::kFloat) return MakeCopy<float, float>(type, pool);
      break;
    case format::Type::kDouble:
      if (id == Type::kDouble) return MakeCopy<double, double>(type, pool);
      break;
    case format::Type::kFixedLenByteArray:
      if (id == Type::kFixedSizeBinary &&
          TypeAs<FixedSizeBinaryType>(*type).fixed_byte_width() == column.type_length) {
        return std::unique_ptr<LeafBuilder>(new FixedBytesBuilder(type, column.type_length, pool));
      }
      if (id == Type::kHalfFloat && column.type_length == 2) {
        return std::unique_ptr<LeafBuilder>(new FixedBytesBuilder(type, 2, pool));
      }
      if (IsDecimal(id)) {
        if (column.type_length > type->byte_width()) break;
        return std::unique_ptr<LeafBuilder>(
            new BigEndianDecimalBuilder(type, column.physical_type, column.type_length, pool));
      }
      if (id == Type::kDictionary &&
          TypeAs<DictionaryType>(*type).value_type()->id() == Type::kFixedSizeBinary) {
        return std::unique_ptr<LeafBuilder>(
            new DictionaryBuilder(type, column.physical_type, column.type_length, pool));
      }
      break;
    case format::Type::kByteArray:
      switch (id) {
        case Type::kBinary:
        case Type::kString:
          return std::unique_ptr<LeafBuilder>(new BinaryBuilder32(type, pool));
        case Type::kLargeBinary:
          return std::unique_ptr<LeafBuilder>(new LargeBinaryLeaf(type, pool));
        case Type::kLargeString:
          return std::unique_ptr<LeafBuilder>(new LargeBinaryLeaf(type, pool));
        case Type::kBinaryView:
        case Type::kStringView:
          return std::unique_ptr<LeafBuilder>(new BuilderBackedBinary<BinaryViewBuilder>(type, pool));
        case Type::kDecimal32:
        case Type::kDecimal64:
        case Type::kDecimal128:
        case Type::kDecimal256:
          return std::unique_ptr<LeafBuilder>(
              new BigEndianDecimalBuilder(type, column.physical_type, 0, pool));
        case Type::kDictionary: {
          const Type value = TypeAs<DictionaryType>(*type).value_type()->id();
          if (IsBinaryLike(value) && !IsBinaryView(value)) {
            return std::unique_ptr<LeafBuilder>(
                new DictionaryBuilder(type, column.physical_type, 0, pool));
          }
          break;
        }
        default:
          break;
      }
      break;
  }
  return Unsupported(column, *type);
}

}  // namespace quiver::parquet::internal
