#include "quiver/parquet/encryption/aes.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <string>

#include "quiver/parquet/encryption/file_decryptor_internal.h"

namespace quiver::parquet::encryption {
namespace {
namespace QUIVER_UNITY_ID {

std::string Hex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

const uint8_t* U(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

std::string Decrypt(bool ctr, const std::string& key, const std::string& aad,
                    const std::string& module, Status* status) {
  std::string out(module.size(), '\0');
  auto n = DecryptModule(ctr, key, aad, U(module), static_cast<int64_t>(module.size()),
                         reinterpret_cast<uint8_t*>(out.data()));
  *status = n.status();
  if (!n.ok()) return "";
  out.resize(static_cast<size_t>(*n));
  return out;
}

// NIST GCM test case 2 (McGrew and Viega, "The Galois/Counter Mode of
// Operation", AES-128, zero key and nonce, one zero block).
TEST(AesGcm, DecryptsTheNistVector) {
  const std::string key(16, '\0');
  const std::string module = Hex("2c000000") + std::string(12, '\0') +
                             Hex("0388dace60b6a392f328c2b971b2fe78") +
                             Hex("ab6e47d42cec13bdf53a67b21257bddf");
  Status st;
  EXPECT_EQ(Decrypt(false, key, "", module, &st), std::string(16, '\0'));
  ASSERT_TRUE(st.ok()) << st.ToString();
  // The same module with an AAD, a flipped tag or a flipped ciphertext byte.
  Decrypt(false, key, "x", module, &st);
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("GCM tag does not verify"), std::string::npos);
  for (size_t i : {size_t{4}, size_t{20}, module.size() - 1}) {
    std::string bad = module;
    bad[i] ^= 1;
    Decrypt(false, key, "", bad, &st);
    EXPECT_TRUE(st.IsInvalid()) << i;
  }
}

// CTR: what OpenSSL encrypts with the spec's IV (nonce | 00000001) decrypts.
TEST(AesCtr, DecryptsWhatOpenSslEncrypts) {
  for (int bits : {128, 192, 256}) {
    const std::string key(static_cast<size_t>(bits / 8), '\x42');
    const std::string nonce = Hex("000102030405060708090a0b");
    const std::string plain = "a page of some bytes, longer than one AES block";
    unsigned char iv[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 1};
    const EVP_CIPHER* cipher = bits == 128   ? EVP_aes_128_ctr()
                               : bits == 192 ? EVP_aes_192_ctr()
                                             : EVP_aes_256_ctr();
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    std::string ct(plain.size(), '\0');
    int n = 0;
    ASSERT_EQ(EVP_EncryptInit_ex(ctx, cipher, nullptr, U(key), iv), 1);
    ASSERT_EQ(EVP_EncryptUpdate(ctx, reinterpret_cast<unsigned char*>(ct.data()), &n, U(plain),
                                static_cast<int>(plain.size())),
              1);
    EVP_CIPHER_CTX_free(ctx);
    std::string module(4, '\0');
    module[0] = static_cast<char>(12 + plain.size());
    module += nonce + ct;
    Status st;
    EXPECT_EQ(Decrypt(true, key, "ignored", module, &st), plain) << bits;
    EXPECT_TRUE(st.ok()) << st.ToString();
    // And EncryptModule gives the same bytes.
    auto encrypted = EncryptModule(true, key, "", nonce, plain);
    ASSERT_TRUE(encrypted.ok());
    EXPECT_EQ(*encrypted, module);
  }
}

TEST(AesGcm, RoundTripsEveryKeySizeAndRefusesBadFraming) {
  for (size_t size : {size_t{16}, size_t{24}, size_t{32}}) {
    const std::string key(size, '\x07');
    auto module = EncryptModule(false, key, "aad", Hex("0102030405060708090a0b0c"), "hello");
    ASSERT_TRUE(module.ok());
    EXPECT_EQ(module->size(), 5u + 32u);
    Status st;
    EXPECT_EQ(Decrypt(false, key, "aad", *module, &st), "hello");
    EXPECT_TRUE(st.ok());
    Decrypt(false, std::string(size, '\x08'), "aad", *module, &st);
    EXPECT_TRUE(st.IsInvalid());
    Decrypt(false, key, "aad", module->substr(0, module->size() - 1), &st);
    EXPECT_NE(st.message().find("length prefix"), std::string::npos) << st.ToString();
    Decrypt(false, key, "aad", module->substr(0, 20), &st);
    EXPECT_NE(st.message().find("shorter than"), std::string::npos) << st.ToString();
  }
  Status st;
  Decrypt(false, std::string(15, 'k'), "", Hex("24000000") + std::string(36, '\0'), &st);
  EXPECT_NE(st.message().find("15 bytes"), std::string::npos);
  EXPECT_EQ(st.message().find("kkkk"), std::string::npos);
}

TEST(Aad, Layout) {
  auto footer = ModuleAad("PFX", ModuleType::kFooter, -1, -1, -1);
  ASSERT_TRUE(footer.ok());
  EXPECT_EQ(*footer, std::string("PFX") + '\0');
  auto page = ModuleAad("F", ModuleType::kDataPage, 0x0102, 3, 0x7fff);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(*page, std::string("F\x02\x02\x01\x03\x00\xff\x7f", 8));
  auto dict = ModuleAad("F", ModuleType::kDictionaryPageHeader, 1, 2, 9);
  ASSERT_TRUE(dict.ok());
  EXPECT_EQ(*dict, std::string("F\x05\x01\x00\x02\x00", 6));  // no page ordinal
  auto index = ModuleAad("", ModuleType::kOffsetIndex, 0, 0, -1);
  ASSERT_TRUE(index.ok());
  EXPECT_EQ(*index, std::string("\x07\x00\x00\x00\x00", 5));
  auto past = ModuleAad("", ModuleType::kDataPageHeader, 0, 0, 32768);
  EXPECT_TRUE(past.status().IsInvalid());
  EXPECT_NE(past.status().message().find("page ordinal 32768"), std::string::npos);
  EXPECT_TRUE(ModuleAad("", ModuleType::kColumnIndex, 40000, 0, -1).status().IsInvalid());
}

TEST(FileDecryptor, SignatureAndAadPrefixRules) {
  format::EncryptionAlgorithm algorithm;
  algorithm.aes_gcm_v1.emplace();
  algorithm.aes_gcm_v1->aad_file_unique = "uniq";
  algorithm.aes_gcm_v1->supply_aad_prefix = true;
  FileDecryptionProperties properties;
  properties.footer_key = std::string(16, 'f');
  EXPECT_TRUE(MakeFileDecryptor(algorithm, std::nullopt, properties).status().IsInvalid());
  properties.aad_prefix = "tester";
  auto decryptor = MakeFileDecryptor(algorithm, std::nullopt, properties);
  ASSERT_TRUE(decryptor.ok()) << decryptor.status().ToString();
  // A footer signed with file AAD "tester" + "uniq" verifies; another does not.
  const std::string footer = "some footer bytes";
  const std::string nonce = Hex("0a0b0c0d0e0f101112131415");
  auto module = EncryptModule(false, std::string(16, 'f'), std::string("testeruniq") + '\0',
                              nonce, footer);
  ASSERT_TRUE(module.ok());
  const std::string signature = nonce + module->substr(module->size() - 16);
  EXPECT_TRUE((*decryptor)->VerifyFooterSignature(U(footer), 17, U(signature)).ok());
  EXPECT_TRUE((*decryptor)->VerifyFooterSignature(U(footer), 16, U(signature)).IsInvalid());
  // A stored prefix and a different given one.
  algorithm.aes_gcm_v1->aad_prefix = "stored";
  EXPECT_TRUE(MakeFileDecryptor(algorithm, std::nullopt, properties).status().IsInvalid());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet::encryption
