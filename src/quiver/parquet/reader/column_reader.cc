#include "quiver/parquet/reader/column_reader_internal.h"

#include <algorithm>
#include <cstring>

#include "quiver/parquet/metadata/footer_internal.h"
#include "quiver/parquet/metadata/page_index_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::parquet::internal {
namespace {

// Levels decoded at once ahead of the record scan.
constexpr int64_t kPendingLevels = 4096;

// Whether the chunk's encoding_stats list a data page whose values are not
// dictionary-encoded (without encoding_stats: not known, false).
bool HasPlainFallback(const format::ColumnMetaData& meta) {
  if (!meta.encoding_stats.has_value()) return false;
  for (const auto& e : *meta.encoding_stats) {
    if ((e.page_type == format::PageType::kDataPage ||
         e.page_type == format::PageType::kDataPageV2) &&
        e.count > 0 && e.encoding != format::Encoding::kPlainDictionary &&
        e.encoding != format::Encoding::kRleDictionary) {
      return true;
    }
  }
  return false;
}

}  // namespace

Result<std::unique_ptr<ColumnReader>> ColumnReader::Make(
    std::shared_ptr<io::RandomAccessFile> file, const format::FileMetaData* metadata,
    int64_t data_end, const ColumnDescriptor* column, const ReadNode* leaf,
    const PageReaderOptions& options) {
  std::unique_ptr<ColumnReader> reader(new ColumnReader());
  reader->file_ = std::move(file);
  reader->metadata_ = metadata;
  reader->data_end_ = data_end;
  reader->column_ = column;
  reader->leaf_ = leaf;
  reader->options_ = options;
  if (reader->options_.pool == nullptr) reader->options_.pool = DefaultMemoryPool();
  reader->stats_ = options.stats;
  MemoryPool* pool = reader->options_.pool;
  reader->max_def_ = column->max_def;
  reader->max_rep_ = column->max_rep;
  reader->slot_def_ = leaf->levels.repeated_ancestor_def_level;
  reader->nullable_ = leaf->field->nullable();
  reader->def_ = MutableBuffer(pool);
  reader->rep_ = MutableBuffer(pool);
  reader->valid_ = MutableBuffer(pool);
  QUIVER_ASSIGN_OR_RAISE(reader->builder_, MakeLeafBuilder(*column, leaf->field->type(), pool));
  return reader;
}

Status ColumnReader::StartRowGroup(int row_group, bool skip_pages) {
  const format::RowGroup& group = metadata_->row_groups[static_cast<size_t>(row_group)];
  ColumnChunkContext context{file_->name(), row_group, column_->path};
  const int index = leaf_->column;
  if (static_cast<size_t>(index) >= group.columns.size()) {
    return Status::Invalid(context.ToString(), ": the row group has ", group.columns.size(),
                           " column chunks, the schema ", index + 1, " or more");
  }
  const format::ColumnChunk& chunk = group.columns[static_cast<size_t>(index)];
  if (chunk.crypto_metadata.has_value() || chunk.encrypted_column_metadata.has_value()) {
    const encryption::ChunkDecryptor* decryptor =
        options_.decryptor != nullptr ? options_.decryptor->ForChunk(row_group, column_->path)
                                      : nullptr;
    if (decryptor == nullptr) {
      return Status::NotImplemented(context.ToString(),
                                    ": the column chunk is encrypted (Parquet Modular "
                                    "Encryption): reading it needs decryption_properties");
    }
    if (!decryptor->has_key()) {
      return Status::Invalid(context.ToString(),
                             ": the column chunk is encrypted and no key for it was given "
                             "(decryption_properties: column_keys or key_retriever)");
    }
  }
  if (!chunk.meta_data.has_value()) {
    return Status::Invalid(context.ToString(), ": the column chunk has no metadata");
  }
  if (chunk.file_path.has_value() && !chunk.file_path->empty()) {
    return Status::NotImplemented(context.ToString(), ": the column chunk lives in another file ('",
                                  *chunk.file_path, "')");
  }
  const format::ColumnMetaData& meta = *chunk.meta_data;
  if (meta.type != column_->physical_type) {
    return Status::Invalid(context.ToString(), ": the column chunk holds ",
                           format::EnumName(meta.type), " values, the schema says ",
                           format::EnumName(column_->physical_type));
  }
  if (meta.num_values < 0) {
    return Status::Invalid(context.ToString(), ": the column chunk's num_values ", meta.num_values,
                           " is negative");
  }
  chunk_levels_left_ = meta.num_values;
  chunk_bytes_ = meta.total_uncompressed_size;
  plain_fallback_ = HasPlainFallback(meta);
  current_row_group_ = row_group;
  group_rows_left_ = group.num_rows;
  chunk_rows_ = group.num_rows;
  if (meta.num_values == 0) {
    // An empty chunk: its pages are not read (as Arrow C++); some writers
    // store no page and a data_page_offset of 0
    // (parquet-testing column_chunk_key_value_metadata.parquet).
    pages_.reset();
  } else {
    QUIVER_ASSIGN_OR_RAISE(pages_,
                           PageReader::Make(file_, meta, data_end_, *column_, context, options_));
  }
  locations_.clear();
  if (skip_pages && pages_ != nullptr) {
    QUIVER_ASSIGN_OR_RAISE(locations_, UsableOffsetIndex(chunk, group.num_rows));
    if (locations_.empty() && options_.header_locations != nullptr) {
      // No usable offset index: the pages the filter pruning found by
      // their headers (checked there: in file order, within the chunk,
      // first rows ascending from 0 and summing to the row group's rows).
      auto it = options_.header_locations->find({row_group, index});
      if (it != options_.header_locations->end()) locations_ = it->second;
    }
    if (!locations_.empty()) pages_->SetPageLocations(locations_);
  }
  page_ordinal_ = -1;
  row_ = 0;
  seeked_ = false;
  dictionary_decoder_.reset();
  dictionary_deferred_ = false;
  builder_->DictionaryChanged();
  decoders_.clear();
  values_ = nullptr;
  page_levels_left_ = 0;
  pending_pos_ = pending_len_ = 0;
  chunk_started_ = false;
  return Status::OK();
}

void ColumnReader::NeededRanges(const RowRanges* selection,
                                std::vector<io::ReadRange>* out) const {
  if (pages_ == nullptr) return;
  const ByteRange chunk = pages_->chunk_range();
  if (selection == nullptr || locations_.empty()) {
    out->push_back({chunk.offset, chunk.length});
    return;
  }
  if (locations_.front().offset > chunk.offset && !plain_fallback_) {
    // The dictionary page. With a fallback to PLAIN, the selected pages
    // may not need it: it is then read only when one does
    // (LoadDeferredDictionary), straight from the file.
    out->push_back({chunk.offset, locations_.front().offset - chunk.offset});
  }
  // Pages and selected ranges are both in row order: one walk.
  const std::vector<RowRange>& ranges = selection->ranges();
  size_t r = 0;
  for (size_t i = 0; i < locations_.size() && r < ranges.size(); ++i) {
    const int64_t begin = locations_[i].first_row_index;
    const int64_t end =
        i + 1 < locations_.size() ? locations_[i + 1].first_row_index : chunk_rows_;
    while (r < ranges.size() && ranges[r].end <= begin) ++r;
    if (r < ranges.size() && ranges[r].begin < end) {
      out->push_back({locations_[i].offset, locations_[i].compressed_page_size});
    }
  }
}

void ColumnReader::OffsetIndexRange(int row_group, std::vector<io::ReadRange>* out) const {
  const auto& columns = metadata_->row_groups[static_cast<size_t>(row_group)].columns;
  const size_t leaf = static_cast<size_t>(leaf_->column);
  if (leaf >= columns.size()) return;
  const auto& offset = columns[leaf].offset_index_offset;
  const auto& length = columns[leaf].offset_index_length;
  if (offset.has_value() && length.has_value() &&
      RangeWithin(*offset, *length, kParquetMagicSize, data_end_)) {
    out->push_back({*offset, *length});
  }
}

Status ColumnReader::PageError(const Status& status) const {
  return PageErrorOf(*pages_, status);
}

Status ColumnReader::PageErrorOf(const PageReader& pages, const Status& status) {
  if (status.ok()) return status;
  Status error = pages.PageError(status.message());
  if (status.IsNotImplemented()) return Status::NotImplemented(error.message());
  if (status.IsCapacityError()) return Status::CapacityError(error.message());
  if (status.IsOutOfMemory()) return Status::OutOfMemory(error.message());
  return error;
}

Result<Decoder*> ColumnReader::DecoderFor(format::Encoding encoding) {
  if (encoding == format::Encoding::kPlainDictionary ||
      encoding == format::Encoding::kRleDictionary) {
    if (dictionary_decoder_ == nullptr && dictionary_deferred_) {
      QUIVER_RETURN_NOT_OK(LoadDeferredDictionary());
    }
    if (dictionary_decoder_ == nullptr) {
      return Status::Invalid("a data page is ", format::EnumName(encoding),
                             " encoded but the column chunk has no dictionary page");
    }
    return dictionary_decoder_.get();
  }
  auto it = decoders_.find(encoding);
  if (it == decoders_.end()) {
    QUIVER_ASSIGN_OR_RAISE(auto decoder,
                           MakeDecoder(column_->physical_type, encoding, column_->type_length));
    it = decoders_.emplace(encoding, std::move(decoder)).first;
  }
  return it->second.get();
}

Status ColumnReader::TakeDictionaryPage(const PageReader& pages) {
  const DictionaryPage& page = pages.dictionary_page();
  auto made = MakeDecoder(column_->physical_type, format::Encoding::kRleDictionary,
                          column_->type_length, options_.pool);
  if (!made.ok()) return PageErrorOf(pages, made.status());
  auto decoder = std::move(made).MoveValueUnsafe();
  const Status set = decoder->SetDictionary(page.num_values, page.data.data(),
                                            static_cast<int64_t>(page.data.size()));
  if (!set.ok()) return PageErrorOf(pages, set);
  dictionary_decoder_ = std::move(decoder);
  builder_->DictionaryChanged();
  if (reserved_rest_) {
    // The chunk's values left, at the entries' mean length and 1/8 more
    // (a hint: the uncompressed size ReserveFor used counts indices, not
    // the strings), so that the values' buffer is not regrown (a copy of
    // all so far) near its end; nor more than the longest entry allows.
    reserved_rest_ = false;
    const Decoder::DictionaryBuffers entries = dictionary_decoder_->dictionary_buffers();
    const int64_t count = dictionary_decoder_->dictionary_length();
    if (entries.data != nullptr && count > 0) {
      const int64_t levels = std::clamp<int64_t>(chunk_levels_left_, 0, kMaxReserveSlots);
      const int64_t total = entries.data->size();
      int64_t longest = 0;
      for (int64_t i = 0; i < count; ++i) {
        longest = std::max<int64_t>(longest, dictionary_decoder_->dictionary_entry(i).size());
      }
      const double mean = static_cast<double>(total) / static_cast<double>(count);
      const double estimate =
          std::min(static_cast<double>(levels) * mean * 1.125 +
                       static_cast<double>(ByteArrayDecoder::kIntoPiece * longest),
                   static_cast<double>(levels) * static_cast<double>(longest));
      const int64_t bytes = static_cast<int64_t>(
          std::min(estimate, static_cast<double>(kMaxReserveBytes)));
      // Only a hint (the footer's value count is not checked yet): a pool
      // that refuses it (a memory_limit) leaves the values to grow as
      // they come, and to fail then if they do not fit.
      const Status reserved = builder_->Reserve(levels, bytes);
      if (!reserved.ok() && !reserved.IsOutOfMemory() && !reserved.IsCapacityError()) {
        return reserved;
      }
    }
  }
  return Status::OK();
}

Status ColumnReader::LoadDeferredDictionary() {
  dictionary_deferred_ = false;
  const format::RowGroup& group = metadata_->row_groups[static_cast<size_t>(current_row_group_)];
  const format::ColumnMetaData& meta =
      *group.columns[static_cast<size_t>(leaf_->column)].meta_data;
  ColumnChunkContext context{file_->name(), current_row_group_, column_->path};
  QUIVER_ASSIGN_OR_RAISE(auto pages,
                         PageReader::Make(file_, meta, data_end_, *column_, context, options_));
  pages->SetPageLocations(locations_);
  QUIVER_ASSIGN_OR_RAISE(bool more, pages->Next());
  if (!more || !pages->is_dictionary()) {
    return PageError(Status::Invalid(
        "the bytes before the offset index's first page are not a dictionary page"));
  }
  return TakeDictionaryPage(*pages);
}

Result<bool> ColumnReader::NextDataPage() {
  if (pages_ == nullptr) return false;
  while (true) {
    QUIVER_ASSIGN_OR_RAISE(bool more, pages_->Next());
    if (!more) return false;
    if (pages_->is_dictionary()) {
      QUIVER_RETURN_NOT_OK(TakeDictionaryPage(*pages_));
      continue;
    }
    ++page_ordinal_;
    const DataPage& page = pages_->data_page();
    const int64_t num_values = page.num_values;
    if (num_values < 0) {
      return PageError(Status::Invalid("num_values ", num_values, " is negative"));
    }
    if (page.num_nulls.has_value()) {
      const int64_t nulls = *page.num_nulls;
      if (nulls < 0 || nulls > num_values) {
        return PageError(Status::Invalid("num_nulls ", nulls, " is not within [0, num_values ",
                                         num_values, "]"));
      }
      if (max_def_ == 0 && nulls > 0) {
        return PageError(Status::Invalid("the column is required but the page holds ", nulls,
                                         " nulls"));
      }
    }
    if (max_rep_ > 0) {
      QUIVER_RETURN_NOT_OK(PageError(rep_decoder_.SetData(
          "repetition", page.rep_level_encoding, max_rep_, num_values, page.rep_levels.data(),
          static_cast<int64_t>(page.rep_levels.size()))));
    }
    if (max_def_ > 0) {
      QUIVER_RETURN_NOT_OK(PageError(def_decoder_.SetData(
          "definition", page.def_level_encoding, max_def_, num_values, page.def_levels.data(),
          static_cast<int64_t>(page.def_levels.size()))));
    }
    // The values section holds the entries at the maximum level (the
    // header's num_nulls of v2 pages is not trusted for it).
    int64_t num_non_null = num_values;
    levels_at_once_ = false;
    page_bits_ready_ = false;
    if (flat_ && max_def_ == 0) {
      // A required flat column: every level is a value.
    } else if (flat_ && num_values <= kPageLevelsAtOnce) {
      // One pass over the levels (a count, then the bits, was two).
      page_bits_.assign(static_cast<size_t>(bit_util::BytesForBits(num_values)), 0);
      auto ones = def_decoder_.DecodeBits(num_values, page_bits_.data(), 0);
      if (!ones.ok()) return PageError(ones.status());
      num_non_null = *ones;
      page_bits_ready_ = true;
      page_bits_pos_ = 0;
      page_bits_ones_ = num_non_null;
    } else if (!flat_ && num_values <= kPageLevelsAtOnce) {
      // The page's levels decoded once, up front, as the pending levels;
      // the values counted from them.
      QUIVER_RETURN_NOT_OK(DecodePageLevels(num_values));
      if (max_def_ > 0) num_non_null = CountLevels(pending_def_.data(), num_values, max_def_);
    } else if (max_def_ > 0) {
      // Counted without keeping the levels (runs without expanding them).
      LevelDecoder counter;
      QUIVER_RETURN_NOT_OK(PageError(counter.SetData(
          "definition", page.def_level_encoding, max_def_, num_values, page.def_levels.data(),
          static_cast<int64_t>(page.def_levels.size()))));
      auto counted = counter.Count(num_values, max_def_);
      if (!counted.ok()) return PageError(counted.status());
      num_non_null = *counted;
    }
    auto decoder = DecoderFor(page.encoding);
    if (!decoder.ok()) return PageError(decoder.status());
    values_ = *decoder;
    QUIVER_RETURN_NOT_OK(PageError(values_->SetData(num_non_null, page.values.data(),
                                                    static_cast<int64_t>(page.values.size()))));
    page_values_ = num_non_null;
    if (!levels_at_once_) page_levels_left_ = num_values;
    if (num_values > 0) return true;
  }
}

Status ColumnReader::AppendValues(int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                                  int64_t num_values) {
  builder_->set_page_values_before(page_values_ - values_->values_left());
  if (stats_ != nullptr) stats_->values_decoded += num_values;
  return PageError(builder_->Append(values_, num_slots, valid, valid_offset, num_values));
}

Status ColumnReader::DecodePageLevels(int64_t n) {
  levels_at_once_ = true;
  page_levels_left_ = n;
  return FillPending(n);
}

Status ColumnReader::FillPending(int64_t n) {
  n = std::min(n, page_levels_left_);
  if (max_rep_ > 0) {
    pending_rep_.resize(static_cast<size_t>(n));
    QUIVER_RETURN_NOT_OK(PageError(rep_decoder_.Decode(n, pending_rep_.data())));
    if (!chunk_started_ && n > 0 && pending_rep_[0] != 0) {
      if (seeked_) {
        return PageError(Status::Invalid(
            "the page starts inside a record (its first repetition level is ", pending_rep_[0],
            ") though the offset index says row ", locations_[static_cast<size_t>(page_ordinal_)].first_row_index,
            " starts there"));
      }
      return PageError(Status::Invalid("the column chunk's first repetition level is ",
                                       pending_rep_[0], ", not 0"));
    }
  }
  if (max_def_ > 0) {
    pending_def_.resize(static_cast<size_t>(n));
    QUIVER_RETURN_NOT_OK(PageError(def_decoder_.Decode(n, pending_def_.data())));
  }
  chunk_started_ = chunk_started_ || n > 0;
  page_levels_left_ -= n;
  chunk_levels_left_ -= n;
  pending_pos_ = 0;
  pending_len_ = n;
  return Status::OK();
}

Status ColumnReader::Consume(int64_t begin, int64_t end) {
  const int64_t n = end - begin;
  if (n == 0) return Status::OK();
  if (max_rep_ > 0 && keep_levels_) {
    QUIVER_RETURN_NOT_OK(rep_.ExtendFromSlice(pending_rep_.data() + begin, n * 2));
  }
  if (max_def_ == 0) {
    num_levels_ += n;
    QUIVER_RETURN_NOT_OK(AppendValues(n, nullptr, 0, n));
    num_slots_ += n;
    return Status::OK();
  }
  const int16_t* def = pending_def_.data() + begin;
  if (keep_levels_) QUIVER_RETURN_NOT_OK(def_.ExtendFromSlice(def, n * 2));
  num_levels_ += n;
  // Slots of the leaf's array and which of them hold a value.
  QUIVER_RETURN_NOT_OK(valid_.Resize(bit_util::BytesForBits(num_slots_ + n)));
  uint8_t* valid = valid_.data();
  int64_t slot = num_slots_;
  int64_t values = 0;
  if (slot_def_ == 0) {
    // Every level is a slot (no list above the leaf); levels are at most
    // max_def_, so a value is a level >= max_def_.
    values = LevelsToBitmap(def, n, max_def_, valid, slot);
    slot += n;
  }
  if (slot_def_ > 0) {
    // Below a list, levels under slot_def_ are no slot: branch-free, each
    // level writes the byte of the next slot and advances only if it is
    // one; the bytes are packed into bits after.
    slot_bytes_.resize(static_cast<size_t>(n));
    uint8_t* bytes = slot_bytes_.data();
    // Locals: the byte stores may alias the members.
    const int16_t max_def = max_def_;
    const int16_t slot_def = slot_def_;
    int64_t k = 0;
    int64_t with_value = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int16_t d = def[i];
      const int has_value = d == max_def;
      bytes[k] = static_cast<uint8_t>(has_value);
      with_value += has_value;
      k += d >= slot_def;
    }
    values += with_value;
    int64_t j = 0;
    for (; j < k && ((slot + j) & 7) != 0; ++j) bit_util::SetBitTo(valid, slot + j, bytes[j] != 0);
    bitmap::PackBytes(bytes + j, k - j, valid + ((slot + j) >> 3));
    slot += k;
  }
  const int64_t new_slots = slot - num_slots_;
  if (new_slots > 0) {
    const bool all_valid = values == new_slots;
    QUIVER_RETURN_NOT_OK(
        AppendValues(new_slots, all_valid ? nullptr : valid, num_slots_, values));
  }
  num_nulls_ += new_slots - values;
  num_slots_ = slot;
  return Status::OK();
}

Status ColumnReader::ReserveFor(int64_t records) {
  if (!reserve_) return Status::OK();
  reserve_ = false;
  // Without lists a record is one level and one slot. Below lists, the
  // levels left in the chunk when the batch takes the rest of the row
  // group (ReadTable); else nothing. Bounded by the chunk's level count
  // (a row count in the footer allocates nothing by itself) and by
  // kMaxReserveSlots (nor does a level count).
  const bool rest_of_group = records >= group_rows_left_;
  int64_t levels = 0;
  if (max_rep_ == 0) {
    levels = std::min(records, chunk_levels_left_);
  } else if (rest_of_group) {
    levels = chunk_levels_left_;
  }
  levels = std::clamp<int64_t>(levels, 0, kMaxReserveSlots);
  if (levels == 0) return Status::OK();
  // Byte arrays: the chunk's uncompressed size bounds PLAIN values (a hint
  // only: dictionary pages may expand past it), up to kMaxReserveBytes.
  reserved_rest_ = rest_of_group && max_rep_ == 0 &&
                   column_->physical_type == format::Type::kByteArray;
  const int64_t value_bytes =
      rest_of_group && column_->physical_type == format::Type::kByteArray
          ? std::clamp<int64_t>(chunk_bytes_, 0, kMaxReserveBytes)
          : 0;
  if (max_def_ > 0) {
    QUIVER_RETURN_NOT_OK(
        valid_.Reserve(bit_util::BytesForBits(num_slots_ + levels) - valid_.size()));
    if (keep_levels_) QUIVER_RETURN_NOT_OK(def_.Reserve(levels * 2));
  }
  if (max_rep_ > 0 && keep_levels_) QUIVER_RETURN_NOT_OK(rep_.Reserve(levels * 2));
  return builder_->Reserve(levels, value_bytes);
}

Status ColumnReader::ReadFlat(int64_t want, int64_t* read) {
  QUIVER_RETURN_NOT_OK(ReserveFor(want));
  int64_t records = 0;
  while (records < want) {
    if (page_levels_left_ == 0) {
      QUIVER_ASSIGN_OR_RAISE(bool more, NextDataPage());
      if (!more) break;
      continue;
    }
    // Each level is one record and one slot; its bit says whether the slot
    // holds a value.
    const int64_t n = std::min(want - records, page_levels_left_);
    int64_t values = n;
    if (max_def_ == 0) {
      // Every slot holds a value (the leaf has no validity).
    } else if (page_bits_ready_) {
      QUIVER_RETURN_NOT_OK(valid_.Resize(bit_util::BytesForBits(num_slots_ + n)));
      bitmap::CopyBitmap(page_bits_.data(), page_bits_pos_, n, valid_.data(), num_slots_);
      values = n == page_levels_left_ && page_bits_pos_ == 0
                   ? page_bits_ones_
                   : bitmap::CountSetBits(page_bits_.data(), page_bits_pos_, n);
      page_bits_pos_ += n;
    } else {
      QUIVER_RETURN_NOT_OK(valid_.Resize(bit_util::BytesForBits(num_slots_ + n)));
      auto ones = def_decoder_.DecodeBits(n, valid_.data(), num_slots_);
      if (!ones.ok()) return PageError(ones.status());
      values = *ones;
    }
    page_levels_left_ -= n;
    chunk_levels_left_ -= n;
    num_levels_ += n;
    QUIVER_RETURN_NOT_OK(AppendValues(n, values == n ? nullptr : valid_.data(), num_slots_, values));
    num_nulls_ += n - values;
    num_slots_ += n;
    records += n;
  }
  group_rows_left_ -= records;
  row_ += records;
  *read = records;
  return Status::OK();
}

Result<bool> ColumnReader::NextRecordRun(int64_t want, int64_t* records, int64_t* end) {
  const bool repeated = max_rep_ > 0;
  while (pending_pos_ == pending_len_) {
    if (!repeated && *records == want) return false;
    if (page_levels_left_ == 0) {
      if (*records == want && NextPageStartsRecord(row_ + *records)) return false;
      QUIVER_ASSIGN_OR_RAISE(bool more, NextDataPage());
      if (!more) return false;
      continue;
    }
    QUIVER_RETURN_NOT_OK(
        FillPending(repeated ? kPendingLevels : std::min(kPendingLevels, want - *records)));
  }
  const int64_t begin = pending_pos_;
  const int64_t stop = pending_len_;
  int64_t i = begin;
  if (!repeated) {
    i = begin + std::min(stop - begin, want - *records);
    *records += i - begin;
  } else {
    const int16_t* rep = pending_rep_.data();
    // Records starting in the pending levels, counted branch-free; when
    // they are not more than wanted, every pending level is taken.
    int64_t starts = 0;
    for (int64_t j = begin; j < stop; ++j) starts += rep[j] == 0;
    if (*records + starts <= want) {
      *records += starts;
      i = stop;
    } else {
      for (; i < stop; ++i) {
        if (rep[i] == 0) {
          if (*records == want) break;
          ++*records;
        }
      }
    }
  }
  *end = i;
  return true;
}

Status ColumnReader::ReadRecords(int64_t want, int64_t* read) {
  if (flat_) return ReadFlat(want, read);
  QUIVER_RETURN_NOT_OK(ReserveFor(want));
  int64_t records = 0;
  while (true) {
    int64_t end = 0;
    QUIVER_ASSIGN_OR_RAISE(bool more, NextRecordRun(want, &records, &end));
    if (!more) break;
    QUIVER_RETURN_NOT_OK(Consume(pending_pos_, end));
    pending_pos_ = end;
    if (end < pending_len_) break;  // the next record starts there
  }
  group_rows_left_ -= records;
  row_ += records;
  *read = records;
  return Status::OK();
}

Result<std::vector<PageLocation>> ColumnReader::UsableOffsetIndex(
    const format::ColumnChunk& chunk, int64_t num_rows) const {
  std::vector<PageLocation> none;
  const encryption::ChunkDecryptor* decryptor =
      options_.decryptor != nullptr ? options_.decryptor->ForChunk(current_row_group_, column_->path)
                                    : nullptr;
  auto read = ReadOffsetIndex(*file_, chunk, data_end_, options_.limits, decryptor);
  if (!read.ok()) {
    // An encrypted index that does not decrypt was changed: an error.
    if (decryptor != nullptr) return read.status().WithContext(file_->name(), ": ");
    // An I/O error stays one; an index that does not decode or lies
    // outside the data region is not used.
    if (read.status().IsIOError()) return read.status();
    return none;
  }
  if (!read->has_value()) return none;
  OffsetIndex index = MakeOffsetIndex(**read);
  std::vector<PageLocation>& pages = index.page_locations;
  auto range = ColumnChunkRange(*chunk.meta_data, data_end_);
  if (!range.ok() || pages.empty() || pages.front().first_row_index != 0) return none;
  for (size_t i = 0; i < pages.size(); ++i) {
    const PageLocation& p = pages[i];
    if (p.compressed_page_size <= 0 ||
        !RangeWithin(p.offset, p.compressed_page_size, range->offset, range->end()) ||
        p.first_row_index >= num_rows) {
      return none;
    }
    if (i > 0 && (p.offset < pages[i - 1].offset + pages[i - 1].compressed_page_size ||
                  p.first_row_index <= pages[i - 1].first_row_index)) {
      return none;
    }
  }
  return std::move(pages);
}

bool ColumnReader::NextPageStartsRecord(int64_t row) const {
  if (locations_.empty()) return false;
  const size_t next = static_cast<size_t>(page_ordinal_ + 1);
  return next >= locations_.size() || locations_[next].first_row_index == row;
}

Status ColumnReader::SeekTowards(int64_t target, int64_t* records) {
  // The last page whose first row is at or before the target.
  auto it = std::upper_bound(
      locations_.begin(), locations_.end(), target,
      [](int64_t row, const PageLocation& location) { return row < location.first_row_index; });
  const int64_t page = static_cast<int64_t>(it - locations_.begin()) - 1;
  if (page <= page_ordinal_) return Status::OK();
  const int64_t first_row = locations_[static_cast<size_t>(page)].first_row_index;
  if (first_row < row_ + *records) {
    return PageError(Status::Invalid("the offset index says page ", page, " starts at row ",
                                     first_row, " but row ", row_ + *records,
                                     " was reached before it"));
  }
  if (!pages_->started() && pages_->has_leading_page()) {
    // The dictionary page, in front of the first data page: read only when
    // a data page needs it (a PLAIN fallback page does not).
    dictionary_deferred_ = true;
  }
  if (stats_ != nullptr) stats_->pages_skipped += page - (page_ordinal_ + 1);
  pages_->SeekToPage(page);
  page_ordinal_ = page - 1;
  seeked_ = true;
  chunk_started_ = false;  // the page must start a record
  // The rest of the current page is dropped.
  page_levels_left_ = 0;
  pending_pos_ = pending_len_ = 0;
  page_bits_ready_ = false;
  levels_at_once_ = false;
  values_ = nullptr;
  *records = first_row - row_;
  return Status::OK();
}

Status ColumnReader::SkipRecords(int64_t want, int64_t* skipped) {
  int64_t records = 0;
  while (true) {
    if (!locations_.empty() && records < want) {
      QUIVER_RETURN_NOT_OK(SeekTowards(row_ + want, &records));
    }
    if (flat_) {
      // One level a record; the values to pass over are the levels at 1.
      if (records == want) break;
      if (page_levels_left_ == 0) {
        QUIVER_ASSIGN_OR_RAISE(bool more, NextDataPage());
        if (!more) break;
        continue;
      }
      const int64_t n = std::min(want - records, page_levels_left_);
      int64_t values = n;
      if (max_def_ == 0) {
        // Every level a value.
      } else if (page_bits_ready_) {
        values = bitmap::CountSetBits(page_bits_.data(), page_bits_pos_, n);
        page_bits_pos_ += n;
      } else {
        auto ones = def_decoder_.Count(n, 1);
        if (!ones.ok()) return PageError(ones.status());
        values = *ones;
      }
      QUIVER_RETURN_NOT_OK(PageError(values_->Skip(values)));
      page_levels_left_ -= n;
      chunk_levels_left_ -= n;
      records += n;
      continue;
    }
    // As ReadRecords, but the levels are dropped and their values skipped.
    int64_t end = 0;
    QUIVER_ASSIGN_OR_RAISE(bool more, NextRecordRun(want, &records, &end));
    if (!more) break;
    const int64_t n = end - pending_pos_;
    const int64_t values =
        max_def_ == 0 ? n : CountLevels(pending_def_.data() + pending_pos_, n, max_def_);
    if (values > 0) QUIVER_RETURN_NOT_OK(PageError(values_->Skip(values)));
    pending_pos_ = end;
    if (end < pending_len_) break;
  }
  group_rows_left_ -= records;
  row_ += records;
  *skipped = records;
  return Status::OK();
}

void ColumnReader::EndChunkEarly() {
  if (stats_ == nullptr || locations_.empty()) return;
  stats_->pages_skipped += static_cast<int64_t>(locations_.size()) - (page_ordinal_ + 1);
  locations_.clear();
}

Result<ArrayDataPtr> ColumnReader::FinishLeaf() {
  std::shared_ptr<Buffer> validity;
  int64_t null_count = 0;
  if (nullable_ && num_nulls_ > 0) {
    validity = valid_.Freeze();
    null_count = num_nulls_;
  }
  QUIVER_ASSIGN_OR_RAISE(auto array, builder_->Finish(std::move(validity), null_count));
  if (array->length != num_slots_) {
    return Status::Invalid("column '", column_->path, "': ", array->length, " values for ",
                           num_slots_, " slots");
  }
  valid_.Clear();
  num_slots_ = 0;
  num_nulls_ = 0;
  reserve_ = true;
  return array;
}

Result<std::vector<ArrayDataPtr>> ColumnReader::FinishLeafChunks() {
  std::shared_ptr<Buffer> validity;
  if (nullable_ && num_nulls_ > 0) validity = valid_.Freeze();
  QUIVER_ASSIGN_OR_RAISE(auto chunks, builder_->FinishChunks(validity, options_.pool));
  int64_t length = 0;
  for (const auto& chunk : chunks) length += chunk->length;
  if (length != num_slots_) {
    return Status::Invalid("column '", column_->path, "': ", length, " values for ", num_slots_,
                           " slots");
  }
  valid_.Clear();
  num_slots_ = 0;
  num_nulls_ = 0;
  reserve_ = true;
  return chunks;
}

void ColumnReader::ClearBatch() {
  def_.Clear();
  rep_.Clear();
  num_levels_ = 0;
}

int64_t ColumnReader::bytes_buffered() const {
  return def_.size() + rep_.size() + valid_.size() + builder_->bytes_buffered();
}

}  // namespace quiver::parquet::internal
