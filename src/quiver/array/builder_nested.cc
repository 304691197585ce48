// Nested builders: offsets/validity here, values in the child builders.
// Design notes: builder_nested.h.
#include "quiver/array/builder_nested.h"

#include <string>

namespace quiver {

namespace {

// A child builder must build the type its parent declares for it (checked
// before anything is finished, so a mismatch leaves the builders intact).
Status CheckChildType(const DataType& parent, const ArrayBuilder& child, const DataType& expected,
                      const std::string& what) {
  if (!child.type()->Equals(expected)) {
    return Status::TypeError(parent.ToString(), " builder: the ", what, " builder builds ",
                             child.type()->ToString(), ", the type declares ",
                             expected.ToString());
  }
  return Status::OK();
}

// A null (nullable field) or an empty value (non-nullable field) per slot.
Status FillChild(ArrayBuilder* child, const Field& field, int64_t n) {
  return field.nullable() ? child->AppendNulls(n) : child->AppendEmptyValues(n);
}

}  // namespace

// --- BaseListBuilder ---------------------------------------------------------

template <typename OffsetT>
BaseListBuilder<OffsetT>::BaseListBuilder(TypePtr type,
                                          std::unique_ptr<ArrayBuilder>&& value_builder,
                                          MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), offsets_(pool) {
  AddChild(std::move(value_builder));
}

template <typename OffsetT>
Status BaseListBuilder<OffsetT>::OffsetOverflow(int64_t child_length) const {
  const bool narrow = sizeof(OffsetT) == 4;
  return Status::CapacityError(type_->ToString(), " array cannot address more than ",
                               kMaxChildLength, " child values",
                               (narrow ? " (32-bit offsets)" : ""), ": the value builder holds ",
                               child_length, " at list ", length_,
                               (narrow ? "; use large_list or start a new chunk" : ""));
}

template <typename OffsetT>
Status BaseListBuilder<OffsetT>::Resize(int64_t capacity) {
  if (capacity < length_) {
    return Status::Invalid("Resize: capacity ", capacity, " is less than the length ", length_);
  }
  const int64_t bytes = (capacity + 1) * static_cast<int64_t>(sizeof(OffsetT));
  if (bytes > offsets_.size()) QUIVER_RETURN_NOT_OK(offsets_.Reserve(bytes - offsets_.size()));
  return ArrayBuilder::Resize(capacity);
}

template <typename OffsetT>
void BaseListBuilder<OffsetT>::Reset() {
  offsets_ = MutableBuffer(pool_);
  ArrayBuilder::Reset();
}

template <typename OffsetT>
Status BaseListBuilder<OffsetT>::AppendRepeated(int64_t n, bool valid) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  const int64_t start = value_builder()->length();
  if (start > kMaxChildLength) return OffsetOverflow(start);
  for (int64_t i = 0; i < n; ++i) offsets_.UnsafeAppend(static_cast<OffsetT>(start));
  if (valid) {
    UnsafeAppendValidBits(n);
  } else {
    UnsafeAppendNullBits(n);
  }
  return Status::OK();
}

template <typename OffsetT>
Status BaseListBuilder<OffsetT>::AppendValues(const OffsetT* offsets, int64_t n,
                                              const uint8_t* valid_bytes) {
  if (n < 0) return Status::Invalid("AppendValues: negative count ", n);
  if (n == 0) return Status::OK();
  const int64_t child_length = value_builder()->length();
  if (offsets[0] < 0) return Status::Invalid("AppendValues: negative first offset ", offsets[0]);
  for (int64_t i = 0; i < n; ++i) {
    if ((i > 0 && offsets[i] < offsets[i - 1]) || offsets[i] > child_length) {
      return Status::Invalid("AppendValues: offset ", offsets[i], " of list ", i,
                             " decreases or is past the ", child_length, " child values");
    }
  }
  QUIVER_RETURN_NOT_OK(Reserve(n));
  offsets_.UnsafeExtendFromSlice(offsets, n * static_cast<int64_t>(sizeof(OffsetT)));
  UnsafeAppendValidBytes(valid_bytes, n);
  return Status::OK();
}

template <typename OffsetT>
Result<ArrayDataPtr> BaseListBuilder<OffsetT>::FinishInternal() {
  const int64_t end = value_builder()->length();
  if (end > kMaxChildLength) return OffsetOverflow(end);
  QUIVER_RETURN_NOT_OK(CheckChildType(*type_, *value_builder(), *type_->field(0)->type(), "value"));
  QUIVER_RETURN_NOT_OK(offsets_.Reserve(sizeof(OffsetT)));
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr values, value_builder()->Finish());
  offsets_.UnsafeAppend(static_cast<OffsetT>(end));
  auto validity = FinishValidity();
  return ArrayData::Make(type_, length_, {std::move(validity), offsets_.Freeze()},
                         {std::move(values)}, null_count_);
}

template class BaseListBuilder<int32_t>;
template class BaseListBuilder<int64_t>;

ListBuilder::ListBuilder(std::unique_ptr<ArrayBuilder> value_builder, MemoryPool* pool)
    : BaseListBuilder(list(value_builder->type()), std::move(value_builder), pool) {}

LargeListBuilder::LargeListBuilder(std::unique_ptr<ArrayBuilder> value_builder, MemoryPool* pool)
    : BaseListBuilder(large_list(value_builder->type()), std::move(value_builder), pool) {}

// --- StructBuilder -----------------------------------------------------------

StructBuilder::StructBuilder(TypePtr type,
                             std::vector<std::unique_ptr<ArrayBuilder>> field_builders,
                             MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool) {
  for (auto& b : field_builders) AddChild(std::move(b));
}

Status StructBuilder::AppendValues(int64_t n, const uint8_t* valid_bytes) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  UnsafeAppendValidBytes(valid_bytes, n);
  return Status::OK();
}

Status StructBuilder::AppendNulls(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  for (int i = 0; i < num_fields(); ++i) {
    QUIVER_RETURN_NOT_OK(FillChild(child(i), *type_->field(i), n));
  }
  UnsafeAppendNullBits(n);
  return Status::OK();
}

Status StructBuilder::AppendEmptyValues(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  for (int i = 0; i < num_fields(); ++i) {
    QUIVER_RETURN_NOT_OK(child(i)->AppendEmptyValues(n));
  }
  UnsafeAppendValidBits(n);
  return Status::OK();
}

void StructBuilder::Reset() { ArrayBuilder::Reset(); }

Result<ArrayDataPtr> StructBuilder::FinishInternal() {
  if (num_fields() != type_->num_fields()) {
    return Status::Invalid(type_->ToString(), " builder has ", num_fields(),
                           " field builders, the type has ", type_->num_fields(), " fields");
  }
  for (int i = 0; i < num_fields(); ++i) {
    if (child(i)->length() != length_) {
      return Status::Invalid(type_->ToString(), " builder: field '", type_->field(i)->name(),
                             "' has ", child(i)->length(), " values, the struct has ", length_,
                             " slots");
    }
    QUIVER_RETURN_NOT_OK(CheckChildType(*type_, *child(i), *type_->field(i)->type(),
                                        "field '" + type_->field(i)->name() + "'"));
  }
  std::vector<ArrayDataPtr> children;
  children.reserve(static_cast<size_t>(num_fields()));
  for (int i = 0; i < num_fields(); ++i) {
    QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr c, child(i)->Finish());
    children.push_back(std::move(c));
  }
  auto validity = FinishValidity();
  return ArrayData::Make(type_, length_, {std::move(validity)}, std::move(children), null_count_);
}

// --- MapBuilder --------------------------------------------------------------

namespace {
TypePtr MapTypeFor(const TypePtr& type, const ArrayBuilder& keys, const ArrayBuilder& items) {
  return type != nullptr ? type : map(keys.type(), items.type());
}
}  // namespace

MapBuilder::MapBuilder(std::unique_ptr<ArrayBuilder> key_builder,
                       std::unique_ptr<ArrayBuilder> item_builder, TypePtr type, MemoryPool* pool)
    : ArrayBuilder(MapTypeFor(type, *key_builder, *item_builder), pool), offsets_(pool) {
  std::vector<std::unique_ptr<ArrayBuilder>> fields;
  fields.push_back(std::move(key_builder));
  fields.push_back(std::move(item_builder));
  AddChild(std::make_unique<StructBuilder>(type_->field(0)->type(), std::move(fields), pool));
}

Result<int64_t> MapBuilder::SyncEntries() {
  const int64_t keys = key_builder()->length();
  const int64_t have = entries()->length();
  if (keys > have) QUIVER_RETURN_NOT_OK(entries()->AppendValues(keys - have));
  const int64_t n = entries()->length();
  if (n > kMaxChildLength) {
    return Status::CapacityError(type_->ToString(), " array cannot address more than ",
                                 kMaxChildLength, " entries (32-bit offsets): it holds ", n,
                                 " at map ", length_);
  }
  return n;
}

Status MapBuilder::Append(bool is_valid) {
  if (QUIVER_PREDICT_FALSE(length_ >= capacity_)) QUIVER_RETURN_NOT_OK(GrowForOne());
  QUIVER_ASSIGN_OR_RAISE(int64_t start, SyncEntries());
  offsets_.UnsafeAppend(static_cast<int32_t>(start));
  UnsafeAppendValidity(is_valid);
  return Status::OK();
}

Status MapBuilder::AppendRepeated(int64_t n, bool valid) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  QUIVER_ASSIGN_OR_RAISE(int64_t start, SyncEntries());
  for (int64_t i = 0; i < n; ++i) offsets_.UnsafeAppend(static_cast<int32_t>(start));
  if (valid) {
    UnsafeAppendValidBits(n);
  } else {
    UnsafeAppendNullBits(n);
  }
  return Status::OK();
}

Status MapBuilder::AppendNulls(int64_t n) { return AppendRepeated(n, false); }
Status MapBuilder::AppendEmptyValues(int64_t n) { return AppendRepeated(n, true); }

Status MapBuilder::Resize(int64_t capacity) {
  if (capacity < length_) {
    return Status::Invalid("Resize: capacity ", capacity, " is less than the length ", length_);
  }
  const int64_t bytes = (capacity + 1) * static_cast<int64_t>(sizeof(int32_t));
  if (bytes > offsets_.size()) QUIVER_RETURN_NOT_OK(offsets_.Reserve(bytes - offsets_.size()));
  return ArrayBuilder::Resize(capacity);
}

void MapBuilder::Reset() {
  offsets_ = MutableBuffer(pool_);
  ArrayBuilder::Reset();
}

Result<ArrayDataPtr> MapBuilder::FinishInternal() {
  QUIVER_ASSIGN_OR_RAISE(int64_t end, SyncEntries());
  if (key_builder()->length() != end || item_builder()->length() != end) {
    return Status::Invalid(type_->ToString(), " builder: ", key_builder()->length(), " keys and ",
                           item_builder()->length(), " items for ", end,
                           " entries; every entry needs one key and one item");
  }
  if (key_builder()->null_count() != 0) {
    return Status::Invalid(type_->ToString(), " builder: ", key_builder()->null_count(),
                           " null keys; map keys must not be null");
  }
  QUIVER_RETURN_NOT_OK(offsets_.Reserve(sizeof(int32_t)));
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr entries_data, entries()->Finish());
  offsets_.UnsafeAppend(static_cast<int32_t>(end));
  auto validity = FinishValidity();
  return ArrayData::Make(type_, length_, {std::move(validity), offsets_.Freeze()},
                         {std::move(entries_data)}, null_count_);
}

// --- FixedSizeListBuilder ----------------------------------------------------

FixedSizeListBuilder::FixedSizeListBuilder(std::unique_ptr<ArrayBuilder> value_builder,
                                           int32_t list_size, MemoryPool* pool)
    : ArrayBuilder(fixed_size_list(value_builder->type(), list_size), pool),
      list_size_(list_size) {
  AddChild(std::move(value_builder));
}

FixedSizeListBuilder::FixedSizeListBuilder(TypePtr type,
                                           std::unique_ptr<ArrayBuilder> value_builder,
                                           MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool),
      list_size_(TypeAs<ListType>(*type_).list_size()) {
  AddChild(std::move(value_builder));
}

Status FixedSizeListBuilder::AppendNulls(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  QUIVER_RETURN_NOT_OK(FillChild(value_builder(), *type_->field(0), n * list_size_));
  UnsafeAppendNullBits(n);
  return Status::OK();
}

Status FixedSizeListBuilder::AppendEmptyValues(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  QUIVER_RETURN_NOT_OK(value_builder()->AppendEmptyValues(n * list_size_));
  UnsafeAppendValidBits(n);
  return Status::OK();
}

Result<ArrayDataPtr> FixedSizeListBuilder::FinishInternal() {
  const int64_t expected = length_ * list_size_;
  if (value_builder()->length() != expected) {
    return Status::Invalid(type_->ToString(), " builder: the value builder has ",
                           value_builder()->length(), " values, ", length_, " lists of ",
                           list_size_, " need ", expected);
  }
  QUIVER_RETURN_NOT_OK(CheckChildType(*type_, *value_builder(), *type_->field(0)->type(), "value"));
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr values, value_builder()->Finish());
  auto validity = FinishValidity();
  return ArrayData::Make(type_, length_, {std::move(validity)}, {std::move(values)}, null_count_);
}

}  // namespace quiver
