// ParquetToArrowSchema against pyarrow 26 over real files: every file of
// testdata/parquet-testing/ (and geospatial/), testdata/quiver/ and
// testdata/schema_files/ (written by testdata/dump_pyarrow_schemas.py,
// which records pq.read_schema and some pq.ParquetFile option variants in
// pyarrow_schemas.json). The footer is read, its SchemaDescriptor built
// (max_depth 99: pyarrow's schema_depth_limit of 100), ARROW:schema decoded
// as the reader will (base64, ipc::ReadSchemaMessage), and the result
// compared field by field: names, types (pyarrow's str(type) for leaves,
// the kind for nested types), nullability, metadata, extension names,
// schema metadata. Files pyarrow refuses must be refused (Invalid). The
// files that differ on purpose are listed in kExpectedDifferences with the
// reason; any other difference fails.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "quiver/ipc/schema.h"
#include "quiver/parquet/schema/parquet_to_arrow.h"
#include "quiver/parquet/schema/parquet_to_arrow_internal.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"
#include "quiver/parquet/schema/schema_test_util_internal.h"
#include "quiver/util/base64.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

namespace fs = std::filesystem;
using schema_test::Json;

// Where Quiver differs from pyarrow on purpose: "file" (the whole file) or
// "file:field path" (one field; the rest of the file must agree), with the
// reason. Paths are relative to testdata/ or to the schema tests' testdata/.
const std::map<std::string, std::string> kExpectedDifferences = {
    // Repetition type 3 is VECTOR in the parquet.thrift Quiver follows: the
    // descriptor refuses it (NotImplemented); pyarrow, which does not know
    // it, reads a REQUIRED field (testdata/quiver/make_compat.py).
    {"quiver/compat_repetition_3.parquet", "VECTOR repetition: NotImplemented"},
    // parquet_to_arrow.h: the reader passes a null origin when ARROW:schema
    // does not decode and reports a warning; pyarrow refuses the file.
    {"schema_files/pa_origin_not_base64.parquet", "undecodable ARROW:schema: the reader warns"},
    {"schema_files/pa_origin_not_ipc.parquet", "undecodable ARROW:schema: the reader warns"},
    {"schema_files/pa_origin_empty.parquet", "undecodable ARROW:schema: the reader warns"},
    // pyarrow applies an original extension type to any inferred extension
    // type: arrow.uuid (fixed_size_binary(16)) on JSON BYTE_ARRAY values,
    // arrow.json (string) on UUID FIXED_LEN_BYTE_ARRAY(16) values, types
    // its reader cannot produce from them. CanConvertLeaf refuses them and
    // the inferred extension is kept.
    {"schema_files/craft_origin_json.parquet:c54", "arrow.uuid over JSON values: not producible"},
    {"schema_files/craft_origin_uuid.parquet:c52", "arrow.json over UUID values: not producible"},
    {"schema_files/craft_origin_uuid.parquet:c53", "arrow.json over UUID values: not producible"},
};

std::vector<std::pair<std::string, std::string>> Pairs(const Json& metadata) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Json& pair : metadata.array)
    out.emplace_back(pair.array[0].string, pair.array[1].string);
  return out;
}

std::vector<std::pair<std::string, std::string>> Pairs(const KeyValueMetadata* metadata) {
  std::vector<std::pair<std::string, std::string>> out;
  if (metadata == nullptr) return out;
  for (int64_t i = 0; i < metadata->size(); ++i) {
    out.emplace_back(metadata->key(i), metadata->value(i));
  }
  return out;
}

std::string Describe(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out = "{";
  for (const auto& [k, v] : pairs) out += k + ": " + v.substr(0, 40) + "; ";
  return out + "}";
}

// The registered extension types pyarrow shows as extension<...>; other
// extension names stay in its field metadata.
bool PyarrowKnows(std::string_view name) {
  return name == "arrow.json" || name == "arrow.uuid" || name == "arrow.bool8" ||
         name == "arrow.opaque" || name == "arrow.fixed_shape_tensor" ||
         name == "arrow.variable_shape_tensor";
}

// The kind of a nested type as the generator writes it.
std::string NestedName(const DataType& type) {
  switch (type.id()) {
    case Type::kList: return "list";
    case Type::kLargeList: return "large_list";
    case Type::kFixedSizeList:
      return "fixed_size_list[" + std::to_string(TypeAs<ListType>(type).list_size()) + "]";
    case Type::kStruct: return "struct";
    case Type::kMap: return TypeAs<MapType>(type).keys_sorted() ? "map[keys_sorted]" : "map";
    default: return "";
  }
}

// Differences between pyarrow's field and ours, one line each.
void CompareField(const Json& expected, const Field& actual, const std::string& path,
                  std::vector<std::string>* diffs) {
  const std::string where = path.empty() ? actual.name() : path + "." + actual.name();
  auto diff = [&](const std::string& what, const std::string& want, const std::string& got) {
    diffs->push_back(where + ": " + what + " pyarrow " + want + ", quiver " + got);
  };
  if (expected["name"].string != actual.name())
    diff("name", expected["name"].string, actual.name());
  if (expected["nullable"].boolean != actual.nullable()) {
    diff("nullable", expected["nullable"].boolean ? "true" : "false",
         actual.nullable() ? "true" : "false");
  }
  // Extension: pyarrow's extension<name> is our storage type + metadata.
  MetadataPtr metadata = actual.metadata();
  const std::string_view extension = internal::ExtensionName(metadata.get());
  const std::string want_extension = expected["extension"].string;
  if (!want_extension.empty() || PyarrowKnows(extension)) {
    if (want_extension != extension) diff("extension", want_extension, std::string(extension));
    metadata = internal::WithoutExtension(metadata);
  }
  const auto want_metadata = Pairs(expected["metadata"]);
  const auto got_metadata = Pairs(metadata.get());
  if (want_metadata != got_metadata)
    diff("metadata", Describe(want_metadata), Describe(got_metadata));

  const DataType& type = *actual.type();
  const std::string& want_type = expected["type"].string;
  if (expected["children"].kind != Json::Kind::kArray) {
    if (want_type != type.ToString()) diff("type", want_type, type.ToString());
    return;
  }
  if (want_type != NestedName(type)) {
    diff("type", want_type, type.ToString());
    return;
  }
  const auto& children = expected["children"].array;
  if (children.size() != static_cast<size_t>(type.num_fields())) {
    diff("children", std::to_string(children.size()), std::to_string(type.num_fields()));
    return;
  }
  for (size_t i = 0; i < children.size(); ++i) {
    CompareField(children[i], *type.field(static_cast<int>(i)), where, diffs);
  }
}

std::vector<std::string> CompareSchema(const Json& expected, const Schema& actual) {
  std::vector<std::string> diffs;
  const auto& fields = expected["fields"].array;
  if (fields.size() != static_cast<size_t>(actual.num_fields())) {
    diffs.push_back("field count: pyarrow " + std::to_string(fields.size()) + ", quiver " +
                    std::to_string(actual.num_fields()));
    return diffs;
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    CompareField(fields[i], *actual.field(static_cast<int>(i)), "", &diffs);
  }
  const auto want = Pairs(expected["metadata"]);
  const auto got = Pairs(actual.metadata().get());
  if (want != got)
    diffs.push_back("schema metadata: pyarrow " + Describe(want) + ", quiver " + Describe(got));
  return diffs;
}

Result<ParquetToArrowOptions> OptionsOf(const Json& json) {
  ParquetToArrowOptions options;
  for (const auto& [key, value] : json.object) {
    if (key == "read_dictionary") {
      for (const Json& name : value.array) options.read_dictionary.push_back(name.string);
    } else if (key == "binary_type") {
      options.binary_type = value.string == "large_binary"  ? Type::kLargeBinary
                            : value.string == "binary_view" ? Type::kBinaryView
                                                            : Type::kBinary;
    } else if (key == "list_type") {
      options.list_type = value.string == "large_list" ? Type::kLargeList : Type::kList;
    } else if (key == "coerce_int96_timestamp_unit") {
      options.int96_unit = value.string == "s"    ? TimeUnit::kSecond
                           : value.string == "ms" ? TimeUnit::kMilli
                           : value.string == "us" ? TimeUnit::kMicro
                                                  : TimeUnit::kNano;
    } else if (key == "arrow_extensions_enabled") {
      options.arrow_extensions_enabled = value.boolean;
    } else {
      return Status::Invalid("unknown option ", key);
    }
  }
  return options;
}

// The ReadNode contract (parquet_to_arrow.h) on a converted tree.
void CheckReadNode(const SchemaDescriptor& d, const ReadNode& node, std::vector<int32_t>* columns,
                   std::vector<std::string>* diffs) {
  const std::string where = node.field->name();
  auto fail = [&](const std::string& what) { diffs->push_back("ReadNode " + where + ": " + what); };
  const DataType& type = *node.field->type();
  std::vector<int32_t> below;
  switch (node.kind) {
    case ReadNode::Kind::kLeaf: {
      if (node.column < 0 || node.column >= d.num_columns()) return fail("bad column");
      if (d.column(node.column).node != node.node) fail("column / node mismatch");
      if (!(node.levels == d.node(node.node).levels)) fail("leaf levels are not its node's");
      if (!CanConvertLeaf(d.column(node.column), type))
        fail("CanConvertLeaf refuses " + type.ToString());
      columns->push_back(node.column);
      below.push_back(node.column);
      break;
    }
    case ReadNode::Kind::kStruct:
      if (type.id() != Type::kStruct) fail("kStruct of " + type.ToString());
      if (node.children.size() != static_cast<size_t>(type.num_fields())) fail("children");
      break;
    case ReadNode::Kind::kList:
    case ReadNode::Kind::kMap: {
      if (node.kind == ReadNode::Kind::kList && !IsListLike(type.id()))
        fail("kList of " + type.ToString());
      if (node.kind == ReadNode::Kind::kMap && type.id() != Type::kMap)
        fail("kMap of " + type.ToString());
      if (node.children.size() != 1) return fail("a list has one child");
      const LevelInfo& child = node.children[0].levels;
      if (child.repeated_ancestor_def_level != node.repeated.def_level ||
          child.rep_level != node.repeated.rep_level) {
        fail("element levels do not follow the repeated node's");
      }
      if (node.repeated.rep_level != node.levels.rep_level + 1) fail("repeated.rep_level");
      if (node.field->nullable() && node.levels.def_level + 1 != node.repeated.def_level) {
        fail("nullable list: repeated.def_level");
      }
      break;
    }
  }
  for (size_t i = 0; i < node.children.size(); ++i) {
    const ReadNode& child = node.children[i];
    if (child.field.get() != type.field(static_cast<int>(i)).get() &&
        !child.field->Equals(*type.field(static_cast<int>(i)))) {
      fail("child " + std::to_string(i) + "'s field is not the type's");
    }
    std::vector<int32_t> child_columns;
    CheckReadNode(d, child, &child_columns, diffs);
    below.insert(below.end(), child_columns.begin(), child_columns.end());
    columns->insert(columns->end(), child_columns.begin(), child_columns.end());
  }
  if (below != node.columns) fail("columns");
}

struct Outcome {
  int matched = 0;
  int refused_by_both = 0;
  int refused_by_conversion = 0;  // of which ParquetToArrowSchema refused
  int variants = 0;
  // "file" or "file:field" -> the first difference found there.
  std::map<std::string, std::string> differences;
};

// One read of one file: ours against pyarrow's entry (schema or error).
void CompareRead(const std::string& name, const Json& expected,
                 const Result<format::FileMetaData>& footer, const ParquetToArrowOptions& options,
                 Outcome* outcome) {
  const bool pyarrow_refuses = expected["error"].kind == Json::Kind::kString;
  auto record = [&](const std::string& what) {
    if (outcome->differences.count(name) == 0) outcome->differences[name] = what;
  };
  // A field's difference is recorded under "file:top-level field" when that
  // is an expected one, else under the file.
  auto record_field = [&](const std::string& diff) {
    const std::string key = name + ":" + diff.substr(0, diff.find_first_of(".:"));
    if (kExpectedDifferences.count(key) > 0) {
      if (outcome->differences.count(key) == 0) outcome->differences[key] = diff;
    } else {
      record(diff);
    }
  };
  if (!footer.ok()) {
    if (pyarrow_refuses) return void(++outcome->refused_by_both);
    return record("footer: " + footer.status().ToString());
  }
  SchemaDescriptorOptions descriptor_options;
  descriptor_options.max_depth = 99;  // pyarrow's schema_depth_limit
  auto descriptor = SchemaDescriptor::Make(footer->schema, descriptor_options);
  if (!descriptor.ok()) {
    if (pyarrow_refuses) return void(++outcome->refused_by_both);
    return record("descriptor: " + descriptor.status().ToString());
  }
  MetadataPtr file_metadata;
  SchemaPtr origin;
  if (footer->key_value_metadata.has_value()) {
    auto kv = std::make_shared<KeyValueMetadata>();
    for (const format::KeyValue& pair : *footer->key_value_metadata) {
      kv->Append(pair.key, pair.value.value_or(""));
    }
    file_metadata = kv;
    if (auto text = kv->Get(internal::kArrowSchemaKey)) {
      auto bytes = Base64Decode(*text);
      if (bytes.ok()) {
        auto decoded = ipc::ReadSchemaMessage(reinterpret_cast<const uint8_t*>(bytes->data()),
                                              static_cast<int64_t>(bytes->size()));
        if (decoded.ok()) origin = *decoded;
      }
    }
  }
  auto result = ParquetToArrowSchema(*descriptor, file_metadata.get(), origin.get(), options);
  if (pyarrow_refuses) {
    if (result.ok())
      return record("pyarrow refuses (" + expected["error"].string + "), quiver reads it");
    if (result.status().code() != StatusCode::kInvalid)
      return record("not Invalid: " + result.status().ToString());
    ++outcome->refused_by_conversion;
    return void(++outcome->refused_by_both);
  }
  if (!result.ok()) return record("quiver refuses: " + result.status().ToString());
  std::vector<std::string> diffs = CompareSchema(expected["schema"], *result->schema);
  std::vector<int32_t> columns;
  for (size_t i = 0; i < result->fields.size(); ++i) {
    if (result->fields[i].field != result->schema->field(static_cast<int>(i)))
      diffs.push_back("field");
    CheckReadNode(*descriptor, result->fields[i], &columns, &diffs);
  }
  std::vector<int32_t> all(static_cast<size_t>(descriptor->num_columns()));
  for (int32_t c = 0; c < descriptor->num_columns(); ++c) all[static_cast<size_t>(c)] = c;
  if (columns != all) diffs.push_back("ReadNode columns do not cover the leaves in order");
  for (const std::string& diff : diffs) record_field(diff);
  if (diffs.empty()) ++outcome->matched;
}

TEST(ParquetToArrowFiles, AgreeWithPyarrow) {
  const fs::path testdata = QUIVER_TESTDATA_DIR;
  const fs::path schema_testdata = QUIVER_PARQUET_SCHEMA_TESTDATA_DIR;
  Json expected;
  ASSERT_TRUE(
      schema_test::JsonReader(schema_test::ReadFile(schema_testdata / "pyarrow_schemas.json"))
          .Read(&expected));
  const Json& files = expected["files"];
  ASSERT_EQ(files.kind, Json::Kind::kObject);

  // Every file of the folders is in the JSON.
  std::set<std::string> on_disk;
  for (const auto& [root, folder] :
       std::vector<std::pair<fs::path, std::string>>{{testdata, "parquet-testing"},
                                                     {testdata, "parquet-testing/geospatial"},
                                                     {testdata, "quiver"},
                                                     {schema_testdata, "schema_files"}}) {
    for (const auto& entry : fs::directory_iterator(root / folder)) {
      if (entry.path().extension() == ".parquet") {
        on_disk.insert(folder + "/" + entry.path().filename().string());
      }
    }
  }
  std::set<std::string> in_json;
  for (const auto& [name, _] : files.object) in_json.insert(name);
  EXPECT_EQ(on_disk, in_json) << "run testdata/dump_pyarrow_schemas.py";
  ASSERT_GT(in_json.size(), 190u);

  Outcome outcome;
  for (const auto& [name, entry] : files.object) {
    const fs::path path = (name.rfind("schema_files/", 0) == 0 ? schema_testdata : testdata) / name;
    const Result<format::FileMetaData> footer =
        schema_test::ReadFooter(schema_test::ReadFile(path));
    CompareRead(name, entry, footer, ParquetToArrowOptions{}, &outcome);
    for (const Json& variant : entry["variants"].array) {
      auto options = OptionsOf(variant["options"]);
      ASSERT_TRUE(options.ok()) << options.status();
      CompareRead(name, variant, footer, *options, &outcome);
      ++outcome.variants;
    }
  }

  for (const auto& [name, difference] : outcome.differences) {
    auto it = kExpectedDifferences.find(name);
    if (it == kExpectedDifferences.end()) {
      ADD_FAILURE() << name << ": " << difference;
    }
  }
  for (const auto& [name, reason] : kExpectedDifferences) {
    EXPECT_EQ(outcome.differences.count(name), 1u) << name << " now agrees with pyarrow: "
                                                   << "remove it from kExpectedDifferences";
  }
  std::cout << "[ cross-check ] " << files.object.size() << " files, " << outcome.variants
            << " option variants: " << outcome.matched << " reads match pyarrow, "
            << outcome.refused_by_both << " refused by both (" << outcome.refused_by_conversion
            << " by ParquetToArrowSchema), " << outcome.differences.size()
            << " expected differences\n";
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
