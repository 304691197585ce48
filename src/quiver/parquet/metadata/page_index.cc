#include "quiver/parquet/metadata/page_index.h"

#include <string_view>

#include "quiver/parquet/metadata/column_chunk.h"
#include "quiver/parquet/metadata/footer.h"

namespace quiver::parquet {

namespace {

template <typename T>
Result<std::optional<T>> ReadIndexStruct(const io::RandomAccessFile& file,
                                         std::optional<int64_t> offset,
                                         std::optional<int32_t> length, std::string_view what,
                                         int64_t data_end, const thrift::ThriftLimits& limits) {
  if (!offset.has_value() && !length.has_value()) return std::optional<T>();
  if (!offset.has_value() || !length.has_value()) {
    return Status::Invalid(what, ": offset and length must both be set");
  }
  if (!RangeWithin(*offset, *length, kParquetMagicSize, data_end)) {
    return Status::Invalid(what, " [", *offset, ", +", *length,
                           ") lies outside the data region [4, ", data_end, ")");
  }
  QUIVER_ASSIGN_OR_RAISE(auto bytes, file.ReadAt(*offset, *length));
  auto value = thrift::DeserializeThrift<T>(bytes->data(), bytes->size(), nullptr, limits);
  if (!value.ok()) {
    return Status::Invalid(what, " at offset ", *offset, ": ", value.status().message());
  }
  return std::optional<T>(std::move(*value));
}

}  // namespace

Result<std::optional<format::ColumnIndex>> ReadColumnIndex(const io::RandomAccessFile& file,
                                                           const format::ColumnChunk& chunk,
                                                           int64_t data_end,
                                                           const thrift::ThriftLimits& limits) {
  return ReadIndexStruct<format::ColumnIndex>(file, chunk.column_index_offset,
                                              chunk.column_index_length, "column index",
                                              data_end, limits);
}

Result<std::optional<format::OffsetIndex>> ReadOffsetIndex(const io::RandomAccessFile& file,
                                                           const format::ColumnChunk& chunk,
                                                           int64_t data_end,
                                                           const thrift::ThriftLimits& limits) {
  return ReadIndexStruct<format::OffsetIndex>(file, chunk.offset_index_offset,
                                              chunk.offset_index_length, "offset index",
                                              data_end, limits);
}

}  // namespace quiver::parquet
