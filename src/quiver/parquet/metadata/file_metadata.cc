#include "quiver/parquet/metadata/file_metadata.h"

#include <initializer_list>
#include <string>
#include <utility>

#include "quiver/parquet/metadata/file_metadata_internal.h"
#include "quiver/parquet/metadata/statistics_internal.h"

namespace quiver::parquet {

// The public enums are parquet.thrift's values (types.h).
template <typename A, typename B>
constexpr bool SameValues(std::initializer_list<std::pair<A, B>> pairs) {
  for (const auto& [a, b] : pairs) {
    if (static_cast<int>(a) != static_cast<int>(b)) return false;
  }
  return true;
}
static_assert(SameValues<format::Encoding, Encoding>(
    {{format::Encoding::kPlain, Encoding::kPlain},
     {format::Encoding::kPlainDictionary, Encoding::kPlainDictionary},
     {format::Encoding::kRle, Encoding::kRle},
     {format::Encoding::kBitPacked, Encoding::kBitPacked},
     {format::Encoding::kDeltaBinaryPacked, Encoding::kDeltaBinaryPacked},
     {format::Encoding::kDeltaLengthByteArray, Encoding::kDeltaLengthByteArray},
     {format::Encoding::kDeltaByteArray, Encoding::kDeltaByteArray},
     {format::Encoding::kRleDictionary, Encoding::kRleDictionary},
     {format::Encoding::kByteStreamSplit, Encoding::kByteStreamSplit}}));
static_assert(SameValues<format::PageType, PageType>(
    {{format::PageType::kDataPage, PageType::kDataPage},
     {format::PageType::kIndexPage, PageType::kIndexPage},
     {format::PageType::kDictionaryPage, PageType::kDictionaryPage},
     {format::PageType::kDataPageV2, PageType::kDataPageV2}}));
static_assert(SameValues<format::CompressionCodec, compression::CompressionCodec>(
    {{format::CompressionCodec::kUncompressed, compression::CompressionCodec::UNCOMPRESSED},
     {format::CompressionCodec::kSnappy, compression::CompressionCodec::SNAPPY},
     {format::CompressionCodec::kGzip, compression::CompressionCodec::GZIP},
     {format::CompressionCodec::kLzo, compression::CompressionCodec::LZO},
     {format::CompressionCodec::kBrotli, compression::CompressionCodec::BROTLI},
     {format::CompressionCodec::kLz4, compression::CompressionCodec::LZ4},
     {format::CompressionCodec::kZstd, compression::CompressionCodec::ZSTD},
     {format::CompressionCodec::kLz4Raw, compression::CompressionCodec::LZ4_RAW}}));
static_assert(SameValues<format::ConvertedType, ConvertedType>(
    {{format::ConvertedType::kUtf8, ConvertedType::kUtf8},
     {format::ConvertedType::kDecimal, ConvertedType::kDecimal},
     {format::ConvertedType::kTimestampMicros, ConvertedType::kTimestampMicros},
     {format::ConvertedType::kUint8, ConvertedType::kUint8},
     {format::ConvertedType::kInt64, ConvertedType::kInt64},
     {format::ConvertedType::kInterval, ConvertedType::kInterval}}));
static_assert(SameValues<format::LogicalType::Kind, LogicalType::Kind>(
    {{format::LogicalType::Kind::kString, LogicalType::Kind::kString},
     {format::LogicalType::Kind::kDecimal, LogicalType::Kind::kDecimal},
     {format::LogicalType::Kind::kTimestamp, LogicalType::Kind::kTimestamp},
     {format::LogicalType::Kind::kInteger, LogicalType::Kind::kInteger},
     {format::LogicalType::Kind::kUnknown, LogicalType::Kind::kUnknown},
     {format::LogicalType::Kind::kFloat16, LogicalType::Kind::kFloat16},
     {format::LogicalType::Kind::kGeography, LogicalType::Kind::kGeography},
     {format::LogicalType::Kind::kVector, LogicalType::Kind::kVector}}));
static_assert(SameValues<format::TimeUnit::Kind, LogicalType::TimeUnit>(
    {{format::TimeUnit::Kind::kMillis, LogicalType::TimeUnit::kMillis},
     {format::TimeUnit::Kind::kMicros, LogicalType::TimeUnit::kMicros},
     {format::TimeUnit::Kind::kNanos, LogicalType::TimeUnit::kNanos}}));
static_assert(SameValues<format::EdgeInterpolationAlgorithm, LogicalType::EdgeAlgorithm>(
    {{format::EdgeInterpolationAlgorithm::kSpherical, LogicalType::EdgeAlgorithm::kSpherical},
     {format::EdgeInterpolationAlgorithm::kKarney, LogicalType::EdgeAlgorithm::kKarney}}));

namespace {

std::optional<std::vector<KeyValuePair>> KeyValues(
    const std::optional<std::vector<format::KeyValue>>& stored) {
  if (!stored.has_value()) return std::nullopt;
  std::vector<KeyValuePair> out;
  out.reserve(stored->size());
  for (const auto& kv : *stored) out.push_back({kv.key, kv.value});
  return out;
}

// nullopt for a union with no member set (or one this reader does not know).
std::optional<LogicalType> ToLogicalType(const format::LogicalType& stored) {
  using K = format::LogicalType::Kind;
  const K kind = stored.kind();
  if (kind == K::kNone) return std::nullopt;
  LogicalType out;
  out.kind = static_cast<LogicalType::Kind>(kind);
  auto unit = [](const format::TimeUnit& u) {
    return static_cast<LogicalType::TimeUnit>(u.kind());
  };
  switch (kind) {
    case K::kDecimal:
      out.precision = stored.decimal->precision;
      out.scale = stored.decimal->scale;
      break;
    case K::kTime:
      out.is_adjusted_to_utc = stored.time->is_adjusted_to_utc;
      if (stored.time->unit.kind() == format::TimeUnit::Kind::kNone) return std::nullopt;
      out.unit = unit(stored.time->unit);
      break;
    case K::kTimestamp:
      out.is_adjusted_to_utc = stored.timestamp->is_adjusted_to_utc;
      if (stored.timestamp->unit.kind() == format::TimeUnit::Kind::kNone) return std::nullopt;
      out.unit = unit(stored.timestamp->unit);
      break;
    case K::kInteger:
      out.bit_width = stored.integer->bit_width;
      out.is_signed = stored.integer->is_signed;
      break;
    case K::kVariant:
      out.specification_version = stored.variant->specification_version;
      break;
    case K::kGeometry:
      out.crs = stored.geometry->crs;
      break;
    case K::kGeography:
      out.crs = stored.geography->crs;
      if (stored.geography->algorithm.has_value()) {
        out.algorithm = static_cast<LogicalType::EdgeAlgorithm>(*stored.geography->algorithm);
      }
      break;
    default:
      break;
  }
  return out;
}

Status OutOfRange(const char* what, int i, size_t count) {
  return Status::Invalid(what, " ", i, " out of range: the file has ", count);
}

}  // namespace

std::shared_ptr<const FileMetaData> MakeFileMetaData(format::FileMetaData metadata,
                                                     int64_t serialized_size,
                                                     const SchemaDescriptorOptions& schema_options) {
  auto state = std::make_shared<FileMetaDataState>();
  state->thrift = std::move(metadata);
  state->serialized_size = serialized_size;
  state->writer = ApplicationVersion(state->thrift.created_by.value_or(""));
  state->schema = SchemaDescriptor::Make(state->thrift.schema, schema_options);
  return FileMetaDataAccess::Make(std::move(state));
}

Result<std::shared_ptr<const FileMetaData>> ReadFileMetaData(const io::RandomAccessFile& file) {
  QUIVER_ASSIGN_OR_RAISE(auto footer, ReadFooter(file));
  return MakeFileMetaData(std::move(footer));
}

// ---- FileMetaData

int64_t FileMetaData::num_rows() const { return state_->thrift.num_rows; }
int FileMetaData::num_row_groups() const {
  return static_cast<int>(state_->thrift.row_groups.size());
}
int FileMetaData::num_columns() const {
  if (state_->schema.ok()) return state_->schema->num_columns();
  // The elements without children, the root aside.
  int leaves = 0;
  for (size_t i = 1; i < state_->thrift.schema.size(); ++i) {
    if (!state_->thrift.schema[i].num_children.has_value()) ++leaves;
  }
  return leaves;
}
int32_t FileMetaData::version() const { return state_->thrift.version; }
std::optional<std::string> FileMetaData::created_by() const { return state_->thrift.created_by; }
const ApplicationVersion& FileMetaData::writer_version() const { return state_->writer; }
std::optional<std::vector<KeyValuePair>> FileMetaData::key_value_metadata() const {
  return KeyValues(state_->thrift.key_value_metadata);
}
int64_t FileMetaData::serialized_size() const { return state_->serialized_size; }

std::vector<SchemaElementInfo> FileMetaData::schema_elements() const {
  std::vector<SchemaElementInfo> out;
  out.reserve(state_->thrift.schema.size());
  for (const auto& e : state_->thrift.schema) {
    SchemaElementInfo info;
    info.name = e.name;
    if (e.type.has_value()) info.physical_type = static_cast<PhysicalType>(*e.type);
    if (e.repetition_type.has_value()) {
      info.repetition = static_cast<Repetition>(*e.repetition_type);
    }
    info.type_length = e.type_length;
    info.num_children = e.num_children;
    info.field_id = e.field_id;
    info.precision = e.precision;
    info.scale = e.scale;
    if (e.logical_type.has_value()) info.logical_type = ToLogicalType(*e.logical_type);
    if (e.converted_type.has_value()) {
      info.converted_type = static_cast<ConvertedType>(*e.converted_type);
    }
    out.push_back(std::move(info));
  }
  return out;
}

Result<RowGroupMetaData> FileMetaData::row_group(int i) const {
  if (i < 0 || static_cast<size_t>(i) >= state_->thrift.row_groups.size()) {
    return OutOfRange("row group", i, state_->thrift.row_groups.size());
  }
  return RowGroupMetaData(state_, i);
}

// ---- RowGroupMetaData

namespace {
const format::RowGroup& RowGroupOf(const FileMetaDataState& s, int i) {
  return s.thrift.row_groups[static_cast<size_t>(i)];
}
}  // namespace

int64_t RowGroupMetaData::num_rows() const { return RowGroupOf(*state_, index_).num_rows; }
int64_t RowGroupMetaData::total_byte_size() const {
  return RowGroupOf(*state_, index_).total_byte_size;
}
std::optional<int64_t> RowGroupMetaData::total_compressed_size() const {
  return RowGroupOf(*state_, index_).total_compressed_size;
}
std::optional<int64_t> RowGroupMetaData::file_offset() const {
  return RowGroupOf(*state_, index_).file_offset;
}
std::optional<int16_t> RowGroupMetaData::ordinal() const {
  return RowGroupOf(*state_, index_).ordinal;
}
std::optional<std::vector<SortingColumnInfo>> RowGroupMetaData::sorting_columns() const {
  const auto& stored = RowGroupOf(*state_, index_).sorting_columns;
  if (!stored.has_value()) return std::nullopt;
  std::vector<SortingColumnInfo> out;
  out.reserve(stored->size());
  for (const auto& c : *stored) out.push_back({c.column_idx, c.descending, c.nulls_first});
  return out;
}
int RowGroupMetaData::num_columns() const {
  return static_cast<int>(RowGroupOf(*state_, index_).columns.size());
}

Result<ColumnChunkMetaData> RowGroupMetaData::column(int i) const {
  const auto& columns = RowGroupOf(*state_, index_).columns;
  if (i < 0 || static_cast<size_t>(i) >= columns.size()) {
    return Status::Invalid("column ", i, " out of range: row group ", index_, " has ",
                           columns.size());
  }
  if (!columns[static_cast<size_t>(i)].meta_data.has_value()) {
    return Status::Invalid("row group ", index_, " column ", i,
                           " has no ColumnMetaData (an encrypted column?)");
  }
  return ColumnChunkMetaData(state_, index_, i);
}

// ---- ColumnChunkMetaData

namespace {
const format::ColumnChunk& ChunkOf(const FileMetaDataState& s, int row_group, int column) {
  return RowGroupOf(s, row_group).columns[static_cast<size_t>(column)];
}
// RowGroupMetaData::column checked that it is there.
const format::ColumnMetaData& MetaOf(const FileMetaDataState& s, int row_group, int column) {
  return *ChunkOf(s, row_group, column).meta_data;
}
}  // namespace


std::vector<std::string> ColumnChunkMetaData::path_in_schema() const {
  return MetaOf(*state_, row_group_, column_).path_in_schema;
}
std::string ColumnChunkMetaData::dotted_path() const {
  std::string out;
  for (const auto& part : MetaOf(*state_, row_group_, column_).path_in_schema) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}
PhysicalType ColumnChunkMetaData::physical_type() const {
  return static_cast<PhysicalType>(MetaOf(*state_, row_group_, column_).type);
}
std::vector<Encoding> ColumnChunkMetaData::encodings() const {
  std::vector<Encoding> out;
  out.reserve(MetaOf(*state_, row_group_, column_).encodings.size());
  for (format::Encoding e : MetaOf(*state_, row_group_, column_).encodings) {
    out.push_back(static_cast<Encoding>(e));
  }
  return out;
}
std::optional<std::vector<PageEncodingCount>> ColumnChunkMetaData::encoding_stats() const {
  const auto& stored = MetaOf(*state_, row_group_, column_).encoding_stats;
  if (!stored.has_value()) return std::nullopt;
  std::vector<PageEncodingCount> out;
  out.reserve(stored->size());
  for (const auto& s : *stored) {
    out.push_back({static_cast<PageType>(s.page_type), static_cast<Encoding>(s.encoding),
                   s.count});
  }
  return out;
}
compression::CompressionCodec ColumnChunkMetaData::codec() const {
  return static_cast<compression::CompressionCodec>(MetaOf(*state_, row_group_, column_).codec);
}
int64_t ColumnChunkMetaData::num_values() const {
  return MetaOf(*state_, row_group_, column_).num_values;
}
int64_t ColumnChunkMetaData::total_compressed_size() const {
  return MetaOf(*state_, row_group_, column_).total_compressed_size;
}
int64_t ColumnChunkMetaData::total_uncompressed_size() const {
  return MetaOf(*state_, row_group_, column_).total_uncompressed_size;
}
int64_t ColumnChunkMetaData::data_page_offset() const {
  return MetaOf(*state_, row_group_, column_).data_page_offset;
}
std::optional<int64_t> ColumnChunkMetaData::dictionary_page_offset() const {
  return MetaOf(*state_, row_group_, column_).dictionary_page_offset;
}
std::optional<int64_t> ColumnChunkMetaData::index_page_offset() const {
  return MetaOf(*state_, row_group_, column_).index_page_offset;
}
int64_t ColumnChunkMetaData::file_offset() const {
  return ChunkOf(*state_, row_group_, column_).file_offset;
}
std::optional<std::string> ColumnChunkMetaData::file_path() const {
  return ChunkOf(*state_, row_group_, column_).file_path;
}
std::optional<int64_t> ColumnChunkMetaData::column_index_offset() const {
  return ChunkOf(*state_, row_group_, column_).column_index_offset;
}
std::optional<int32_t> ColumnChunkMetaData::column_index_length() const {
  return ChunkOf(*state_, row_group_, column_).column_index_length;
}
std::optional<int64_t> ColumnChunkMetaData::offset_index_offset() const {
  return ChunkOf(*state_, row_group_, column_).offset_index_offset;
}
std::optional<int32_t> ColumnChunkMetaData::offset_index_length() const {
  return ChunkOf(*state_, row_group_, column_).offset_index_length;
}
std::optional<int64_t> ColumnChunkMetaData::bloom_filter_offset() const {
  return MetaOf(*state_, row_group_, column_).bloom_filter_offset;
}
std::optional<int32_t> ColumnChunkMetaData::bloom_filter_length() const {
  return MetaOf(*state_, row_group_, column_).bloom_filter_length;
}
std::optional<std::vector<KeyValuePair>> ColumnChunkMetaData::key_value_metadata() const {
  return KeyValues(MetaOf(*state_, row_group_, column_).key_value_metadata);
}
bool ColumnChunkMetaData::has_statistics() const {
  return MetaOf(*state_, row_group_, column_).statistics.has_value();
}

Result<std::optional<Statistics>> ColumnChunkMetaData::statistics() const {
  if (!state_->schema.ok()) {
    return state_->schema.status().WithContext("statistics of row group ", row_group_,
                                               " column ", column_, ": the schema: ");
  }
  const SchemaDescriptor& schema = *state_->schema;
  if (column_ >= schema.num_columns()) {
    return Status::Invalid("statistics of row group ", row_group_, " column ", column_,
                           ": the schema has ", schema.num_columns(), " columns");
  }
  return DecodeChunkStatistics(state_->thrift, schema, row_group_, column_);
}


}  // namespace quiver::parquet
