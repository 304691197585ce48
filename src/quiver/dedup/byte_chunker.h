// Content-defined chunking of raw bytes, the way dedup storage backends
// (Hugging Face Xet, restic, borg, casync...) cut whole files before storing
// each distinct chunk once. Used by the dedup analysis to measure byte-level
// sharing between files (docs/cdc.md, "Measuring dedup"). Unrelated to the
// Parquet writer's CDC, which cuts pages on logical values.
//
// Algorithm: FastCDC with normalized chunking (W. Xia et al., "FastCDC: a
// Fast and Efficient Content-Defined Chunking Approach for Data
// Deduplication", USENIX ATC 2016, and its 2020 TPDS version), shaped like
// the `v2020` chunker of the fastcdc Rust crate:
//   - Gear rolling hash: h = (h << 1) + gear[byte] (mod 2^64). A byte's term
//     is shifted out after 64 more bytes, so h depends on exactly the last 64
//     bytes (the window).
//   - gear[b] = XXH64 of the single byte b with seed 0 (libxxhash), computed
//     once at first use (ByteGearTable()).
//   - bits = log2(avg_size). Two masks of the TOP bits of the hash (the bits
//     that depend on the whole window): mask_small has bits + normalization
//     bits set, mask_large bits - normalization bits.
//   - Cutting a chunk that starts at s with n bytes remaining:
//       n <= min_size                 -> the rest is one chunk;
//       limit  = min(n, max_size);
//       normal = min(limit, max(min_size, avg_size - min_size - min_size / 2));
//       the hash starts at 0 and is primed over bytes [min_size - 64,
//       min_size) without testing, so every test sees a full window;
//       for i in [min_size, normal): roll byte i; cut after it (chunk length
//       i + 1) if (h & mask_small) == 0;
//       for i in [normal, limit):    roll byte i; cut after it if
//       (h & mask_large) == 0;
//       no match: the chunk is `limit` bytes.
//   A cut therefore depends only on the 64 bytes before it and on the
//   distance to the previous cut, which is what lets chunk boundaries
//   re-synchronise after an insertion or deletion.
// Defaults: min 8 KiB, avg 64 KiB, max 128 KiB, normalization 1 (the normal
// point is 52 KiB into the chunk, mask_small 17 bits, mask_large 15 bits).
// Expected chunk size on random data: about 65.8 KiB; about 6.6% of chunks
// reach max_size.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "quiver/util/result.h"
#include "quiver/util/status.h"

namespace quiver::dedup {

struct ByteChunkerOptions {
  int64_t min_size = 8 * 1024;
  // A power of two.
  int64_t avg_size = 64 * 1024;
  int64_t max_size = 128 * 1024;
  // FastCDC's normalization level, 0..3 (0 = one mask of log2(avg) bits).
  int normalization = 1;

  // Invalid unless 64 <= min_size < avg_size < max_size, avg_size is a power
  // of two, and 0 <= normalization <= 3 with 1 <= log2(avg) +- normalization
  // <= 63.
  Status Validate() const;
};

// The gear table: entry b is XXH64(&b, 1, /*seed=*/0).
const std::array<uint64_t, 256>& ByteGearTable();

// The end offsets of the content-defined chunks of data[0, size): strictly
// increasing, the last one is `size` (no chunks for an empty input).
Result<std::vector<int64_t>> ChunkBytes(const uint8_t* data, int64_t size,
                                        const ByteChunkerOptions& options = {});

}  // namespace quiver::dedup
