// Reading Parquet files into Arrow arrays.
//
//   QUIVER_ASSIGN_OR_RAISE(auto reader, parquet::FileReader::Open("data.parquet"));
//   QUIVER_ASSIGN_OR_RAISE(TablePtr table, reader->ReadTable());
//   // or batch by batch, holding about one batch and one page per column:
//   QUIVER_ASSIGN_OR_RAISE(auto batches, reader->GetRecordBatchReader({}, {}, 65536));
//   // or only some rows of some row groups (row_selection.h), skipping the
//   // pages no selected row is in:
//   QUIVER_ASSIGN_OR_RAISE(auto rows, RowRanges::Make({{100, 200}}));
//   QUIVER_ASSIGN_OR_RAISE(TablePtr some, reader->ReadRowGroups({0}, {rows}));
//   reader->read_stats();  // pages skipped, decompressed, bytes read, ...
//
// The file is untrusted: every size, offset and count is checked against
// the bytes present before it is used; a bad file gives an Invalid (or
// IOError, NotImplemented for encryption, LZO) naming the file, row group,
// column and page; every array returned passes ValidateFull(). The Arrow
// schema is pyarrow's (parquet/schema/parquet_to_arrow.h), ARROW:schema
// restoring the original types; a corrupt ARROW:schema is ignored with a
// warning (warnings()).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quiver/array/record_batch.h"
#include "quiver/array/type.h"
#include "quiver/io/interfaces.h"
#include "quiver/parquet/encryption/decryption_properties.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/parquet/bloom/bloom_filter.h"
#include "quiver/parquet/schema/parquet_to_arrow.h"
#include "quiver/parquet/metadata/file_metadata.h"
#include "quiver/parquet/metadata/page_index.h"
#include "quiver/parquet/metadata/statistics.h"
#include "quiver/parquet/reader/read_stats.h"
#include "quiver/parquet/reader/row_selection.h"
#include "quiver/parquet/thrift/thrift_limits.h"
#include "quiver/util/result.h"

namespace quiver::compute {
class Expression;  // compute/expression.h
}  // namespace quiver::compute

namespace quiver::parquet {

class ParquetBatchReader;
struct FilterPlan;
struct PruningSource;  // reader/pruning_sources_internal.h (not installed)
class SchemaDescriptor;  // schema/schema_descriptor_internal.h (not installed)

struct ReaderOptions {
  // Rows per batch of GetRecordBatchReader (pyarrow's iter_batches default).
  int64_t batch_size = 65536;
  // Types: coerce_int96_timestamp_unit, read_dictionary, binary_type, list_type.
  ParquetToArrowOptions arrow;
  // pyarrow's page_checksum_verification.
  bool page_checksum_verification = false;
  // pyarrow's thrift_string_size_limit / thrift_container_size_limit (the
  // footer and every page header).
  thrift::ThriftLimits thrift_limits;
  // Where arrays and pages are allocated (nullptr: the default pool).
  MemoryPool* pool = nullptr;
  // A byte cap on what the reader holds at once from `pool` (<= 0: none):
  // for untrusted files, an allocation past it fails with OutOfMemory.
  int64_t memory_limit = 0;
  // String columns holding invalid UTF-8 (pyarrow reads them unvalidated;
  // such arrays fail ValidateFull). kError: the read fails with an Invalid
  // naming the file, row group, column, page and value, and this option.
  // kBinary: a string leaf (string, large_string, string_view, or a
  // dictionary of them; under lists and structs too) holding invalid UTF-8
  // in the rows a read covers is read as the binary type of the same
  // layout, the fields above it retyped to match; the other string leaves
  // stay strings. It is decided per leaf over the whole read: ReadTable
  // over its row groups; GetRecordBatchReader over its row groups before
  // the first batch (it scans the selected string leaves first, so every
  // batch has the reader's schema). schema() and SchemaFor() give the
  // stored types.
  enum class InvalidUtf8 : uint8_t { kError, kBinary };
  InvalidUtf8 invalid_utf8 = InvalidUtf8::kError;
  // pyarrow's use_threads: ReadTable, ReadRowGroup(s) and the filtered
  // ReadTable decode their (row group, top-level column) units as tasks on
  // the CPU pool (util/thread_pool.h), the calling thread working too. The
  // result, read_stats() and any error are those of one thread (the error
  // of the first failing unit in file order: row group, then column; after
  // a failed read, read_stats() may also count units that had started past
  // the failing one).
  // GetRecordBatchReader's batches decode their top-level columns as tasks
  // the same way (one batch at a time: no read-ahead). A read (or batch)
  // whose column chunks hold under kParallelReadMinBytes to decode, or of
  // one unit, stays on the calling thread, and so does every read with a
  // memory_limit (which allocation passes the cap would depend on timing).
  bool use_threads = true;
  // Keys for files written with Parquet Modular Encryption
  // (encryption/decryption_properties.h). Without them an encrypted footer
  // is refused (NotImplemented) and so are the pages of encrypted columns.
  std::shared_ptr<const FileDecryptionProperties> decryption_properties;
};

// Uncompressed column-chunk bytes a read must cover before use_threads
// hands its units to the pool (docs/design.md "Parallel reads" for the
// measurement behind it).
inline constexpr int64_t kParallelReadMinBytes = 1 << 20;

class FileReader {
 public:
  static Result<std::unique_ptr<FileReader>> Open(std::shared_ptr<io::RandomAccessFile> file,
                                                  const ReaderOptions& options = {});
  // Opens the file at `path` (read with pread).
  static Result<std::unique_ptr<FileReader>> Open(const std::string& path,
                                                  const ReaderOptions& options = {});
  ~FileReader();
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;

  // The footer, typed (file_metadata.h).
  std::shared_ptr<const FileMetaData> metadata() const;
  // The Arrow schema of a full read.
  const SchemaPtr& schema() const;
  const std::vector<std::string>& warnings() const;
  int num_row_groups() const;
  int64_t num_rows() const;

  // `columns`: top-level field names or dotted leaf paths (as
  // ColumnChunkMetaData::dotted_path); nullopt: every column. A struct selected by
  // some of its leaves keeps only those fields. Unknown names are Invalid.
  // `row_groups`: indices; nullopt: all.
  Result<TablePtr> ReadTable(const std::optional<std::vector<std::string>>& columns = std::nullopt,
                             const std::optional<std::vector<int>>& row_groups = std::nullopt);
  Result<TablePtr> ReadRowGroup(int row_group,
                                const std::optional<std::vector<std::string>>& columns = std::nullopt);
  // Batches of at most `batch_size` rows (<= 0: the options' batch_size),
  // row group after row group. The reader must outlive the batch reader.
  Result<RecordBatchReaderPtr> GetRecordBatchReader(
      const std::optional<std::vector<std::string>>& columns = std::nullopt,
      const std::optional<std::vector<int>>& row_groups = std::nullopt, int64_t batch_size = 0);

  // Reads of some rows: of row group row_groups[i], only the rows
  // selections[i] names (row indices within the row group), in file order;
  // the same table as reading those row groups whole and taking those rows.
  // A selection past the row group's num_rows, or a count of selections
  // other than of row groups, is Invalid; an empty selection reads nothing
  // of its row group. Rows not selected are skipped without being decoded
  // into arrays: a page no selected row is in is neither read nor
  // decompressed where the column chunk has an offset index (else its
  // levels are decoded and its values skipped), and nothing after the last
  // selected row of a row group is read. (Reads of every row of a row group
  // read it as ReadTable does.)
  Result<TablePtr> ReadRowGroups(const std::vector<int>& row_groups,
                                 const std::vector<RowRanges>& selections,
                                 const std::optional<std::vector<std::string>>& columns =
                                     std::nullopt);
  // The same as batches of at most `batch_size` selected rows (<= 0: the
  // options' batch_size); a batch holds rows of one row group.
  Result<RecordBatchReaderPtr> GetRecordBatchReader(
      const std::optional<std::vector<std::string>>& columns, const std::vector<int>& row_groups,
      const std::vector<RowRanges>& selections, int64_t batch_size = 0);

  // Filtered reads (docs/design.md "Filtered reads"): the rows of the read
  // where `filter` is true (a null drops the row), in file order, as
  // pyarrow's read_table(filters=) and equal to reading `columns` plus the
  // filter's fields and filtering (FilterByExpression); the filter's
  // fields need not be in `columns` and are not returned (`columns` empty:
  // a table of no columns whose num_rows is the number of matches). The
  // filter is bound against schema() first, so a missing field (a dotted
  // name included) or a literal a column cannot be compared with is
  // Evaluate's error (pyarrow's) even when no row group is read. Before
  // decoding, per row group: the filter fields' chunk statistics, then
  // their bloom filters (== and is_in), may prove no row matches: the row
  // group is not read (read_stats().row_groups_pruned_statistics /
  // _bloom); else their column and offset indexes give the rows that may
  // match, and only those rows are read, every column skipping the pages
  // none of them is in (pages_skipped). Counters and bytes (page indexes
  // and bloom filters included) go to read_stats().
  Result<TablePtr> ReadTable(const compute::Expression& filter,
                             const std::optional<std::vector<std::string>>& columns = std::nullopt,
                             const std::optional<std::vector<int>>& row_groups = std::nullopt);
  Result<TablePtr> ReadRowGroup(int row_group, const compute::Expression& filter,
                                const std::optional<std::vector<std::string>>& columns =
                                    std::nullopt);
  // Batches of at most `batch_size` rows read, holding the matches of
  // them (batches with no match are not returned); the pruning runs when
  // the reader is made.
  Result<RecordBatchReaderPtr> GetRecordBatchReader(
      const compute::Expression& filter, const std::optional<std::vector<std::string>>& columns,
      const std::optional<std::vector<int>>& row_groups = std::nullopt, int64_t batch_size = 0);

  // ReaderOptions::use_threads for the reads after this call (pyarrow
  // takes use_threads per read call). Not thread-safe with a read running.
  void set_use_threads(bool on);

  // What the last read call did (read_stats.h): ReadTable, ReadRowGroup,
  // ReadRowGroups and GetRecordBatchReader start it afresh; a batch reader
  // adds each batch's work to the stats of the call that made it (those
  // read_stats() returns until the next read call). Not thread-safe with a
  // read running.
  ReadStats read_stats() const;

  // The page index and bloom filter of leaf column `column` (0 to
  // metadata()->num_columns() - 1, in the order of a row group's column
  // chunks) in row group `row_group`: nullopt when the
  // chunk has none; Invalid when they lie outside the data region or do
  // not decode. The column index's bounds are typed as the statistics'
  // (metadata/page_index.h). A bloom filter answers
  // FindHash(BloomFilter::Hash(value)): false means the value is certainly
  // absent from the chunk.
  Result<std::optional<ColumnIndex>> ReadColumnIndex(int row_group, int column) const;
  Result<std::optional<OffsetIndex>> ReadOffsetIndex(int row_group, int column) const;
  // The chunk's statistics, decoded by metadata/statistics.h's rules:
  // nullopt when it has none or they are not to be trusted; Invalid for a
  // row group or column out of range.
  Result<std::optional<Statistics>> ReadStatistics(int row_group, int column) const;
  Result<std::optional<BloomFilter>> ReadBloomFilter(int row_group, int column) const;

  // The schema a read of `columns` returns.
  Result<SchemaPtr> SchemaFor(const std::optional<std::vector<std::string>>& columns) const;

 private:
  friend class ParquetBatchReader;
  // The Parquet schema as the reader resolved it (file_reader_internal.h).
  friend const SchemaDescriptor& ParquetSchemaOf(const FileReader& reader);
  friend void SetSkipPagesByOffsetIndex(FileReader& reader, bool on);
  // The file, footer and page options filter pruning reads pages through,
  // and where it leaves the page locations it found in page headers
  // (pruning_sources_internal.h).
  friend PruningSource PruningSourceOf(const FileReader& reader);
  friend void AddHeaderPageLocations(FileReader& reader, int row_group, int column,
                                     std::vector<PageLocation> locations);
  friend void SetParallelReadMinBytes(FileReader& reader, int64_t bytes);
  // Filtered reads (filtered_read.cc).
  Result<FilterPlan> PlanFilter(const compute::Expression& filter,
                                const std::optional<std::vector<std::string>>& columns,
                                const std::optional<std::vector<int>>& row_groups);
  Result<std::vector<int>> CheckedRowGroups(const std::optional<std::vector<int>>& row_groups) const;
  // Bytes the file was asked for since it was opened.
  int64_t BytesRequested() const;
  // Adds the pruning's counters to the last read call's stats, and the
  // bytes it read (before the call started) to its bytes_read.
  // `pages_skipped`: the filter columns' pages the pruning left unread
  // (row groups all of whose pages it pruned).
  void AddPruningStats(int64_t statistics, int64_t bloom, int64_t dictionary, int64_t bytes,
                       int64_t pages_skipped = 0);
  struct Impl;
  explicit FileReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace quiver::parquet
