#include "quiver/parquet/metadata/bloom_filter_reader_internal.h"

#include <algorithm>

#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/footer_internal.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"

namespace quiver::parquet {

namespace {

// A BloomFilterHeader is four small fields: a few dozen bytes.
constexpr int64_t kHeaderWindow = 256;

}  // namespace

Result<std::optional<BloomFilter>> ReadBloomFilter(const io::RandomAccessFile& file,
                                                   const format::ColumnMetaData& m,
                                                   int64_t data_end, MemoryPool* pool) {
  if (!m.bloom_filter_offset.has_value()) return std::optional<BloomFilter>();
  const int64_t offset = *m.bloom_filter_offset;
  // The region the filter must lie in: its stated length, or up to data_end.
  const int64_t limit = m.bloom_filter_length.has_value() ? *m.bloom_filter_length
                                                          : data_end - offset;
  if (!RangeWithin(offset, limit, kParquetMagicSize, data_end) ||
      (m.bloom_filter_length.has_value() && *m.bloom_filter_length <= 0)) {
    return Status::Invalid("bloom filter [", offset, ", +", limit,
                           ") lies outside the data region [4, ", data_end, ")");
  }
  QUIVER_ASSIGN_OR_RAISE(auto window, file.ReadAt(offset, std::min(limit, kHeaderWindow)));
  int64_t header_size = 0;
  auto header = thrift::DeserializeThrift<format::BloomFilterHeader>(window->data(),
                                                                     window->size(), &header_size);
  if (!header.ok()) {
    return Status::Invalid("bloom filter at offset ", offset,
                           ": header: ", header.status().message());
  }
  const int64_t num_bytes = header->num_bytes;
  if (num_bytes < 0 || num_bytes > limit - header_size) {
    return Status::Invalid("bloom filter at offset ", offset, ": a bitset of ", num_bytes,
                           " bytes after its ", header_size, "-byte header runs past ",
                           m.bloom_filter_length.has_value() ? "bloom_filter_length"
                                                             : "the data region",
                           " (", limit, " bytes)");
  }
  QUIVER_ASSIGN_OR_RAISE(auto bytes, file.ReadAt(offset, header_size + num_bytes));
  auto filter = BloomFilter::Deserialize(bytes->data(), bytes->size(), nullptr, pool);
  if (!filter.ok()) return filter.status().WithContext("bloom filter at offset ", offset, ": ");
  return std::optional<BloomFilter>(std::move(*filter));
}

}  // namespace quiver::parquet
