// The SchemaDescriptor of every footer in testdata/parquet-testing/*.parquet
// and testdata/quiver/*.parquet against pyarrow's ParquetFile(f).schema:
// each leaf's dotted path, max definition and max repetition level, as
// testdata/dump_pyarrow_levels.py wrote them to pyarrow_levels.json.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "quiver/parquet/schema/schema_descriptor.h"
#include "quiver/parquet/thrift/compact_protocol.h"
#include "quiver/parquet/thrift/parquet_types.h"

namespace quiver::parquet {
namespace {

namespace fs = std::filesystem;

// A JSON value, enough for pyarrow_levels.json: objects, arrays, strings
// (with the escapes json.dump writes), integers.
struct Json {
  enum class Kind { kObject, kArray, kString, kNumber, kOther } kind = Kind::kOther;
  std::map<std::string, Json> object;
  std::vector<Json> array;
  std::string string;
  int64_t number = 0;

  const Json& operator[](const std::string& key) const {
    static const Json kMissing;
    auto it = object.find(key);
    return it == object.end() ? kMissing : it->second;
  }
};

class JsonReader {
 public:
  explicit JsonReader(std::string text) : text_(std::move(text)) {}

  bool Read(Json* out) {
    if (!Value(out)) return false;
    Space();
    return pos_ == text_.size();
  }

 private:
  void Space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Eat(char c) {
    Space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool String(std::string* out) {
    if (!Eat('"')) return false;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c == '\\') {
        if (pos_ >= text_.size()) return false;
        const char e = text_[pos_++];
        if (e == 'u') {
          if (pos_ + 4 > text_.size()) return false;
          const auto code = static_cast<uint32_t>(std::stoul(text_.substr(pos_, 4), nullptr, 16));
          pos_ += 4;
          // json.dump escapes non-ASCII as \uXXXX (surrogate pairs are not
          // in this file): UTF-8 encode.
          if (code < 0x80) {
            out->push_back(static_cast<char>(code));
          } else if (code < 0x800) {
            out->push_back(static_cast<char>(0xC0 | (code >> 6)));
            out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
          } else {
            out->push_back(static_cast<char>(0xE0 | (code >> 12)));
            out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
            out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
          }
          continue;
        }
        c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
      }
      out->push_back(c);
    }
    return Eat('"');
  }
  bool Value(Json* out) {
    Space();
    if (pos_ >= text_.size()) return false;
    const char c = text_[pos_];
    if (c == '{') {
      out->kind = Json::Kind::kObject;
      ++pos_;
      if (Eat('}')) return true;
      do {
        std::string key;
        if (!String(&key) || !Eat(':') || !Value(&out->object[key])) return false;
      } while (Eat(','));
      return Eat('}');
    }
    if (c == '[') {
      out->kind = Json::Kind::kArray;
      ++pos_;
      if (Eat(']')) return true;
      do {
        out->array.emplace_back();
        if (!Value(&out->array.back())) return false;
      } while (Eat(','));
      return Eat(']');
    }
    if (c == '"') {
      out->kind = Json::Kind::kString;
      return String(&out->string);
    }
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      out->kind = Json::Kind::kNumber;
      size_t used = 0;
      out->number = std::stoll(text_.substr(pos_, 24), &used);
      pos_ += used;
      return true;
    }
    for (const char* word : {"true", "false", "null"}) {
      if (text_.compare(pos_, std::strlen(word), word) == 0) {
        pos_ += std::strlen(word);
        return true;
      }
    }
    return false;
  }

  std::string text_;
  size_t pos_ = 0;
};

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The footer's FileMetaData, or an error.
Result<format::FileMetaData> ReadFooter(const std::string& file) {
  if (file.size() < 12 || file.compare(file.size() - 4, 4, "PAR1") != 0) {
    return Status::Invalid("not a plaintext-footer Parquet file");
  }
  uint32_t length = 0;
  std::memcpy(&length, file.data() + file.size() - 8, 4);  // little-endian hosts only
  if (length > file.size() - 12) return Status::Invalid("footer length ", length, " too large");
  const auto* footer = reinterpret_cast<const uint8_t*>(file.data()) + file.size() - 8 - length;
  return thrift::DeserializeThrift<format::FileMetaData>(footer, length);
}

TEST(SchemaDescriptorFiles, LevelsAgreeWithPyarrow) {
  const fs::path testdata = QUIVER_TESTDATA_DIR;
  Json expected;
  ASSERT_TRUE(JsonReader(ReadFile(fs::path(QUIVER_PARQUET_SCHEMA_TESTDATA_DIR) /
                                  "pyarrow_levels.json"))
                  .Read(&expected));
  const Json& files = expected["files"];
  const Json& skipped = expected["skipped"];
  ASSERT_EQ(files.kind, Json::Kind::kObject);
  ASSERT_GT(files.object.size(), 60u);

  int compared_files = 0;
  int compared_columns = 0;
  for (const char* folder : {"parquet-testing", "quiver"}) {
    for (const auto& entry : fs::directory_iterator(testdata / folder)) {
      if (entry.path().extension() != ".parquet") continue;
      const std::string name = std::string(folder) + "/" + entry.path().filename().string();
      SCOPED_TRACE(name);
      auto metadata = ReadFooter(ReadFile(entry.path()));
      ASSERT_TRUE(metadata.ok()) << metadata.status();
      auto described = SchemaDescriptor::Make(metadata->schema);
      // Every schema in testdata is well-formed, also those pyarrow refuses
      // to convert to Arrow (incorrect_map_schema.parquet: a map whose keys
      // are optional).
      ASSERT_TRUE(described.ok()) << described.status();
      if (skipped.object.count(name) > 0) continue;
      ASSERT_EQ(files.object.count(name), 1u)
          << "not in pyarrow_levels.json: run testdata/dump_pyarrow_levels.py";
      const Json& leaves = files[name];
      const SchemaDescriptor& d = *described;
      ASSERT_EQ(d.num_columns(), static_cast<int>(leaves.array.size()));
      for (int i = 0; i < d.num_columns(); ++i) {
        const Json& leaf = leaves.array[static_cast<size_t>(i)];
        const ColumnDescriptor& c = d.column(i);
        EXPECT_EQ(c.path, leaf["path"].string);
        EXPECT_EQ(c.max_def, leaf["max_def"].number) << c.path;
        EXPECT_EQ(c.max_rep, leaf["max_rep"].number) << c.path;
        // And the stored path of each of the file's column chunks.
        for (const format::RowGroup& rg : metadata->row_groups) {
          ASSERT_EQ(rg.columns.size(), static_cast<size_t>(d.num_columns()));
          const auto& chunk = rg.columns[static_cast<size_t>(i)];
          if (chunk.meta_data.has_value()) {
            EXPECT_EQ(chunk.meta_data->path_in_schema, c.path_parts);
          }
        }
        ++compared_columns;
      }
      ++compared_files;
    }
  }
  EXPECT_EQ(compared_files, static_cast<int>(files.object.size()));
  EXPECT_GT(compared_columns, 500);
}

}  // namespace
}  // namespace quiver::parquet
