#include "quiver/parquet/thrift/parquet_types_internal.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/thrift_test_util.h"

#if defined(__SANITIZE_ADDRESS__)
extern "C" int __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void*, size_t), void (*free_hook)(const volatile void*));
#endif

namespace quiver::parquet::format {
namespace {
namespace QUIVER_UNITY_ID {

using thrift::CompactType;
using thrift::CompactWriter;
using thrift::DeserializeThrift;
using thrift::SerializeThrift;
using thrift::ThriftLimits;
using ::testing::HasSubstr;

#define ASSERT_OK(expr)                      \
  do {                                       \
    ::quiver::Status _st = (expr);           \
    ASSERT_TRUE(_st.ok()) << _st.ToString(); \
  } while (false)

// Writer/reader primitives return bool and keep the error in status().
#define ASSERT_DONE(obj, call) ASSERT_TRUE((obj).call) << (obj).status().ToString()

template <typename T>
std::string Serialize(const T& value) {
  std::string out;
  Status st = SerializeThrift(value, &out);
  EXPECT_TRUE(st.ok()) << st;
  return out;
}

template <typename T>
Result<T> Parse(const std::string& bytes, const ThriftLimits& limits = {},
                int64_t* consumed = nullptr) {
  // A heap copy of exactly the right size, so that ASan sees any over-read.
  std::vector<uint8_t> exact(bytes.begin(), bytes.end());
  return DeserializeThrift<T>(exact.data(), static_cast<int64_t>(exact.size()), consumed,
                              limits);
}

// ------------------------------------------------------------ generator

#if defined(QUIVER_PARQUET_THRIFT_SOURCE_DIR) && defined(QUIVER_PYTHON3_EXECUTABLE)
constexpr const char* kSourceDir = QUIVER_PARQUET_THRIFT_SOURCE_DIR;
constexpr const char* kPython = QUIVER_PYTHON3_EXECUTABLE;
#else
constexpr const char* kSourceDir = "";
constexpr const char* kPython = "";
#endif

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs the generator; returns its exit code.
int RunGenerator(const std::string& args) {
  const std::string command = std::string("'") + kPython + "' '" + kSourceDir +
                              "/generate.py' " + args + " 2>/dev/null";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class GeneratorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(kPython).empty() || std::string(kSourceDir).empty()) {
      GTEST_SKIP() << "python3 was not found at configure time";
    }
    char templ[] = "/tmp/quiver_thrift_gen_XXXXXX";
    ASSERT_NE(mkdtemp(templ), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
};

TEST_F(GeneratorTest, CommittedOutputIsUpToDate) {
  ASSERT_EQ(RunGenerator("--output-dir '" + dir_.string() + "'"), 0);
  for (const char* name : {"parquet_types_internal.h", "parquet_types.cc"}) {
    const std::string fresh = ReadFile(dir_ / name);
    const std::string committed = ReadFile(std::filesystem::path(kSourceDir) / name);
    ASSERT_FALSE(fresh.empty()) << name;
    EXPECT_TRUE(fresh == committed)
        << name << " is stale: run python3 src/quiver/parquet/thrift/generate.py";
  }
  EXPECT_EQ(RunGenerator("--check"), 0);
}

TEST_F(GeneratorTest, RejectsIdlOutsideTheSubset) {
  const std::vector<std::string> bad = {
      "namespace cpp x\nstruct A { 1: required list<list<i32>> a }\n",
      "namespace cpp x\nenum E { A, B }\n",
      "namespace cpp x\nstruct A { 1: i32 a }\n",
      "namespace cpp x\nstruct A { 1: optional B b }\nstruct B {}\n",
      "namespace cpp x\nstruct A { 1: optional i32 a\n 1: optional i32 b }\n",
      "namespace cpp x\ntypedef i32 T\n",
      "struct A {}\n",
  };
  for (const auto& idl : bad) {
    std::ofstream(dir_ / "bad.thrift") << idl;
    EXPECT_EQ(RunGenerator("--input '" + (dir_ / "bad.thrift").string() + "' --output-dir '" +
                           dir_.string() + "'"),
              2)
        << idl;
    EXPECT_FALSE(std::filesystem::exists(dir_ / "parquet_types_internal.h"));
  }
  std::ofstream(dir_ / "ok.thrift")
      << "namespace cpp a.b\n// doc\nstruct A {\n  1: optional i32 x = 3 // trailing\n}\n";
  ASSERT_EQ(RunGenerator("--input '" + (dir_ / "ok.thrift").string() + "' --output-dir '" +
                         dir_.string() + "'"),
            0);
  const std::string header = ReadFile(dir_ / "parquet_types_internal.h");
  EXPECT_THAT(header, HasSubstr("namespace a::b {"));
  EXPECT_THAT(header, HasSubstr("// doc\nstruct A {"));
  EXPECT_THAT(header, HasSubstr("  // trailing\n  std::optional<int32_t> x;"));
  EXPECT_THAT(header, HasSubstr("static constexpr int32_t kXDefault = 3;"));
}

// ------------------------------------------------------------ names

TEST(ParquetTypesTest, EnumNamesAreTheIdlSpelling) {
  EXPECT_EQ(EnumName(Type::kFixedLenByteArray), "FIXED_LEN_BYTE_ARRAY");
  EXPECT_EQ(EnumName(Encoding::kRleDictionary), "RLE_DICTIONARY");
  EXPECT_EQ(EnumName(ConvertedType::kInt8), "INT_8");
  EXPECT_EQ(EnumName(CompressionCodec::kLz4Raw), "LZ4_RAW");
  EXPECT_EQ(EnumName(FieldRepetitionType::kVector), "VECTOR");
  EXPECT_EQ(EnumName(static_cast<Encoding>(1)), "");  // GROUP_VAR_INT was never defined
  EXPECT_EQ(EnumName(static_cast<PageType>(99)), "");
  EXPECT_EQ(static_cast<int>(LogicalType::Kind::kInteger), 10);
  EXPECT_EQ(FileMetaData::kName, "FileMetaData");
  EXPECT_TRUE(ColumnOrder::kIsUnion);
  EXPECT_FALSE(ColumnChunk::kIsUnion);
}

// ------------------------------------------------------------ every struct

// Unknown fields of every wire type, with long-form ids: written with
// `first_id` (0 for a prefix, so that the delta encoding of the fields
// that follow is unaffected; 99 for a suffix).
std::string UnknownFields(int16_t first_id) {
  std::string out;
  CompactWriter w(&out);
  auto check = [&](bool ok) { EXPECT_TRUE(ok) << w.status(); };
  check(w.WriteStructBegin());
  int16_t id = first_id;
  auto next = [&]() { return first_id == 0 ? int16_t{0} : id++; };
  check(w.WriteBoolField(next(), true));
  check(w.WriteBoolField(next(), false));
  check(w.WriteFieldBegin(CompactType::kI8, next()));
  check(w.WriteI8(-1));
  check(w.WriteFieldBegin(CompactType::kI16, next()));
  check(w.WriteI16(1234));
  check(w.WriteFieldBegin(CompactType::kI32, next()));
  check(w.WriteI32(-123456));
  check(w.WriteFieldBegin(CompactType::kI64, next()));
  check(w.WriteI64(int64_t{1} << 50));
  check(w.WriteFieldBegin(CompactType::kDouble, next()));
  check(w.WriteDouble(2.5));
  check(w.WriteFieldBegin(CompactType::kBinary, next()));
  check(w.WriteBinary("unknown"));
  check(w.WriteFieldBegin(CompactType::kList, next()));
  check(w.WriteListBegin(CompactType::kI32, 20));
  for (int i = 0; i < 20; ++i) check(w.WriteI32(i));
  check(w.WriteFieldBegin(CompactType::kList, next()));
  check(w.WriteListBegin(CompactType::kStruct, 2));
  for (int i = 0; i < 2; ++i) {
    check(w.WriteStructBegin());
    check(w.WriteFieldBegin(CompactType::kList, 1));
    check(w.WriteListBegin(thrift::kListBool, 2));
    check(w.WriteBool(true));
    check(w.WriteBool(false));
    check(w.WriteFieldBegin(CompactType::kStruct, 7));
    check(w.WriteStructBegin());
    check(w.WriteStructEnd());
    check(w.WriteStructEnd());
  }
  check(w.WriteFieldBegin(CompactType::kSet, next()));
  check(w.WriteListBegin(CompactType::kBinary, 1));
  check(w.WriteBinary("s"));
  check(w.WriteFieldBegin(CompactType::kMap, next()));
  check(w.WriteMapBegin(CompactType::kI32, CompactType::kList, 1));
  check(w.WriteI32(1));
  check(w.WriteListBegin(CompactType::kDouble, 1));
  check(w.WriteDouble(1));
  check(w.WriteFieldBegin(CompactType::kStruct, next()));
  check(w.WriteStructBegin());
  check(w.WriteFieldBegin(CompactType::kStruct, 3));
  check(w.WriteStructBegin());
  check(w.WriteFieldBegin(CompactType::kI32, 1));
  check(w.WriteI32(5));
  check(w.WriteStructEnd());
  check(w.WriteStructEnd());
  check(w.WriteFieldBegin(CompactType::kUuid, next()));
  for (int i = 0; i < 16; ++i) check(w.WriteByte(static_cast<uint8_t>(0xA0 + i)));
  return out;  // no stop byte: the caller splices these into a struct
}

template <typename T>
class EveryStructTest : public ::testing::Test {};

template <typename List>
struct ToGtestTypes;
template <typename... T>
struct ToGtestTypes<TypeList<T...>> {
  using type = ::testing::Types<T...>;
};
using AllStructTypes = ToGtestTypes<AllStructs>::type;

class StructNames {
 public:
  template <typename T>
  static std::string GetName(int) {
    return std::string(T::kName);
  }
};
TYPED_TEST_SUITE(EveryStructTest, AllStructTypes, StructNames);

template <typename T>
void ExpectRoundTrip(const T& value) {
  const std::string bytes = Serialize(value);
  int64_t consumed = -1;
  auto back = Parse<T>(bytes, {}, &consumed);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(*back == value);
  EXPECT_EQ(consumed, static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(Serialize(*back), bytes);

  // Unknown fields before, after (and, through the nested types' own
  // tests, inside) are skipped.
  ASSERT_FALSE(bytes.empty());
  ASSERT_EQ(bytes.back(), '\0');
  const std::string spliced =
      UnknownFields(0) + bytes.substr(0, bytes.size() - 1) + UnknownFields(99) + '\0';
  auto with_unknown = Parse<T>(spliced);
  ASSERT_TRUE(with_unknown.ok()) << with_unknown.status();
  EXPECT_TRUE(*with_unknown == value);
}

TYPED_TEST(EveryStructTest, RoundTripsWithEveryOptionalSet) {
  int members = 0;
  TypeParam probe;
  probe.ForEachField([&](int16_t, std::string_view, auto&) { ++members; });
  // Unions: each member in turn; structs: a few seeds.
  const int runs = TypeParam::kIsUnion ? members : 3;
  for (int run = 0; run < runs; ++run) {
    SCOPED_TRACE(run);
    TypeParam value;
    testing::Filler(1000 + run, /*set_optionals=*/true, run).Fill(value);
    if constexpr (TypeParam::kIsUnion) {
      EXPECT_EQ(value.num_set(), 1);
      EXPECT_NE(value.kind(), TypeParam::Kind::kNone);
    } else {
      value.ForEachField([&](int16_t id, std::string_view name, const auto& member) {
        if constexpr (testing::IsOptional<std::decay_t<decltype(member)>>::value) {
          EXPECT_TRUE(member.has_value()) << id << " " << name;
        }
      });
    }
    ExpectRoundTrip(value);
  }
}

TYPED_TEST(EveryStructTest, RoundTripsWithOnlyRequiredFields) {
  TypeParam value;
  testing::Filler(7, /*set_optionals=*/false).Fill(value);
  value.ForEachField([&](int16_t id, std::string_view name, const auto& member) {
    if constexpr (testing::IsOptional<std::decay_t<decltype(member)>>::value) {
      EXPECT_FALSE(member.has_value()) << id << " " << name;
    }
  });
  ExpectRoundTrip(value);
  ExpectRoundTrip(TypeParam());
}

TYPED_TEST(EveryStructTest, MissingRequiredFieldsAreNamed) {
  TypeParam full;
  testing::Filler(3, /*set_optionals=*/true, 0).Fill(full);
  const std::string bytes = Serialize(full);
  // Drop each required field in turn by rewriting the struct without it.
  full.ForEachField([&](int16_t id, std::string_view name, const auto& member) {
    using Member = std::decay_t<decltype(member)>;
    if constexpr (!testing::IsOptional<Member>::value) {
      // Re-encode: all fields but `id`, through a reader that skips it.
      std::string filtered;
      CompactWriter w(&filtered);
      thrift::CompactReader r(reinterpret_cast<const uint8_t*>(bytes.data()),
                              static_cast<int64_t>(bytes.size()));
      ASSERT_DONE(r, ReadStructBegin());
      ASSERT_DONE(w, WriteStructBegin());
      while (true) {
        CompactType type;
        int16_t fid;
        ASSERT_DONE(r, ReadFieldBegin(&type, &fid));
        if (type == CompactType::kStop) break;
        const int64_t start = r.position();
        ASSERT_DONE(r, Skip(type));
        if (fid == id) continue;
        if (thrift::IsBool(type)) {
          ASSERT_DONE(w, WriteBoolField(fid, type == CompactType::kBooleanTrue));
        } else {
          ASSERT_DONE(w, WriteFieldBegin(type, fid));
          ASSERT_DONE(w, WriteRaw(reinterpret_cast<const uint8_t*>(bytes.data()) + start,
                                  r.position() - start));
        }
      }
      ASSERT_DONE(w, WriteStructEnd());
      auto result = Parse<TypeParam>(filtered);
      ASSERT_FALSE(result.ok()) << name;
      EXPECT_TRUE(result.status().IsInvalid());
      EXPECT_THAT(result.status().message(),
                  HasSubstr("required field " + std::string(TypeParam::kName) + "." +
                            std::string(name) + " is missing"));
    }
  });
}

// ------------------------------------------------------------ semantics

TEST(ParquetTypesTest, WrongWireTypeForAKnownFieldIsSkipped) {
  std::string bytes;
  CompactWriter w(&bytes);
  ASSERT_DONE(w, WriteStructBegin());
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kBinary, 1));
  ASSERT_DONE(w, WriteBinary("key"));
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kI64, 2));  // value is a string in the IDL
  ASSERT_DONE(w, WriteI64(5));
  ASSERT_DONE(w, WriteStructEnd());
  auto kv = Parse<KeyValue>(bytes);
  ASSERT_TRUE(kv.ok()) << kv.status();
  EXPECT_EQ(kv->key, "key");
  EXPECT_FALSE(kv->value.has_value());

  // A required field of the wrong type is skipped, then reported missing.
  bytes.clear();
  ASSERT_DONE(w, WriteStructBegin());
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kI32, 1));  // column_idx: i32, fine
  ASSERT_DONE(w, WriteI32(3));
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kI32, 2));  // descending: bool in the IDL
  ASSERT_DONE(w, WriteI32(1));
  ASSERT_DONE(w, WriteBoolField(3, true));
  ASSERT_DONE(w, WriteStructEnd());
  auto sc = Parse<SortingColumn>(bytes);
  ASSERT_FALSE(sc.ok());
  EXPECT_THAT(sc.status().message(),
              HasSubstr("thrift: required field SortingColumn.descending is missing"));

  // A list whose element type does not match is an error.
  bytes.clear();
  ASSERT_DONE(w, WriteStructBegin());
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kList, 1));
  ASSERT_DONE(w, WriteListBegin(CompactType::kI32, 1));
  ASSERT_DONE(w, WriteI32(0));
  ASSERT_DONE(w, WriteStructEnd());
  auto oi = Parse<OffsetIndex>(bytes);
  EXPECT_THAT(oi.status().message(), HasSubstr("list of i32 where a list of struct"));
}

TEST(ParquetTypesTest, RepeatedFieldReplacesTheEarlierValue) {
  std::string bytes;
  CompactWriter w(&bytes);
  ASSERT_DONE(w, WriteStructBegin());
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kList, 1));
  ASSERT_DONE(w, WriteListBegin(thrift::kListBool, 2));
  ASSERT_DONE(w, WriteBool(true));
  ASSERT_DONE(w, WriteBool(true));
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kList, 1));
  ASSERT_DONE(w, WriteListBegin(thrift::kListBool, 1));
  ASSERT_DONE(w, WriteBool(false));
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kList, 2));
  ASSERT_DONE(w, WriteListBegin(CompactType::kBinary, 0));
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kList, 3));
  ASSERT_DONE(w, WriteListBegin(CompactType::kBinary, 0));
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kI32, 4));
  ASSERT_DONE(w, WriteI32(1));
  ASSERT_DONE(w, WriteStructEnd());
  auto ci = Parse<ColumnIndex>(bytes);
  ASSERT_TRUE(ci.ok()) << ci.status();
  EXPECT_EQ(ci->null_pages, std::vector<bool>{false});
  EXPECT_EQ(ci->boundary_order, BoundaryOrder::kAscending);
}

TEST(ParquetTypesTest, Unions) {
  LogicalType lt;
  EXPECT_EQ(lt.kind(), LogicalType::Kind::kNone);
  EXPECT_EQ(lt.num_set(), 0);
  lt.timestamp.emplace().unit.nanos.emplace();
  EXPECT_EQ(lt.kind(), LogicalType::Kind::kTimestamp);
  auto back = Parse<LogicalType>(Serialize(lt));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->kind(), LogicalType::Kind::kTimestamp);
  EXPECT_EQ(back->timestamp->unit.kind(), TimeUnit::Kind::kNanos);

  // Two members: refused on write and on read.
  lt.string.emplace();
  EXPECT_EQ(lt.num_set(), 2);
  EXPECT_EQ(lt.kind(), LogicalType::Kind::kString);
  std::string out;
  Status st = SerializeThrift(lt, &out);
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_THAT(st.message(), HasSubstr("union LogicalType has 2 members set"));
  std::string bytes;
  CompactWriter w(&bytes);
  ASSERT_DONE(w, WriteStructBegin());
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kStruct, 1));
  ASSERT_DONE(w, WriteStructBegin());
  ASSERT_DONE(w, WriteStructEnd());
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kStruct, 6));
  ASSERT_DONE(w, WriteStructBegin());
  ASSERT_DONE(w, WriteStructEnd());
  ASSERT_DONE(w, WriteStructEnd());
  EXPECT_THAT(Parse<LogicalType>(bytes).status().message(),
              HasSubstr("union LogicalType has 2 members set"));

  // A member from a newer format version: skipped, nothing set.
  bytes.clear();
  ASSERT_DONE(w, WriteStructBegin());
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kStruct, 42));
  ASSERT_DONE(w, WriteStructBegin());
  ASSERT_DONE(w, WriteFieldBegin(CompactType::kI32, 1));
  ASSERT_DONE(w, WriteI32(3));
  ASSERT_DONE(w, WriteStructEnd());
  ASSERT_DONE(w, WriteStructEnd());
  auto newer = Parse<LogicalType>(bytes);
  ASSERT_TRUE(newer.ok()) << newer.status();
  EXPECT_EQ(newer->kind(), LogicalType::Kind::kNone);
}

TEST(ParquetTypesTest, UnknownEnumValuesPassThrough) {
  ColumnMetaData cmd;
  cmd.type = static_cast<Type>(12);
  cmd.encodings = {Encoding::kPlain, static_cast<Encoding>(42), static_cast<Encoding>(-7)};
  cmd.codec = static_cast<CompressionCodec>(1000);
  cmd.path_in_schema = {"a", "b"};
  auto back = Parse<ColumnMetaData>(Serialize(cmd));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(*back == cmd);
  EXPECT_EQ(static_cast<int>(back->encodings[1]), 42);
  EXPECT_EQ(static_cast<int>(back->encodings[2]), -7);
}

TEST(ParquetTypesTest, OptionalFieldDefaults) {
  DataPageHeaderV2 h;
  EXPECT_TRUE(h.is_compressed_or_default());
  EXPECT_TRUE(DataPageHeaderV2::kIsCompressedDefault);
  h.is_compressed = false;
  EXPECT_FALSE(h.is_compressed_or_default());
  ColumnChunk chunk;
  EXPECT_EQ(chunk.file_offset, 0);  // the IDL default of a required field
}

TEST(ParquetTypesTest, PageHeaderFollowedByPageData) {
  PageHeader header;
  header.type = PageType::kDataPageV2;
  header.uncompressed_page_size = 1000;
  header.compressed_page_size = 400;
  header.crc = -12345;
  auto& v2 = header.data_page_header_v2.emplace();
  v2.num_values = 100;
  v2.num_nulls = 3;
  v2.num_rows = 100;
  v2.encoding = Encoding::kDeltaBinaryPacked;
  v2.definition_levels_byte_length = 12;
  v2.repetition_levels_byte_length = 0;
  v2.is_compressed = false;
  const std::string header_bytes = Serialize(header);
  const std::string file = header_bytes + std::string(400, '\x55');
  int64_t consumed = 0;
  auto back = Parse<PageHeader>(file, {}, &consumed);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(consumed, static_cast<int64_t>(header_bytes.size()));
  EXPECT_TRUE(*back == header);

  MutableBuffer buffer;
  ASSERT_OK(SerializeThrift(header, &buffer));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(buffer.data()),
                        static_cast<size_t>(buffer.size())),
            header_bytes);
}

TEST(ParquetTypesTest, NestingLimitAppliesToKnownStructs) {
  const std::string bytes = Serialize(testing::MakeFileMetaData(3, 1));
  // FileMetaData > SchemaElement > LogicalType > TimestampType > TimeUnit >
  // MicroSeconds: six levels.
  ThriftLimits limits;
  limits.max_depth = 5;
  auto shallow = Parse<FileMetaData>(bytes, limits);
  ASSERT_FALSE(shallow.ok());
  EXPECT_THAT(shallow.status().message(), HasSubstr("thrift: nesting deeper than 5 at byte"));
  limits.max_depth = 6;
  EXPECT_TRUE(Parse<FileMetaData>(bytes, limits).ok());
}

// ------------------------------------------------------------ hostile input

TEST(HostileInputTest, TruncationAtEveryByteIsAnError) {
  const std::string bytes = Serialize(testing::MakeFileMetaData(5, 2));
  ASSERT_GT(bytes.size(), 1000u);
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto result = Parse<FileMetaData>(bytes.substr(0, n));
    ASSERT_FALSE(result.ok()) << "prefix of " << n << " bytes";
    ASSERT_TRUE(result.status().IsInvalid()) << result.status();
    ASSERT_THAT(result.status().message(), HasSubstr("thrift: "));
  }
  EXPECT_TRUE(Parse<FileMetaData>(bytes).ok());
}

TEST(HostileInputTest, RandomByteFlipsNeverCrash) {
  const std::string original = Serialize(testing::MakeFileMetaData(4, 2));
  PageHeader page;
  page.type = PageType::kDataPage;
  page.compressed_page_size = 10;
  page.uncompressed_page_size = 20;
  auto& dp = page.data_page_header.emplace();
  dp.num_values = 7;
  dp.statistics.emplace().min_value = "abc";
  const std::string page_bytes = Serialize(page);
  const uint64_t kSeed = 20240611;
  testing::Rng rng(kSeed);
  int decoded = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    SCOPED_TRACE(::testing::Message() << "seed " << kSeed << " iteration " << iteration);
    std::string bytes = (iteration % 4 == 3) ? page_bytes : original;
    const int flips = 1 + static_cast<int>(rng.Uniform(4));
    for (int f = 0; f < flips; ++f) {
      const size_t at = rng.Uniform(bytes.size());
      switch (rng.Uniform(4)) {
        case 0:
          bytes[at] = static_cast<char>(rng.Next());
          break;
        case 1:
          bytes[at] = static_cast<char>(bytes[at] ^ (1 << rng.Uniform(8)));
          break;
        case 2:
          bytes.insert(at, 1, static_cast<char>(rng.Next()));
          break;
        default:
          bytes.erase(at, 1 + rng.Uniform(4));
          if (bytes.empty()) bytes = "\x15";
          break;
      }
    }
    // Whatever decodes must re-encode to bytes that decode to the same
    // value (compared by bytes: a flipped double may be a NaN).
    auto check = [&](auto tag) {
      using T = decltype(tag);
      auto result = Parse<T>(bytes);
      if (!result.ok()) {
        ASSERT_TRUE(result.status().IsInvalid()) << result.status();
        return;
      }
      ++decoded;
      const std::string again = Serialize(*result);
      auto second = Parse<T>(again);
      ASSERT_TRUE(second.ok()) << second.status();
      ASSERT_EQ(Serialize(*second), again);
    };
    check(FileMetaData{});
    check(PageHeader{});
    check(ColumnIndex{});
  }
  // Some mutations hit values rather than structure and still decode.
  EXPECT_GT(decoded, 100);
}

#if defined(__SANITIZE_ADDRESS__)
std::atomic<bool> g_tracking{false};
std::atomic<size_t> g_largest_allocation{0};
void OnMalloc(const volatile void*, size_t size) {
  if (!g_tracking.load(std::memory_order_relaxed)) return;
  size_t seen = g_largest_allocation.load(std::memory_order_relaxed);
  while (size > seen && !g_largest_allocation.compare_exchange_weak(seen, size)) {
  }
}
void OnFree(const volatile void*) {}
#endif

// Largest single allocation made while running `f`, or -1 when this build
// cannot observe allocations (no ASan).
template <typename F>
int64_t LargestAllocationDuring(F&& f) {
#if defined(__SANITIZE_ADDRESS__)
  static const bool installed = __sanitizer_install_malloc_and_free_hooks(OnMalloc, OnFree) != 0;
  g_largest_allocation = 0;
  g_tracking = true;
  f();
  g_tracking = false;
  return installed ? static_cast<int64_t>(g_largest_allocation.load()) : -1;
#else
  f();
  return -1;
#endif
}

TEST(HostileInputTest, HugeListHeadersDoNotAllocate) {
  // FileMetaData.schema (field 2) claiming 2^31 - 1 structs, 10 bytes left.
  std::string bytes = "\x29\xFC\xFF\xFF\xFF\xFF\x07";
  bytes += std::string(10, '\0');
  ThriftLimits no_container_limit;
  no_container_limit.container_size_limit = std::numeric_limits<int32_t>::max();
  Status st;
  const int64_t largest = LargestAllocationDuring(
      [&] { st = Parse<FileMetaData>(bytes, no_container_limit).status(); });
  EXPECT_THAT(st.message(), HasSubstr("list of 2147483647 struct elements cannot fit in the 10 "
                                      "remaining bytes"));
  if (largest >= 0) {
    EXPECT_LT(largest, 64 * 1024);
  }

  // A claim of 1,000,000 structs with 1 MB behind it: each element needs at
  // least one byte, so the claim is possible; the reader still reserves a
  // bounded amount up front (280-byte SchemaElements: not 280 MB) and fails
  // at the first bad element.
  std::string plausible = "\x29\xFC\xC0\x84\x3D";  // varint 1,000,000
  plausible += std::string(1'000'000, '\0');
  const int64_t largest2 =
      LargestAllocationDuring([&] { st = Parse<FileMetaData>(plausible).status(); });
  EXPECT_THAT(st.message(), HasSubstr("required field SchemaElement.name is missing"));
  if (largest2 >= 0) {
    // The input copy (1 MB) shows that allocations are observed; the
    // reservation is held to 8 x the remaining input bytes.
    EXPECT_GE(largest2, 1'000'000);
    EXPECT_LE(largest2, 8 * 1'000'000);
  }
  // Strings: a 100 MB length with 3 bytes behind it.
  // KeyValue.key (field 1) claiming 50,000,000 bytes, 3 bytes behind it.
  std::string str = "\x18\x80\xE1\xEB\x17xyz";
  const int64_t largest3 = LargestAllocationDuring([&] { st = Parse<KeyValue>(str).status(); });
  EXPECT_THAT(st.message(),
              HasSubstr("binary of 50000000 bytes runs past the end of input (3 bytes left)"));
  if (largest3 >= 0) {
    EXPECT_LT(largest3, 64 * 1024);
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet::format
