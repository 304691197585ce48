// Pages out of one column chunk, read from an io::RandomAccessFile page by
// page (never the whole chunk at once), checked and decompressed.
//
// For each page: its header is read from a window of the file (grown when
// the header is longer, up to the chunk's end), then its body; index pages
// and page types this reader does not know are skipped. No byte of the chunk
// is asked of the file twice (a body or header that starts in one read and
// goes on past it is joined with the next read, page_reader.cc). A data page is split
// into its three sections, the same for v1 and v2:
//   v1: [rep levels][def levels][values], all compressed together; each
//       level section is RLE with a 4-byte length prefix (stripped here) or
//       BIT_PACKED (ceil(num_values * bit_width / 8) bytes); a section is
//       absent when its max level is 0.
//   v2: [rep levels][def levels] never compressed (lengths in the header),
//       then the values, compressed unless is_compressed is false or the
//       codec is UNCOMPRESSED.
// Decompression goes into a buffer reused from page to page; a page's
// sections stay valid until the next call to Next().
//
// Everything in a header is untrusted: a header that does not decode,
// sizes negative or past the chunk, level lengths past the page (v1: an RLE
// length prefix or BIT_PACKED section longer than the page; v2: lengths
// negative or longer than the stored or the uncompressed page), v2 pages
// with is_compressed = false, and pages of an UNCOMPRESSED chunk, whose
// compressed and uncompressed sizes differ, a dictionary page that is not
// the chunk's first page or comes twice or is neither PLAIN nor
// PLAIN_DICTIONARY, a page type without its header struct, num_values
// negative (v2: num_nulls, num_rows too), a CRC that does not match (when
// verification is on), a SNAPPY block or single ZSTD frame that states
// another uncompressed size than the header, decompression to other than
// the stated size: each is an Invalid whose message starts with the
// context ("<file>: row group R, column 'a.b', page I at offset O: ...").
// Pages are indexed as stored (skipped ones too). I/O errors keep their
// code (IOError) under the same prefix.
// Memory taken from the pool per page is bounded by the page's stated
// uncompressed size, itself refused when the pool cannot give it (the
// pool's OutOfMemory, under the same prefix, naming the size), and by its
// stored size when its bytes come from two reads that are not slices of one
// buffer (joined into a reused scratch buffer); nothing else is allocated
// for pages that are not compressed.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "quiver/compression/codec.h"
#include "quiver/io/interfaces.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/encryption/file_decryptor_internal.h"
#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/page_index.h"
#include "quiver/parquet/reader/read_stats.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// Where a column chunk is, for messages.
struct ColumnChunkContext {
  std::string file;         // the file's name (io::RandomAccessFile::name())
  int row_group = 0;
  std::string column_path;  // dotted
  // "<file>: row group R, column 'a.b'"
  std::string ToString() const;
};

struct PageReaderOptions {
  thrift::ThriftLimits limits;
  // pyarrow's page_checksum_verification: pages with a crc are checked (CRC-32
  // of the page bytes as stored); a mismatch is Invalid naming the page.
  bool verify_checksums = false;
  MemoryPool* pool = nullptr;  // nullptr: default_memory_pool()
  // The file's writer left the dictionary page header out of the chunk's
  // size (ChunkSizeOmitsDictionaryHeader): the chunk is taken to be up to
  // kLegacyDictionaryHeaderPadding bytes longer, within the data region.
  bool legacy_dictionary_header_padding = false;
  // Where pages_decompressed is counted (nullptr: nowhere; the column
  // reader counts its own figures there too). Must outlive the reader.
  ReadStats* stats = nullptr;
  // Data pages found by walking their headers (filter pruning of a chunk
  // without a column index, pruning_sources_internal.h), by (row group,
  // leaf column): the column reader skips pages through them as through an
  // offset index when the chunk has no usable one. Null: none.
  std::shared_ptr<const std::map<std::pair<int, int>, std::vector<PageLocation>>>
      header_locations;
  // The file's decryptor (metadata/footer_internal.h): the pages and
  // headers of an encrypted chunk are decrypted (nullptr: none is).
  std::shared_ptr<const encryption::FileDecryptor> decryptor;
};

struct DictionaryPage {
  int32_t num_values = 0;
  format::Encoding encoding{};  // PLAIN or PLAIN_DICTIONARY (both PLAIN bytes)
  std::span<const uint8_t> data;
};

struct DataPage {
  bool v2 = false;
  int32_t num_values = 0;  // level entries (values, nulls included)
  // v2 only (nullopt for v1): as stated in the header.
  std::optional<int32_t> num_nulls;
  std::optional<int32_t> num_rows;
  format::Encoding encoding{};  // of the values
  // RLE or BIT_PACKED (v1 as stated; v2 always RLE). Empty sections when the
  // max level is 0.
  format::Encoding rep_level_encoding = format::Encoding::kRle;
  format::Encoding def_level_encoding = format::Encoding::kRle;
  std::span<const uint8_t> rep_levels;
  std::span<const uint8_t> def_levels;
  std::span<const uint8_t> values;
  const format::Statistics* statistics = nullptr;  // nullptr when absent
};

class PageReader {
 public:
  // The pages of the chunk `metadata` describes, within the data region
  // [4, data_end) of `file` (ColumnChunkRange). `column` gives the max
  // levels (for the v1 split) and `context` the messages' prefix.
  static Result<std::unique_ptr<PageReader>> Make(std::shared_ptr<io::RandomAccessFile> file,
                                                  const format::ColumnMetaData& metadata,
                                                  int64_t data_end, const ColumnDescriptor& column,
                                                  ColumnChunkContext context,
                                                  const PageReaderOptions& options = {});
  ~PageReader();
  PageReader(const PageReader&) = delete;
  PageReader& operator=(const PageReader&) = delete;

  // Reads the next dictionary or data page: true, or false at the end of the
  // chunk. After an error every later call returns it again.
  Result<bool> Next();

  // The chunk's data pages as its offset index gives them (checked by the
  // caller: in file order, within the chunk, none empty), before the first
  // Next(). Every read then takes exactly one page's bytes: a data page's
  // location, or the dictionary page in front of the first location; no
  // byte of a page that is not read is requested from the file. The chunk
  // ends after the last location.
  void SetPageLocations(std::vector<PageLocation> locations);
  // With page locations: the next Next() reads data page `page` (an index
  // into them); the pages before it that were not read are never read. The
  // chunk's value count no longer ends the walk (the skipped pages' counts
  // are unknown): the last location does.
  void SeekToPage(int64_t page);
  // Whether a page of the chunk was read (or skipped by SeekToPage).
  bool started() const;
  // With page locations: whether bytes in front of the first data page
  // (a dictionary page) are there.
  bool has_leading_page() const;

  // The file bytes the walk may read: the chunk (with the legacy
  // dictionary header padding), ending after the last page location once
  // SetPageLocations gave them.
  ByteRange chunk_range() const;

  // The current page (after Next() returned true).
  const PageInfo& info() const;
  bool is_dictionary() const;
  const DictionaryPage& dictionary_page() const;  // is_dictionary()
  const DataPage& data_page() const;              // !is_dictionary()

  // "<file>: row group R, column 'a.b', page I at offset O: " + message, as
  // Invalid (for the column reader's own checks on the current page).
  Status PageError(std::string_view message) const;
  const ColumnChunkContext& context() const;

 private:
  struct Impl;
  explicit PageReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace quiver::parquet
