// What the metadata says about one column over a span of rows (a column
// chunk, a page, a piece of a page): the facts filter pruning
// (pruning.h) reasons from, without decoding data.
//
// The rules a summary keeps (apache/parquet-format PageIndex.md, the
// Statistics of parquet.thrift, docs/design.md "Filter pruning"):
//   - min / max are a lower and an upper bound of the span's non-null,
//     non-NaN values, as Scalars of the column's statistics bound type
//     (metadata/statistics.h: sort order, legacy min/max, untrusted
//     writers and INT96 are already decided there; an absent bound means
//     "unbounded" on that side). A truncated byte-array bound is still a
//     bound; a bound that is not flagged exact never proves that every
//     value equals it or lies strictly inside a range (the evaluation
//     never concludes "all true" from it). A NaN bound is dropped.
//   - null_count: absent means unknown, never zero. A required column
//     (max definition level 0) has none, whatever the metadata says.
//   - nan_count: absent means NaNs may occur (for floating columns; the
//     evaluation only asks for NaN on columns whose read type is
//     floating).
//   - num_values: the span's values, nulls included (its rows, for the
//     flat top-level columns filters read).
#pragma once

#include <cstdint>
#include <optional>

#include "quiver/array/scalar.h"
#include "quiver/parquet/metadata/file_metadata.h"
#include "quiver/parquet/metadata/page_index.h"
#include "quiver/parquet/metadata/statistics.h"

namespace quiver::parquet {

struct ColumnSummary {
  std::optional<Scalar> min;  // valid, non-NaN scalars when present
  std::optional<Scalar> max;
  bool min_exact = false;
  bool max_exact = false;
  int64_t num_values = 0;
  std::optional<int64_t> null_count;
  std::optional<int64_t> nan_count;

  // Whether the span may hold a null / a NaN (a floating column) / a value
  // that is neither (one inside [min, max] when the bounds are present).
  bool MayHaveNulls() const;
  bool MayHaveNaN() const;
  bool MayHaveValues() const;

  // Nothing known but the number of values (no statistics).
  static ColumnSummary Unknown(int64_t num_values, bool required);
  // From decoded Statistics (a column chunk's, FileReader::ReadStatistics
  // or ColumnChunkMetaData::statistics(); or a data page header's
  // statistics decoded with DecodeStatistics, statistics_internal.h, for
  // files without a column index). `stats` may be null (none).
  // `num_values`: the chunk's or page's values, nulls included.
  // Exactness: as stored; absent is inexact (statistics.h).
  // `use_bounds` false keeps the counts only (StatisticsBoundsUsable).
  static ColumnSummary FromStatistics(const Statistics* stats, int64_t num_values,
                                      bool required, bool use_bounds = true);
  // Page `page` of a ColumnIndex, whose values (nulls included) are
  // `num_values` (from the OffsetIndex: the next page's first row less
  // this one's, for a flat column). null_pages[page] means every value is
  // null; null_counts / nan_counts when the index has them. Page bounds
  // carry no exactness flag: taken as exact for fixed-width values,
  // inexact for byte arrays (which writers truncate).
  static ColumnSummary FromColumnIndexPage(const ColumnIndex& index, int64_t page,
                                           int64_t num_values, bool required);
};

// Whether the statistics bounds (chunk or page header) of leaf `column`
// may serve pruning. False for byte arrays (BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY) in a file without column orders: their bounds are
// then the legacy min / max, which parquet-mr before 1.10 computed by
// comparing Java's signed bytes (PARQUET-686, PARQUET-1065): a DECIMAL on
// FIXED_LEN_BYTE_ARRAY holding 1.00 to 24.00 says min 2.00
// (parquet-testing fixed_length_decimal.parquet; pyarrow trusts it and
// its filters= drops the row 1.00). Statistics.h keeps them, as pyarrow
// shows them; pruning must not.
bool StatisticsBoundsUsable(const FileMetaData& metadata, int column);

// Whether every data page of the chunk is dictionary-encoded, so that the
// chunk's values are all among its dictionary page's: the chunk's
// encoding_stats (PageEncodingStats) list data pages (DATA_PAGE /
// DATA_PAGE_V2) only with PLAIN_DICTIONARY or RLE_DICTIONARY, and at least
// one dictionary page. Without encoding_stats: false (the encodings list
// cannot tell a PLAIN dictionary page from a PLAIN fallback data page; as
// Arrow C++ and parquet-mr, no guess).
bool IsFullyDictionaryEncoded(const ColumnChunkMetaData& chunk);

}  // namespace quiver::parquet
