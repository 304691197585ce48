// The options of the JSON Lines reader, named and defaulted as pyarrow.json's
// ReadOptions and ParseOptions (the Python layer maps them one to one).
#pragma once

#include <cstdint>

#include "quiver/array/type.h"

namespace quiver::json {

enum class UnexpectedFieldBehavior : uint8_t { kIgnore, kError, kInfer };

struct ReadOptions {
  // Bytes read and parsed at a time (pyarrow: 1 MiB); a line longer than a
  // block makes that block longer.
  int64_t block_size = 1 << 20;
  // Types are inferred over the first `infer_blocks` blocks (pyarrow.json
  // widens types over the whole input: kInferAll, which holds every block in
  // memory until the first batch). A later value that does not fit is a
  // located error.
  static constexpr int64_t kInferAll = -1;
  int64_t infer_blocks = 1;
};

struct ParseOptions {
  // Types of these fields as given (nested struct fields too); other fields
  // as unexpected_field_behavior says.
  SchemaPtr explicit_schema;
  // Kept for pyarrow's option set; objects spanning lines are read whatever
  // it says, as long as they do not cross a block boundary (blocks end at a
  // line end): one that does is a located parse error.
  bool newlines_in_values = false;
  // Fields not in explicit_schema: dropped, an error, or inferred (without
  // an explicit schema every field is inferred, as pyarrow).
  UnexpectedFieldBehavior unexpected_field_behavior = UnexpectedFieldBehavior::kInfer;
};

}  // namespace quiver::json
