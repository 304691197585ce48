// The reader's internals that its tests, the Python bindings, the CLI and the
// fuzz target reach: the resolved Parquet schema (not installed; the public
// view of the schema is FileMetaData::schema_elements()).
#pragma once

#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"

namespace quiver::parquet {

const SchemaDescriptor& ParquetSchemaOf(const FileReader& reader);

}  // namespace quiver::parquet
