// Arrow IPC writers: the streaming format and the file format (Arrow
// columnar format, "IPC Streaming Format" and "IPC File Format").
//
// Stream: schema message, then for each batch the dictionary batches it
// needs (new, delta or replacement dictionaries) and the record batch
// message, then the end-of-stream marker 0xFFFFFFFF 0x00000000 on Close().
// File: "ARROW1\0\0", the same stream, then a Footer flatbuffer (schema and
// the Blocks of every dictionary and record batch), its int32 length and
// "ARROW1". A file may not replace a dictionary (deltas are allowed).
//
// Sliced arrays are written as their visible range only: bitmaps are
// re-aligned when the offset is not a multiple of 8, offsets of binary and
// list types are re-based to start at 0, children are cut to the range the
// parent uses. Body buffers are padded to `alignment` bytes; compressed
// buffers carry their uncompressed length (or -1 when left uncompressed
// because compression did not help).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "quiver/array/record_batch.h"
#include "quiver/array/type.h"
#include "quiver/ipc/compression.h"
#include "quiver/io/interfaces.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::ipc {

struct IpcWriteOptions {
  // Body buffer compression (per buffer, as the format prescribes).
  Compression compression = Compression::kNone;
  // Codec level: zstd 1 when unset (Arrow's default), LZ4 frame 0 (fast).
  std::optional<int> compression_level;
  // Every message and every body buffer starts at a multiple of this many
  // bytes: 8 (the format's requirement) or a larger power of two such as 64
  // (cache-line / SIMD friendly buffers for memory-mapped readers).
  int32_t alignment = 8;
  // When a dictionary grows by appending values, send only the new values
  // as a delta (isDelta) instead of the whole dictionary again.
  bool emit_dictionary_deltas = false;
  // Nesting limit for the schema (levels of fields), as for readers.
  int max_recursion_depth = 64;
  // Where temporary and compressed buffers come from.
  MemoryPool* pool = DefaultMemoryPool();
  // Custom metadata for the file footer (file format only).
  MetadataPtr footer_metadata;

  static IpcWriteOptions Defaults() { return {}; }
};

struct WriteStats {
  int64_t num_messages = 0;
  int64_t num_record_batches = 0;
  int64_t num_dictionary_batches = 0;
  int64_t num_dictionary_deltas = 0;
  int64_t num_replaced_dictionaries = 0;
  int64_t total_raw_body_size = 0;         // body bytes before compression
  int64_t total_serialized_body_size = 0;  // body bytes written
};

class RecordBatchWriter {
 public:
  virtual ~RecordBatchWriter() = default;
  // The batch's schema must equal the writer's (field names, types,
  // nullability; metadata is not compared).
  virtual Status WriteRecordBatch(const RecordBatch& batch) = 0;
  // Each of the table's record batches (see Table::ToRecordBatches).
  Status WriteTable(const Table& table);
  // Ends the stream / writes the footer. The sink is not closed. Writing
  // after Close() is an error; a second Close() does nothing.
  virtual Status Close() = 0;
  virtual WriteStats stats() const = 0;
};

// Writes the schema right away, then batches as they come.
Result<std::shared_ptr<RecordBatchWriter>> MakeStreamWriter(
    io::OutputStream* sink, SchemaPtr schema, const IpcWriteOptions& options = {});
Result<std::shared_ptr<RecordBatchWriter>> MakeFileWriter(io::OutputStream* sink, SchemaPtr schema,
                                                          const IpcWriteOptions& options = {});

// Conveniences: a whole table as an IPC stream / file in memory.
Result<std::shared_ptr<Buffer>> SerializeTableToStream(const Table& table,
                                                       const IpcWriteOptions& options = {});
Result<std::shared_ptr<Buffer>> SerializeTableToFile(const Table& table,
                                                     const IpcWriteOptions& options = {});

}  // namespace quiver::ipc
