// What one read call of the Parquet reader did (FileReader::read_stats();
// Python: ParquetFile.read_stats, a dict of these names). Each read call
// (ReadTable, ReadRowGroup(s), GetRecordBatchReader) starts them at 0; the
// batches of a GetRecordBatchReader add to them as they are read.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

namespace quiver::parquet {

struct ReadStats {
  // Row groups not read because their column chunks' statistics, bloom
  // filters or dictionaries prove no row matches the filter (set by the
  // filter's pruning; 0 for reads without a filter).
  int64_t row_groups_pruned_statistics = 0;
  int64_t row_groups_pruned_bloom = 0;
  int64_t row_groups_pruned_dictionary = 0;
  // Data pages neither read nor decompressed: no selected row is in them
  // (found through the chunk's offset index).
  int64_t pages_skipped = 0;
  // Dictionary and data pages whose body was read and decompressed (a page
  // of an UNCOMPRESSED chunk counts too: its bytes are used as stored).
  int64_t pages_decompressed = 0;
  // Bytes requested from the file (io::RandomAccessFile::ReadAt lengths),
  // page headers, bodies and page indexes included; the footer, read when
  // the file is opened, is not. A range prefetched for a row group
  // (io::ReadRangeCache) counts once, when it is fetched; the page reads
  // served from it do not count again.
  int64_t bytes_read = 0;
  // Non-null leaf values decoded into the arrays returned (values skipped
  // unmaterialised between selected rows are not counted).
  int64_t values_decoded = 0;

  ReadStats& operator+=(const ReadStats& other) {
    row_groups_pruned_statistics += other.row_groups_pruned_statistics;
    row_groups_pruned_bloom += other.row_groups_pruned_bloom;
    row_groups_pruned_dictionary += other.row_groups_pruned_dictionary;
    pages_skipped += other.pages_skipped;
    pages_decompressed += other.pages_decompressed;
    bytes_read += other.bytes_read;
    values_decoded += other.values_decoded;
    return *this;
  }
  bool operator==(const ReadStats&) const = default;

  // Every counter with its key (docs/interfaces.md's read_stats keys), in
  // that order: what `quiver cat --stats`, the Python dict and the example
  // print.
  std::array<std::pair<const char*, int64_t>, 7> Counters() const {
    return {{{"row_groups_pruned_statistics", row_groups_pruned_statistics},
             {"row_groups_pruned_bloom", row_groups_pruned_bloom},
             {"row_groups_pruned_dictionary", row_groups_pruned_dictionary},
             {"pages_skipped", pages_skipped},
             {"pages_decompressed", pages_decompressed},
             {"bytes_read", bytes_read},
             {"values_decoded", values_decoded}}};
  }
};

}  // namespace quiver::parquet
