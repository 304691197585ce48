// The values of `quiver cat`, one cell (row i of a column) at a time.
//
// JSON (--format jsonl, and nested values everywhere): null; booleans;
// integers, durations and decimals as JSON numbers (exact text: a decimal
// keeps its scale, "12.30"); floats in their shortest round-trip form, with
// NaN and the infinities as the strings "NaN", "Infinity", "-Infinity" (as
// `quiver inspect --json`); strings as JSON strings; binary as base64
// strings; dates, times and timestamps as the strings of pretty_print.h
// ("2020-01-02", "12:00:00.000", "2020-01-02 03:04:05.000006", "Z" when the
// type has a time zone); intervals as its strings ("1M2d3ns"); structs as
// objects; lists as arrays; maps as arrays of {"key": k, "value": v};
// dictionary values as their dictionary entry. Compact: no spaces.
//
// Text (table and CSV cells, not null): strings as they are, binary as
// upper-case hex, NaN and infinities as "nan", "inf", "-inf", other scalars
// as in JSON without the quotes, nested values as JSON.
//
// Arrays must have passed ValidateFull (the Parquet reader's and the IPC
// reader's validated batches do): offsets are not checked again here, except
// dictionary indices.
#pragma once

#include <cstdint>
#include <string>

#include "quiver/array/array_data.h"
#include "quiver/util/status.h"

namespace quiver::cli {

enum class CellFormat { kJson, kText };

// Appends the value of slot `i` (logical position) of `data` to *out. kText
// needs a valid (non-null) slot.
Status AppendCell(const ArrayData& data, int64_t i, CellFormat format, std::string* out);

}  // namespace quiver::cli
