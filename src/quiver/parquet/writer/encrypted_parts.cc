#include "quiver/parquet/writer/encrypted_parts_internal.h"

#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {

Result<std::pair<int64_t, int32_t>> WriteMaybeEncrypted(io::OutputStream* sink,
                                                        const encryption::ChunkEncryptor* encryptor,
                                                        encryption::ModuleType type,
                                                        const uint8_t* data, int64_t size) {
  QUIVER_ASSIGN_OR_RAISE(const int64_t at, sink->Tell());
  if (encryptor == nullptr) {
    QUIVER_RETURN_NOT_OK(sink->Write(data, size));
    return std::make_pair(at, static_cast<int32_t>(size));
  }
  const char* bytes = reinterpret_cast<const char*>(data);
  std::string sealed;
  if (type == encryption::ModuleType::kBloomFilterHeader) {
    int64_t header_len = 0;
    QUIVER_RETURN_NOT_OK(thrift::DeserializeThrift<format::BloomFilterHeader>(data, size, &header_len)
                             .status()
                             .WithContext("internal error: the bloom filter's header: "));
    QUIVER_ASSIGN_OR_RAISE(sealed, encryptor->Encrypt(type, -1,
                                                      std::string_view(bytes, static_cast<size_t>(header_len))));
    QUIVER_ASSIGN_OR_RAISE(std::string bitset,
                           encryptor->Encrypt(encryption::ModuleType::kBloomFilterBitset, -1,
                                              std::string_view(bytes + header_len,
                                                               static_cast<size_t>(size - header_len))));
    sealed += bitset;
  } else {
    QUIVER_ASSIGN_OR_RAISE(sealed,
                           encryptor->Encrypt(type, -1, std::string_view(bytes, static_cast<size_t>(size))));
  }
  QUIVER_RETURN_NOT_OK(sink->Write(sealed.data(), static_cast<int64_t>(sealed.size())));
  return std::make_pair(at, static_cast<int32_t>(sealed.size()));
}

Result<std::string> EncryptedFooter(const encryption::FileEncryptor& encryptor,
                                    format::FileMetaData metadata, int64_t* footer_len) {
  for (size_t g = 0; g < metadata.row_groups.size(); ++g) {
    auto& columns = metadata.row_groups[g].columns;
    for (size_t c = 0; c < columns.size(); ++c) {
      QUIVER_RETURN_NOT_OK(encryptor.EncryptColumnMetaData(static_cast<int>(g),
                                                           static_cast<int>(c), &columns[c]));
    }
  }
  QUIVER_ASSIGN_OR_RAISE(std::string out, encryptor.FooterBytes(&metadata));
  *footer_len = static_cast<int64_t>(out.size());
  uint8_t len[4];
  bit_util::StoreLittleEndian<uint32_t>(len, static_cast<uint32_t>(out.size()));
  out.append(reinterpret_cast<const char*>(len), 4);
  out.append(encryptor.magic(), 4);
  return out;
}

}  // namespace quiver::parquet
