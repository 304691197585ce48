#include "quiver/parquet/metadata/column_chunk.h"

#include "quiver/parquet/metadata/footer.h"

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

Result<bool> PageHeaderIterator::Next(PageInfo* page) {
  QUIVER_RETURN_NOT_OK(failed_);
  if (pos_ >= size_) return false;
  const int64_t offset = file_offset_ + pos_;
  int64_t consumed = 0;
  auto header =
      thrift::DeserializeThrift<format::PageHeader>(data_ + pos_, size_ - pos_, &consumed, limits_);
  if (!header.ok()) {
    failed_ = Status::Invalid("page ", index_, " at offset ", offset,
                              ": cannot decode the page header: ", header.status().message());
    return failed_;
  }
  const format::PageHeader& h = *header;
  if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0) {
    failed_ = Status::Invalid("page ", index_, " at offset ", offset, ": negative page size (",
                              h.compressed_page_size, " compressed, ", h.uncompressed_page_size,
                              " uncompressed)");
    return failed_;
  }
  if (h.compressed_page_size > size_ - pos_ - consumed) {
    failed_ = Status::Invalid("page ", index_, " at offset ", offset, ": its ",
                              h.compressed_page_size,
                              " bytes run past the end of the column chunk (offset ",
                              file_offset_ + size_, ")");
    return failed_;
  }
  page->index = index_++;
  page->offset = offset;
  page->header_size = consumed;
  page->header = std::move(*header);
  pos_ += consumed + page->header.compressed_page_size;
  return true;
}

}  // namespace quiver::parquet
