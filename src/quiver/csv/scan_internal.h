// Stage 1 of the CSV tokenizer: 64 bytes at a time, bitmasks of the quote,
// delimiter, CR and LF bytes; the bytes inside quotes found by a prefix XOR
// of the quote mask (carry-less multiply by all ones), as simdjson's stage 1
// finds string interiors (Langdale & Lemire, "Parsing Gigabytes of JSON per
// Second", VLDB Journal 2019, section 3.1.1). What is left, delimiters and
// line ends outside quotes, is the structural mask stage 2 (tokenizer.cc)
// walks bit by bit.
//
// The prefix XOR is exact for RFC 4180 quoting ("" inside quotes toggles
// twice). It is wrong when a quote is not where RFC 4180 puts one (x"y, or
// "a"b), which pyarrow reads by its state machine rules; the scan detects
// every such quote (an opening quote not preceded by a delimiter, line end,
// closing quote or the start; a closing quote not followed by a delimiter,
// line end, opening quote or the end) and the tokenizer then reads the block
// with the scalar state machine instead.
//
// Two versions with one contract: portable C++ and AVX2 + PCLMUL (run-time
// dispatch through compute::ActiveSimdLevel, so QUIVER_SIMD_LEVEL=scalar and
// the tests' ScopedSimdLevel reach the portable one).
#pragma once

#include <cstdint>

namespace quiver::csv::internal {

struct ScanParams {
  uint8_t delimiter;
  uint8_t quote;
  bool quoting;
};

struct ScanState {
  uint64_t in_quote = 0;     // all ones while inside quotes at a chunk boundary
  uint64_t prev_ok = 1;      // bit 0: the byte before is a structural, a closing quote or none
  uint64_t pending_close = 0;  // bit 0: the last byte of the previous chunk closed quotes
  bool anomaly = false;      // a quote the prefix XOR cannot place (see above)
};

// Scans `num_chunks` chunks of 64 bytes at `data` (all readable) and writes
// one structural mask per chunk. `last_valid` is the number of valid bytes in
// the last chunk (1..64); bytes beyond are ignored.
void ScanChunks(const uint8_t* data, int64_t num_chunks, int last_valid, const ScanParams& params,
                ScanState* state, uint64_t* structural);

// The two implementations, for the tests.
void ScanChunksScalar(const uint8_t* data, int64_t num_chunks, int last_valid,
                      const ScanParams& params, ScanState* state, uint64_t* structural);
void ScanChunksAvx2(const uint8_t* data, int64_t num_chunks, int last_valid,
                    const ScanParams& params, ScanState* state, uint64_t* structural);
bool ScanAvx2Supported();

}  // namespace quiver::csv::internal
