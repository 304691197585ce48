// Test-only helpers: ArrayData built by hand from std::vector values and a
// validity vector, without the builders (which are written separately).
//
// Every buffer is an exact-size heap allocation (a std::vector whose capacity
// equals its size, adopted by Buffer::FromVector), never padded: a read one
// byte past what the layout allows is a heap-buffer-overflow under
// AddressSanitizer. The buffer layouts are those documented in array_data.h.
// Not installed; not for use outside tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/array/type.h"
#include "quiver/memory/buffer.h"
#include "quiver/util/bit_util.h"

namespace quiver::testutil {

// An exact-size copy of `size` bytes (an empty buffer at the zero-size area
// when size is 0).
inline std::shared_ptr<Buffer> MakeBuffer(const void* data, int64_t size) {
  if (size == 0) return std::make_shared<Buffer>();
  const auto* bytes = static_cast<const uint8_t*>(data);
  return Buffer::FromVector(std::vector<uint8_t>(bytes, bytes + size));
}

inline std::shared_ptr<Buffer> MakeBuffer(const std::string& bytes) {
  return MakeBuffer(bytes.data(), static_cast<int64_t>(bytes.size()));
}

template <typename T>
std::shared_ptr<Buffer> BufferFromValues(const std::vector<T>& values) {
  return MakeBuffer(values.data(), static_cast<int64_t>(values.size() * sizeof(T)));
}

// LSB-first bitmap of exactly BytesForBits(bits.size()) bytes; bit i is
// bits[i + ...] shifted by `bit_offset` (the bits before it are zero).
inline std::shared_ptr<Buffer> BitmapFromBools(const std::vector<bool>& bits,
                                               int64_t bit_offset = 0) {
  const int64_t nbits = bit_offset + static_cast<int64_t>(bits.size());
  std::vector<uint8_t> bytes(static_cast<size_t>(bit_util::BytesForBits(nbits)), 0);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i]) bit_util::SetBit(bytes.data(), bit_offset + static_cast<int64_t>(i));
  }
  if (bytes.empty()) return std::make_shared<Buffer>();
  return Buffer::FromVector(std::move(bytes));
}

inline int64_t CountFalse(const std::vector<bool>& bits) {
  int64_t n = 0;
  for (bool b : bits) n += !b;
  return n;
}

// The validity buffer for `validity` (nullptr when the vector is empty,
// meaning "all valid").
inline std::shared_ptr<Buffer> ValidityBuffer(const std::vector<bool>& validity) {
  return validity.empty() ? nullptr : BitmapFromBools(validity);
}

// A fixed-width array of C type T (int32(), float64(), timestamp(...),
// decimal128 with T = a 16-byte struct, ...). The null count is known.
template <typename T>
ArrayDataPtr ArrayFromVector(TypePtr type, const std::vector<T>& values,
                             const std::vector<bool>& validity = {}) {
  const auto length = static_cast<int64_t>(values.size());
  return ArrayData::Make(std::move(type), length,
                         {ValidityBuffer(validity), BufferFromValues(values)},
                         CountFalse(validity));
}

inline ArrayDataPtr BooleanArrayFromVector(const std::vector<bool>& values,
                                           const std::vector<bool>& validity = {}) {
  const auto length = static_cast<int64_t>(values.size());
  return ArrayData::Make(boolean(), length, {ValidityBuffer(validity), BitmapFromBools(values)},
                         CountFalse(validity));
}

inline ArrayDataPtr NullArrayOfLength(int64_t length) {
  return ArrayData::Make(null(), length, {}, length);
}

// string / binary (int32 offsets) or large_string / large_binary (int64
// offsets), chosen by `type`.
inline ArrayDataPtr StringArrayFromVector(const std::vector<std::string>& values,
                                          const std::vector<bool>& validity = {},
                                          TypePtr type = utf8()) {
  std::string data;
  std::vector<int64_t> offsets{0};
  for (const auto& v : values) {
    data += v;
    offsets.push_back(static_cast<int64_t>(data.size()));
  }
  std::shared_ptr<Buffer> offsets_buffer;
  if (IsLargeBinaryLike(type->id())) {
    offsets_buffer = BufferFromValues(offsets);
  } else {
    offsets_buffer = BufferFromValues(std::vector<int32_t>(offsets.begin(), offsets.end()));
  }
  return ArrayData::Make(std::move(type), static_cast<int64_t>(values.size()),
                         {ValidityBuffer(validity), offsets_buffer, MakeBuffer(data)},
                         CountFalse(validity));
}

// One 16-byte view: inline when size <= 12, else (size, prefix, buffer index,
// offset) into `data` (which the caller makes buffers[2 + buffer_index]).
inline void AppendView(std::vector<uint8_t>* views, const std::string& value,
                       int32_t buffer_index, int32_t offset) {
  uint8_t view[16] = {};
  const auto size = static_cast<int32_t>(value.size());
  std::memcpy(view, &size, 4);
  if (size <= 12) {
    std::memcpy(view + 4, value.data(), value.size());
  } else {
    std::memcpy(view + 4, value.data(), 4);
    std::memcpy(view + 8, &buffer_index, 4);
    std::memcpy(view + 12, &offset, 4);
  }
  views->insert(views->end(), view, view + 16);
}

// binary_view / string_view: values longer than 12 bytes are stored in one
// data buffer (buffers[2]), which is present even when empty.
inline ArrayDataPtr BinaryViewArrayFromVector(const std::vector<std::string>& values,
                                              const std::vector<bool>& validity = {},
                                              TypePtr type = utf8_view()) {
  std::vector<uint8_t> views;
  std::string data;
  for (const auto& v : values) {
    AppendView(&views, v, 0, static_cast<int32_t>(data.size()));
    if (v.size() > 12) data += v;
  }
  return ArrayData::Make(std::move(type), static_cast<int64_t>(values.size()),
                         {ValidityBuffer(validity), BufferFromValues(views), MakeBuffer(data)},
                         CountFalse(validity));
}

// fixed_size_binary / decimals / month_day_nano: each value is byte_width
// bytes (the strings must have exactly that size).
inline ArrayDataPtr FixedSizeBinaryArrayFromVector(TypePtr type,
                                                   const std::vector<std::string>& values,
                                                   const std::vector<bool>& validity = {}) {
  std::string data;
  for (const auto& v : values) data += v;
  return ArrayData::Make(std::move(type), static_cast<int64_t>(values.size()),
                         {ValidityBuffer(validity), MakeBuffer(data)}, CountFalse(validity));
}

// list / large_list / map (by type) over `values` with offsets.size() - 1
// slots; offsets are logical indices into `values`.
inline ArrayDataPtr ListArrayFromOffsets(TypePtr type, const std::vector<int64_t>& offsets,
                                         ArrayDataPtr values,
                                         const std::vector<bool>& validity = {}) {
  std::shared_ptr<Buffer> offsets_buffer;
  if (type->id() == Type::kLargeList) {
    offsets_buffer = BufferFromValues(offsets);
  } else {
    offsets_buffer = BufferFromValues(std::vector<int32_t>(offsets.begin(), offsets.end()));
  }
  const auto length = static_cast<int64_t>(offsets.size()) - 1;
  return ArrayData::Make(std::move(type), length, {ValidityBuffer(validity), offsets_buffer},
                         {std::move(values)}, CountFalse(validity));
}

inline ArrayDataPtr FixedSizeListArrayFromChild(TypePtr type, int64_t length, ArrayDataPtr values,
                                                const std::vector<bool>& validity = {}) {
  return ArrayData::Make(std::move(type), length, {ValidityBuffer(validity)}, {std::move(values)},
                         CountFalse(validity));
}

inline ArrayDataPtr StructArrayFromChildren(TypePtr type, int64_t length,
                                            std::vector<ArrayDataPtr> children,
                                            const std::vector<bool>& validity = {}) {
  return ArrayData::Make(std::move(type), length, {ValidityBuffer(validity)}, std::move(children),
                         CountFalse(validity));
}

// A dictionary array of `type` (a DictionaryType) with `indices` stored in
// the type's index width.
inline ArrayDataPtr DictionaryArrayFromIndices(TypePtr type, const std::vector<int64_t>& indices,
                                               ArrayDataPtr dictionary,
                                               const std::vector<bool>& validity = {}) {
  const auto& index_type = TypeAs<DictionaryType>(*type).index_type();
  std::shared_ptr<Buffer> values;
  switch (index_type->id()) {
    case Type::kInt8:
      values = BufferFromValues(std::vector<int8_t>(indices.begin(), indices.end()));
      break;
    case Type::kUInt8:
      values = BufferFromValues(std::vector<uint8_t>(indices.begin(), indices.end()));
      break;
    case Type::kInt16:
      values = BufferFromValues(std::vector<int16_t>(indices.begin(), indices.end()));
      break;
    case Type::kUInt16:
      values = BufferFromValues(std::vector<uint16_t>(indices.begin(), indices.end()));
      break;
    case Type::kInt32:
      values = BufferFromValues(std::vector<int32_t>(indices.begin(), indices.end()));
      break;
    case Type::kUInt32:
      values = BufferFromValues(std::vector<uint32_t>(indices.begin(), indices.end()));
      break;
    case Type::kUInt64:
      values = BufferFromValues(std::vector<uint64_t>(indices.begin(), indices.end()));
      break;
    default:
      values = BufferFromValues(indices);
      break;
  }
  auto data = ArrayData::Make(std::move(type), static_cast<int64_t>(indices.size()),
                              {ValidityBuffer(validity), values}, CountFalse(validity));
  data->dictionary = std::move(dictionary);
  return data;
}

}  // namespace quiver::testutil
