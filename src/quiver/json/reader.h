// The streaming JSON Lines reader: bytes in blocks (ReadOptions::block_size,
// ending at a line end) -> simdjson's DOM parser (parse_many: blank lines and
// several objects on a line are read as pyarrow reads them) -> one record
// batch per block holding rows.
//
// Types (pyarrow.json's inference): null; bool; int64, widened to double by
// a fraction, an exponent or an integer beyond int64; string, or timestamp[s]
// while every string is an ISO 8601 date or date-time without a fraction
// (an offset converted to UTC); arrays -> list<inferred item>; objects ->
// struct with fields in the order first seen; a field missing in a row is
// null. Kinds that cannot widen (number vs string, ...) are an error naming
// the line and the column path ("/a/[]/b"), as a value that does not fit
// the type inferred over the first blocks, and invalid JSON (line and byte
// offset). Every row must be an object.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "quiver/array/record_batch.h"
#include "quiver/io/interfaces.h"
#include "quiver/json/options.h"
#include "quiver/memory/memory_pool.h"

namespace quiver::json {

class StreamingReader {
 public:
  // `name` is the input's name in messages.
  static Result<std::unique_ptr<StreamingReader>> Open(std::unique_ptr<io::InputStream> input,
                                                       std::string name,
                                                       const ReadOptions& read,
                                                       const ParseOptions& parse,
                                                       MemoryPool* pool = DefaultMemoryPool());
  ~StreamingReader();

  const SchemaPtr& schema() const { return schema_; }
  // The next batch (one per block that holds rows), nullptr after the last.
  Result<RecordBatchPtr> Next();
  int64_t rows_read() const { return rows_read_; }
  int64_t bytes_read() const { return bytes_read_; }

  struct Impl;

 private:
  StreamingReader() = default;
  SchemaPtr schema_;
  int64_t rows_read_ = 0;
  int64_t bytes_read_ = 0;
  std::unique_ptr<Impl> impl_;
};

// Reads a whole input into batches (for tests and the Python read_json).
Result<std::vector<RecordBatchPtr>> ReadAll(StreamingReader* reader);

}  // namespace quiver::json
