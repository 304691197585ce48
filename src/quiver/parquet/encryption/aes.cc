#include "quiver/parquet/encryption/aes.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cstring>
#include <limits>
#include <memory>

#include "quiver/util/bit_util.h"

namespace quiver::parquet::encryption {

namespace {

// One cipher context per thread, reset for each module.
struct CtxDeleter {
  void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
};

Result<EVP_CIPHER_CTX*> ThreadContext() {
  thread_local std::unique_ptr<EVP_CIPHER_CTX, CtxDeleter> ctx(EVP_CIPHER_CTX_new());
  if (ctx == nullptr) return Status::OutOfMemory("cannot allocate an OpenSSL cipher context");
  EVP_CIPHER_CTX_reset(ctx.get());
  return ctx.get();
}

// The EVP ciphers, fetched once (the legacy getters return static tables).
const EVP_CIPHER* Cipher(bool ctr, size_t key_size) {
  switch (key_size) {
    case 16: return ctr ? EVP_aes_128_ctr() : EVP_aes_128_gcm();
    case 24: return ctr ? EVP_aes_192_ctr() : EVP_aes_192_gcm();
    case 32: return ctr ? EVP_aes_256_ctr() : EVP_aes_256_gcm();
    default: return nullptr;
  }
}

const unsigned char* U(const void* p) { return static_cast<const unsigned char*>(p); }

Status Failed(const char* step) {
  return Status::Invalid("OpenSSL ", step, " failed");
}

constexpr int64_t kMaxCipherInput = std::numeric_limits<int>::max();

// GCM over in[0, size) into out; with `tag_in` the tag is checked (decrypt),
// otherwise it is written to tag_out (encrypt).
Status Gcm(bool encrypt, std::string_view key, const uint8_t* nonce, std::string_view aad,
           const uint8_t* in, int64_t size, uint8_t* out, const uint8_t* tag_in,
           uint8_t* tag_out) {
  QUIVER_RETURN_NOT_OK(CheckKeySize(key, "the"));
  if (size > kMaxCipherInput || static_cast<int64_t>(aad.size()) > kMaxCipherInput) {
    return Status::Invalid("a module of ", size, " bytes is too large for one cipher call");
  }
  QUIVER_ASSIGN_OR_RAISE(EVP_CIPHER_CTX * ctx, ThreadContext());
  const EVP_CIPHER* cipher = Cipher(false, key.size());
  int n = 0;
  if (EVP_CipherInit_ex(ctx, cipher, nullptr, nullptr, nullptr, encrypt ? 1 : 0) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kNonceSize), nullptr) != 1 ||
      EVP_CipherInit_ex(ctx, nullptr, nullptr, U(key.data()), nonce, -1) != 1) {
    return Failed("GCM init");
  }
  if (!aad.empty() &&
      EVP_CipherUpdate(ctx, nullptr, &n, U(aad.data()), static_cast<int>(aad.size())) != 1) {
    return Failed("GCM AAD");
  }
  if (size > 0 && EVP_CipherUpdate(ctx, out, &n, in, static_cast<int>(size)) != 1) {
    return Failed("GCM update");
  }
  if (!encrypt) {
    if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagSize),
                            const_cast<uint8_t*>(tag_in)) != 1) {
      return Failed("GCM set tag");
    }
    if (EVP_CipherFinal_ex(ctx, out + size, &n) != 1) {
      std::memset(out, 0, static_cast<size_t>(size));
      return Status::Invalid(
          "the GCM tag does not verify (a wrong key or AAD prefix, or changed bytes)");
    }
    return Status::OK();
  }
  if (EVP_CipherFinal_ex(ctx, out + size, &n) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTagSize), tag_out) != 1) {
    return Failed("GCM final");
  }
  return Status::OK();
}

Status Ctr(std::string_view key, const uint8_t* nonce, const uint8_t* in, int64_t size,
           uint8_t* out) {
  QUIVER_RETURN_NOT_OK(CheckKeySize(key, "the"));
  if (size > kMaxCipherInput) {
    return Status::Invalid("a module of ", size, " bytes is too large for one cipher call");
  }
  uint8_t iv[16] = {0};
  std::memcpy(iv, nonce, kNonceSize);
  iv[15] = 1;  // the initial counter: 31 zero bits, then 1
  QUIVER_ASSIGN_OR_RAISE(EVP_CIPHER_CTX * ctx, ThreadContext());
  int n = 0;
  if (EVP_CipherInit_ex(ctx, Cipher(true, key.size()), nullptr, U(key.data()), iv, 1) != 1) {
    return Failed("CTR init");
  }
  if (size > 0 && EVP_CipherUpdate(ctx, out, &n, in, static_cast<int>(size)) != 1) {
    return Failed("CTR update");
  }
  if (EVP_CipherFinal_ex(ctx, out + size, &n) != 1) return Failed("CTR final");
  return Status::OK();
}

}  // namespace

std::string ModuleLocation(ModuleType type, int row_group, std::string_view column_path,
                           int page) {
  std::string text = std::string(ModuleName(type)) + " of row group " +
                     std::to_string(row_group) + ", column '" + std::string(column_path) + "'";
  if (type == ModuleType::kDataPage || type == ModuleType::kDataPageHeader) {
    text += " (data page " + std::to_string(page) + ")";
  }
  return text;
}

std::string_view ModuleName(ModuleType type) {
  switch (type) {
    case ModuleType::kFooter: return "footer";
    case ModuleType::kColumnMetaData: return "column metadata";
    case ModuleType::kDataPage: return "data page";
    case ModuleType::kDictionaryPage: return "dictionary page";
    case ModuleType::kDataPageHeader: return "data page header";
    case ModuleType::kDictionaryPageHeader: return "dictionary page header";
    case ModuleType::kColumnIndex: return "column index";
    case ModuleType::kOffsetIndex: return "offset index";
    case ModuleType::kBloomFilterHeader: return "bloom filter header";
    case ModuleType::kBloomFilterBitset: return "bloom filter bitset";
  }
  return "unknown module";
}

Status CheckKeySize(std::string_view key, std::string_view whose) {
  if (key.size() == 16 || key.size() == 24 || key.size() == 32) return Status::OK();
  return Status::Invalid(whose, " key has ", key.size(),
                         " bytes; AES keys have 16, 24 or 32 bytes");
}

Result<std::string> ModuleAad(std::string_view file_aad, ModuleType type, int row_group,
                              int column, int page) {
  std::string aad(file_aad);
  aad.push_back(static_cast<char>(type));
  if (type == ModuleType::kFooter) return aad;
  auto append = [&](int value, const char* what) -> Status {
    if (value < 0 || value > std::numeric_limits<int16_t>::max()) {
      return Status::Invalid(ModuleName(type), ": ", what, " ", value,
                             " is past the encryption format's limit of 32767");
    }
    aad.push_back(static_cast<char>(value & 0xff));
    aad.push_back(static_cast<char>((value >> 8) & 0xff));
    return Status::OK();
  };
  QUIVER_RETURN_NOT_OK(append(row_group, "row group ordinal"));
  QUIVER_RETURN_NOT_OK(append(column, "column ordinal"));
  if (type == ModuleType::kDataPage || type == ModuleType::kDataPageHeader) {
    QUIVER_RETURN_NOT_OK(append(page, "page ordinal"));
  }
  return aad;
}

Result<int64_t> DecryptModule(bool ctr, std::string_view key, std::string_view aad,
                              const uint8_t* in, int64_t in_size, uint8_t* out) {
  const int64_t overhead = ctr ? kCtrOverhead : kGcmOverhead;
  if (in_size < overhead) {
    return Status::Invalid("an encrypted module of ", in_size, " bytes is shorter than its ",
                           overhead, "-byte framing");
  }
  const int64_t stated = bit_util::LoadLE32(in);
  if (stated != in_size - kLengthSize) {
    return Status::Invalid("the encrypted module's length prefix says ", stated,
                           " bytes but it has ", in_size - kLengthSize);
  }
  const uint8_t* nonce = in + kLengthSize;
  const uint8_t* body = nonce + kNonceSize;
  const int64_t size = in_size - overhead;
  if (ctr) {
    QUIVER_RETURN_NOT_OK(Ctr(key, nonce, body, size, out));
  } else {
    QUIVER_RETURN_NOT_OK(Gcm(false, key, nonce, aad, body, size, out, body + size, nullptr));
  }
  return size;
}

Result<std::string> GcmTag(std::string_view key, const uint8_t* nonce, std::string_view aad,
                           const uint8_t* plaintext, int64_t size) {
  std::string scratch(static_cast<size_t>(size) + 16, '\0');
  std::string tag(kTagSize, '\0');
  Status st = Gcm(true, key, nonce, aad, plaintext, size, reinterpret_cast<uint8_t*>(scratch.data()),
                  nullptr, reinterpret_cast<uint8_t*>(tag.data()));
  if (!st.ok()) return st;
  return tag;
}

Result<int64_t> EncryptModuleTo(bool ctr, std::string_view key, std::string_view aad,
                                const uint8_t* nonce, const uint8_t* in, int64_t size,
                                uint8_t* out) {
  const int64_t overhead = ctr ? kCtrOverhead : kGcmOverhead;
  if (size + overhead - kLengthSize > std::numeric_limits<int32_t>::max()) {
    return Status::Invalid("a module of ", size, " bytes is too large to encrypt (2 GiB limit)");
  }
  bit_util::StoreLittleEndian<uint32_t>(out, static_cast<uint32_t>(size + overhead - kLengthSize));
  std::memcpy(out + kLengthSize, nonce, kNonceSize);
  uint8_t* body = out + kLengthSize + kNonceSize;
  if (ctr) {
    QUIVER_RETURN_NOT_OK(Ctr(key, nonce, in, size, body));
  } else {
    QUIVER_RETURN_NOT_OK(Gcm(true, key, nonce, aad, in, size, body, nullptr, body + size));
  }
  return size + overhead;
}

Result<std::string> EncryptModule(bool ctr, std::string_view key, std::string_view aad,
                                  std::string_view nonce, std::string_view plaintext) {
  if (static_cast<int64_t>(nonce.size()) != kNonceSize) {
    return Status::Invalid("a nonce has 12 bytes, not ", nonce.size());
  }
  const int64_t size = static_cast<int64_t>(plaintext.size());
  // (+16: room for EVP's final block, which writes nothing for GCM/CTR.)
  std::string out(static_cast<size_t>(size + kGcmOverhead + 16), '\0');
  QUIVER_ASSIGN_OR_RAISE(
      int64_t n, EncryptModuleTo(ctr, key, aad, U(nonce.data()),
                                 reinterpret_cast<const uint8_t*>(plaintext.data()), size,
                                 reinterpret_cast<uint8_t*>(out.data())));
  out.resize(static_cast<size_t>(n));
  return out;
}

bool BytesEqual(const void* a, const void* b, size_t size) { return CRYPTO_memcmp(a, b, size) == 0; }

void Wipe(std::string* secret) {
  if (!secret->empty()) OPENSSL_cleanse(secret->data(), secret->size());
  secret->clear();
}

}  // namespace quiver::parquet::encryption
