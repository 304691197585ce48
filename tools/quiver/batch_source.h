// The record batches of an input of `quiver convert`, `rewrite` and `cat`:
// a Parquet file (told by its leading magic "PAR1") or an Arrow IPC file
// (leading "ARROW1") or stream (anything else). "-" reads standard input to
// its end first; a regular file is memory-mapped, and a Parquet file is
// decoded batch by batch (parquet::FileReader::GetRecordBatchReader), so
// only about one batch and one page per column are held at a time.
//
// Every error names the input (and, from the Parquet reader, the row group,
// column and page).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/array/record_batch.h"
#include "quiver/compute/expression.h"
#include "quiver/util/result.h"

namespace quiver::parquet {
class FileReader;
}  // namespace quiver::parquet

namespace quiver::cli {

struct SourceOptions {
  // IPC: run the full validation of every batch (offsets, UTF-8). Parquet
  // batches are always fully validated by the reader.
  bool validate_ipc = true;
  // Parquet only (Invalid for IPC input when set): top-level names or
  // dotted leaf paths, and row group indices.
  std::optional<std::vector<std::string>> columns;
  std::optional<std::vector<int>> row_groups;
  // Parquet: rows per batch (<= 0: the reader's default, 65536).
  int64_t batch_size = 0;
  // The rows to keep (`--where`): Parquet reads filter in the reader
  // (FileReader::GetRecordBatchReader with a filter: row groups and pages
  // pruned); IPC batches are filtered as read. Batches hold matches only.
  std::optional<compute::Expression> filter;
};

class BatchSource {
 public:
  static Result<std::unique_ptr<BatchSource>> Open(const std::string& path,
                                                   const SourceOptions& options);
  virtual ~BatchSource() = default;

  // The schema of the batches. For Parquet, with the footer's key/value
  // metadata less ARROW:schema (which a writer regenerates).
  virtual const SchemaPtr& schema() const = 0;
  // "Parquet", "IPC file" or "IPC stream".
  virtual std::string_view format_name() const = 0;
  // The next batch, or nullptr after the last.
  virtual Result<RecordBatchPtr> Next() = 0;
  // The rows to come in all, or -1 when unknown (an IPC input).
  virtual int64_t total_rows() const = 0;
  // The input's bytes consumed so far (an estimate, for the progress line).
  virtual int64_t bytes_done() const = 0;
  // The Parquet reader, or nullptr for IPC input.
  virtual parquet::FileReader* parquet_reader() { return nullptr; }

  // The input's name for messages ("<stdin>" for "-") and size in bytes.
  const std::string& name() const { return name_; }
  int64_t total_bytes() const { return total_bytes_; }

 protected:
  std::string name_;
  int64_t total_bytes_ = 0;
};

}  // namespace quiver::cli
