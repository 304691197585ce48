// Where a column chunk's pages are, and walking their headers
// (apache/parquet-format README "Column chunks", parquet.thrift
// ColumnMetaData and PageHeader).
//
// Every offset quirk of real writers lives here, once:
//   - a chunk starts at its dictionary page when it has one, else at
//     data_page_offset; dictionary_page_offset is taken only when it is
//     positive and before data_page_offset, as Arrow C++ does: some writers
//     store 0 for "none" (parquet-testing dict-page-offset-zero.parquet) and
//     some omit it while their first page is a dictionary page, which
//     data_page_offset then points at;
//   - the chunk spans total_compressed_size bytes (page headers included),
//     which must lie in the data region between the leading magic and the
//     footer.
// A page walk reads header after header from the chunk's start: a header
// that does not decode, a negative size, or a page that runs past the
// chunk's end stops it with an Invalid naming the page's index and file
// offset. Decoding runs under the Thrift limits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

struct ByteRange {
  int64_t offset = 0;
  int64_t length = 0;
  int64_t end() const { return offset + length; }
};

// [offset, offset + length) within [lo, hi), without overflow.
bool RangeWithin(int64_t offset, int64_t length, int64_t lo, int64_t hi);

// The first page's offset (see above), not checked.
int64_t ColumnChunkStart(const format::ColumnMetaData& metadata);

// The chunk's bytes; Invalid unless they lie in [kParquetMagicSize, data_end)
// ("column chunk [start, +length) lies outside the data region [4, end)").
Result<ByteRange> ColumnChunkRange(const format::ColumnMetaData& metadata, int64_t data_end);

// Files written by parquet-mr before 1.2.9 (and by a "parquet-mr" without a
// version) leave the dictionary page's header out of the chunk's
// total_compressed_size (PARQUET-816, IMPALA-694); readers then take up to
// kLegacyDictionaryHeaderPadding more bytes, within the data region, as
// Arrow C++ does. `created_by` is FileMetaData::created_by.
inline constexpr int64_t kLegacyDictionaryHeaderPadding = 100;
bool ChunkSizeOmitsDictionaryHeader(const std::optional<std::string>& created_by);

// One page as stored.
struct PageInfo {
  int64_t index = 0;        // in its chunk, from 0
  int64_t offset = 0;       // file offset of the header
  int64_t header_size = 0;  // Thrift header bytes
  format::PageHeader header;
  int64_t body_offset() const { return offset + header_size; }
  int64_t size() const { return header_size + header.compressed_page_size; }
};

// The two steps of reading one page header, shared by PageHeaderIterator
// (a chunk in memory) and the reader's PageReader (a chunk read window by
// window); both return Invalid("page I at offset O: ...").
//
// DecodePageHeader decodes page `index`'s header, which starts at file
// offset `offset`, from the `available` bytes at `data` (a window that may
// end before the header does: a caller holding fewer bytes than the chunk
// has left retries with more before taking the error as final).
Result<PageInfo> DecodePageHeader(const uint8_t* data, int64_t available, int64_t index,
                                  int64_t offset, const thrift::ThriftLimits& limits = {});
// CheckPageHeader checks a decoded header against the `chunk_left` bytes of
// the chunk from the page's offset: no negative size, and the page (header
// and body) within them.
Status CheckPageHeader(const PageInfo& page, int64_t chunk_left);
// CheckPageFields checks what a header says of its page, without its body:
// a dictionary or data page has its type's header struct, is not the
// chunk's first page only if it is a data page (`index`: its place in the
// chunk), and has no negative count; a v2 page's level sections fit in the
// page. Index pages and unknown types pass (readers skip them). The reader
// and `quiver inspect` both use it; the message says what is wrong, without
// the page's place.
Status CheckPageFields(const format::PageHeader& h, int64_t index);

// Walks the page headers of one column chunk held in memory: `data` holds
// the chunk's `size` bytes, which start at file offset `file_offset`.
class PageHeaderIterator {
 public:
  PageHeaderIterator(const uint8_t* data, int64_t size, int64_t file_offset,
                     const thrift::ThriftLimits& limits = {})
      : data_(data), size_(size), file_offset_(file_offset), limits_(limits) {}

  // The next page's header into *page: true, or false at the chunk's end;
  // Invalid on a bad header (and every later call returns the same error).
  Result<bool> Next(PageInfo* page);
  // Bytes of the chunk walked so far (the end of the last page returned).
  int64_t position() const { return pos_; }

 private:
  const uint8_t* data_;
  int64_t size_;
  int64_t file_offset_;
  thrift::ThriftLimits limits_;
  int64_t pos_ = 0;
  int64_t index_ = 0;
  Status failed_;
};

}  // namespace quiver::parquet
