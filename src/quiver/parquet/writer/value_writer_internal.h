// Value writers: the value half of a Parquet column chunk writer, one per
// physical type. They turn Arrow leaf slots into Parquet physical values
// (the conversions listed in schema/arrow_to_parquet_internal.h), update the page
// statistics, and encode a page's values: dictionary indices (RLE_DICTIONARY)
// while the dictionary is small enough, PLAIN otherwise (after a fallback,
// or when dictionary encoding is off), RLE for booleans in data page v2.
// Levels, pages and compression are the column writer's job.
//
// The value writers' shared pieces (value_writer_internal.h): slot visitors over an
// Arrow leaf, dictionary-index visitors, the page buffers' hand-over, and
// the factories of the per-type writers (fixed_value_writer.cc,
// boolean_value_writer.cc, bytes_value_writer.cc). Not installed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/array/memo_table.h"
#include "quiver/array/type.h"
#include "quiver/compression/codec.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/schema/arrow_to_parquet_internal.h"
#include "quiver/parquet/statistics/statistics.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/result.h"
#include "quiver/util/status.h"

namespace quiver::io {
class OutputStream;
}  // namespace quiver::io

namespace quiver::parquet {

struct ValueWriterOptions {
  bool dictionary = true;
  // The encoding of pages that are not dictionary-encoded (dictionary off,
  // or after the fallback); nullopt: PLAIN (RLE for booleans in v2 pages).
  std::optional<format::Encoding> encoding;
  // Booleans RLE-encoded (data page v2 in format versions 2.x; Arrow C++
  // writes them PLAIN in format 1.0).
  bool rle_booleans = false;
  bool statistics = true;
  // Count the chunk's distinct values (FinishDistinctCount).
  bool count_distinct = false;
  bool validate_utf8 = true;
  // The column writer's dictionary_pagesize_limit (it falls back to the
  // non-dictionary encoding past it): bounds how large a memo table grows.
  int64_t dictionary_pagesize_limit = int64_t{1} << 20;
  // An Arrow dictionary written as is whose PLAIN body is at least this
  // large is built in the pass that checks its entries (each entry read
  // from memory once, appended while it is in cache): for a sink that
  // keeps buffers that large as they are, or for the codec to compress
  // (WriteDictionary then gives that buffer). INT64_MAX: never (the body is
  // built when the dictionary page is written, or streamed to the sink in
  // pieces).
  int64_t prebuilt_dictionary_bytes = std::numeric_limits<int64_t>::max();
  MemoryPool* pool = DefaultMemoryPool();
};

class ValueWriter {
 public:
  virtual ~ValueWriter() = default;

  static Result<std::unique_ptr<ValueWriter>> Make(const ColumnDescriptor& column,
                                                   const ArrowLeaf& arrow,
                                                   const ValueWriterOptions& options);

  // The leaf array of the current write call (kept alive by the caller) and
  // how many of its values the call writes (LeafLevels::num_values).
  void SetLeaf(const ArrayData* leaf, int64_t num_values) {
    leaf_ = leaf;
    leaf_values_ = num_values;
    OnNewLeaf();
  }
  // Called after SetLeaf, before any value of the call is appended: true if
  // the column writer must fall back to the non-dictionary encoding first
  // (flush the page, FallBack(), write the dictionary page). Only Arrow
  // dictionary leaves of string/binary values ask for it (BytesValueWriter:
  // their dictionary is written as is, as Arrow C++ does).
  virtual Result<bool> BeginLeaf() { return false; }
  // Appends the valid slots among leaf slots [start, end).
  virtual Status Append(int64_t start, int64_t end) = 0;
  // Appends the valid slots of ranges[0, count) of leaf slots, in order (a
  // mini-batch of a nested column: the runs of leaf slots between null or
  // empty lists). The same as an Append per range; a writer may gather the
  // ranges' values into one batch (FixedValueWriter).
  virtual Status AppendRanges(const std::pair<int64_t, int64_t>* ranges, int64_t count) {
    for (int64_t k = 0; k < count; ++k) {
      QUIVER_RETURN_NOT_OK(Append(ranges[k].first, ranges[k].second));
    }
    return Status::OK();
  }

  // Values appended to the current page, and an estimate of their encoded
  // size in bytes.
  int64_t page_num_values() const { return page_num_values_; }
  virtual int64_t EstimatedPageSize() const = 0;
  // EstimatedPageSize() once `more` values of the current leaf are
  // appended, where each adds a known size and is taken where it is (no
  // gather: a leaf without nulls, values of an Arrow type stored as they
  // are, written PLAIN or BYTE_STREAM_SPLIT, or booleans): -1 otherwise
  // (dictionary indices, DELTA encodings, byte arrays, converted or
  // gathered values). The column writer then appends several mini-batches
  // in one call where none but the last could end the page.
  virtual int64_t EstimatedPageSizeAfter(int64_t more) const { return -1; }
  // Encodes the current page's values into `out`; returns the encoding
  // used. The page state (values, statistics) is then reset.
  virtual Result<format::Encoding> FlushPage(MutableBuffer* out) = 0;
  // The current page's PLAIN body where it stands in the current write
  // call's leaf, when the page's values were all taken there, one stretch
  // of the leaf (FixedValueWriter: no nulls, stored as they are, PLAIN):
  // the column writer writes (or compresses) it from there, without a copy
  // into a page buffer first; {nullptr, 0} otherwise. Then
  // FlushPageInPlace() ends the page (as FlushPage, writing nothing).
  virtual std::pair<const uint8_t*, int64_t> InPlaceBody() const { return {nullptr, 0}; }
  virtual Result<format::Encoding> FlushPageInPlace() {
    return Status::Invalid("column '", column_.path, "': internal error: no page body in place");
  }
  // Copies a page body still in place into the writer's own buffer: the
  // column writer calls it at the end of every write call, after which the
  // caller's arrays may go (or change: a ParquetWriter's caller refilling
  // a buffer between batches).
  virtual Status DetachInput() { return Status::OK(); }

  // Dictionary state.
  virtual bool dictionary_active() const { return false; }
  virtual int64_t dictionary_size() const { return 0; }      // distinct values
  virtual int64_t dictionary_plain_bytes() const { return 0; }
  // Whether dictionary_pagesize_limit applies after the current call's
  // batches (not while an Arrow dictionary is written as is).
  virtual bool dictionary_limit_applies() const { return true; }
  // Stops using the dictionary for later pages (after the caller flushed
  // the current page).
  virtual void FallBack() {}
  virtual bool has_dictionary_page() const { return false; }
  // PLAIN-encodes the dictionary into `out` (an empty `out` may be given
  // a body built earlier: prebuilt_dictionary_bytes).
  virtual Status WriteDictionary(MutableBuffer* out) const { return Status::OK(); }
  // WriteDictionary's bytes where they already are, one stretch of memory
  // (FixedValueWriter: the memo table's values), for the column writer to
  // compress or write from there rather than copy into a page buffer
  // first; {nullptr, 0} otherwise. Valid until the next write.
  virtual std::pair<const uint8_t*, int64_t> DictionaryBody() const { return {nullptr, 0}; }
  // Writes WriteDictionary's bytes to `stream` through `staging`: here
  // whole (built in `staging`, then written); a writer whose
  // dictionary_streams() is true writes them in pieces of about 64 KiB,
  // exactly dictionary_plain_bytes() of them, without building the body.
  virtual Status WriteDictionaryTo(io::OutputStream* stream, MutableBuffer* staging) const;
  virtual bool dictionary_streams() const { return false; }

  // The chunk's exact number of distinct non-null values (options
  // count_distinct; distinct_count_internal.h says what counts), once the
  // chunk's last value is appended; called once.
  virtual Result<int64_t> FinishDistinctCount() { return 0; }

  ColumnStatistics* page_statistics() { return page_stats_.get(); }
  // When set, the bloom-filter hash of every value written is appended.
  void set_bloom_hashes(std::vector<uint64_t>* hashes) {
    bloom_hashes_ = hashes;
    per_value_ = per_value_ || hashes != nullptr;
  }
  // Sum of BYTE_ARRAY value lengths of the current page (size statistics).
  int64_t page_byte_array_bytes() const { return page_byte_array_bytes_; }

 protected:
  ValueWriter(const ColumnDescriptor& column, const ArrowLeaf& arrow,
              const ValueWriterOptions& options)
      : column_(column), arrow_(arrow), options_(options) {}
  virtual void OnNewLeaf() {}
  void ResetPage() {
    page_num_values_ = 0;
    page_byte_array_bytes_ = 0;
    page_stats_->Reset();
  }

  const ColumnDescriptor& column_;  // Parquet facts
  const ArrowLeaf& arrow_;          // Arrow facts
  ValueWriterOptions options_;
  const ArrayData* leaf_ = nullptr;
  int64_t leaf_values_ = 0;
  int64_t page_num_values_ = 0;
  int64_t page_byte_array_bytes_ = 0;
  std::unique_ptr<ColumnStatistics> page_stats_;
  std::vector<uint64_t>* bloom_hashes_ = nullptr;
  // Whether the values written without the dictionary go anywhere but the
  // page (a bloom filter, a distinct counter): one test per batch when not.
  bool per_value_ = false;
};

}  // namespace quiver::parquet

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
