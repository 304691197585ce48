// Logical equality of arrays (Arrow C++'s arrow/compare.h, ArrayEquals and
// ArrayRangeEquals).
//
// Two arrays are equal when their types are equal (field metadata compared
// only with EqualOptions::check_metadata), their lengths are equal, the same
// slots are null, and the valid slots hold equal values. The physical layout
// does not matter: offsets, slicing, the bytes under null slots, the child
// ranges owned by null list slots and the base of binary offsets are all
// ignored. Values compare as follows:
//  - float/double: with ==, so -0.0 equals 0.0 and NaN equals nothing,
//    unless EqualOptions::nans_equal (then any NaN equals any NaN);
//  - half floats: on their bits, with the same rules for NaN and zeros;
//  - booleans bit by bit, other fixed-width values byte by byte (runs of
//    valid slots in one memcmp);
//  - binary/string: lengths, then bytes through BytesEqual (memory/buffer.h);
//    binary views through the bytes they view, wherever those are stored;
//  - nested types recursively, over the child ranges of the valid slots;
//  - dictionary arrays by their decoded values: the dictionaries may differ.
//    When both arrays share one dictionary (same object, or an equal one not
//    longer than the compared range) equal indices settle it first. A valid
//    index whose dictionary value is null is not the same as a null index.
// Both inputs must be valid arrays (ValidateArrayFull); comparing invalid
// arrays may read out of bounds.
#pragma once

#include <cstdint>

#include "quiver/array/array.h"
#include "quiver/array/array_data.h"

namespace quiver {

bool ArrayEquals(const ArrayData& left, const ArrayData& right,
                 const EqualOptions& options = EqualOptions::Defaults());

// Equality of slots [left_start, left_end) of `left` with slots
// [right_start, right_start + left_end - left_start) of `right` (positions
// relative to each array's offset). False if the types differ or a range is
// out of bounds.
bool ArrayRangeEquals(const ArrayData& left, const ArrayData& right, int64_t left_start,
                      int64_t left_end, int64_t right_start,
                      const EqualOptions& options = EqualOptions::Defaults());

}  // namespace quiver
