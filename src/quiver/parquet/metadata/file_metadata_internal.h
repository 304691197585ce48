// Building FileMetaData (file_metadata.h) from the footer's Thrift struct,
// and reaching that struct from the code that needs it (the reader, the
// writer, the CLI, the bindings).
#pragma once

#include <memory>
#include <optional>

#include "quiver/parquet/metadata/file_metadata.h"
#include "quiver/parquet/metadata/footer_internal.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

struct FileMetaDataState {
  format::FileMetaData thrift;
  int64_t serialized_size = 0;
  ApplicationVersion writer;
  // The schema as the reader builds it, or why it does not build.
  Result<SchemaDescriptor> schema = Status::Invalid("schema not built");
};

struct FileMetaDataAccess {
  static std::shared_ptr<const FileMetaData> Make(std::shared_ptr<const FileMetaDataState> state) {
    return std::shared_ptr<const FileMetaData>(new FileMetaData(std::move(state)));
  }
  static const FileMetaDataState& State(const FileMetaData& m) { return *m.state_; }
};

// Takes `metadata` (of `serialized_size` bytes in its file) and builds its
// schema once, with `schema_options` (a schema that does not build leaves
// statistics() Invalid; SchemaOf says why).
std::shared_ptr<const FileMetaData> MakeFileMetaData(
    format::FileMetaData metadata, int64_t serialized_size,
    const SchemaDescriptorOptions& schema_options = {});
inline std::shared_ptr<const FileMetaData> MakeFileMetaData(
    ParquetFooter footer, const SchemaDescriptorOptions& schema_options = {}) {
  return MakeFileMetaData(std::move(footer.metadata), footer.footer_length, schema_options);
}

inline const format::FileMetaData& ThriftOf(const FileMetaData& metadata) {
  return FileMetaDataAccess::State(metadata).thrift;
}
// The schema, or why it does not build.
inline const Result<SchemaDescriptor>& SchemaOf(const FileMetaData& metadata) {
  return FileMetaDataAccess::State(metadata).schema;
}

}  // namespace quiver::parquet
