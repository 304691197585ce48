#include "quiver/parquet/metadata/bloom_filter_reader_internal.h"

#include <algorithm>
#include <memory>
#include <string>

#include "quiver/util/bit_util.h"

#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/footer_internal.h"
#include "quiver/parquet/thrift/compact_protocol_internal.h"

namespace quiver::parquet {

namespace {

// A BloomFilterHeader is four small fields: a few dozen bytes.
constexpr int64_t kHeaderWindow = 256;

// One module at `offset` (its 4-byte length, then its bytes), within `limit`.
Result<std::shared_ptr<Buffer>> ReadModule(const io::RandomAccessFile& file, int64_t offset,
                                           int64_t limit, const char* what) {
  if (limit < 4) return Status::Invalid("bloom filter at offset ", offset, ": no room for its ", what);
  QUIVER_ASSIGN_OR_RAISE(auto length, file.ReadAt(offset, 4));
  if (length->size() < 4) return Status::Invalid("bloom filter at offset ", offset, ": truncated ", what);
  const int64_t total = 4 + static_cast<int64_t>(bit_util::LoadLE32(length->data()));
  if (total > limit) {
    return Status::Invalid("bloom filter at offset ", offset, ": its encrypted ", what, " of ",
                           total, " bytes runs past its region (", limit, " bytes)");
  }
  return file.ReadAt(offset, total);
}

// An encrypted filter: the header module, then the bitset module
// (Encryption.md module types 8 and 9), decrypted and decoded as one.
Result<std::optional<BloomFilter>> ReadEncrypted(const io::RandomAccessFile& file, int64_t offset,
                                                 int64_t limit, MemoryPool* pool,
                                                 const encryption::ChunkDecryptor& decryptor) {
  QUIVER_ASSIGN_OR_RAISE(auto header, ReadModule(file, offset, limit, "header"));
  std::string plain;
  QUIVER_RETURN_NOT_OK(decryptor.Decrypt(encryption::ModuleType::kBloomFilterHeader, -1,
                                         header->data(), header->size(), &plain));
  QUIVER_ASSIGN_OR_RAISE(auto bitset, ReadModule(file, offset + header->size(),
                                                 limit - header->size(), "bitset"));
  std::string bits;
  QUIVER_RETURN_NOT_OK(decryptor.Decrypt(encryption::ModuleType::kBloomFilterBitset, -1,
                                         bitset->data(), bitset->size(), &bits));
  plain += bits;
  auto filter = BloomFilter::Deserialize(reinterpret_cast<const uint8_t*>(plain.data()),
                                         static_cast<int64_t>(plain.size()), nullptr, pool);
  if (!filter.ok()) return filter.status().WithContext("bloom filter at offset ", offset, ": ");
  return std::optional<BloomFilter>(std::move(*filter));
}

}  // namespace

Result<std::optional<BloomFilter>> ReadBloomFilter(const io::RandomAccessFile& file,
                                                   const format::ColumnMetaData& m,
                                                   int64_t data_end, MemoryPool* pool,
                                                   const encryption::ChunkDecryptor* decryptor) {
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
  if (decryptor != nullptr) return ReadEncrypted(file, offset, limit, pool, *decryptor);
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
