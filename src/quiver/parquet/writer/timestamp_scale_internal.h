// Timestamps stored in another unit than their Arrow type's (ValueKind
// kTimestampScaleUp / kTimestampScaleDown: coerce_timestamps, seconds as
// milliseconds, nanoseconds as microseconds up to format version 2.4), as
// Arrow C++ 26 converts them (parquet/arrow/writer.cc WriteTimestamps and
// its SerializeFunctor): to a finer unit, multiplied, a product that does
// not fit in int64 being an error ("Integer overflow when casting timestamp
// value"); to a coarser unit, divided toward zero (C++ division), a value
// that is not a whole number of the stored unit being an error unless
// truncation is allowed ("would lose data"). The messages also name the
// column and the option to set (ArrowLeaf::coercion).
#pragma once

#include <cstdint>

#include "quiver/parquet/schema/arrow_to_parquet_internal.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// Converts the valid values v[0, n) of leaf `arrow` (the values written:
// nulls, and values under null parents, are never looked at) in place;
// on error nothing is changed.
Status ScaleTimestamps(const ColumnDescriptor& column, const ArrowLeaf& arrow, int64_t* v, int64_t n);

}  // namespace quiver::parquet
