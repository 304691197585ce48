// One leaf column of one row group after another: its pages' levels and
// values, read record by record into the leaf's Arrow array (through a
// LeafBuilder) and level buffers kept for the assembly of the arrays above
// the leaf.
//
// A record is one row of the file: a run of level entries that starts with
// repetition level 0. ReadRecords(n) reads whole records (a record may span
// pages), so that every leaf of a batch covers the same rows; SkipRecords(n)
// moves past whole records without materialising them, so that a read of
// some rows (row_selection.h) alternates skips and reads on every leaf.
//
// Skipping (in the spirit of Arrow C++'s SkipRecords with a data page
// filter and arrow-rs's skip_records over the page index): when the chunk's
// offset index was taken (StartRowGroup(g, true)), a skip whose target row
// lies in a later page drops the rest of the current page and moves the
// page reader straight to the page holding the target (the last page whose
// first_row_index is <= it): the pages between are neither read nor
// decompressed (ReadStats::pages_skipped); the chunk's dictionary page is
// read only when a data page read needs it (not for PLAIN fallback pages). Within a page, or without an offset
// index, the levels of the records skipped are decoded (to find where
// records end and how many values they hold) and their values passed over
// with Decoder::Skip: nothing is appended to the leaf. The offset index is
// trusted as Arrow C++ and arrow-rs trust it (a page it names starts a
// record); one that does not fit the chunk (locations out of order or
// outside the chunk, first rows not increasing from 0, past the row group)
// is not used, and the reader skips by levels instead.
//
// Checks on each page, beyond those of the page reader and the decoders:
// levels above the column's maximum, fewer levels than num_values, a
// chunk whose first repetition level is not 0, values fewer than the
// definition levels say; each error names the file, row group, column and
// page.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/io/interfaces.h"
#include "quiver/io/read_ranges.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/encoding/decoder_internal.h"
#include "quiver/parquet/levels/level_decoder_internal.h"
#include "quiver/parquet/reader/leaf_builder_internal.h"
#include "quiver/parquet/reader/page_reader_internal.h"
#include "quiver/parquet/reader/row_selection.h"
#include "quiver/parquet/reader/runs_decoder_internal.h"
#include "quiver/parquet/schema/parquet_to_arrow_internal.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet::internal {

class ColumnReader {
 public:
  // `leaf`: the leaf's ReadNode (its field type and levels). The file, the
  // footer's metadata and the descriptor must outlive the reader.
  static Result<std::unique_ptr<ColumnReader>> Make(std::shared_ptr<io::RandomAccessFile> file,
                                                    const format::FileMetaData* metadata,
                                                    int64_t data_end,
                                                    const ColumnDescriptor* column,
                                                    const ReadNode* leaf,
                                                    const PageReaderOptions& options);

  // Starts the column's chunk in row group `row_group`. `skip_pages`: the
  // read will skip records (SkipRecords); the chunk's offset index, when
  // it has a usable one, is read (its bytes counted as read) so that whole
  // pages are skipped unread.
  Status StartRowGroup(int row_group, bool skip_pages = false);

  // The file bytes the current chunk's read needs (after StartRowGroup),
  // appended to `out`: the whole chunk; or, when its offset index was taken
  // and `selection` (the rows read; nullptr: all) is given, the bytes in
  // front of the first data page (a dictionary page; left out when the
  // chunk's encoding_stats list PLAIN data pages) and the data pages
  // holding a selected row. Nothing for an empty chunk.
  void NeededRanges(const RowRanges* selection, std::vector<io::ReadRange>* out) const;
  // The column's offset index in row group `row_group` (what
  // StartRowGroup(row_group, true) reads), appended to `out` when the
  // footer gives one within the data region.
  void OffsetIndexRange(int row_group, std::vector<io::ReadRange>* out) const;

  // Moves past the next `records` records of the chunk (whole records, as
  // ReadRecords reads them) without adding them to the batch; *skipped gets
  // how many (fewer only at the chunk's end).
  Status SkipRecords(int64_t records, int64_t* skipped);
  // The read of this chunk ends here (a selection's last row is behind):
  // the data pages after the current one, which the offset index names and
  // nothing reads, are counted as skipped. No page is read.
  void EndChunkEarly();

  // Reads up to `records` more records of the current chunk; *read gets how
  // many (fewer only at the chunk's end).
  Status ReadRecords(int64_t records, int64_t* read);

  // Masked reads, for flat leaves (CanReadMasked): the next `records`
  // records as ReadRecords passes them (*read: how many, fewer only at the
  // chunk's end), of which only those whose bit mask_offset + i of `mask`
  // is set are appended to the leaf. Per page, its definition levels are
  // decoded once (as bits) and the selected rows become (skip, take) runs
  // of values decoded through a RunsDecoder in one LeafBuilder::Append:
  // the values of rows not selected are skipped, not materialised, and
  // not counted in values_decoded. A run of unselected rows that leaves
  // the current page is skipped as SkipRecords skips (pages the offset
  // index shows it passes are not read).
  Status ReadRecordsMasked(int64_t records, const uint8_t* mask, int64_t mask_offset,
                           int64_t* read);
  // Whether ReadRecordsMasked may be used: a top-level leaf of a flat
  // column (max levels rep 0, def 0 or 1) whose levels are not kept.
  bool CanReadMasked() const { return flat_; }
  // Whether a masked read decodes faster than reading every row and
  // filtering, for a mask whose runs of set bits come every `rows_per_run`
  // rows on average (0: not known: yes). Each run costs a skip and a
  // decode call, which pays where it spares decoding at least
  // kMaskedMinRowsPerRun rows (byte arrays: kMaskedMinRowsPerRunBytes).
  // Measured on TPC-H lineitem SF0.1 (one thread, random selections on
  // l_partkey; docs/design.md "Filtered reads"): since dictionary strings
  // and decimals decode 4-10x faster (f7e0e5d) a masked read pays only
  // below about 7% of rows selected (16 rows a run), for both: with the
  // earlier 8 and 5, all columns at 20% took 28-34 ms against 20 for
  // decoding and filtering.
  static constexpr int64_t kMaskedMinRowsPerRun = 16;
  static constexpr int64_t kMaskedMinRowsPerRunBytes = 16;
  bool MaskedReadPays(int64_t rows_per_run) const {
    const bool bytes = column_->physical_type == format::Type::kByteArray;
    return rows_per_run == 0 ||
           rows_per_run >= (bytes ? kMaskedMinRowsPerRunBytes : kMaskedMinRowsPerRun);
  }

  // Levels read since the last ClearBatch(): nullptr when the column's max
  // level is 0 (every level 0).
  const int16_t* def_levels() const {
    return max_def_ > 0 ? def_.data_as<int16_t>() : nullptr;
  }
  const int16_t* rep_levels() const {
    return max_rep_ > 0 ? rep_.data_as<int16_t>() : nullptr;
  }
  int64_t num_levels() const { return num_levels_; }

  // The leaf's array of the slots read since the last ClearBatch().
  Result<ArrayDataPtr> FinishLeaf();
  // The same as one or more chunks (a top-level binary / string leaf of
  // more than LeafBuilder::kChunkBytes; see set_allow_chunks).
  Result<std::vector<ArrayDataPtr>> FinishLeafChunks();
  void set_allow_chunks(bool allow) { builder_->set_allow_chunks(allow); }
  // Off: the leaf's levels are not kept for an assembly (the assembly
  // reads only the first leaf of each struct, list or map;
  // def_levels() and rep_levels() are then empty). A nullable top-level
  // leaf of a flat column (max levels def 1, rep 0) then decodes its
  // definition levels straight into its validity bitmap. Call before the
  // first ReadRecords.
  void set_keep_levels(bool keep) {
    keep_levels_ = keep;
    flat_ = !keep && max_rep_ == 0 && max_def_ <= 1 && slot_def_ == 0;
  }
  // Invalid UTF-8 in a string leaf: an error naming the page and value
  // (the default), or, when recording, noted and read on (see
  // LeafBuilder::set_record_invalid_utf8).
  void set_record_invalid_utf8(bool record) { builder_->set_record_invalid_utf8(record); }
  bool saw_invalid_utf8() const { return builder_->saw_invalid_utf8(); }
  // Forgets the batch's levels (after the assembly).
  void ClearBatch();

  const ColumnDescriptor& column() const { return *column_; }
  // The leaf's index in the schema's columns.
  int32_t leaf_column() const { return leaf_->column; }
  int64_t bytes_buffered() const;

 private:
  ColumnReader() = default;

  Result<bool> NextDataPage();
  // A dictionary page into the dictionary decoder.
  Status TakeDictionaryPage(const PageReader& pages);
  // The dictionary page a seek passed over (see SeekTowards), read now
  // that a data page needs it, through a page reader of its own (the
  // current data page's sections stay valid).
  Status LoadDeferredDictionary();
  // With page locations: when `target` (a row of the chunk) lies in a
  // later page than the current one, moves to that page (reading the
  // dictionary page first if no page was read yet) and sets *records so
  // that row_ + *records is the page's first row.
  Status SeekTowards(int64_t target, int64_t* records);
  // The offset index of `chunk` as page locations, if it fits the chunk
  // (see the header comment); empty otherwise.
  Result<std::vector<PageLocation>> UsableOffsetIndex(const format::ColumnChunk& chunk,
                                                      int64_t num_rows) const;
  // Repeated columns, at the end of the current page with every wanted
  // record read: whether the next page starts a record (so it need not be
  // read to end the last one), by the offset index.
  bool NextPageStartsRecord(int64_t row) const;
  Status FillPending(int64_t n);
  // Pages of at most kPageLevelsAtOnce levels have them all decoded when
  // the page starts (once, not counted then decoded): the pending levels.
  // Small enough that the pending levels (outside the reader's pool) stay
  // at 128 KiB an array per column; pyarrow's pages hold at most 20,000
  // rows.
  static constexpr int64_t kPageLevelsAtOnce = int64_t{1} << 16;
  Status DecodePageLevels(int64_t n);
  Status ReadFlat(int64_t want, int64_t* read);
  // ReadRecordsMasked within the current page: its next n rows, selected
  // by bits [mask_offset, mask_offset + n) of `mask`.
  Status ReadMaskedInPage(int64_t n, const uint8_t* mask, int64_t mask_offset);
  // Room for the batch's slots, once a batch (see LeafBuilder::Reserve).
  Status ReserveFor(int64_t records);
  static constexpr int64_t kMaxReserveSlots = int64_t{1} << 24;
  static constexpr int64_t kMaxReserveBytes = int64_t{1} << 28;
  Status Consume(int64_t begin, int64_t end);
  // ReadRecords' and SkipRecords' walk: the pending levels from
  // pending_pos_ up to *end belong to the `want` records (*records counts
  // those begun, updated), decoding pages as needed; false when the walk
  // is over (the records are whole, or the chunk ended).
  Result<bool> NextRecordRun(int64_t want, int64_t* records, int64_t* end);
  Result<Decoder*> DecoderFor(format::Encoding encoding);
  Status PageError(const Status& status) const;
  // The same for a page of `pages`.
  static Status PageErrorOf(const PageReader& pages, const Status& status);
  // builder_->Append, told where in the page the values start.
  Status AppendValues(int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                      int64_t num_values);

  std::shared_ptr<io::RandomAccessFile> file_;
  const format::FileMetaData* metadata_ = nullptr;
  int64_t data_end_ = 0;
  const ColumnDescriptor* column_ = nullptr;
  const ReadNode* leaf_ = nullptr;
  PageReaderOptions options_;
  int16_t max_def_ = 0;
  int16_t max_rep_ = 0;
  // Slots: entries with def >= slot_def_; values: def == max_def_.
  int16_t slot_def_ = 0;
  bool nullable_ = false;
  bool keep_levels_ = true;  // see set_keep_levels
  bool reserve_ = true;      // ReserveFor not yet called this batch
  // ReserveFor reserved the rest of the chunk's byte arrays (ReadTable):
  // a dictionary page then reserves its expansion (TakeDictionaryPage).
  bool reserved_rest_ = false;
  bool levels_at_once_ = false;  // the current page's levels are all pending
  int64_t chunk_levels_left_ = 0;  // of the chunk's num_values (metadata)
  int64_t group_rows_left_ = 0;    // of the row group's num_rows (metadata)
  int64_t chunk_bytes_ = 0;        // the chunk's total_uncompressed_size (metadata)
  bool flat_ = false;

  std::unique_ptr<LeafBuilder> builder_;
  std::unique_ptr<PageReader> pages_;
  std::unique_ptr<Decoder> dictionary_decoder_;
  // A seek passed over the chunk's leading (dictionary) page without
  // reading it: read when the first dictionary-encoded data page comes.
  bool dictionary_deferred_ = false;
  // The chunk's encoding_stats list a data page that is not
  // dictionary-encoded (a fallback to PLAIN): a selection's pages may not
  // need the dictionary page, which NeededRanges then leaves out.
  bool plain_fallback_ = false;
  int current_row_group_ = -1;
  std::map<format::Encoding, std::unique_ptr<Decoder>> decoders_;
  Decoder* values_ = nullptr;
  LevelDecoder def_decoder_;
  LevelDecoder rep_decoder_;
  int64_t page_levels_left_ = 0;
  int64_t page_values_ = 0;  // the current page's values (entries at max_def_)
  bool chunk_started_ = false;  // a level of the chunk (or, after a seek, of the page) was read
  ReadStats* stats_ = nullptr;  // options_.stats
  // Page locations of the offset index when skipping by pages (else empty);
  // the current data page's index among them (-1 before the first); the
  // records of the chunk read or skipped so far; whether the page reader
  // was moved by SeekToPage.
  std::vector<PageLocation> locations_;
  // The current row group's rows (for the last page location's rows).
  int64_t chunk_rows_ = 0;
  int64_t page_ordinal_ = -1;
  int64_t row_ = 0;
  bool seeked_ = false;

  // Decoded levels not yet consumed (at most kPendingLevels).
  std::vector<int16_t> pending_def_;
  std::vector<int16_t> pending_rep_;
  int64_t pending_pos_ = 0;
  int64_t pending_len_ = 0;
  std::vector<uint8_t> slot_bytes_;  // Consume's scratch
  // Flat columns, pages of at most kPageLevelsAtOnce levels: the page's
  // definition levels decoded once as bits (their count of ones sizes the
  // values), then copied out batch by batch (ReadFlat).
  bool page_bits_ready_ = false;
  std::vector<uint8_t> page_bits_;
  int64_t page_bits_pos_ = 0;
  int64_t page_bits_ones_ = 0;

  // Masked reads: the page's runs of values, their decoder, and the
  // definition bits of a page whose levels are not decoded at once.
  std::vector<ValueRun> value_runs_;
  std::unique_ptr<RunsDecoder> runs_decoder_;
  std::vector<uint8_t> masked_def_;

  // The batch.
  MutableBuffer def_;
  MutableBuffer rep_;
  int64_t num_levels_ = 0;
  MutableBuffer valid_;  // one bit a slot
  int64_t num_slots_ = 0;
  int64_t num_nulls_ = 0;
};

}  // namespace quiver::parquet::internal
