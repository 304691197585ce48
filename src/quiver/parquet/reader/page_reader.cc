// PageReader: the pages of one column chunk, read window by window over an
// io::RandomAccessFile, checked, decompressed and split into sections (see
// page_reader_internal.h for the contract).
//
// Reading. The bytes of the file are held in one window at a time (a
// zero-copy slice for io::BufferReader). A page header is decoded with
// metadata/column_chunk_internal.h's DecodePageHeader, the walker PageHeaderIterator
// uses too, from the window when it holds the header's offset, else from a
// new window of min(16 KiB, rest of the chunk). A body inside the window is
// used in place; a body the window does not reach is read with up to 16 KiB
// after it, where the next header usually is, so that a chunk of large pages
// costs one read a page.
//
// No byte of the chunk is asked of the file twice: when the window holds the
// start of a body (or of a header that does not decode from it, which may be
// cut off: grown to twice its bytes, at least 16 KiB, up to the chunk's end,
// where the error becomes final, as Arrow C++'s SerializedPageReader grows its
// header buffer), only the bytes from the window's end on are read (Join).
// That read becomes the window (the next header is found in it), and the
// decoder is given the body in one piece: a slice spanning both reads when the
// file's reads are slices of one buffer next to each other (io::BufferReader,
// a memory map, a prefetched range), else a copy of both parts into a scratch
// buffer reused from page to page.
//
// Page locations (the offset index, for reads of some rows): each read is
// exactly one page (header and body as the location gives its size), so a
// page that is skipped is never among the bytes requested, and SeekToPage
// moves the walk to a data page. The chunk's num_values then no longer ends
// the walk (the pages skipped are not counted): the last location does.
//
// Memory. Bodies are decompressed into one pool buffer, reallocated only
// when a page needs more (to exactly that size, the old one freed first), so
// the pool holds at most the largest stated uncompressed size. Before that
// allocation, a SNAPPY block's or single ZSTD frame's own stated size is
// compared with the header's (compression::DecompressedSizeHint): a
// decompression bomb is refused without allocating anything. The scratch
// buffer of joined reads is reallocated the same way; it holds at most the
// largest stored size of a page, or of a header's grown window, both within
// the chunk.
#include "quiver/parquet/reader/page_reader_internal.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <utility>

#include "quiver/parquet/levels/level_decoder_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/crc32.h"
#include "quiver/util/dcheck.h"

namespace quiver::parquet {

namespace {

// The first header window, and what is read past a body read on its own.
constexpr int64_t kHeaderWindow = 16 * 1024;

std::string Hex32(uint32_t value) {
  char text[11];
  std::snprintf(text, sizeof(text), "0x%08x", value);
  return text;
}

std::string EncodingText(format::Encoding encoding) {
  const std::string_view name = format::EnumName(encoding);
  if (!name.empty()) return std::string(name);
  return "unknown (" + std::to_string(static_cast<int32_t>(encoding)) + ")";
}

std::span<const uint8_t> Span(const uint8_t* data, int64_t size) {
  return {data, static_cast<size_t>(size)};
}

}  // namespace

std::string ColumnChunkContext::ToString() const {
  return file + ": row group " + std::to_string(row_group) + ", column '" + column_path + "'";
}

struct PageReader::Impl {
  std::shared_ptr<io::RandomAccessFile> file;
  ColumnChunkContext context;
  std::string prefix;  // context.ToString()
  thrift::ThriftLimits limits;
  bool verify_checksums = false;
  MemoryPool* pool = nullptr;
  int16_t max_def = 0;
  int16_t max_rep = 0;
  compression::CompressionCodec codec_type = compression::CompressionCodec::UNCOMPRESSED;
  std::unique_ptr<compression::Codec> codec;
  ByteRange chunk;

  // Chunk bytes walked (the next page's offset in the chunk) and the next
  // page's index.
  int64_t pos = 0;
  int64_t next_index = 0;
  // Level entries of the data pages returned, and of the whole chunk
  // (ColumnMetaData.num_values): once they are all read the chunk ends,
  // whatever bytes follow (as Arrow C++ stops; see the PARQUET-816 padding).
  int64_t values_seen = 0;
  int64_t values_total = 0;
  // The page being read or last read: for messages.
  int64_t page_index = 0;
  int64_t page_offset = 0;
  Status failed;

  // File bytes [window_offset, window_offset + window->size()).
  std::shared_ptr<Buffer> window;
  int64_t window_offset = 0;
  MutableBuffer decompressed;
  // A header or body joined from the window's end and a later read (Join),
  // when the two are not slices of one buffer.
  MutableBuffer joined;
  ReadStats* stats = nullptr;
  // SetPageLocations: the data pages' places (empty: read by windows).
  std::vector<PageLocation> locations;

  // Encrypted chunks (nullptr: not encrypted): the chunk's decryptor (owned
  // by file_decryptor), whether its first page is a dictionary page (the
  // AAD of the first header says which), the next data page's ordinal, and
  // the current page's decrypted header and body.
  std::shared_ptr<const encryption::FileDecryptor> file_decryptor;
  const encryption::ChunkDecryptor* decryptor = nullptr;
  bool dictionary_first = false;
  int64_t data_ordinal = 0;
  std::string plain_header;
  std::string plain_body;

  PageInfo info;
  bool is_dictionary = false;
  bool seen_dictionary = false;
  DictionaryPage dictionary;
  DataPage data;

  template <typename... Args>
  Status Error(Args&&... args) const {
    return Status::Invalid(prefix, ", page ", page_index, " at offset ", page_offset, ": ",
                           std::forward<Args>(args)...);
  }
  // `st` about the current page, with the context in front.
  Status OnPage(const Status& st) const {
    return st.WithContext(prefix, ", page ", page_index, " at offset ", page_offset, ": ");
  }

  // `*buffer` replaced by an empty one of at least `size` bytes when it has
  // less room (the old one freed first; its bytes are not kept); `what`
  // names the bytes in the error.
  template <typename... What>
  Status EnsureCapacity(MutableBuffer* buffer, int64_t size, What&&... what) {
    if (buffer->capacity() >= size) return Status::OK();
    *buffer = MutableBuffer(pool);
    auto fresh = MutableBuffer::WithCapacity(size, pool);
    if (!fresh.ok()) {
      return fresh.status().WithContext(prefix, ", page ", page_index, " at offset ", page_offset,
                                        ": cannot allocate ", std::forward<What>(what)..., ": ");
    }
    *buffer = std::move(*fresh);
    return Status::OK();
  }

  // The window's bytes from file offset `offset`, if it holds `length` of them.
  const uint8_t* InWindow(int64_t offset, int64_t length) const {
    if (window == nullptr || offset < window_offset ||
        length > window_offset + window->size() - offset) {
      return nullptr;
    }
    return window->data() + (offset - window_offset);
  }

  Status ReadWindow(int64_t offset, int64_t length) {
    auto bytes = file->ReadAt(offset, length);
    if (!bytes.ok()) return OnPage(bytes.status());
    window = std::move(*bytes);
    window_offset = offset;
    return Status::OK();
  }

  // File bytes [offset, offset + length) in one piece, when the first `have`
  // of them (have < length) are at `head` and end where the window ends:
  // the rest is read from the window's end, with `extra` bytes after it, and
  // that read becomes the window. The piece is a slice spanning the window and
  // the read when the read continues the window within one parent buffer;
  // otherwise it is copied into `joined` (which may itself hold `head`: a
  // header grown again).
  Result<const uint8_t*> Join(const uint8_t* head, int64_t have, int64_t offset,
                              int64_t length, int64_t extra) {
    const int64_t window_end = window_offset + window->size();
    QUIVER_DCHECK(have >= 0 && have < length && offset + have == window_end, "joining [",
                  offset, ", +", length, ") with ", have, " bytes ending at the window's end ",
                  window_end);
    auto read = file->ReadAt(window_end, length - have + extra);
    if (!read.ok()) return OnPage(read.status());
    std::shared_ptr<Buffer> next = std::move(*read);
    const std::shared_ptr<Buffer>& parent = window->parent();
    const bool head_in_window = offset >= window_offset &&
                                  head == window->data() + (offset - window_offset);
    if (head_in_window && parent != nullptr && next->parent() == parent &&
        next->data() == window->data() + window->size()) {
      window = SliceBuffer(parent, window->data() - parent->data(), window->size() + next->size());
      return window->data() + (offset - window_offset);
    }
    if (head == joined.data()) {
      // `head` is the joined bytes so far (a header grown again): kept.
      QUIVER_DCHECK_EQ(joined.size(), have);
      auto reserved = joined.Reserve(length - have);
      if (!reserved.ok()) {
        return reserved.WithContext(prefix, ", page ", page_index, " at offset ", page_offset,
                                    ": cannot allocate ", length,
                                    " bytes to join the page's reads: ");
      }
    } else {
      QUIVER_RETURN_NOT_OK(
          EnsureCapacity(&joined, length, length, " bytes to join the page's reads"));
      joined.UnsafeSetSize(0);
      joined.UnsafeExtendFromSlice(head, have);
    }
    joined.UnsafeExtendFromSlice(next->data(), length - have);
    window = std::move(next);
    window_offset = window_end;
    return joined.data();
  }

  // File bytes [offset, offset + length) in one piece (`extra` more read
  // after them when a read is needed).
  Result<const uint8_t*> Bytes(int64_t offset, int64_t length, int64_t extra) {
    if (const uint8_t* p = InWindow(offset, length)) return p;
    if (window != nullptr) {
      const int64_t window_end = window_offset + window->size();
      if (offset >= window_offset && offset < window_end) {
        return Join(InWindow(offset, window_end - offset), window_end - offset, offset, length,
                    extra);
      }
    }
    QUIVER_RETURN_NOT_OK(ReadWindow(offset, length + extra));
    return window->data();
  }

  bool FirstIsDictionary() const { return dictionary_first && pos == 0; }

  // An encrypted page header: its module (4-byte length, then the
  // ciphertext) decrypted and decoded; header_size is the module's size.
  Status ReadEncryptedHeader(int64_t offset, int64_t left) {
    if (left < encryption::kLengthSize) {
      return Error("the chunk ends inside an encrypted page header's length");
    }
    QUIVER_ASSIGN_OR_RAISE(const uint8_t* length_bytes,
                           Bytes(offset, encryption::kLengthSize, 0));
    const int64_t total = encryption::kLengthSize + bit_util::LoadLE32(length_bytes);
    if (total > left) {
      return Error("an encrypted page header of ", total, " bytes runs past the column chunk");
    }
    QUIVER_ASSIGN_OR_RAISE(const uint8_t* module, Bytes(offset, total, 0));
    const auto type = FirstIsDictionary() ? encryption::ModuleType::kDictionaryPageHeader
                                          : encryption::ModuleType::kDataPageHeader;
    Status st = decryptor->Decrypt(type, static_cast<int>(data_ordinal), module, total,
                                   &plain_header);
    if (!st.ok()) return Error(st.message());
    auto page = DecodePageHeader(reinterpret_cast<const uint8_t*>(plain_header.data()),
                                 static_cast<int64_t>(plain_header.size()), next_index, offset,
                                 limits);
    if (!page.ok()) return page.status().WithContext(prefix, ", ");
    page->header_size = total;
    QUIVER_RETURN_NOT_OK(CheckPageHeader(*page, left).WithContext(prefix, ", "));
    info = std::move(*page);
    return Status::OK();
  }

  // The current page's body decrypted (the header then states its
  // plaintext size, as for a page that is not encrypted).
  Result<const uint8_t*> DecryptBody(const uint8_t* body) {
    const bool dictionary = info.header.type == format::PageType::kDictionaryPage;
    const auto type =
        dictionary ? encryption::ModuleType::kDictionaryPage : encryption::ModuleType::kDataPage;
    Status st = decryptor->Decrypt(type, static_cast<int>(data_ordinal), body,
                                   info.header.compressed_page_size, &plain_body);
    if (!st.ok()) return Error(st.message());
    info.header.compressed_page_size = static_cast<int32_t>(plain_body.size());
    QUIVER_RETURN_NOT_OK(OnPage(CheckPageFields(info.header, info.index)));
    return reinterpret_cast<const uint8_t*>(plain_body.data());
  }

  // The next page's header into `info`, checked against the chunk.
  Status ReadHeader() {
    const int64_t offset = chunk.offset + pos;
    const int64_t left = chunk.length - pos;
    if (decryptor != nullptr && InWindow(offset, encryption::kLengthSize) == nullptr) {
      const int64_t exact = ExactPageSize(offset);
      QUIVER_RETURN_NOT_OK(
          ReadWindow(offset, exact > 0 ? std::min(left, exact) : std::min(left, kHeaderWindow)));
    }
    if (decryptor != nullptr) return ReadEncryptedHeader(offset, left);
    if (InWindow(offset, 1) == nullptr) {
      const int64_t exact = ExactPageSize(offset);
      QUIVER_RETURN_NOT_OK(
          ReadWindow(offset, exact > 0 ? std::min(left, exact) : std::min(left, kHeaderWindow)));
    }
    int64_t available = window_offset + window->size() - offset;
    const uint8_t* bytes = InWindow(offset, available);
    while (true) {
      auto page = DecodePageHeader(bytes, available, next_index, offset, limits);
      if (page.ok()) {
        QUIVER_RETURN_NOT_OK(CheckPageHeader(*page, left).WithContext(prefix, ", "));
        info = std::move(*page);
        return Status::OK();
      }
      // Cut off by the window, perhaps: read more, up to the chunk's end.
      if (available >= left) return page.status().WithContext(prefix, ", ");
      const int64_t grown = std::min(left, std::max(2 * available, kHeaderWindow));
      QUIVER_ASSIGN_OR_RAISE(bytes, Join(bytes, available, offset, grown, 0));
      available = grown;
    }
  }

  // With page locations: the bytes of the page at file offset `offset`
  // (a data page's location, or the dictionary page before the first);
  // 0 when unknown.
  int64_t ExactPageSize(int64_t offset) const {
    if (locations.empty()) return 0;
    if (offset < locations.front().offset) {
      return offset == chunk.offset ? locations.front().offset - offset : 0;
    }
    auto it = std::lower_bound(
        locations.begin(), locations.end(), offset,
        [](const PageLocation& location, int64_t o) { return location.offset < o; });
    if (it == locations.end() || it->offset != offset) return 0;
    return it->compressed_page_size;
  }

  // The current page's body (its compressed_page_size bytes as stored): in
  // the window, joined from the window's end on, or read on its own.
  Result<const uint8_t*> ReadBody() {
    const int64_t offset = info.body_offset();
    const int64_t length = info.header.compressed_page_size;
    if (const uint8_t* body = InWindow(offset, length)) return body;
    const int64_t after = locations.empty() ? chunk.end() - (offset + length) : 0;
    const int64_t extra = std::min(after, kHeaderWindow);
    const int64_t window_end = window_offset + window->size();
    if (offset >= window_offset && offset < window_end) {
      return Join(InWindow(offset, window_end - offset), window_end - offset, offset, length,
                  extra);
    }
    QUIVER_RETURN_NOT_OK(ReadWindow(offset, length + extra));
    return window->data();
  }

  // `size` uncompressed bytes from in[0, in_size), decompressed into the
  // reused buffer, or `in` itself when the codec is UNCOMPRESSED.
  Result<const uint8_t*> Decompress(const uint8_t* in, int64_t in_size, int64_t size) {
    if (codec_type == compression::CompressionCodec::UNCOMPRESSED) {
      if (in_size != size) {
        return Error("the page is not compressed (UNCOMPRESSED) but its ", in_size,
                     " stored bytes are not its ", size, " uncompressed bytes");
      }
      return in;
    }
    auto stated = compression::DecompressedSizeHint(codec_type, in, in_size);
    if (!stated.ok()) return OnPage(stated.status());
    if (stated->has_value() && **stated != size) {
      return Error(codec->name(), " data states ", **stated,
                   " uncompressed bytes but the page header says ", size);
    }
    QUIVER_RETURN_NOT_OK(
        EnsureCapacity(&decompressed, size, "the page's ", size, " uncompressed bytes"));
    auto n = codec->Decompress(in, in_size, decompressed.data(), size);
    if (!n.ok()) return OnPage(n.status());
    return decompressed.data();
  }

  Status CheckCrc(const uint8_t* body) const {
    if (!verify_checksums || !info.header.crc.has_value()) return Status::OK();
    const uint32_t stored = static_cast<uint32_t>(*info.header.crc);
    const uint32_t computed = Crc32(body, info.header.compressed_page_size);
    if (stored != computed) {
      return Error("CRC mismatch: the header says ", Hex32(stored), ", the page's ",
                   info.header.compressed_page_size, " bytes give ", Hex32(computed));
    }
    return Status::OK();
  }

  Status ReadDictionaryPage(const uint8_t* body) {
    const format::PageHeader& h = info.header;
    const format::DictionaryPageHeader& d = *h.dictionary_page_header;
    if (d.encoding != format::Encoding::kPlain && d.encoding != format::Encoding::kPlainDictionary) {
      return Error("dictionary page encoding ", EncodingText(d.encoding),
                   " is not PLAIN or PLAIN_DICTIONARY");
    }
    QUIVER_ASSIGN_OR_RAISE(const uint8_t* bytes,
                           Decompress(body, h.compressed_page_size, h.uncompressed_page_size));
    seen_dictionary = true;
    is_dictionary = true;
    dictionary.num_values = d.num_values;
    dictionary.encoding = d.encoding;
    dictionary.data = Span(bytes, h.uncompressed_page_size);
    return Status::OK();
  }

  // One v1 level section at the start of [*p, *p + *left): its bytes
  // without the RLE length prefix; *p and *left move past it.
  Result<std::span<const uint8_t>> V1Levels(std::string_view kind, format::Encoding encoding,
                                            int16_t max_level, int32_t num_values,
                                            const uint8_t** p, int64_t* left) const {
    auto size = V1LevelSectionSize(encoding, max_level, num_values, *p, *left);
    if (!size.ok()) return Error(kind, " levels: ", size.status().message());
    const int64_t prefix_size =
        max_level > 0 && encoding == format::Encoding::kRle ? RleBitPackedEncoder::kLengthPrefixSize : 0;
    const auto section = Span(*p + prefix_size, *size - prefix_size);
    *p += *size;
    *left -= *size;
    return section;
  }

  // `data` afresh, for a data page.
  void StartDataPage(bool v2, int32_t num_values, format::Encoding encoding,
                     const std::optional<format::Statistics>& statistics) {
    data = DataPage();
    data.v2 = v2;
    data.num_values = num_values;
    data.encoding = encoding;
    data.statistics = statistics.has_value() ? &*statistics : nullptr;
    is_dictionary = false;
  }

  Status ReadDataPageV1(const uint8_t* body) {
    const format::PageHeader& h = info.header;
    const format::DataPageHeader& d = *h.data_page_header;
    QUIVER_ASSIGN_OR_RAISE(const uint8_t* p,
                           Decompress(body, h.compressed_page_size, h.uncompressed_page_size));
    int64_t left = h.uncompressed_page_size;
    StartDataPage(/*v2=*/false, d.num_values, d.encoding, d.statistics);
    data.rep_level_encoding = d.repetition_level_encoding;
    data.def_level_encoding = d.definition_level_encoding;
    QUIVER_ASSIGN_OR_RAISE(data.rep_levels, V1Levels("repetition", d.repetition_level_encoding,
                                                     max_rep, d.num_values, &p, &left));
    QUIVER_ASSIGN_OR_RAISE(data.def_levels, V1Levels("definition", d.definition_level_encoding,
                                                     max_def, d.num_values, &p, &left));
    data.values = Span(p, left);
    return Status::OK();
  }

  Status ReadDataPageV2(const uint8_t* body) {
    const format::PageHeader& h = info.header;
    const format::DataPageHeaderV2& d = *h.data_page_header_v2;
    const int64_t rep = d.repetition_levels_byte_length;
    const int64_t def = d.definition_levels_byte_length;
    const bool compressed = d.is_compressed_or_default();
    if (!compressed && h.compressed_page_size != h.uncompressed_page_size) {
      return Error("is_compressed is false but the page's ", h.compressed_page_size,
                   " stored bytes are not its ", h.uncompressed_page_size, " uncompressed bytes");
    }
    const uint8_t* values = body + rep + def;
    const int64_t stored = h.compressed_page_size - rep - def;
    const int64_t size = h.uncompressed_page_size - rep - def;
    if (compressed) {
      QUIVER_ASSIGN_OR_RAISE(values, Decompress(values, stored, size));
    }
    StartDataPage(/*v2=*/true, d.num_values, d.encoding, d.statistics);  // levels: RLE
    data.num_nulls = d.num_nulls;
    data.num_rows = d.num_rows;
    if (max_rep > 0) data.rep_levels = Span(body, rep);
    if (max_def > 0) data.def_levels = Span(body + rep, def);
    data.values = Span(values, size);
    return Status::OK();
  }

  // The next page: true when it is a dictionary or data page, false when
  // it was skipped.
  Result<bool> ReadPage() {
    page_index = next_index;
    page_offset = chunk.offset + pos;
    QUIVER_RETURN_NOT_OK(ReadHeader());
    const int64_t stored_size = info.size();
    const format::PageHeader& h = info.header;
    const format::PageType type = h.type;
    const bool known = type == format::PageType::kDictionaryPage || type == format::PageType::kDataPage ||
                       type == format::PageType::kDataPageV2;
    if (known) {
      if (type == format::PageType::kDictionaryPage && seen_dictionary && h.dictionary_page_header.has_value()) {
        return Error("a second dictionary page in the column chunk");
      }
      QUIVER_RETURN_NOT_OK(OnPage(CheckPageFields(h, info.index)));
      QUIVER_ASSIGN_OR_RAISE(const uint8_t* body, ReadBody());
      // The CRC covers the page as stored: an encrypted page's module (as
      // Arrow C++ writes and checks it), before it is decrypted.
      QUIVER_RETURN_NOT_OK(CheckCrc(body));
      if (decryptor != nullptr) {
        QUIVER_ASSIGN_OR_RAISE(body, DecryptBody(body));
      }
      if (type == format::PageType::kDictionaryPage) {
        QUIVER_RETURN_NOT_OK(ReadDictionaryPage(body));
      } else if (type == format::PageType::kDataPage) {
        QUIVER_RETURN_NOT_OK(ReadDataPageV1(body));
      } else {
        QUIVER_RETURN_NOT_OK(ReadDataPageV2(body));
      }
      if (stats != nullptr) ++stats->pages_decompressed;
      if (type != format::PageType::kDictionaryPage) ++data_ordinal;
    }
    // Index pages and types this reader does not know are skipped unread.
    pos += stored_size;
    ++next_index;
    return known;
  }
};

PageReader::PageReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PageReader::~PageReader() = default;

Result<std::unique_ptr<PageReader>> PageReader::Make(std::shared_ptr<io::RandomAccessFile> file,
                                                     const format::ColumnMetaData& metadata,
                                                     int64_t data_end,
                                                     const ColumnDescriptor& column,
                                                     ColumnChunkContext context,
                                                     const PageReaderOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->prefix = context.ToString();
  auto range = ColumnChunkRange(metadata, data_end);
  if (!range.ok()) return range.status().WithContext(impl->prefix, ": ");
  const auto codec_type = static_cast<compression::CompressionCodec>(metadata.codec);
  auto codec = compression::Codec::Create(codec_type);
  if (!codec.ok()) return codec.status().WithContext(impl->prefix, ": ");
  impl->file = std::move(file);
  impl->context = std::move(context);
  impl->limits = options.limits;
  impl->verify_checksums = options.verify_checksums;
  impl->pool = options.pool != nullptr ? options.pool : DefaultMemoryPool();
  impl->decompressed = MutableBuffer(impl->pool);
  impl->max_def = column.max_def;
  impl->max_rep = column.max_rep;
  impl->codec_type = codec_type;
  impl->codec = std::move(*codec);
  impl->chunk = *range;
  if (options.legacy_dictionary_header_padding) {
    impl->chunk.length += std::min(kLegacyDictionaryHeaderPadding, data_end - range->end());
  }
  impl->page_offset = range->offset;
  impl->values_total = metadata.num_values;
  impl->stats = options.stats;
  if (options.decryptor != nullptr) {
    impl->decryptor = options.decryptor->ForChunk(impl->context.row_group, column.path);
    if (impl->decryptor != nullptr) {
      impl->file_decryptor = options.decryptor;
      impl->dictionary_first =
          metadata.dictionary_page_offset.has_value() && *metadata.dictionary_page_offset > 0;
    }
  }
  return std::unique_ptr<PageReader>(new PageReader(std::move(impl)));
}

Result<bool> PageReader::Next() {
  Impl& s = *impl_;
  QUIVER_RETURN_NOT_OK(s.failed);
  while (s.pos < s.chunk.length && s.values_seen < s.values_total) {
    auto page = s.ReadPage();
    if (!page.ok()) {
      s.failed = page.status();
      return s.failed;
    }
    if (*page) {
      if (!s.is_dictionary) s.values_seen += s.data.num_values;
      return true;
    }
  }
  return false;
}

void PageReader::SetPageLocations(std::vector<PageLocation> locations) {
  Impl& s = *impl_;
  s.locations = std::move(locations);
  if (s.locations.empty()) return;
  const PageLocation& last = s.locations.back();
  s.chunk.length = last.offset + last.compressed_page_size - s.chunk.offset;
}

void PageReader::SeekToPage(int64_t page) {
  Impl& s = *impl_;
  const PageLocation& location = s.locations[static_cast<size_t>(page)];
  s.pos = location.offset - s.chunk.offset;
  s.next_index = page + (has_leading_page() ? 1 : 0);
  s.data_ordinal = page;
  s.values_total = std::numeric_limits<int64_t>::max();
}

ByteRange PageReader::chunk_range() const { return impl_->chunk; }

bool PageReader::started() const { return impl_->pos > 0; }

bool PageReader::has_leading_page() const {
  return !impl_->locations.empty() && impl_->locations.front().offset > impl_->chunk.offset;
}

const PageInfo& PageReader::info() const { return impl_->info; }
bool PageReader::is_dictionary() const { return impl_->is_dictionary; }
const DictionaryPage& PageReader::dictionary_page() const { return impl_->dictionary; }
const DataPage& PageReader::data_page() const { return impl_->data; }
const ColumnChunkContext& PageReader::context() const { return impl_->context; }

Status PageReader::PageError(std::string_view message) const { return impl_->Error(message); }

}  // namespace quiver::parquet
