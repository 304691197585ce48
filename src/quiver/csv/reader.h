// The streaming CSV reader: bytes in blocks (ReadOptions::block_size) ->
// tokenizer (tokenizer.h) -> columns (column_convert.h) -> one record batch
// per block. Memory: about one block, plus the blocks inference looks at
// before the first batch (ConvertOptions::infer_rows), plus the batch.
//
// Column types: ConvertOptions::column_types, else inferred over the first
// infer_rows rows (the first block by default, as pyarrow). A later value
// that does not fit its column's type is an error naming the input, line,
// column, value and type, and how to widen the inference or give the type;
// with OnError::kSkip the row is rejected instead (as rows with the wrong
// number of fields), counted and handed to the reject sink verbatim.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/array/record_batch.h"
#include "quiver/csv/column_convert.h"
#include "quiver/csv/options.h"
#include "quiver/csv/tokenizer.h"
#include "quiver/io/interfaces.h"
#include "quiver/memory/memory_pool.h"

namespace quiver::csv {

// A rejected row: its first line, its bytes (without the line end) and why.
struct RejectedRow {
  int64_t line;
  std::string_view bytes;
  std::string reason;
};
using RejectSink = std::function<Status(const RejectedRow&)>;
// A fresh stream over the same input (inference over all rows reads twice).
using Reopen = std::function<Result<std::unique_ptr<io::InputStream>>()>;

class StreamingReader {
 public:
  // `name` is the input's name in messages. `reopen` is needed only for
  // ConvertOptions::infer_rows == kInferAll (else Invalid).
  static Result<std::unique_ptr<StreamingReader>> Open(
      std::unique_ptr<io::InputStream> input, std::string name, const ReadOptions& read,
      const ParseOptions& parse, const ConvertOptions& convert, Reopen reopen = {},
      RejectSink reject_sink = {}, MemoryPool* pool = DefaultMemoryPool());
  ~StreamingReader();

  const SchemaPtr& schema() const { return schema_; }
  // The next batch (one per block that holds rows), nullptr after the last.
  Result<RecordBatchPtr> Next();
  // Rows rejected so far (OnError::kSkip).
  int64_t rows_rejected() const { return rows_rejected_; }
  int64_t rows_read() const { return rows_read_; }
  // Input bytes consumed so far.
  int64_t bytes_read() const { return bytes_read_; }

 private:
  struct Block;
  StreamingReader() = default;
  Status Start(std::unique_ptr<io::InputStream> input);
  Status Fill(int64_t want);
  Result<bool> NextBlock(Block* block);
  Status InferTypes();
  Status Reject(const Block& block, int64_t row_start, int64_t row_end, std::string reason);
  Result<RecordBatchPtr> ConvertBlock(Block* block);
  int64_t LineOf(const Block& block, int64_t offset) const;
  std::string Where(const Block& block, int64_t offset) const;

  std::string name_;
  ReadOptions read_;
  ParseOptions parse_;
  ConvertOptions convert_;
  Reopen reopen_;
  RejectSink reject_sink_;
  MemoryPool* pool_ = nullptr;
  std::unique_ptr<ConvertContext> ctx_;

  std::unique_ptr<io::InputStream> input_;
  std::vector<uint8_t> buf_;  // bytes not tokenized yet
  bool eof_ = false;
  int64_t line_ = 1;  // line of buf_[0]
  int64_t bytes_read_ = 0;
  std::unique_ptr<Tokenizer> tokenizer_;

  std::vector<std::string> names_;     // of every CSV column
  std::vector<int32_t> selected_;      // CSV column of each output column
  std::vector<TypePtr> types_;         // of each output column (null: infer)
  std::vector<bool> inferred_;         // whether types_[i] was inferred
  int64_t infer_rows_seen_ = 0;
  SchemaPtr schema_;
  std::deque<std::unique_ptr<Block>> pending_;  // tokenized during inference
  // Blocks and byte buffers done with, reused (no fresh pages per block).
  std::unique_ptr<Block> spare_block_;
  std::vector<uint8_t> spare_bytes_;
  int64_t rows_rejected_ = 0;
  int64_t rows_read_ = 0;
};

// Reads a whole input into batches (for tests and the Python read_csv).
Result<std::vector<RecordBatchPtr>> ReadAll(StreamingReader* reader);

}  // namespace quiver::csv
