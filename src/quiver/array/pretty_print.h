// A readable rendering of arrays, in the layout of Arrow C++'s
// arrow/pretty_print.h. An int32 array, a list<item: int32> array and a
// struct<a: int32> array print as:
//
//   [             [                    -- is_valid: all not null
//     1,            [                  -- child 0 'a' type: int32
//     null,           1,                 [
//     3               2                    1,
//   ]               ],                     2
//                   null,                ]
//                   []
//                 ]
//
// Values: integers in decimal; floats in the shortest form that reads back
// exactly ("1.5", "1e+20", "nan", "-inf"); half floats likewise after
// widening to float; booleans "true"/"false"; strings double-quoted, with
// \" \\ \n \r \t and other control bytes (\xNN) escaped; binary and
// fixed_size_binary as upper-case hex; decimals as exact decimal text
// ("-12.345"; a negative scale appends zeros); date32/date64 as
// "YYYY-MM-DD"; timestamps as ISO text "YYYY-MM-DD HH:MM:SS" with as many
// fraction digits as the unit has (".123" ms, ".123456" us, ".123456789" ns)
// and a "Z" suffix when the type has a time zone (the stored instant is UTC);
// time32/time64 as "HH:MM:SS[.fraction]" (out-of-day values as integers);
// durations and month intervals as integers; day_time intervals as "1d2ms";
// month_day_nano as "1M2d3ns"; a null array as "<n> nulls".
// Structs print a validity section and one section per field (Arrow's
// "-- child 0 type: int32" plus the field name: "-- child 0 'a' type:
// int32"); dictionary arrays a "-- dictionary:" and an "-- indices:"
// section; map slots their "keys:" and "values:".
//
// Long arrays show the first and last `window` values with "..." between
// (lists, maps and fixed-size lists use `container_window` for their own
// slots, as Arrow does); a negative window shows everything.
//
// The array is validated (ValidateArray, the O(1) structural checks) before
// printing, and the offsets and views of each printed slot are checked before
// they are read, so printing never reads out of bounds.
#pragma once

#include <iosfwd>
#include <string>

#include "quiver/array/array.h"
#include "quiver/util/status.h"

namespace quiver {

struct PrettyPrintOptions {
  // Spaces before every line.
  int indent = 0;
  // Extra spaces per nesting level.
  int indent_size = 2;
  // Values shown at each end of a long array.
  int window = 10;
  // Slots shown at each end of a long list-like array.
  int container_window = 2;
  // What a null slot shows.
  std::string null_rep = "null";

  static PrettyPrintOptions Defaults() { return {}; }
};

// The rendering, or "<Invalid array: ...>" if the array is invalid.
std::string PrettyPrint(const Array& array, const PrettyPrintOptions& options);

// Writes the rendering to `sink`; writes nothing and returns the error if the
// array is invalid.
Status PrettyPrint(const Array& array, const PrettyPrintOptions& options, std::ostream* sink);

// Appends to *out the text PrettyPrint shows for the valid slot `i`
// (logical position) of `data`, an array of a non-nested type that passed
// ValidateArray (strings quoted and escaped, binary as hex, dates, times,
// decimals and intervals as described above). Nested and dictionary types
// are NotImplemented: their callers walk them.
Status AppendValueText(const ArrayData& data, int64_t i, std::string* out);

}  // namespace quiver
