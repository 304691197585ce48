// What a reader needs to open files written with Parquet Modular Encryption
// (apache/parquet-format Encryption.md): the keys, or a callback that finds
// them from the key metadata stored in the file, and the AAD prefix when
// the file does not store it. Passed as ReaderOptions::decryption_properties.
//
// Keys are raw bytes (16, 24 or 32: AES-128/192/256). A column key names a
// leaf by its dotted path ("int64_field.list.element") or a top-level field
// (every leaf under it). A key given explicitly wins over the retriever.
// The destructor wipes the keys (OPENSSL_cleanse); Quiver never logs a key
// nor puts one in a message.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "quiver/util/result.h"

namespace quiver::parquet {

struct FileDecryptionProperties {
  // The footer key (also the key of columns encrypted with it).
  std::optional<std::string> footer_key;
  // Column keys by dotted leaf path or top-level field name.
  std::map<std::string, std::string> column_keys;
  // Given a module's key_metadata (as stored; may be empty), its key, or an
  // error (which is passed on, prefixed with the module it was for).
  std::function<Result<std::string>(const std::string& key_metadata)> key_retriever;
  // Required when the file was written without storing its AAD prefix; when
  // the file stores one, a different one given here is an error.
  std::optional<std::string> aad_prefix;
  // Verify a plaintext footer's signature (needs the footer key).
  bool check_footer_integrity = true;
  // Read files that are not encrypted at all (else refused: a plaintext
  // file where encryption is expected).
  bool allow_plaintext_files = false;

  FileDecryptionProperties() = default;
  FileDecryptionProperties(const FileDecryptionProperties&) = default;
  FileDecryptionProperties& operator=(const FileDecryptionProperties&) = default;
  ~FileDecryptionProperties();
};

}  // namespace quiver::parquet
