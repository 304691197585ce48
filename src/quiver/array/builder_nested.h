// Builders for nested types: list / large_list (BaseListBuilder), map
// (MapBuilder), fixed_size_list (FixedSizeListBuilder) and struct
// (StructBuilder). Each owns builders for its children; values are appended to
// the children directly, the parent records offsets and validity.
//
// Layouts: the Arrow columnar format's "Variable-size List Layout" (offsets,
// length + 1 of them, into one child), "Fixed-Size List Layout" (no offsets;
// list i is child slots [i * n, (i + 1) * n)), "Struct Layout" (one child per
// field, each as long as the struct) and map = list<entries: struct<key,
// value> not null>. A null list is an empty range; a null struct or
// fixed-size list still occupies child slots (nulls, or empty values for
// non-nullable fields). Model: Arrow C++'s builder_nested.h.
//
// Usage (a list<int32>):
//   ListBuilder b(std::make_unique<Int32Builder>());
//   auto* values = static_cast<Int32Builder*>(b.value_builder());
//   b.Append(); values->Append(1); values->Append(2);   // [1, 2]
//   b.AppendNull();                                      // null
//   b.Append();                                          // []
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "quiver/array/builder.h"

namespace quiver {

template <typename OffsetT>
class BaseListBuilder : public ArrayBuilder {
  static_assert(std::is_same_v<OffsetT, int32_t> || std::is_same_v<OffsetT, int64_t>);

 public:
  using offset_type = OffsetT;
  // The most child values one array can address.
  static constexpr int64_t kMaxChildLength = std::numeric_limits<OffsetT>::max();

  // `type` is a list (OffsetT = int32_t) or large_list type whose value type
  // is value_builder's type.
  // (An rvalue reference, so that a derived constructor may read
  // value_builder->type() in the same call.)
  BaseListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder>&& value_builder,
                  MemoryPool* pool = DefaultMemoryPool());

  ArrayBuilder* value_builder() const { return children_[0].get(); }

  // Starts a list; its values are then appended to value_builder().
  Status Append(bool is_valid = true) {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    const int64_t start = value_builder()->length();
    if (QUIVER_PREDICT_FALSE(start > kMaxChildLength)) return OffsetOverflow(start);
    offsets_.UnsafeAppend(static_cast<OffsetT>(start));
    UnsafeAppendValidity(is_valid);
    return Status::OK();
  }
  // `n` lists given by their start offsets into value_builder() (values the
  // caller appended already, with offsets[0] == value_builder()->length()
  // at the time and non-decreasing); `valid_bytes` may be nullptr.
  Status AppendValues(const OffsetT* offsets, int64_t n, const uint8_t* valid_bytes = nullptr);

  Status AppendNull() final { return Append(false); }
  Status AppendNulls(int64_t n) final { return AppendRepeated(n, false); }
  Status AppendEmptyValue() final { return Append(true); }
  Status AppendEmptyValues(int64_t n) final { return AppendRepeated(n, true); }

  Status Resize(int64_t capacity) override;
  void Reset() override;

 protected:
  Result<ArrayDataPtr> FinishInternal() override;
  Status OffsetOverflow(int64_t child_length) const;
  Status AppendRepeated(int64_t n, bool valid);

  MutableBuffer offsets_;  // start offsets; room for capacity() + 1
};

extern template class BaseListBuilder<int32_t>;
extern template class BaseListBuilder<int64_t>;

class ListBuilder final : public BaseListBuilder<int32_t> {
 public:
  // list(value_builder->type()) (child named "item", nullable).
  explicit ListBuilder(std::unique_ptr<ArrayBuilder> value_builder,
                       MemoryPool* pool = DefaultMemoryPool());
  ListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> value_builder,
              MemoryPool* pool = DefaultMemoryPool())
      : BaseListBuilder(std::move(type), std::move(value_builder), pool) {}
};

class LargeListBuilder final : public BaseListBuilder<int64_t> {
 public:
  explicit LargeListBuilder(std::unique_ptr<ArrayBuilder> value_builder,
                            MemoryPool* pool = DefaultMemoryPool());
  LargeListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> value_builder,
                   MemoryPool* pool = DefaultMemoryPool())
      : BaseListBuilder(std::move(type), std::move(value_builder), pool) {}
};

class StructBuilder final : public ArrayBuilder {
 public:
  // One builder per field of the struct `type`, of the field's type.
  StructBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> field_builders,
                MemoryPool* pool = DefaultMemoryPool());

  int num_fields() const { return num_children(); }
  ArrayBuilder* field_builder(int i) const { return child(i); }

  // The struct's own slot only: append one value to every field builder too.
  Status Append(bool is_valid = true) {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    UnsafeAppendValidity(is_valid);
    return Status::OK();
  }
  // `n` struct slots (only); `valid_bytes` may be nullptr (all valid).
  Status AppendValues(int64_t n, const uint8_t* valid_bytes = nullptr);

  // These append to the fields as well: a null (nullable fields) or an empty
  // value (non-nullable ones) per field, so the children stay aligned.
  Status AppendNull() override { return AppendNulls(1); }
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValue() override { return AppendEmptyValues(1); }
  Status AppendEmptyValues(int64_t n) override;

  void Reset() override;

 protected:
  Result<ArrayDataPtr> FinishInternal() override;
};

// map<key, item>: a list of (key, item) entries. Append() starts a map, then
// append the same number of values to key_builder() and item_builder().
// Keys must not be null (Finish returns Invalid otherwise); keys_sorted in
// the type is the caller's promise and is not checked.
class MapBuilder final : public ArrayBuilder {
 public:
  static constexpr int64_t kMaxChildLength = std::numeric_limits<int32_t>::max();

  // `type` is map(key type, item type, keys_sorted); nullptr means
  // map(key_builder->type(), item_builder->type()).
  MapBuilder(std::unique_ptr<ArrayBuilder> key_builder, std::unique_ptr<ArrayBuilder> item_builder,
             TypePtr type = nullptr, MemoryPool* pool = DefaultMemoryPool());

  ArrayBuilder* key_builder() const { return entries()->field_builder(0); }
  ArrayBuilder* item_builder() const { return entries()->field_builder(1); }
  // The entries struct (child 0); appending to it directly also works.
  StructBuilder* value_builder() const { return entries(); }

  Status Append(bool is_valid = true);
  Status AppendNull() override { return Append(false); }
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValue() override { return Append(true); }
  Status AppendEmptyValues(int64_t n) override;

  Status Resize(int64_t capacity) override;
  void Reset() override;

 protected:
  Result<ArrayDataPtr> FinishInternal() override;

 private:
  StructBuilder* entries() const { return static_cast<StructBuilder*>(children_[0].get()); }
  // Brings the entries struct up to the number of keys appended; returns the
  // entry count.
  Result<int64_t> SyncEntries();
  Status AppendRepeated(int64_t n, bool valid);

  MutableBuffer offsets_;  // int32 start offsets; room for capacity() + 1
};

class FixedSizeListBuilder final : public ArrayBuilder {
 public:
  // fixed_size_list(value_builder->type(), list_size).
  FixedSizeListBuilder(std::unique_ptr<ArrayBuilder> value_builder, int32_t list_size,
                       MemoryPool* pool = DefaultMemoryPool());
  // `type` is a fixed_size_list whose value type is value_builder's type.
  FixedSizeListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> value_builder,
                       MemoryPool* pool = DefaultMemoryPool());

  ArrayBuilder* value_builder() const { return children_[0].get(); }
  int32_t list_size() const { return list_size_; }

  // Starts a list: append exactly list_size() values to value_builder().
  Status Append(bool is_valid = true) {
    if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
    UnsafeAppendValidity(is_valid);
    return Status::OK();
  }
  // These also fill the list_size() child slots (nulls, or empty values for
  // a non-nullable child field).
  Status AppendNull() override { return AppendNulls(1); }
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValue() override { return AppendEmptyValues(1); }
  Status AppendEmptyValues(int64_t n) override;

 protected:
  Result<ArrayDataPtr> FinishInternal() override;

 private:
  int32_t list_size_;
};

}  // namespace quiver
