#include "convert_options.h"

#include <charconv>
#include <cstdlib>
#include <string_view>

#include <CLI/CLI.hpp>

#include "quiver/compression/codec.h"

namespace quiver::cli {

namespace {

using parquet::WriterOptions;

// Splits "COLUMN=VALUE" at the last '=' (codec, level and encoding values
// never contain one; column names might). No '=' gives an empty column.
struct Assignment {
  std::string column;
  std::string value;
  bool has_column = false;
};
Assignment SplitAssignment(const std::string& text) {
  size_t eq = text.rfind('=');
  if (eq == std::string::npos) return {"", text, false};
  return {text.substr(0, eq), text.substr(eq + 1), true};
}

std::vector<std::string> SplitColons(std::string_view text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t colon = text.find(':', start);
    parts.emplace_back(text.substr(start, colon == std::string_view::npos ? colon : colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return parts;
}

template <typename T>
Result<T> ParseInteger(std::string_view text, std::string_view what) {
  T value{};
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) {
    return Status::Invalid(what, ": '", text, "' is not an integer");
  }
  return value;
}

Result<double> ParseDouble(const std::string& text, std::string_view what) {
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) {
    return Status::Invalid(what, ": '", text, "' is not a number");
  }
  return value;
}

Status CheckColumn(const Assignment& a, const std::string& text, std::string_view flag) {
  if (a.has_column && a.column.empty()) {
    return Status::Invalid(flag, " '", text, "': the column name before '=' is empty");
  }
  return Status::OK();
}

Status ApplyCompression(const WriterFlags& flags, WriterOptions* options) {
  for (const auto& text : flags.compression) {
    Assignment a = SplitAssignment(text);
    QUIVER_RETURN_NOT_OK(CheckColumn(a, text, "--compression"));
    auto codec = compression::ParseCompression(a.value);
    if (!codec.ok()) return codec.status().WithContext("--compression: ");
    if (a.has_column) {
      options->compression.by_column[a.column] = *codec;
    } else {
      options->compression.default_value = *codec;
    }
  }
  for (const auto& text : flags.compression_level) {
    Assignment a = SplitAssignment(text);
    QUIVER_RETURN_NOT_OK(CheckColumn(a, text, "--compression-level"));
    QUIVER_ASSIGN_OR_RAISE(int level, ParseInteger<int>(a.value, "--compression-level"));
    if (a.has_column) {
      options->compression_level.by_column[a.column] = level;
    } else {
      options->compression_level.default_value = level;
    }
  }
  return Status::OK();
}

// A bool option given as "off for all" and/or "on for these columns"
// (pyarrow's `True`/`False`/list of names).
void ApplyColumnList(bool all_off, const std::vector<std::string>& columns,
                     parquet::PerColumn<bool>* option) {
  if (all_off) option->default_value = false;
  if (!columns.empty()) {
    option->default_value = false;
    for (const auto& c : columns) option->by_column[c] = true;
  }
}

Status ApplyBloomFilters(const WriterFlags& flags, WriterOptions* options) {
  for (const auto& text : flags.bloom_filter) {
    std::vector<std::string> parts = SplitColons(text);
    if (parts.size() > 3 || parts[0].empty()) {
      return Status::Invalid("--bloom-filter '", text, "': expected COLUMN[:NDV[:FPP]]");
    }
    parquet::BloomFilterOptions bloom;
    if (parts.size() >= 2) {
      QUIVER_ASSIGN_OR_RAISE(bloom.ndv, ParseInteger<int64_t>(parts[1], "--bloom-filter NDV"));
    }
    if (parts.size() == 3) {
      QUIVER_ASSIGN_OR_RAISE(bloom.fpp, ParseDouble(parts[2], "--bloom-filter FPP"));
    }
    if (parts[0] == "*") {
      options->bloom_filter.default_value = bloom;
    } else {
      options->bloom_filter.by_column[parts[0]] = bloom;
    }
  }
  return Status::OK();
}

Status ApplySortingColumns(const WriterFlags& flags, WriterOptions* options) {
  for (const auto& text : flags.sorting_column) {
    std::vector<std::string> parts = SplitColons(text);
    parquet::SortingColumn sc;
    QUIVER_ASSIGN_OR_RAISE(sc.column_index,
                           ParseInteger<int32_t>(parts[0], "--sorting-column INDEX"));
    if (sc.column_index < 0) {
      return Status::Invalid("--sorting-column '", text, "': the column index must be >= 0");
    }
    for (size_t i = 1; i < parts.size(); ++i) {
      const std::string& p = parts[i];
      if (p == "desc" || p == "descending") {
        sc.descending = true;
      } else if (p == "asc" || p == "ascending") {
        sc.descending = false;
      } else if (p == "nulls_first") {
        sc.nulls_first = true;
      } else if (p == "nulls_last") {
        sc.nulls_first = false;
      } else {
        return Status::Invalid("--sorting-column '", text, "': unknown part '", p,
                               "' (expected desc, asc, nulls_first or nulls_last)");
      }
    }
    options->sorting_columns.push_back(sc);
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<SortByKey>> ParseSortBy(const std::vector<std::string>& texts) {
  std::vector<SortByKey> keys;
  for (const auto& text : texts) {
    SortByKey key;
    std::string rest = text;
    bool order_seen = false, nulls_seen = false;
    while (true) {
      const size_t colon = rest.rfind(':');
      if (colon == std::string::npos) break;
      const std::string part = rest.substr(colon + 1);
      if (!order_seen && (part == "asc" || part == "desc")) {
        key.descending = part == "desc";
        order_seen = true;
      } else if (!nulls_seen && (part == "nulls_first" || part == "nulls_last")) {
        key.nulls_first = part == "nulls_first";
        nulls_seen = true;
      } else {
        break;
      }
      rest.resize(colon);
    }
    if (rest.empty()) {
      return Status::Invalid("--sort-by '", text,
                             "': expected COL[:asc|:desc][:nulls_first|:nulls_last]");
    }
    key.column = rest;
    keys.push_back(std::move(key));
  }
  return keys;
}

void AddWriterFlags(CLI::App* cmd, WriterFlags* f) {
  const WriterOptions d;  // the defaults shown in --help
  f->dictionary_pagesize_limit = d.dictionary_pagesize_limit;
  f->data_page_size = d.data_page_size;
  f->max_rows_per_page = d.max_rows_per_page;
  f->write_batch_size = d.write_batch_size;
  f->row_group_size = d.row_group_size;
  f->cdc_min_size = parquet::CdcOptions{}.min_chunk_size;
  f->cdc_max_size = parquet::CdcOptions{}.max_chunk_size;
  f->cdc_norm_level = parquet::CdcOptions{}.norm_level;
  const auto size_units = CLI::AsSizeValue(/*kb_is_1000=*/false);

  cmd->add_option("--compression", f->compression,
                  "Codec: none, snappy, gzip, brotli, lz4 (writes LZ4_RAW), lz4_raw, zstd; "
                  "or COLUMN=CODEC for one column (repeatable). Default snappy")
      ->type_name("[COLUMN=]CODEC");
  cmd->add_option("--compression-level", f->compression_level,
                  "Codec level (zstd default 1), or COLUMN=N (repeatable)")
      ->type_name("[COLUMN=]N");
  auto* no_dict = cmd->add_flag("--no-dictionary", f->no_dictionary,
                                "Do not dictionary-encode any column");
  cmd->add_option("--dictionary-columns", f->dictionary_columns,
                  "Dictionary-encode only these columns (comma-separated)")
      ->delimiter(',')
      ->type_name("COL,...")
      ->excludes(no_dict);
  auto* cost_all = cmd->add_flag(
      "--dictionary-cost-fallback", f->dictionary_cost_fallback,
      "Give up a column's dictionary after its first data page when the dictionary and "
      "indices are not smaller than the PLAIN values");
  cmd->add_option("--dictionary-cost-fallback-columns", f->dictionary_cost_fallback_columns,
                  "--dictionary-cost-fallback for these columns only (comma-separated)")
      ->delimiter(',')
      ->type_name("COL,...")
      ->excludes(cost_all);
  cmd->add_option("--dictionary-pagesize-limit", f->dictionary_pagesize_limit,
                  "Dictionary page size limit in bytes; past it the column falls back to PLAIN")
      ->transform(size_units)
      ->capture_default_str();
  cmd->add_option("--data-page-version", f->data_page_version, "Data page version")
      ->check(CLI::IsMember({"1.0", "2.0"}))
      ->capture_default_str();
  cmd->add_option("--data-page-size", f->data_page_size, "Target data page size in bytes")
      ->transform(size_units)
      ->capture_default_str();
  cmd->add_option("--max-rows-per-page", f->max_rows_per_page, "Most rows in one data page")
      ->capture_default_str();
  cmd->add_option("--write-batch-size", f->write_batch_size,
                  "Rows handed to the encoders at a time (page size checks happen between)")
      ->capture_default_str();
  cmd->add_option("--row-group-size", f->row_group_size, "Most rows in one row group")
      ->capture_default_str();
  f->row_group_bytes_option =
      cmd->add_option("--row-group-bytes", f->row_group_bytes,
                      "Also end a row group at about this many compressed bytes")
          ->transform(size_units);
  auto* no_stats = cmd->add_flag("--no-statistics", f->no_statistics,
                                 "Write no column statistics");
  cmd->add_option("--statistics-columns", f->statistics_columns,
                  "Write statistics only for these columns (comma-separated)")
      ->delimiter(',')
      ->type_name("COL,...")
      ->excludes(no_stats);
  auto* no_index = cmd->add_flag("--no-page-index", f->no_page_index,
                                 "Do not write the page index (column and offset indexes)");
  cmd->add_flag("--write-page-index", f->write_page_index, "Write the page index (the default)")
      ->excludes(no_index);
  cmd->add_flag("--write-page-checksum", f->write_page_checksum,
                "Write a CRC-32 in every page header");
  cmd->add_flag("--no-store-schema", f->no_store_schema,
                "Do not store the Arrow schema (ARROW:schema) in the footer");
  cmd->add_option("--column-encoding", f->column_encoding,
                  "COLUMN=ENCODING (PLAIN, BYTE_STREAM_SPLIT, DELTA_BINARY_PACKED, "
                  "DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, RLE); needs the column "
                  "not dictionary-encoded (repeatable)")
      ->type_name("COLUMN=ENC");
  auto* bss = cmd->add_flag("--use-byte-stream-split", f->use_byte_stream_split,
                            "BYTE_STREAM_SPLIT for floating-point columns");
  cmd->add_option("--byte-stream-split-columns", f->byte_stream_split_columns,
                  "BYTE_STREAM_SPLIT for these columns only (comma-separated)")
      ->delimiter(',')
      ->type_name("COL,...")
      ->excludes(bss);
  cmd->add_option("--bloom-filter", f->bloom_filter,
                  "Bloom filter for COLUMN ('*' = every column), with the expected number of "
                  "distinct values and false-positive probability (repeatable)")
      ->type_name("COL[:NDV[:FPP]]");
  cmd->add_option("--sorting-column", f->sorting_column,
                  "Declare the rows sorted by this leaf column (repeatable, in key order)")
      ->type_name("IDX[:desc][:nulls_first]");
  cmd->add_flag("--cdc", f->cdc, "Content-defined chunking of data pages");
  f->cdc_min_option = cmd->add_option("--cdc-min-size", f->cdc_min_size,
                                      "CDC minimum chunk size in bytes (implies --cdc)")
                          ->transform(size_units)
                          ->capture_default_str();
  f->cdc_max_option = cmd->add_option("--cdc-max-size", f->cdc_max_size,
                                      "CDC maximum chunk size in bytes (implies --cdc)")
                          ->transform(size_units)
                          ->capture_default_str();
  f->cdc_norm_option = cmd->add_option("--cdc-norm-level", f->cdc_norm_level,
                                       "CDC normalization level (implies --cdc)")
                           ->capture_default_str();
  cmd->add_flag("--no-validate-utf8", f->no_validate_utf8,
                "Do not check that string columns hold valid UTF-8");
  cmd->add_flag("--use-threads", f->use_threads, "Encode columns on several threads");
  cmd->add_flag("--no-fsync", f->no_fsync,
                "Do not fsync the output file and its folder (scratch output: faster, but a "
                "crash may lose the file)");
  // (--version is the program's own flag: the format version is --format-version.)
  cmd->add_option("--format-version", f->format_version,
                  "Parquet format version (pyarrow's version): 1.0 and 2.4 store nanosecond "
                  "timestamps as microseconds, 1.0 also uint32 as INT64")
      ->check(CLI::IsMember({"1.0", "2.4", "2.6"}))
      ->capture_default_str();
  cmd->add_option("--coerce-timestamps", f->coerce_timestamps,
                  "Store every timestamp column in this unit")
      ->check(CLI::IsMember({"ms", "us"}));
  cmd->add_flag("--allow-truncated-timestamps", f->allow_truncated_timestamps,
                "With --coerce-timestamps, truncate values that are not whole in the unit "
                "(else an error)");
  cmd->add_flag("--write-distinct-count", f->write_distinct_count,
                "Write each column chunk's exact number of distinct values in its statistics");
}

Result<WriterOptions> MakeWriterOptions(const WriterFlags& f) {
  WriterOptions options;
  QUIVER_RETURN_NOT_OK(ApplyCompression(f, &options));
  ApplyColumnList(f.no_dictionary, f.dictionary_columns, &options.use_dictionary);
  options.dictionary_pagesize_limit = f.dictionary_pagesize_limit;
  options.dictionary_cost_fallback.default_value = f.dictionary_cost_fallback;
  for (const auto& c : f.dictionary_cost_fallback_columns) {
    options.dictionary_cost_fallback.by_column[c] = true;
  }
  QUIVER_ASSIGN_OR_RAISE(options.data_page_version,
                         parquet::ParseDataPageVersion(f.data_page_version));
  options.data_page_size = f.data_page_size;
  options.max_rows_per_page = f.max_rows_per_page;
  options.write_batch_size = f.write_batch_size;
  options.row_group_size = f.row_group_size;
  if (f.row_group_bytes_option != nullptr && f.row_group_bytes_option->count() > 0) {
    options.row_group_bytes = f.row_group_bytes;
  }
  ApplyColumnList(f.no_statistics, f.statistics_columns, &options.write_statistics);
  options.write_page_index = !f.no_page_index;
  options.write_page_checksum = f.write_page_checksum;
  options.store_schema = !f.no_store_schema;
  for (const auto& text : f.column_encoding) {
    Assignment a = SplitAssignment(text);
    if (!a.has_column || a.column.empty()) {
      return Status::Invalid("--column-encoding '", text, "': expected COLUMN=ENCODING");
    }
    auto encoding = parquet::ParseColumnEncoding(a.value);
    if (!encoding.ok()) return encoding.status().WithContext("--column-encoding: ");
    options.column_encoding[a.column] = *encoding;
  }
  if (f.use_byte_stream_split) options.use_byte_stream_split.default_value = true;
  for (const auto& c : f.byte_stream_split_columns) options.use_byte_stream_split.by_column[c] = true;
  QUIVER_RETURN_NOT_OK(ApplyBloomFilters(f, &options));
  QUIVER_RETURN_NOT_OK(ApplySortingColumns(f, &options));
  auto given = [](const CLI::Option* o) { return o != nullptr && o->count() > 0; };
  if (f.cdc || given(f.cdc_min_option) || given(f.cdc_max_option) || given(f.cdc_norm_option)) {
    parquet::CdcOptions cdc;
    cdc.min_chunk_size = f.cdc_min_size;
    cdc.max_chunk_size = f.cdc_max_size;
    cdc.norm_level = f.cdc_norm_level;
    options.content_defined_chunking = cdc;
  }
  options.validate_utf8 = !f.no_validate_utf8;
  options.use_threads = f.use_threads;
  options.fsync = !f.no_fsync;
  QUIVER_ASSIGN_OR_RAISE(options.version, parquet::ParseFormatVersion(f.format_version));
  if (!f.coerce_timestamps.empty()) {
    QUIVER_ASSIGN_OR_RAISE(options.coerce_timestamps, parquet::ParseCoerceTimestamps(f.coerce_timestamps));
  }
  options.allow_truncated_timestamps = f.allow_truncated_timestamps;
  options.write_distinct_count = f.write_distinct_count;
  QUIVER_RETURN_NOT_OK(options.Validate());
  return options;
}

}  // namespace quiver::cli
