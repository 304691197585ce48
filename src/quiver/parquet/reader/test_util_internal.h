// Hand-made Parquet files for the reader's tests: pages with any header and
// any bytes (hostile ones included), chunks and a footer laid out as a
// writer would, with offsets and sizes filled in unless a test sets them.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet::testing {

struct TestPage {
  format::PageHeader header;
  std::string body;
};

struct TestChunk {
  std::vector<TestPage> pages;
  // type, codec, path_in_schema, encodings; offsets and sizes are filled in.
  format::ColumnMetaData meta;
  // Keep the meta's offsets and sizes as given (for tests of bad ones).
  bool keep_offsets = false;
};

struct TestRowGroup {
  std::vector<TestChunk> chunks;
  int64_t num_rows = 0;
};

inline std::string SerializeThrift(const auto& value) {
  std::string out;
  thrift::CompactWriter writer(&out);
  Status st = value.Write(&writer);
  if (!st.ok()) st.Abort("SerializeThrift");
  return out;
}

// "PAR1", the chunks' pages, the FileMetaData, its length, "PAR1".
inline std::string MakeParquetFile(const std::vector<format::SchemaElement>& schema,
                                   std::vector<TestRowGroup> row_groups,
                                   const std::vector<format::KeyValue>& key_values = {}) {
  std::string file = "PAR1";
  format::FileMetaData metadata;
  metadata.version = 1;
  metadata.schema = schema;
  for (TestRowGroup& group : row_groups) {
    format::RowGroup rg;
    rg.num_rows = group.num_rows;
    metadata.num_rows += group.num_rows;
    for (TestChunk& chunk : group.chunks) {
      format::ColumnChunk cc;
      format::ColumnMetaData meta = chunk.meta;
      const int64_t start = static_cast<int64_t>(file.size());
      int64_t values = 0;
      bool first_data = true;
      for (const TestPage& page : chunk.pages) {
        const int64_t offset = static_cast<int64_t>(file.size());
        if (page.header.type == format::PageType::kDictionaryPage) {
          meta.dictionary_page_offset = offset;
        } else if (first_data) {
          meta.data_page_offset = offset;
          first_data = false;
        }
        if (page.header.data_page_header.has_value()) values += page.header.data_page_header->num_values;
        if (page.header.data_page_header_v2.has_value()) {
          values += page.header.data_page_header_v2->num_values;
        }
        file += SerializeThrift(page.header);
        file += page.body;
      }
      if (!chunk.keep_offsets) {
        meta.num_values = values;
        meta.total_compressed_size = static_cast<int64_t>(file.size()) - start;
        meta.total_uncompressed_size = meta.total_compressed_size;
        if (first_data) meta.data_page_offset = start;
      } else {
        meta = chunk.meta;
      }
      rg.total_byte_size += meta.total_uncompressed_size;
      cc.file_offset = start;
      cc.meta_data = meta;
      rg.columns.push_back(std::move(cc));
    }
    metadata.row_groups.push_back(std::move(rg));
  }
  if (!key_values.empty()) metadata.key_value_metadata = key_values;
  const std::string footer = SerializeThrift(metadata);
  file += footer;
  const uint32_t length = static_cast<uint32_t>(footer.size());
  char le[4];
  std::memcpy(le, &length, 4);
  file.append(le, 4);
  file += "PAR1";
  return file;
}

// Schema helpers.
inline format::SchemaElement Root(int children) {
  format::SchemaElement e;
  e.name = "schema";
  e.num_children = children;
  return e;
}
inline format::SchemaElement Leaf(std::string name, format::Type type,
                                  format::FieldRepetitionType repetition) {
  format::SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = repetition;
  return e;
}
inline format::SchemaElement Group(std::string name, int children,
                                   format::FieldRepetitionType repetition) {
  format::SchemaElement e;
  e.name = std::move(name);
  e.num_children = children;
  e.repetition_type = repetition;
  return e;
}

// A v1 data page: the body as given (levels and values already encoded).
inline TestPage DataPageV1(int32_t num_values, std::string body,
                           format::Encoding encoding = format::Encoding::kPlain) {
  TestPage page;
  page.header.type = format::PageType::kDataPage;
  page.header.uncompressed_page_size = static_cast<int32_t>(body.size());
  page.header.compressed_page_size = static_cast<int32_t>(body.size());
  format::DataPageHeader h;
  h.num_values = num_values;
  h.encoding = encoding;
  h.definition_level_encoding = format::Encoding::kRle;
  h.repetition_level_encoding = format::Encoding::kRle;
  page.header.data_page_header = h;
  page.body = std::move(body);
  return page;
}

inline TestPage DataPageV2(int32_t num_values, int32_t num_nulls, int32_t num_rows,
                           std::string rep, std::string def, std::string values,
                           format::Encoding encoding = format::Encoding::kPlain) {
  TestPage page;
  page.header.type = format::PageType::kDataPageV2;
  page.body = rep + def + values;
  page.header.uncompressed_page_size = static_cast<int32_t>(page.body.size());
  page.header.compressed_page_size = static_cast<int32_t>(page.body.size());
  format::DataPageHeaderV2 h;
  h.num_values = num_values;
  h.num_nulls = num_nulls;
  h.num_rows = num_rows;
  h.encoding = encoding;
  h.repetition_levels_byte_length = static_cast<int32_t>(rep.size());
  h.definition_levels_byte_length = static_cast<int32_t>(def.size());
  h.is_compressed = false;
  page.header.data_page_header_v2 = h;
  return page;
}

inline TestPage DictionaryPage(int32_t num_values, std::string body) {
  TestPage page;
  page.header.type = format::PageType::kDictionaryPage;
  page.header.uncompressed_page_size = static_cast<int32_t>(body.size());
  page.header.compressed_page_size = static_cast<int32_t>(body.size());
  format::DictionaryPageHeader h;
  h.num_values = num_values;
  h.encoding = format::Encoding::kPlain;
  page.header.dictionary_page_header = h;
  page.body = std::move(body);
  return page;
}

// Encodings of small test values.
inline std::string PlainInt32(const std::vector<int32_t>& values) {
  std::string out(values.size() * 4, '\0');
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}
inline std::string PlainByteArray(const std::vector<std::string>& values) {
  std::string out;
  for (const std::string& v : values) {
    const uint32_t n = static_cast<uint32_t>(v.size());
    char le[4];
    std::memcpy(le, &n, 4);
    out.append(le, 4);
    out += v;
  }
  return out;
}
// An RLE run of `count` copies of `value` (bit width <= 8), without and with
// the v1 4-byte length prefix.
inline std::string RleRun(uint32_t count, uint8_t value, int bit_width) {
  std::string out;
  uint32_t header = count << 1;
  while (header >= 0x80) {
    out.push_back(static_cast<char>((header & 0x7F) | 0x80));
    header >>= 7;
  }
  out.push_back(static_cast<char>(header));
  if (bit_width > 0) out.push_back(static_cast<char>(value));
  return out;
}
inline std::string WithLengthPrefix(const std::string& levels) {
  const uint32_t n = static_cast<uint32_t>(levels.size());
  char le[4];
  std::memcpy(le, &n, 4);
  return std::string(le, 4) + levels;
}

inline format::ColumnMetaData ChunkMeta(format::Type type, std::vector<std::string> path,
                                        format::CompressionCodec codec =
                                            format::CompressionCodec::kUncompressed) {
  format::ColumnMetaData meta;
  meta.type = type;
  meta.path_in_schema = std::move(path);
  meta.codec = codec;
  meta.encodings = {format::Encoding::kPlain, format::Encoding::kRle};
  return meta;
}

}  // namespace quiver::parquet::testing
