// Array validation; see validate.h for what each depth checks and why the
// order matters. One ArrayValidator per level of the tree:
//
//   1. the level's own header: type known and sane, length/offset, null
//      count, buffer count, buffer pointers, validity bitmap size, child
//      count, child types, dictionary presence and type;
//   2. the children and the dictionary, recursively (so their lengths and
//      bitmaps can be trusted below);
//   3. the level's layout against the trusted children: value/offset/view
//      buffer sizes, first and last offsets, child lengths;
//   4. full mode only: every value (null count, all offsets, UTF-8, views,
//      dictionary indices).
//
// Typed reads go through memcpy (bit_util::SafeLoad): buffers imported from
// C or IPC need not be aligned for their value type.
#include "quiver/array/validate.h"

#include <cstring>
#include <limits>
#include <string>

#include "quiver/array/array.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/utf8.h"

namespace quiver {

// --- Arrays -------------------------------------------------------------------

namespace {

constexpr int64_t kViewSize = 16;
constexpr int32_t kInlineViewSize = 12;
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

template <typename T>
T LoadAt(const uint8_t* base, int64_t index) {
  return bit_util::SafeLoad<T>(base + index * static_cast<int64_t>(sizeof(T)));
}

bool IsKnownType(Type id) {
  switch (id) {
    case Type::kNull:
    case Type::kBool:
    case Type::kUInt8:
    case Type::kInt8:
    case Type::kUInt16:
    case Type::kInt16:
    case Type::kUInt32:
    case Type::kInt32:
    case Type::kUInt64:
    case Type::kInt64:
    case Type::kHalfFloat:
    case Type::kFloat:
    case Type::kDouble:
    case Type::kString:
    case Type::kBinary:
    case Type::kFixedSizeBinary:
    case Type::kDate32:
    case Type::kDate64:
    case Type::kTimestamp:
    case Type::kTime32:
    case Type::kTime64:
    case Type::kIntervalMonths:
    case Type::kIntervalDayTime:
    case Type::kIntervalMonthDayNano:
    case Type::kDecimal32:
    case Type::kDecimal64:
    case Type::kDecimal128:
    case Type::kDecimal256:
    case Type::kList:
    case Type::kStruct:
    case Type::kDictionary:
    case Type::kMap:
    case Type::kFixedSizeList:
    case Type::kDuration:
    case Type::kLargeString:
    case Type::kLargeBinary:
    case Type::kLargeList:
    case Type::kStringView:
    case Type::kBinaryView:
      return true;
  }
  return false;
}

// Up to 4 bytes at `p` as "0xC3 0x28", for UTF-8 error messages.
std::string HexBytes(const uint8_t* p, int64_t n) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  for (int64_t i = 0; i < n && i < 4; ++i) {
    if (i > 0) out += ' ';
    out += "0x";
    out += kDigits[p[i] >> 4];
    out += kDigits[p[i] & 15];
  }
  return out;
}

// Calls check(start, length) -> Status for each run of valid slots (positions
// relative to the array's offset), stopping at the first error. The bitmap
// must have been checked to be large enough, and a known null count of 0
// must have been checked against it (full mode does both first).
template <typename Check>
Status VisitValidRuns(const ArrayData& data, Check&& check) {
  if (data.length == 0) return Status::OK();
  const uint8_t* validity = data.validity();
  if (validity == nullptr || data.null_count == 0) return check(int64_t{0}, data.length);
  Status status;
  bitmap::VisitSetBitRuns(validity, data.offset, data.length, [&](int64_t start, int64_t n) {
    if (status.ok()) status = check(start, n);
  });
  return status;
}

Status ValidateImpl(const ArrayData& data, bool full);

class ArrayValidator {
 public:
  ArrayValidator(const ArrayData& data, bool full) : data_(data), full_(full) {}

  Status Run() {
    if (data_.type == nullptr) return Status::Invalid("array has no type");
    if (!IsKnownType(data_.type->id())) {
      return Status::Invalid("array has an unknown type id ", static_cast<int>(data_.type->id()));
    }
    QUIVER_RETURN_NOT_OK(CheckTypeParameters());
    QUIVER_RETURN_NOT_OK(CheckLengthAndOffset());
    QUIVER_RETURN_NOT_OK(CheckNullCount());
    QUIVER_RETURN_NOT_OK(CheckBufferCount());
    QUIVER_RETURN_NOT_OK(CheckValidityBitmap());
    QUIVER_RETURN_NOT_OK(CheckChildren());
    QUIVER_RETURN_NOT_OK(CheckDictionaryPresence());
    QUIVER_RETURN_NOT_OK(ValidateChildrenAndDictionary());
    QUIVER_RETURN_NOT_OK(CheckLayout());
    if (full_) QUIVER_RETURN_NOT_OK(CheckValues());
    return Status::OK();
  }

 private:
  template <typename... Args>
  Status Invalid(Args&&... args) const {
    return Status::Invalid(data_.type->ToString(), " array: ", std::forward<Args>(args)...);
  }

  Type id() const { return data_.type->id(); }

  // ---- 1. The level's own header --------------------------------------------

  Status CheckTypeParameters() const {
    const DataType& type = *data_.type;
    switch (type.id()) {
      case Type::kFixedSizeBinary:
        if (TypeAs<FixedSizeBinaryType>(type).fixed_byte_width() < 0) {
          return Invalid("negative byte width");
        }
        break;
      case Type::kFixedSizeList:
        if (TypeAs<ListType>(type).list_size() < 0) return Invalid("negative list size");
        break;
      case Type::kDictionary: {
        const auto& dict_type = TypeAs<DictionaryType>(type);
        if (dict_type.index_type() == nullptr || !IsInteger(dict_type.index_type()->id())) {
          return Invalid("the index type must be an integer type");
        }
        if (dict_type.value_type() == nullptr) return Invalid("the value type is missing");
        break;
      }
      default:
        break;
    }
    return Status::OK();
  }

  Status CheckLengthAndOffset() {
    if (data_.length < 0) return Invalid("length ", data_.length, " is negative");
    if (data_.offset < 0) return Invalid("offset ", data_.offset, " is negative");
    if (data_.length > kInt64Max - data_.offset) {
      return Invalid("offset ", data_.offset, " + length ", data_.length, " overflows int64");
    }
    end_ = data_.offset + data_.length;
    return Status::OK();
  }

  Status CheckNullCount() const {
    const int64_t null_count = data_.null_count;
    if (null_count < kUnknownNullCount) return Invalid("null_count ", null_count, " is negative");
    if (null_count > data_.length) {
      return Invalid("null_count ", null_count, " is greater than the length ", data_.length);
    }
    if (id() == Type::kNull && null_count != kUnknownNullCount && null_count != data_.length) {
      return Invalid("null_count ", null_count, " must equal the length ", data_.length,
                     " (every slot of a null array is null)");
    }
    return Status::OK();
  }

  Status CheckBufferCount() const {
    const auto count = static_cast<int64_t>(data_.buffers.size());
    if (IsBinaryView(id())) {
      if (count < 2) {
        return Invalid("expected at least 2 buffers (validity, views), got ", count);
      }
    } else if (count != NumFixedBuffers(id())) {
      return Invalid("expected ", NumFixedBuffers(id()), " buffers, got ", count);
    }
    for (int64_t i = 0; i < count; ++i) {
      const auto& buffer = data_.buffers[static_cast<size_t>(i)];
      if (buffer == nullptr) continue;
      if (buffer->size() < 0) return Invalid("buffer ", i, " has a negative size ", buffer->size());
      if (buffer->data() == nullptr && buffer->size() > 0) {
        return Invalid("buffer ", i, " has ", buffer->size(), " bytes at a null address");
      }
    }
    return Status::OK();
  }

  Status CheckValidityBitmap() const {
    if (id() == Type::kNull) return Status::OK();  // no buffers at all
    const auto& validity = data_.buffers[0];
    if (validity == nullptr) {
      if (data_.null_count > 0) {
        return Invalid("null_count ", data_.null_count, " but no validity bitmap");
      }
      return Status::OK();
    }
    const int64_t needed = bit_util::BytesForBits(end_);
    if (validity->size() < needed) {
      return Invalid("validity bitmap has ", validity->size(), " bytes, needs ", needed,
                     " for offset ", data_.offset, " + length ", data_.length);
    }
    return Status::OK();
  }

  // The type each child array must have.
  const TypePtr& ChildType(size_t i) const {
    if (id() == Type::kMap) return TypeAs<MapType>(*data_.type).entries_field()->type();
    return data_.type->field(static_cast<int>(i))->type();
  }

  std::string ChildContext(size_t i) const {
    return "child " + std::to_string(i) + " (field '" +
           data_.type->field(static_cast<int>(i))->name() + "'): ";
  }

  Status CheckChildren() const {
    size_t expected = 0;
    if (IsListLike(id())) {
      expected = 1;
    } else if (id() == Type::kStruct) {
      expected = static_cast<size_t>(data_.type->num_fields());
    }
    if (data_.children.size() != expected) {
      return Invalid("expected ", expected, " child arrays, got ", data_.children.size());
    }
    for (size_t i = 0; i < expected; ++i) {
      const auto& child = data_.children[i];
      if (child == nullptr) return Invalid("child ", i, " is missing");
      if (child->type == nullptr) return Invalid("child ", i, " has no type");
      const TypePtr& want = ChildType(i);
      if (!child->type->Equals(*want)) {
        return Invalid("child ", i, " has type ", child->type->ToString(), ", the ",
                       id() == Type::kMap ? "entries type" : "field type", " is ",
                       want->ToString());
      }
    }
    return Status::OK();
  }

  Status CheckDictionaryPresence() const {
    if (id() != Type::kDictionary) {
      if (data_.dictionary != nullptr) {
        return Invalid("has a dictionary but is not dictionary-encoded");
      }
      return Status::OK();
    }
    if (data_.dictionary == nullptr) return Invalid("the dictionary is missing");
    const auto& value_type = TypeAs<DictionaryType>(*data_.type).value_type();
    if (data_.dictionary->type == nullptr || !data_.dictionary->type->Equals(*value_type)) {
      return Invalid("the dictionary has type ",
                     data_.dictionary->type ? data_.dictionary->type->ToString() : "(none)",
                     ", the value type is ", value_type->ToString());
    }
    return Status::OK();
  }

  // ---- 2. Recursion ---------------------------------------------------------

  Status ValidateChildrenAndDictionary() const {
    for (size_t i = 0; i < data_.children.size(); ++i) {
      QUIVER_RETURN_NOT_OK(ValidateImpl(*data_.children[i], full_).WithContext(ChildContext(i)));
    }
    if (data_.dictionary != nullptr) {
      QUIVER_RETURN_NOT_OK(ValidateImpl(*data_.dictionary, full_).WithContext("dictionary: "));
    }
    return Status::OK();
  }

  // ---- 3. Layout against the (valid) children --------------------------------

  Status CheckLayout() const {
    switch (id()) {
      case Type::kNull:
        return Status::OK();
      case Type::kBool:
        return CheckValuesBuffer(bit_util::BytesForBits(end_));
      case Type::kString:
      case Type::kBinary:
        return CheckBinaryLayout<int32_t>();
      case Type::kLargeString:
      case Type::kLargeBinary:
        return CheckBinaryLayout<int64_t>();
      case Type::kStringView:
      case Type::kBinaryView:
        return CheckViewLayout();
      case Type::kList:
      case Type::kMap:
        QUIVER_RETURN_NOT_OK(
            CheckOffsetsBuffer<int32_t>(data_.children[0]->length, "child length"));
        return CheckMapEntries();
      case Type::kLargeList:
        return CheckOffsetsBuffer<int64_t>(data_.children[0]->length, "child length");
      case Type::kFixedSizeList:
        return CheckFixedSizeListLayout();
      case Type::kStruct:
        return CheckStructLayout();
      case Type::kDictionary:
        return CheckFixedWidthValues(
            TypeAs<DictionaryType>(*data_.type).index_type()->byte_width(), "indices");
      case Type::kFixedSizeBinary:
        return CheckFixedWidthValues(TypeAs<FixedSizeBinaryType>(*data_.type).fixed_byte_width());
      default:
        return CheckFixedWidthValues(data_.type->byte_width());
    }
  }

  // buffers[1] holds `needed` bytes (or is absent for an empty array).
  Status CheckValuesBuffer(int64_t needed, const char* name = "values") const {
    const auto& values = data_.buffers[1];
    if (values == nullptr) {
      if (data_.length > 0) return Invalid("the ", name, " buffer is missing");
      return Status::OK();
    }
    if (values->size() < needed) {
      return Invalid(name, " buffer has ", values->size(), " bytes, needs ", needed,
                     " for offset ", data_.offset, " + length ", data_.length);
    }
    return Status::OK();
  }

  Status CheckFixedWidthValues(int64_t byte_width, const char* name = "values") const {
    int64_t needed;
    if (__builtin_mul_overflow(end_, byte_width, &needed)) {
      return Invalid("offset ", data_.offset, " + length ", data_.length, " times the width ",
                     byte_width, " overflows int64");
    }
    return CheckValuesBuffer(needed, name);
  }

  // Offsets buffer (buffers[1]) of binary and list arrays: offset + length + 1
  // offsets, the first one >= 0, the last one <= `limit` and >= the first.
  // An empty array may have no (or an empty) offsets buffer.
  template <typename OffsetT>
  Status CheckOffsetsBuffer(int64_t limit, const char* limit_name) const {
    const auto& offsets = data_.buffers[1];
    if (data_.length == 0 && (offsets == nullptr || offsets->size() == 0)) return Status::OK();
    if (offsets == nullptr) return Invalid("the offsets buffer is missing");
    constexpr auto kWidth = static_cast<int64_t>(sizeof(OffsetT));
    if (end_ >= kInt64Max / kWidth) {
      return Invalid("offset ", data_.offset, " + length ", data_.length,
                     " is too large for an offsets buffer");
    }
    const int64_t needed = (end_ + 1) * kWidth;
    if (offsets->size() < needed) {
      return Invalid("offsets buffer has ", offsets->size(), " bytes, needs ", needed,
                     " for offset ", data_.offset, " + length ", data_.length, " + 1 offsets");
    }
    if (data_.length == 0) return Status::OK();
    const int64_t first = LoadAt<OffsetT>(offsets->data(), data_.offset);
    const int64_t last = LoadAt<OffsetT>(offsets->data(), end_);
    if (first < 0) return Invalid("offset ", first, " at slot 0 is negative");
    if (first > limit) {
      return Invalid("offset ", first, " at slot 0 is greater than the ", limit_name, " ", limit);
    }
    if (last < first) {
      return Invalid("offset ", last, " at slot ", data_.length, " is less than the offset ", first,
                     " at slot 0");
    }
    if (last > limit) {
      return Invalid("offset ", last, " at slot ", data_.length, " is greater than the ",
                     limit_name, " ", limit);
    }
    return Status::OK();
  }

  template <typename OffsetT>
  Status CheckBinaryLayout() const {
    const auto& values = data_.buffers[2];
    if (values == nullptr && data_.length > 0) return Invalid("the data buffer is missing");
    return CheckOffsetsBuffer<OffsetT>(values == nullptr ? 0 : values->size(), "data buffer size");
  }

  Status CheckViewLayout() const {
    for (size_t i = 2; i < data_.buffers.size(); ++i) {
      if (data_.buffers[i] == nullptr) {
        return Invalid("data buffer ", i - 2, " (buffer ", i, ") is missing");
      }
    }
    const auto& views = data_.buffers[1];
    if (views == nullptr) {
      if (data_.length > 0) return Invalid("the views buffer is missing");
      return Status::OK();
    }
    int64_t needed;
    if (__builtin_mul_overflow(end_, kViewSize, &needed)) {
      return Invalid("offset ", data_.offset, " + length ", data_.length,
                     " is too large for a views buffer");
    }
    if (views->size() < needed) {
      return Invalid("views buffer has ", views->size(), " bytes, needs ", needed, " for offset ",
                     data_.offset, " + length ", data_.length, " views of 16 bytes");
    }
    return Status::OK();
  }

  Status CheckFixedSizeListLayout() const {
    const int64_t list_size = TypeAs<ListType>(*data_.type).list_size();
    int64_t needed;
    if (__builtin_mul_overflow(end_, list_size, &needed)) {
      return Invalid("offset ", data_.offset, " + length ", data_.length, " times the list size ",
                     list_size, " overflows int64");
    }
    const int64_t child_length = data_.children[0]->length;
    if (child_length < needed) {
      return Invalid(ChildContext(0), "length ", child_length, " is less than ", needed,
                     " = (offset ", data_.offset, " + length ", data_.length, ") * list size ",
                     list_size);
    }
    return Status::OK();
  }

  Status CheckStructLayout() const {
    for (size_t i = 0; i < data_.children.size(); ++i) {
      const int64_t child_length = data_.children[i]->length;
      if (child_length < end_) {
        return Invalid(ChildContext(i), "length ", child_length, " is less than offset ",
                       data_.offset, " + length ", data_.length);
      }
    }
    return Status::OK();
  }

  // Nulls of a whole array: the known null count, or (full mode only) the
  // count from the bitmap, which has been validated by then.
  int64_t NullsOf(const ArrayData& array) const {
    if (!full_ || array.null_count != kUnknownNullCount) return array.null_count;
    const uint8_t* validity = array.validity();
    if (validity == nullptr) return 0;
    return array.length - bitmap::CountSetBits(validity, array.offset, array.length);
  }

  // Map entries may not be null (the entries field is non-nullable), nor may
  // keys (Arrow's MapArray::ValidateChildData). Cheap mode trusts known null
  // counts; full mode counts.
  Status CheckMapEntries() const {
    if (id() != Type::kMap) return Status::OK();
    const ArrayData& entries = *data_.children[0];
    if (entries.type->num_fields() != 2) {
      return Invalid("the entries struct must have 2 fields (key, value), got ",
                     entries.type->num_fields());
    }
    const int64_t entry_nulls = NullsOf(entries);
    if (entry_nulls > 0) {
      return Invalid("the entries struct has ", entry_nulls,
                     " null(s); map entries must not be null");
    }
    const int64_t key_nulls = NullsOf(*entries.children[0]);
    if (key_nulls > 0) {
      return Invalid("the keys have ", key_nulls, " null(s); map keys must not be null");
    }
    return Status::OK();
  }

  // ---- 4. Every value (full mode) ---------------------------------------------

  Status CheckValues() const {
    QUIVER_RETURN_NOT_OK(CheckNullCountAgainstBitmap());
    switch (id()) {
      case Type::kString:
        QUIVER_RETURN_NOT_OK(CheckAllOffsets<int32_t>(DataSize(), "data buffer size"));
        return CheckStringUtf8<int32_t>();
      case Type::kBinary:
        return CheckAllOffsets<int32_t>(DataSize(), "data buffer size");
      case Type::kLargeString:
        QUIVER_RETURN_NOT_OK(CheckAllOffsets<int64_t>(DataSize(), "data buffer size"));
        return CheckStringUtf8<int64_t>();
      case Type::kLargeBinary:
        return CheckAllOffsets<int64_t>(DataSize(), "data buffer size");
      case Type::kList:
      case Type::kMap:
        return CheckAllOffsets<int32_t>(data_.children[0]->length, "child length");
      case Type::kLargeList:
        return CheckAllOffsets<int64_t>(data_.children[0]->length, "child length");
      case Type::kStringView:
      case Type::kBinaryView:
        return CheckViews();
      case Type::kDictionary:
        return CheckDictionaryIndices();
      default:
        return Status::OK();
    }
  }

  int64_t DataSize() const {
    return data_.buffers[2] == nullptr ? 0 : data_.buffers[2]->size();
  }

  Status CheckNullCountAgainstBitmap() const {
    if (id() == Type::kNull || data_.null_count == kUnknownNullCount) return Status::OK();
    const uint8_t* validity = data_.validity();
    if (validity == nullptr) return Status::OK();  // known count is 0 (checked in 1.)
    const int64_t nulls =
        data_.length - bitmap::CountSetBits(validity, data_.offset, data_.length);
    if (nulls != data_.null_count) {
      return Invalid("null_count ", data_.null_count,
                     " does not match the validity bitmap, which has ", nulls, " null(s)");
    }
    return Status::OK();
  }

  // Every offset non-decreasing and <= limit (the first one was checked to be
  // >= 0 in CheckOffsetsBuffer).
  template <typename OffsetT>
  Status CheckAllOffsets(int64_t limit, const char* limit_name) const {
    if (data_.length == 0) return Status::OK();
    const uint8_t* offsets = data_.buffers[1]->data();
    int64_t previous = LoadAt<OffsetT>(offsets, data_.offset);
    for (int64_t i = 1; i <= data_.length; ++i) {
      const int64_t current = LoadAt<OffsetT>(offsets, data_.offset + i);
      if (current < previous) {
        return Invalid("offset ", current, " at slot ", i, " is less than the offset ", previous,
                       " at slot ", i - 1, " (offsets must be non-decreasing)");
      }
      if (current > limit) {
        return Invalid("offset ", current, " at slot ", i, " is greater than the ", limit_name,
                       " ", limit);
      }
      previous = current;
    }
    return Status::OK();
  }

  Status Utf8Error(int64_t slot, const uint8_t* value, int64_t size, int64_t pos) const {
    return Invalid("invalid UTF-8 at slot ", slot, ": byte ", pos, " of the value (",
                   HexBytes(value + pos, size - pos), ")");
  }

  // UTF-8 of the valid slots, one contiguous check per run of valid slots:
  // the concatenation of the run's values is well-formed and every value of
  // the run starts on a character boundary (not on a continuation byte) iff
  // every value is well-formed. On failure, the run is checked value by value
  // to name the first bad slot.
  template <typename OffsetT>
  Status CheckStringUtf8() const {
    const uint8_t* offsets = data_.buffers[1] == nullptr ? nullptr : data_.buffers[1]->data();
    const uint8_t* bytes = data_.buffers[2] == nullptr ? nullptr : data_.buffers[2]->data();
    auto offset_at = [&](int64_t slot) -> int64_t {
      return LoadAt<OffsetT>(offsets, data_.offset + slot);
    };
    return VisitValidRuns(data_, [&](int64_t start, int64_t n) -> Status {
      const int64_t begin = offset_at(start);
      const int64_t end = offset_at(start + n);
      bool ascii = false;
      bool ok = FindInvalidUtf8(bytes + begin, end - begin, &ascii) < 0;
      // (ASCII has no continuation bytes: every value starts on a boundary.)
      for (int64_t slot = start + 1; ok && !ascii && slot < start + n; ++slot) {
        const int64_t at = offset_at(slot);
        ok = at >= end || !IsUtf8Continuation(bytes[at]);
      }
      if (ok) return Status::OK();
      for (int64_t slot = start; slot < start + n; ++slot) {
        const int64_t value_begin = offset_at(slot);
        const int64_t size = offset_at(slot + 1) - value_begin;
        const int64_t pos = FindInvalidUtf8(bytes + value_begin, size);
        if (pos >= 0) return Utf8Error(slot, bytes + value_begin, size, pos);
      }
      return Status::OK();  // unreachable: the run had a bad value
    });
  }

  // Valid slots of binary_view / string_view: length >= 0; views longer than
  // 12 bytes point into an existing data buffer, within its bounds, and carry
  // the value's first 4 bytes as prefix; string views hold UTF-8. The padding
  // of inline views and the views of null slots are not looked at.
  Status CheckViews() const {
    if (data_.length == 0) return Status::OK();
    const uint8_t* views = data_.buffers[1]->data();
    const auto num_data_buffers = static_cast<int64_t>(data_.buffers.size()) - 2;
    const bool utf8 = id() == Type::kStringView;
    return VisitValidRuns(data_, [&](int64_t start, int64_t n) -> Status {
      for (int64_t slot = start; slot < start + n; ++slot) {
        const uint8_t* view = views + (data_.offset + slot) * kViewSize;
        const auto size = bit_util::SafeLoad<int32_t>(view);
        if (size < 0) return Invalid("view at slot ", slot, " has a negative length ", size);
        const uint8_t* value;
        if (size <= kInlineViewSize) {
          value = view + 4;
        } else {
          const auto buffer_index = bit_util::SafeLoad<int32_t>(view + 8);
          const auto offset = bit_util::SafeLoad<int32_t>(view + 12);
          if (buffer_index < 0 || buffer_index >= num_data_buffers) {
            return Invalid("view at slot ", slot, " refers to data buffer ", buffer_index,
                           ", but the array has ", num_data_buffers, " data buffer(s)");
          }
          if (offset < 0) return Invalid("view at slot ", slot, " has a negative offset ", offset);
          const Buffer& buffer = *data_.buffers[static_cast<size_t>(2 + buffer_index)];
          if (int64_t{offset} + size > buffer.size()) {
            return Invalid("view at slot ", slot, " spans bytes [", offset, ", ",
                           int64_t{offset} + size, ") of data buffer ", buffer_index,
                           ", which has ", buffer.size(), " bytes");
          }
          value = buffer.data() + offset;
          if (std::memcmp(view + 4, value, 4) != 0) {
            return Invalid("view at slot ", slot,
                           " has a prefix that differs from the first 4 bytes of its value");
          }
        }
        if (utf8) {
          const int64_t pos = FindInvalidUtf8(value, size);
          if (pos >= 0) return Utf8Error(slot, value, size, pos);
        }
      }
      return Status::OK();
    });
  }

  template <typename IndexT>
  Status CheckIndicesOf() const {
    const int64_t dictionary_length = data_.dictionary->length;
    const uint8_t* indices = data_.buffers[1]->data();
    return VisitValidRuns(data_, [&](int64_t start, int64_t n) -> Status {
      for (int64_t slot = start; slot < start + n; ++slot) {
        const IndexT index = LoadAt<IndexT>(indices, data_.offset + slot);
        bool in_range;
        if constexpr (std::is_signed_v<IndexT>) {
          in_range = index >= 0 && static_cast<int64_t>(index) < dictionary_length;
        } else {
          in_range = static_cast<uint64_t>(index) < static_cast<uint64_t>(dictionary_length);
        }
        if (!in_range) {
          return Invalid("index ", +index, " at slot ", slot,
                         " is out of bounds of the dictionary of length ", dictionary_length);
        }
      }
      return Status::OK();
    });
  }

  Status CheckDictionaryIndices() const {
    if (data_.length == 0) return Status::OK();
    switch (TypeAs<DictionaryType>(*data_.type).index_type()->id()) {
      case Type::kInt8: return CheckIndicesOf<int8_t>();
      case Type::kUInt8: return CheckIndicesOf<uint8_t>();
      case Type::kInt16: return CheckIndicesOf<int16_t>();
      case Type::kUInt16: return CheckIndicesOf<uint16_t>();
      case Type::kInt32: return CheckIndicesOf<int32_t>();
      case Type::kUInt32: return CheckIndicesOf<uint32_t>();
      case Type::kInt64: return CheckIndicesOf<int64_t>();
      case Type::kUInt64: return CheckIndicesOf<uint64_t>();
      default: return Invalid("the index type must be an integer type");
    }
  }

  const ArrayData& data_;
  const bool full_;
  int64_t end_ = 0;  // offset + length, once checked not to overflow
};

Status ValidateImpl(const ArrayData& data, bool full) { return ArrayValidator(data, full).Run(); }

}  // namespace

Status ValidateArray(const ArrayData& data) { return ValidateImpl(data, /*full=*/false); }

Status ValidateArrayFull(const ArrayData& data) { return ValidateImpl(data, /*full=*/true); }

Status Array::Validate() const { return ValidateArray(*data_); }

Status Array::ValidateFull() const { return ValidateArrayFull(*data_); }

}  // namespace quiver
