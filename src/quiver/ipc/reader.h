// Arrow IPC readers: the streaming format (a quiver::RecordBatchReader) and
// the random-access file format (Arrow columnar format, "IPC Streaming
// Format", "IPC File Format").
//
// Reading from a Buffer is zero-copy: arrays point into slices of the input
// (a buffer is copied only when it is compressed, or misaligned in memory
// for its type). Dictionaries: a delta dictionary (isDelta) is appended to
// the current one; in streams a non-delta dictionary replaces it for the
// batches that follow; files must not replace dictionaries.
//
// Untrusted input is safe to read: every flatbuffer is verified before use,
// every buffer range is checked against the body, every length against the
// remaining input, decompression is bounded (see compression_internal.h)
// and allocates from `pool`, schema nesting is limited, and every batch is
// structurally validated (Array::Validate; ValidateFull on request) before
// it is returned. Malformed input gives an error Status, never a crash.
#pragma once

#include <cstdint>
#include <memory>

#include "quiver/array/record_batch.h"
#include "quiver/array/type.h"
#include "quiver/io/interfaces.h"
#include "quiver/memory/buffer.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::ipc {

struct IpcReadOptions {
  // Where decompressed and re-aligned buffers come from. Pass a
  // CappedMemoryPool to bound what a hostile input can make us allocate.
  MemoryPool* pool = DefaultMemoryPool();
  // Nesting limit for schemas (levels of fields).
  int max_recursion_depth = 64;
  // Largest uncompressed size accepted for one compressed buffer.
  int64_t max_decompressed_buffer_size = int64_t{1} << 34;  // 16 GiB
  // Run the O(n) Array::ValidateFull on every batch and dictionary (the
  // structural Array::Validate always runs).
  bool validate_full = false;

  static IpcReadOptions Defaults() { return {}; }
};

struct ReadStats {
  int64_t num_messages = 0;
  int64_t num_record_batches = 0;
  int64_t num_dictionary_batches = 0;
  int64_t num_dictionary_deltas = 0;
  int64_t num_replaced_dictionaries = 0;
};

class RecordBatchStreamReader final : public RecordBatchReader {
 public:
  ~RecordBatchStreamReader() override;

  // Reads the schema message at once; batches on Next(). The stream must
  // outlive the reader.
  static Result<std::shared_ptr<RecordBatchStreamReader>> Open(
      io::InputStream* stream, const IpcReadOptions& options = {});
  // Reads from a buffer (zero-copy).
  static Result<std::shared_ptr<RecordBatchStreamReader>> Open(
      std::shared_ptr<Buffer> buffer, const IpcReadOptions& options = {});

  SchemaPtr schema() const override;
  // The next batch, or nullptr at the end of the stream.
  Result<RecordBatchPtr> Next() override;
  ReadStats stats() const;

 private:
  class Impl;
  explicit RecordBatchStreamReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class RecordBatchFileReader {
 public:
  ~RecordBatchFileReader();

  // Reads the footer and every dictionary; batches on demand.
  static Result<std::shared_ptr<RecordBatchFileReader>> Open(std::shared_ptr<Buffer> file,
                                                             const IpcReadOptions& options = {});

  SchemaPtr schema() const;
  int num_record_batches() const;
  int num_dictionaries() const;
  // Custom metadata of the footer (nullptr if none).
  MetadataPtr metadata() const;
  Result<RecordBatchPtr> ReadRecordBatch(int i);
  // Every batch, in order.
  Result<TablePtr> ReadTable();
  ReadStats stats() const;

 private:
  class Impl;
  explicit RecordBatchFileReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace quiver::ipc
