// CRC-32 (the ISO-HDLC / IEEE 802.3 polynomial 0x04C11DB7, reflected, as in
// zlib, gzip and PNG): the checksum of Parquet page headers (the `crc` field
// of PageHeader, over the page's stored bytes). Computed by zlib's crc32,
// which uses the CPU's carry-less multiply where it has one.
#pragma once

#include <cstdint>

namespace quiver {

// The CRC-32 of data[0, size) (size >= 0).
uint32_t Crc32(const uint8_t* data, int64_t size);

// Continues `crc` (the CRC-32 of the bytes before, 0 for none) over
// data[0, size): Crc32Update(Crc32(a), b) == Crc32(a followed by b).
uint32_t Crc32Update(uint32_t crc, const uint8_t* data, int64_t size);

}  // namespace quiver
