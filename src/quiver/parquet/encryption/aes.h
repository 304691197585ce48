// The ciphers of Parquet Modular Encryption (apache/parquet-format
// Encryption.md, sections 4 and 5.1), shared by the reader and the writer.
//
// A module as stored: a 4-byte little-endian length L, then L bytes:
//   GCM: nonce (12) | ciphertext (L - 28) | tag (16)
//   CTR: nonce (12) | ciphertext (L - 12), IV = nonce | 00 00 00 01
// AES_GCM_V1 encrypts every module with GCM; AES_GCM_CTR_V1 encrypts pages
// (data and dictionary pages, not their headers) with CTR and every other
// module with GCM. Keys are 16, 24 or 32 bytes (AES-128/192/256).
//
// The module AAD is aad_prefix | aad_file_unique | module type (1 byte)
// [| row group ordinal | column ordinal (2 bytes LE each; not for the footer)]
// [| page ordinal (2 bytes LE; data pages and their headers only)].
//
// A GCM module's tag is checked before its plaintext is handed back: on a
// mismatch the output holds nothing usable and the error says so. Messages
// never hold a key.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "quiver/util/result.h"

namespace quiver::parquet::encryption {

enum class ModuleType : uint8_t {
  kFooter = 0,
  kColumnMetaData = 1,
  kDataPage = 2,
  kDictionaryPage = 3,
  kDataPageHeader = 4,
  kDictionaryPageHeader = 5,
  kColumnIndex = 6,
  kOffsetIndex = 7,
  kBloomFilterHeader = 8,
  kBloomFilterBitset = 9,
};

// "footer", "data page", ... (for messages).
std::string_view ModuleName(ModuleType type);
// "data page header of row group 2, column 'a.b' (data page 7)": where a
// module of a column chunk is, for messages (the page for data pages and
// their headers only).
std::string ModuleLocation(ModuleType type, int row_group, std::string_view column_path,
                           int page);

inline constexpr int64_t kLengthSize = 4;
inline constexpr int64_t kNonceSize = 12;
inline constexpr int64_t kTagSize = 16;
inline constexpr int64_t kGcmOverhead = kLengthSize + kNonceSize + kTagSize;  // 32
inline constexpr int64_t kCtrOverhead = kLengthSize + kNonceSize;             // 16
// The plaintext footer's signature: nonce | tag.
inline constexpr int64_t kSignatureSize = kNonceSize + kTagSize;

// Whether `key` has an AES key size; Invalid naming the size (not the key).
Status CheckKeySize(std::string_view key, std::string_view whose);

// The module AAD (see above). Ordinals past 32767 (int16) are refused:
// Invalid naming the ordinal. Pass -1 for an ordinal the type does not use.
Result<std::string> ModuleAad(std::string_view file_aad, ModuleType type, int row_group,
                              int column, int page);

// A whole module as stored (length prefix included) at in[0, in_size):
// the plaintext into out (which must have room for in_size bytes), its size
// returned. `ctr` selects AES-CTR (pages of AES_GCM_CTR_V1). Invalid when
// the length prefix disagrees with in_size, the module is too short, or
// the GCM tag does not verify (a wrong key, AAD or a changed byte).
Result<int64_t> DecryptModule(bool ctr, std::string_view key, std::string_view aad,
                              const uint8_t* in, int64_t in_size, uint8_t* out);

// The GCM tag of `plaintext` under key, nonce (12 bytes) and aad: the
// plaintext footer's signature is nonce | this tag.
Result<std::string> GcmTag(std::string_view key, const uint8_t* nonce, std::string_view aad,
                           const uint8_t* plaintext, int64_t size);

// Encrypts `plaintext` into one module (length | nonce | ciphertext [| tag])
// with the given nonce (12 bytes). For the writer and for tests.
Result<std::string> EncryptModule(bool ctr, std::string_view key, std::string_view aad,
                                  std::string_view nonce, std::string_view plaintext);

// The same into out[0, size + overhead) for a plaintext of `size` bytes at
// `in` (the writer's path: no copy); returns the module's size.
Result<int64_t> EncryptModuleTo(bool ctr, std::string_view key, std::string_view aad,
                                const uint8_t* nonce, const uint8_t* in, int64_t size,
                                uint8_t* out);

// Constant-time comparison, and wiping of secret bytes (OPENSSL_cleanse).
bool BytesEqual(const void* a, const void* b, size_t size);
void Wipe(std::string* secret);

}  // namespace quiver::parquet::encryption
