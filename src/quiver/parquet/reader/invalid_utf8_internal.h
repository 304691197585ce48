// ReaderOptions::invalid_utf8 = kBinary: string leaves that hold invalid
// UTF-8 read as binary.
//
// pyarrow reads string columns without validating them, so its arrays may
// fail ValidateFull; Quiver's never do. With kBinary, a string leaf
// (string, large_string, string_view, or a dictionary of them) holding a
// value that is not UTF-8 anywhere in the rows a read covers becomes the
// binary type of the same layout (binary, large_binary, binary_view, a
// dictionary of it), and so do the types of the fields above it; the
// buffers stay as they are. The decision is per leaf and per read: for
// ReadTable the leaves are read recording (LeafBuilder::
// set_record_invalid_utf8) and the arrays retyped afterwards; a batch
// reader, whose schema is fixed before its first batch, first scans the
// string leaves of its row groups (recording, values dropped batch by
// batch), so that every batch has the reader's schema.
#pragma once

#include <cstdint>
#include <set>

#include "quiver/array/array_data.h"
#include "quiver/parquet/schema/parquet_to_arrow_internal.h"

namespace quiver::parquet::internal {

// Whether a leaf below `node` (itself included) is of a string type.
bool HasStringLeaf(const ReadNode& node);

// `node` with the string leaves among `columns` (leaf column indices) as
// binary, the types above them rebuilt. An extension on such a leaf
// (arrow.json) is dropped with the type: its storage must be a string.
ReadNode WithBinaryLeaves(const ReadNode& node, const std::set<int32_t>& columns);

// `data`, an array read for a node of the same shape as `node`, with the
// types of `node` (WithBinaryLeaves' result); no buffer is copied.
ArrayDataPtr Retype(const ArrayDataPtr& data, const ReadNode& node);

}  // namespace quiver::parquet::internal
