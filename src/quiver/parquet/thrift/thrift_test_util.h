// Test helpers for the thrift module (header-only, used by *_test.cc only):
// a realistic footer builder and a generic filler that sets every member of
// any generated struct through ForEachField.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "quiver/parquet/thrift/parquet_types_internal.h"

namespace quiver::parquet::format::testing {

// splitmix64: small, seeded, good enough to vary test values.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t Uniform(uint64_t n) { return Next() % n; }

 private:
  uint64_t state_;
};

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};

// Fills a generated struct. With set_optionals, every optional member is set
// and every list has at least one element; without, only required members
// are. A union gets exactly one member set when set_optionals is true (the
// `union_choice`-th one for the outermost union, random ones inside).
class Filler {
 public:
  Filler(uint64_t seed, bool set_optionals, int union_choice = -1)
      : rng_(seed), set_optionals_(set_optionals), union_choice_(union_choice) {}

  template <typename T>
  void Fill(T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      value = (rng_.Next() & 1) != 0;
    } else if constexpr (std::is_integral_v<T>) {
      // Mix small and extreme values: both varint lengths and zigzag signs.
      const uint64_t r = rng_.Next();
      value = (r & 3) == 0 ? static_cast<T>(r >> 2) : static_cast<T>(static_cast<int64_t>(r) % 300);
    } else if constexpr (std::is_floating_point_v<T>) {
      value = static_cast<double>(static_cast<int64_t>(rng_.Next() >> 11)) / 7.0 - 1e15;
    } else if constexpr (std::is_enum_v<T>) {
      value = static_cast<T>(rng_.Uniform(10));
    } else if constexpr (std::is_same_v<T, std::string>) {
      value.clear();
      const size_t n = rng_.Uniform(20);
      for (size_t i = 0; i < n; ++i) value.push_back(static_cast<char>(rng_.Next()));
    } else if constexpr (IsOptional<T>::value) {
      if (set_optionals_) {
        Fill(value.emplace());
      } else {
        value.reset();
      }
    } else if constexpr (IsVector<T>::value) {
      value.clear();
      const size_t n = (set_optionals_ ? 1 : 0) + rng_.Uniform(set_optionals_ ? 20 : 3);
      for (size_t i = 0; i < n; ++i) {
        typename T::value_type element{};
        Fill(element);
        value.push_back(std::move(element));
      }
    } else if constexpr (T::kIsUnion) {
      value = T();
      int members = 0;
      value.ForEachField([&](int16_t, std::string_view, auto&) { ++members; });
      if (!set_optionals_ || members == 0) return;
      int choice = union_choice_ >= 0 ? union_choice_ % members
                                      : static_cast<int>(rng_.Uniform(members));
      union_choice_ = -1;
      int index = 0;
      value.ForEachField([&](int16_t, std::string_view, auto& member) {
        if (index++ == choice) Fill(member.emplace());
      });
    } else {
      if (!set_optionals_) union_choice_ = -1;
      value.ForEachField([&](int16_t, std::string_view, auto& member) { Fill(member); });
    }
  }

 private:
  Rng rng_;
  bool set_optionals_;
  int union_choice_;
};

// A footer shaped like a real writer's: a flat schema of `num_columns`
// leaves of varied types, `num_row_groups` row groups whose column chunks
// carry full ColumnMetaData (statistics, encodings, encoding_stats, page
// index offsets, size statistics), key/value metadata and column orders.
inline FileMetaData MakeFileMetaData(int num_columns, int num_row_groups) {
  FileMetaData md;
  md.version = 1;
  md.created_by = "quiver version 0.1.0 (build test)";
  SchemaElement root;
  root.name = "schema";
  root.num_children = num_columns;
  md.schema.push_back(root);
  static const Type kTypes[] = {Type::kInt32, Type::kInt64, Type::kDouble, Type::kByteArray,
                                Type::kBoolean, Type::kFixedLenByteArray};
  for (int i = 0; i < num_columns; ++i) {
    SchemaElement leaf;
    leaf.name = "column_" + std::to_string(i);
    leaf.type = kTypes[i % 6];
    leaf.repetition_type = i % 3 == 0 ? FieldRepetitionType::kRequired
                                      : FieldRepetitionType::kOptional;
    leaf.field_id = i;
    if (*leaf.type == Type::kByteArray) {
      leaf.converted_type = ConvertedType::kUtf8;
      leaf.logical_type.emplace().string.emplace();
    } else if (*leaf.type == Type::kInt64 && i % 4 == 1) {
      auto& ts = leaf.logical_type.emplace().timestamp.emplace();
      ts.is_adjusted_to_utc = true;
      ts.unit.micros.emplace();
    } else if (*leaf.type == Type::kFixedLenByteArray) {
      leaf.type_length = 16;
      leaf.logical_type.emplace().decimal = DecimalType{4, 30};
      leaf.scale = 4;
      leaf.precision = 30;
    }
    md.schema.push_back(std::move(leaf));
  }
  int64_t offset = 4;
  for (int g = 0; g < num_row_groups; ++g) {
    RowGroup rg;
    rg.num_rows = 100'000;
    rg.file_offset = offset;
    rg.ordinal = static_cast<int16_t>(g);
    int64_t group_bytes = 0;
    for (int i = 0; i < num_columns; ++i) {
      ColumnChunk chunk;
      chunk.file_offset = 0;
      ColumnMetaData& cmd = chunk.meta_data.emplace();
      cmd.type = *md.schema[static_cast<size_t>(i) + 1].type;
      cmd.encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
      cmd.path_in_schema = {md.schema[static_cast<size_t>(i) + 1].name};
      cmd.codec = CompressionCodec::kSnappy;
      cmd.num_values = 100'000;
      cmd.total_uncompressed_size = 400'000 + i;
      cmd.total_compressed_size = 123'456 + i;
      cmd.dictionary_page_offset = offset;
      cmd.data_page_offset = offset + 1'000;
      Statistics& stats = cmd.statistics.emplace();
      stats.null_count = i % 7;
      stats.min_value = std::string("\x01\x00\x00\x00\x00\x00\x00\x00", 8);
      stats.max_value = std::string("\xff\xff\xff\x7f\x00\x00\x00\x00", 8);
      stats.is_min_value_exact = true;
      stats.is_max_value_exact = i % 2 == 0;
      cmd.encoding_stats = std::vector<PageEncodingStats>{
          {PageType::kDictionaryPage, Encoding::kPlain, 1},
          {PageType::kDataPage, Encoding::kRleDictionary, 5}};
      cmd.size_statistics.emplace().definition_level_histogram = std::vector<int64_t>{
          i % 7, 100'000 - i % 7};
      chunk.offset_index_offset = 10'000'000 + int64_t{i} * 64;
      chunk.offset_index_length = 40;
      chunk.column_index_offset = 20'000'000 + int64_t{i} * 64;
      chunk.column_index_length = 50;
      offset += cmd.total_compressed_size;
      group_bytes += cmd.total_uncompressed_size;
      rg.columns.push_back(std::move(chunk));
    }
    rg.total_byte_size = group_bytes;
    rg.total_compressed_size = offset - *rg.file_offset;
    md.num_rows += rg.num_rows;
    md.row_groups.push_back(std::move(rg));
  }
  md.key_value_metadata = std::vector<KeyValue>{{"ARROW:schema", std::string(200, 'A')},
                                                {"writer.note", std::nullopt}};
  auto& orders = md.column_orders.emplace();
  orders.resize(static_cast<size_t>(num_columns));
  for (auto& order : orders) order.type_order.emplace();
  return md;
}

}  // namespace quiver::parquet::format::testing
