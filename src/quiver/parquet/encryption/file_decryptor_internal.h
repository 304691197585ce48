// The reader's side of Parquet Modular Encryption: which key decrypts what,
// and the modules of one file decrypted with the right key and AAD.
//
// MakeFileDecryptor builds it from the file's EncryptionAlgorithm (from
// FileCryptoMetaData, or FileMetaData for a plaintext footer) and the
// caller's FileDecryptionProperties. DecryptFooterMetaData and
// VerifyFooterSignature handle the two footer modes; DecryptColumnMetaData
// replaces each encrypted chunk's ColumnMetaData by its decrypted one
// (encrypted_column_metadata) where the key is known and records a
// ChunkDecryptor per chunk, which the page reader asks for by (row group,
// dotted leaf path). A chunk whose key is unknown keeps what the footer
// holds (nothing in an encrypted footer, stripped metadata in a plaintext
// one) and reading its pages is refused naming the column.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quiver/parquet/encryption/aes.h"
#include "quiver/parquet/encryption/decryption_properties.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet::encryption {

// A key held in memory, wiped when dropped.
class SecretKey {
 public:
  SecretKey() = default;
  explicit SecretKey(std::string bytes) : bytes_(std::move(bytes)) {}
  SecretKey(const SecretKey&) = default;
  SecretKey& operator=(const SecretKey&) = default;
  ~SecretKey() { Wipe(&bytes_); }
  std::string_view view() const { return bytes_; }
  bool empty() const { return bytes_.empty(); }

 private:
  std::string bytes_;
};

// The modules of one encrypted column chunk.
class ChunkDecryptor {
 public:
  ChunkDecryptor(SecretKey key, bool ctr_pages, std::string file_aad, int row_group, int column,
                 std::string column_path)
      : key_(std::move(key)), ctr_pages_(ctr_pages), file_aad_(std::move(file_aad)),
        row_group_(row_group), column_(column), column_path_(std::move(column_path)) {}

  // Whether the key is known (otherwise every Decrypt is refused).
  bool has_key() const { return !key_.empty(); }
  // The plaintext of the module in[0, in_size) (length prefix included)
  // into *out; `page` is the data page ordinal (data pages and headers).
  // Errors name the module, row group, column and page.
  Status Decrypt(ModuleType type, int page, const uint8_t* in, int64_t in_size,
                 std::string* out) const;

 private:
  SecretKey key_;
  bool ctr_pages_;
  std::string file_aad_;
  int row_group_;
  int column_;
  std::string column_path_;
};

class FileDecryptor {
 public:
  // The chunk's decryptor, or nullptr when the chunk is not encrypted.
  const ChunkDecryptor* ForChunk(int row_group, const std::string& dotted_path) const;

  // The FileMetaData module of an encrypted footer (after FileCryptoMetaData).
  Result<std::string> DecryptFooter(const uint8_t* module, int64_t size) const;
  // A plaintext footer `footer[0, size)` followed by its 28-byte signature.
  Status VerifyFooterSignature(const uint8_t* footer, int64_t size,
                               const uint8_t* signature) const;
  // See above: decrypts encrypted_column_metadata in place and records the
  // chunks' decryptors.
  Status DecryptColumnMetaData(format::FileMetaData* metadata);

  bool footer_key_known() const { return !footer_key_.empty(); }

 private:
  friend Result<std::shared_ptr<FileDecryptor>> MakeFileDecryptor(
      const format::EncryptionAlgorithm&, const std::optional<std::string>&,
      const FileDecryptionProperties&);
  Result<SecretKey> ColumnKey(const format::ColumnCryptoMetaData& crypto,
                              const std::vector<std::string>& path) const;

  std::shared_ptr<const FileDecryptionProperties> properties_;  // a copy
  SecretKey footer_key_;
  bool ctr_pages_ = false;
  std::string file_aad_;
  std::map<std::pair<int, std::string>, ChunkDecryptor> chunks_;
};

// `footer_key_metadata`: FileCryptoMetaData.key_metadata or
// FileMetaData.footer_signing_key_metadata. Invalid: a union with no or two
// algorithms, an AAD prefix required but not given or different from the
// stored one, a key of the wrong size, no footer key where one is needed
// is reported when it is used.
Result<std::shared_ptr<FileDecryptor>> MakeFileDecryptor(
    const format::EncryptionAlgorithm& algorithm,
    const std::optional<std::string>& footer_key_metadata,
    const FileDecryptionProperties& properties);

}  // namespace quiver::parquet::encryption
