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
//
// ColumnChunkWriter::Impl (column_writer_internal.h): one column chunk of one leaf.
// Its parts, one file each: the chunk (column_writer.cc: levels and values
// batched into pages, the dictionary's cost and fallback, the chunk's
// metadata), page assembly (column_page_assembly.cc: levels encoded, the
// page header and statistics, the dictionary page) and sink I/O
// (column_page_sink.cc: pages compressed or stored, buffered in runs until
// the dictionary page is written, or streamed to the sink). Not installed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "quiver/compression/codec.h"
#include "quiver/io/interfaces.h"
#include "quiver/memory/buffer.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/bloom/bloom_filter.h"
#include "quiver/parquet/cdc/chunker.h"
#include "quiver/parquet/levels/level_builder.h"
#include "quiver/parquet/schema/arrow_to_parquet_internal.h"
#include "quiver/parquet/statistics/statistics.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/parquet/writer/properties.h"
#include "quiver/parquet/writer/value_writer_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

namespace encryption {
class ChunkEncryptor;  // encryption/file_encryptor_internal.h
}  // namespace encryption

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
  // Parquet Modular Encryption: the chunk's modules (page headers and
  // bodies) are encrypted with it; nullptr: a plaintext chunk.
  std::shared_ptr<const encryption::ChunkEncryptor> encryptor;
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

namespace quiver::parquet {

// The Thrift statistics of `s`, legacy min/max only for signed sort orders
// (as Arrow C++).
format::Statistics ToThrift(const EncodedStatistics& s, StatsKind kind);

// An Arrow dictionary's page body at least this large is built in the pass
// that checks its entries when a codec compresses it; a smaller one, built
// whole when the page is written, is read from cache.
inline constexpr int64_t kPrebuiltCompressedDictionaryBytes = int64_t{1} << 20;

class ColumnChunkWriter::Impl {
 public:
  Impl(const ColumnDescriptor& column, const ArrowLeaf& leaf, const ColumnChunkOptions& options,
       io::OutputStream* sink)
      : column_(column),
        leaf_(leaf),
        options_(options),
        sink_(sink),
        run_(options.pool),
        page_buf_(options.pool),
        scratch_(options.pool),
        page_levels_buf_(options.pool),
        compressed_(options.pool),
        page_head_(options.pool),
        sealed_(options.pool) {}
  Status Init();
  Status Write(const LeafLevels& levels);
  Status WriteChunked(const LeafLevels& levels);
  static int64_t WindowLevels(const LeafLevels& levels);
  Status WriteRange(const LeafLevels& levels, int64_t begin, int64_t n);
  Status FallBackToPlain();
  Status EndDictionary();
  bool DictionaryDoesNotPay(int64_t values_in_page, int64_t index_bytes, int64_t page_ba_bytes);
  Status WriteBatch(const LeafLevels& levels, int64_t begin, int64_t end, int16_t slot_def,
                    bool check_limits);
  int64_t EstimatedValueBytes() const;
  static int64_t DictionaryIndexBytes(int64_t entries, int64_t n);
  int64_t EstimatedValueBytesAfter(int64_t more) const;
  int64_t FixedValueWidth() const;
  int64_t UndictionariedValueBytes(int64_t n, int64_t writer_estimate) const;

  int64_t EstimatedBufferedSize() const { return pages_size_ + EstimatedPageSize(); }
  Result<ColumnChunkOutput> Finish();

 private:
  Status WriteDictionaryPage(MutableBuffer* out, io::OutputStream* stream = nullptr);

  // Buffered data pages (written before the dictionary page, so held until
  // it is complete) go one after another into runs, not a buffer each: a
  // stream that keeps buffers of MinAdoptedBytes (256 KiB) takes a run as
  // it is, where it copied every page of fewer bytes (a page of 20,000
  // dictionary indices: ~45 KB), and a page costs no allocation. Before a
  // page of `stored` bytes (body and levels, before compression), a run
  // without room for it (the codec's worst case) is closed; a new run gets
  // room for eight such pages, at most kPageRunBytes (or the one page):
  // a column of small pages does not hold a mostly empty 1 MiB (a nested
  // field's leaves are all buffered at once).
  static constexpr int64_t kPageRunBytes = int64_t{1} << 20;
  Status MakeRoomInRun(int64_t stored);
  Status CloseRun();
  Status EmitBuffered();
  int64_t EstimatedPageSize() const;
  Status DrainBloomHashes();
  Status WriteMiniBatch(const LeafLevels& levels, int64_t begin, int64_t end, int16_t slot_def);
  static void AddHistogram(const int16_t* levels, int64_t n, int16_t max_level,
                           std::vector<int64_t>* hist);

  // Levels 0/1 of a flat column, packed as the page went (page_def_bits_).
  bool PageDefPacked() const { return column_.max_def == 1 && column_.max_rep == 0; }
  Status EncodeLevels(const std::vector<int16_t>& levels, int16_t max_level, bool length_prefix,
                      MutableBuffer* out);
  Status PutPageHeader(format::PageHeader* header, int64_t uncompressed, int64_t compressed,
                       MutableBuffer* out);
  Result<int64_t> WritePage(format::PageHeader* header, MutableBuffer* body,
                            const uint8_t* prefix, int64_t prefix_len, MutableBuffer* out,
                            io::OutputStream* stream = nullptr);
  Result<int64_t> WritePage(format::PageHeader* header, const uint8_t* body, int64_t body_len,
                            MutableBuffer* owner, const uint8_t* prefix, int64_t prefix_len,
                            MutableBuffer* out, io::OutputStream* stream);
  Result<int64_t> CompressPage(format::PageHeader* header, const uint8_t* body, int64_t body_len,
                               const uint8_t* prefix, int64_t prefix_len, MutableBuffer* out,
                               io::OutputStream* stream);
  Result<int64_t> StorePage(format::PageHeader* header, int64_t body_len, MutableBuffer* stored_in,
                            const uint8_t* prefix, int64_t prefix_len, MutableBuffer* out,
                            io::OutputStream* stream);
  Result<int64_t> StorePage(format::PageHeader* header, int64_t body_len, const uint8_t* stored_at,
                            int64_t stored_len, MutableBuffer* stored_in, const uint8_t* prefix,
                            int64_t prefix_len, MutableBuffer* out, io::OutputStream* stream);
  Status HandOver(MutableBuffer* buffer, io::OutputStream* stream);
  // WritePage of an encrypted chunk (column_page_encrypt.cc): the body
  // compressed into sealed_, encrypted with the header as two modules.
  Result<int64_t> WriteEncryptedPage(format::PageHeader* header, const uint8_t* body,
                                     int64_t body_len, const uint8_t* prefix, int64_t prefix_len,
                                     MutableBuffer* out, io::OutputStream* stream);
  Status FlushPage();
  format::Statistics PageStatistics(const EncodedStatistics& s) const;
  format::Encoding DictionaryPageEncoding() const;
  format::Encoding DictionaryIndexEncoding() const;
  void AddEncodingStat(format::PageType type, format::Encoding encoding);

  const ColumnDescriptor& column_;  // Parquet facts
  const ArrowLeaf& leaf_;           // Arrow facts
  ColumnChunkOptions options_;
  std::unique_ptr<ValueWriter> values_;
  std::unique_ptr<compression::Codec> codec_;
  std::unique_ptr<ColumnStatistics> chunk_stats_;
  std::unique_ptr<cdc::Chunker> chunker_;
  std::vector<int64_t> cuts_;
  std::vector<uint64_t> bloom_hashes_;  // appended by the value writer, drained per mini-batch
  std::optional<BloomFilter> bloom_filter_;
  bool align_records_ = true;
  bool dictionary_enabled_ = false;
  int64_t dictionary_pages_used_ = 0;
  // The dictionary encoding was given up (FallBackToPlain): Arrow C++ then
  // writes the dictionary page even if no data page uses it.
  bool fell_back_ = false;
  bool cost_checked_ = false;  // DictionaryDoesNotPay decided
  bool finishing_ = false;     // in Finish()

  // The open page.
  std::vector<int16_t> page_def_;
  std::vector<uint8_t> page_def_bits_;  // instead of page_def_ where PageDefPacked()
  std::vector<uint8_t> level_bits_;  // EncodeLevels: levels 0/1 as a bitmap
  std::vector<int16_t> page_rep_;
  std::vector<int64_t> page_def_histogram_;
  std::vector<int64_t> page_rep_histogram_;
  std::vector<int64_t> batch_histogram_;  // scratch of WriteMiniBatch
  int64_t page_levels_ = 0;
  int64_t page_rows_ = 0;
  int64_t page_nulls_ = 0;

  // The current write call's leaf ranges.
  const std::vector<std::pair<int64_t, int64_t>>* ranges_ = nullptr;
  int64_t range_index_ = 0;
  int64_t range_pos_ = 0;
  std::vector<std::pair<int64_t, int64_t>> batch_ranges_;  // scratch of WriteMiniBatch

  // The chunk so far.
  io::OutputStream* sink_ = nullptr;
  bool streaming_ = false;
  int64_t chunk_start_ = -1;
  int64_t sink_written_ = 0;
  int64_t dict_len_ = 0;
  std::vector<std::shared_ptr<Buffer>> pages_;  // buffered data pages, in order, in runs
  MutableBuffer run_;                           // the buffered pages after pages_'s (MakeRoomInRun)
  int64_t pages_size_ = 0;                      // their bytes (pages_ and run_)
  MutableBuffer page_buf_;
  MutableBuffer scratch_;
  MutableBuffer page_levels_buf_;  // FlushPage's levels written apart
  MutableBuffer compressed_;  // CompressPage's large pages, handed over
  MutableBuffer page_head_;   // CompressPage's header
  MutableBuffer sealed_;      // WriteEncryptedPage's plaintext page
  int data_page_ordinal_ = 0;  // of the next encrypted data page
  int64_t num_pages_ = 0;
  int64_t num_rows_ = 0;
  int64_t num_levels_ = 0;
  int64_t chunk_nulls_ = 0;
  int64_t total_uncompressed_ = 0;
  int64_t byte_array_bytes_ = 0;
  std::vector<int64_t> def_histogram_;
  std::vector<int64_t> rep_histogram_;
  std::vector<format::Encoding> encodings_;  // of data pages, each once
  std::vector<format::PageEncodingStats> encoding_stats_;
  format::OffsetIndex offset_index_;
  std::optional<format::ColumnIndex> column_index_;
  bool column_index_discarded_ = false;
};

}  // namespace quiver::parquet
