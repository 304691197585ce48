// Files written with Parquet Modular Encryption (encryption_properties),
// read back by Quiver's reader: both algorithms, three key sizes, both
// footer modes, column keys, the AAD prefix; every module refused once a
// byte of it is changed; nonces never repeated; the 2^32 limit.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/io/memory.h"
#include "quiver/parquet/encryption/file_encryptor_internal.h"
#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/test_files_internal.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using namespace ::quiver::testutil;  // NOLINT
using testing::AsFile;

const std::string kFooterKey = "0123456789012345";
const std::string kColumnKey = "1234567890123450";

TablePtr SampleTable(int64_t n = 3000) {
  std::vector<int64_t> a(static_cast<size_t>(n));
  std::vector<std::string> s(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    a[static_cast<size_t>(i)] = i * 7 - 100;
    s[static_cast<size_t>(i)] = "v" + std::to_string(i % 50);
  }
  FieldVector fields = {field("a", int64()), field("s", utf8())};
  std::vector<ChunkedArrayPtr> cols = {
      std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(ArrayFromVector<int64_t>(int64(), a))},
                                     int64()),
      std::make_shared<ChunkedArray>(std::vector<ArrayPtr>{MakeArray(StringArrayFromVector(s))}, utf8())};
  auto table = Table::Make(schema(fields), cols);
  EXPECT_TRUE(table.ok()) << table.status();
  return *table;
}

struct Written {
  std::string bytes;
  std::shared_ptr<const FileMetaData> metadata;
};

Result<Written> Write(const Table& table, WriterOptions options) {
  io::BufferOutputStream sink;
  QUIVER_ASSIGN_OR_RAISE(auto writer, FileWriter::Open(&sink, table.schema(), std::move(options)));
  QUIVER_RETURN_NOT_OK(writer->WriteTable(table));
  QUIVER_RETURN_NOT_OK(writer->Close());
  QUIVER_ASSIGN_OR_RAISE(auto buffer, sink.Finish());
  QUIVER_ASSIGN_OR_RAISE(auto md, writer->metadata());
  return Written{std::string(reinterpret_cast<const char*>(buffer->data()),
                             static_cast<size_t>(buffer->size())),
                 md};
}

WriterOptions Encrypted(std::shared_ptr<FileEncryptionProperties> p) {
  WriterOptions o;
  o.row_group_size = 2000;
  o.max_rows_per_page = 500;
  o.bloom_filter.default_value = BloomFilterOptions{1000, 0.01};
  o.encryption_properties = std::move(p);
  return o;
}

std::shared_ptr<FileEncryptionProperties> Props(std::string footer_key = kFooterKey) {
  auto p = std::make_shared<FileEncryptionProperties>();
  p->footer_key = std::move(footer_key);
  return p;
}

Result<TablePtr> Read(const std::string& bytes, std::shared_ptr<FileDecryptionProperties> d,
                      std::optional<std::vector<std::string>> columns = std::nullopt) {
  ReaderOptions ro;
  ro.decryption_properties = std::move(d);
  QUIVER_ASSIGN_OR_RAISE(auto reader, FileReader::Open(AsFile(bytes), ro));
  return reader->ReadTable(columns);
}

std::shared_ptr<FileDecryptionProperties> Keys(std::string footer_key = kFooterKey) {
  auto d = std::make_shared<FileDecryptionProperties>();
  d->footer_key = std::move(footer_key);
  return d;
}

TEST(EncryptedWrite, RoundTripsEveryAlgorithmKeySizeAndFooterMode) {
  const auto table = SampleTable();
  for (auto algorithm : {EncryptionAlgorithm::kAesGcmV1, EncryptionAlgorithm::kAesGcmCtrV1}) {
    for (size_t size : {16u, 24u, 32u}) {
      for (bool plaintext_footer : {false, true}) {
        SCOPED_TRACE(std::string(EncryptionAlgorithmName(algorithm)) + " " + std::to_string(size) +
                     (plaintext_footer ? " plaintext footer" : " encrypted footer"));
        const std::string key = std::string(size, 'k');
        auto p = Props(key);
        p->algorithm = algorithm;
        p->plaintext_footer = plaintext_footer;
        auto options = Encrypted(p);
        options.data_page_version = size == 24 ? DataPageVersion::kV2 : DataPageVersion::kV1;
        auto w = Write(*table, options);
        ASSERT_TRUE(w.ok()) << w.status();
        const std::string magic = plaintext_footer ? "PAR1" : "PARE";
        EXPECT_EQ(w->bytes.substr(0, 4), magic);
        EXPECT_EQ(w->bytes.substr(w->bytes.size() - 4), magic);
        auto read = Read(w->bytes, Keys(key));
        ASSERT_TRUE(read.ok()) << read.status();
        EXPECT_TRUE((*read)->Equals(*table));
        auto wrong = Read(w->bytes, Keys(std::string(size, 'x')));
        ASSERT_FALSE(wrong.ok());
        EXPECT_EQ(wrong.status().message().find(key), std::string::npos);
      }
    }
  }
}

TEST(EncryptedWrite, ColumnKeysLeaveOtherColumnsPlaintext) {
  const auto table = SampleTable();
  for (bool plaintext_footer : {false, true}) {
    auto p = Props();
    p->column_keys["s"] = kColumnKey;
    p->column_key_metadata["s"] = "kc1";
    p->footer_key_metadata = "kf";
    p->plaintext_footer = plaintext_footer;
    auto w = Write(*table, Encrypted(p));
    ASSERT_TRUE(w.ok()) << w.status();
    // The footer key alone reads the plaintext column, not the keyed one.
    auto a = Read(w->bytes, Keys(), std::vector<std::string>{"a"});
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_TRUE((*a)->column(0)->Equals(*table->column(0)));
    auto s = Read(w->bytes, Keys(), std::vector<std::string>{"s"});
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.status().message().find("'s'"), std::string::npos) << s.status();
    auto d = Keys();
    d->column_keys["s"] = kColumnKey;
    auto all = Read(w->bytes, d);
    ASSERT_TRUE(all.ok()) << all.status();
    EXPECT_TRUE((*all)->Equals(*table));
    // A retriever gets the stored key metadata.
    auto r = std::make_shared<FileDecryptionProperties>();
    r->key_retriever = [](const std::string& md) -> Result<std::string> {
      if (md == "kf") return kFooterKey;
      if (md == "kc1") return kColumnKey;
      return Status::Invalid("unknown key metadata");
    };
    auto retrieved = Read(w->bytes, r);
    ASSERT_TRUE(retrieved.ok()) << retrieved.status();
    EXPECT_TRUE((*retrieved)->Equals(*table));
  }
}

TEST(EncryptedWrite, AadPrefixStoredOrSupplied) {
  const auto table = SampleTable(100);
  for (bool store : {true, false}) {
    auto p = Props();
    p->aad_prefix = "tester";
    p->store_aad_prefix = store;
    auto w = Write(*table, Encrypted(p));
    ASSERT_TRUE(w.ok()) << w.status();
    auto without = Read(w->bytes, Keys());
    EXPECT_EQ(without.ok(), store);
    auto d = Keys();
    d->aad_prefix = "tester";
    auto with = Read(w->bytes, d);
    ASSERT_TRUE(with.ok()) << with.status();
    EXPECT_TRUE((*with)->Equals(*table));
    d->aad_prefix = "other";
    EXPECT_FALSE(Read(w->bytes, d).ok());
  }
}

TEST(EncryptedWrite, BadPropertiesAreRefusedWithoutTheKey) {
  const auto table = SampleTable(10);
  auto p = Props("short");
  auto w = Write(*table, Encrypted(p));
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("5 bytes"), std::string::npos) << w.status();
  EXPECT_EQ(w.status().message().find("short"), std::string::npos);
  p = Props();
  p->column_keys["nope"] = kColumnKey;
  w = Write(*table, Encrypted(p));
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("'nope'"), std::string::npos) << w.status();
  p = Props();
  p->store_aad_prefix = false;
  w = Write(*table, Encrypted(p));
  ASSERT_FALSE(w.ok());
}

// Where each module of row group 0, column `c` starts.
struct Modules {
  int64_t dictionary_header, dictionary_page, data_header, data_page, column_index, offset_index,
      bloom_header, bloom_bitset;
};

int64_t After(const std::string& bytes, int64_t module) {
  return module + 4 + bit_util::LoadLE32(reinterpret_cast<const uint8_t*>(bytes.data()) + module);
}

Modules Locate(const Written& w, int c) {
  const auto& chunk = FileMetaDataAccess::State(*w.metadata).thrift.row_groups[0].columns[static_cast<size_t>(c)];
  const auto& md = *chunk.meta_data;
  Modules m{};
  m.dictionary_header = *md.dictionary_page_offset;
  m.dictionary_page = After(w.bytes, m.dictionary_header);
  m.data_header = md.data_page_offset;
  m.data_page = After(w.bytes, m.data_header);
  m.column_index = *chunk.column_index_offset;
  m.offset_index = *chunk.offset_index_offset;
  m.bloom_header = *md.bloom_filter_offset;
  m.bloom_bitset = After(w.bytes, m.bloom_header);
  return m;
}

TEST(EncryptedWrite, AChangedByteInEachModuleIsRefusedNamingIt) {
  const auto table = SampleTable(1000);
  for (bool plaintext_footer : {false, true}) {
    auto p = Props();
    p->plaintext_footer = plaintext_footer;
    auto w = Write(*table, Encrypted(p));
    ASSERT_TRUE(w.ok()) << w.status();
    const Modules m = Locate(*w, 1);
    auto flip = [&](int64_t at) {
      std::string bytes = w->bytes;
      bytes[static_cast<size_t>(at)] = static_cast<char>(bytes[static_cast<size_t>(at)] ^ 1);
      return bytes;
    };
    auto expect_read_error = [&](int64_t module, const std::string& name) {
      SCOPED_TRACE(name);
      auto read = Read(flip(module + 20), Keys());
      ASSERT_FALSE(read.ok());
      EXPECT_NE(read.status().message().find(name), std::string::npos) << read.status();
    };
    expect_read_error(m.dictionary_header, "dictionary page header");
    expect_read_error(m.dictionary_page, "dictionary page of");
    expect_read_error(m.data_header, "data page header");
    expect_read_error(m.data_page, "data page of");
    {
      ReaderOptions ro;
      ro.decryption_properties = Keys();
      auto reader = FileReader::Open(AsFile(flip(m.column_index + 20)), ro);
      ASSERT_TRUE(reader.ok()) << reader.status();
      auto ci = (*reader)->ReadColumnIndex(0, 1);
      ASSERT_FALSE(ci.ok());
      EXPECT_NE(ci.status().message().find("column index"), std::string::npos) << ci.status();
      reader = FileReader::Open(AsFile(flip(m.offset_index + 20)), ro);
      ASSERT_TRUE(reader.ok()) << reader.status();
      auto oi = (*reader)->ReadOffsetIndex(0, 1);
      ASSERT_FALSE(oi.ok());
      EXPECT_NE(oi.status().message().find("offset index"), std::string::npos) << oi.status();
      // Unchanged, both decrypt.
      reader = FileReader::Open(AsFile(w->bytes), ro);
      ASSERT_TRUE(reader.ok()) << reader.status();
      auto good_ci = (*reader)->ReadColumnIndex(0, 1);
      ASSERT_TRUE(good_ci.ok() && good_ci->has_value()) << good_ci.status();
      auto good_oi = (*reader)->ReadOffsetIndex(0, 1);
      ASSERT_TRUE(good_oi.ok() && good_oi->has_value()) << good_oi.status();
    }
    // The footer (encrypted module, or plaintext bytes under the signature)
    // and the signature itself.
    const int64_t end = static_cast<int64_t>(w->bytes.size());
    auto footer = Read(flip(end - 8 - 40), Keys());
    ASSERT_FALSE(footer.ok());
    EXPECT_NE(footer.status().message().find("footer"), std::string::npos) << footer.status();
    if (plaintext_footer) {
      auto signature = Read(flip(end - 8 - 5), Keys());
      ASSERT_FALSE(signature.ok());
      EXPECT_NE(signature.status().message().find("signature"), std::string::npos)
          << signature.status();
    }
    // Bloom filters (which the reader does not use on encrypted chunks
    // yet): both modules decrypt with the chunk's AAD, and not once changed.
    std::string unique;
    if (plaintext_footer) {
      const uint32_t len = bit_util::LoadLE32(reinterpret_cast<const uint8_t*>(w->bytes.data()) + end - 8);
      auto fmd = thrift::DeserializeThrift<format::FileMetaData>(
          reinterpret_cast<const uint8_t*>(w->bytes.data()) + end - 8 - len, len - 28);
      ASSERT_TRUE(fmd.ok()) << fmd.status();
      unique = *fmd->encryption_algorithm->aes_gcm_v1->aad_file_unique;
    } else {
      const uint32_t len = bit_util::LoadLE32(reinterpret_cast<const uint8_t*>(w->bytes.data()) + end - 8);
      auto crypto = thrift::DeserializeThrift<format::FileCryptoMetaData>(
          reinterpret_cast<const uint8_t*>(w->bytes.data()) + end - 8 - len, len);
      ASSERT_TRUE(crypto.ok()) << crypto.status();
      unique = *crypto->encryption_algorithm.aes_gcm_v1->aad_file_unique;
    }
    encryption::ChunkDecryptor decryptor(encryption::SecretKey(kFooterKey), false, unique, 0, 1, "s");
    for (auto [type, at] : {std::pair{encryption::ModuleType::kBloomFilterHeader, m.bloom_header},
                            std::pair{encryption::ModuleType::kBloomFilterBitset, m.bloom_bitset}}) {
      const int64_t size = After(w->bytes, at) - at;
      std::string plain;
      const std::string good = w->bytes, bad = flip(at + 20);
      EXPECT_TRUE(decryptor.Decrypt(type, -1, reinterpret_cast<const uint8_t*>(good.data()) + at, size, &plain).ok());
      Status st = decryptor.Decrypt(type, -1, reinterpret_cast<const uint8_t*>(bad.data()) + at, size, &plain);
      ASSERT_FALSE(st.ok());
      EXPECT_NE(st.message().find(std::string(encryption::ModuleName(type))), std::string::npos) << st;
    }
  }
}

// Every module's nonce (12 bytes after its length) of row group 0's chunks.
std::vector<std::string> Nonces(const Written& w) {
  std::vector<std::string> out;
  auto nonce = [&](int64_t module) { out.push_back(w.bytes.substr(static_cast<size_t>(module + 4), 12)); };
  const auto& rg = FileMetaDataAccess::State(*w.metadata).thrift.row_groups[0];
  for (int c = 0; c < 2; ++c) {
    const auto& chunk = rg.columns[static_cast<size_t>(c)];
    int64_t pos = chunk.meta_data->dictionary_page_offset.value_or(chunk.meta_data->data_page_offset);
    const int64_t end = pos + chunk.meta_data->total_compressed_size;
    while (pos < end) {
      nonce(pos);  // header
      pos = After(w.bytes, pos);
      nonce(pos);  // page
      pos = After(w.bytes, pos);
    }
    nonce(*chunk.column_index_offset);
    nonce(*chunk.offset_index_offset);
    nonce(*chunk.meta_data->bloom_filter_offset);
  }
  return out;
}

TEST(EncryptedWrite, NoNonceRepeatsAcrossTwoFilesWithTheSameKey) {
  const auto table = SampleTable();
  auto p = Props();
  auto first = Write(*table, Encrypted(p));
  auto second = Write(*table, Encrypted(p));
  ASSERT_TRUE(first.ok() && second.ok());
  std::vector<std::string> all = Nonces(*first);
  const auto more = Nonces(*second);
  all.insert(all.end(), more.begin(), more.end());
  EXPECT_GT(all.size(), 40u);
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
}

TEST(EncryptedWrite, RefusesMoreThan2To32ModulesUnderOneKey) {
  const auto table = SampleTable(100);
  auto p = Props();
  p->column_keys["s"] = kColumnKey;
  // A few modules short of the limit: the file needs more.
  encryption::SetKeyUsesForTesting(*p, "s", encryption::kMaxModulesPerKey - 3);
  auto w = Write(*table, Encrypted(p));
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("2^32"), std::string::npos) << w.status();
  EXPECT_NE(w.status().message().find("column 's'"), std::string::npos) << w.status();
  // A copy of the properties shares the count; new properties start at 0.
  auto copy = std::make_shared<FileEncryptionProperties>(*p);
  EXPECT_FALSE(Write(*table, Encrypted(copy)).ok());
  auto fresh = Props();
  fresh->column_keys["s"] = kColumnKey;
  EXPECT_TRUE(Write(*table, Encrypted(fresh)).ok());
}

TEST(EncryptedWrite, ThreadsAndCdcKeepWorking) {
  const auto table = SampleTable(50000);
  auto p = Props();
  auto options = Encrypted(p);
  options.use_threads = true;
  options.content_defined_chunking = CdcOptions{1024, 8192, 0};
  auto w = Write(*table, options);
  ASSERT_TRUE(w.ok()) << w.status();
  auto read = Read(w->bytes, Keys());
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE((*read)->Equals(*table));
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
