// ArrayBuilder: the base of every array builder, and MakeBuilder, which
// builds the right builder (recursively, for nested types) for any DataType.
//
// Model: Arrow C++'s arrow/array/builder_base.h and arrow-rs's
// arrow-array/src/builder. A builder appends values to growable, 64-byte
// aligned MutableBuffers from a MemoryPool, and Finish() freezes them into an
// ArrayData without copying; the builder is then empty and reusable.
//
// Fast path (house habit 3): Reserve(n) once, then UnsafeAppend(...) /
// UnsafeAppendNull() n times with no capacity checks. The typed builders
// (builder_primitive.h, builder_binary.h, builder_nested.h, builder_dict.h)
// have non-virtual, inline value appends; only the untyped operations below
// are virtual (and `final` in the typed classes, so calls through a typed
// pointer are direct).
//
// Validity bitmap (as arrow-rs's NullBufferBuilder): built lazily. While no
// null has been appended there is no bitmap at all and Finish() leaves
// buffers[0] == nullptr. Reserve() always reserves (but does not write) room
// for the bitmap, so UnsafeAppendNull() can materialise it without
// allocating: the first null writes 1-bits for every earlier slot.
// Invariants: capacity() >= length(); the bitmap allocation holds at least
// BytesForBits(capacity()) bytes; once materialised its bytes past length()
// bits are zero.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/array_data.h"
#include "quiver/array/type.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/result.h"

namespace quiver {

class ArrayBuilder {
 public:
  ArrayBuilder(TypePtr type, MemoryPool* pool);
  virtual ~ArrayBuilder();
  ArrayBuilder(const ArrayBuilder&) = delete;
  ArrayBuilder& operator=(const ArrayBuilder&) = delete;

  const TypePtr& type() const { return type_; }
  MemoryPool* pool() const { return pool_; }
  // Slots appended since the last Finish/Reset.
  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }
  // Slots that can be appended without growing (Reserve / UnsafeAppend).
  int64_t capacity() const { return capacity_; }

  // Child builders of nested builders: list/large_list/fixed_size_list: 1
  // (the values), map: 1 (the entries struct), struct: one per field.
  int num_children() const { return static_cast<int>(children_.size()); }
  ArrayBuilder* child(int i) const { return children_[static_cast<size_t>(i)].get(); }

  // Makes room for `additional` more slots (beyond length()) in every buffer
  // of this level (not in child builders, and not in the byte data of
  // variable-width values: see ReserveData there). Grows geometrically, so
  // calling it before each append is cheap.
  Status Reserve(int64_t additional) {
    if (QUIVER_PREDICT_TRUE(additional >= 0 && additional <= capacity_ - length_)) {
      return Status::OK();
    }
    return ReserveSlow(additional);
  }
  // Sets the capacity to exactly `capacity` slots (>= length()).
  virtual Status Resize(int64_t capacity);

  // A null slot. Nested builders append what their children need (struct:
  // a null or empty value in every field; fixed_size_list: list_size child
  // slots); list-like builders append an empty list.
  virtual Status AppendNull() = 0;
  virtual Status AppendNulls(int64_t n) = 0;
  // A valid slot holding the type's "empty" value (0, false, "", an empty
  // list, a struct of empty values). NullBuilder appends a null.
  virtual Status AppendEmptyValue() = 0;
  virtual Status AppendEmptyValues(int64_t n) = 0;

  // The built array; the builder is reset and reusable afterwards (a
  // DictionaryBuilder keeps its dictionary: see builder_dict.h). On error
  // the builder's contents are unchanged where possible.
  Result<ArrayDataPtr> Finish();
  Result<ArrayPtr> FinishArray();

  // Discards everything appended (and the buffers), keeping the type.
  virtual void Reset();

 protected:
  // Produces the ArrayData from the current contents; Finish() calls
  // Reset() afterwards.
  virtual Result<ArrayDataPtr> FinishInternal() = 0;

  Status ReserveSlow(int64_t additional);
  // Grows for one more slot (the checked append paths).
  Status GrowForOne() { return ReserveSlow(1); }

  // --- Validity bitmap (the caller has reserved the slots) ----------------
  void UnsafeAppendValid() {
    if (validity_data_ != nullptr) bit_util::SetBit(validity_data_, length_);
    ++length_;
  }
  void UnsafeAppendNullBit() {
    if (validity_data_ == nullptr) MaterializeValidity();
    ++null_count_;
    ++length_;  // the bit stays 0
  }
  void UnsafeAppendValidity(bool valid) {
    if (valid) {
      UnsafeAppendValid();
    } else {
      UnsafeAppendNullBit();
    }
  }
  void UnsafeAppendValidBits(int64_t n);
  void UnsafeAppendNullBits(int64_t n);
  // One byte per slot, non-zero = valid; nullptr means all valid.
  void UnsafeAppendValidBytes(const uint8_t* valid_bytes, int64_t n);
  // A bitmap starting at bit `bit_offset`; nullptr means all valid.
  void UnsafeAppendValidBitmap(const uint8_t* bitmap, int64_t bit_offset, int64_t n);
  // Writes the first null of this builder: 1-bits for the slots so far.
  void MaterializeValidity();
  // The validity buffer for Finish (nullptr without nulls); leaves the
  // bitmap empty and not materialised.
  std::shared_ptr<Buffer> FinishValidity();

  // Adds a child builder (nested builders, in their constructors).
  void AddChild(std::unique_ptr<ArrayBuilder> child) { children_.push_back(std::move(child)); }

  TypePtr type_;
  MemoryPool* pool_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  int64_t capacity_ = 0;
  std::vector<std::unique_ptr<ArrayBuilder>> children_;

 private:
  MutableBuffer validity_;
  uint8_t* validity_data_ = nullptr;  // set once materialised
};

// A builder for any type: nested types get child builders for their fields
// (recursively), dictionary types a DictionaryBuilder. Cast the result to the
// concrete class (see builder_*.h) to append values:
//   NumericBuilder<T> for integers, floats (float16: uint16_t bits), date32,
//     date64, time32, time64, timestamp, duration, interval[months];
//   DayTimeIntervalBuilder, MonthDayNanoIntervalBuilder, DecimalBuilder,
//   FixedSizeBinaryBuilder, BooleanBuilder, NullBuilder;
//   BinaryBuilder/StringBuilder/LargeBinaryBuilder/LargeStringBuilder,
//   BinaryViewBuilder (binary_view and string_view);
//   ListBuilder, LargeListBuilder, FixedSizeListBuilder, MapBuilder,
//   StructBuilder; DictionaryBuilder.
Result<std::unique_ptr<ArrayBuilder>> MakeBuilder(const TypePtr& type,
                                                  MemoryPool* pool = DefaultMemoryPool());

}  // namespace quiver
