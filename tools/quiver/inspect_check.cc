// The conditions of `quiver inspect --check` (the table is in
// inspect_check.h), evaluated on an InspectedFile.
#include "inspect_check.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include <fmt/format.h>

#include "cli_common.h"
#include "inspect_values.h"
#include "quiver/compression/codec.h"

namespace quiver::cli {

namespace {

using format::Encoding;
using format::PageType;
using format::Type;

// What the checks need to know about one leaf column.
struct Leaf {
  std::string path;
  Type type = Type::kByteArray;
  const format::SchemaElement* element = nullptr;
  bool has_order = true;     // filterable
  bool signed_order = true;  // legacy min/max usable
};

bool IsUnsigned(const format::SchemaElement* e) {
  if (e == nullptr) return false;
  if (e->logical_type && e->logical_type->integer) return !e->logical_type->integer->is_signed;
  if (!e->converted_type) return false;
  switch (*e->converted_type) {
    case format::ConvertedType::kUint8:
    case format::ConvertedType::kUint16:
    case format::ConvertedType::kUint32:
    case format::ConvertedType::kUint64: return true;
    default: return false;
  }
}

Leaf DescribeLeaf(const InspectedFile& file, const ChunkRecord& chunk) {
  Leaf leaf;
  leaf.path = chunk.path;
  const auto& cc = file.column_chunk(chunk);
  if (cc.meta_data) leaf.type = cc.meta_data->type;
  leaf.element = file.leaf_element(chunk);
  const auto* e = leaf.element;
  if (leaf.type == Type::kInt96) {
    const auto& orders = file.metadata.column_orders;
    leaf.has_order = orders && chunk.leaf >= 0 && static_cast<size_t>(chunk.leaf) < orders->size() &&
                     (*orders)[static_cast<size_t>(chunk.leaf)].int96_timestamp_order.has_value();
  }
  if (e != nullptr) {
    if (e->converted_type == format::ConvertedType::kInterval) leaf.has_order = false;
    if (const auto& lt = e->logical_type) {
      if (lt->unknown || lt->variant || lt->geometry || lt->geography) leaf.has_order = false;
    }
  }
  switch (leaf.type) {
    case Type::kBoolean:
    case Type::kFloat:
    case Type::kDouble: leaf.signed_order = true; break;
    case Type::kInt32:
    case Type::kInt64: leaf.signed_order = !IsUnsigned(e); break;
    default: leaf.signed_order = false; break;
  }
  return leaf;
}

bool IsDataPage(PageType t) { return t == PageType::kDataPage || t == PageType::kDataPageV2; }

bool IsDictionaryEncoding(Encoding e) {
  return e == Encoding::kRleDictionary || e == Encoding::kPlainDictionary;
}

const format::Statistics* PageStatistics(const format::PageHeader& h) {
  if (h.data_page_header && h.data_page_header->statistics) return &*h.data_page_header->statistics;
  if (h.data_page_header_v2 && h.data_page_header_v2->statistics) {
    return &*h.data_page_header_v2->statistics;
  }
  return nullptr;
}

size_t LongestValue(const format::Statistics& s) {
  size_t n = 0;
  for (const auto* v : {&s.min_value, &s.max_value, &s.min, &s.max}) {
    if (v->has_value()) n = std::max(n, (*v)->size());
  }
  return n;
}

std::string Quoted(const std::string& path) { return "'" + EscapeBytes(path) + "'"; }

std::string Plural(int64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string CodecFlagValue(format::CompressionCodec c) {
  switch (c) {
    case format::CompressionCodec::kUncompressed: return "none";
    case format::CompressionCodec::kSnappy: return "snappy";
    case format::CompressionCodec::kGzip: return "gzip";
    case format::CompressionCodec::kBrotli: return "brotli";
    case format::CompressionCodec::kLz4:
    case format::CompressionCodec::kLz4Raw: return "lz4_raw";
    case format::CompressionCodec::kZstd: return "zstd";
    default: return "";  // LZO and unknown values: no writer flag
  }
}

class Checker {
 public:
  Checker(const InspectedFile& file, const Buffer& data, const CheckOptions& options,
          CheckResult* out)
      : file_(file), data_(data), options_(options), out_(out) {}

  void Run() {
    if (const int64_t n = file_.num_problems(); n > 0) {
      Add("invalid",
          fmt::format("the file has {} (`quiver inspect FILE` lists them); the first: {}",
                      Plural(n, "problem", "problems"), EscapeBytes(file_.first_problem())),
          {}, /*rewrite_fixes=*/false);
    }
    // One Leaf per column index, from the first row group that has it.
    for (const auto& group : file_.chunks) {
      for (const auto& c : group) {
        if (static_cast<size_t>(c.column) >= leaves_.size()) leaves_.resize(c.column + 1);
        if (!leaves_[c.column].has_value() && file_.column_chunk(c).meta_data) {
          leaves_[c.column] = DescribeLeaf(file_, c);
        }
      }
    }
    CheckPageIndex();
    CheckStatistics();
    CheckPages();
    CheckRowGroups();
    CheckFooter();
    CheckDictionaryFallback();
    CheckLongStatistics();
    CheckCdc();
    CheckInt96();
    CheckUncompressed();
    KeepCodecs();
    KeepRowGroupSize();
  }

 private:
  void Add(std::string id, std::string message, std::vector<std::string> fix,
           bool rewrite_fixes = true) {
    out_->findings.push_back({std::move(id), std::move(message), std::move(fix), rewrite_fixes});
  }
  void Note(std::string text) { out_->notes.push_back(std::move(text)); }

  // Calls f(chunk, meta) for every chunk with metadata.
  template <typename F>
  void ForChunks(F&& f) const {
    for (const auto& group : file_.chunks) {
      for (const auto& c : group) {
        const auto& cc = file_.column_chunk(c);
        if (cc.meta_data) f(c, cc, *cc.meta_data);
      }
    }
  }
  const Leaf* LeafOf(const ChunkRecord& c) const {
    const auto& l = leaves_[static_cast<size_t>(c.column)];
    return l ? &*l : nullptr;
  }
  std::string ColumnList(const std::set<int>& columns) const {
    std::string text;
    size_t shown = 0;
    for (int c : columns) {
      if (shown == 8) {
        text += fmt::format(", ... ({} more)", columns.size() - shown);
        break;
      }
      text += (shown++ ? ", " : "") + Quoted(leaves_[static_cast<size_t>(c)]->path);
    }
    return (columns.size() == 1 ? "column " : "columns ") + text;
  }
  size_t NumChunks() const {
    size_t n = 0;
    for (const auto& g : file_.chunks) n += g.size();
    return n;
  }

  // Whether the chunk's statistics bound its values (legacy min/max only
  // where their signed order is the type's).
  bool HasMinMax(const ChunkRecord& c, const format::ColumnMetaData& m) const {
    if (!m.statistics) return false;
    const auto& s = *m.statistics;
    return (s.min_value && s.max_value) || (LeafOf(c)->signed_order && s.min && s.max);
  }

  void CheckPageIndex() {
    std::set<int> no_offset, no_column;
    int64_t chunks_no_offset = 0, chunks_no_column = 0;
    ForChunks([&](const ChunkRecord& c, const format::ColumnChunk& cc, const format::ColumnMetaData& m) {
      if (!cc.offset_index_offset) {
        ++chunks_no_offset;
        no_offset.insert(c.column);
      }
      // Columns without an order have nothing to put in a column index, and
      // chunks without min/max are the statistics findings.
      if (!cc.column_index_offset && LeafOf(c)->has_order && HasMinMax(c, m)) {
        ++chunks_no_column;
        no_column.insert(c.column);
      }
    });
    if (chunks_no_offset == 0 && chunks_no_column == 0) return;
    std::string text;
    const size_t total = NumChunks();
    if (chunks_no_offset > 0) {
      text = fmt::format("{} of {} column chunks have no offset index ({})", chunks_no_offset,
                         total, ColumnList(no_offset));
    }
    if (chunks_no_column > 0) {
      text += fmt::format("{}{} of {} column chunks of filterable columns have no column index "
                          "({})",
                          text.empty() ? "" : "; ", chunks_no_column, total, ColumnList(no_column));
    }
    Add("no-page-index", text + ": readers cannot skip pages by their min/max or locate rows",
        {"--write-page-index"});
  }

  void CheckStatistics() {
    std::map<int, int64_t> none, no_min_max;
    std::map<int, int64_t> maybe_nan;
    std::map<int, int64_t> legacy_only;  // of no_min_max: the deprecated fields only
    ForChunks([&](const ChunkRecord& c, const format::ColumnChunk&, const format::ColumnMetaData& m) {
      const Leaf* leaf = LeafOf(c);
      if (!leaf->has_order) return;
      if (!m.statistics) {
        ++none[c.column];
        return;
      }
      const auto& s = *m.statistics;
      if (HasMinMax(c, m)) return;
      const int64_t nulls = s.null_count.value_or(-1);
      if (nulls == m.num_values) return;  // all null: nothing to bound
      const bool is_float = leaf->type == Type::kFloat || leaf->type == Type::kDouble ||
                            (leaf->element && leaf->element->logical_type &&
                             leaf->element->logical_type->float16);
      if (is_float) {
        int64_t sum = 0;
        if (s.nan_count &&
            !__builtin_add_overflow(std::max<int64_t>(nulls, 0), *s.nan_count, &sum) &&
            sum == m.num_values) {
          return;  // all NaN (or null)
        }
        if (!s.nan_count) {
          ++maybe_nan[c.column];
          return;
        }
      }
      ++no_min_max[c.column];
      if (s.min && s.max) ++legacy_only[c.column];
    });
    const size_t groups = file_.chunks.size();
    for (const auto& [column, n] : none) {
      Add("no-statistics",
          fmt::format("column {}: no statistics in {} of {} row groups (a filter on it cannot "
                      "skip row groups)",
                      Quoted(leaves_[column]->path), n, groups),
          {});
    }
    for (const auto& [column, n] : no_min_max) {
      const int64_t legacy = legacy_only.count(column) ? legacy_only[column] : 0;
      Add("no-min-max",
          fmt::format("column {}: statistics without min/max in {} of {} row groups: a filter "
                      "on it cannot skip row groups{}",
                      Quoted(leaves_[column]->path), n, groups,
                      legacy == 0 ? std::string()
                                  : fmt::format(" ({} with only the deprecated min/max, whose "
                                                "signed order readers ignore for this type)",
                                                legacy)),
          {});
    }
    for (const auto& [column, n] : maybe_nan) {
      Note(fmt::format("column {}: statistics without min/max or nan_count in {} row group(s); "
                       "not a finding: the chunks may hold only NaN",
                       Quoted(leaves_[column]->path), n));
    }
  }

  void CheckPages() {
    std::map<int, std::pair<int64_t, int64_t>> large;  // column -> (count, largest)
    std::set<int> splittable;  // columns with a large data page of several values
    std::set<int> large_dictionary;
    int64_t not_kept = 0;
    for (const auto& group : file_.chunks) {
      for (const auto& c : group) {
        not_kept += c.pages_not_kept;
        for (const auto& p : c.pages) {
          const int64_t size = p.header.uncompressed_page_size;
          if (size > kCheckMaxPageBytes) {
            auto& [count, largest] = large[c.column];
            ++count;
            largest = std::max(largest, size);
            const auto& h = p.header;
            const int64_t values = h.data_page_header     ? h.data_page_header->num_values
                                   : h.data_page_header_v2 ? h.data_page_header_v2->num_values
                                                          : 0;
            if (values > 1) splittable.insert(c.column);
            if (h.dictionary_page_header && h.dictionary_page_header->num_values > 1) {
              large_dictionary.insert(c.column);
            }
          }
        }
      }
    }
    for (const auto& [column, v] : large) {
      // A page of one value is as small as the writer can make it.
      std::vector<std::string> fix;
      if (splittable.count(column)) fix = {"--data-page-size", "1048576"};
      if (large_dictionary.count(column)) {
        fix.insert(fix.end(), {"--dictionary-pagesize-limit", "1048576"});
      }
      const bool fixable = !fix.empty();
      Add("large-page",
          fmt::format("column {}: {} over 8 MiB uncompressed (largest {} bytes): a reader holds "
                      "a whole page in memory and cannot skip within it{}",
                      Quoted(leaves_[column]->path), Plural(v.first, "page", "pages"), v.second,
                      fixable ? "" : " (each holds a single value: no page size splits it)"),
          fix, fixable);
    }
    if (not_kept > 0) {
      Note(fmt::format("{} pages beyond the ones kept (--max-pages) were not checked for size, "
                       "dictionary fallback or statistics, nor sampled",
                       not_kept));
    }
  }

  void CheckRowGroups() {
    const auto& groups = file_.metadata.row_groups;
    int64_t small = 0, smallest = 0;
    for (size_t i = 0; i + 1 < groups.size(); ++i) {
      if (groups[i].num_rows < kCheckMinRowGroupRows) {
        smallest = small == 0 ? groups[i].num_rows : std::min(smallest, groups[i].num_rows);
        ++small;
      }
    }
    if (small > 0) {
      Add("small-row-groups",
          fmt::format("{} of {} row groups hold under 10,000 rows (the smallest {}), not counting "
                      "the last: each costs a footer entry, a seek per column and its own "
                      "dictionary",
                      small, groups.size(), Plural(smallest, "row", "rows")),
          {"--row-group-size", "1048576"});
    }
    for (size_t i = 0; i < groups.size(); ++i) {
      int64_t bytes = 0;
      for (const auto& cc : groups[i].columns) {
        // Held at the int64 limit: a hostile footer's sizes may overflow.
        if (cc.meta_data && __builtin_add_overflow(bytes, cc.meta_data->total_compressed_size, &bytes)) {
          bytes = INT64_MAX;
          break;
        }
      }
      if (bytes > kCheckMaxRowGroupBytes) {
        Add("large-row-group",
            fmt::format("row group {}: {} bytes of column chunks (over 1 GiB): a reader of one row "
                        "group holds this much, and work splits no finer",
                        i, bytes),
            {"--row-group-bytes", "536870912"});
      }
    }
  }

  void CheckFooter() {
    if (file_.footer_length <= kCheckMaxFooterBytes) return;
    int64_t kv_bytes = 0, schema_bytes = 0;
    if (const auto& kv = file_.metadata.key_value_metadata) {
      for (const auto& p : *kv) {
        const int64_t n = static_cast<int64_t>(p.key.size() + (p.value ? p.value->size() : 0));
        kv_bytes += n;
        if (p.key == "ARROW:schema") schema_bytes += n;
      }
    }
    // A rewrite carries the other key/value pairs over (and ARROW:schema
    // repeats the schema's own): when they are most of the footer, no flag
    // helps.
    std::vector<std::string> fix;
    if (2 * (kv_bytes - schema_bytes) <= kCheckMaxFooterBytes) {
      if (file_.metadata.row_groups.size() > 1) fix = {"--row-group-size", "1048576"};
      if (schema_bytes * 2 > file_.footer_length) fix.push_back("--no-store-schema");
    }
    Add("large-footer",
        fmt::format("the footer is {} bytes (over 10 MiB; {} x {}, {} bytes of key/value "
                    "metadata): every reader parses all of it before the first row",
                    file_.footer_length,
                    Plural(static_cast<int64_t>(file_.metadata.row_groups.size()), "row group",
                           "row groups"),
                    Plural(static_cast<int64_t>(file_.leaves.size()), "column", "columns"),
                    kv_bytes),
        fix, /*rewrite_fixes=*/!fix.empty());
  }

  // A chunk fell back when it has a dictionary page and a data page that is
  // not dictionary-encoded. From the pages walked, else the encoding stats.
  std::optional<bool> FellBack(const ChunkRecord& c, const format::ColumnMetaData& m) const {
    if (c.pages_walked && c.pages_not_kept == 0) {
      bool dict = false, plain = false;
      for (const auto& p : c.pages) {
        if (p.header.type == PageType::kDictionaryPage) dict = true;
        if (p.header.data_page_header && !IsDictionaryEncoding(p.header.data_page_header->encoding)) {
          plain = true;
        }
        if (p.header.data_page_header_v2 &&
            !IsDictionaryEncoding(p.header.data_page_header_v2->encoding)) {
          plain = true;
        }
      }
      return dict && plain;
    }
    if (m.encoding_stats) {
      bool dict = false, plain = false;
      for (const auto& s : *m.encoding_stats) {
        if (s.page_type == PageType::kDictionaryPage && s.count > 0) dict = true;
        if (IsDataPage(s.page_type) && s.count > 0 && !IsDictionaryEncoding(s.encoding)) plain = true;
      }
      return dict && plain;
    }
    return std::nullopt;
  }

  void CheckDictionaryFallback() {
    std::map<int, std::pair<int64_t, int64_t>> per_column;  // (chunks fallen back, chunks)
    std::set<int> with_dictionary;
    ForChunks([&](const ChunkRecord& c, const format::ColumnChunk&, const format::ColumnMetaData& m) {
      auto& [fell, total] = per_column[c.column];
      ++total;
      auto f = FellBack(c, m);
      if (f.value_or(false)) ++fell;
      bool dict = m.dictionary_page_offset.has_value();
      for (const auto& p : c.pages) dict = dict || p.header.type == PageType::kDictionaryPage;
      if (dict) with_dictionary.insert(c.column);
    });
    std::set<int> all_fell;
    for (const auto& [column, v] : per_column) {
      if (v.first > 0 && v.first == v.second) {
        all_fell.insert(column);
      } else if (v.first > 0) {
        Note(fmt::format("column {}: dictionary fallback in {} of {} row groups",
                         Quoted(leaves_[column]->path), v.first, v.second));
      }
    }
    if (all_fell.empty()) return;
    // Keep the dictionary of every other column that has one.
    std::vector<std::string> keep;
    for (int c : with_dictionary) {
      if (!all_fell.count(c)) keep.push_back(leaves_[static_cast<size_t>(c)]->path);
    }
    std::vector<std::string> fix;
    if (keep.empty()) {
      fix = {"--no-dictionary"};
    } else {
      std::string list;
      for (const auto& k : keep) list += (list.empty() ? "" : ",") + k;
      fix = {"--dictionary-columns", list};
    }
    for (int column : all_fell) {
      Add("dictionary-fallback",
          fmt::format("column {}: fell back from the dictionary to other encodings in every row "
                      "group ({} of {}): the dictionary is written and read for the first pages only",
                      Quoted(leaves_[column]->path), per_column[column].first,
                      per_column[column].second),
          fix);
    }
  }

  void CheckLongStatistics() {
    std::map<int, std::pair<size_t, std::string>> longest;  // column -> (bytes, where)
    auto seen = [&](int column, size_t n, const char* where) {
      auto& [bytes, w] = longest[column];
      if (n > bytes) {
        bytes = n;
        w = where;
      }
    };
    ForChunks([&](const ChunkRecord& c, const format::ColumnChunk&, const format::ColumnMetaData& m) {
      if (m.statistics) seen(c.column, LongestValue(*m.statistics), "the footer");
      for (const auto& p : c.pages) {
        if (const auto* s = PageStatistics(p.header)) seen(c.column, LongestValue(*s), "a page header");
      }
      if (c.column_index) {
        for (const auto* list : {&c.column_index->min_values, &c.column_index->max_values}) {
          for (const auto& v : *list) seen(c.column, v.size(), "the column index");
        }
      }
    });
    for (const auto& [column, v] : longest) {
      if (static_cast<int64_t>(v.first) <= kCheckMaxStatisticsValue) continue;
      Add("long-statistics",
          fmt::format("column {}: a statistics value of {} bytes (over 64 KiB) in {}: every "
                      "reader of the footer or index loads it",
                      Quoted(leaves_[column]->path), v.first, v.second),
          {});
    }
  }

  void CheckCdc() {
    std::optional<std::string> cdc;
    if (const auto& kv = file_.metadata.key_value_metadata) {
      for (const auto& p : *kv) {
        if (p.key == kCdcFooterKey) cdc = p.value.value_or("");
      }
    }
    if (cdc) {
      Note(fmt::format("written with content-defined chunking ({} = {})", kCdcFooterKey,
                       EscapeBytes(*cdc)));
      out_->keep.push_back("--cdc");
      // The parameters, when the value is the writer's JSON.
      for (auto [key, flag] : {std::pair{"min_chunk_size", "--cdc-min-size"},
                               std::pair{"max_chunk_size", "--cdc-max-size"},
                               std::pair{"norm_level", "--cdc-norm-level"}}) {
        const std::string pattern = fmt::format("\"{}\":", key);
        const size_t at = cdc->find(pattern);
        if (at == std::string::npos) continue;
        size_t end = at + pattern.size();
        std::string digits;
        while (end < cdc->size() && ((*cdc)[end] == '-' || std::isdigit(static_cast<unsigned char>((*cdc)[end])))) {
          digits += (*cdc)[end++];
        }
        if (!digits.empty()) {
          out_->keep.push_back(flag);
          out_->keep.push_back(digits);
        }
      }
    } else if (options_.for_dedup) {
      Add("no-cdc",
          fmt::format("no content-defined chunking (no {} footer key): after an insertion or a "
                      "deletion a deduplicating store shares only the pages before the edit",
                      kCdcFooterKey),
          {"--cdc"});
    }
  }

  void CheckInt96() {
    for (size_t i = 0; i < leaves_.size(); ++i) {
      if (leaves_[i] && leaves_[i]->type == Type::kInt96) {
        Add("int96",
            fmt::format("column {}: INT96 timestamps (deprecated: no defined order, so no "
                        "usable statistics; readers convert every value)",
                        Quoted(leaves_[i]->path)),
            {});
      }
    }
  }

  void CheckUncompressed() {
    auto codec = compression::Codec::Create(compression::CompressionCodec::ZSTD, 1);
    if (!codec.ok()) return;
    struct Sample {
      int64_t bytes = 0, compressed = 0;
    };
    std::map<int, Sample> samples;
    std::vector<uint8_t> out;
    ForChunks([&](const ChunkRecord& c, const format::ColumnChunk&, const format::ColumnMetaData& m) {
      if (m.codec != format::CompressionCodec::kUncompressed) return;
      Sample& s = samples[c.column];
      for (const auto& p : c.pages) {
        if (s.bytes >= kCheckCompressionSample) break;
        const int64_t body = p.offset + p.header_size;
        const int64_t size = p.header.compressed_page_size;
        if (size <= 0 || body < 0 || body + size > data_.size()) continue;
        out.resize(static_cast<size_t>((*codec)->MaxCompressedLength(size)));
        auto n = (*codec)->Compress(data_.data() + body, size, out.data(),
                                    static_cast<int64_t>(out.size()));
        if (!n.ok()) return;
        s.bytes += size;
        s.compressed += *n;
      }
    });
    for (const auto& [column, s] : samples) {
      if (s.bytes < 4096) continue;  // too small to matter
      const double ratio = static_cast<double>(s.compressed) / static_cast<double>(s.bytes);
      if (ratio > kCheckCompressionRatio) continue;
      const std::string& path = leaves_[static_cast<size_t>(column)]->path;
      uncompressed_.insert(path);
      Add("uncompressed",
          fmt::format("column {}: stored without compression; zstd (level 1) shrinks its first "
                      "{} bytes of pages to {} ({:.2f}, at most 0.5 is a finding)",
                      Quoted(path), s.bytes, s.compressed, ratio),
          {"--compression", path + "=zstd"});
    }
  }

  // `--compression` flags that keep each column's codec (rewrite's default
  // is snappy), except for the columns a finding compresses.
  void KeepCodecs() {
    std::map<std::string, int> count;
    std::vector<std::pair<std::string, std::string>> by_column;
    for (size_t i = 0; i < leaves_.size(); ++i) {
      if (!leaves_[i]) continue;
      const ChunkRecord* first = nullptr;
      for (const auto& g : file_.chunks) {
        if (i < g.size() && file_.column_chunk(g[i]).meta_data) {
          first = &g[i];
          break;
        }
      }
      if (first == nullptr) continue;
      const auto codec = file_.column_chunk(*first).meta_data->codec;
      const std::string value = CodecFlagValue(codec);
      if (value.empty()) {
        Note(fmt::format("column {}: codec {} cannot be written by quiver; a rewrite uses snappy",
                         Quoted(leaves_[i]->path), CodecName(codec)));
        continue;
      }
      ++count[value];
      by_column.emplace_back(leaves_[i]->path, value);
    }
    if (by_column.empty()) return;
    std::string common = "snappy";
    int best = 0;
    for (const auto& [value, n] : count) {
      if (n > best) {
        best = n;
        common = value;
      }
    }
    if (common != "snappy") {
      out_->keep.push_back("--compression");
      out_->keep.push_back(common);
    }
    for (const auto& [path, value] : by_column) {
      if (value == common || uncompressed_.count(path)) continue;
      out_->keep.push_back("--compression");
      out_->keep.push_back(path + "=" + value);
    }
  }

  // The file's rows per row group (rewrite's default is 1 Mi rows): a
  // rewrite that regroups the rows can change what each chunk holds (a
  // dictionary that fitted 100,000 rows may overflow with 600,000).
  void KeepRowGroupSize() {
    const auto& groups = file_.metadata.row_groups;
    int64_t most = 0;
    for (const auto& g : groups) most = std::max(most, g.num_rows);
    const int64_t rewrite_default = 1 << 20;
    if (most > 0 && most != rewrite_default && (groups.size() > 1 || most > rewrite_default)) {
      out_->keep.push_back("--row-group-size");
      out_->keep.push_back(std::to_string(most));
    }
  }

  const InspectedFile& file_;
  const Buffer& data_;
  const CheckOptions& options_;
  CheckResult* out_;
  std::vector<std::optional<Leaf>> leaves_;  // by column index
  std::set<std::string> uncompressed_;       // columns the fix compresses
};

}  // namespace

CheckResult CheckInspectedFile(const InspectedFile& file, const Buffer& data,
                               const CheckOptions& options) {
  CheckResult result;
  result.path = file.path;
  Checker(file, data, options, &result).Run();
  return result;
}

CheckResult UnreadableResult(std::string path, std::string message) {
  CheckResult result;
  result.path = std::move(path);
  result.readable = false;
  result.findings.push_back(
      {"unreadable", "the file cannot be read as Parquet: " + message, {}, false});
  return result;
}

}  // namespace quiver::cli
