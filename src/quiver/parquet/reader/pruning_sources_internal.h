// The facts filter pruning reads from a column chunk's pages rather than
// from the footer or the page index (docs/design.md "Filter pruning",
// issue 45 §1), for FileReader::PlanFilter (filtered_read.cc):
//
//   - ReadPruningDictionary: the chunk's dictionary page, read and decoded
//     into the field's read type, for a chunk whose every data page is
//     dictionary-encoded (IsFullyDictionaryEncoded: encoding_stats say so;
//     without them nothing is assumed). Only dictionaries whose stored page
//     (header and body) is at most kMaxPruningDictionaryBytes and either
//     small (kSmallPruningDictionaryBytes) or at most
//     1/kMinChunkPerDictionary of the chunk are read: the reader reads the
//     page again when the row group is kept, so a dictionary that is most
//     of its chunk (a column of distinct values, whose entries rarely miss
//     a filter the statistics kept) would double that column's bytes for
//     little. Exactly the dictionary page's bytes are requested (the
//     footer's dictionary_page_offset and data_page_offset bound it).
//   - ReadPageHeaderFacts: for a flat (max_rep 0) chunk without a column
//     index, its data pages' headers, read one by one without their bodies
//     (a small window per header, grown when a header is longer): each
//     page's first row, summary (its DataPageHeader(V2) statistics by the
//     chunk statistics' rules: sort order, legacy min/max, writer bugs; a
//     missing null count is unknown) and place, so that the filter column
//     can then skip the pages no selected row touches as through an offset
//     index.
//
// Neither ever fails a read: a chunk whose pages do not decode or do not
// add up (rows summing to other than the row group's, a page of no rows)
// gives nothing (nullopt / nullptr) and the read that follows meets, and
// reports, the same bytes. I/O errors are returned.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/array/type.h"
#include "quiver/io/interfaces.h"
#include "quiver/io/read_ranges.h"
#include "quiver/parquet/metadata/page_index.h"
#include "quiver/parquet/pruning/column_summary.h"
#include "quiver/parquet/reader/page_reader_internal.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

class FileReader;

// What the pruning reads pages through: the reader's (counting) file, its
// footer and schema, and its page options (limits, checksums, pool).
struct PruningSource {
  std::shared_ptr<io::RandomAccessFile> file;
  const format::FileMetaData* metadata = nullptr;
  const SchemaDescriptor* descriptor = nullptr;
  int64_t data_end = 0;  // where the footer starts
  PageReaderOptions page_options;
};

// The reader's (file_reader.cc; friends of FileReader).
PruningSource PruningSourceOf(const FileReader& reader);
// Leaves a chunk's header-found data pages (HeaderPages::locations) for
// the reader's later reads of row selections to skip pages by
// (PageReaderOptions::header_locations).
void AddHeaderPageLocations(FileReader& reader, int row_group, int column,
                            std::vector<PageLocation> locations);

// The largest stored dictionary page (header included) read for pruning.
inline constexpr int64_t kMaxPruningDictionaryBytes = int64_t{1} << 20;
// ... and at most 1 KiB (one small read, worth a whole row group it may
// prune) or at most this fraction (1/4) of the chunk's stored bytes.
inline constexpr int64_t kSmallPruningDictionaryBytes = 1024;
inline constexpr int64_t kMinChunkPerDictionary = 4;

// The bytes ReadPruningDictionary reads for leaf `leaf` in row group
// `row_group` (the stored dictionary page), or nullopt when it reads none
// (not a chunk it reads, no dictionary_page_offset, a page too large).
// PlanFilter fetches the dictionaries of a row group's filter fields in
// one coalesced request, then holds them for the read.
std::optional<io::ReadRange> PruningDictionaryRange(const PruningSource& source, int row_group,
                                                    int leaf);

// The decoded dictionary values of leaf `leaf` in row group `row_group`, as
// an array of `type` (the field's read type, a dictionary type's value
// type), for a chunk the caller found entirely dictionary-encoded
// (IsFullyDictionaryEncoded); nullptr when its dictionary page is larger than kMaxPruningDictionaryBytes or cannot be
// read or decoded.
Result<ArrayDataPtr> ReadPruningDictionary(const PruningSource& source, int row_group, int leaf,
                                           const TypePtr& type);

// A chunk's data pages from their headers.
struct HeaderPages {
  std::vector<int64_t> first_rows;       // ascending from 0
  std::vector<ColumnSummary> summaries;  // one per page
  // One per page (header included); empty when the chunk holds pages
  // other than data pages and a leading dictionary page (index pages).
  std::vector<PageLocation> locations;
};

// The data pages of flat leaf `leaf` (max_rep 0) in row group `row_group`,
// of `num_rows` rows, from their headers; nullopt when they cannot be
// known (see above). `bounds_usable`: StatisticsBoundsUsable.
Result<std::optional<HeaderPages>> ReadPageHeaderFacts(const PruningSource& source,
                                                       int row_group, int leaf, int64_t num_rows,
                                                       bool bounds_usable);

}  // namespace quiver::parquet
