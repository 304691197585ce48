// The values of one leaf column, decoded page by page into the Arrow array
// the reader returns (its type is the leaf ReadNode's field type; the
// conversions are parquet_to_arrow.h's CanConvertLeaf list).
//
// The column reader hands over, per run of level entries, the slots the
// leaf's array gains: `num_slots` slots whose bits in `valid` say which hold
// a value; the values (`num_values`, the set bits) come next from the
// page's decoder. Null slots get a zero / empty value. Finish() builds the
// array of every slot appended since the previous Finish(), with the
// validity bitmap the column reader kept.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "quiver/array/array_data.h"
#include "quiver/array/type.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/parquet/encoding/decoder_internal.h"
#include "quiver/parquet/schema/schema_descriptor_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet::internal {

// Masked reads (runs_decoder_internal.h): `skip` values of a page passed
// over, then `take` decoded.
using quiver::parquet::ValueRun;

class LeafBuilder {
 public:
  virtual ~LeafBuilder() = default;

  // `valid`: bits [valid_offset, valid_offset + num_slots), or nullptr when
  // every slot holds a value (then num_values == num_slots).
  virtual Status Append(Decoder* decoder, int64_t num_slots, const uint8_t* valid,
                        int64_t valid_offset, int64_t num_values) = 0;

  // The slots appended since the previous Finish(), as an array of `type`
  // with `validity` (nullptr: none) and `null_count` nulls.
  virtual Result<ArrayDataPtr> Finish(std::shared_ptr<Buffer> validity, int64_t null_count) = 0;

  // A hint: about `slots` more slots come before the next Finish(), and
  // for byte arrays about `value_bytes` bytes of values (0: unknown); room
  // is made for them at once rather than grown page by page.
  virtual Status Reserve(int64_t slots, int64_t value_bytes) { return Status::OK(); }

  // The column reader set a new dictionary page's values in the
  // dictionary decoder (entries seen before may now mean other values).
  virtual void DictionaryChanged() {}

  // Bytes held by the slots not yet finished (for the batch's memory).
  virtual int64_t bytes_buffered() const = 0;

  // String leaves check that their values are UTF-8 (pyarrow does not:
  // its arrays then fail ValidateFull). A value that is not fails Append
  // with an Invalid naming it (value N of the page, counted from
  // set_page_values_before) and the reader option invalid_utf8='binary';
  // when recording, the builder notes it instead (saw_invalid_utf8()),
  // checks no further value and goes on, for the reader to retype the
  // leaf as binary (ReaderOptions::invalid_utf8).
  void set_record_invalid_utf8(bool record) { record_invalid_utf8_ = record; }
  bool saw_invalid_utf8() const { return saw_invalid_utf8_; }
  // Values of the current page appended before the next Append.
  void set_page_values_before(int64_t n) {
    page_values_before_ = n;
    value_runs_ = nullptr;
    num_value_runs_ = 0;
  }
  // The same for an Append of the taken values of runs[0, n) (a masked
  // read): page values [before, ...) walked by the runs, so that an error
  // names the value's place in the page.
  void set_page_values_before(int64_t before, const ValueRun* runs, int64_t n) {
    page_values_before_ = before;
    value_runs_ = runs;
    num_value_runs_ = n;
  }

  // Binary / string leaves (int32 offsets) may end a chunk when their data
  // passes kChunkBytes, so that a row group of more than 2 GiB of strings
  // reads as several chunks (top-level columns of ReadTable only: nested
  // arrays are assembled from one array). Off by default.
  static constexpr int64_t kChunkBytes = int64_t{1} << 30;
  virtual void set_allow_chunks(bool) {}
  // The slots appended since the previous call, as chunks of consecutive
  // slots: Finish() of each chunk's part of `validity` (a bitmap of all the
  // slots, nullptr: none).
  virtual Result<std::vector<ArrayDataPtr>> FinishChunks(const std::shared_ptr<Buffer>& validity,
                                                         MemoryPool* pool);

 protected:
  // Whether string values are still to be checked.
  bool checking_utf8() const { return !saw_invalid_utf8_; }
  // Value `value` of the Append (its index among the values, not the
  // slots) is not UTF-8; `what` says more (may be empty).
  Status InvalidUtf8(int64_t value, std::string_view what = {});
  // The same for the page dictionary's entry `entry`.
  Status InvalidUtf8Entry(int64_t entry);

 private:
  bool record_invalid_utf8_ = false;
  bool saw_invalid_utf8_ = false;
  int64_t page_values_before_ = 0;
  const ValueRun* value_runs_ = nullptr;
  int64_t num_value_runs_ = 0;
  // Value `value` of the Append as a value of the page.
  int64_t PageValue(int64_t value) const;
};

// The builder of `type` from the values of `column`; Invalid (naming the
// column) when the pair is not one CanConvertLeaf accepts.
Result<std::unique_ptr<LeafBuilder>> MakeLeafBuilder(const ColumnDescriptor& column,
                                                     const TypePtr& type, MemoryPool* pool);

}  // namespace quiver::parquet::internal
