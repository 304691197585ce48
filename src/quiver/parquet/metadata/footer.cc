#include "quiver/parquet/metadata/footer_internal.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {

namespace {

constexpr char kMagic[] = "PAR1";
constexpr char kEncryptedMagic[] = "PARE";

Status TooSmall(int64_t file_size) {
  return Status::Invalid("not a Parquet file: ", file_size,
                         " bytes is too small (a Parquet file has at least 12)");
}

std::string_view Found(const uint8_t* p) {
  return std::string_view(reinterpret_cast<const char*>(p), kParquetMagicSize);
}

// FileCryptoMetaData, then the FileMetaData module (Encryption.md 5.4).
Status DecryptFooter(const uint8_t* footer, const FooterLocation& where,
                     const FooterOptions& options, ParquetFooter* out) {
  int64_t consumed = 0;
  auto crypto = thrift::DeserializeThrift<format::FileCryptoMetaData>(
      footer, where.footer_length, &consumed, options.limits);
  if (!crypto.ok()) {
    return crypto.status().WithContext("cannot decode the encrypted footer's FileCryptoMetaData (",
                                       where.footer_length, " bytes at offset ",
                                       where.footer_offset, "): ");
  }
  QUIVER_ASSIGN_OR_RAISE(out->decryptor,
                         encryption::MakeFileDecryptor(crypto->encryption_algorithm,
                                                       crypto->key_metadata,
                                                       *options.decryption));
  QUIVER_ASSIGN_OR_RAISE(std::string plain, out->decryptor->DecryptFooter(
                                                footer + consumed, where.footer_length - consumed));
  auto metadata = thrift::DeserializeThrift<format::FileMetaData>(
      reinterpret_cast<const uint8_t*>(plain.data()), static_cast<int64_t>(plain.size()), nullptr,
      options.limits);
  if (!metadata.ok()) {
    return metadata.status().WithContext("cannot decode the decrypted footer (FileMetaData): ");
  }
  out->metadata = std::move(*metadata);
  return out->decryptor->DecryptColumnMetaData(&out->metadata);
}

// A plaintext footer read with decryption properties: an encrypted file's
// (encryption_algorithm set) signature verified, its columns' metadata
// decrypted; a plaintext file refused unless allowed.
Status CheckPlaintextFooter(const uint8_t* footer, const FooterLocation& where, int64_t consumed,
                            const FooterOptions& options, ParquetFooter* out) {
  const FileDecryptionProperties& properties = *options.decryption;
  if (!out->metadata.encryption_algorithm.has_value()) {
    if (properties.allow_plaintext_files) return Status::OK();
    return Status::Invalid(
        "the file is not encrypted but decryption_properties were given (pass "
        "allow_plaintext_files=True to read plaintext files too)");
  }
  QUIVER_ASSIGN_OR_RAISE(out->decryptor,
                         encryption::MakeFileDecryptor(*out->metadata.encryption_algorithm,
                                                       out->metadata.footer_signing_key_metadata,
                                                       properties));
  if (properties.check_footer_integrity) {
    if (where.footer_length - consumed != encryption::kSignatureSize) {
      return Status::Invalid("the plaintext footer is followed by ", where.footer_length - consumed,
                             " bytes, not its 28-byte signature");
    }
    QUIVER_RETURN_NOT_OK(
        out->decryptor->VerifyFooterSignature(footer, consumed, footer + consumed));
  }
  return out->decryptor->DecryptColumnMetaData(&out->metadata);
}

}  // namespace

Result<FooterLocation> LocateFooter(const uint8_t* tail, int64_t tail_size, int64_t file_size,
                                    const uint8_t* head) {
  if (file_size < kMinParquetFileSize) return TooSmall(file_size);
  if (tail_size < 8 || tail_size > file_size) {
    return Status::Invalid("footer tail of ", tail_size, " bytes for a file of ", file_size,
                           " bytes");
  }
  const uint8_t* magic = tail + tail_size - kParquetMagicSize;
  const bool encrypted = std::memcmp(magic, kEncryptedMagic, kParquetMagicSize) == 0;
  if (!encrypted && std::memcmp(magic, kMagic, kParquetMagicSize) != 0) {
    return Status::Invalid("not a Parquet file: it does not end with the magic PAR1 (found ",
                           Found(magic), ")");
  }
  // (An encrypted file's leading "PARE" is not checked: the footer's
  // decryption authenticates the file, and without keys it is refused.)
  if (head != nullptr && !encrypted && std::memcmp(head, kMagic, kParquetMagicSize) != 0) {
    return Status::Invalid("not a Parquet file: it does not start with the magic PAR1 (found ",
                           Found(head), ")");
  }
  const int64_t footer_length =
      bit_util::LoadLE32(magic - 4);
  const int64_t footer_offset = file_size - kParquetMagicSize - 4 - footer_length;
  if (footer_offset < kParquetMagicSize) {
    return Status::Invalid("corrupt footer length ", footer_length, ": the file has only ",
                           file_size - 2 * kParquetMagicSize - 4, " bytes before it");
  }
  return FooterLocation{footer_offset, footer_length, encrypted};
}

Result<ParquetFooter> ReadFooter(const io::RandomAccessFile& file, const FooterOptions& options) {
  const int64_t size = file.Size();
  if (size < kMinParquetFileSize) return TooSmall(size);
  const int64_t tail_size = std::clamp<int64_t>(options.tail_size, 8, size);
  const int64_t tail_start = size - tail_size;
  QUIVER_ASSIGN_OR_RAISE(auto tail, file.ReadAt(tail_start, tail_size));
  // The leading magic is checked when the tail holds it (the whole file is
  // the tail); a longer file is not asked for it, so that opening a file
  // costs one suffix read (Arrow C++ and arrow-rs never check it).
  const uint8_t* head = tail_start == 0 ? tail->data() : nullptr;
  QUIVER_ASSIGN_OR_RAISE(FooterLocation where,
                         LocateFooter(tail->data(), tail_size, size, head));
  if (where.encrypted_footer && options.decryption == nullptr) {
    return Status::NotImplemented(
        "the file has an encrypted footer (magic PARE): reading it needs decryption_properties "
        "with its footer key");
  }
  // The footer bytes: inside the tail, or the missing bytes read before it.
  const uint8_t* footer = nullptr;
  MutableBuffer joined;
  if (where.footer_offset >= tail_start) {
    footer = tail->data() + (where.footer_offset - tail_start);
  } else {
    const int64_t missing = tail_start - where.footer_offset;
    QUIVER_ASSIGN_OR_RAISE(auto before, file.ReadAt(where.footer_offset, missing));
    QUIVER_RETURN_NOT_OK(joined.Reserve(where.footer_length));
    joined.UnsafeExtendFromSlice(before->data(), missing);
    joined.UnsafeExtendFromSlice(tail->data(), where.footer_length - missing);
    footer = joined.data();
  }
  ParquetFooter out;
  out.file_size = size;
  out.footer_offset = where.footer_offset;
  out.footer_length = where.footer_length;
  if (where.encrypted_footer) {
    QUIVER_RETURN_NOT_OK(DecryptFooter(footer, where, options, &out));
  } else {
    int64_t consumed = 0;
    auto metadata = thrift::DeserializeThrift<format::FileMetaData>(
        footer, where.footer_length, &consumed, options.limits);
    if (!metadata.ok()) {
      return metadata.status().WithContext("cannot decode the footer (FileMetaData, ",
                                           where.footer_length, " bytes at offset ",
                                           where.footer_offset, "): ");
    }
    out.metadata = std::move(*metadata);
    if (options.decryption != nullptr) {
      QUIVER_RETURN_NOT_OK(CheckPlaintextFooter(footer, where, consumed, options, &out));
    }
  }
  return out;
}

}  // namespace quiver::parquet
