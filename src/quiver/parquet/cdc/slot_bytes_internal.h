// The bytes of a leaf slot per Arrow layout, as the content-defined chunker
// feeds them to the gear hash (docs/cdc.md, "What is fed to the hash"), and
// VisitBytes, which picks the layout of a leaf once per call. Not installed.
#pragma once

#include <cstdint>
#include <cstring>

#include "quiver/array/array_data.h"
#include "quiver/parquet/cdc/gear_roll_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/status.h"

namespace quiver::parquet::cdc::internal {

// Layouts whose bytes lie in one buffer, slot after slot (see ContiguousCuts).
template <typename Bytes>
concept ContiguousLayout = requires(const Bytes& b) { b.Data(); };

// --- The bytes of leaf slot i, per Arrow layout ---------------------------------
// (docs/cdc.md, "What is fed to the hash"). Slots are logical indices: the
// array's offset is applied once, in the pointers. Each layout provides
//   Length(i)                 the number of bytes,
//   Roll(table, threshold, i, h)  rolls them (gear_roll_internal.h),
//   Skip(k, n, limit, &size)  the first slot j in [k, n) whose bytes bring
//                             size + (bytes of slots k..j) to >= limit,
//                             having added the bytes of k..j-1 to size
//                             (n, with all of them added, if none does).

// Fixed width W known at compile time (1, 2, 4, 8 bytes; dictionary indices).
template <int W>
struct FixedBytes {
  static constexpr int kWidth = W;
  const uint8_t* values;
  static int64_t Length(int64_t) { return W; }
  uint64_t Roll(const uint64_t* table, uint64_t threshold, int64_t i, uint64_t& h) const {
    return RollFixed<W>(table, values + i * W, threshold, h);
  }
  static int64_t Skip(int64_t k, int64_t n, int64_t limit, int64_t* size) {
    // Slots whose bytes keep size below limit: (limit - size - 1) / W.
    const int64_t skip = std::min((limit - *size - 1) / W, n - k);
    *size += skip * W;
    return k + skip;
  }
  // Contiguous layout (ContiguousCuts): the bytes of slot k start at
  // Data() + Begin(k); SlotAt(b, lo, hi) is the slot in [lo, hi) whose bytes
  // hold byte b.
  const uint8_t* Data() const { return values; }
  static int64_t Begin(int64_t k) { return k * W; }
  static int64_t SlotAt(int64_t b, int64_t, int64_t) { return b / W; }
};

// Fixed width known at run time (decimals, fixed_size_binary, intervals).
struct WideBytes {
  const uint8_t* values;
  int64_t width;  // > 0
  int64_t Length(int64_t) const { return width; }
  uint64_t Roll(const uint64_t* table, uint64_t threshold, int64_t i, uint64_t& h) const {
    return RollBytes(table, values + i * width, width, threshold, h);
  }
  int64_t Skip(int64_t k, int64_t n, int64_t limit, int64_t* size) const {
    const int64_t skip = std::min((limit - *size - 1) / width, n - k);
    *size += skip * width;
    return k + skip;
  }
  const uint8_t* Data() const { return values; }
  int64_t Begin(int64_t k) const { return k * width; }
  int64_t SlotAt(int64_t b, int64_t, int64_t) const { return b / width; }
};

// Boolean: one byte, 0 or 1.
struct BoolBytes {
  const uint8_t* bits;
  int64_t offset;
  static int64_t Length(int64_t) { return 1; }
  uint64_t Roll(const uint64_t* table, uint64_t threshold, int64_t i, uint64_t& h) const {
    return RollByte(table, bit_util::GetBit(bits, offset + i) ? 1 : 0, threshold, h);
  }
  static int64_t Skip(int64_t k, int64_t n, int64_t limit, int64_t* size) {
    return FixedBytes<1>::Skip(k, n, limit, size);
  }
};

// Binary and string with 32- or 64-bit offsets: the raw bytes.
template <typename Offset>
struct BinaryBytes {
  const Offset* offsets;  // offsets[i], offsets[i + 1] bound slot i
  const uint8_t* data;
  int64_t Length(int64_t i) const { return int64_t{offsets[i + 1]} - offsets[i]; }
  uint64_t Roll(const uint64_t* table, uint64_t threshold, int64_t i, uint64_t& h) const {
    const int64_t length = Length(i);
    return length == 0 ? 0 : RollBytes(table, data + offsets[i], length, threshold, h);
  }
  int64_t Skip(int64_t k, int64_t n, int64_t limit, int64_t* size) const {
    // The first j with offsets[j + 1] - offsets[k] >= limit - size: a binary
    // search over the (non-decreasing) offsets.
    const int64_t target = int64_t{offsets[k]} + (limit - *size);
    const Offset* end = std::lower_bound(offsets + k + 1, offsets + n + 1, target,
                                         [](Offset o, int64_t t) { return int64_t{o} < t; });
    const int64_t j = (end - offsets) - 1;
    *size += int64_t{offsets[j]} - offsets[k];
    return j;
  }
  const uint8_t* Data() const { return data; }
  int64_t Begin(int64_t k) const { return offsets[k]; }
  // The last slot in [lo, hi) starting at or before b: the non-empty slot
  // holding b (empty slots share their start with the next slot).
  int64_t SlotAt(int64_t b, int64_t lo, int64_t hi) const {
    const Offset* at = std::upper_bound(offsets + lo, offsets + hi, b,
                                        [](int64_t t, Offset o) { return t < int64_t{o}; });
    return (at - offsets) - 1;
  }
};

// binary_view / string_view: the same bytes as binary.
struct ViewBytes {
  const ArrayData* array;
  const uint8_t* views;  // 16 bytes per slot
  const uint8_t* Bytes(int64_t i, int64_t* length) const {
    const uint8_t* view = views + i * 16;
    int32_t n;
    std::memcpy(&n, view, 4);
    *length = n;
    if (n <= 12) return view + 4;
    int32_t buffer, offset;
    std::memcpy(&buffer, view + 8, 4);
    std::memcpy(&offset, view + 12, 4);
    return array->buffers[static_cast<size_t>(2 + buffer)]->data() + offset;
  }
  int64_t Length(int64_t i) const {
    int32_t n;
    std::memcpy(&n, views + i * 16, 4);
    return n;
  }
  uint64_t Roll(const uint64_t* table, uint64_t threshold, int64_t i, uint64_t& h) const {
    int64_t length;
    const uint8_t* p = Bytes(i, &length);
    return RollBytes(table, p, length, threshold, h);
  }
  int64_t Skip(int64_t k, int64_t n, int64_t limit, int64_t* size) const {
    for (; k < n; ++k) {
      const int64_t length = Length(k);
      if (*size + length >= limit) return k;
      *size += length;
    }
    return n;
  }
};

// Null type and zero-width values: nothing.
struct NoBytes {
  static int64_t Length(int64_t) { return 0; }
  static uint64_t Roll(const uint64_t*, uint64_t, int64_t, uint64_t&) { return 0; }
  static int64_t Skip(int64_t, int64_t n, int64_t, int64_t*) { return n; }
};

// Calls fn(bytes) with the layout of `leaf`'s values.
template <typename Fn>
Status VisitBytes(const ArrayData& leaf, Fn&& fn) {
  auto buffer = [&](size_t i) -> const uint8_t* {
    return i < leaf.buffers.size() && leaf.buffers[i] != nullptr ? leaf.buffers[i]->data()
                                                                 : nullptr;
  };
  const Type id = leaf.type->id();
  switch (id) {
    case Type::kNull:
      fn(NoBytes{});
      return Status::OK();
    case Type::kBool:
      fn(BoolBytes{buffer(1), leaf.offset});
      return Status::OK();
    case Type::kString:
    case Type::kBinary:
      fn(BinaryBytes<int32_t>{leaf.GetValues<int32_t>(1), buffer(2)});
      return Status::OK();
    case Type::kLargeString:
    case Type::kLargeBinary:
      fn(BinaryBytes<int64_t>{leaf.GetValues<int64_t>(1), buffer(2)});
      return Status::OK();
    case Type::kStringView:
    case Type::kBinaryView: {
      const uint8_t* views = buffer(1);
      fn(ViewBytes{&leaf, views == nullptr ? nullptr : views + leaf.offset * 16});
      return Status::OK();
    }
    default:
      break;
  }
  // Fixed width; dictionary arrays feed their indices.
  const int width = id == Type::kDictionary
                        ? TypeAs<DictionaryType>(*leaf.type).index_type()->byte_width()
                        : leaf.type->byte_width();
  if (width < 0) {
    return Status::Invalid("content-defined chunking: unsupported leaf type ",
                           leaf.type->ToString());
  }
  const uint8_t* values = buffer(1);
  if (width == 0) {
    fn(NoBytes{});
    return Status::OK();
  }
  if (values == nullptr) {
    // No values buffer (only valid if no value is present): the generic
    // layout, which reads present values only.
    fn(WideBytes{nullptr, width});
    return Status::OK();
  }
  values += leaf.offset * width;
  switch (width) {
    case 1:
      fn(FixedBytes<1>{values});
      break;
    case 2:
      fn(FixedBytes<2>{values});
      break;
    case 4:
      fn(FixedBytes<4>{values});
      break;
    case 8:
      fn(FixedBytes<8>{values});
      break;
    default:
      fn(WideBytes{values, width});
      break;
  }
  return Status::OK();
}

}  // namespace quiver::parquet::cdc::internal
