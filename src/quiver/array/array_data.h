// ArrayData: the columnar representation of one array, as the Arrow format
// lays it out (type, length, offset, null count, buffers, children,
// dictionary). Typed views (array.h) read it; builders make it; the C Data
// Interface and IPC move it in and out without copying.
//
// Buffers per type (buffers[0] is always the validity bitmap, which may be
// null when there are no nulls):
//   null                       none (an empty vector)
//   bool, fixed-width          validity, values
//   binary/string (+ large)    validity, offsets (int32 / int64), data
//   binary_view/string_view    validity, views (16 bytes each), data buffers...
//   list/large_list/map        validity, offsets; child 0 = values (map: entries struct)
//   fixed_size_list            validity; child 0 = values
//   struct                     validity; one child per field
//   dictionary                 validity, indices; `dictionary` = values
// `offset` counts elements (bits for bitmaps) into every buffer of this
// level; children are sliced through the parent's offsets, not `offset`
// (except struct and fixed_size_list, whose children are addressed with the
// parent's offset as in Arrow).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "quiver/array/type.h"
#include "quiver/memory/buffer.h"
#include "quiver/util/bit_util.h"

namespace quiver {

inline constexpr int64_t kUnknownNullCount = -1;

struct ArrayData;
using ArrayDataPtr = std::shared_ptr<ArrayData>;

struct ArrayData {
  ArrayData() = default;
  ArrayData(TypePtr type, int64_t length, std::vector<std::shared_ptr<Buffer>> buffers,
            int64_t null_count = kUnknownNullCount, int64_t offset = 0)
      : type(std::move(type)),
        length(length),
        null_count(null_count),
        offset(offset),
        buffers(std::move(buffers)) {}

  static ArrayDataPtr Make(TypePtr type, int64_t length,
                           std::vector<std::shared_ptr<Buffer>> buffers,
                           int64_t null_count = kUnknownNullCount, int64_t offset = 0) {
    return std::make_shared<ArrayData>(std::move(type), length, std::move(buffers), null_count,
                                       offset);
  }
  static ArrayDataPtr Make(TypePtr type, int64_t length,
                           std::vector<std::shared_ptr<Buffer>> buffers,
                           std::vector<ArrayDataPtr> children,
                           int64_t null_count = kUnknownNullCount, int64_t offset = 0) {
    auto data = Make(std::move(type), length, std::move(buffers), null_count, offset);
    data->children = std::move(children);
    return data;
  }

  // Null count, computed from the validity bitmap (and cached) if unknown.
  // Null type: every slot is null.
  int64_t GetNullCount() const;
  bool MayHaveNulls() const {
    return null_count != 0 && (type->id() == Type::kNull ||
                               (!buffers.empty() && buffers[0] != nullptr));
  }
  const uint8_t* validity() const {
    return buffers.empty() || buffers[0] == nullptr ? nullptr : buffers[0]->data();
  }
  bool IsValid(int64_t i) const {
    if (type->id() == Type::kNull) return false;
    const uint8_t* v = validity();
    return v == nullptr || bit_util::GetBit(v, offset + i);
  }
  bool IsNull(int64_t i) const { return !IsValid(i); }

  // Values of buffer `index` as T, starting at this array's offset.
  template <typename T>
  const T* GetValues(int index) const {
    const auto& b = buffers[static_cast<size_t>(index)];
    return b == nullptr ? nullptr : b->data_as<T>() + offset;
  }

  // A zero-copy slice; the null count is kept when it is known to be 0 or
  // the slice is the whole array, otherwise recomputed lazily.
  ArrayDataPtr Slice(int64_t slice_offset, int64_t slice_length) const;

  TypePtr type;
  int64_t length = 0;
  mutable int64_t null_count = kUnknownNullCount;
  int64_t offset = 0;
  std::vector<std::shared_ptr<Buffer>> buffers;
  std::vector<ArrayDataPtr> children;
  ArrayDataPtr dictionary;  // dictionary-encoded arrays only
};

// Number of buffers the format defines for a type (binary views: 2, plus
// their variadic data buffers).
int NumFixedBuffers(Type id);

}  // namespace quiver
