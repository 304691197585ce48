#include "quiver/parquet/writer/column_writer_internal.h"

#include <algorithm>
#include <bit>
#include <map>
#include <utility>

#include "quiver/parquet/encoding/rle_bit_packed.h"
#include "quiver/parquet/levels/level_decoder_internal.h"
#include "quiver/parquet/writer/column_writer_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace quiver::parquet {

namespace {

// Bit k set iff rep[k] == 0, for the `n` <= 16 levels at `rep` (record
// starts, 16 levels a step with SSE2).
inline uint32_t RecordStarts(const int16_t* rep, int n) {
#if defined(__SSE2__)
  if (n == 16) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i a = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rep)), zero);
    const __m128i b = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rep + 8)), zero);
    return static_cast<uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(a, b)));
  }
#endif
  uint32_t mask = 0;
  for (int k = 0; k < n; ++k) mask |= static_cast<uint32_t>(rep[k] == 0) << k;
  return mask;
}

// Arrow C++'s RleEncoder bounds, which its page size estimates use: the
// worst case for n values of bw bits (runs of 8, each a literal run or a
// repeated run), and the minimum buffer (one 512-value literal run, or a
// 5-byte varint and one value).
int64_t RleMaxBufferSize(int64_t bw, int64_t n) {
  const int64_t runs = (n + 7) / 8;
  return std::max(runs * (1 + bw), runs * (1 + (bw + 7) / 8));
}
int64_t RleMinBufferSize(int64_t bw) { return std::max(1 + (512 * bw + 7) / 8, 5 + (bw + 7) / 8); }

}  // namespace

Status ColumnChunkWriter::Impl::Init() {
  ValueWriterOptions vo;
  vo.dictionary = options_.dictionary;
  vo.encoding = options_.encoding;
  vo.rle_booleans =
      options_.page_version == DataPageVersion::kV2 && options_.version != FormatVersion::k1_0;
  vo.statistics = options_.statistics;
  vo.count_distinct = options_.statistics && options_.distinct_count;
  vo.validate_utf8 = options_.validate_utf8;
  vo.dictionary_pagesize_limit = options_.dictionary_pagesize_limit;
  vo.pool = options_.pool;
  if (options_.codec != compression::CompressionCodec::UNCOMPRESSED) {
    QUIVER_ASSIGN_OR_RAISE(codec_,
                           compression::Codec::Create(options_.codec, options_.compression_level));
  }
  // A large Arrow dictionary's page is built while its entries are
  // checked (each entry read from memory once): where the sink keeps it
  // as is (WriteDictionaryPage), or where the codec then compresses it
  // (string_dictionary zstd: 0.95 of the time with the body built when
  // the page is written).
  if (codec_ == nullptr && sink_ != nullptr && !options_.page_checksum) {
    vo.prebuilt_dictionary_bytes = sink_->MinAdoptedBytes();
  } else if (codec_ != nullptr) {
    vo.prebuilt_dictionary_bytes = kPrebuiltCompressedDictionaryBytes;
  }
  QUIVER_ASSIGN_OR_RAISE(values_, ValueWriter::Make(column_, leaf_, vo));
  dictionary_enabled_ = values_->dictionary_active();
  streaming_ = sink_ != nullptr && !dictionary_enabled_;
  chunk_stats_ = ColumnStatistics::Make(leaf_.stats_kind, leaf_.is_string, column_.type_length);
  if (options_.cdc.has_value()) chunker_ = std::make_unique<cdc::Chunker>(*options_.cdc);
  if (options_.bloom_filter.has_value()) {
    // The filter itself comes with the first value (DrainBloomHashes).
    QUIVER_RETURN_NOT_OK(BloomFilter::CheckParameters(options_.bloom_filter->ndv,
                                                      options_.bloom_filter->fpp));
    values_->set_bloom_hashes(&bloom_hashes_);
  }
  // Pages start on record boundaries where readers rely on it: data page
  // v2 and the page index (as Arrow C++ decides).
  align_records_ = options_.page_version == DataPageVersion::kV2 || options_.page_index;
  def_histogram_.assign(static_cast<size_t>(column_.max_def) + 1, 0);
  rep_histogram_.assign(static_cast<size_t>(column_.max_rep) + 1, 0);
  page_def_histogram_ = def_histogram_;
  page_rep_histogram_ = rep_histogram_;
  return Status::OK();
}

Status ColumnChunkWriter::Impl::Write(const LeafLevels& levels) {
  if (levels.max_def != column_.max_def || levels.max_rep != column_.max_rep) {
    return Status::Invalid("column '", column_.path, "': levels do not match the schema");
  }
  if (levels.def_packed && chunker_ != nullptr) {  // (the chunker reads int16 levels)
    return Status::Invalid("column '", column_.path,
                           "': internal error: packed definition levels with CDC");
  }
  values_->SetLeaf(levels.leaf.get(), levels.num_values);
  {
    QUIVER_ASSIGN_OR_RAISE(const bool fall_back, values_->BeginLeaf());
    if (fall_back) QUIVER_RETURN_NOT_OK(FallBackToPlain());
  }
  range_index_ = 0;
  range_pos_ = levels.ranges.empty() ? 0 : levels.ranges[0].first;
  ranges_ = &levels.ranges;
  const Status st = chunker_ == nullptr ? WriteRange(levels, 0, levels.num_levels) : WriteChunked(levels);
  // Nothing of the caller's arrays is kept past the call.
  const Status detached = values_->DetachInput();
  return st.ok() ? detached : st;
}

// Content-defined chunking: every chunk but the last ends its page (a
// chunk that is empty still ends the previous call's page). The call is
// hashed one window (~256 KiB of hashed bytes) at a time and each chunk
// is written as soon as its cut is found, so that the encoder reads the
// levels and values the chunker has just hashed from cache rather than
// from memory again (a whole call is often larger than the cache).
// Columns without rep levels also write the open chunk's mini-batches up
// to the window's end, where they end before it: those a write of the
// whole chunk (which ends at a later cut) makes too. So the pages are
// those of hashing the call at once.
inline Status ColumnChunkWriter::Impl::WriteChunked(const LeafLevels& levels) {
  const int64_t n = levels.num_levels;
  const bool repeated = !levels.rep_levels.empty();
  const auto slot_def = static_cast<int16_t>(column_.max_def - (levels.leaf_nullable ? 1 : 0));
  const int64_t window = WindowLevels(levels);
  int64_t level = 0;  // the next level to write (a mini-batch start of the open chunk)
  for (int64_t w = 0; w < n; w += window) {
    const int64_t wend = std::min(n, w + window);
    QUIVER_RETURN_NOT_OK(chunker_->FindCuts(levels, w, wend, &cuts_));
    for (int64_t cut : cuts_) {
      if (cut < level) {  // (cannot happen: batches stop at wend, cuts come after)
        return Status::Invalid("column '", column_.path, "': internal error: a chunk cut at level ",
                               cut, " precedes the ", level, " levels already written");
      }
      QUIVER_RETURN_NOT_OK(WriteRange(levels, level, cut));
      if (page_levels_ > 0) QUIVER_RETURN_NOT_OK(FlushPage());
      level = cut;
    }
    while (!repeated) {
      // WriteRange's flat mini-batch, for a chunk that ends after wend.
      const int64_t rows_left = std::max<int64_t>(options_.max_rows_per_page - page_rows_, 1);
      const int64_t end = level + std::min(options_.write_batch_size, rows_left);
      if (end > wend) break;
      QUIVER_RETURN_NOT_OK(WriteBatch(levels, level, end, slot_def, true));
      level = end;
    }
  }
  return WriteRange(levels, level, n);
}

// Levels per window of WriteChunked: ~256 KiB of hashed bytes (levels,
// and the leaf's values: the average for binary values).
// (Measured, bench/cdc_overhead.py, interleaved runs: 256 KiB took the
// CDC overhead of required int64 from 14-16% to 9-10%, strings from
// 19-22% to 17-20%; 64 KiB and 1 MiB did no better.)
inline int64_t ColumnChunkWriter::Impl::WindowLevels(const LeafLevels& levels) {
  constexpr int64_t kWindowBytes = 256 * 1024;
  const ArrayData& leaf = *levels.leaf;
  const int64_t slots = std::max<int64_t>(leaf.length, 1);
  int64_t per_level = 8;
  const int width = leaf.type->byte_width();
  if (width > 0) {
    per_level = width;
  } else if ((leaf.type->id() == Type::kString || leaf.type->id() == Type::kBinary) &&
             leaf.buffers[1] != nullptr) {
    const int32_t* o = leaf.GetValues<int32_t>(1);
    per_level = (static_cast<int64_t>(o[leaf.length]) - o[0]) / slots;
  } else if ((leaf.type->id() == Type::kLargeString || leaf.type->id() == Type::kLargeBinary) &&
             leaf.buffers[1] != nullptr) {
    const int64_t* o = leaf.GetValues<int64_t>(1);
    per_level = (o[leaf.length] - o[0]) / slots;
  }
  if (!levels.def_levels.empty()) per_level += 2;
  if (!levels.rep_levels.empty()) per_level += 2;
  return std::max<int64_t>(kWindowBytes / std::max<int64_t>(per_level, 1), 1024);
}

// Writes levels [begin, n) of one write call (one CDC chunk) in
// mini-batches, as Arrow C++'s DoInBatches (pyarrow 26): flat columns in
// batches of write_batch_size levels capped by the rows left before
// max_rows_per_page; repeated columns (whatever the page version) in batches
// ending at the first record start after write_batch_size levels or
// max_rows_per_page rows, and a batch that reaches `n` is split before its
// last record start, whose levels are checked against the page limits only
// when pages need not start on records (!align_records_).
inline Status ColumnChunkWriter::Impl::WriteRange(const LeafLevels& levels, int64_t begin, int64_t n) {
  const int16_t* rep = levels.rep_levels.empty() ? nullptr : levels.rep_levels.data();
  // A level consumes a leaf slot iff the leaf's parent is present.
  const int16_t slot_def =
      static_cast<int16_t>(column_.max_def - (levels.leaf_nullable ? 1 : 0));
  int64_t level = begin;
  while (level < n) {
    if (rep == nullptr) {
      const int64_t rows_left = std::max<int64_t>(options_.max_rows_per_page - page_rows_, 1);
      const int64_t cap = std::min(n, level + rows_left);
      int64_t end = std::min(cap, level + options_.write_batch_size);
      // More whole mini-batches in the same call while the page's size
      // after each (values are at most levels) stays below the limit:
      // the page ends where the mini-batches would end it, in fewer
      // calls. Up to ~16 KiB of values a call, which the statistics pass
      // leaves in L1 for the encoder (20,000 int64 values in one call
      // made primitive_non_null parquet_2 3% slower; booleans, 128 bytes
      // a mini-batch, gain the most).
      constexpr int64_t kTakenTogetherBytes = 16 * 1024;
      const int64_t before = end < cap ? EstimatedValueBytes() : 0;
      while (end < cap) {
        const int64_t after = EstimatedValueBytesAfter(end - level);
        if (after < 0 || after >= options_.data_page_size || after - before >= kTakenTogetherBytes) {
          break;
        }
        end = std::min(cap, end + options_.write_batch_size);
      }
      QUIVER_RETURN_NOT_OK(WriteBatch(levels, level, end, slot_def, /*check_limits=*/true));
      level = end;
      continue;
    }
    const int64_t max_levels = std::min(options_.write_batch_size, n - level);
    int64_t end = n;
    int64_t checked_end = -1;  // the last record start seen
    int64_t rows = page_rows_;
    // Each record start in order (16 levels a step): the batch ends at
    // the first one past max_levels or the page's row limit.
    for (int64_t i = level; i < n && end == n; i += 16) {
      const int width = static_cast<int>(std::min<int64_t>(16, n - i));
      for (uint32_t starts = RecordStarts(rep + i, width); starts != 0; starts &= starts - 1) {
        const int64_t at = i + std::countr_zero(starts);
        checked_end = at;
        if (at - level >= max_levels || rows >= options_.max_rows_per_page) {
          end = at;
          break;
        }
        ++rows;
      }
    }
    if (checked_end >= 0) {
      QUIVER_RETURN_NOT_OK(WriteBatch(levels, level, checked_end, slot_def, true));
      level = checked_end;
    }
    if (end > level) QUIVER_RETURN_NOT_OK(WriteBatch(levels, level, end, slot_def, !align_records_));
    level = end;
  }
  return Status::OK();
}

// Ends the dictionary-encoded part of the chunk: the current page is
// flushed, later pages are not dictionary-encoded. The dictionary is
// final: with a sink, it and the buffered pages are written now and the
// rest streams (as Arrow C++ does on fallback), rather than holding the
// whole chunk in memory.
inline Status ColumnChunkWriter::Impl::FallBackToPlain() {
  if (page_levels_ > 0) QUIVER_RETURN_NOT_OK(FlushPage());
  return EndDictionary();
}

// FallBackToPlain once the current page is flushed (by FlushPage itself
// for the cost-based fallback; once only).
Status ColumnChunkWriter::Impl::EndDictionary() {
  if (fell_back_) return Status::OK();
  values_->FallBack();
  fell_back_ = true;
  if (sink_ != nullptr && !streaming_) QUIVER_RETURN_NOT_OK(EmitBuffered());
  return Status::OK();
}

// dictionary_cost_fallback, for the chunk's first dictionary-encoded
// page with values (`index_bytes`: its encoded indices): whether the
// dictionary so far plus those indices is at least the PLAIN size of the
// page's values (parquet-java's isCompressionSatisfying, arrow-go's
// cost-based fallback).
bool ColumnChunkWriter::Impl::DictionaryDoesNotPay(int64_t values_in_page, int64_t index_bytes, int64_t page_ba_bytes) {
  if (!options_.dictionary_cost_fallback || cost_checked_ || values_in_page == 0 ||
      !values_->dictionary_limit_applies()) {
    return false;
  }
  cost_checked_ = true;
  const int64_t width = FixedValueWidth();
  // BYTE_ARRAY: each value's 4-byte length and its bytes.
  const int64_t plain = width > 0 ? width * values_in_page : page_ba_bytes + 4 * values_in_page;
  return values_->dictionary_plain_bytes() + index_bytes >= plain;
}

// One mini-batch, then the dictionary size limit and (if check_limits) the
// page limits; as Arrow C++, the page size limit counts the values'
// estimated encoded size only (not the levels).
inline Status ColumnChunkWriter::Impl::WriteBatch(const LeafLevels& levels, int64_t begin, int64_t end, int16_t slot_def,
                  bool check_limits) {
  QUIVER_RETURN_NOT_OK(WriteMiniBatch(levels, begin, end, slot_def));
  if (values_->dictionary_active() && values_->dictionary_limit_applies() &&
      values_->dictionary_plain_bytes() >= options_.dictionary_pagesize_limit) {
    QUIVER_RETURN_NOT_OK(FallBackToPlain());
  }
  // An empty page is flushed too when its estimate alone reaches the limit
  // (an RLE encoder's minimum buffer), as Arrow C++ does.
  if (check_limits && (EstimatedValueBytes() >= options_.data_page_size ||
                       page_rows_ >= options_.max_rows_per_page)) {
    QUIVER_RETURN_NOT_OK(FlushPage());
  }
  return Status::OK();
}

// The page size Arrow C++ compares with data_page_size: its value encoder's
// estimate (no levels). RLE encoders (dictionary indices; booleans in v2
// pages or with RLE asked for) estimate their worst case plus a minimum
// buffer; the bit width of indices is 0, 1, then ceil(log2(entries)).
inline int64_t ColumnChunkWriter::Impl::EstimatedValueBytes() const {
  const int64_t n = values_->page_num_values();
  if (values_->dictionary_active()) return DictionaryIndexBytes(values_->dictionary_size(), n);
  return UndictionariedValueBytes(n, values_->EstimatedPageSize());
}

// The estimate of a page of `n` dictionary indices into `entries`
// entries: the bit width byte and the RLE encoder's worst case plus its
// minimum buffer (both grow with n and with the entries).
inline int64_t ColumnChunkWriter::Impl::DictionaryIndexBytes(int64_t entries, int64_t n) {
  const int64_t bw = entries <= 1 ? entries : std::bit_width(static_cast<uint64_t>(entries - 1));
  return 1 + RleMaxBufferSize(bw, n) + RleMinBufferSize(bw);
}

// EstimatedValueBytes() once `more` levels are added to the page, or a
// bound above it, where it is known without adding them; -1 otherwise.
// Dictionary indices of fixed-width values: at most `more` values, each
// a new entry, and only while that many new entries could not take the
// dictionary to its size limit (checked after every mini-batch, so
// mini-batches taken together must not cross it).
inline int64_t ColumnChunkWriter::Impl::EstimatedValueBytesAfter(int64_t more) const {
  if (values_->dictionary_active()) {
    const int64_t width = FixedValueWidth();
    if (width <= 0 || !values_->dictionary_limit_applies() ||
        values_->dictionary_plain_bytes() + width * more >= options_.dictionary_pagesize_limit) {
      return -1;
    }
    return DictionaryIndexBytes(values_->dictionary_size() + more, values_->page_num_values() + more);
  }
  const int64_t size = values_->EstimatedPageSizeAfter(more);
  return size < 0 ? -1 : UndictionariedValueBytes(values_->page_num_values() + more, size);
}

// Bytes of one PLAIN value of the column's physical type; 0 for byte
// arrays and booleans.
inline int64_t ColumnChunkWriter::Impl::FixedValueWidth() const {
  switch (column_.physical_type) {
    case format::Type::kInt32:
    case format::Type::kFloat:
      return 4;
    case format::Type::kInt64:
    case format::Type::kDouble:
      return 8;
    case format::Type::kFixedLenByteArray:
      return column_.type_length;
    default:
      return 0;
  }
}

// The estimate of a page of `n` values not dictionary-encoded, whose
// value writer estimates `writer_estimate`.
inline int64_t ColumnChunkWriter::Impl::UndictionariedValueBytes(int64_t n, int64_t writer_estimate) const {
  if (column_.physical_type == format::Type::kBoolean &&
      (options_.page_version == DataPageVersion::kV2 || options_.encoding == format::Encoding::kRle)) {
    return 4 + RleMaxBufferSize(1, n) + RleMinBufferSize(1);  // 4: the length prefix
  }
  return writer_estimate;
}

Result<ColumnChunkOutput> ColumnChunkWriter::Impl::Finish() {
  finishing_ = true;  // (no cost-based fallback for the chunk's last page)
  if (page_levels_ > 0 || num_pages_ == 0) QUIVER_RETURN_NOT_OK(FlushPage());
  ColumnChunkOutput out;
  format::ColumnMetaData& md = out.metadata;
  md.type = column_.physical_type;
  md.path_in_schema = column_.path_parts;
  md.codec = static_cast<format::CompressionCodec>(options_.codec);
  md.num_values = num_levels_;
  int64_t base = 0;  // offset of the chunk's first byte in the output
  if (sink_ != nullptr) {
    if (!streaming_) QUIVER_RETURN_NOT_OK(EmitBuffered());
    if (chunk_start_ < 0) {
      QUIVER_ASSIGN_OR_RAISE(chunk_start_, sink_->Tell());
    }
    base = chunk_start_;
    md.total_compressed_size = sink_written_;
  } else {
    MutableBuffer dictionary_page(options_.pool);
    QUIVER_RETURN_NOT_OK(WriteDictionaryPage(&dictionary_page));
    // Buffered data pages were recorded relative to their own start.
    for (auto& loc : offset_index_.page_locations) loc.offset += dict_len_;
    md.total_compressed_size = dict_len_ + pages_size_;
    QUIVER_RETURN_NOT_OK(CloseRun());
    out.bytes.reserve(pages_.size() + 1);
    if (dict_len_ > 0) out.bytes.push_back(dictionary_page.Freeze());
    for (auto& page : pages_) out.bytes.push_back(std::move(page));
    pages_.clear();
    pages_size_ = 0;
  }
  if (dict_len_ > 0) md.dictionary_page_offset = base;
  md.data_page_offset = base + dict_len_;
  md.total_uncompressed_size = total_uncompressed_;
  for (auto& loc : offset_index_.page_locations) loc.offset += base;

  // Encodings, each once, in Arrow C++'s order: the dictionary page's,
  // RLE (levels; always listed), then the data pages' by enum value. The
  // encoding stats likewise: the dictionary page first, then data pages
  // by encoding.
  std::vector<format::Encoding> encs;
  auto add = [&](format::Encoding e) {
    if (std::find(encs.begin(), encs.end(), e) == encs.end()) encs.push_back(e);
  };
  if (dict_len_ > 0) add(DictionaryPageEncoding());
  add(format::Encoding::kRle);
  std::sort(encodings_.begin(), encodings_.end());
  for (format::Encoding e : encodings_) add(e);
  md.encodings = std::move(encs);
  std::stable_sort(encoding_stats_.begin(), encoding_stats_.end(), [](const auto& a, const auto& b) {
    const bool a_dict = a.page_type == format::PageType::kDictionaryPage;
    const bool b_dict = b.page_type == format::PageType::kDictionaryPage;
    if (a_dict != b_dict) return a_dict;
    return a.encoding < b.encoding;
  });
  md.encoding_stats = encoding_stats_;

  if (options_.statistics) {
    EncodedStatistics s = chunk_stats_->Encode(options_.statistics_truncate_length);
    s.null_count = chunk_nulls_;
    if (options_.distinct_count) {
      QUIVER_ASSIGN_OR_RAISE(s.distinct_count, values_->FinishDistinctCount());
    }
    md.statistics = ToThrift(s, leaf_.stats_kind);
  }
  format::SizeStatistics size_stats;
  if (column_.physical_type == format::Type::kByteArray) {
    size_stats.unencoded_byte_array_data_bytes = byte_array_bytes_;
  }
  if (column_.max_rep > 0) size_stats.repetition_level_histogram = rep_histogram_;
  if (column_.max_def > 0) size_stats.definition_level_histogram = def_histogram_;
  md.size_statistics = std::move(size_stats);

  out.offset_index = std::move(offset_index_);
  if (column_index_.has_value() && !column_index_discarded_) {
    switch (ComputeBoundaryOrder(leaf_.stats_kind, column_index_->min_values,
                                 column_index_->max_values, column_index_->null_pages)) {
      case BoundaryOrder::kAscending:
        column_index_->boundary_order = format::BoundaryOrder::kAscending;
        break;
      case BoundaryOrder::kDescending:
        column_index_->boundary_order = format::BoundaryOrder::kDescending;
        break;
      case BoundaryOrder::kUnordered:
        column_index_->boundary_order = format::BoundaryOrder::kUnordered;
        break;
    }
    out.column_index = std::move(column_index_);
  }
  if (options_.bloom_filter.has_value()) {
    // As Arrow C++ (and so byte for byte as pyarrow): sized for the ndv
    // option, filled, then folded down to the smallest size that keeps the
    // estimated false-positive probability within fpp.
    QUIVER_RETURN_NOT_OK(DrainBloomHashes());
    if (!bloom_filter_.has_value()) {
      // No value: what the empty filter sized for ndv folds to (one
      // block, no bit set), without allocating and clearing that size.
      QUIVER_ASSIGN_OR_RAISE(auto empty, BloomFilter::MakeWithNumBytes(BloomFilter::kMinimumBytes,
                                                                       options_.pool));
      bloom_filter_.emplace(std::move(empty));
    }
    BloomFilter& filter = *bloom_filter_;
    filter.FoldToTargetFpp(options_.bloom_filter->fpp);
    MutableBuffer serialized(options_.pool);
    QUIVER_RETURN_NOT_OK(filter.Serialize(&serialized));
    out.bloom_filter = serialized.Freeze();
  }
  out.num_rows = num_rows_;
  return out;
}

inline int64_t ColumnChunkWriter::Impl::EstimatedPageSize() const {
  const int64_t level_bits = page_levels_ * LevelBitWidth(column_.max_def) +
                             static_cast<int64_t>(page_rep_.size()) * LevelBitWidth(column_.max_rep);
  return level_bits / 8 + values_->EstimatedPageSize();
}

// Inserts the hashes the value writer appended into the chunk's filter,
// made (sized for the ndv option, as Arrow C++'s) at the first of them:
// a column chunk without values (all null) never allocates and clears a
// filter sized for ndv only to fold it to one empty block.
inline Status ColumnChunkWriter::Impl::DrainBloomHashes() {
  if (bloom_hashes_.empty()) return Status::OK();
  if (!bloom_filter_.has_value()) {
    QUIVER_ASSIGN_OR_RAISE(auto filter, BloomFilter::Make(options_.bloom_filter->ndv,
                                                          options_.bloom_filter->fpp, options_.pool));
    bloom_filter_.emplace(std::move(filter));
  }
  bloom_filter_->InsertHashes(bloom_hashes_.data(), static_cast<int64_t>(bloom_hashes_.size()));
  bloom_hashes_.clear();
  return Status::OK();
}

inline Status ColumnChunkWriter::Impl::WriteMiniBatch(const LeafLevels& levels, int64_t begin, int64_t end, int16_t slot_def) {
  const int16_t* rep = levels.rep_levels.empty() ? nullptr : levels.rep_levels.data();
  int64_t slots = end - begin;
  int64_t values = slots;  // the leaf values among the slots
  if (column_.max_def > 0) {
    const int64_t n = end - begin;
    if (PageDefPacked()) {
      // Levels 0/1 kept as bits: copied from packed levels, or packed
      // from int16 ones (16 at a time); the histogram is the bit count.
      page_def_bits_.resize(static_cast<size_t>(bit_util::BytesForBits(page_levels_ + n)));
      int64_t ones;
      if (levels.def_packed) {
        bitmap::CopyBitmap(levels.def_bits.data(), begin, n, page_def_bits_.data(), page_levels_);
        ones = bitmap::CountSetBits(levels.def_bits.data(), begin, n);
      } else {
        ones = LevelsToBitmap(levels.def_levels.data() + begin, n, 1, page_def_bits_.data(),
                              page_levels_);
      }
      batch_histogram_.assign({n - ones, ones});
    } else {
      const int16_t* def = levels.def_levels.data();
      page_def_.insert(page_def_.end(), def + begin, def + end);
      AddHistogram(def + begin, n, column_.max_def, &batch_histogram_);
    }
    values = batch_histogram_[static_cast<size_t>(column_.max_def)];
    slots = 0;
    for (size_t k = 0; k < batch_histogram_.size(); ++k) {
      const int64_t count = batch_histogram_[k];
      page_def_histogram_[k] += count;
      if (static_cast<int64_t>(k) >= slot_def) slots += count;
      if (static_cast<int64_t>(k) < column_.max_def) page_nulls_ += count;
    }
  } else {
    page_def_histogram_[0] += end - begin;
  }
  if (rep != nullptr) {
    page_rep_.insert(page_rep_.end(), rep + begin, rep + end);
    AddHistogram(rep + begin, end - begin, column_.max_rep, &batch_histogram_);
    for (size_t k = 0; k < batch_histogram_.size(); ++k) page_rep_histogram_[k] += batch_histogram_[k];
    page_rows_ += batch_histogram_[0];
  } else {
    page_rows_ += end - begin;
    page_rep_histogram_[0] += end - begin;
  }
  page_levels_ += end - begin;
  // Hand the consumed leaf slots to the value writer, the mini-batch's
  // ranges in one call (slots that are all null are only passed over: a
  // sparse column's mini-batches are often all null).
  batch_ranges_.clear();
  while (slots > 0) {
    const auto& r = (*ranges_)[static_cast<size_t>(range_index_)];
    const int64_t take = std::min(slots, r.second - range_pos_);
    if (values > 0) batch_ranges_.emplace_back(range_pos_, range_pos_ + take);
    range_pos_ += take;
    slots -= take;
    if (range_pos_ == r.second && range_index_ + 1 < static_cast<int64_t>(ranges_->size())) {
      ++range_index_;
      range_pos_ = (*ranges_)[static_cast<size_t>(range_index_)].first;
    }
  }
  if (!batch_ranges_.empty()) {
    QUIVER_RETURN_NOT_OK(values_->AppendRanges(batch_ranges_.data(),
                                               static_cast<int64_t>(batch_ranges_.size())));
  }
  return DrainBloomHashes();
}

// (*hist)[k] = number of levels equal to k among levels[0, n), for
// levels in [0, max_level] (the level builder's guarantee).
inline void ColumnChunkWriter::Impl::AddHistogram(const int16_t* levels, int64_t n, int16_t max_level,
                         std::vector<int64_t>* hist) {
  hist->resize(static_cast<size_t>(max_level) + 1);
  LevelHistogram(levels, n, max_level, hist->data());
}

ColumnChunkWriter::ColumnChunkWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ColumnChunkWriter::~ColumnChunkWriter() = default;

Result<std::unique_ptr<ColumnChunkWriter>> ColumnChunkWriter::Make(
    const ColumnDescriptor& column, const ArrowLeaf& leaf, const ColumnChunkOptions& options,
    io::OutputStream* sink) {
  auto impl = std::make_unique<Impl>(column, leaf, options, sink);
  QUIVER_RETURN_NOT_OK(impl->Init());
  return std::unique_ptr<ColumnChunkWriter>(new ColumnChunkWriter(std::move(impl)));
}

Status ColumnChunkWriter::Write(const LeafLevels& levels) { return impl_->Write(levels); }
int64_t ColumnChunkWriter::EstimatedBufferedSize() const { return impl_->EstimatedBufferedSize(); }
Result<ColumnChunkOutput> ColumnChunkWriter::Finish() { return impl_->Finish(); }

}  // namespace quiver::parquet
