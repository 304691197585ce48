// Parquet footer and page metadata, restated from apache/parquet-format
// src/main/thrift/parquet.thrift (field ids, order, types, requiredness and
// defaults are the upstream ones; the comments are Quiver's own summaries).
// Encoded with the Thrift compact protocol. generate.py turns this file into
// parquet_types_internal.h / parquet_types.cc; edit this file, then re-run it.
//
// Upstream uses "namespace cpp parquet"; Quiver puts the generated C++ into
// quiver::parquet::format.
namespace cpp quiver.parquet.format

// Physical storage types.
enum Type {
  BOOLEAN = 0;
  INT32 = 1;
  INT64 = 2;
  // Deprecated: 12-byte legacy timestamps; new writers should avoid it.
  INT96 = 3;
  FLOAT = 4;
  DOUBLE = 5;
  BYTE_ARRAY = 6;
  FIXED_LEN_BYTE_ARRAY = 7;
}

// Legacy annotations, superseded by LogicalType (kept for old readers;
// LogicalTypes.md maps one onto the other). Frozen: never extended.
enum ConvertedType {
  UTF8 = 0;
  MAP = 1;
  MAP_KEY_VALUE = 2;
  LIST = 3;
  ENUM = 4;
  // Unscaled two's complement big-endian value; needs scale and precision.
  DECIMAL = 5;
  // Days since 1970-01-01, INT32.
  DATE = 6;
  // Milliseconds since midnight, INT32.
  TIME_MILLIS = 7;
  // Microseconds since midnight, INT64.
  TIME_MICROS = 8;
  // Milliseconds since the epoch, INT64.
  TIMESTAMP_MILLIS = 9;
  // Microseconds since the epoch, INT64.
  TIMESTAMP_MICROS = 10;
  // Unsigned integers of 8/16/32 bits (INT32) or 64 bits (INT64).
  UINT_8 = 11;
  UINT_16 = 12;
  UINT_32 = 13;
  UINT_64 = 14;
  // Signed integers of 8/16/32 bits (INT32) or 64 bits (INT64).
  INT_8 = 15;
  INT_16 = 16;
  INT_32 = 17;
  INT_64 = 18;
  // UTF-8 text holding a JSON document.
  JSON = 19;
  // Bytes holding a BSON document.
  BSON = 20;
  // FIXED[12]: three little-endian uint32 (months, days, milliseconds).
  INTERVAL = 21;
}

// How often a schema node occurs in its parent.
enum FieldRepetitionType {
  // Exactly once.
  REQUIRED = 0;
  // Zero or one time.
  OPTIONAL = 1;
  // Zero or more times.
  REPEATED = 2;
  // Fixed-size vector group (newest upstream addition, see LogicalTypes.md).
  VECTOR = 3;
}

// Sizes that help a reader estimate the decoded (in-memory) size of a
// column chunk or page, and level histograms for nested-data pruning.
struct SizeStatistics {
  // BYTE_ARRAY only: total bytes of the values, without length prefixes.
  1: optional i64 unencoded_byte_array_data_bytes;
  // Count of each repetition level 0..max_rep_level.
  2: optional list<i64> repetition_level_histogram;
  // Count of each definition level 0..max_def_level.
  3: optional list<i64> definition_level_histogram;
}

// Per-axis min/max coordinates of GEOMETRY/GEOGRAPHY values.
struct BoundingBox {
  1: required double xmin;
  2: required double xmax;
  3: required double ymin;
  4: required double ymax;
  5: optional double zmin;
  6: optional double zmax;
  7: optional double mmin;
  8: optional double mmax;
}

// Statistics for GEOMETRY and GEOGRAPHY columns.
struct GeospatialStatistics {
  1: optional BoundingBox bbox;
  // WKB geometry type codes seen; empty when unknown.
  2: optional list<i32> geospatial_types;
}

// Column chunk / page statistics. Values are PLAIN-encoded without the
// length prefix of BYTE_ARRAY.
struct Statistics {
  // Deprecated signed-order max and min; prefer max_value / min_value.
  1: optional binary max;
  2: optional binary min;
  // Number of nulls; absent means unknown (not zero).
  3: optional i64 null_count;
  4: optional i64 distinct_count;
  // Upper and lower bounds in the column's ColumnOrder (may be inexact).
  5: optional binary max_value;
  6: optional binary min_value;
  // Whether max_value / min_value are actual values of the column.
  7: optional bool is_max_value_exact;
  8: optional bool is_min_value_exact;
  // Number of NaNs (FLOAT, DOUBLE, FLOAT16); absent means NaNs may exist.
  9: optional i64 nan_count;
}

// Logical type markers without parameters.
struct StringType {}
struct UUIDType {}
struct MapType {}
struct ListType {}
struct VectorType {}
struct EnumType {}
struct DateType {}
struct Float16Type {}
// Every value is null; the physical type was a guess.
struct NullType {}

// DECIMAL(precision, scale); the SchemaElement repeats both for old readers.
struct DecimalType {
  1: required i32 scale
  2: required i32 precision
}

// Units of TIME and TIMESTAMP.
struct MilliSeconds {}
struct MicroSeconds {}
struct NanoSeconds {}
union TimeUnit {
  1: MilliSeconds MILLIS
  2: MicroSeconds MICROS
  3: NanoSeconds NANOS
}

// Instant or local timestamp on INT64.
struct TimestampType {
  1: required bool isAdjustedToUTC
  2: required TimeUnit unit
}

// Time of day: INT32 for millis, INT64 for micros and nanos.
struct TimeType {
  1: required bool isAdjustedToUTC
  2: required TimeUnit unit
}

// Integer of 8, 16, 32 or 64 bits, signed or not, on INT32 or INT64.
struct IntType {
  1: required byte bitWidth
  2: required bool isSigned
}

// JSON text on BYTE_ARRAY.
struct JsonType {
}

// BSON document on BYTE_ARRAY.
struct BsonType {
}

// Variant (semi-structured) value.
struct VariantType {
  // Variant spec version used by the writer.
  1: optional byte specification_version
}

// How GEOGRAPHY edges between vertices are interpolated.
enum EdgeInterpolationAlgorithm {
  SPHERICAL = 0;
  VINCENTY = 1;
  THOMAS = 2;
  ANDOYER = 3;
  KARNEY = 4;
}

// WKB geometries with planar edges; crs defaults to OGC:CRS84.
struct GeometryType {
  1: optional string crs;
}

// WKB geographies; crs defaults to OGC:CRS84, algorithm to SPHERICAL.
struct GeographyType {
  1: optional string crs;
  2: optional EdgeInterpolationAlgorithm algorithm;
}

// The logical type of a column (successor of ConvertedType). Id 9 is kept
// free for a future INTERVAL.
union LogicalType {
  1:  StringType STRING
  2:  MapType MAP
  3:  ListType LIST
  4:  EnumType ENUM
  5:  DecimalType DECIMAL
  6:  DateType DATE
  7:  TimeType TIME
  8:  TimestampType TIMESTAMP
  10: IntType INTEGER
  11: NullType UNKNOWN
  12: JsonType JSON
  13: BsonType BSON
  14: UUIDType UUID
  15: Float16Type FLOAT16
  16: VariantType VARIANT
  17: GeometryType GEOMETRY
  18: GeographyType GEOGRAPHY
  19: VectorType VECTOR
}

// One node of the schema tree; the tree is stored flattened in depth-first
// order. Groups have num_children and no type; leaves have a type.
struct SchemaElement {
  1: optional Type type;
  // FIXED_LEN_BYTE_ARRAY: bytes per value.
  2: optional i32 type_length;
  // Absent only on the root.
  3: optional FieldRepetitionType repetition_type;
  4: required string name;
  5: optional i32 num_children;
  // Legacy annotation (see LogicalType).
  6: optional ConvertedType converted_type;
  // Legacy decimal parameters.
  7: optional i32 scale
  8: optional i32 precision
  // Field id of the original schema (e.g. Iceberg ids).
  9: optional i32 field_id;
  10: optional LogicalType logicalType
  // Slots per parent for VECTOR repetition (set only then, positive).
  11: optional i32 vector_length;
}

// Value and level encodings.
enum Encoding {
  PLAIN = 0;
  // 1 was GROUP_VAR_INT, never used.
  // Deprecated dictionary encoding: RLE_DICTIONARY for data pages and PLAIN
  // for dictionary pages replace it.
  PLAIN_DICTIONARY = 2;
  // RLE / bit-packing hybrid (levels, booleans, dictionary ids).
  RLE = 3;
  // Deprecated bit-packed levels.
  BIT_PACKED = 4;
  DELTA_BINARY_PACKED = 5;
  DELTA_LENGTH_BYTE_ARRAY = 6;
  DELTA_BYTE_ARRAY = 7;
  RLE_DICTIONARY = 8;
  BYTE_STREAM_SPLIT = 9;
}

// Page compression codecs (Compression.md).
enum CompressionCodec {
  UNCOMPRESSED = 0;
  SNAPPY = 1;
  GZIP = 2;
  LZO = 3;
  BROTLI = 4;
  // Deprecated Hadoop-framed LZ4; write LZ4_RAW.
  LZ4 = 5;
  ZSTD = 6;
  LZ4_RAW = 7;
}

enum PageType {
  DATA_PAGE = 0;
  INDEX_PAGE = 1;
  DICTIONARY_PAGE = 2;
  DATA_PAGE_V2 = 3;
}

// Ordering of the ColumnIndex min/max lists.
enum BoundaryOrder {
  UNORDERED = 0;
  ASCENDING = 1;
  DESCENDING = 2;
}

// Header of a v1 data page.
struct DataPageHeader {
  // Values in the page, nulls included.
  1: required i32 num_values
  2: required Encoding encoding
  3: required Encoding definition_level_encoding;
  4: required Encoding repetition_level_encoding;
  5: optional Statistics statistics;
}

// Placeholder; no fields defined.
struct IndexPageHeader {
}

// Header of the dictionary page (first page of the chunk, at most one).
struct DictionaryPageHeader {
  1: required i32 num_values;
  2: required Encoding encoding
  3: optional bool is_sorted;
}

// Header of a v2 data page: levels are stored uncompressed before the
// (maybe compressed) values, and pages start at row boundaries.
struct DataPageHeaderV2 {
  1: required i32 num_values
  2: required i32 num_nulls
  3: required i32 num_rows
  4: required Encoding encoding
  5: required i32 definition_levels_byte_length;
  6: required i32 repetition_levels_byte_length;
  // Whether the values section is compressed; absent means true.
  7: optional bool is_compressed = true;
  8: optional Statistics statistics;
}

// Split-block Bloom filter algorithm.
struct SplitBlockAlgorithm {}
union BloomFilterAlgorithm {
  1: SplitBlockAlgorithm BLOCK;
}

// 64-bit xxHash of the PLAIN-encoded value.
struct XxHash {}
union BloomFilterHash {
  1: XxHash XXHASH;
}

struct Uncompressed {}
union BloomFilterCompression {
  1: Uncompressed UNCOMPRESSED;
}

// Precedes the bitset of a column's Bloom filter.
struct BloomFilterHeader {
  // Bitset size in bytes.
  1: required i32 numBytes;
  2: required BloomFilterAlgorithm algorithm;
  3: required BloomFilterHash hash;
  4: required BloomFilterCompression compression;
}

// Header before every page; the *_header matching `type` is set.
struct PageHeader {
  1: required PageType type
  // Page sizes in bytes, not counting this header.
  2: required i32 uncompressed_page_size
  3: required i32 compressed_page_size
  // CRC-32 (GZIP polynomial) of the page bytes after compression and
  // encryption, header excluded.
  4: optional i32 crc
  5: optional DataPageHeader data_page_header;
  6: optional IndexPageHeader index_page_header;
  7: optional DictionaryPageHeader dictionary_page_header;
  8: optional DataPageHeaderV2 data_page_header_v2;
}

// One key/value metadata entry.
struct KeyValue {
  1: required string key
  2: optional string value
}

// A sort key of a row group.
struct SortingColumn {
  // Leaf column ordinal within the row group.
  1: required i32 column_idx
  2: required bool descending
  3: required bool nulls_first
}

// Number of pages of one type written with one encoding.
struct PageEncodingStats {
  1: required PageType page_type;
  2: required Encoding encoding;
  3: required i32 count;
}

// Metadata of one column chunk.
struct ColumnMetaData {
  1: required Type type
  // Every encoding used in the chunk.
  2: required list<Encoding> encodings
  3: required list<string> path_in_schema
  4: required CompressionCodec codec
  5: required i64 num_values
  // Sums of all page sizes, headers included.
  6: required i64 total_uncompressed_size
  7: required i64 total_compressed_size
  8: optional list<KeyValue> key_value_metadata
  // File offsets of the first data page, index page and dictionary page.
  9: required i64 data_page_offset
  10: optional i64 index_page_offset
  11: optional i64 dictionary_page_offset
  12: optional Statistics statistics;
  13: optional list<PageEncodingStats> encoding_stats;
  // Bloom filter location; the length includes its header.
  14: optional i64 bloom_filter_offset;
  15: optional i32 bloom_filter_length;
  16: optional SizeStatistics size_statistics;
  17: optional GeospatialStatistics geospatial_statistics;
}

// Column encrypted with the footer key.
struct EncryptionWithFooterKey {
}

// Column encrypted with its own key.
struct EncryptionWithColumnKey {
  1: required list<string> path_in_schema
  2: optional binary key_metadata
}

union ColumnCryptoMetaData {
  1: EncryptionWithFooterKey ENCRYPTION_WITH_FOOTER_KEY
  2: EncryptionWithColumnKey ENCRYPTION_WITH_COLUMN_KEY
}

// One column of one row group.
struct ColumnChunk {
  // Only for summary (_metadata) files: where the data lives.
  1: optional string file_path
  // Deprecated; writers put 0.
  2: required i64 file_offset = 0
  // Optional in the IDL but expected by every reader: always write it.
  3: optional ColumnMetaData meta_data
  // Page index locations.
  4: optional i64 offset_index_offset
  5: optional i32 offset_index_length
  6: optional i64 column_index_offset
  7: optional i32 column_index_length
  8: optional ColumnCryptoMetaData crypto_metadata
  9: optional binary encrypted_column_metadata
}

// One horizontal slice of the file.
struct RowGroup {
  // One entry per leaf column, in schema order.
  1: required list<ColumnChunk> columns
  // Uncompressed bytes of all column data.
  2: required i64 total_byte_size
  3: required i64 num_rows
  4: optional list<SortingColumn> sorting_columns
  // Offset of the first page of the row group.
  5: optional i64 file_offset
  6: optional i64 total_compressed_size
  // Position of this row group in the file.
  7: optional i16 ordinal
}

// Order of the type (logical if any, else physical).
struct TypeDefinedOrder {}
// IEEE 754 totalOrder for floating point.
struct IEEE754TotalOrder {}
// Chronological order of INT96 timestamps.
struct Int96TimestampOrder {}

// Order used by min/max statistics of a leaf column. A reader that does
// not know the member must ignore those statistics.
union ColumnOrder {
  1: TypeDefinedOrder TYPE_ORDER;
  2: IEEE754TotalOrder IEEE_754_TOTAL_ORDER;
  3: Int96TimestampOrder INT96_TIMESTAMP_ORDER;
}

// Location of one page.
struct PageLocation {
  1: required i64 offset
  // Page size including its header.
  2: required i32 compressed_page_size
  // Row index (within the row group) of the page's first row.
  3: required i64 first_row_index
}

// Page index part 1: where each data page of a column chunk is.
struct OffsetIndex {
  1: required list<PageLocation> page_locations
  // Per page, as SizeStatistics.unencoded_byte_array_data_bytes.
  2: optional list<i64> unencoded_byte_array_data_bytes
}

// Page index part 2: per-page statistics, parallel to OffsetIndex.
struct ColumnIndex {
  // True for pages holding only nulls (their min/max entries are empty).
  1: required list<bool> null_pages
  2: required list<binary> min_values
  3: required list<binary> max_values
  4: required BoundaryOrder boundary_order
  5: optional list<i64> null_counts
  // Per-page level histograms, concatenated.
  6: optional list<i64> repetition_level_histograms;
  7: optional list<i64> definition_level_histograms;
  8: optional list<i64> nan_counts
}

// AES-GCM for everything.
struct AesGcmV1 {
  1: optional binary aad_prefix
  2: optional binary aad_file_unique
  // The reader must be given the AAD prefix.
  3: optional bool supply_aad_prefix
}

// AES-GCM for metadata, AES-CTR for page data.
struct AesGcmCtrV1 {
  1: optional binary aad_prefix
  2: optional binary aad_file_unique
  3: optional bool supply_aad_prefix
}

union EncryptionAlgorithm {
  1: AesGcmV1 AES_GCM_V1
  2: AesGcmCtrV1 AES_GCM_CTR_V1
}

// The footer.
struct FileMetaData {
  // Writers put 1; readers accept 1 and 2.
  1: required i32 version
  // Flattened schema tree; element 0 is the root.
  2: required list<SchemaElement> schema;
  3: required i64 num_rows
  4: required list<RowGroup> row_groups
  5: optional list<KeyValue> key_value_metadata
  // "<app> version <version> (build <hash>)".
  6: optional string created_by
  // One per leaf column, in schema order.
  7: optional list<ColumnOrder> column_orders;
  // Set only in encrypted files with a plaintext footer.
  8: optional EncryptionAlgorithm encryption_algorithm
  9: optional binary footer_signing_key_metadata
}

// Precedes an encrypted footer.
struct FileCryptoMetaData {
  1: required EncryptionAlgorithm encryption_algorithm
  2: optional binary key_metadata
}
