// ColumnChunkWriter::Impl's sink I/O (column_writer_internal.h): a page
// compressed or stored (from where its body is, into the stream's own
// memory where it allows), data pages buffered in runs until the
// dictionary page is written, then streamed to the sink.
#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/writer/column_writer_internal.h"
#include "quiver/util/crc32.h"

namespace quiver::parquet {

Status ColumnChunkWriter::Impl::MakeRoomInRun(int64_t stored) {
  // (1024: the page header, as StorePage reserves.)
  const int64_t room =
      1024 + (codec_ != nullptr ? std::max(codec_->MaxCompressedLength(stored), stored) : stored);
  if (!run_.empty() && run_.capacity() - run_.size() < room) QUIVER_RETURN_NOT_OK(CloseRun());
  return run_.empty() ? run_.Reserve(std::max(room, std::min(8 * room, kPageRunBytes))) : Status::OK();
}

// Moves the run's pages to pages_; the room it did not use is given back
// rather than kept (and zeroed by Freeze) until the chunk's pages are
// written.
Status ColumnChunkWriter::Impl::CloseRun() {
  if (run_.empty()) return Status::OK();
  if (run_.capacity() - run_.size() > 1024) QUIVER_RETURN_NOT_OK(run_.ShrinkToFit());
  pages_.push_back(run_.Freeze());
  return Status::OK();
}

// Streaming mode: writes the dictionary page and the buffered data pages
// to the sink; later pages go straight to it.
Status ColumnChunkWriter::Impl::EmitBuffered() {
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

// Writes header + [prefix (uncompressed, v2 levels)] + compressed `body`
// to `out`, or with a `stream`, through `out` (left empty) to the stream,
// a large body straight from where it is rather than copied (or handed
// over, to a stream that keeps buffers: HandOver); returns the bytes
// written.
Result<int64_t> ColumnChunkWriter::Impl::WritePage(format::PageHeader* header, MutableBuffer* body,
                          const uint8_t* prefix, int64_t prefix_len, MutableBuffer* out,
                          io::OutputStream* stream) {
  return WritePage(header, body->data(), body->size(), body, prefix, prefix_len, out, stream);
}

// The same for a body of `body_len` bytes at `body`: `owner` holds them
// (a buffer StorePage may hand over), or nullptr (the body is the
// caller's input, in place: always copied or compressed from there).
Result<int64_t> ColumnChunkWriter::Impl::WritePage(format::PageHeader* header, const uint8_t* body, int64_t body_len,
                          MutableBuffer* owner, const uint8_t* prefix, int64_t prefix_len,
                          MutableBuffer* out, io::OutputStream* stream) {
  if (options_.encryptor != nullptr) {
    return WriteEncryptedPage(header, body, body_len, prefix, prefix_len, out, stream);
  }
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
inline Result<int64_t> ColumnChunkWriter::Impl::CompressPage(format::PageHeader* header, const uint8_t* body, int64_t body_len,
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
inline Result<int64_t> ColumnChunkWriter::Impl::StorePage(format::PageHeader* header, int64_t body_len, MutableBuffer* stored_in,
                          const uint8_t* prefix, int64_t prefix_len, MutableBuffer* out,
                          io::OutputStream* stream) {
  return StorePage(header, body_len, stored_in->data(), stored_in->size(), stored_in, prefix, prefix_len,
                   out, stream);
}

// The same for stored bytes [stored_at, + stored_len) that `stored_in`
// holds, or that are the caller's input (stored_in nullptr: not handed
// over).
inline Result<int64_t> ColumnChunkWriter::Impl::StorePage(format::PageHeader* header, int64_t body_len, const uint8_t* stored_at,
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
inline Status ColumnChunkWriter::Impl::HandOver(MutableBuffer* buffer, io::OutputStream* stream) {
  const int64_t room = buffer->capacity();
  QUIVER_RETURN_NOT_OK(stream->WriteShared(buffer->FreezeSlice()));
  return buffer == &scratch_ ? buffer->Reserve(room) : Status::OK();
}

}  // namespace quiver::parquet
