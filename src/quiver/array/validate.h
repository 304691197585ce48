// Validation of ArrayData against the Arrow columnar format
// (https://arrow.apache.org/docs/format/Columnar.html), in two depths as
// Arrow C++ does (arrow/array/validate.h):
//
//  - ValidateArray: structure only, O(1) per buffer and child. Type present
//    and known, length/offset non-negative without int64 overflow, null count
//    within [0, length] (== length for the null type), the buffer count of
//    the layout, every required buffer present and large enough for
//    offset + length, first and last offsets of binary/list arrays inside
//    the data buffer / child, child counts, child types and lengths,
//    dictionary present and of the value type, no map entries or keys
//    counted as null (when the null count is known). Recurses into children
//    and the dictionary.
//  - ValidateArrayFull: all of the above, then every value: offsets
//    non-decreasing and in bounds at every slot, UTF-8 of valid string
//    slots, dictionary indices in [0, dictionary length) for valid slots,
//    binary views (length >= 0; out-of-line views: buffer index, range and
//    prefix), the known null count against the bitmap, map entries and
//    keys free of nulls (counted). Decimal precision is not checked (as
//    Arrow's default).
//
// Both take untrusted data (C Data Interface / IPC imports call them): every
// size is checked before the bytes it guards are read, and the checks run in
// an order that makes each later read safe. Errors are Status::Invalid with
// "<type> array: what, where"; nested levels prefix their path, e.g.
// "child 0 (field 'a'): dictionary: int32 array: ...".
//
// UTF-8 (Unicode 15, section 3.9, table 3-7 "Well-Formed UTF-8 Byte
// Sequences"): an ASCII fast path 16 and 8 bytes at a time, then the table's
// byte ranges, which reject overlong forms, surrogates (U+D800..U+DFFF),
// code points above U+10FFFF and truncated sequences.
#pragma once

#include <cstdint>
#include <string_view>

#include "quiver/array/array_data.h"
#include "quiver/util/status.h"

namespace quiver {

// Structural checks, O(1) per buffer (see the top of this file).
Status ValidateArray(const ArrayData& data);
// Structural checks plus every value, O(length).
Status ValidateArrayFull(const ArrayData& data);

// Index of the first byte of the first ill-formed (or truncated) UTF-8
// sequence in [data, data + size), or -1 if the bytes are well-formed.
int64_t FindInvalidUtf8(const uint8_t* data, int64_t size);

inline bool IsValidUtf8(const uint8_t* data, int64_t size) {
  return FindInvalidUtf8(data, size) < 0;
}
inline bool IsValidUtf8(std::string_view s) {
  return IsValidUtf8(reinterpret_cast<const uint8_t*>(s.data()), static_cast<int64_t>(s.size()));
}

}  // namespace quiver
