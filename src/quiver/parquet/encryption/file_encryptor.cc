#include <openssl/rand.h>

#include <algorithm>
#include <limits>

#include "quiver/parquet/encryption/file_encryptor_internal.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"

namespace quiver::parquet {

FileEncryptionProperties::FileEncryptionProperties()
    : key_uses(std::make_shared<encryption::KeyUseCounters>()) {}
FileEncryptionProperties::FileEncryptionProperties(const FileEncryptionProperties&) = default;
FileEncryptionProperties& FileEncryptionProperties::operator=(const FileEncryptionProperties&) =
    default;

FileEncryptionProperties::~FileEncryptionProperties() {
  encryption::Wipe(&footer_key);
  if (aad_prefix.has_value()) encryption::Wipe(&*aad_prefix);
  for (auto& [path, key] : column_keys) encryption::Wipe(&key);
}

const char* EncryptionAlgorithmName(EncryptionAlgorithm algorithm) {
  return algorithm == EncryptionAlgorithm::kAesGcmV1 ? "AES_GCM_V1" : "AES_GCM_CTR_V1";
}

namespace encryption {

namespace {

bool IsPage(ModuleType type) {
  return type == ModuleType::kDataPage || type == ModuleType::kDictionaryPage;
}

std::vector<std::string> SplitPath(const std::string& dotted) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = dotted.find('.', start);
    parts.push_back(dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

Status RandomBytes(uint8_t* out, int n, const char* what) {
  if (RAND_bytes(out, n) != 1) {
    return Status::IOError("OpenSSL RAND_bytes failed to give the ", what);
  }
  return Status::OK();
}

}  // namespace

std::shared_ptr<std::atomic<uint64_t>> KeyUseCounters::Get(const std::string& slot) {
  std::lock_guard<std::mutex> lock(mu);
  auto& counter = by_slot[slot];
  if (counter == nullptr) counter = std::make_shared<std::atomic<uint64_t>>(0);
  return counter;
}

void SetKeyUsesForTesting(const FileEncryptionProperties& properties, const std::string& slot,
                          uint64_t uses) {
  properties.key_uses->Get(slot)->store(uses);
}

Status ModuleKey::Use(uint8_t* nonce) const {
  const uint64_t before = uses_->fetch_add(1);
  if (before >= kMaxModulesPerKey) {
    return Status::Invalid("more than 2^32 modules would be encrypted under ", whose_,
                           " (the limit of random GCM nonces under one key): use a new key");
  }
  return RandomBytes(nonce, static_cast<int>(kNonceSize), "a nonce");
}

Result<int64_t> ModuleKey::Encrypt(bool ctr, std::string_view aad, const uint8_t* in,
                                   int64_t size, uint8_t* out) const {
  uint8_t nonce[kNonceSize];
  QUIVER_RETURN_NOT_OK(Use(nonce));
  return EncryptModuleTo(ctr, key_.view(), aad, nonce, in, size, out);
}

Result<std::string> ModuleKey::Sign(std::string_view aad, std::string_view footer) const {
  std::string signature(kSignatureSize, '\0');
  auto* nonce = reinterpret_cast<uint8_t*>(signature.data());
  QUIVER_RETURN_NOT_OK(Use(nonce));
  QUIVER_ASSIGN_OR_RAISE(std::string tag,
                         GcmTag(key_.view(), nonce, aad,
                                reinterpret_cast<const uint8_t*>(footer.data()),
                                static_cast<int64_t>(footer.size())));
  std::copy(tag.begin(), tag.end(), signature.begin() + kNonceSize);
  return signature;
}

int64_t ChunkEncryptor::Overhead(ModuleType type) const {
  return ctr_pages_ && IsPage(type) ? kCtrOverhead : kGcmOverhead;
}

Result<int64_t> ChunkEncryptor::Encrypt(ModuleType type, int page, const uint8_t* in,
                                        int64_t size, uint8_t* out) const {
  auto where = [&]() { return ModuleLocation(type, row_group_, column_path_, page); };
  auto aad = ModuleAad(file_aad_, type, row_group_, column_, page);
  if (!aad.ok()) return aad.status().WithContext("cannot encrypt the ", where(), ": ");
  auto n = key_->Encrypt(ctr_pages_ && IsPage(type), *aad, in, size, out);
  if (!n.ok()) return n.status().WithContext("cannot encrypt the ", where(), ": ");
  return n;
}

Result<std::string> ChunkEncryptor::Encrypt(ModuleType type, int page,
                                            std::string_view plaintext) const {
  std::string out(plaintext.size() + static_cast<size_t>(kGcmOverhead), '\0');
  QUIVER_ASSIGN_OR_RAISE(
      int64_t n, Encrypt(type, page, reinterpret_cast<const uint8_t*>(plaintext.data()),
                         static_cast<int64_t>(plaintext.size()),
                         reinterpret_cast<uint8_t*>(out.data())));
  out.resize(static_cast<size_t>(n));
  return out;
}

Result<std::shared_ptr<const ChunkEncryptor>> FileEncryptor::ForChunk(int row_group,
                                                                      int column) const {
  const Column& c = columns_[static_cast<size_t>(column)];
  if (c.key == nullptr) return std::shared_ptr<const ChunkEncryptor>();
  if (row_group > std::numeric_limits<int16_t>::max()) {
    return Status::Invalid("row group ordinal ", row_group,
                           " is past the encryption format's limit of 32767");
  }
  if (column > std::numeric_limits<int16_t>::max()) {
    return Status::Invalid("column ordinal ", column,
                           " is past the encryption format's limit of 32767");
  }
  return std::make_shared<const ChunkEncryptor>(c.key, ctr_pages_, file_aad_, row_group, column,
                                                paths_[static_cast<size_t>(column)]);
}

Status FileEncryptor::EncryptColumnMetaData(int row_group, int column,
                                            format::ColumnChunk* chunk) const {
  const Column& c = columns_[static_cast<size_t>(column)];
  if (c.key == nullptr) return Status::OK();
  format::ColumnCryptoMetaData& crypto = chunk->crypto_metadata.emplace();
  if (c.footer_key) {
    crypto.encryption_with_footer_key.emplace();
    // An encrypted footer protects the metadata of footer-key columns.
    if (!plaintext_footer_) return Status::OK();
  } else {
    auto& with_key = crypto.encryption_with_column_key.emplace();
    with_key.path_in_schema = SplitPath(paths_[static_cast<size_t>(column)]);
    with_key.key_metadata = c.key_metadata;
  }
  std::string plain;
  QUIVER_RETURN_NOT_OK(thrift::SerializeThrift(*chunk->meta_data, &plain));
  QUIVER_ASSIGN_OR_RAISE(auto encryptor, ForChunk(row_group, column));
  QUIVER_ASSIGN_OR_RAISE(chunk->encrypted_column_metadata,
                         encryptor->Encrypt(ModuleType::kColumnMetaData, -1, plain));
  Wipe(&plain);
  if (plaintext_footer_) {
    // What old readers may see: no statistics (Encryption.md 5.3).
    chunk->meta_data->statistics.reset();
    chunk->meta_data->encoding_stats.reset();
    chunk->meta_data->size_statistics.reset();
  } else {
    chunk->meta_data.reset();
  }
  return Status::OK();
}

Result<std::string> FileEncryptor::FooterBytes(format::FileMetaData* metadata) const {
  QUIVER_ASSIGN_OR_RAISE(std::string aad, ModuleAad(file_aad_, ModuleType::kFooter, -1, -1, -1));
  std::string out;
  if (plaintext_footer_) {
    metadata->encryption_algorithm = algorithm_;
    metadata->footer_signing_key_metadata = footer_key_metadata_;
    QUIVER_RETURN_NOT_OK(thrift::SerializeThrift(*metadata, &out));
    auto signature = footer_key_->Sign(aad, out);
    if (!signature.ok()) return signature.status().WithContext("cannot sign the footer: ");
    out += *signature;
    return out;
  }
  format::FileCryptoMetaData crypto;
  crypto.encryption_algorithm = algorithm_;
  crypto.key_metadata = footer_key_metadata_;
  QUIVER_RETURN_NOT_OK(thrift::SerializeThrift(crypto, &out));
  std::string plain;
  QUIVER_RETURN_NOT_OK(thrift::SerializeThrift(*metadata, &plain));
  std::string module(plain.size() + static_cast<size_t>(kGcmOverhead), '\0');
  auto n = footer_key_->Encrypt(false, aad, reinterpret_cast<const uint8_t*>(plain.data()),
                                static_cast<int64_t>(plain.size()),
                                reinterpret_cast<uint8_t*>(module.data()));
  Wipe(&plain);
  if (!n.ok()) return n.status().WithContext("cannot encrypt the footer: ");
  module.resize(static_cast<size_t>(*n));
  out += module;
  return out;
}

Result<std::shared_ptr<FileEncryptor>> MakeFileEncryptor(
    const FileEncryptionProperties& properties, const std::vector<std::string>& leaf_paths) {
  QUIVER_RETURN_NOT_OK(CheckKeySize(properties.footer_key, "encryption_properties: the footer"));
  if (!properties.store_aad_prefix && !properties.aad_prefix.has_value()) {
    return Status::Invalid("encryption_properties: store_aad_prefix=False needs an aad_prefix");
  }
  auto out = std::make_shared<FileEncryptor>();
  auto uses = properties.key_uses != nullptr ? properties.key_uses
                                             : std::make_shared<KeyUseCounters>();
  out->footer_key_ = std::make_shared<const ModuleKey>(SecretKey(properties.footer_key),
                                                       uses->Get(""), "the footer key");
  out->paths_ = leaf_paths;
  out->ctr_pages_ = properties.algorithm == EncryptionAlgorithm::kAesGcmCtrV1;
  out->plaintext_footer_ = properties.plaintext_footer;
  out->footer_key_metadata_ = properties.footer_key_metadata;
  // Column keys: each names a leaf or an ancestor of one.
  std::map<std::string, std::shared_ptr<const ModuleKey>> keys;
  for (const auto& [name, key] : properties.column_keys) {
    QUIVER_RETURN_NOT_OK(
        CheckKeySize(key, "encryption_properties: column_keys['" + name + "']:"));
    const bool found = std::any_of(leaf_paths.begin(), leaf_paths.end(), [&](const std::string& p) {
      return p == name || (p.size() > name.size() && p.compare(0, name.size(), name) == 0 &&
                           p[name.size()] == '.');
    });
    if (!found) {
      return Status::Invalid("encryption_properties: column_keys names '", name,
                             "', which is not a column of the schema (a dotted leaf path or a "
                             "field name)");
    }
    // A column key equal to the footer key shares its count.
    const bool same = key.size() == properties.footer_key.size() &&
                      BytesEqual(key.data(), properties.footer_key.data(), key.size());
    keys[name] = same ? out->footer_key_
                      : std::make_shared<const ModuleKey>(SecretKey(key), uses->Get(name),
                                                          "the key of column '" + name + "'");
  }
  for (const auto& [name, metadata] : properties.column_key_metadata) {
    if (properties.column_keys.count(name) == 0) {
      return Status::Invalid("encryption_properties: column_key_metadata names '", name,
                             "', which column_keys does not");
    }
  }
  for (const std::string& path : leaf_paths) {
    FileEncryptor::Column c;
    if (properties.column_keys.empty()) {
      c.key = out->footer_key_;
      c.footer_key = true;
    } else {
      // The longest name that is the path or an ancestor of it.
      std::string_view p = path;
      while (true) {
        auto it = keys.find(std::string(p));
        if (it != keys.end()) {
          c.key = it->second;
          auto md = properties.column_key_metadata.find(it->first);
          if (md != properties.column_key_metadata.end()) c.key_metadata = md->second;
          break;
        }
        const size_t dot = p.rfind('.');
        if (dot == std::string_view::npos) break;
        p = p.substr(0, dot);
      }
    }
    out->columns_.push_back(std::move(c));
  }
  // The file's AAD: prefix | 8 random bytes.
  std::string unique(kFileUniqueSize, '\0');
  QUIVER_RETURN_NOT_OK(RandomBytes(reinterpret_cast<uint8_t*>(unique.data()),
                                   static_cast<int>(kFileUniqueSize), "the file's AAD"));
  out->file_aad_ = properties.aad_prefix.value_or("") + unique;
  auto fill = [&](auto* algorithm) {
    algorithm->aad_file_unique = unique;
    if (properties.aad_prefix.has_value()) {
      if (properties.store_aad_prefix) {
        algorithm->aad_prefix = *properties.aad_prefix;
      } else {
        algorithm->supply_aad_prefix = true;
      }
    }
  };
  if (out->ctr_pages_) {
    fill(&out->algorithm_.aes_gcm_ctr_v1.emplace());
  } else {
    fill(&out->algorithm_.aes_gcm_v1.emplace());
  }
  return out;
}

}  // namespace encryption
}  // namespace quiver::parquet
