// DictionaryBuilder: builds dictionary<indices, values> arrays by
// deduplicating values on the fly.
//
// Each appended value is looked up in a memo table (memo_table.h);
// a new value gets the next index. The slot stores the index; Finish()
// produces ArrayData of the dictionary type (buffers: validity, indices)
// whose `dictionary` is the distinct values in first-seen order. As in Arrow
// C++ (arrow/array/builder_dict.h) the memo survives Finish() and Reset(), so
// successive chunks share one growing dictionary: Finish() returns every value
// seen so far, FinishDelta() only those added since the previous Finish*
// (the IPC "delta dictionary" batches). ResetFull() forgets the dictionary.
//
// Value types: every integer, float16 (by bits), float32/64 (NaN equals NaN;
// -0.0 and 0.0 differ), date32/64, time32/64, timestamp, duration, the
// intervals, decimal32..256, fixed_size_binary, binary/string (+ large) and
// binary_view/string_view. Index types: int8..int64 and uint8..uint64; when
// the dictionary would outgrow the index type (e.g. a 129th distinct value
// with int8 indices), Append returns CapacityError and nothing changes.
// Null slots have index 0 under a null validity bit; nulls never enter the
// dictionary.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>
#include <variant>

#include "quiver/array/builder.h"
#include "quiver/array/memo_table.h"

namespace quiver {

// The indices of one chunk and the dictionary values added since the
// previous Finish / FinishDelta.
struct DictionaryDelta {
  ArrayDataPtr indices;  // of the index type
  ArrayDataPtr delta;    // of the value type
};

class DictionaryBuilder final : public ArrayBuilder {
 public:
  // `type` must be a DictionaryType with an integer index type and a
  // supported value type (TypeError / NotImplemented otherwise).
  static Result<std::unique_ptr<DictionaryBuilder>> Make(const TypePtr& type,
                                                         MemoryPool* pool = DefaultMemoryPool());

  const TypePtr& value_type() const { return value_type_; }
  const TypePtr& index_type() const { return index_type_; }
  // Distinct values seen (since construction or ResetFull).
  int64_t dictionary_length() const;
  // The most distinct values the index type allows.
  int64_t max_dictionary_length() const { return max_entries_; }
  // The most bytes the dictionary's values may total: 2^31 - 1 for binary
  // and string (32-bit offsets), else unbounded. A new value past it is a
  // CapacityError at Append (not at Finish).
  int64_t max_dictionary_bytes() const { return max_bytes_; }
  void set_max_dictionary_bytes_for_testing(int64_t limit) { max_bytes_ = limit; }

  // A value of a fixed-width value type, given in its storage C type:
  // int8_t..uint64_t, float, double; uint16_t for float16; int32_t for
  // date32, time32, interval[months]; int64_t for date64, time64, timestamp,
  // duration, interval[day_time] (DayTimeIntervalBuilder::Pack). TypeError
  // when T is not the storage type.
  template <typename T>
    requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
  Status Append(T value) {
    using C = StorageCType<T>;  // long long -> int64_t, char -> int8_t, ...
    auto* memo = std::get_if<internal::ScalarMemoTable<C>>(&memo_);
    if (QUIVER_PREDICT_FALSE(memo == nullptr)) {
      return WrongCType(sizeof(T), std::is_floating_point_v<T>, std::is_signed_v<T>);
    }
    return AppendWithMemo(memo, static_cast<C>(value));
  }
  // A value of a binary-like value type, or the raw little-endian bytes of a
  // fixed-size one (fixed_size_binary, decimals, interval[month_day_nano]:
  // Invalid unless exactly the byte width).
  Status Append(const void* bytes, int64_t length);
  Status Append(std::string_view value) {
    return Append(value.data(), static_cast<int64_t>(value.size()));
  }

  // Every slot of `values` (an array of the value type), nulls as nulls.
  Status AppendArray(const Array& values);
  // Adds the valid values of `values` to the dictionary without appending
  // slots (to fix a dictionary order up front).
  Status InsertMemoValues(const Array& values);

  Status AppendNull() override {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    indices_.UnsafeAppend(int32_t{0});
    UnsafeAppendNullBit();
    return Status::OK();
  }
  Status AppendNulls(int64_t n) override;
  // The value type's empty value (0, "", zero bytes), entered in the
  // dictionary like any other.
  Status AppendEmptyValue() override;
  Status AppendEmptyValues(int64_t n) override;

  // Indices of this chunk plus the values new since the last Finish*; the
  // builder is reset (the dictionary kept).
  Result<DictionaryDelta> FinishDelta();

  Status Resize(int64_t capacity) override;
  // Clears the slots; the dictionary is kept.
  void Reset() override;
  // Clears the slots and the dictionary.
  void ResetFull();

 protected:
  Result<ArrayDataPtr> FinishInternal() override;

 private:
  using Memo = std::variant<internal::ScalarMemoTable<int8_t>, internal::ScalarMemoTable<uint8_t>,
                            internal::ScalarMemoTable<int16_t>, internal::ScalarMemoTable<uint16_t>,
                            internal::ScalarMemoTable<int32_t>, internal::ScalarMemoTable<uint32_t>,
                            internal::ScalarMemoTable<int64_t>, internal::ScalarMemoTable<uint64_t>,
                            internal::ScalarMemoTable<float>, internal::ScalarMemoTable<double>,
                            internal::BinaryMemoTable>;

  // The memo table for a value type, or NotImplemented.
  static Result<Memo> MakeMemo(const DataType& value_type, MemoryPool* pool);
  DictionaryBuilder(TypePtr type, Memo memo, int64_t max_entries, int32_t fixed_width,
                    MemoryPool* pool);

  template <size_t kSize, bool kSigned>
  using IntOfSize = std::conditional_t<
      kSize == 1, std::conditional_t<kSigned, int8_t, uint8_t>,
      std::conditional_t<
          kSize == 2, std::conditional_t<kSigned, int16_t, uint16_t>,
          std::conditional_t<kSize == 4, std::conditional_t<kSigned, int32_t, uint32_t>,
                             std::conditional_t<kSigned, int64_t, uint64_t>>>>;
  template <typename T>
  using StorageCType =
      std::conditional_t<std::is_floating_point_v<T>, T, IntOfSize<sizeof(T), std::is_signed_v<T>>>;

  template <typename MemoT, typename... Args>
  Status AppendWithMemo(MemoT* memo, Args... args) {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    int32_t index;
    if (QUIVER_PREDICT_TRUE(memo->size() < max_entries_)) {
      QUIVER_ASSIGN_OR_RAISE(index, memo->GetOrInsert(args...));
    } else {
      index = memo->Get(args...);
      if (index == internal::kKeyNotFound) return DictionaryFull();
    }
    indices_.UnsafeAppend(index);
    UnsafeAppendValid();
    return Status::OK();
  }

  Status WrongCType(size_t size, bool is_float, bool is_signed) const;
  // CapacityError if `bytes` is a new value that would take the dictionary
  // past max_dictionary_bytes().
  Status CheckBytesRoom(const internal::BinaryMemoTable& memo, const void* bytes,
                        int64_t length) const {
    if (QUIVER_PREDICT_TRUE(length <= max_bytes_ - memo.data_length())) return Status::OK();
    return BytesFull(memo, bytes, length);
  }
  Status BytesFull(const internal::BinaryMemoTable& memo, const void* bytes,
                   int64_t length) const;
  Status DictionaryFull() const;
  // Visits the slots of `values`; append = false only feeds the memo.
  Status AddArray(const Array& values, bool append);
  // The dictionary values [start, size()) as an array of the value type.
  Result<ArrayDataPtr> DictionaryValues(int32_t start);
  // The indices buffer converted to the index type (consumes indices_).
  Result<std::shared_ptr<Buffer>> FinishIndices();

  TypePtr value_type_;
  TypePtr index_type_;
  Memo memo_;
  int64_t max_entries_;
  int64_t max_bytes_;
  int32_t fixed_width_;     // byte width of fixed-size values, else -1
  int32_t delta_start_ = 0;  // dictionary values already returned by Finish*
  MutableBuffer indices_;   // int32 per slot
};

}  // namespace quiver
