// ColumnChunkWriter::Impl's page assembly (column_writer_internal.h): a
// page's levels encoded, its header, statistics and encoding stats, the
// data page flushed from the open page and the dictionary page.
#include <algorithm>
#include <utility>

#include "quiver/parquet/encoding/rle_bit_packed.h"
#include "quiver/parquet/levels/level_decoder_internal.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/writer/column_writer_internal.h"
#include "quiver/util/bitmap.h"

namespace quiver::parquet {

namespace {

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

}  // namespace

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

// Appends the dictionary page (if dictionary encoding was used) to `out`,
// or writes it to `stream` (through `out`: WritePage), and records it;
// dict_len_ is its size.
Status ColumnChunkWriter::Impl::WriteDictionaryPage(MutableBuffer* out, io::OutputStream* stream) {
  if (!dictionary_enabled_ || (dictionary_pages_used_ == 0 && !fell_back_)) return Status::OK();
  format::PageHeader header;
  header.type = format::PageType::kDictionaryPage;
  auto& dph = header.dictionary_page_header.emplace();
  dph.num_values = static_cast<int32_t>(values_->dictionary_size());
  dph.encoding = DictionaryPageEncoding();
  dph.is_sorted = false;  // as Arrow C++ writes it: identical page bytes dedup across writers
  AddEncodingStat(format::PageType::kDictionaryPage, dph.encoding);
  if (stream != nullptr && codec_ == nullptr && !options_.page_checksum &&
      options_.encryptor == nullptr && values_->dictionary_streams()) {
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

inline Status ColumnChunkWriter::Impl::EncodeLevels(const std::vector<int16_t>& levels, int16_t max_level, bool length_prefix,
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
Status ColumnChunkWriter::Impl::PutPageHeader(format::PageHeader* header, int64_t uncompressed, int64_t compressed,
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

Status ColumnChunkWriter::Impl::FlushPage() {
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
  format::Encoding encoding;
  if (in_place.first != nullptr) {
    QUIVER_ASSIGN_OR_RAISE(encoding, values_->FlushPageInPlace());
  } else {
    QUIVER_ASSIGN_OR_RAISE(encoding, values_->FlushPage(&scratch_));
  }
  if (encoding == format::Encoding::kRleDictionary) encoding = DictionaryIndexEncoding();
  if (dict_page) ++dictionary_pages_used_;
  const bool end_dictionary =
      dict_page && !finishing_ &&
      DictionaryDoesNotPay(values_in_page, scratch_.size() - (levels_apart ? 0 : rep_len + def_len),
                           page_ba_bytes);

  format::PageHeader header;
  if (v2) {
    header.type = format::PageType::kDataPageV2;
    auto& h = header.data_page_header_v2.emplace();
    h.num_values = static_cast<int32_t>(page_levels_);
    h.num_nulls = static_cast<int32_t>(page_nulls_);
    h.num_rows = static_cast<int32_t>(page_rows_);
    h.encoding = encoding;
    h.definition_levels_byte_length = static_cast<int32_t>(def_len);
    h.repetition_levels_byte_length = static_cast<int32_t>(rep_len);
    h.statistics = PageStatistics(page_stats);
  } else {
    header.type = format::PageType::kDataPage;
    auto& h = header.data_page_header.emplace();
    h.num_values = static_cast<int32_t>(page_levels_);
    h.encoding = encoding;
    h.definition_level_encoding = format::Encoding::kRle;
    h.repetition_level_encoding = format::Encoding::kRle;
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
  AddEncodingStat(v2 ? format::PageType::kDataPageV2 : format::PageType::kDataPage, encoding);
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
inline format::Statistics ColumnChunkWriter::Impl::PageStatistics(const EncodedStatistics& s) const {
  if (!options_.statistics) return format::Statistics{};
  format::Statistics t = ToThrift(s, leaf_.stats_kind);
  t.nan_count.reset();
  return t;
}

// The encodings of the dictionary page and of dictionary-encoded data
// pages: PLAIN_DICTIONARY for both in format 1.0, else PLAIN and
// RLE_DICTIONARY (Arrow C++'s WriterProperties::dictionary_page_encoding
// and dictionary_index_encoding; the bytes are the same).
format::Encoding ColumnChunkWriter::Impl::DictionaryPageEncoding() const {
  return options_.version == FormatVersion::k1_0 ? format::Encoding::kPlainDictionary : format::Encoding::kPlain;
}

inline format::Encoding ColumnChunkWriter::Impl::DictionaryIndexEncoding() const {
  return options_.version == FormatVersion::k1_0 ? format::Encoding::kPlainDictionary
                                                 : format::Encoding::kRleDictionary;
}

inline void ColumnChunkWriter::Impl::AddEncodingStat(format::PageType type, format::Encoding encoding) {
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

}  // namespace quiver::parquet
