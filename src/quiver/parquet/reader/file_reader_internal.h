// The reader's internals that its tests, the Python bindings, the CLI and the
// fuzz target reach: the resolved Parquet schema (not installed; the public
// view of the schema is FileMetaData::schema_elements()), a switch for how
// selections skip pages, and the size from which use_threads reads go
// parallel.
#pragma once

#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"

namespace quiver::parquet {

const SchemaDescriptor& ParquetSchemaOf(const FileReader& reader);

// Reads of row selections skip pages through the chunks' offset indexes
// (the default) or, off, only by decoding levels and skipping values (for
// the fuzz target, which compares such reads with reading everything: an
// offset index is trusted, so one that lies may change what is read).
void SetSkipPagesByOffsetIndex(FileReader& reader, bool on);

// The bytes a use_threads read must cover to run on the pool (default
// kParallelReadMinBytes or QUIVER_MIN_TASK_WORK; 0: every read of two units
// or more; < 0: back to the default), for tests that check the parallel
// path on small files.
void SetParallelReadMinBytes(FileReader& reader, int64_t bytes);

}  // namespace quiver::parquet
