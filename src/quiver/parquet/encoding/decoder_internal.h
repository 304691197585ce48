// The implementations behind MakeDecoder() (decoder.h), one file per kind:
// decoder_plain.cc, decoder_rle_boolean.cc, decoder_dictionary.cc,
// decoder_delta.cc, decoder_byte_stream_split.cc. Each returns nullptr for a
// type it does not serve; MakeDecoder() has checked the pair and the FLBA
// width before calling.
#pragma once

#include <memory>

#include "quiver/parquet/encoding/decoder.h"

namespace quiver::parquet::internal {

std::unique_ptr<Decoder> MakePlainDecoder(format::Type type, int type_length);
std::unique_ptr<Decoder> MakeRleBooleanDecoder();
std::unique_ptr<Decoder> MakeDictionaryDecoder(format::Type type, format::Encoding encoding,
                                               int type_length, MemoryPool* pool);
// DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY.
std::unique_ptr<Decoder> MakeDeltaDecoder(format::Type type, format::Encoding encoding,
                                          int type_length);
std::unique_ptr<Decoder> MakeByteStreamSplitDecoder(format::Type type, int type_length);

}  // namespace quiver::parquet::internal
