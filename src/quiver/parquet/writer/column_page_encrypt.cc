// ColumnChunkWriter::Impl's pages of an encrypted column chunk
// (column_writer_internal.h; Parquet Modular Encryption, Encryption.md
// 4 and 5): the page as it would be stored (v2 levels, then the body
// compressed) is one module, its header (whose compressed_page_size is
// that module's size) another, with the data page ordinal in both AADs.
// The CRC, when asked for, is that of the page module as stored (what
// Arrow C++ writes and checks, before decrypting).
#include <algorithm>
#include <cstring>

#include "quiver/parquet/encryption/file_encryptor_internal.h"
#include "quiver/parquet/writer/column_writer_internal.h"
#include "quiver/util/crc32.h"

namespace quiver::parquet {

Result<int64_t> ColumnChunkWriter::Impl::WriteEncryptedPage(format::PageHeader* header,
                                                            const uint8_t* body, int64_t body_len,
                                                            const uint8_t* prefix,
                                                            int64_t prefix_len, MutableBuffer* out,
                                                            io::OutputStream* stream) {
  using encryption::ModuleType;
  const encryption::ChunkEncryptor& encryptor = *options_.encryptor;
  const bool dictionary = header->type == format::PageType::kDictionaryPage;
  const bool v2 = header->data_page_header_v2.has_value();
  // As WritePage: a v2 page without values is stored as is, and v2 values
  // the codec does not make smaller are stored as they are.
  bool compress = codec_ != nullptr && (!v2 || body_len > 0);
  const int64_t bound =
      compress ? std::max(codec_->MaxCompressedLength(body_len), body_len) : body_len;
  sealed_.Clear();
  QUIVER_RETURN_NOT_OK(sealed_.Reserve(prefix_len + bound));
  if (prefix_len > 0) sealed_.UnsafeExtendFromSlice(prefix, prefix_len);
  uint8_t* const values_at = sealed_.data() + prefix_len;
  int64_t stored = body_len;
  if (compress) {
    QUIVER_ASSIGN_OR_RAISE(const int64_t written,
                           codec_->Compress(body, body_len, values_at, bound));
    if (v2 && written >= body_len) {
      compress = false;
    } else {
      stored = written;
    }
  }
  if (!compress && body_len > 0) std::memcpy(values_at, body, static_cast<size_t>(body_len));
  sealed_.UnsafeSetSize(prefix_len + stored);
  if (v2) header->data_page_header_v2->is_compressed = compress;
  const int page = dictionary ? -1 : data_page_ordinal_;
  const ModuleType body_type = dictionary ? ModuleType::kDictionaryPage : ModuleType::kDataPage;
  const ModuleType head_type =
      dictionary ? ModuleType::kDictionaryPageHeader : ModuleType::kDataPageHeader;
  // The page module first: the header states its size and CRC.
  compressed_.Clear();
  QUIVER_RETURN_NOT_OK(compressed_.Reserve(sealed_.size() + encryption::kGcmOverhead + 16));
  QUIVER_ASSIGN_OR_RAISE(const int64_t module, encryptor.Encrypt(body_type, page, sealed_.data(),
                                                                 sealed_.size(), compressed_.data()));
  if (options_.page_checksum) header->crc = static_cast<int32_t>(Crc32(compressed_.data(), module));
  page_head_.Clear();
  QUIVER_RETURN_NOT_OK(PutPageHeader(header, prefix_len + body_len, module, &page_head_));
  const int64_t total = page_head_.size() + encryptor.Overhead(head_type) + module;
  const int64_t start = out->size();
  // (+16: EVP's final call may write a block's room; it writes nothing for GCM/CTR.)
  QUIVER_RETURN_NOT_OK(out->Reserve(total + 16));
  uint8_t* const dst = out->data() + start;
  QUIVER_ASSIGN_OR_RAISE(const int64_t head,
                         encryptor.Encrypt(head_type, page, page_head_.data(), page_head_.size(), dst));
  if (head + module != total) {
    return Status::Invalid("column '", column_.path, "': internal error: an encrypted page of ",
                           head + module, " bytes, expected ", total);
  }
  std::memcpy(dst + head, compressed_.data(), static_cast<size_t>(module));
  out->UnsafeSetSize(start + total);
  if (!dictionary) ++data_page_ordinal_;
  if (stream != nullptr) {
    QUIVER_RETURN_NOT_OK(stream->Write(out->data(), out->size()));
    out->Clear();
  }
  return total;
}

}  // namespace quiver::parquet
