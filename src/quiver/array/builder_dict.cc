// DictionaryBuilder: one memo table per value kind (a std::variant, so the
// typed appends dispatch without a virtual call), int32 indices narrowed or
// widened to the index type at Finish. Design notes: builder_dict.h.
#include "quiver/array/builder_dict.h"

#include <limits>
#include <string>

#include "quiver/array/builder_binary.h"

namespace quiver {

namespace {

using internal::BinaryMemoTable;
using internal::ScalarMemoTable;

template <typename T>
struct IsScalarMemo : std::false_type {};
template <typename T>
struct IsScalarMemo<ScalarMemoTable<T>> : std::true_type {
  using value_type = T;
};

// Most distinct values an index type can address (bounded by the memo's
// int32 indices).
int64_t MaxEntriesFor(Type index_id) {
  switch (index_id) {
    case Type::kInt8: return int64_t{std::numeric_limits<int8_t>::max()} + 1;
    case Type::kUInt8: return int64_t{std::numeric_limits<uint8_t>::max()} + 1;
    case Type::kInt16: return int64_t{std::numeric_limits<int16_t>::max()} + 1;
    case Type::kUInt16: return int64_t{std::numeric_limits<uint16_t>::max()} + 1;
    default: return internal::kMaxMemoTableSize;
  }
}

template <typename To>
std::shared_ptr<Buffer> ConvertIndices(const int32_t* in, int64_t n, MutableBuffer& out) {
  To* dest = out.data_as<To>();
  for (int64_t i = 0; i < n; ++i) dest[i] = static_cast<To>(in[i]);
  out.UnsafeSetSize(n * static_cast<int64_t>(sizeof(To)));
  return out.Freeze();
}

}  // namespace

// The memo table for a value type, or NotImplemented.
Result<DictionaryBuilder::Memo> DictionaryBuilder::MakeMemo(const DataType& value_type,
                                                           MemoryPool* pool) {
  using V = Memo;
  switch (value_type.id()) {
    case Type::kInt8: return V(std::in_place_type<ScalarMemoTable<int8_t>>, pool);
    case Type::kUInt8: return V(std::in_place_type<ScalarMemoTable<uint8_t>>, pool);
    case Type::kInt16: return V(std::in_place_type<ScalarMemoTable<int16_t>>, pool);
    case Type::kUInt16:
    case Type::kHalfFloat: return V(std::in_place_type<ScalarMemoTable<uint16_t>>, pool);
    case Type::kInt32:
    case Type::kDate32:
    case Type::kTime32:
    case Type::kIntervalMonths: return V(std::in_place_type<ScalarMemoTable<int32_t>>, pool);
    case Type::kUInt32: return V(std::in_place_type<ScalarMemoTable<uint32_t>>, pool);
    case Type::kInt64:
    case Type::kDate64:
    case Type::kTime64:
    case Type::kTimestamp:
    case Type::kDuration:
    case Type::kIntervalDayTime: return V(std::in_place_type<ScalarMemoTable<int64_t>>, pool);
    case Type::kUInt64: return V(std::in_place_type<ScalarMemoTable<uint64_t>>, pool);
    case Type::kFloat: return V(std::in_place_type<ScalarMemoTable<float>>, pool);
    case Type::kDouble: return V(std::in_place_type<ScalarMemoTable<double>>, pool);
    case Type::kString:
    case Type::kBinary:
    case Type::kLargeString:
    case Type::kLargeBinary:
    case Type::kStringView:
    case Type::kBinaryView:
    case Type::kFixedSizeBinary:
    case Type::kDecimal32:
    case Type::kDecimal64:
    case Type::kDecimal128:
    case Type::kDecimal256:
    case Type::kIntervalMonthDayNano:
      return V(std::in_place_type<BinaryMemoTable>, pool);
    default:
      return Status::NotImplemented("DictionaryBuilder: dictionaries of ", value_type.ToString(),
                                    " values are not supported");
  }
}

Result<std::unique_ptr<DictionaryBuilder>> DictionaryBuilder::Make(const TypePtr& type,
                                                                   MemoryPool* pool) {
  if (type == nullptr || type->id() != Type::kDictionary) {
    return Status::TypeError("DictionaryBuilder needs a dictionary type, got ",
                             type == nullptr ? std::string("null") : type->ToString());
  }
  const auto& dict = TypeAs<DictionaryType>(*type);
  if (dict.index_type() == nullptr || !IsInteger(dict.index_type()->id())) {
    return Status::TypeError(type->ToString(), ": dictionary indices must be an integer type");
  }
  if (dict.value_type() == nullptr) {
    return Status::TypeError(type->ToString(), ": dictionary without a value type");
  }
  QUIVER_ASSIGN_OR_RAISE(Memo memo, MakeMemo(*dict.value_type(), pool));
  const int32_t fixed_width =
      IsFixedWidth(dict.value_type()->id()) && std::holds_alternative<BinaryMemoTable>(memo)
          ? std::max(dict.value_type()->byte_width(), 0)
          : -1;
  return std::unique_ptr<DictionaryBuilder>(new DictionaryBuilder(
      type, std::move(memo), MaxEntriesFor(dict.index_type()->id()), fixed_width, pool));
}

DictionaryBuilder::DictionaryBuilder(TypePtr type, Memo memo, int64_t max_entries,
                                     int32_t fixed_width, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool),
      value_type_(TypeAs<DictionaryType>(*type_).value_type()),
      index_type_(TypeAs<DictionaryType>(*type_).index_type()),
      memo_(std::move(memo)),
      max_entries_(max_entries),
      max_bytes_(value_type_->id() == Type::kString || value_type_->id() == Type::kBinary
                     ? int64_t{std::numeric_limits<int32_t>::max()}
                     : std::numeric_limits<int64_t>::max()),
      fixed_width_(fixed_width),
      indices_(pool) {}

int64_t DictionaryBuilder::dictionary_length() const {
  return std::visit([](const auto& memo) -> int64_t { return memo.size(); }, memo_);
}

Status DictionaryBuilder::WrongCType(size_t size, bool is_float, bool is_signed) const {
  const std::string c_type = is_float ? (size == 4 ? "float" : "double")
                                      : std::string(is_signed ? "int" : "uint") +
                                            std::to_string(8 * size) + "_t";
  return Status::TypeError("DictionaryBuilder: ", c_type, " values appended to ",
                           type_->ToString(), " (append the value type's storage type",
                           std::holds_alternative<BinaryMemoTable>(memo_) ? ", as bytes" : "",
                           ")");
}

Status DictionaryBuilder::DictionaryFull() const {
  return Status::CapacityError(type_->ToString(), ": cannot add distinct value number ",
                               max_entries_ + 1, " at slot ", length_, ": ",
                               index_type_->ToString(), " indices address at most ", max_entries_,
                               " dictionary values");
}

Status DictionaryBuilder::BytesFull(const internal::BinaryMemoTable& memo, const void* bytes,
                                    int64_t length) const {
  if (memo.Get(bytes, length) != internal::kKeyNotFound) return Status::OK();  // not new
  return Status::CapacityError(type_->ToString(), ": a new value of ", length,
                               " bytes at slot ", length_, " would take the dictionary past ",
                               max_bytes_, " bytes of values (", memo.data_length(),
                               " so far), the most ", value_type_->ToString(),
                               " offsets can address");
}

Status DictionaryBuilder::Append(const void* bytes, int64_t length) {
  auto* memo = std::get_if<BinaryMemoTable>(&memo_);
  if (QUIVER_PREDICT_FALSE(memo == nullptr)) {
    return Status::TypeError("DictionaryBuilder: bytes appended to ", type_->ToString(),
                             " (append values of the storage C type)");
  }
  if (fixed_width_ >= 0 && length != fixed_width_) {
    return Status::Invalid("DictionaryBuilder: a value of ", length, " bytes for ",
                           value_type_->ToString(), " (", fixed_width_, " bytes) at slot ",
                           length_);
  }
  if (length > BinaryViewBuilder::kMaxValueLength && IsBinaryView(value_type_->id())) {
    return Status::CapacityError("DictionaryBuilder: a value of ", length, " bytes exceeds ",
                                 value_type_->ToString(), "'s limit of ",
                                 BinaryViewBuilder::kMaxValueLength);
  }
  QUIVER_RETURN_NOT_OK(CheckBytesRoom(*memo, bytes, length));
  return AppendWithMemo(memo, bytes, length);
}

Status DictionaryBuilder::AppendNulls(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  std::memset(indices_.data() + indices_.size(), 0, static_cast<size_t>(n) * sizeof(int32_t));
  indices_.UnsafeSetSize(indices_.size() + n * static_cast<int64_t>(sizeof(int32_t)));
  UnsafeAppendNullBits(n);
  return Status::OK();
}

Status DictionaryBuilder::AppendEmptyValue() {
  return std::visit(
      [this](auto& memo) -> Status {
        using M = std::decay_t<decltype(memo)>;
        if constexpr (IsScalarMemo<M>::value) {
          return AppendWithMemo(&memo, typename IsScalarMemo<M>::value_type{});
        } else {
          static const uint8_t kZeros[32] = {};
          if (fixed_width_ > 32) {
            std::string zeros(static_cast<size_t>(fixed_width_), '\0');
            return AppendWithMemo(&memo, static_cast<const void*>(zeros.data()),
                                  static_cast<int64_t>(fixed_width_));
          }
          return AppendWithMemo(&memo, static_cast<const void*>(kZeros),
                                static_cast<int64_t>(fixed_width_ < 0 ? 0 : fixed_width_));
        }
      },
      memo_);
}

Status DictionaryBuilder::AppendEmptyValues(int64_t n) {
  QUIVER_RETURN_NOT_OK(Reserve(n));
  for (int64_t i = 0; i < n; ++i) QUIVER_RETURN_NOT_OK(AppendEmptyValue());
  return Status::OK();
}

Status DictionaryBuilder::AddArray(const Array& values, bool append) {
  if (!values.type()->Equals(*value_type_)) {
    return Status::TypeError("DictionaryBuilder: an array of ", values.type()->ToString(),
                             " for ", type_->ToString());
  }
  const int64_t n = values.length();
  if (append) QUIVER_RETURN_NOT_OK(Reserve(n));
  const Type id = value_type_->id();
  return std::visit(
      [&](auto& memo) -> Status {
        using M = std::decay_t<decltype(memo)>;
        // Appends slot i, or (append == false) only memoises it.
        auto add = [&](int64_t i, auto... value) -> Status {
          if (values.IsNull(i)) return append ? AppendNull() : Status::OK();
          if constexpr (!IsScalarMemo<M>::value) {
            QUIVER_RETURN_NOT_OK(CheckBytesRoom(memo, value...));
          }
          if (append) return AppendWithMemo(&memo, value...);
          if (memo.size() >= max_entries_) {
            if (memo.Get(value...) == internal::kKeyNotFound) return DictionaryFull();
            return Status::OK();
          }
          return memo.GetOrInsert(value...).status();
        };
        if constexpr (IsScalarMemo<M>::value) {
          using T = typename IsScalarMemo<M>::value_type;
          const T* raw = values.data()->template GetValues<T>(1);
          for (int64_t i = 0; i < n; ++i) QUIVER_RETURN_NOT_OK(add(i, raw[i]));
        } else if (id == Type::kString || id == Type::kBinary) {
          const auto& a = ArrayAs<BinaryArray>(values);
          for (int64_t i = 0; i < n; ++i) {
            const std::string_view v = a.GetView(i);
            QUIVER_RETURN_NOT_OK(
                add(i, static_cast<const void*>(v.data()), static_cast<int64_t>(v.size())));
          }
        } else if (id == Type::kLargeString || id == Type::kLargeBinary) {
          const auto& a = ArrayAs<LargeBinaryArray>(values);
          for (int64_t i = 0; i < n; ++i) {
            const std::string_view v = a.GetView(i);
            QUIVER_RETURN_NOT_OK(
                add(i, static_cast<const void*>(v.data()), static_cast<int64_t>(v.size())));
          }
        } else if (IsBinaryView(id)) {
          const auto& a = ArrayAs<BinaryViewArray>(values);
          for (int64_t i = 0; i < n; ++i) {
            const std::string_view v = values.IsNull(i) ? std::string_view() : a.GetView(i);
            QUIVER_RETURN_NOT_OK(
                add(i, static_cast<const void*>(v.data()), static_cast<int64_t>(v.size())));
          }
        } else {
          const auto& a = ArrayAs<FixedSizeBinaryArray>(values);
          for (int64_t i = 0; i < n; ++i) {
            QUIVER_RETURN_NOT_OK(add(i, static_cast<const void*>(a.GetValue(i)),
                                     static_cast<int64_t>(fixed_width_)));
          }
        }
        return Status::OK();
      },
      memo_);
}

Status DictionaryBuilder::AppendArray(const Array& values) { return AddArray(values, true); }
Status DictionaryBuilder::InsertMemoValues(const Array& values) { return AddArray(values, false); }

Result<ArrayDataPtr> DictionaryBuilder::DictionaryValues(int32_t start) {
  return std::visit(
      [&](auto& memo) -> Result<ArrayDataPtr> {
        using M = std::decay_t<decltype(memo)>;
        const int64_t n = memo.size() - start;
        if constexpr (IsScalarMemo<M>::value) {
          using T = typename IsScalarMemo<M>::value_type;
          MutableBuffer values(pool_);
          QUIVER_RETURN_NOT_OK(values.Reserve(n * static_cast<int64_t>(sizeof(T))));
          memo.CopyValues(start, values.data_as<T>());
          values.UnsafeSetSize(n * static_cast<int64_t>(sizeof(T)));
          return ArrayData::Make(value_type_, n, {nullptr, values.Freeze()}, 0);
        } else {
          const Type id = value_type_->id();
          const int64_t bytes = memo.data_length(start);
          const uint8_t* first = memo.data() + (n > 0 ? memo.offsets()[start] : 0);
          if (IsBinaryView(id)) {
            BinaryViewBuilder views(value_type_, pool_);
            QUIVER_RETURN_NOT_OK(views.Reserve(n));
            for (int32_t i = start; i < memo.size(); ++i) {
              QUIVER_RETURN_NOT_OK(views.Append(memo.value(i)));
            }
            return views.Finish();
          }
          MutableBuffer data(pool_);
          QUIVER_RETURN_NOT_OK(data.ExtendFromSlice(first, bytes));
          if (fixed_width_ >= 0) {
            return ArrayData::Make(value_type_, n, {nullptr, data.Freeze()}, 0);
          }
          // Offsets rebased to the first value returned.
          auto make_offsets = [&](auto offset_tag) -> Result<std::shared_ptr<Buffer>> {
            using O = decltype(offset_tag);
            if (bytes > std::numeric_limits<O>::max()) {
              return Status::CapacityError(
                  type_->ToString(), ": the dictionary values hold ", bytes,
                  " bytes, more than 32-bit offsets can address; use large_string/large_binary");
            }
            MutableBuffer offsets(pool_);
            QUIVER_RETURN_NOT_OK(offsets.Reserve((n + 1) * static_cast<int64_t>(sizeof(O))));
            const int64_t* o = memo.offsets();
            const int64_t base = n > 0 ? o[start] : 0;
            for (int64_t i = 0; i < n; ++i) {
              offsets.UnsafeAppend(static_cast<O>(o[start + i] - base));
            }
            offsets.UnsafeAppend(static_cast<O>(bytes));
            return offsets.Freeze();
          };
          std::shared_ptr<Buffer> offsets;
          if (IsLargeBinaryLike(id)) {
            QUIVER_ASSIGN_OR_RAISE(offsets, make_offsets(int64_t{}));
          } else {
            QUIVER_ASSIGN_OR_RAISE(offsets, make_offsets(int32_t{}));
          }
          return ArrayData::Make(value_type_, n, {nullptr, std::move(offsets), data.Freeze()}, 0);
        }
      },
      memo_);
}

Result<std::shared_ptr<Buffer>> DictionaryBuilder::FinishIndices() {
  const Type id = index_type_->id();
  if (id == Type::kInt32 || id == Type::kUInt32) return indices_.Freeze();
  const auto* in = indices_.data_as<int32_t>();
  MutableBuffer out(pool_);
  QUIVER_RETURN_NOT_OK(out.Reserve(length_ * index_type_->byte_width()));
  std::shared_ptr<Buffer> result;
  switch (id) {
    case Type::kInt8: result = ConvertIndices<int8_t>(in, length_, out); break;
    case Type::kUInt8: result = ConvertIndices<uint8_t>(in, length_, out); break;
    case Type::kInt16: result = ConvertIndices<int16_t>(in, length_, out); break;
    case Type::kUInt16: result = ConvertIndices<uint16_t>(in, length_, out); break;
    case Type::kInt64: result = ConvertIndices<int64_t>(in, length_, out); break;
    default: result = ConvertIndices<uint64_t>(in, length_, out); break;
  }
  indices_ = MutableBuffer(pool_);
  return result;
}

Result<ArrayDataPtr> DictionaryBuilder::FinishInternal() {
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr dictionary, DictionaryValues(0));
  QUIVER_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> indices, FinishIndices());
  delta_start_ = static_cast<int32_t>(dictionary_length());
  auto out = ArrayData::Make(type_, length_, {FinishValidity(), std::move(indices)}, null_count_);
  out->dictionary = std::move(dictionary);
  return out;
}

Result<DictionaryDelta> DictionaryBuilder::FinishDelta() {
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr delta, DictionaryValues(delta_start_));
  QUIVER_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> indices, FinishIndices());
  delta_start_ = static_cast<int32_t>(dictionary_length());
  DictionaryDelta out;
  out.indices = ArrayData::Make(index_type_, length_, {FinishValidity(), std::move(indices)},
                                null_count_);
  out.delta = std::move(delta);
  Reset();
  return out;
}

Status DictionaryBuilder::Resize(int64_t capacity) {
  if (capacity < length_) {
    return Status::Invalid("Resize: capacity ", capacity, " is less than the length ", length_);
  }
  const int64_t bytes = capacity * static_cast<int64_t>(sizeof(int32_t));
  if (bytes > indices_.size()) QUIVER_RETURN_NOT_OK(indices_.Reserve(bytes - indices_.size()));
  return ArrayBuilder::Resize(capacity);
}

void DictionaryBuilder::Reset() {
  indices_ = MutableBuffer(pool_);
  ArrayBuilder::Reset();
}

void DictionaryBuilder::ResetFull() {
  Reset();
  std::visit([](auto& memo) { memo.Clear(); }, memo_);
  delta_start_ = 0;
}

}  // namespace quiver
