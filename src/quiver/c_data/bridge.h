// Export and import of Quiver types, arrays, record batches and record batch
// readers through the Arrow C Data Interface and C Stream Interface (abi.h).
//
// Source: apache/arrow docs/source/format/CDataInterface.rst (format strings,
// flags, metadata encoding, memory management, "moving" structs, binary
// views' variadic buffer sizes) and CStreamInterface.rst.
//
// Export is zero-copy: the ArrowArray's buffers point into Quiver's buffers,
// and its private_data holds the ArrayData (shared_ptrs) alive until the
// consumer calls release. Every child and the dictionary carry their own
// private_data, so a consumer may move a child out and release it on its own.
//
// Import is zero-copy too and takes ownership ("moves") of the C struct: on
// success AND on failure the input is marked released (release == NULL) and
// the producer's release callback runs exactly once, when the last Quiver
// buffer that points into the producer's memory is destroyed (or at once if
// import fails). Imported structures are untrusted: malformed input gives an
// Invalid status (unsupported but well-formed types: NotImplemented), never a
// crash, and an imported array passes Array::Validate before it is returned.
#pragma once

#include "quiver/array/array_data.h"
#include "quiver/array/record_batch.h"
#include "quiver/array/type.h"
#include "quiver/c_data/abi.h"
#include "quiver/util/result.h"
#include "quiver/util/status.h"

namespace quiver {

// --- Export ---------------------------------------------------------------
// On success `out` is a valid struct the caller must release; on failure it
// is left untouched (nothing to release).

// A schema with an empty name, the nullable flag and no metadata.
Status ExportType(const DataType& type, ArrowSchema* out);
// The field's name, nullability (ARROW_FLAG_NULLABLE) and metadata.
Status ExportField(const Field& field, ArrowSchema* out);
// A "+s" struct schema whose children are the fields, with the schema's
// metadata on the top-level struct.
Status ExportSchema(const Schema& schema, ArrowSchema* out);

// Exports `data` (and, if `out_schema` is given, its type as ExportType
// does). The data's offset is exported as the ArrowArray offset.
Status ExportArray(const ArrayDataPtr& data, ArrowArray* out, ArrowSchema* out_schema = nullptr);
// A struct array of the batch's columns (no validity, null_count 0); the
// schema, if requested, is ExportSchema(*batch.schema()).
Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out,
                         ArrowSchema* out_schema = nullptr);
// A stream over the reader's batches. get_next gives a released array at the
// end; a reader error makes get_next return an errno code (EINVAL for
// Invalid, ENOMEM, ENOSYS, EIO otherwise) with get_last_error giving the
// Status message; errors are sticky.
Status ExportRecordBatchReader(RecordBatchReaderPtr reader, ArrowArrayStream* out);

// --- Import ---------------------------------------------------------------
// Each function moves the given structs into Quiver, whatever the outcome.

// The type described by the schema (top-level name, flags and metadata ignored
// except the dictionary-ordered and map-keys-sorted flags, which are part of
// the type).
Result<TypePtr> ImportType(ArrowSchema* schema);
Result<FieldPtr> ImportField(ArrowSchema* schema);
// The schema must be a "+s" struct; its metadata becomes the schema metadata.
Result<SchemaPtr> ImportSchema(ArrowSchema* schema);

Result<ArrayDataPtr> ImportArray(ArrowArray* array, const TypePtr& type);
// Imports the type from `schema` first; the array is released even if the
// schema is invalid.
Result<ArrayDataPtr> ImportArray(ArrowArray* array, ArrowSchema* schema);

// The array must be a struct array of the schema's fields without nulls; the
// columns are its children, sliced to its offset and length.
Result<RecordBatchPtr> ImportRecordBatch(ArrowArray* array, const SchemaPtr& schema);
Result<RecordBatchPtr> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema);

// A reader over a foreign stream (its schema is fetched at once). The stream
// is released when the reader is destroyed; errors reported by the stream
// become Status errors carrying get_last_error's message.
Result<RecordBatchReaderPtr> ImportRecordBatchReader(ArrowArrayStream* stream);

}  // namespace quiver
