// Parquet writer options, named and valued like pyarrow's
// pyarrow.parquet.write_table (see docs/interfaces.md for the table of
// names, values and defaults). Per-column options are keyed by a column
// name: a leaf's dotted path ("a.b.list.element") or any ancestor of it
// ("a" applies to every leaf under top-level field a); the longest match wins.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/array/type.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/compression/codec.h"
#include "quiver/parquet/encryption/encryption_properties.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// Value encodings a user may request per column (parquet.thrift Encoding
// values).
enum class ColumnEncoding : int32_t {
  kPlain = 0,
  kRle = 3,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kByteStreamSplit = 9,
};
Result<ColumnEncoding> ParseColumnEncoding(std::string_view name);
std::string_view ColumnEncodingName(ColumnEncoding encoding);

enum class DataPageVersion { kV1, kV2 };
Result<DataPageVersion> ParseDataPageVersion(std::string_view text);  // "1.0" / "2.0"

// The Parquet format version a file is written for (pyarrow's `version`,
// Arrow C++'s ParquetVersion). What it changes, as Arrow C++ 26 writes it:
//   1.0: FileMetaData.version 1; uint32 stored as INT64 without annotation;
//        dictionary pages and dictionary-encoded data pages PLAIN_DICTIONARY;
//        booleans in v2 data pages PLAIN (not RLE);
//   1.0 and 2.4: timestamp[ns] stored as microseconds (a value that is not a
//        whole number of microseconds is an error, whatever
//        allow_truncated_timestamps says, as in pyarrow);
//   2.6: none of these (FileMetaData.version 2 for 2.4 and 2.6).
enum class FormatVersion { k1_0, k2_4, k2_6 };
Result<FormatVersion> ParseFormatVersion(std::string_view text);  // "1.0" / "2.4" / "2.6"
std::string_view FormatVersionName(FormatVersion version);

// coerce_timestamps: "ms" -> kMilli, "us" -> kMicro (pyarrow accepts only these).
Result<TimeUnit> ParseCoerceTimestamps(std::string_view text);

// "quiver version X.Y.Z (build HASH)", X.Y.Z being CMake's project version and
// HASH the commit the library was built from ("quiver version X.Y.Z" when the
// source tree had no git): the form Arrow C++'s ApplicationVersion and
// parquet-java's VersionParser parse.
std::string DefaultCreatedBy();

struct BloomFilterOptions {
  int64_t ndv = 1 << 20;  // expected number of distinct values
  double fpp = 0.05;      // false positive probability
};

struct CdcOptions {
  int64_t min_chunk_size = 256 * 1024;
  int64_t max_chunk_size = 1024 * 1024;
  int norm_level = 0;
};

struct SortingColumn {
  int32_t column_index = 0;  // leaf column index
  bool descending = false;
  bool nulls_first = false;
};

// A default plus overrides by column name.
template <typename T>
struct PerColumn {
  T default_value{};
  std::map<std::string, T, std::less<>> by_column;

  // The value for the leaf at `path` (dotted): exact match, else the
  // longest dotted prefix that is a key, else the default.
  const T& Get(std::string_view path) const {
    while (true) {
      auto it = by_column.find(path);
      if (it != by_column.end()) return it->second;
      size_t dot = path.rfind('.');
      if (dot == std::string_view::npos) return default_value;
      path = path.substr(0, dot);
    }
  }
};

struct WriterOptions {
  PerColumn<compression::CompressionCodec> compression{compression::CompressionCodec::SNAPPY,
                                                       {}};
  PerColumn<int> compression_level{compression::Codec::kDefaultLevel, {}};
  PerColumn<bool> use_dictionary{true, {}};
  int64_t dictionary_pagesize_limit = 1 << 20;
  // Give up the dictionary after the chunk's first data page when it does
  // not pay: the PLAIN size of the dictionary so far plus the page's encoded
  // indices at least the PLAIN size of the page's values (parquet-java's
  // and arrow-go's cost-based fallback). The chunk then holds that small
  // dictionary page, one dictionary-encoded data page and PLAIN pages,
  // where the size limit alone would have dictionary-encoded values until
  // the dictionary reached dictionary_pagesize_limit (a column of distinct
  // numbers: 2^18 int32 hashed, a 1 MiB dictionary page). Off by default:
  // pyarrow (Arrow C++) and arrow-rs have only the size limit, and
  // Quiver's pages stay theirs. Not applied to an Arrow dictionary written
  // as is. Naming a column that is not dictionary-encoded (use_dictionary
  // off for it, or BOOLEAN) is an error.
  PerColumn<bool> dictionary_cost_fallback{false, {}};
  DataPageVersion data_page_version = DataPageVersion::kV1;
  int64_t data_page_size = 1 << 20;
  int64_t max_rows_per_page = 20000;
  int64_t write_batch_size = 1024;
  int64_t row_group_size = 1 << 20;
  std::optional<int64_t> row_group_bytes;
  PerColumn<bool> write_statistics{true, {}};
  bool write_page_index = true;
  bool write_page_checksum = false;
  bool store_schema = true;
  std::map<std::string, ColumnEncoding, std::less<>> column_encoding;
  PerColumn<bool> use_byte_stream_split{false, {}};
  PerColumn<std::optional<BloomFilterOptions>> bloom_filter{std::nullopt, {}};
  std::vector<SortingColumn> sorting_columns;
  std::optional<CdcOptions> content_defined_chunking;
  // Write each column chunk's exact number of distinct non-null values in
  // its statistics (Statistics.distinct_count; columns with statistics
  // only, see distinct_count_internal.h for what counts as distinct).
  bool write_distinct_count = false;
  FormatVersion version = FormatVersion::k2_6;
  // Store every timestamp column in this unit (kMilli or kMicro) whatever
  // the version; nullopt: seconds as milliseconds, nanoseconds as
  // microseconds up to version 2.4, else the column's own unit.
  std::optional<TimeUnit> coerce_timestamps;
  // With coerce_timestamps, a value that is not a whole number of the
  // target unit is truncated (toward zero, as Arrow C++ divides) rather
  // than refused.
  bool allow_truncated_timestamps = false;
  bool validate_utf8 = true;
  // Encode the top-level fields of a row group on the CPU thread pool
  // (util/thread_pool.h; one thread per core, the caller included). The
  // file is byte-identical to the single-threaded one; at most one row
  // group of encoded pages is held in memory.
  bool use_threads = false;
  // Writing to a path: fsync the file before the rename and its folder
  // after it (io/atomic_file.h), so that a crash never loses a file that
  // was reported written. False for scratch output. Not used when writing
  // to an io::OutputStream (its owner decides).
  bool fsync = true;
  // Truncation limit of byte-array min/max statistics.
  int64_t statistics_truncate_length = 64;
  std::string created_by = DefaultCreatedBy();
  // Parquet Modular Encryption (encryption/encryption_properties.h);
  // nullptr: a plaintext file. Not with appending.
  std::shared_ptr<const FileEncryptionProperties> encryption_properties;
  MemoryPool* pool = DefaultMemoryPool();

  // Checks ranges and combinations; Invalid with the option's name.
  Status Validate() const;
};

// The mask of the gear hash for CDC parameters (see docs/cdc.md); Invalid
// for parameters Arrow C++ rejects.
Result<uint64_t> CdcMask(const CdcOptions& options);

}  // namespace quiver::parquet
