// Dictionary indices of RLE_DICTIONARY data pages (apache/parquet-format
// Encodings.md, "Dictionary Encoding"): one byte holding the bit width
// (<= 32), then the indices in the RLE / bit-packing hybrid encoding with
// that width and no length prefix.
#pragma once

#include <cstdint>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/encoding/rle_bit_packed.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

// The bit width written for a dictionary of `num_dictionary_values` entries:
// ceil(log2(n)), except that a one-entry dictionary uses 1 bit, as Arrow C++
// writes (DictEncoderImpl::bit_width), rather than 0, which some readers
// handle poorly; 0 for an empty dictionary.
int MinBitWidth(int64_t num_dictionary_values);

// Appends the bit-width byte and the encoded indices (each in
// [0, 2^bit_width)); returns the number of bytes appended.
Result<int64_t> EncodeDictionaryIndices(const int32_t* indices, int64_t num_indices,
                                        int bit_width, MutableBuffer* out);

// Reads the bit-width byte (Invalid if missing or > 32) and returns a decoder
// of the indices that follow it.
Result<RleBitPackedDecoder> MakeDictionaryIndexDecoder(const uint8_t* data, int64_t size);

// The largest of indices[0, n) (0 when n is 0): the range check of decoded
// indices, SSE4.1 unsigned maxima where the build has them.
uint32_t MaxIndex(const uint32_t* indices, int64_t n);

}  // namespace quiver::parquet
