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
// UTF-8 is checked by quiver/util/utf8.h (included here for the callers
// of FindInvalidUtf8 / IsValidUtf8, which lived here before).
#pragma once

#include <cstdint>

#include "quiver/array/array_data.h"
#include "quiver/util/status.h"
#include "quiver/util/utf8.h"

namespace quiver {

// Structural checks, O(1) per buffer (see the top of this file).
Status ValidateArray(const ArrayData& data);
// Structural checks plus every value, O(length).
Status ValidateArrayFull(const ArrayData& data);

}  // namespace quiver
