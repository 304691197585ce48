#include "quiver/parquet/writer/column_writer.h"

#include <algorithm>
#include <bit>
#include <map>
#include <utility>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/bloom/bloom_filter.h"
#include "quiver/parquet/encoding/rle_bit_packed.h"
#include "quiver/parquet/levels/level_decoder.h"
#include "quiver/parquet/statistics/statistics.h"
#include "quiver/parquet/thrift/compact_protocol.h"
#include "quiver/parquet/writer/value_writer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/crc32.h"

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

using format::Encoding;
using format::PageType;

// Arrow C++'s RleEncoder bounds, which its page size estimates use: the
// worst case for n values of bw bits (runs of 8, each a literal run or a
// repeated run), and the minimum buffer (one 512-value literal run, or a
// 5-byte varint and one value).
int64_t RleMaxBufferSize(int64_t bw, int64_t n) {
  const int64_t runs = (n + 7) / 8;
  return std::max(runs * (1 + bw), runs * (1 + (bw + 7) / 8));
}
int64_t RleMinBufferSize(int64_t bw) { return std::max(1 + (512 * bw + 7) / 8, 5 + (bw + 7) / 8); }

// Legacy min/max are written only for signed sort orders (as Arrow C++).
bool SignedSortOrder(StatsKind kind) {
  switch (kind) {
    case StatsKind::kBoolean:  // (false < true; Arrow C++'s DefaultSortOrder: SIGNED)
    case StatsKind::kInt32:
    case StatsKind::kInt64:
    case StatsKind::kFloat:
    case StatsKind::kDouble:
    case StatsKind::kFloat16:
    case StatsKind::kSignedBytes:
      return true;
    default:
      return false;
  }
}

format::Statistics ToThrift(const EncodedStatistics& s, StatsKind kind) {
  format::Statistics t;
  t.null_count = s.null_count;
  if (s.distinct_count.has_value()) t.distinct_count = s.distinct_count;
  if (s.has_min_max()) {
    t.min_value = s.min;
    t.max_value = s.max;
    t.is_min_value_exact = s.is_min_exact;
    t.is_max_value_exact = s.is_max_exact;
    if (SignedSortOrder(kind)) {
      t.min = s.min;
      t.max = s.max;
    }
  }
  if (s.nan_count.has_value()) t.nan_count = s.nan_count;
  return t;
}

// An Arrow dictionary's page body at least this large is built in the pass
// that checks its entries when a codec compresses it; a smaller one, built
// whole when the page is written, is read from cache.
constexpr int64_t kPrebuiltCompressedDictionaryBytes = int64_t{1} << 20;

}  // namespace

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
        page_head_(options.pool) {}

  Status Init() {
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

  Status Write(const LeafLevels& levels) {
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
  Status WriteChunked(const LeafLevels& levels) {
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
  static int64_t WindowLevels(const LeafLevels& levels) {
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
  Status WriteRange(const LeafLevels& levels, int64_t begin, int64_t n) {
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
  Status FallBackToPlain() {
    if (page_levels_ > 0) QUIVER_RETURN_NOT_OK(FlushPage());
    return EndDictionary();
  }
  // FallBackToPlain once the current page is flushed (by FlushPage itself
  // for the cost-based fallback; once only).
  Status EndDictionary() {
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
  bool DictionaryDoesNotPay(int64_t values_in_page, int64_t index_bytes, int64_t page_ba_bytes) {
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
  Status WriteBatch(const LeafLevels& levels, int64_t begin, int64_t end, int16_t slot_def,
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
  int64_t EstimatedValueBytes() const {
    const int64_t n = values_->page_num_values();
    if (values_->dictionary_active()) return DictionaryIndexBytes(values_->dictionary_size(), n);
    return UndictionariedValueBytes(n, values_->EstimatedPageSize());
  }

  // The estimate of a page of `n` dictionary indices into `entries`
  // entries: the bit width byte and the RLE encoder's worst case plus its
  // minimum buffer (both grow with n and with the entries).
  static int64_t DictionaryIndexBytes(int64_t entries, int64_t n) {
    const int64_t bw = entries <= 1 ? entries : std::bit_width(static_cast<uint64_t>(entries - 1));
    return 1 + RleMaxBufferSize(bw, n) + RleMinBufferSize(bw);
  }

  // EstimatedValueBytes() once `more` levels are added to the page, or a
  // bound above it, where it is known without adding them; -1 otherwise.
  // Dictionary indices of fixed-width values: at most `more` values, each
  // a new entry, and only while that many new entries could not take the
  // dictionary to its size limit (checked after every mini-batch, so
  // mini-batches taken together must not cross it).
  int64_t EstimatedValueBytesAfter(int64_t more) const {
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
  int64_t FixedValueWidth() const {
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
  int64_t UndictionariedValueBytes(int64_t n, int64_t writer_estimate) const {
    if (column_.physical_type == format::Type::kBoolean &&
        (options_.page_version == DataPageVersion::kV2 || options_.encoding == Encoding::kRle)) {
      return 4 + RleMaxBufferSize(1, n) + RleMinBufferSize(1);  // 4: the length prefix
    }
    return writer_estimate;
  }

  int64_t EstimatedBufferedSize() const { return pages_size_ + EstimatedPageSize(); }

  Result<ColumnChunkOutput> Finish() {
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
    std::vector<Encoding> encs;
    auto add = [&](Encoding e) {
      if (std::find(encs.begin(), encs.end(), e) == encs.end()) encs.push_back(e);
    };
    if (dict_len_ > 0) add(DictionaryPageEncoding());
    add(Encoding::kRle);
    std::sort(encodings_.begin(), encodings_.end());
    for (Encoding e : encodings_) add(e);
    md.encodings = std::move(encs);
    std::stable_sort(encoding_stats_.begin(), encoding_stats_.end(), [](const auto& a, const auto& b) {
      const bool a_dict = a.page_type == PageType::kDictionaryPage;
      const bool b_dict = b.page_type == PageType::kDictionaryPage;
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

 private:
  // Appends the dictionary page (if dictionary encoding was used) to `out`,
  // or writes it to `stream` (through `out`: WritePage), and records it;
  // dict_len_ is its size.
  Status WriteDictionaryPage(MutableBuffer* out, io::OutputStream* stream = nullptr) {
    if (!dictionary_enabled_ || (dictionary_pages_used_ == 0 && !fell_back_)) return Status::OK();
    format::PageHeader header;
    header.type = PageType::kDictionaryPage;
    auto& dph = header.dictionary_page_header.emplace();
    dph.num_values = static_cast<int32_t>(values_->dictionary_size());
    dph.encoding = DictionaryPageEncoding();
    dph.is_sorted = false;  // as Arrow C++ writes it: identical page bytes dedup across writers
    AddEncodingStat(PageType::kDictionaryPage, dph.encoding);
    if (stream != nullptr && codec_ == nullptr && !options_.page_checksum &&
        values_->dictionary_streams()) {
      // Stored as is: the header, then the body from the value writer in
      // pieces (a large Arrow dictionary is not copied into a page first).
      const int64_t body_len = values_->dictionary_plain_bytes();
      const int64_t start = out->size();
      QUIVER_RETURN_NOT_OK(PutPageHeader(&header, body_len, body_len, out));
      const int64_t head = out->size() - start;
      QUIVER_RETURN_NOT_OK(stream->Write(out->data(), out->size()));
      out->Clear();
      if (body_len >= stream->MinAdoptedBytes()) {
        // A stream that keeps buffers gets the body built whole in one of
        // its own: the dictionary's bytes are copied once, not twice
        // (into the pieces, then into the stream's chunks).
        MutableBuffer body(options_.pool);
        QUIVER_RETURN_NOT_OK(values_->WriteDictionary(&body));
        if (body.size() != body_len) {
          return Status::Invalid("column '", column_.path, "': internal error: a dictionary page of ", body.size(),
                                 " bytes, expected ", body_len);
        }
        QUIVER_RETURN_NOT_OK(stream->WriteShared(body.FreezeSlice()));
      } else {
        QUIVER_RETURN_NOT_OK(values_->WriteDictionaryTo(stream, out));
        out->Clear();
      }
      dict_len_ = head + body_len;
      return Status::OK();
    }
    if (const auto [body, body_len] = values_->DictionaryBody(); body != nullptr) {
      // Compressed, or stored, from where the values are: not copied into
      // a page buffer first (1.8% of a zstd write of struct_non_null).
      QUIVER_ASSIGN_OR_RAISE(dict_len_, WritePage(&header, body, body_len, nullptr, nullptr, 0, out, stream));
      return Status::OK();
    }
    scratch_.Clear();
    QUIVER_RETURN_NOT_OK(values_->WriteDictionary(&scratch_));
    QUIVER_ASSIGN_OR_RAISE(dict_len_,
                           WritePage(&header, &scratch_, nullptr, 0, out, stream));
    return Status::OK();
  }

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
  Status MakeRoomInRun(int64_t stored) {
    // (1024: the page header, as StorePage reserves.)
    const int64_t room =
        1024 + (codec_ != nullptr ? std::max(codec_->MaxCompressedLength(stored), stored) : stored);
    if (!run_.empty() && run_.capacity() - run_.size() < room) QUIVER_RETURN_NOT_OK(CloseRun());
    return run_.empty() ? run_.Reserve(std::max(room, std::min(8 * room, kPageRunBytes))) : Status::OK();
  }
  // Moves the run's pages to pages_; the room it did not use is given back
  // rather than kept (and zeroed by Freeze) until the chunk's pages are
  // written.
  Status CloseRun() {
    if (run_.empty()) return Status::OK();
    if (run_.capacity() - run_.size() > 1024) QUIVER_RETURN_NOT_OK(run_.ShrinkToFit());
    pages_.push_back(run_.Freeze());
    return Status::OK();
  }

  // Streaming mode: writes the dictionary page and the buffered data pages
  // to the sink; later pages go straight to it.
  Status EmitBuffered() {
    QUIVER_RETURN_NOT_OK(CloseRun());
    QUIVER_ASSIGN_OR_RAISE(chunk_start_, sink_->Tell());
    page_buf_.Clear();
    QUIVER_RETURN_NOT_OK(WriteDictionaryPage(&page_buf_, sink_));
    for (auto& page : pages_) QUIVER_RETURN_NOT_OK(sink_->WriteShared(std::move(page)));
    for (auto& loc : offset_index_.page_locations) loc.offset += dict_len_;
    sink_written_ = dict_len_ + pages_size_;
    pages_.clear();
    pages_size_ = 0;
    page_buf_.Clear();
    streaming_ = true;
    return Status::OK();
  }

  int64_t EstimatedPageSize() const {
    const int64_t level_bits = page_levels_ * LevelBitWidth(column_.max_def) +
                               static_cast<int64_t>(page_rep_.size()) * LevelBitWidth(column_.max_rep);
    return level_bits / 8 + values_->EstimatedPageSize();
  }

  // Inserts the hashes the value writer appended into the chunk's filter,
  // made (sized for the ndv option, as Arrow C++'s) at the first of them:
  // a column chunk without values (all null) never allocates and clears a
  // filter sized for ndv only to fold it to one empty block.
  Status DrainBloomHashes() {
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

  Status WriteMiniBatch(const LeafLevels& levels, int64_t begin, int64_t end, int16_t slot_def) {
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
  static void AddHistogram(const int16_t* levels, int64_t n, int16_t max_level,
                           std::vector<int64_t>* hist) {
    hist->resize(static_cast<size_t>(max_level) + 1);
    LevelHistogram(levels, n, max_level, hist->data());
  }

  // Levels 0/1 of a flat column, packed as the page went (page_def_bits_).
  bool PageDefPacked() const { return column_.max_def == 1 && column_.max_rep == 0; }

  Status EncodeLevels(const std::vector<int16_t>& levels, int16_t max_level, bool length_prefix,
                      MutableBuffer* out) {
    RleBitPackedEncoder enc(LevelBitWidth(max_level), out, length_prefix);
    const auto n = static_cast<int64_t>(levels.size());
    if (max_level == 1) {
      // Levels 0/1 (a flat nullable column's definition levels): packed to a
      // bitmap (LevelsToBitmap, 16 at a time) and encoded from it, a group
      // of 8 at a time (PutBitmap).
      level_bits_.resize(static_cast<size_t>(n / 8 + 1));
      LevelsToBitmap(levels.data(), n, 1, level_bits_.data(), 0);
      QUIVER_RETURN_NOT_OK(enc.PutBitmap(level_bits_.data(), 0, n));
    } else {
      QUIVER_RETURN_NOT_OK(enc.PutBatch(levels.data(), n));
    }
    return enc.Flush().status();
  }

  // Appends `header` with the page's sizes to `out` (and counts the page's
  // uncompressed bytes); the page body follows it.
  Status PutPageHeader(format::PageHeader* header, int64_t uncompressed, int64_t compressed,
                       MutableBuffer* out) {
    if (compressed > INT32_MAX || uncompressed > INT32_MAX) {
      return Status::CapacityError("column '", column_.path, "': a page of ", uncompressed,
                                   " bytes exceeds Parquet's 2 GiB page limit");
    }
    header->uncompressed_page_size = static_cast<int32_t>(uncompressed);
    header->compressed_page_size = static_cast<int32_t>(compressed);
    const int64_t start = out->size();
    QUIVER_RETURN_NOT_OK(thrift::SerializeThrift(*header, out));
    total_uncompressed_ += (out->size() - start) + uncompressed;
    return Status::OK();
  }

  // Writes header + [prefix (uncompressed, v2 levels)] + compressed `body`
  // to `out`, or with a `stream`, through `out` (left empty) to the stream,
  // a large body straight from where it is rather than copied (or handed
  // over, to a stream that keeps buffers: HandOver); returns the bytes
  // written.
  Result<int64_t> WritePage(format::PageHeader* header, MutableBuffer* body,
                            const uint8_t* prefix, int64_t prefix_len, MutableBuffer* out,
                            io::OutputStream* stream = nullptr) {
    return WritePage(header, body->data(), body->size(), body, prefix, prefix_len, out, stream);
  }
  // The same for a body of `body_len` bytes at `body`: `owner` holds them
  // (a buffer StorePage may hand over), or nullptr (the body is the
  // caller's input, in place: always copied or compressed from there).
  Result<int64_t> WritePage(format::PageHeader* header, const uint8_t* body, int64_t body_len,
                            MutableBuffer* owner, const uint8_t* prefix, int64_t prefix_len,
                            MutableBuffer* out, io::OutputStream* stream) {
    bool compress = true;
    if (header->data_page_header_v2.has_value()) {
      // A v2 page without values (all null) is stored as is (nothing to
      // compress), as Arrow C++ does; CompressPage also stores values that
      // the codec does not shrink as they are.
      compress = codec_ != nullptr && body_len > 0;
      header->data_page_header_v2->is_compressed = compress;
    }
    if (compress && codec_ != nullptr) {
      return CompressPage(header, body, body_len, prefix, prefix_len, out, stream);
    }
    return StorePage(header, body_len, body, body_len, owner, prefix, prefix_len, out, stream);
  }

  // WritePage of a page to compress. A page large enough for the stream
  // to keep (MinAdoptedBytes) is compressed into a buffer of its own and
  // handed over, its header and prefix written before it (not with CDC: see
  // StorePage). Otherwise the codec writes its output where the page will
  // stay, behind room for the header: in the stream's own memory
  // (BeginInPlace) or else at the end of `out`, then written to the stream.
  // The header's size depends on the compressed size (a varint), so the
  // room is that of a header that gives the uncompressed size for both: the
  // compressed body is moved (a few bytes either way) only when its size's
  // varint has another length than the uncompressed size's (20,000 bytes
  // compressed to 16,000: 2 bytes, not 3), a move of at most the copy
  // there was before. The values of a v2 page that the codec does not make
  // smaller are stored as they are, with is_compressed false (Arrow C++
  // 26 does so: pages of incompressible values, or of a few bytes, equal
  // pyarrow's).
  Result<int64_t> CompressPage(format::PageHeader* header, const uint8_t* body, int64_t body_len,
                               const uint8_t* prefix, int64_t prefix_len, MutableBuffer* out,
                               io::OutputStream* stream) {
    const int64_t uncompressed = prefix_len + body_len;
    if (uncompressed > INT32_MAX) {
      return Status::CapacityError("column '", column_.path, "': a page of ", uncompressed,
                                   " bytes exceeds Parquet's 2 GiB page limit");
    }
    header->uncompressed_page_size = static_cast<int32_t>(uncompressed);
    header->compressed_page_size = static_cast<int32_t>(uncompressed);
    // A CRC takes 5 bytes but for one in 16 values: guessed as one that does.
    if (options_.page_checksum) header->crc = std::numeric_limits<int32_t>::min();
    page_head_.Clear();
    QUIVER_RETURN_NOT_OK(thrift::SerializeThrift(*header, &page_head_));
    const int64_t guessed_head = page_head_.size();
    // The final header is longer than the guess by at most a byte (a
    // compressed size past the next varint length).
    constexpr int64_t kHeadSlack = 16;
    // (At least body_len: room for the values stored as they are.)
    const int64_t bound = std::max(codec_->MaxCompressedLength(body_len), body_len);
    const int64_t room = guessed_head + kHeadSlack + prefix_len + bound;
    // Whether `written` compressed bytes are kept: else (v2) the values are.
    auto keep_values = [&](int64_t written) {
      if (!header->data_page_header_v2.has_value() || written < body_len) return false;
      header->data_page_header_v2->is_compressed = false;
      return true;
    };
    // The checksum and final header of the compressed body at `at`.
    auto finish = [&](const uint8_t* at, int64_t written) -> Result<int64_t> {
      if (options_.page_checksum) {
        header->crc = static_cast<int32_t>(Crc32Update(Crc32(prefix, prefix_len), at, written));
      }
      page_head_.Clear();
      QUIVER_RETURN_NOT_OK(PutPageHeader(header, uncompressed, prefix_len + written, &page_head_));
      const int64_t head = page_head_.size();
      if (head > guessed_head + kHeadSlack) {
        return Status::Invalid("column '", column_.path, "': internal error: a page header of ", head,
                               " bytes, room for ", guessed_head + kHeadSlack);
      }
      return head;
    };
    if (stream != nullptr && !out->empty()) {
      QUIVER_RETURN_NOT_OK(stream->Write(out->data(), out->size()));
      out->Clear();
    }
    if (stream != nullptr && room >= stream->MinAdoptedBytes() && !options_.cdc.has_value()) {
      compressed_.Clear();
      QUIVER_RETURN_NOT_OK(compressed_.Reserve(bound));
      QUIVER_ASSIGN_OR_RAISE(const int64_t written,
                             codec_->Compress(body, body_len, compressed_.data(), bound));
      if (keep_values(written)) {
        return StorePage(header, body_len, body, body_len, nullptr, prefix, prefix_len, out, stream);
      }
      QUIVER_ASSIGN_OR_RAISE(const int64_t head, finish(compressed_.data(), written));
      QUIVER_RETURN_NOT_OK(stream->Write(page_head_.data(), head));
      if (prefix_len > 0) QUIVER_RETURN_NOT_OK(stream->Write(prefix, prefix_len));
      compressed_.UnsafeSetSize(written);
      QUIVER_RETURN_NOT_OK(HandOver(&compressed_, stream));
      return head + prefix_len + written;
    }
    uint8_t* dst = nullptr;
    if (stream != nullptr) {
      QUIVER_ASSIGN_OR_RAISE(dst, stream->BeginInPlace(room));
    }
    const bool in_stream = dst != nullptr;
    if (!in_stream) {
      QUIVER_RETURN_NOT_OK(out->Reserve(room));
      dst = out->data() + out->size();
    }
    uint8_t* const compressed_at = dst + guessed_head + prefix_len;
    QUIVER_ASSIGN_OR_RAISE(int64_t written, codec_->Compress(body, body_len, compressed_at, bound));
    if (keep_values(written)) {
      std::memcpy(compressed_at, body, static_cast<size_t>(body_len));
      written = body_len;
    }
    QUIVER_ASSIGN_OR_RAISE(const int64_t head, finish(compressed_at, written));
    if (head != guessed_head) std::memmove(dst + head + prefix_len, compressed_at, static_cast<size_t>(written));
    std::memcpy(dst, page_head_.data(), static_cast<size_t>(head));
    if (prefix_len > 0) std::memcpy(dst + head, prefix, static_cast<size_t>(prefix_len));
    const int64_t total = head + prefix_len + written;
    if (in_stream) {
      QUIVER_RETURN_NOT_OK(stream->CommitInPlace(total));
    } else {
      out->UnsafeSetSize(out->size() + total);
      if (stream != nullptr) {
        QUIVER_RETURN_NOT_OK(stream->Write(out->data(), out->size()));
        out->Clear();
      }
    }
    return total;
  }

  // WritePage once the body is stored as it will be (compressed or not):
  // `stored_in` holds the bytes to write (a buffer HandOver may give away),
  // body_len is the body's size before compression.
  Result<int64_t> StorePage(format::PageHeader* header, int64_t body_len, MutableBuffer* stored_in,
                            const uint8_t* prefix, int64_t prefix_len, MutableBuffer* out,
                            io::OutputStream* stream) {
    return StorePage(header, body_len, stored_in->data(), stored_in->size(), stored_in, prefix, prefix_len,
                     out, stream);
  }
  // The same for stored bytes [stored_at, + stored_len) that `stored_in`
  // holds, or that are the caller's input (stored_in nullptr: not handed
  // over).
  Result<int64_t> StorePage(format::PageHeader* header, int64_t body_len, const uint8_t* stored_at,
                            int64_t stored_len, MutableBuffer* stored_in, const uint8_t* prefix,
                            int64_t prefix_len, MutableBuffer* out, io::OutputStream* stream) {
    const std::pair<const uint8_t*, int64_t> stored{stored_at, stored_len};
    if (options_.page_checksum) {
      const uint32_t crc = Crc32Update(Crc32(prefix, prefix_len), stored.first, stored.second);
      header->crc = static_cast<int32_t>(crc);
    }
    const int64_t start = out->size();
    // Room for the header (a few hundred bytes with statistics) and the
    // page, so the body is copied once.
    QUIVER_RETURN_NOT_OK(out->Reserve(1024 + prefix_len + stored.second));
    QUIVER_RETURN_NOT_OK(PutPageHeader(header, prefix_len + body_len, prefix_len + stored.second, out));
    if (prefix_len > 0) QUIVER_RETURN_NOT_OK(out->ExtendFromSlice(prefix, prefix_len));
    const int64_t head = out->size() - start;
    // Above this size a second write costs less than copying the body.
    constexpr int64_t kDirectBodyBytes = 64 * 1024;
    if (stream != nullptr && stored.second >= kDirectBodyBytes) {
      QUIVER_RETURN_NOT_OK(stream->Write(out->data(), out->size()));
      out->Clear();
      // Not with CDC: its pages' sizes vary with the content, and buffers
      // handed over at those sizes were not reused by the next write's
      // allocations (25,000 page faults a write of the string group, 12%
      // slower, 2.4x under memory pressure), where copying into the
      // stream's chunks faults none.
      if (stored_in != nullptr && stored.second >= stream->MinAdoptedBytes() && !options_.cdc.has_value()) {
        QUIVER_RETURN_NOT_OK(HandOver(stored_in, stream));
      } else {
        QUIVER_RETURN_NOT_OK(stream->Write(stored.first, stored.second));
      }
      return head + stored.second;
    }
    if (stream != nullptr) {
      // A stream that builds in memory takes `out` (the header, and what
      // was there before) and the body where they stay: the body copied
      // once, not into `out` and again from there (two of the four copies
      // of a bool page's values, 6% of writing bool_non_null).
      const int64_t total = out->size() + stored.second;
      QUIVER_ASSIGN_OR_RAISE(uint8_t* const dst, stream->BeginInPlace(total));
      if (dst != nullptr) {
        std::memcpy(dst, out->data(), static_cast<size_t>(out->size()));
        if (stored.second > 0) {
          std::memcpy(dst + out->size(), stored.first, static_cast<size_t>(stored.second));
        }
        QUIVER_RETURN_NOT_OK(stream->CommitInPlace(total));
        out->Clear();
        return head + stored.second;
      }
    }
    QUIVER_RETURN_NOT_OK(out->ExtendFromSlice(stored.first, stored.second));
    if (stream != nullptr) {
      QUIVER_RETURN_NOT_OK(stream->Write(out->data(), out->size()));
      out->Clear();
    }
    return head + stored.second;
  }

  // Hands `buffer`'s bytes to `stream` to keep (no copy). The page body
  // buffer (scratch_, which FlushPage swaps with the value writer's) gets as
  // much room again, a fresh allocation, rather than growing again for the
  // next page; compressed_ is sized by each CompressPage, and a compressed
  // dictionary page's buffer is not used again.
  Status HandOver(MutableBuffer* buffer, io::OutputStream* stream) {
    const int64_t room = buffer->capacity();
    QUIVER_RETURN_NOT_OK(stream->WriteShared(buffer->FreezeSlice()));
    return buffer == &scratch_ ? buffer->Reserve(room) : Status::OK();
  }

  Status FlushPage() {
    const bool v2 = options_.page_version == DataPageVersion::kV2;
    const int64_t values_in_page = values_->page_num_values();
    scratch_.Clear();
    // (A buffer kept from page to page: a fresh one grew by doubling every
    // page, 1% of a write of the primitive group.)
    MutableBuffer& levels = page_levels_buf_;
    levels.Clear();
    // Levels go in front of the values in the page body. With v2 pages, and
    // with v1 pages that are not compressed, they are written as a separate
    // piece before the body (the same bytes), so the body is the value
    // writer's own buffer, handed over without a copy (FlushPage into an
    // empty buffer swaps).
    const bool levels_apart = v2 || codec_ == nullptr;
    MutableBuffer* level_out = levels_apart ? &levels : &scratch_;
    int64_t rep_len = 0, def_len = 0;
    if (column_.max_rep > 0) {
      const int64_t before = level_out->size();
      QUIVER_RETURN_NOT_OK(EncodeLevels(page_rep_, column_.max_rep, !v2, level_out));
      rep_len = level_out->size() - before;
    }
    if (column_.max_def > 0) {
      const int64_t before = level_out->size();
      if (PageDefPacked()) {
        RleBitPackedEncoder enc(1, level_out, !v2);
        QUIVER_RETURN_NOT_OK(enc.PutBitmap(page_def_bits_.data(), 0, page_levels_));
        QUIVER_RETURN_NOT_OK(enc.Flush().status());
      } else {
        QUIVER_RETURN_NOT_OK(EncodeLevels(page_def_, column_.max_def, !v2, level_out));
      }
      def_len = level_out->size() - before;
    }
    // Statistics of the page, before the value writer resets them.
    EncodedStatistics page_stats;
    if (options_.statistics) {
      page_stats = values_->page_statistics()->Encode(options_.statistics_truncate_length);
      page_stats.null_count = page_nulls_;
      chunk_stats_->Merge(*values_->page_statistics());
    }
    chunk_nulls_ += page_nulls_;
    const int64_t page_ba_bytes = values_->page_byte_array_bytes();
    byte_array_bytes_ += page_ba_bytes;
    const bool dict_page = values_->dictionary_active();
    // A body still in the caller's leaf (InPlaceBody) is written or
    // compressed from there, unless levels go in front of it (v1 pages
    // compressed with their levels: FlushPage copies it after them).
    const std::pair<const uint8_t*, int64_t> in_place =
        scratch_.empty() ? values_->InPlaceBody() : std::pair<const uint8_t*, int64_t>{nullptr, 0};
    Encoding encoding;
    if (in_place.first != nullptr) {
      QUIVER_ASSIGN_OR_RAISE(encoding, values_->FlushPageInPlace());
    } else {
      QUIVER_ASSIGN_OR_RAISE(encoding, values_->FlushPage(&scratch_));
    }
    if (encoding == Encoding::kRleDictionary) encoding = DictionaryIndexEncoding();
    if (dict_page) ++dictionary_pages_used_;
    const bool end_dictionary =
        dict_page && !finishing_ &&
        DictionaryDoesNotPay(values_in_page, scratch_.size() - (levels_apart ? 0 : rep_len + def_len),
                             page_ba_bytes);

    format::PageHeader header;
    if (v2) {
      header.type = PageType::kDataPageV2;
      auto& h = header.data_page_header_v2.emplace();
      h.num_values = static_cast<int32_t>(page_levels_);
      h.num_nulls = static_cast<int32_t>(page_nulls_);
      h.num_rows = static_cast<int32_t>(page_rows_);
      h.encoding = encoding;
      h.definition_levels_byte_length = static_cast<int32_t>(def_len);
      h.repetition_levels_byte_length = static_cast<int32_t>(rep_len);
      h.statistics = PageStatistics(page_stats);
    } else {
      header.type = PageType::kDataPage;
      auto& h = header.data_page_header.emplace();
      h.num_values = static_cast<int32_t>(page_levels_);
      h.encoding = encoding;
      h.definition_level_encoding = Encoding::kRle;
      h.repetition_level_encoding = Encoding::kRle;
      h.statistics = PageStatistics(page_stats);
    }
    if (streaming_ && chunk_start_ < 0) {
      QUIVER_ASSIGN_OR_RAISE(chunk_start_, sink_->Tell());
    }
    const int64_t page_offset = streaming_ ? sink_written_ : pages_size_;
    if (!streaming_) {
      const int64_t stored = (in_place.first != nullptr ? in_place.second : scratch_.size()) +
                             static_cast<int64_t>(levels.size());
      QUIVER_RETURN_NOT_OK(MakeRoomInRun(stored));
    }
    MutableBuffer* target = streaming_ ? &page_buf_ : &run_;
    QUIVER_ASSIGN_OR_RAISE(
        int64_t written,
        in_place.first != nullptr
            ? WritePage(&header, in_place.first, in_place.second, nullptr, levels.data(), levels.size(),
                        target, streaming_ ? sink_ : nullptr)
            : WritePage(&header, &scratch_, levels_apart ? levels.data() : nullptr,
                        levels_apart ? levels.size() : 0, target, streaming_ ? sink_ : nullptr));
    if (streaming_) {
      sink_written_ += written;
    } else {
      pages_size_ += written;
    }

    // Page index entries.
    format::PageLocation loc;
    loc.offset = page_offset;
    loc.compressed_page_size = static_cast<int32_t>(written);
    loc.first_row_index = num_rows_;
    offset_index_.page_locations.push_back(loc);
    if (column_.physical_type == format::Type::kByteArray) {
      if (!offset_index_.unencoded_byte_array_data_bytes.has_value()) {
        offset_index_.unencoded_byte_array_data_bytes.emplace();
      }
      offset_index_.unencoded_byte_array_data_bytes->push_back(page_ba_bytes);
    }
    if (options_.page_index && options_.statistics) {
      if (!column_index_.has_value()) {
        column_index_.emplace();
        column_index_->null_counts.emplace();
        if (column_.max_rep > 0) column_index_->repetition_level_histograms.emplace();
        if (column_.max_def > 0) column_index_->definition_level_histograms.emplace();
      }
      auto& ci = *column_index_;
      const bool null_page = values_in_page == 0;
      // A page with values but no bounds (all NaN) makes the column index
      // unusable: Arrow C++ then writes none for the chunk, and so do we.
      if (!null_page && !page_stats.has_min_max()) column_index_discarded_ = true;
      ci.null_pages.push_back(null_page);
      ci.min_values.push_back(null_page || !page_stats.min ? std::string() : *page_stats.min);
      ci.max_values.push_back(null_page || !page_stats.max ? std::string() : *page_stats.max);
      ci.null_counts->push_back(page_nulls_);
      if (page_stats.nan_count.has_value()) {
        if (!ci.nan_counts.has_value()) ci.nan_counts.emplace();
        ci.nan_counts->push_back(*page_stats.nan_count);
      }
      if (column_.max_rep > 0) {
        ci.repetition_level_histograms->insert(ci.repetition_level_histograms->end(),
                                               page_rep_histogram_.begin(), page_rep_histogram_.end());
      }
      if (column_.max_def > 0) {
        ci.definition_level_histograms->insert(ci.definition_level_histograms->end(),
                                               page_def_histogram_.begin(), page_def_histogram_.end());
      }
    }
    AddEncodingStat(v2 ? PageType::kDataPageV2 : PageType::kDataPage, encoding);
    if (std::find(encodings_.begin(), encodings_.end(), encoding) == encodings_.end()) {
      encodings_.push_back(encoding);
    }
    for (size_t i = 0; i < def_histogram_.size(); ++i) def_histogram_[i] += page_def_histogram_[i];
    for (size_t i = 0; i < rep_histogram_.size(); ++i) rep_histogram_[i] += page_rep_histogram_[i];

    num_rows_ += page_rows_;
    num_levels_ += page_levels_;
    ++num_pages_;
    page_def_.clear();
    page_def_bits_.clear();
    page_rep_.clear();
    std::fill(page_def_histogram_.begin(), page_def_histogram_.end(), 0);
    std::fill(page_rep_histogram_.begin(), page_rep_histogram_.end(), 0);
    page_levels_ = 0;
    page_rows_ = 0;
    page_nulls_ = 0;
    return end_dictionary ? EndDictionary() : Status::OK();
  }

  // Page header statistics: as the column chunk's, without nan_count, which
  // Arrow C++ does not put in page headers; the NaN counts are in the column
  // index and the chunk statistics, and page bytes stay identical to
  // pyarrow's (pages written by either library dedup against each other).
  // Without statistics, an empty struct, as Arrow C++ writes it.
  format::Statistics PageStatistics(const EncodedStatistics& s) const {
    if (!options_.statistics) return format::Statistics{};
    format::Statistics t = ToThrift(s, leaf_.stats_kind);
    t.nan_count.reset();
    return t;
  }

  // The encodings of the dictionary page and of dictionary-encoded data
  // pages: PLAIN_DICTIONARY for both in format 1.0, else PLAIN and
  // RLE_DICTIONARY (Arrow C++'s WriterProperties::dictionary_page_encoding
  // and dictionary_index_encoding; the bytes are the same).
  Encoding DictionaryPageEncoding() const {
    return options_.version == FormatVersion::k1_0 ? Encoding::kPlainDictionary : Encoding::kPlain;
  }
  Encoding DictionaryIndexEncoding() const {
    return options_.version == FormatVersion::k1_0 ? Encoding::kPlainDictionary : Encoding::kRleDictionary;
  }

  void AddEncodingStat(PageType type, Encoding encoding) {
    for (auto& s : encoding_stats_) {
      if (s.page_type == type && s.encoding == encoding) {
        ++s.count;
        return;
      }
    }
    format::PageEncodingStats s;
    s.page_type = type;
    s.encoding = encoding;
    s.count = 1;
    encoding_stats_.push_back(s);
  }

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
  int64_t num_pages_ = 0;
  int64_t num_rows_ = 0;
  int64_t num_levels_ = 0;
  int64_t chunk_nulls_ = 0;
  int64_t total_uncompressed_ = 0;
  int64_t byte_array_bytes_ = 0;
  std::vector<int64_t> def_histogram_;
  std::vector<int64_t> rep_histogram_;
  std::vector<Encoding> encodings_;  // of data pages, each once
  std::vector<format::PageEncodingStats> encoding_stats_;
  format::OffsetIndex offset_index_;
  std::optional<format::ColumnIndex> column_index_;
  bool column_index_discarded_ = false;
};

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
