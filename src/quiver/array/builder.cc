// ArrayBuilder's shared machinery (growth, the lazy validity bitmap, Finish)
// and MakeBuilder. Design notes: builder.h.
#include "quiver/array/builder.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_dict.h"
#include "quiver/array/builder_nested.h"
#include "quiver/array/builder_primitive.h"
#include "quiver/util/bitmap.h"

namespace quiver {

namespace {
constexpr int64_t kMinBuilderCapacity = 32;
}  // namespace

ArrayBuilder::ArrayBuilder(TypePtr type, MemoryPool* pool)
    : type_(std::move(type)), pool_(pool), validity_(pool) {}

ArrayBuilder::~ArrayBuilder() = default;

Status ArrayBuilder::ReserveSlow(int64_t additional) {
  if (additional < 0) return Status::Invalid("Reserve: negative slot count ", additional);
  if (additional > std::numeric_limits<int64_t>::max() / 2 - length_) {
    return Status::CapacityError("Reserve: ", length_, " + ", additional,
                                 " slots overflow a builder's capacity");
  }
  const int64_t needed = length_ + additional;
  return Resize(std::max({needed, capacity_ * 2, kMinBuilderCapacity}));
}

Status ArrayBuilder::Resize(int64_t capacity) {
  if (capacity < length_) {
    return Status::Invalid("Resize: capacity ", capacity, " is less than the length ", length_);
  }
  const int64_t bytes = bit_util::BytesForBits(capacity);
  if (validity_data_ == nullptr) {
    // Not materialised: size() is 0, only the room is reserved.
    QUIVER_RETURN_NOT_OK(validity_.Reserve(bytes));
  } else {
    QUIVER_RETURN_NOT_OK(validity_.Resize(bytes, 0));
    validity_data_ = validity_.data();
  }
  capacity_ = capacity;
  return Status::OK();
}

void ArrayBuilder::MaterializeValidity() {
  // Room for BytesForBits(capacity_) bytes was reserved by Resize.
  const int64_t bytes = bit_util::BytesForBits(capacity_);
  uint8_t* data = validity_.data();
  if (bytes > 0) std::memset(data, 0, static_cast<size_t>(bytes));
  validity_.UnsafeSetSize(bytes);
  bitmap::SetBitsTo(data, 0, length_, true);
  validity_data_ = data;
}

void ArrayBuilder::UnsafeAppendValidBits(int64_t n) {
  if (validity_data_ != nullptr) bitmap::SetBitsTo(validity_data_, length_, n, true);
  length_ += n;
}

void ArrayBuilder::UnsafeAppendNullBits(int64_t n) {
  if (n <= 0) return;
  if (validity_data_ == nullptr) MaterializeValidity();
  null_count_ += n;
  length_ += n;  // the bits stay 0
}

void ArrayBuilder::UnsafeAppendValidBytes(const uint8_t* valid_bytes, int64_t n) {
  if (valid_bytes == nullptr) {
    UnsafeAppendValidBits(n);
    return;
  }
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) nulls += valid_bytes[i] == 0;
  if (nulls == 0) {
    UnsafeAppendValidBits(n);
    return;
  }
  if (validity_data_ == nullptr) MaterializeValidity();
  for (int64_t i = 0; i < n; ++i) {
    if (valid_bytes[i] != 0) bit_util::SetBit(validity_data_, length_ + i);
  }
  null_count_ += nulls;
  length_ += n;
}

void ArrayBuilder::UnsafeAppendValidBitmap(const uint8_t* bitmap, int64_t bit_offset, int64_t n) {
  if (bitmap == nullptr) {
    UnsafeAppendValidBits(n);
    return;
  }
  const int64_t nulls = n - bitmap::CountSetBits(bitmap, bit_offset, n);
  if (nulls == 0) {
    UnsafeAppendValidBits(n);
    return;
  }
  if (validity_data_ == nullptr) MaterializeValidity();
  bitmap::CopyBitmap(bitmap, bit_offset, n, validity_data_, length_);
  null_count_ += nulls;
  length_ += n;
}

std::shared_ptr<Buffer> ArrayBuilder::FinishValidity() {
  if (null_count_ == 0 || validity_data_ == nullptr) return nullptr;
  // Shrinking the size never allocates; Freeze zeroes the rest.
  validity_.UnsafeSetSize(bit_util::BytesForBits(length_));
  validity_data_ = nullptr;
  return validity_.Freeze();
}

Result<ArrayDataPtr> ArrayBuilder::Finish() {
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr out, FinishInternal());
  Reset();
  return out;
}

Result<ArrayPtr> ArrayBuilder::FinishArray() {
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr data, Finish());
  return MakeArray(std::move(data));
}

void ArrayBuilder::Reset() {
  length_ = 0;
  null_count_ = 0;
  capacity_ = 0;
  validity_ = MutableBuffer(pool_);
  validity_data_ = nullptr;
  for (auto& child : children_) child->Reset();
}

// --- MakeBuilder -------------------------------------------------------------

namespace {

template <typename B>
Result<std::unique_ptr<ArrayBuilder>> Make(const TypePtr& type, MemoryPool* pool) {
  return std::unique_ptr<ArrayBuilder>(std::make_unique<B>(type, pool));
}

}  // namespace

Result<std::unique_ptr<ArrayBuilder>> MakeBuilder(const TypePtr& type, MemoryPool* pool) {
  if (type == nullptr) return Status::Invalid("MakeBuilder: null type");
  if (pool == nullptr) return Status::Invalid("MakeBuilder: null memory pool");
  switch (type->id()) {
    case Type::kNull: return std::unique_ptr<ArrayBuilder>(std::make_unique<NullBuilder>(pool));
    case Type::kBool: return std::unique_ptr<ArrayBuilder>(std::make_unique<BooleanBuilder>(pool));
    case Type::kInt8: return Make<Int8Builder>(type, pool);
    case Type::kInt16: return Make<Int16Builder>(type, pool);
    case Type::kInt32:
    case Type::kDate32:
    case Type::kTime32:
    case Type::kIntervalMonths: return Make<Int32Builder>(type, pool);
    case Type::kInt64:
    case Type::kDate64:
    case Type::kTime64:
    case Type::kTimestamp:
    case Type::kDuration: return Make<Int64Builder>(type, pool);
    case Type::kIntervalDayTime:
      return std::unique_ptr<ArrayBuilder>(std::make_unique<DayTimeIntervalBuilder>(pool));
    case Type::kUInt8: return Make<UInt8Builder>(type, pool);
    case Type::kUInt16:
    case Type::kHalfFloat: return Make<UInt16Builder>(type, pool);
    case Type::kUInt32: return Make<UInt32Builder>(type, pool);
    case Type::kUInt64: return Make<UInt64Builder>(type, pool);
    case Type::kFloat: return Make<FloatBuilder>(type, pool);
    case Type::kDouble: return Make<DoubleBuilder>(type, pool);
    case Type::kFixedSizeBinary: return Make<FixedSizeBinaryBuilder>(type, pool);
    case Type::kDecimal32:
    case Type::kDecimal64:
    case Type::kDecimal128:
    case Type::kDecimal256: return Make<DecimalBuilder>(type, pool);
    case Type::kIntervalMonthDayNano:
      return std::unique_ptr<ArrayBuilder>(std::make_unique<MonthDayNanoIntervalBuilder>(pool));
    case Type::kString:
      return std::unique_ptr<ArrayBuilder>(std::make_unique<StringBuilder>(pool));
    case Type::kBinary:
      return std::unique_ptr<ArrayBuilder>(std::make_unique<BinaryBuilder>(pool));
    case Type::kLargeString:
      return std::unique_ptr<ArrayBuilder>(std::make_unique<LargeStringBuilder>(pool));
    case Type::kLargeBinary:
      return std::unique_ptr<ArrayBuilder>(std::make_unique<LargeBinaryBuilder>(pool));
    case Type::kStringView:
    case Type::kBinaryView: return Make<BinaryViewBuilder>(type, pool);
    case Type::kList:
    case Type::kLargeList:
    case Type::kFixedSizeList: {
      const auto& list_type = TypeAs<ListType>(*type);
      QUIVER_ASSIGN_OR_RAISE(auto values, MakeBuilder(list_type.value_type(), pool));
      std::unique_ptr<ArrayBuilder> out;
      if (type->id() == Type::kList) {
        out = std::make_unique<ListBuilder>(type, std::move(values), pool);
      } else if (type->id() == Type::kLargeList) {
        out = std::make_unique<LargeListBuilder>(type, std::move(values), pool);
      } else {
        if (list_type.list_size() < 0) {
          return Status::Invalid("MakeBuilder: ", type->ToString(), " has a negative list size");
        }
        out = std::make_unique<FixedSizeListBuilder>(type, std::move(values), pool);
      }
      return out;
    }
    case Type::kStruct: {
      std::vector<std::unique_ptr<ArrayBuilder>> fields;
      fields.reserve(static_cast<size_t>(type->num_fields()));
      for (const auto& f : type->fields()) {
        QUIVER_ASSIGN_OR_RAISE(auto b, MakeBuilder(f->type(), pool));
        fields.push_back(std::move(b));
      }
      return std::unique_ptr<ArrayBuilder>(
          std::make_unique<StructBuilder>(type, std::move(fields), pool));
    }
    case Type::kMap: {
      const auto& map_type = TypeAs<MapType>(*type);
      QUIVER_ASSIGN_OR_RAISE(auto keys, MakeBuilder(map_type.key_type(), pool));
      QUIVER_ASSIGN_OR_RAISE(auto items, MakeBuilder(map_type.item_type(), pool));
      return std::unique_ptr<ArrayBuilder>(
          std::make_unique<MapBuilder>(std::move(keys), std::move(items), type, pool));
    }
    case Type::kDictionary: {
      QUIVER_ASSIGN_OR_RAISE(auto dict, DictionaryBuilder::Make(type, pool));
      return std::unique_ptr<ArrayBuilder>(std::move(dict));
    }
  }
  return Status::NotImplemented("MakeBuilder: no builder for ", type->ToString());
}

}  // namespace quiver
