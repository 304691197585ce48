#include "quiver/parquet/metadata/column_chunk_internal.h"

#include "quiver/parquet/metadata/footer_internal.h"
#include "quiver/parquet/metadata/statistics.h"

namespace quiver::parquet {

bool RangeWithin(int64_t offset, int64_t length, int64_t lo, int64_t hi) {
  return offset >= lo && length >= 0 && offset <= hi && length <= hi - offset;
}

int64_t ColumnChunkStart(const format::ColumnMetaData& m) {
  int64_t start = m.data_page_offset;
  if (m.dictionary_page_offset.has_value() && *m.dictionary_page_offset > 0 &&
      *m.dictionary_page_offset < start) {
    start = *m.dictionary_page_offset;
  }
  return start;
}

Result<ByteRange> ColumnChunkRange(const format::ColumnMetaData& m, int64_t data_end) {
  const int64_t start = ColumnChunkStart(m);
  const int64_t length = m.total_compressed_size;
  if (!RangeWithin(start, length, kParquetMagicSize, data_end)) {
    return Status::Invalid("column chunk [", start, ", +", length,
                           ") lies outside the data region [4, ", data_end, ")");
  }
  return ByteRange{start, length};
}

Result<PageInfo> DecodePageHeader(const uint8_t* data, int64_t available, int64_t index,
                                  int64_t offset, const thrift::ThriftLimits& limits) {
  PageInfo page;
  auto header = thrift::DeserializeThrift<format::PageHeader>(data, available,
                                                              &page.header_size, limits);
  if (!header.ok()) {
    return Status::Invalid("page ", index, " at offset ", offset,
                           ": cannot decode the page header: ", header.status().message());
  }
  page.index = index;
  page.offset = offset;
  page.header = std::move(*header);
  return page;
}

Status CheckPageHeader(const PageInfo& page, int64_t chunk_left) {
  const format::PageHeader& h = page.header;
  if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0) {
    return Status::Invalid("page ", page.index, " at offset ", page.offset,
                           ": negative page size (", h.compressed_page_size, " compressed, ",
                           h.uncompressed_page_size, " uncompressed)");
  }
  if (h.compressed_page_size > chunk_left - page.header_size) {
    return Status::Invalid("page ", page.index, " at offset ", page.offset, ": its ",
                           h.compressed_page_size,
                           " bytes run past the end of the column chunk (offset ",
                           page.offset + chunk_left, ")");
  }
  return Status::OK();
}

Status CheckPageFields(const format::PageHeader& h, int64_t index) {
  const char* struct_name = nullptr;
  bool has_struct = false;
  if (h.type == format::PageType::kDictionaryPage) {
    struct_name = "dictionary_page_header";
    has_struct = h.dictionary_page_header.has_value();
  } else if (h.type == format::PageType::kDataPage) {
    struct_name = "data_page_header";
    has_struct = h.data_page_header.has_value();
  } else if (h.type == format::PageType::kDataPageV2) {
    struct_name = "data_page_header_v2";
    has_struct = h.data_page_header_v2.has_value();
  } else {
    return Status::OK();
  }
  if (!has_struct) return Status::Invalid(format::EnumName(h.type), " without a ", struct_name);
  if (h.type == format::PageType::kDictionaryPage) {
    if (index != 0) return Status::Invalid("a dictionary page that is not the column chunk's first page");
    const int32_t n = h.dictionary_page_header->num_values;
    if (n < 0) return Status::Invalid("negative num_values ", n);
    return Status::OK();
  }
  if (h.type == format::PageType::kDataPage) {
    const int32_t n = h.data_page_header->num_values;
    if (n < 0) return Status::Invalid("negative num_values ", n);
    return Status::OK();
  }
  const format::DataPageHeaderV2& d = *h.data_page_header_v2;
  if (d.num_values < 0 || d.num_nulls < 0 || d.num_rows < 0) {
    return Status::Invalid("negative counts (num_values ", d.num_values, ", num_nulls ", d.num_nulls,
                           ", num_rows ", d.num_rows, ")");
  }
  const int64_t rep = d.repetition_levels_byte_length;
  const int64_t def = d.definition_levels_byte_length;
  if (rep < 0 || def < 0) {
    return Status::Invalid("negative level section lengths (repetition ", rep, ", definition ", def, ")");
  }
  if (rep + def > h.compressed_page_size || rep + def > h.uncompressed_page_size) {
    return Status::Invalid("level sections of ", rep, " + ", def, " bytes are longer than the page (",
                           h.compressed_page_size, " bytes stored, ", h.uncompressed_page_size,
                           " uncompressed)");
  }
  return Status::OK();
}

Result<bool> PageHeaderIterator::Next(PageInfo* page) {
  QUIVER_RETURN_NOT_OK(failed_);
  if (pos_ >= size_) return false;
  auto decoded = DecodePageHeader(data_ + pos_, size_ - pos_, index_, file_offset_ + pos_, limits_);
  Status st = decoded.ok() ? CheckPageHeader(*decoded, size_ - pos_) : decoded.status();
  if (!st.ok()) {
    failed_ = std::move(st);
    return failed_;
  }
  *page = std::move(*decoded);
  ++index_;
  pos_ += page->size();
  return true;
}

bool ChunkSizeOmitsDictionaryHeader(const std::optional<std::string>& created_by) {
  if (!created_by.has_value()) return false;
  // "<application> version <major>.<minor>.<patch>[...] (build ...)", as
  // Arrow C++'s ApplicationVersion reads it; a missing version is 0.0.0.
  return ApplicationVersion(*created_by).OlderThan("parquet-mr", 1, 2, 9);
}

}  // namespace quiver::parquet
