// Reading a Parquet file's footer (apache/parquet-format README, "File
// format"): "PAR1", column chunks, ..., FileMetaData (Thrift compact),
// its 4-byte little-endian length, "PAR1".
//
// The file is untrusted. ReadFooter reads one tail of the file (the last
// FooterOptions::tail_size bytes, or the whole file if it is smaller),
// checks the trailing magic (and the leading one when the tail is the whole
// file: a longer file's head is not read, as in Arrow C++ and arrow-rs), checks the footer length against the file size, and
// when the footer is longer than the tail reads exactly the bytes missing
// before it (as arrow-rs's metadata reader does) — never more than the file
// holds. The FileMetaData is decoded under the Thrift limits. Errors are
// Invalid (not Parquet, corrupt footer; the message says what was found and
// where) or NotImplemented (an encrypted footer, magic "PARE", without
// FooterOptions::decryption).
//
// Encrypted files (apache/parquet-format Encryption.md): with
// FooterOptions::decryption, an encrypted footer (FileCryptoMetaData, then
// the FileMetaData module) is decrypted, a plaintext footer's signature is
// verified (unless check_footer_integrity is off), and each encrypted
// chunk's ColumnMetaData is decrypted where its key is known;
// ParquetFooter::decryptor then decrypts the chunks' pages. A plaintext
// footer of an encrypted file read without decryption properties is read
// as before (its plaintext columns are readable).
#pragma once

#include <cstdint>

#include "quiver/io/interfaces.h"
#include "quiver/parquet/encryption/file_decryptor_internal.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

inline constexpr int64_t kParquetMagicSize = 4;
// Magic + footer length + magic: the smallest Parquet file.
inline constexpr int64_t kMinParquetFileSize = 12;

struct FooterOptions {
  thrift::ThriftLimits limits;
  // Bytes read from the end in the first read (most footers fit).
  int64_t tail_size = 64 * 1024;
  // Keys for an encrypted file (not owned; nullptr: none).
  const FileDecryptionProperties* decryption = nullptr;
};

struct ParquetFooter {
  format::FileMetaData metadata;
  int64_t file_size = 0;
  // Where the FileMetaData bytes are. Column data, page indexes and bloom
  // filters lie in the data region [kParquetMagicSize, footer_offset).
  int64_t footer_offset = 0;
  int64_t footer_length = 0;
  // Set for an encrypted file read with FooterOptions::decryption.
  std::shared_ptr<encryption::FileDecryptor> decryptor;
};

// Where the footer is, from the last `tail_size` bytes of a file of
// `file_size` bytes (tail_size >= 8; `tail` points at them) and, if given,
// its first 4 bytes (`head`). It checks, in this order: the file size, the
// trailing magic, the leading magic (when `head` is given) and the footer
// length. A caller reading by byte ranges then has the footer when
// footer_offset >= file_size - tail_size, and otherwise reads exactly the
// bytes it lacks, [footer_offset, file_size - tail_size).
struct FooterLocation {
  int64_t footer_offset = 0;
  int64_t footer_length = 0;
  bool encrypted_footer = false;  // magic "PARE"
};
Result<FooterLocation> LocateFooter(const uint8_t* tail, int64_t tail_size, int64_t file_size,
                                    const uint8_t* head = nullptr);

Result<ParquetFooter> ReadFooter(const io::RandomAccessFile& file,
                                 const FooterOptions& options = {});

}  // namespace quiver::parquet
