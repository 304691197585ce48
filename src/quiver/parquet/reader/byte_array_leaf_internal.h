// The pieces the byte-array leaf builders share (leaf_builder.cc,
// binary_leaf_builder.cc, dictionary_leaf_builder.cc): the UTF-8 check of
// a run of values, the visit of a page's values slot by slot, and the
// factories of the binary and dictionary builders. Not installed.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "quiver/parquet/reader/leaf_builder_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/utf8.h"

namespace quiver::parquet::internal {

// The first of slots [0, n) (values offsets[i]..offsets[i + 1] of `data`)
// that is not UTF-8: its slot, or -1.
struct BadUtf8 {
  int64_t slot = -1;
  bool starts_inside = false;  // valid bytes, but the value starts mid-character
};

template <typename Offset>
BadUtf8 FindBadUtf8(const Offset* offsets, int64_t n, const uint8_t* data) {
  const int64_t begin = offsets[0];
  const int64_t end = offsets[n];
  bool ascii = false;
  const int64_t bad = FindInvalidUtf8(data + begin, end - begin, &ascii);
  if (bad >= 0) {
    // The value holding the bad byte.
    int64_t i = 0;
    while (i + 1 < n && offsets[i + 1] <= begin + bad) ++i;
    return {i, false};
  }
  // A valid run whose values all start on a character boundary is valid
  // value by value (an ASCII run has no byte that is not a boundary).
  if (ascii) return {};
  for (int64_t i = 0; i < n; ++i) {
    if (offsets[i] < offsets[i + 1] && IsUtf8Continuation(data[offsets[i]])) return {i, true};
  }
  return {};
}

// Values as views, handed to `sink(view)` slot by slot (null slots get an
// empty view and valid == false).
template <typename Sink>
Status VisitByteArraySlots(ByteArrayDecoder* decoder, std::vector<std::string_view>* views,
                           int64_t num_slots, const uint8_t* valid, int64_t valid_offset,
                           int64_t num_values, Sink&& sink) {
  views->resize(static_cast<size_t>(num_values));
  QUIVER_RETURN_NOT_OK(decoder->Decode(num_values, views->data()));
  int64_t v = 0;
  for (int64_t s = 0; s < num_slots; ++s) {
    if (valid == nullptr || bit_util::GetBit(valid, valid_offset + s)) {
      QUIVER_RETURN_NOT_OK(sink((*views)[static_cast<size_t>(v++)], true));
    } else {
      QUIVER_RETURN_NOT_OK(sink(std::string_view(), false));
    }
  }
  return Status::OK();
}

// A builder of binary, string, large_binary, large_string, binary_view or
// string_view leaves (`type`) from BYTE_ARRAY values.
std::unique_ptr<LeafBuilder> MakeBinaryLeafBuilder(const TypePtr& type, MemoryPool* pool);

// A builder of dictionary leaves (`type`) from BYTE_ARRAY or
// FIXED_LEN_BYTE_ARRAY (`type_length`) values.
std::unique_ptr<LeafBuilder> MakeDictionaryLeafBuilder(const TypePtr& type, format::Type physical,
                                                      int type_length, MemoryPool* pool);

}  // namespace quiver::parquet::internal
