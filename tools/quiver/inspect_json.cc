// The JSON report of `quiver inspect --json`: one document with the same
// content as the text report. Field names follow parquet.thrift (snake
// case); absent optional fields are omitted; enum values are their IDL
// names. Statistics values are decoded (see inspect_values.h): numbers as
// JSON numbers, text as strings, decimals as strings with their point,
// anything else as {"hex": "..."}; the raw bytes are in min_hex / max_hex.
#include <string>

#include "cli_common.h"
#include "inspect_render.h"
#include "json_writer.h"

namespace quiver::cli {

namespace {

void WriteValue(JsonWriter* w, const DecodedValue& v) {
  switch (v.kind) {
    case DecodedValue::Kind::kBool: return w->Bool(v.b);
    case DecodedValue::Kind::kInt: return w->Int(v.i);
    case DecodedValue::Kind::kUInt: return w->UInt(v.u);
    case DecodedValue::Kind::kDouble: return w->Double(v.d);
    case DecodedValue::Kind::kString:
    case DecodedValue::Kind::kDecimal: return w->String(v.s);
    case DecodedValue::Kind::kBytes:
      w->BeginObject();
      w->Member("hex", HexBytes(v.s));
      if (v.bad_size) w->Member("bad_size", true);
      w->EndObject();
      return;
  }
}

template <typename T>
void MaybeMember(JsonWriter* w, std::string_view key, const std::optional<T>& value) {
  if (value.has_value()) w->Member(key, *value);
}

void WriteStatistics(JsonWriter* w, const format::Statistics& s, const ValueContext& context) {
  w->BeginObject();
  StatsView view = ViewStatistics(s, context);
  if (view.min) {
    w->Key("min");
    WriteValue(w, *view.min);
  }
  if (view.max) {
    w->Key("max");
    WriteValue(w, *view.max);
  }
  if (view.legacy) w->Member("legacy_min_max", true);
  const auto& min_raw = view.legacy ? s.min : s.min_value;
  const auto& max_raw = view.legacy ? s.max : s.max_value;
  if (min_raw) w->Member("min_hex", HexBytes(*min_raw));
  if (max_raw) w->Member("max_hex", HexBytes(*max_raw));
  MaybeMember(w, "is_min_value_exact", s.is_min_value_exact);
  MaybeMember(w, "is_max_value_exact", s.is_max_value_exact);
  MaybeMember(w, "null_count", s.null_count);
  MaybeMember(w, "distinct_count", s.distinct_count);
  MaybeMember(w, "nan_count", s.nan_count);
  w->EndObject();
}

}  // namespace

void WriteSchemaJson(JsonWriter* w, const InspectedFile& file) {
  w->BeginArray();
  for (const auto& node : file.schema) {
    const auto& e = file.metadata.schema[static_cast<size_t>(node.element)];
    w->BeginObject();
    w->Member("name", e.name);
    w->Member("path", node.path);
    w->Member("depth", node.depth);
    w->Member("is_leaf", node.is_leaf);
    if (e.repetition_type) w->Member("repetition_type", RepetitionName(*e.repetition_type));
    if (e.type) w->Member("type", TypeName(*e.type));
    MaybeMember(w, "type_length", e.type_length);
    MaybeMember(w, "num_children", e.num_children);
    if (e.converted_type) w->Member("converted_type", ConvertedTypeName(*e.converted_type));
    if (e.logical_type) w->Member("logical_type", LogicalTypeString(*e.logical_type));
    MaybeMember(w, "scale", e.scale);
    MaybeMember(w, "precision", e.precision);
    MaybeMember(w, "field_id", e.field_id);
    w->EndObject();
  }
  w->EndArray();
}

namespace {

void WritePage(JsonWriter* w, const PageRecord& page, const ValueContext& context) {
  const auto& h = page.header;
  w->BeginObject();
  w->Member("offset", page.offset);
  w->Member("header_size", page.header_size);
  w->Member("type", PageTypeName(h.type));
  w->Member("compressed_page_size", int64_t{h.compressed_page_size});
  w->Member("uncompressed_page_size", int64_t{h.uncompressed_page_size});
  w->Member("crc_present", h.crc.has_value());
  if (page.crc_ok.has_value()) w->Member("crc_ok", *page.crc_ok);
  if (h.data_page_header) {
    const auto& d = *h.data_page_header;
    w->Member("num_values", int64_t{d.num_values});
    w->Member("encoding", EncodingName(d.encoding));
    w->Member("definition_level_encoding", EncodingName(d.definition_level_encoding));
    w->Member("repetition_level_encoding", EncodingName(d.repetition_level_encoding));
    if (d.statistics) {
      w->Key("statistics");
      WriteStatistics(w, *d.statistics, context);
    }
  }
  if (h.data_page_header_v2) {
    const auto& d = *h.data_page_header_v2;
    w->Member("num_values", int64_t{d.num_values});
    w->Member("num_nulls", int64_t{d.num_nulls});
    w->Member("num_rows", int64_t{d.num_rows});
    w->Member("encoding", EncodingName(d.encoding));
    w->Member("definition_levels_byte_length", int64_t{d.definition_levels_byte_length});
    w->Member("repetition_levels_byte_length", int64_t{d.repetition_levels_byte_length});
    w->Member("is_compressed", d.is_compressed_or_default());
    if (d.statistics) {
      w->Key("statistics");
      WriteStatistics(w, *d.statistics, context);
    }
  }
  if (h.dictionary_page_header) {
    const auto& d = *h.dictionary_page_header;
    w->Member("num_values", int64_t{d.num_values});
    w->Member("encoding", EncodingName(d.encoding));
    MaybeMember(w, "is_sorted", d.is_sorted);
  }
  w->EndObject();
}

void WriteChunk(JsonWriter* w, const InspectedFile& file, const ChunkRecord& chunk,
                const RenderOptions& options) {
  const auto& cc = file.column_chunk(chunk);
  w->BeginObject();
  w->Member("column", chunk.column);
  w->Member("path", chunk.path);
  w->Member("file_offset", cc.file_offset);
  MaybeMember(w, "file_path", cc.file_path);
  if (cc.meta_data) {
    const auto& m = *cc.meta_data;
    const ValueContext context = ContextFor(file, chunk);
    w->Key("path_in_schema");
    w->BeginArray();
    for (const auto& p : m.path_in_schema) w->String(p);
    w->EndArray();
    w->Member("type", TypeName(m.type));
    w->Member("codec", CodecName(m.codec));
    w->Member("num_values", m.num_values);
    w->Member("total_compressed_size", m.total_compressed_size);
    w->Member("total_uncompressed_size", m.total_uncompressed_size);
    w->Member("data_page_offset", m.data_page_offset);
    MaybeMember(w, "dictionary_page_offset", m.dictionary_page_offset);
    MaybeMember(w, "index_page_offset", m.index_page_offset);
    w->Key("encodings");
    w->BeginArray();
    for (auto e : m.encodings) w->String(EncodingName(e));
    w->EndArray();
    if (m.encoding_stats) {
      w->Key("encoding_stats");
      w->BeginArray();
      for (const auto& s : *m.encoding_stats) {
        w->BeginObject();
        w->Member("page_type", PageTypeName(s.page_type));
        w->Member("encoding", EncodingName(s.encoding));
        w->Member("count", int64_t{s.count});
        w->EndObject();
      }
      w->EndArray();
    }
    if (m.statistics) {
      w->Key("statistics");
      WriteStatistics(w, *m.statistics, context);
    }
    MaybeMember(w, "bloom_filter_offset", m.bloom_filter_offset);
    MaybeMember(w, "bloom_filter_length", m.bloom_filter_length);
    if (m.size_statistics && m.size_statistics->unencoded_byte_array_data_bytes) {
      w->Member("unencoded_byte_array_data_bytes",
                *m.size_statistics->unencoded_byte_array_data_bytes);
    }
    MaybeMember(w, "column_index_offset", cc.column_index_offset);
    MaybeMember(w, "column_index_length", cc.column_index_length);
    MaybeMember(w, "offset_index_offset", cc.offset_index_offset);
    MaybeMember(w, "offset_index_length", cc.offset_index_length);
    w->Key("page_index");
    w->BeginObject();
    w->Member("has_column_index", cc.column_index_offset.has_value());
    w->Member("has_offset_index", cc.offset_index_offset.has_value());
    if (chunk.column_index) {
      w->Member("column_index_pages", static_cast<int64_t>(chunk.column_index->null_pages.size()));
      w->Member("boundary_order", BoundaryOrderName(chunk.column_index->boundary_order));
    }
    if (chunk.offset_index) {
      w->Member("offset_index_pages",
                static_cast<int64_t>(chunk.offset_index->page_locations.size()));
    }
    w->EndObject();
    if (options.show_pages && chunk.pages_walked) {
      w->Member("num_pages", static_cast<int64_t>(chunk.pages.size()) + chunk.pages_not_kept);
      if (chunk.pages_not_kept > 0) w->Member("pages_not_shown", chunk.pages_not_kept);
      w->Key("pages");
      w->BeginArray();
      for (const auto& page : chunk.pages) WritePage(w, page, context);
      w->EndArray();
    }
  }
  w->Key("problems");
  w->BeginArray();
  for (const auto& p : chunk.problems) w->String(p);
  w->EndArray();
  w->EndObject();
}

}  // namespace

std::string RenderJson(const InspectedFile& file, const RenderOptions& options) {
  std::string out;
  JsonWriter w(&out);
  const auto& meta = file.metadata;
  w.BeginObject();
  w.Member("file", file.path);
  w.Member("file_size", file.file_size);
  w.Member("footer_offset", file.footer_offset);
  w.Member("footer_length", file.footer_length);
  w.Member("version", meta.version);
  MaybeMember(&w, "created_by", meta.created_by);
  w.Member("num_rows", meta.num_rows);
  w.Member("num_row_groups", static_cast<int64_t>(meta.row_groups.size()));
  w.Member("num_columns", static_cast<int64_t>(file.leaves.size()));
  w.Key("key_value_metadata");
  w.BeginArray();
  if (meta.key_value_metadata) {
    for (const auto& kv : *meta.key_value_metadata) {
      w.BeginObject();
      w.Member("key", kv.key);
      if (kv.value) {
        w.Member("value_size", static_cast<int64_t>(kv.value->size()));
        if (kv.key == "ARROW:schema") {
          w.Member("value", "<" + std::to_string(kv.value->size()) + " bytes>");
        } else {
          w.Member("value", *kv.value);
        }
      } else {
        w.Key("value");
        w.Null();
      }
      w.EndObject();
    }
  }
  w.EndArray();
  w.Key("schema");
  WriteSchemaJson(&w, file);
  w.Key("row_groups");
  w.BeginArray();
  for (size_t rg = 0; rg < meta.row_groups.size(); ++rg) {
    const auto& g = meta.row_groups[rg];
    w.BeginObject();
    w.Member("index", static_cast<int64_t>(rg));
    w.Member("num_rows", g.num_rows);
    w.Member("total_byte_size", g.total_byte_size);
    MaybeMember(&w, "total_compressed_size", g.total_compressed_size);
    MaybeMember(&w, "file_offset", g.file_offset);
    if (g.ordinal) w.Member("ordinal", int64_t{*g.ordinal});
    if (g.sorting_columns) {
      w.Key("sorting_columns");
      w.BeginArray();
      for (const auto& s : *g.sorting_columns) {
        w.BeginObject();
        w.Member("column_idx", s.column_idx);
        w.Member("descending", s.descending);
        w.Member("nulls_first", s.nulls_first);
        w.EndObject();
      }
      w.EndArray();
    }
    w.Key("columns");
    w.BeginArray();
    if (rg < file.chunks.size()) {
      for (const auto& chunk : file.chunks[rg]) WriteChunk(&w, file, chunk, options);
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("problems");
  w.BeginArray();
  for (const auto& p : file.problems) w.String(p);
  w.EndArray();
  w.Member("num_problems", file.num_problems());
  w.EndObject();
  return out;
}

}  // namespace quiver::cli
