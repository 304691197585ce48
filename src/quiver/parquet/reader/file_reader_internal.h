// The reader's internals that its tests, the Python bindings, the CLI and the
// fuzz target reach: the resolved Parquet schema (not installed; the public
// view of the schema is FileMetaData::schema_elements()), and a switch for
// how selections skip pages.
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

}  // namespace quiver::parquet
