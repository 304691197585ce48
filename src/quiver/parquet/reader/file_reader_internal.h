// The reader's internals that its tests, the Python bindings, the CLI and the
// fuzz target reach: the resolved Parquet schema (not installed; the public
// view of the schema is FileMetaData::schema_elements()), a switch for how
// selections skip pages, and the size from which use_threads reads go
// parallel.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quiver/compute/filter.h"
#include "quiver/memory/buffer.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"

namespace quiver::parquet {

const SchemaDescriptor& ParquetSchemaOf(const FileReader& reader);

// Reads of row selections skip pages through the chunks' offset indexes
// (the default) or, off, only by decoding levels and skipping values (for
// the fuzz target, which compares such reads with reading everything: an
// offset index is trusted, so one that lies may change what is read).
void SetSkipPagesByOffsetIndex(FileReader& reader, bool on);

// Late materialization (late_materialization.cc). A batch's rows as (rows
// to skip, rows to read) steps from `start`, a position in row group
// `group`: the refiner replaces them with steps spanning as many rows (the
// rows not read skipped) and sets *rows to the rows the batch returns. It
// may also set mask->bits to a bitmap of the rows the refined steps read
// (bit i: their i-th row; valid until the batch is read): the batch then
// holds only the rows whose bit is set (*rows of them), flat leaves read
// masked where that pays (see RowMask::rows_per_run), the other columns
// read and filtered.
struct BatchMask {
  const uint8_t* bits = nullptr;
  int64_t rows_per_run = 0;
};
using BatchSteps = std::vector<std::pair<int64_t, int64_t>>;
using BatchRefiner = std::function<Status(int group, int64_t start, const BatchSteps& steps,
                                          BatchSteps* refined, int64_t* rows, BatchMask* mask)>;

// The rows a masked read returns of one row group's selection: bits
// [offset, offset + the selection's rows) of `bits`, bit i for its i-th
// row; nullptr bits: every selected row. `decode_masked`: flat leaves
// decode only those rows' values (ColumnReader::ReadRecordsMasked) where
// their column reader says it pays for masks with `rows_per_run` rows of
// the selection a run of set bits (ColumnReader::MaskedReadPays; 0: not
// known, always); the other columns, and every column without
// decode_masked, read every selected row and are filtered.
struct RowMask {
  std::shared_ptr<Buffer> bits;
  int64_t offset = 0;
  bool decode_masked = true;
  int64_t rows_per_run = 0;
  // Optional: the same mask (the selection's rows) as a filter, made once
  // and shared by the columns that read every selected row.
  std::shared_ptr<const compute::FilterContext> filter;
};
// ReadRowGroups(row_groups, selections, columns) returning of each row
// group only the selected rows its mask sets (masks: one per row group).
// With decode_masked, flat top-level leaves decode only those rows' values
// (ColumnReader::ReadRecordsMasked); other columns (and every column
// without it) are read over the selection and filtered. The same units,
// threads and stats as ReadRowGroups.
Result<TablePtr> ReadRowGroupsMasked(FileReader& reader, const std::vector<int>& row_groups,
                                     const std::vector<RowRanges>& selections,
                                     const std::vector<RowMask>& masks,
                                     const std::optional<std::vector<std::string>>& columns);
// GetRecordBatchReader(columns, row_groups, selections, batch_size) whose
// batches read the refiner's steps, adding to the stats of the current read
// call (it starts none).
Result<RecordBatchReaderPtr> MakeRefinedBatchReader(
    FileReader& reader, const std::optional<std::vector<std::string>>& columns,
    const std::vector<int>& row_groups, const std::vector<RowRanges>& selections,
    int64_t batch_size, BatchRefiner refiner);
// ReaderOptions::pool as the reader uses it (capped by memory_limit).
MemoryPool* ReaderPoolOf(const FileReader& reader);
// Whether the reader's reads may run on the pool (use_threads, no
// memory_limit, a pool with workers).
bool ReaderMayUseThreads(const FileReader& reader);
// Adds `earlier` (the stats of an earlier read call that belongs to this
// one) to the current call's stats.
void AddEarlierStats(FileReader& reader, const ReadStats& earlier);
// The bytes a use_threads read must cover to run on the pool (default
// kParallelReadMinBytes or QUIVER_MIN_TASK_WORK; 0: every read of two units
// or more; < 0: back to the default), for tests that check the parallel
// path on small files.
void SetParallelReadMinBytes(FileReader& reader, int64_t bytes);

}  // namespace quiver::parquet
