// Late materialization of filtered reads (docs/design.md "Filtered reads"):
// the execution half of FileReader::ReadTable / GetRecordBatchReader with a
// filter, after the pruning (filtered_read.cc) chose the row groups and the
// rows of each that may match.
//
// The filter's columns are read first (for those rows), the filter is
// evaluated to a mask (a null drops the row), and the mask becomes the
// rows the other (payload) columns read: the runs of matches, with runs
// closer than kMergeGapRows merged (a skip between runs costs about as
// much as decoding that many rows, measured with callgrind, see
// late_materialization.cc). Covered rows that do not match are dropped in
// the read: fragmented matches are decoded masked (the payload's flat
// leaves decode the matches' values only), a dense selection reads its
// covering rows and filters them, as reading everything and filtering
// would.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quiver/array/record_batch.h"
#include "quiver/compute/expression.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/row_selection.h"
#include "quiver/util/result.h"

namespace quiver::parquet::internal {

// Two runs of matches closer than this many rows are read as one run
// (the rows between decoded, then filtered out). Measured with callgrind
// (bench/late_materialization.py, 1M rows, snappy, late / read+filter):
// gap 32 left 10% random selections 1.055-1.097, gap 256 left 1% random
// 1.035-1.076 (each run of a fragmented selection costs more than the
// rows it skips), gap 1024 gives 0.99-1.006 there and keeps 0.1% random
// at 0.90-0.99 and sorted ranges at 0.37-0.88.
inline constexpr int64_t kMergeGapRows = 1024;
// A head or tail of the kept rows of a row group shorter than this before
// the first or after the last match is read too (ReadTable: a selection of
// every row reads as the plain read).
inline constexpr int64_t kMergeEdgeRows = 256;
// Masked decoding (ColumnReader::ReadRecordsMasked): the covered rows of a
// row group (or batch) that are not all matches are read masked (the
// payload's flat leaves decode the matches only, where their column reader
// says it pays: ColumnReader::MaskedReadPays) when the matches are
// fragmented: fewer than kMaskedDecodeMaxMatchesPerRun matches a run of
// matches on average (longer runs are read as runs already); otherwise the
// covered rows are decoded and filtered.
inline constexpr int64_t kMaskedDecodeMaxMatchesPerRun = 16;
// With use_threads, the filter columns' batches are evaluated (and the
// projected ones filtered) on the pool in pieces of this many rows, when
// there are at least two.
inline constexpr int64_t kMaskPieceRows = 64 * 1024;
// For covered rows with bits [offset, offset + rows) of `bits`, `set` of
// them set: 0 when they are not read masked (the rule above), else the
// covered rows per run of matches (RowMask::rows_per_run, at least 1).
int64_t MaskedRowsPerRun(const uint8_t* bits, int64_t offset, int64_t rows, int64_t set);

// The rows of `selection` (a row group's rows, in order) whose bit is set
// in `keep` (bit keep_offset + i is of the selection's i-th row), as runs;
// runs separated by fewer than `merge_gap` rows of the selection are
// merged, and (merge_edges) the run extended to the selection's first
// (last) row when fewer than `merge_gap` rows precede (follow) the matches. The bits of the rows covered are appended to `cover_keep` (a
// bitmap of *cover_length bits); *exact is true when every covered row is
// kept.
RowRanges CoverMatches(const RowRanges& selection, const uint8_t* keep, int64_t keep_offset,
                       int64_t merge_gap, std::vector<uint8_t>* cover_keep, int64_t* cover_length,
                       bool* exact, bool merge_edges = true);

// Reads `columns` (nullopt: every field) of `row_groups`, rows
// `selections`, where `filter` is true, as FileReader::ReadTable(filter,
// ...) documents; the filter's columns decoded first, the others at the
// matches (their covering runs, runs closer than `merge_gap` rows merged:
// INT64_MAX reads every row kept and filters, as reading everything would)
// only. Counters go to the reader's stats.
// `masked_decode` off: the covered rows are always decoded then filtered.
Result<TablePtr> ReadLate(FileReader& reader, const compute::Expression& filter,
                          const std::optional<std::vector<std::string>>& columns,
                          const std::vector<int>& row_groups,
                          const std::vector<RowRanges>& selections,
                          int64_t merge_gap = kMergeGapRows, bool masked_decode = true);

// The same batch by batch (batches of at most `batch_size` rows read,
// holding their matches; batches with none are not returned): each batch's
// filter columns decoded, then the payload at its matches.
Result<RecordBatchReaderPtr> ReadLateBatches(FileReader& reader,
                                             const compute::Expression& filter,
                                             const std::optional<std::vector<std::string>>& columns,
                                             const std::vector<int>& row_groups,
                                             const std::vector<RowRanges>& selections,
                                             int64_t batch_size,
                                             int64_t merge_gap = kMergeGapRows,
                                             bool masked_decode = true);

}  // namespace quiver::parquet::internal
