#include "quiver/parquet/writer/properties.h"

#include <bit>
#include <cctype>
#include <string>

#include "quiver/util/version.h"

namespace quiver::parquet {

namespace {
std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
}  // namespace

Result<ColumnEncoding> ParseColumnEncoding(std::string_view name) {
  std::string n = Lower(name);
  if (n == "plain") return ColumnEncoding::kPlain;
  if (n == "rle") return ColumnEncoding::kRle;
  if (n == "delta_binary_packed") return ColumnEncoding::kDeltaBinaryPacked;
  if (n == "delta_length_byte_array") return ColumnEncoding::kDeltaLengthByteArray;
  if (n == "delta_byte_array") return ColumnEncoding::kDeltaByteArray;
  if (n == "byte_stream_split") return ColumnEncoding::kByteStreamSplit;
  if (n == "plain_dictionary" || n == "rle_dictionary") {
    return Status::Invalid("column_encoding '", name,
                           "': dictionary encoding is chosen with use_dictionary, not "
                           "column_encoding");
  }
  return Status::Invalid("unknown column_encoding '", name,
                         "' (expected PLAIN, BYTE_STREAM_SPLIT, DELTA_BINARY_PACKED, "
                         "DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY or RLE)");
}

std::string_view ColumnEncodingName(ColumnEncoding encoding) {
  switch (encoding) {
    case ColumnEncoding::kPlain: return "PLAIN";
    case ColumnEncoding::kRle: return "RLE";
    case ColumnEncoding::kDeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case ColumnEncoding::kDeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case ColumnEncoding::kDeltaByteArray: return "DELTA_BYTE_ARRAY";
    case ColumnEncoding::kByteStreamSplit: return "BYTE_STREAM_SPLIT";
  }
  return "UNKNOWN";
}

Result<DataPageVersion> ParseDataPageVersion(std::string_view text) {
  if (text == "1.0" || text == "1") return DataPageVersion::kV1;
  if (text == "2.0" || text == "2") return DataPageVersion::kV2;
  return Status::Invalid("data_page_version must be '1.0' or '2.0', got '", text, "'");
}

Result<FormatVersion> ParseFormatVersion(std::string_view text) {
  if (text == "1.0") return FormatVersion::k1_0;
  if (text == "2.4") return FormatVersion::k2_4;
  if (text == "2.6") return FormatVersion::k2_6;
  return Status::Invalid("version must be '1.0', '2.4' or '2.6', got '", text, "'");
}

std::string_view FormatVersionName(FormatVersion version) {
  switch (version) {
    case FormatVersion::k1_0: return "1.0";
    case FormatVersion::k2_4: return "2.4";
    case FormatVersion::k2_6: return "2.6";
  }
  return "?";
}

Result<TimeUnit> ParseCoerceTimestamps(std::string_view text) {
  if (text == "ms") return TimeUnit::kMilli;
  if (text == "us") return TimeUnit::kMicro;
  return Status::Invalid("coerce_timestamps must be 'ms' or 'us', got '", text, "'");
}

std::string DefaultCreatedBy() {
  std::string out = "quiver version ";
  out += Version();
  if (!BuildCommit().empty()) {
    out += " (build ";
    out += BuildCommit();
    out += ")";
  }
  return out;
}

Result<uint64_t> CdcMask(const CdcOptions& o) {
  if (o.min_chunk_size < 0) {
    return Status::Invalid("content-defined chunking: min_chunk_size must be >= 0, got ",
                           o.min_chunk_size);
  }
  if (o.max_chunk_size <= o.min_chunk_size) {
    return Status::Invalid("content-defined chunking: max_chunk_size (", o.max_chunk_size,
                           ") must be greater than min_chunk_size (", o.min_chunk_size, ")");
  }
  const int64_t avg = (o.min_chunk_size + o.max_chunk_size) / 2;
  const uint64_t target = static_cast<uint64_t>((avg - o.min_chunk_size) / 8);
  const int mask_bits = target == 0 ? 0 : static_cast<int>(std::bit_width(target)) - 1;
  const int effective = mask_bits - o.norm_level;
  if (effective < 1 || effective > 63) {
    return Status::Invalid("content-defined chunking: the mask would have ", effective,
                           " bits (must be 1..63); adjust norm_level (", o.norm_level,
                           ") or the chunk sizes");
  }
  return ~uint64_t{0} << (64 - effective);
}

Status WriterOptions::Validate() const {
  auto positive = [](int64_t v, const char* name) -> Status {
    if (v <= 0) return Status::Invalid(name, " must be positive, got ", v);
    return Status::OK();
  };
  QUIVER_RETURN_NOT_OK(positive(dictionary_pagesize_limit, "dictionary_pagesize_limit"));
  QUIVER_RETURN_NOT_OK(positive(data_page_size, "data_page_size"));
  QUIVER_RETURN_NOT_OK(positive(max_rows_per_page, "max_rows_per_page"));
  QUIVER_RETURN_NOT_OK(positive(write_batch_size, "write_batch_size"));
  QUIVER_RETURN_NOT_OK(positive(row_group_size, "row_group_size"));
  if (row_group_bytes.has_value()) QUIVER_RETURN_NOT_OK(positive(*row_group_bytes, "row_group_bytes"));
  auto check_codec = [&](compression::CompressionCodec codec, int level,
                         const std::string& where) -> Status {
    auto made = compression::Codec::Create(codec, level);
    if (!made.ok()) return made.status().WithContext(where);
    return Status::OK();
  };
  QUIVER_RETURN_NOT_OK(check_codec(compression.default_value, compression_level.default_value,
                                   "compression: "));
  for (const auto& [col, codec] : compression.by_column) {
    QUIVER_RETURN_NOT_OK(check_codec(codec, compression_level.Get(col), "compression of column '" + col + "': "));
  }
  for (const auto& [col, level] : compression_level.by_column) {
    QUIVER_RETURN_NOT_OK(check_codec(compression.Get(col), level, "compression_level of column '" + col + "': "));
  }
  auto check_bloom = [](const std::optional<BloomFilterOptions>& b, const std::string& col) -> Status {
    if (!b.has_value()) return Status::OK();
    if (b->ndv <= 0) return Status::Invalid("bloom filter of column '", col, "': ndv must be positive");
    if (!(b->fpp > 0.0 && b->fpp < 1.0)) {
      return Status::Invalid("bloom filter of column '", col, "': fpp must be in (0, 1), got ", b->fpp);
    }
    return Status::OK();
  };
  QUIVER_RETURN_NOT_OK(check_bloom(bloom_filter.default_value, "*"));
  for (const auto& [col, b] : bloom_filter.by_column) QUIVER_RETURN_NOT_OK(check_bloom(b, col));
  if (content_defined_chunking.has_value()) {
    QUIVER_RETURN_NOT_OK(CdcMask(*content_defined_chunking).status());
  }
  if (statistics_truncate_length < 0) {
    return Status::Invalid("statistics_truncate_length must be >= 0");
  }
  if (coerce_timestamps.has_value() && *coerce_timestamps != TimeUnit::kMilli &&
      *coerce_timestamps != TimeUnit::kMicro) {
    // (pyarrow's values; Arrow C++: "Can only coerce Arrow timestamps to
    // milliseconds or microseconds".)
    return Status::Invalid("coerce_timestamps must be 'ms' or 'us', got '",
                           TimeUnitName(*coerce_timestamps), "'");
  }
  if (write_distinct_count) {
    bool any = write_statistics.default_value;
    for (const auto& [col, on] : write_statistics.by_column) any = any || on;
    if (!any) {
      return Status::Invalid("write_distinct_count: the distinct count is part of a column's "
                             "statistics, and write_statistics is off for every column");
    }
  }
  return Status::OK();
}

}  // namespace quiver::parquet
