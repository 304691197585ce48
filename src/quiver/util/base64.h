// Standard base64 (RFC 4648 section 4: alphabet A-Z a-z 0-9 + /, padded
// with '=' to a multiple of 4 characters), as Parquet's ARROW:schema
// key-value metadata holds the Arrow IPC schema message.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "quiver/util/result.h"

namespace quiver {

// The base64 text of data[0, size), with padding.
std::string Base64Encode(const uint8_t* data, int64_t size);
inline std::string Base64Encode(std::string_view bytes) {
  return Base64Encode(reinterpret_cast<const uint8_t*>(bytes.data()),
                      static_cast<int64_t>(bytes.size()));
}

// The bytes that `text` encodes. Strict: Invalid for a character outside
// the alphabet (whitespace and line breaks included), a length that is not
// a multiple of 4, padding anywhere but in the last one or two places, or
// padding bits that are not zero (so that every input has one encoding).
Result<std::string> Base64Decode(std::string_view text);

}  // namespace quiver
