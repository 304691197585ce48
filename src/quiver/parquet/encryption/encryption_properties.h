// What a writer needs to write a file with Parquet Modular Encryption
// (apache/parquet-format Encryption.md). Passed as
// WriterOptions::encryption_properties.
//
// Keys are raw bytes (16, 24 or 32: AES-128/192/256). Without column_keys
// every column is encrypted with the footer key; with column_keys only the
// columns named there are encrypted (each with its own key) and the others
// stay plaintext. A column is named by its dotted leaf path
// ("int64_field.list.element") or a top-level field (every leaf under it);
// the longest match wins. Key metadata is stored as given (for a reader's
// key retriever). The destructor wipes the keys (OPENSSL_cleanse); Quiver
// never logs a key nor puts one in a message.
//
// Every file written gets its own random aad_file_unique. Copies of one
// properties object share a count of the modules encrypted under each of
// its keys: past 2^32 (the limit of random 96-bit GCM nonces under one key)
// writing is refused.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace quiver::parquet {

namespace encryption {
struct KeyUseCounters;  // file_encryptor_internal.h
}  // namespace encryption

enum class EncryptionAlgorithm {
  kAesGcmV1,     // every module AES-GCM
  kAesGcmCtrV1,  // page bodies AES-CTR, every other module AES-GCM
};

struct FileEncryptionProperties {
  std::string footer_key;
  // Column keys by dotted leaf path or top-level field name.
  std::map<std::string, std::string> column_keys;
  // FileCryptoMetaData.key_metadata (encrypted footer) or
  // FileMetaData.footer_signing_key_metadata (plaintext footer).
  std::optional<std::string> footer_key_metadata;
  // EncryptionWithColumnKey.key_metadata, by the names of column_keys.
  std::map<std::string, std::string> column_key_metadata;
  // Part of every module's AAD; stored in the file unless store_aad_prefix
  // is false (readers must then supply it).
  std::optional<std::string> aad_prefix;
  bool store_aad_prefix = true;
  EncryptionAlgorithm algorithm = EncryptionAlgorithm::kAesGcmV1;
  // A plaintext footer (readable by readers without keys, signed with the
  // footer key) instead of an encrypted one ("PARE").
  bool plaintext_footer = false;

  // Shared by copies (see above).
  std::shared_ptr<encryption::KeyUseCounters> key_uses;

  FileEncryptionProperties();
  FileEncryptionProperties(const FileEncryptionProperties&);
  FileEncryptionProperties& operator=(const FileEncryptionProperties&);
  ~FileEncryptionProperties();
};

// "AES_GCM_V1" / "AES_GCM_CTR_V1".
const char* EncryptionAlgorithmName(EncryptionAlgorithm algorithm);

}  // namespace quiver::parquet
