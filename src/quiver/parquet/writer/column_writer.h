// The writer of one column chunk (one Parquet leaf in one row group).
//
// Takes shredded levels (levels/level_builder.h) one write call at a time
// and cuts them into data pages the way Arrow C++ does: mini-batches of
// write_batch_size levels (ending on record boundaries for repeated
// columns, so every page starts a new row), capped by max_rows_per_page;
// after each mini-batch the page is flushed once its estimated size reaches
// data_page_size, and dictionary encoding falls back to PLAIN once the
// dictionary's PLAIN size reaches dictionary_pagesize_limit. Pages are
// compressed and buffered in memory with their headers (dictionary page
// first) until the row group is written out. Statistics, the page index
// (column index + offset index), size statistics and encoding statistics
// are collected along the way.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "quiver/io/interfaces.h"
#include "quiver/memory/buffer.h"
#include "quiver/parquet/cdc/chunker.h"
#include "quiver/compression/codec.h"
#include "quiver/parquet/levels/level_builder.h"
#include "quiver/parquet/schema/arrow_to_parquet.h"
#include "quiver/parquet/thrift/parquet_types.h"
#include "quiver/parquet/writer/properties.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

struct ColumnChunkOptions {
  DataPageVersion page_version = DataPageVersion::kV1;
  // Format 1.0: dictionary pages and dictionary-encoded data pages are
  // PLAIN_DICTIONARY, booleans in v2 pages PLAIN (WriterOptions::version).
  FormatVersion version = FormatVersion::k2_6;
  int64_t data_page_size = 1 << 20;
  int64_t max_rows_per_page = 20000;
  int64_t write_batch_size = 1024;
  int64_t dictionary_pagesize_limit = 1 << 20;
  compression::CompressionCodec codec = compression::CompressionCodec::SNAPPY;
  int compression_level = compression::Codec::kDefaultLevel;
  bool dictionary = true;
  // WriterOptions::dictionary_cost_fallback.
  bool dictionary_cost_fallback = false;
  // Encoding of non-dictionary pages (nullopt: PLAIN; RLE for v2 booleans).
  std::optional<format::Encoding> encoding;
  bool statistics = true;
  // The chunk's exact distinct count in its statistics (with statistics).
  bool distinct_count = false;
  bool page_index = true;
  bool page_checksum = false;
  bool validate_utf8 = true;
  int64_t statistics_truncate_length = 64;
  // Bloom filter (ndv, fpp) of the chunk's distinct values.
  std::optional<BloomFilterOptions> bloom_filter;
  // Content-defined chunking: each chunk of a write call ends its page.
  std::optional<cdc::ChunkerOptions> cdc;
  MemoryPool* pool = DefaultMemoryPool();
};

// A finished column chunk: its bytes and metadata, with every offset
// relative to the start of `bytes` (the file writer rebases them).
struct ColumnChunkOutput {
  // The chunk's bytes in order (its dictionary page, then one buffer per
  // data page: pages are not copied into one block), or empty if they were
  // streamed to the sink given to Make(); then every offset in the metadata
  // is already absolute.
  std::vector<std::shared_ptr<Buffer>> bytes;
  format::ColumnMetaData metadata;
  format::OffsetIndex offset_index;
  std::optional<format::ColumnIndex> column_index;
  // Serialized bloom filter (header + bitset), if one was asked for.
  std::shared_ptr<Buffer> bloom_filter;
  int64_t num_rows = 0;
};

class ColumnChunkWriter {
 public:
  ~ColumnChunkWriter();
  // With a `sink`, pages go straight to it once they can (immediately
  // without a dictionary; after the dictionary page once dictionary
  // encoding falls back or at Finish()), so no column chunk is held in
  // memory; nothing else may write to the sink until Finish().
  // `column` (the Parquet leaf) and `leaf` (its Arrow side) must outlive
  // the writer.
  static Result<std::unique_ptr<ColumnChunkWriter>> Make(const ColumnDescriptor& column,
                                                         const ArrowLeaf& leaf,
                                                         const ColumnChunkOptions& options,
                                                         io::OutputStream* sink = nullptr);

  // One write call: the levels and leaf values of a slice of rows.
  Status Write(const LeafLevels& levels);
  // Bytes buffered so far (compressed pages) plus the open page's estimate.
  int64_t EstimatedBufferedSize() const;
  Result<ColumnChunkOutput> Finish();

 private:
  class Impl;
  explicit ColumnChunkWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace quiver::parquet
