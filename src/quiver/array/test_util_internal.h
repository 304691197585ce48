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

// --- Every type ---------------------------------------------------------------

// Slot i is valid unless i % 3 == 1 (so sliced views start anywhere in the
// pattern); `n` slots.
inline std::vector<bool> Validity(int64_t n, int period = 3) {
  std::vector<bool> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i % period != 1;
  return v;
}

template <typename T>
std::vector<T> Sequence(int64_t n, T start, T step) {
  std::vector<T> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<T>(start + static_cast<T>(i) * step));
  return v;
}

inline std::vector<std::string> Strings(int64_t n, int salt = 0) {
  std::vector<std::string> v;
  for (int64_t i = 0; i < n; ++i) {
    // Short, empty and long (> 12 bytes, out-of-line for views) values.
    switch ((i + salt) % 4) {
      case 0: v.push_back("s" + std::to_string(i)); break;
      case 1: v.push_back(""); break;
      case 2: v.push_back("a longer string number " + std::to_string(i)); break;
      default: v.push_back(std::string(static_cast<size_t>(i % 13), 'x')); break;
    }
  }
  return v;
}

inline std::vector<std::string> FixedStrings(int64_t n, int width) {
  std::vector<std::string> v;
  for (int64_t i = 0; i < n; ++i) {
    std::string s(static_cast<size_t>(width), '\0');
    for (int b = 0; b < width; ++b) s[static_cast<size_t>(b)] = static_cast<char>(i * 7 + b);
    v.push_back(s);
  }
  return v;
}

struct NamedArray {
  std::string name;
  ArrayDataPtr data;
  bool nullable = true;
};

// One column per type of type.h (and a few nested combinations), `n` rows.
inline std::vector<NamedArray> AllTypeColumns(int64_t n) {
  const auto valid = Validity(n);
  std::vector<NamedArray> cols;
  auto add = [&](std::string name, ArrayDataPtr data, bool nullable = true) {
    cols.push_back({std::move(name), std::move(data), nullable});
  };
  auto fsb = [&](TypePtr type, int width) {
    return FixedSizeBinaryArrayFromVector(std::move(type), FixedStrings(n, width), valid);
  };
  const int64_t big = int64_t{1} << 40;
  add("null", NullArrayOfLength(n));
  add("bool", BooleanArrayFromVector(Validity(n, 2), valid));
  add("int8", ArrayFromVector(int8(), Sequence<int8_t>(n, -5, 3), valid));
  add("int16", ArrayFromVector(int16(), Sequence<int16_t>(n, -300, 7)));
  add("int32", ArrayFromVector(int32(), Sequence<int32_t>(n, -100000, 12345), valid));
  add("int64", ArrayFromVector(int64(), Sequence<int64_t>(n, -big, 1 << 20), valid));
  add("uint8", ArrayFromVector(uint8(), Sequence<uint8_t>(n, 200, 3), valid));
  add("uint16", ArrayFromVector(uint16(), Sequence<uint16_t>(n, 60000, 11)));
  add("uint32", ArrayFromVector(uint32(), Sequence<uint32_t>(n, 4000000000u, 3), valid));
  add("uint64", ArrayFromVector(uint64(), Sequence<uint64_t>(n, ~uint64_t{0} - 100, 1), valid));
  add("float16", ArrayFromVector(float16(), Sequence<uint16_t>(n, 0x3C00, 1), valid));
  add("float32", ArrayFromVector(float32(), Sequence<float>(n, -1.5f, 0.25f), valid));
  add("float64", ArrayFromVector(float64(), Sequence<double>(n, 1e100, -3e99), valid));
  add("utf8", StringArrayFromVector(Strings(n), valid));
  add("large_utf8", StringArrayFromVector(Strings(n, 1), valid, large_utf8()));
  add("binary", StringArrayFromVector(Strings(n, 2), {}, binary()), false);
  add("large_binary", StringArrayFromVector(Strings(n, 3), valid, large_binary()));
  add("utf8_view", BinaryViewArrayFromVector(Strings(n), valid));
  add("binary_view", BinaryViewArrayFromVector(Strings(n, 2), {}, binary_view()));
  add("fsb", fsb(fixed_size_binary(3), 3));
  add("fsb0", fsb(fixed_size_binary(0), 0));
  add("date32", ArrayFromVector(date32(), Sequence<int32_t>(n, 18000, 1), valid));
  add("date64", ArrayFromVector(date64(), Sequence<int64_t>(n, 0, 86400000), valid));
  add("ts", ArrayFromVector(timestamp(TimeUnit::kMicro, "UTC"),
                            Sequence<int64_t>(n, 1600000000000000, 999), valid));
  add("ts_naive", ArrayFromVector(timestamp(TimeUnit::kNano), Sequence<int64_t>(n, 5, 5)));
  add("time32", ArrayFromVector(time32(TimeUnit::kMilli), Sequence<int32_t>(n, 1000, 10), valid));
  add("time64", ArrayFromVector(time64(TimeUnit::kNano), Sequence<int64_t>(n, 1000, 10), valid));
  add("duration", ArrayFromVector(duration(TimeUnit::kSecond), Sequence<int64_t>(n, -3, 1), valid));
  add("months", ArrayFromVector(month_interval(), Sequence<int32_t>(n, 1, 1), valid));
  add("day_time", ArrayFromVector(day_time_interval(), Sequence<int64_t>(n, 7, 1 << 16), valid));
  add("mdn", fsb(month_day_nano_interval(), 16));
  add("dec32", fsb(decimal32(9, 2), 4));
  add("dec64", fsb(decimal64(18, 2), 8));
  add("dec128", fsb(decimal128(38, 2), 16));
  add("dec256", fsb(decimal256(76, 2), 32));
  {
    // list<int32>: list i has i % 4 values.
    std::vector<int64_t> offsets{0};
    for (int64_t i = 0; i < n; ++i) offsets.push_back(offsets.back() + i % 4);
    const int64_t total = offsets.back();
    auto values = ArrayFromVector(int32(), Sequence<int32_t>(total, 0, 1), Validity(total, 5));
    add("list", ListArrayFromOffsets(list(int32()), offsets, values, valid));
    auto strings = StringArrayFromVector(Strings(total));
    add("large_list", ListArrayFromOffsets(large_list(utf8()), offsets, strings, valid));
    // map<utf8, int64> with the same shape.
    auto map_type = map(utf8(), int64());
    auto keys = StringArrayFromVector(Strings(total, 1));
    auto items = ArrayFromVector(int64(), Sequence<int64_t>(total, 10, 10), Validity(total, 4));
    auto entries = StructArrayFromChildren(map_type->field(0)->type(), total, {keys, items});
    add("map", ListArrayFromOffsets(map_type, offsets, entries, valid));
  }
  {
    auto values = ArrayFromVector(int16(), Sequence<int16_t>(2 * n, 0, 1), Validity(2 * n, 7));
    add("fsl", FixedSizeListArrayFromChild(fixed_size_list(int16(), 2), n, values, valid));
  }
  {
    auto type = struct_({field("a", int32()), field("b", utf8()), field("c", boolean(), false)});
    auto a = ArrayFromVector(int32(), Sequence<int32_t>(n, 0, -1), Validity(n, 2));
    auto b = StringArrayFromVector(Strings(n, 1), Validity(n, 4));
    auto c = BooleanArrayFromVector(Validity(n, 3));
    add("struct", StructArrayFromChildren(type, n, {a, b, c}, valid));
  }
  {
    auto dict = StringArrayFromVector({"red", "green", "blue", "a much longer colour name"});
    std::vector<int64_t> indices;
    for (int64_t i = 0; i < n; ++i) indices.push_back((i * 3) % 4);
    add("dict", DictionaryArrayFromIndices(dictionary(int32(), utf8()), indices, dict, valid));
    auto dict2 = ArrayFromVector(int64(), std::vector<int64_t>{100, 200, 300}, {true, false, true});
    std::vector<int64_t> idx2;
    for (int64_t i = 0; i < n; ++i) idx2.push_back(i % 3);
    add("dict_u8", DictionaryArrayFromIndices(dictionary(uint8(), int64(), true), idx2, dict2));
    // list<dictionary<int16, utf8>>
    std::vector<int64_t> offsets{0};
    for (int64_t i = 0; i < n; ++i) offsets.push_back(offsets.back() + (i % 3));
    std::vector<int64_t> inner_idx;
    for (int64_t i = 0; i < offsets.back(); ++i) inner_idx.push_back(i % 4);
    auto inner_type = dictionary(int16(), utf8());
    auto inner = DictionaryArrayFromIndices(inner_type, inner_idx, dict);
    add("list_dict", ListArrayFromOffsets(list(inner_type), offsets, inner));
  }
  return cols;
}

}  // namespace quiver::testutil
