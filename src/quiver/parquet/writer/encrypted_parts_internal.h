// The file writer's encrypted pieces after the column chunks (Parquet
// Modular Encryption, encryption/file_encryptor_internal.h): a bloom
// filter as its header and bitset modules, an index as one module, and
// the footer (column metadata encrypted on a copy, so that the writer's
// metadata() stays plaintext). Not installed.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "quiver/io/interfaces.h"

#include "quiver/parquet/encryption/file_encryptor_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// Writes data[0, size) to `sink` at its current position, returned with
// the length written: as is without an encryptor; else a serialized
// ColumnIndex or OffsetIndex (`type`) as one module, or a bloom filter
// (type kBloomFilterHeader: BloomFilterHeader | bitset) as two.
Result<std::pair<int64_t, int32_t>> WriteMaybeEncrypted(io::OutputStream* sink,
                                                        const encryption::ChunkEncryptor* encryptor,
                                                        encryption::ModuleType type,
                                                        const uint8_t* data, int64_t size);

// Everything after the page index: the footer (encrypted or signed), its
// 4-byte length and the magic. *footer_len: the length written.
Result<std::string> EncryptedFooter(const encryption::FileEncryptor& encryptor,
                                    format::FileMetaData metadata, int64_t* footer_len);

}  // namespace quiver::parquet
