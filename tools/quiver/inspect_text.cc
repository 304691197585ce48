// The text report of `quiver inspect`: key/value lines for the file, then
// aligned tables for the schema and for the pages of every column chunk.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli_common.h"
#include "inspect_render.h"
#include "text_table.h"

namespace quiver::cli {

namespace {

template <typename T>
std::string Opt(const std::optional<T>& v) {
  return v.has_value() ? fmt::format("{}", *v) : "-";
}

void Line(std::string* out, size_t indent, std::string_view key, std::string_view value) {
  fmt::format_to(std::back_inserter(*out), "{}{:<15} {}\n", std::string(indent, ' '), key, value);
}

std::string StatisticsText(const format::Statistics& s, const ValueContext& context) {
  std::vector<std::string> parts;
  StatsView view = ViewStatistics(s, context);
  const char* prefix = view.legacy ? "legacy " : "";
  if (view.min) {
    parts.push_back(fmt::format("{}min {}{}", prefix, ValueText(*view.min),
                                s.is_min_value_exact == false ? " (inexact)" : ""));
  }
  if (view.max) {
    parts.push_back(fmt::format("{}max {}{}", prefix, ValueText(*view.max),
                                s.is_max_value_exact == false ? " (inexact)" : ""));
  }
  if (s.null_count) parts.push_back(fmt::format("nulls {}", *s.null_count));
  if (s.distinct_count) parts.push_back(fmt::format("distinct {}", *s.distinct_count));
  if (s.nan_count) parts.push_back(fmt::format("nans {}", *s.nan_count));
  if (parts.empty()) return "none";
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : "") + parts[i];
  return text;
}

}  // namespace

void RenderSchemaText(const InspectedFile& file, std::string* out) {
  TextTable table({"name", "repetition", "type", "length", "logical", "converted", "field_id"},
                  "lllrllr");
  for (const auto& node : file.schema) {
    const auto& e = file.metadata.schema[static_cast<size_t>(node.element)];
    std::string name = std::string(2 * static_cast<size_t>(node.depth), ' ') + EscapeBytes(e.name);
    std::string type = e.type ? TypeName(*e.type) : (node.is_leaf ? "?" : "group");
    std::string converted = e.converted_type ? ConvertedTypeName(*e.converted_type) : "";
    if (e.converted_type == format::ConvertedType::kDecimal) {
      converted += fmt::format("({}, {})", Opt(e.precision), Opt(e.scale));
    }
    table.Add({name, e.repetition_type ? RepetitionName(*e.repetition_type) : "",
               type, e.type_length ? std::to_string(*e.type_length) : "",
               e.logical_type ? LogicalTypeString(*e.logical_type) : "", converted,
               e.field_id ? std::to_string(*e.field_id) : ""});
  }
  table.Render(out, 2);
}

namespace {

void RenderPages(const ChunkRecord& chunk, const ValueContext& context, std::string* out) {
  fmt::format_to(std::back_inserter(*out), "    pages ({}):\n",
                 static_cast<int64_t>(chunk.pages.size()) + chunk.pages_not_kept);
  TextTable table({"#", "offset", "type", "encoding", "values", "nulls", "rows", "header",
                   "compressed", "uncompressed", "crc", "statistics"},
                  "rrllrrrrrrll");
  int64_t index = 0;
  for (const auto& page : chunk.pages) {
    const auto& h = page.header;
    std::string encoding = "-", values = "-", nulls = "-", rows = "-", stats;
    if (h.type == format::PageType::kDataPage && h.data_page_header) {
      const auto& d = *h.data_page_header;
      encoding = EncodingName(d.encoding);
      values = std::to_string(d.num_values);
      if (d.statistics) stats = StatisticsText(*d.statistics, context);
    } else if (h.type == format::PageType::kDataPageV2 && h.data_page_header_v2) {
      const auto& d = *h.data_page_header_v2;
      encoding = EncodingName(d.encoding);
      values = std::to_string(d.num_values);
      nulls = std::to_string(d.num_nulls);
      rows = std::to_string(d.num_rows);
      if (!d.is_compressed_or_default()) encoding += " (uncompressed)";
      if (d.statistics) stats = StatisticsText(*d.statistics, context);
    } else if (h.type == format::PageType::kDictionaryPage && h.dictionary_page_header) {
      encoding = EncodingName(h.dictionary_page_header->encoding);
      values = std::to_string(h.dictionary_page_header->num_values);
    }
    std::string crc = "-";
    if (h.crc) {
      crc = page.crc_ok.has_value() ? (*page.crc_ok ? "ok" : "BAD") : "present";
    }
    table.Add({std::to_string(index++), std::to_string(page.offset), PageTypeName(h.type),
               encoding, values, nulls, rows, std::to_string(page.header_size),
               std::to_string(h.compressed_page_size), std::to_string(h.uncompressed_page_size),
               crc, stats});
  }
  table.Render(out, 6);
  if (chunk.pages_not_kept > 0) {
    fmt::format_to(std::back_inserter(*out), "      ... {} more pages (see --max-pages)\n",
                   chunk.pages_not_kept);
  }
}

void RenderChunk(const InspectedFile& file, const ChunkRecord& chunk, const RenderOptions& options,
                 std::string* out) {
  const auto& cc = file.column_chunk(chunk);
  fmt::format_to(std::back_inserter(*out), "\n  column {} '{}'", chunk.column,
                 EscapeBytes(chunk.path));
  if (!cc.meta_data.has_value()) {
    *out += ": no metadata\n";
  } else {
    const auto& m = *cc.meta_data;
    const ValueContext context = ContextFor(file, chunk);
    fmt::format_to(std::back_inserter(*out), ": {} {}, {} values, {} bytes compressed, {} uncompressed\n",
                   TypeName(m.type), CodecName(m.codec), m.num_values, m.total_compressed_size,
                   m.total_uncompressed_size);
    std::string offsets = fmt::format("data page {}", m.data_page_offset);
    if (m.dictionary_page_offset) offsets += fmt::format(", dictionary page {}", *m.dictionary_page_offset);
    if (m.index_page_offset) offsets += fmt::format(", index page {}", *m.index_page_offset);
    if (cc.file_offset != 0) offsets += fmt::format(", file_offset {}", cc.file_offset);
    Line(out, 4, "offsets", offsets);
    std::string encodings;
    for (size_t i = 0; i < m.encodings.size(); ++i) {
      encodings += (i ? ", " : "") + EncodingName(m.encodings[i]);
    }
    Line(out, 4, "encodings", encodings.empty() ? "-" : encodings);
    if (m.encoding_stats) {
      std::string text;
      for (size_t i = 0; i < m.encoding_stats->size(); ++i) {
        const auto& s = (*m.encoding_stats)[i];
        text += fmt::format("{}{} {} x{}", i ? ", " : "", PageTypeName(s.page_type),
                            EncodingName(s.encoding), s.count);
      }
      Line(out, 4, "encoding stats", text);
    }
    Line(out, 4, "statistics", m.statistics ? StatisticsText(*m.statistics, context) : "none");
    std::string index;
    if (cc.column_index_offset) {
      index += fmt::format("column index at {} (+{})", *cc.column_index_offset,
                           Opt(cc.column_index_length));
      if (chunk.column_index) {
        index += fmt::format(": {} pages, {}", chunk.column_index->null_pages.size(),
                             BoundaryOrderName(chunk.column_index->boundary_order));
      }
    }
    if (cc.offset_index_offset) {
      index += fmt::format("{}offset index at {} (+{})", index.empty() ? "" : "; ",
                           *cc.offset_index_offset, Opt(cc.offset_index_length));
      if (chunk.offset_index) {
        index += fmt::format(": {} pages", chunk.offset_index->page_locations.size());
      }
    }
    Line(out, 4, "page index", index.empty() ? "none" : index);
    if (m.bloom_filter_offset) {
      Line(out, 4, "bloom filter",
           fmt::format("at {} (+{})", *m.bloom_filter_offset, Opt(m.bloom_filter_length)));
    }
    if (options.show_pages && chunk.pages_walked) RenderPages(chunk, context, out);
  }
  for (const auto& p : chunk.problems) {
    fmt::format_to(std::back_inserter(*out), "    PROBLEM: {}\n", EscapeBytes(p));
  }
}

}  // namespace

std::string RenderText(const InspectedFile& file, const RenderOptions& options) {
  std::string out;
  const auto& meta = file.metadata;
  Line(&out, 0, "file", EscapeBytes(file.path));
  Line(&out, 0, "file size", fmt::format("{} bytes ({})", file.file_size, HumanBytes(file.file_size)));
  Line(&out, 0, "footer", fmt::format("{} bytes at offset {}", file.footer_length, file.footer_offset));
  Line(&out, 0, "version", std::to_string(meta.version));
  Line(&out, 0, "created_by", meta.created_by ? EscapeBytes(*meta.created_by) : "-");
  Line(&out, 0, "num_rows", std::to_string(meta.num_rows));
  Line(&out, 0, "row groups", std::to_string(meta.row_groups.size()));
  Line(&out, 0, "leaf columns", std::to_string(file.leaves.size()));
  if (meta.key_value_metadata && !meta.key_value_metadata->empty()) {
    out += "key/value metadata:\n";
    TextTable table({"key", "value"}, "ll");
    for (const auto& kv : *meta.key_value_metadata) {
      std::string value;
      if (!kv.value) {
        value = "(null)";
      } else if (kv.key == "ARROW:schema" || kv.value->size() > 80) {
        value = fmt::format("<{} bytes>", kv.value->size());
      } else {
        value = EscapeBytes(*kv.value);
      }
      table.Add({EscapeBytes(kv.key), value});
    }
    table.Render(&out, 2);
  }
  out += '\n';
  out += "schema:\n";
  RenderSchemaText(file, &out);
  for (size_t rg = 0; rg < meta.row_groups.size(); ++rg) {
    const auto& g = meta.row_groups[rg];
    fmt::format_to(std::back_inserter(out), "\nrow group {}: {} rows, {} bytes", rg, g.num_rows,
                   g.total_byte_size);
    if (g.total_compressed_size) fmt::format_to(std::back_inserter(out), ", {} compressed", *g.total_compressed_size);
    if (g.file_offset) fmt::format_to(std::back_inserter(out), ", file offset {}", *g.file_offset);
    if (g.ordinal) fmt::format_to(std::back_inserter(out), ", ordinal {}", *g.ordinal);
    out += '\n';
    if (g.sorting_columns && !g.sorting_columns->empty()) {
      std::string text;
      for (size_t i = 0; i < g.sorting_columns->size(); ++i) {
        const auto& s = (*g.sorting_columns)[i];
        text += fmt::format("{}column {} {} nulls {}", i ? ", " : "", s.column_idx,
                            s.descending ? "desc" : "asc", s.nulls_first ? "first" : "last");
      }
      Line(&out, 2, "sorted by", text);
    }
    if (rg < file.chunks.size()) {
      for (const auto& chunk : file.chunks[rg]) RenderChunk(file, chunk, options, &out);
    }
  }
  if (!file.problems.empty()) {
    out += "\nproblems:\n";
    for (const auto& p : file.problems) fmt::format_to(std::back_inserter(out), "  {}\n", EscapeBytes(p));
  }
  const int64_t n = file.num_problems();
  out += n == 0 ? "\nno problems found\n" : fmt::format("\n{} problem{} found\n", n, n == 1 ? "" : "s");
  return out;
}

}  // namespace quiver::cli
