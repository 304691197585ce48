// The value writers' shared pieces (value_writer.h): slot visitors over an
// Arrow leaf, dictionary-index visitors, the page buffers' hand-over, and
// the factories of the per-type writers (fixed_value_writer.cc,
// boolean_value_writer.cc, bytes_value_writer.cc). Not installed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "quiver/array/array_data.h"
#include "quiver/array/memo_table.h"
#include "quiver/array/type.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/writer/value_writer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/status.h"

namespace quiver::parquet {

// The piece size of a dictionary body streamed to the sink
// (PutDirectDictionary).
constexpr int64_t kPiece = 64 * 1024;

// Calls f(s, e) for each run [s, e) of valid slots in [start, end) of `d`.
template <typename F>
void ForEachValidRun(const ArrayData& d, int64_t start, int64_t end, F&& f) {
  const uint8_t* valid = d.validity();
  if (valid == nullptr) {
    if (start < end) f(start, end);
    return;
  }
  bitmap::VisitSetBitRuns(valid, d.offset + start, end - start,
                          [&](int64_t pos, int64_t len) { f(start + pos, start + pos + len); });
}

// Calls f(i) for each valid slot i in [start, end) of `d`.
template <typename F>
void ForEachValid(const ArrayData& d, int64_t start, int64_t end, F&& f) {
  ForEachValidRun(d, start, end, [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) f(i);
  });
}

// Calls visit(indices) with the dictionary array's indices as a pointer
// to their integer type (uint64 as int64: indices beyond INT64_MAX become
// negative, which callers refuse as out of range).
template <typename F>
void VisitDictionaryIndices(const ArrayData& d, F&& visit) {
  switch (TypeAs<DictionaryType>(*d.type).index_type()->id()) {
    case Type::kInt8: return visit(d.GetValues<int8_t>(1));
    case Type::kUInt8: return visit(d.GetValues<uint8_t>(1));
    case Type::kInt16: return visit(d.GetValues<int16_t>(1));
    case Type::kUInt16: return visit(d.GetValues<uint16_t>(1));
    case Type::kInt32: return visit(d.GetValues<int32_t>(1));
    case Type::kUInt32: return visit(d.GetValues<uint32_t>(1));
    default: return visit(d.GetValues<int64_t>(1));
  }
}

// Calls f(i, k) for each valid slot i in [start, end) of the dictionary
// array `d`, k being its index (read with the index type's width, decided
// once per call, not per slot).
template <typename F>
void ForEachDictionaryIndex(const ArrayData& d, int64_t start, int64_t end, F&& f) {
  VisitDictionaryIndices(d, [&](const auto* indices) {
    ForEachValid(d, start, end, [&](int64_t i) { f(i, static_cast<int64_t>(indices[i])); });
  });
}

// The Invalid status for a dictionary index that no value can answer.
Status BadDictionaryIndex(const ColumnDescriptor& column, int64_t k, int64_t slot);

// The first 8 bytes of a value (zero padded) as a big-endian integer: keys
// order as the values do in unsigned byte order, ties aside.
inline uint64_t SortKey(const uint8_t* p, int64_t size) {
  if (size >= 8) return bit_util::LoadBigEndian<uint64_t>(p);
  uint64_t key = 0;
  for (int64_t i = 0; i < size; ++i) key |= static_cast<uint64_t>(p[i]) << (56 - 8 * i);
  return key;
}

// Whether two values have the same bytes.
inline bool SameBytes(std::string_view a, std::string_view b) {
  return a.size() == b.size() && internal::BytesEqual(a.data(), b.data(), a.size());
}

// Moves a PLAIN page's values to `out`: by swapping buffers when `out` is
// empty (no copy), else by appending. `values` is left empty.
Status TakePlain(MutableBuffer* values, MutableBuffer* out);

// Room for `more` elements past the vector's size, growing it at least
// twofold: a reserve of exactly size + more copies the vector on every
// call, quadratic over a page of many calls (a page of a million
// dictionary indices, with no rows-per-page limit, took 17x the time).
template <typename V>
void ReserveMore(V* v, size_t more) {
  const size_t need = v->size() + more;
  if (need > v->capacity()) v->reserve(std::max(need, 2 * v->capacity()));
}

// An RLE_DICTIONARY page body: the bit width of `dict_size` entries, then
// the indices RLE/bit-packed.
Status EncodeDictionaryIndices(const std::vector<int32_t>& indices, int64_t dict_size, MutableBuffer* out);

// The value writers of each physical type (`options` as ValueWriter::Make
// adjusted them).
std::unique_ptr<ValueWriter> MakeFixedValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
                                                  const ValueWriterOptions& options);
std::unique_ptr<ValueWriter> MakeBooleanValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
                                                    const ValueWriterOptions& options);
std::unique_ptr<ValueWriter> MakeBytesValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
                                                  const ValueWriterOptions& options);

}  // namespace quiver::parquet
