// The writer's side of Parquet Modular Encryption: which key encrypts what
// in one file, the modules encrypted with fresh random nonces and the
// spec's AADs, the column metadata and the footer.
//
// MakeFileEncryptor checks the caller's FileEncryptionProperties against
// the file's leaves (every column key names a leaf or an ancestor of one;
// key sizes; key metadata only for keyed columns), draws the file's
// aad_file_unique (8 random bytes, as Arrow C++ and parquet-java) and
// builds the EncryptionAlgorithm to store. ForChunk gives a column chunk's
// ChunkEncryptor (nullptr for a column left in plaintext), which the page
// writer and the page index use; EncryptColumnMetaData and FooterBytes
// finish the footer.
//
// Every module gets a 12-byte nonce from OpenSSL's RAND_bytes (its return
// value checked) and counts one use of its key: past 2^32 uses of a key
// (counted across every file written with copies of one properties object)
// the write is refused.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "quiver/parquet/encryption/aes.h"
#include "quiver/parquet/encryption/encryption_properties.h"
#include "quiver/parquet/encryption/file_decryptor_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet::encryption {

inline constexpr uint64_t kMaxModulesPerKey = uint64_t{1} << 32;
inline constexpr int64_t kFileUniqueSize = 8;

// Modules encrypted so far under each key of a properties object, by slot
// ("" the footer key, else the column_keys name).
struct KeyUseCounters {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<std::atomic<uint64_t>>> by_slot;
  std::shared_ptr<std::atomic<uint64_t>> Get(const std::string& slot);
};

// For tests: sets the counter of `slot` ("" the footer key) of
// `properties` to `uses`, as if that many modules had been encrypted.
void SetKeyUsesForTesting(const FileEncryptionProperties& properties, const std::string& slot,
                          uint64_t uses);

// One key and its use count.
class ModuleKey {
 public:
  ModuleKey(SecretKey key, std::shared_ptr<std::atomic<uint64_t>> uses, std::string whose)
      : key_(std::move(key)), uses_(std::move(uses)), whose_(std::move(whose)) {}
  // in[0, size) as one module (length | nonce | ciphertext [| tag]) into
  // out, which has room for size + kGcmOverhead; returns its size.
  Result<int64_t> Encrypt(bool ctr, std::string_view aad, const uint8_t* in, int64_t size,
                          uint8_t* out) const;
  // A plaintext footer's signature: nonce | GCM tag of the footer.
  Result<std::string> Sign(std::string_view aad, std::string_view footer) const;

 private:
  Status Use(uint8_t* nonce) const;
  SecretKey key_;
  std::shared_ptr<std::atomic<uint64_t>> uses_;
  std::string whose_;  // "the footer key", "the key of column 'x'"
};

// The modules of one encrypted column chunk.
class ChunkEncryptor {
 public:
  ChunkEncryptor(std::shared_ptr<const ModuleKey> key, bool ctr_pages, std::string file_aad,
                 int row_group, int column, std::string column_path)
      : key_(std::move(key)), ctr_pages_(ctr_pages), file_aad_(std::move(file_aad)),
        row_group_(row_group), column_(column), column_path_(std::move(column_path)) {}

  // Bytes a module adds to its plaintext.
  int64_t Overhead(ModuleType type) const;
  // Encrypts in[0, size) as the module `type` (`page`: the data page
  // ordinal, for data pages and their headers) into out (room for size +
  // Overhead(type)); returns the module's size. Errors name the module,
  // row group, column and page.
  Result<int64_t> Encrypt(ModuleType type, int page, const uint8_t* in, int64_t size,
                          uint8_t* out) const;
  Result<std::string> Encrypt(ModuleType type, int page, std::string_view plaintext) const;

 private:
  std::shared_ptr<const ModuleKey> key_;
  bool ctr_pages_;
  std::string file_aad_;
  int row_group_;
  int column_;
  std::string column_path_;
};

class FileEncryptor {
 public:
  // nullptr when the leaf `column` is not encrypted. Invalid for a row
  // group ordinal past 32767.
  Result<std::shared_ptr<const ChunkEncryptor>> ForChunk(int row_group, int column) const;
  // Sets the chunk's crypto_metadata and, for a column with its own key or
  // under a plaintext footer, encrypted_column_metadata; an encrypted
  // footer then drops the chunk's plaintext meta_data, a plaintext footer
  // keeps it without statistics, encoding stats and size statistics.
  Status EncryptColumnMetaData(int row_group, int column, format::ColumnChunk* chunk) const;
  // The bytes after the last data (bloom filters, page index): an
  // encrypted footer's FileCryptoMetaData | FileMetaData module, or a
  // plaintext footer (with encryption_algorithm and the signing key
  // metadata set in *metadata) | its 28-byte signature. The length and
  // magic that follow are the caller's.
  Result<std::string> FooterBytes(format::FileMetaData* metadata) const;
  // "PARE" for an encrypted footer, else "PAR1".
  const char* magic() const { return plaintext_footer_ ? "PAR1" : "PARE"; }

 private:
  friend Result<std::shared_ptr<FileEncryptor>> MakeFileEncryptor(
      const FileEncryptionProperties&, const std::vector<std::string>&);
  struct Column {
    std::shared_ptr<const ModuleKey> key;  // nullptr: plaintext
    bool footer_key = false;
    std::optional<std::string> key_metadata;
  };
  std::shared_ptr<const ModuleKey> footer_key_;
  std::vector<Column> columns_;
  std::vector<std::string> paths_;
  bool ctr_pages_ = false;
  bool plaintext_footer_ = false;
  std::optional<std::string> footer_key_metadata_;
  std::string file_aad_;
  format::EncryptionAlgorithm algorithm_;
};

// `leaf_paths`: the file's leaves, dotted, in column order.
Result<std::shared_ptr<FileEncryptor>> MakeFileEncryptor(
    const FileEncryptionProperties& properties, const std::vector<std::string>& leaf_paths);

}  // namespace quiver::parquet::encryption
