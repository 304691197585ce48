// The Parquet writer options of `quiver convert`, spelled as long flags:
// the names of docs/interfaces.md ("Writer options") with dashes, e.g.
// compression -> --compression, use_dictionary=False -> --no-dictionary.
// Per-column values are given as COLUMN=VALUE (a dotted leaf path or any
// ancestor of it, as WriterOptions' PerColumn keys).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quiver/parquet/writer/properties.h"
#include "quiver/util/result.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace quiver::cli {

// The raw flag values, as CLI11 stores them.
struct WriterFlags {
  std::vector<std::string> compression;        // CODEC or COLUMN=CODEC
  std::vector<std::string> compression_level;  // N or COLUMN=N
  bool no_dictionary = false;
  std::vector<std::string> dictionary_columns;
  int64_t dictionary_pagesize_limit = 0;
  bool dictionary_cost_fallback = false;
  std::vector<std::string> dictionary_cost_fallback_columns;
  std::string data_page_version = "1.0";
  int64_t data_page_size = 0;
  int64_t max_rows_per_page = 0;
  int64_t write_batch_size = 0;
  int64_t row_group_size = 0;
  int64_t row_group_bytes = 0;
  bool no_statistics = false;
  std::vector<std::string> statistics_columns;
  bool no_page_index = false;
  bool write_page_index = false;
  bool write_page_checksum = false;
  bool no_store_schema = false;
  std::vector<std::string> column_encoding;  // COLUMN=ENCODING
  bool use_byte_stream_split = false;
  std::vector<std::string> byte_stream_split_columns;
  std::vector<std::string> bloom_filter;    // COLUMN[:NDV[:FPP]]
  std::vector<std::string> sorting_column;  // INDEX[:desc|asc][:nulls_first|nulls_last]
  bool cdc = false;
  int64_t cdc_min_size = 0;
  int64_t cdc_max_size = 0;
  int cdc_norm_level = 0;
  bool no_validate_utf8 = false;
  bool use_threads = false;
  bool no_fsync = false;
  std::string format_version = "2.6";  // --format-version (pyarrow's `version`)
  std::string coerce_timestamps;       // empty: not given
  bool allow_truncated_timestamps = false;
  bool write_distinct_count = false;

  // Set by AddWriterFlags: whether an option without a natural "unset"
  // value was given.
  CLI::Option* row_group_bytes_option = nullptr;
  CLI::Option* cdc_min_option = nullptr;
  CLI::Option* cdc_max_option = nullptr;
  CLI::Option* cdc_norm_option = nullptr;
};

// One `rewrite --sort-by` key: COL[:asc|:desc][:nulls_first|:nulls_last]
// (a top-level column name; the suffixes are split off from the right, so a
// name may hold ':' when what follows it is not a suffix).
struct SortByKey {
  std::string column;
  bool descending = false;
  bool nulls_first = false;
};
Result<std::vector<SortByKey>> ParseSortBy(const std::vector<std::string>& texts);

// Adds the writer flags (defaults from WriterOptions{}) to `command`,
// storing into *flags (which must outlive parsing).
void AddWriterFlags(CLI::App* command, WriterFlags* flags);

// The writer options the flags describe; Invalid (a usage error) for values
// that do not parse or do not go together (WriterOptions::Validate).
Result<parquet::WriterOptions> MakeWriterOptions(const WriterFlags& flags);

}  // namespace quiver::cli
