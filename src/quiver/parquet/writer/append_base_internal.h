// What a FileWriter that continues an existing Parquet file starts from
// (FileWriter::OpenAppend; parquet/append builds it after checking the file
// and the new rows' schema).
//
// The existing file's bytes before its footer, [0, data_end), are copied
// unchanged to the front of the new file, so every column chunk, page index
// and bloom filter already written stays at its offset; the new row groups
// follow, then their bloom filters and page index, then one footer holding
// the old row groups' metadata as read and the new ones'.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "quiver/io/atomic_file.h"
#include "quiver/io/file.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/status.h"

namespace quiver::parquet {

struct AppendBase {
  std::shared_ptr<io::ReadableFile> file;  // the existing file
  format::FileMetaData footer;                 // its footer, as read
  int64_t data_end = 0;                        // where its footer starts
};

// Invalid unless `now` (the Parquet schema the writer derives from the new
// rows' Arrow schema and its options) is `old` (the file's) element for
// element (see append_base.cc for what is ignored); the message names the first
// column that differs and what differs.
Status CheckAppendSchema(const std::vector<format::SchemaElement>& old,
                         const std::vector<format::SchemaElement>& now);

// Copies the base file's bytes [0, data_end) to `sink` in the kernel
// (copy_file_range: a reflink where the file system shares extents).
Status CopyAppendPrefix(const AppendBase& base, io::AtomicFileOutputStream* sink);

}  // namespace quiver::parquet
