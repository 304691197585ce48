#include "quiver/array/type.h"

#include <cstdio>
#include <cstdlib>

namespace quiver {

std::string_view TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return "s";
    case TimeUnit::kMilli: return "ms";
    case TimeUnit::kMicro: return "us";
    case TimeUnit::kNano: return "ns";
  }
  return "?";
}

// --- KeyValueMetadata -------------------------------------------------------

KeyValueMetadata::KeyValueMetadata(std::vector<std::string> keys,
                                   std::vector<std::string> values)
    : keys_(std::move(keys)), values_(std::move(values)) {
  if (values_.size() != keys_.size()) values_.resize(keys_.size());
}

int64_t KeyValueMetadata::FindKey(std::string_view key) const {
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key) return static_cast<int64_t>(i);
  }
  return -1;
}

std::optional<std::string> KeyValueMetadata::Get(std::string_view key) const {
  int64_t i = FindKey(key);
  if (i < 0) return std::nullopt;
  return values_[static_cast<size_t>(i)];
}

void KeyValueMetadata::Append(std::string key, std::string value) {
  keys_.push_back(std::move(key));
  values_.push_back(std::move(value));
}

bool KeyValueMetadata::Equals(const KeyValueMetadata& other) const {
  return keys_ == other.keys_ && values_ == other.values_;
}

std::string KeyValueMetadata::ToString() const {
  std::string out;
  for (size_t i = 0; i < keys_.size(); ++i) {
    out += "\n  ";
    out += keys_[i];
    out += ": ";
    out += values_[i].size() > 80 ? values_[i].substr(0, 77) + "..." : values_[i];
  }
  return out;
}

MetadataPtr key_value_metadata(std::vector<std::pair<std::string, std::string>> pairs) {
  auto md = std::make_shared<KeyValueMetadata>();
  for (auto& [k, v] : pairs) md->Append(std::move(k), std::move(v));
  return md;
}

namespace {

bool MetadataEquals(const MetadataPtr& a, const MetadataPtr& b) {
  bool a_empty = a == nullptr || a->size() == 0;
  bool b_empty = b == nullptr || b->size() == 0;
  if (a_empty || b_empty) return a_empty == b_empty;
  return a->Equals(*b);
}

bool FieldsEqual(const FieldVector& a, const FieldVector& b, bool check_metadata) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i]->Equals(*b[i], check_metadata)) return false;
  }
  return true;
}

[[noreturn]] void FatalBadType(const Status& st) {
  st.Abort("invalid type parameters");
  std::abort();
}

}  // namespace

// --- DataType ---------------------------------------------------------------

bool DataType::Equals(const DataType& other, bool check_metadata) const {
  if (this == &other) return true;
  if (id_ != other.id_) return false;
  return ParametersEqual(other, check_metadata);
}

bool DataType::ParametersEqual(const DataType& other, bool check_metadata) const {
  return FieldsEqual(children_, other.children_, check_metadata);
}

std::string_view DataType::name() const {
  switch (id_) {
    case Type::kNull: return "null";
    case Type::kBool: return "bool";
    case Type::kUInt8: return "uint8";
    case Type::kInt8: return "int8";
    case Type::kUInt16: return "uint16";
    case Type::kInt16: return "int16";
    case Type::kUInt32: return "uint32";
    case Type::kInt32: return "int32";
    case Type::kUInt64: return "uint64";
    case Type::kInt64: return "int64";
    case Type::kHalfFloat: return "halffloat";
    case Type::kFloat: return "float";
    case Type::kDouble: return "double";
    case Type::kString: return "string";
    case Type::kBinary: return "binary";
    case Type::kFixedSizeBinary: return "fixed_size_binary";
    case Type::kDate32: return "date32";
    case Type::kDate64: return "date64";
    case Type::kTimestamp: return "timestamp";
    case Type::kTime32: return "time32";
    case Type::kTime64: return "time64";
    case Type::kIntervalMonths: return "month_interval";
    case Type::kIntervalDayTime: return "day_time_interval";
    case Type::kIntervalMonthDayNano: return "month_day_nano_interval";
    case Type::kDecimal32: return "decimal32";
    case Type::kDecimal64: return "decimal64";
    case Type::kDecimal128: return "decimal128";
    case Type::kDecimal256: return "decimal256";
    case Type::kList: return "list";
    case Type::kStruct: return "struct";
    case Type::kDictionary: return "dictionary";
    case Type::kMap: return "map";
    case Type::kFixedSizeList: return "fixed_size_list";
    case Type::kDuration: return "duration";
    case Type::kLargeString: return "large_string";
    case Type::kLargeBinary: return "large_binary";
    case Type::kLargeList: return "large_list";
    case Type::kStringView: return "string_view";
    case Type::kBinaryView: return "binary_view";
  }
  return "unknown";
}

std::string DataType::ToString() const {
  switch (id_) {
    case Type::kDate32: return "date32[day]";
    case Type::kDate64: return "date64[ms]";
    default: return std::string(name());
  }
}

int DataType::bit_width() const {
  switch (id_) {
    case Type::kBool: return 1;
    case Type::kUInt8:
    case Type::kInt8: return 8;
    case Type::kUInt16:
    case Type::kInt16:
    case Type::kHalfFloat: return 16;
    case Type::kUInt32:
    case Type::kInt32:
    case Type::kFloat:
    case Type::kDate32:
    case Type::kTime32:
    case Type::kIntervalMonths:
    case Type::kDecimal32: return 32;
    case Type::kUInt64:
    case Type::kInt64:
    case Type::kDouble:
    case Type::kDate64:
    case Type::kTimestamp:
    case Type::kTime64:
    case Type::kDuration:
    case Type::kIntervalDayTime:
    case Type::kDecimal64: return 64;
    case Type::kIntervalMonthDayNano:
    case Type::kDecimal128: return 128;
    case Type::kDecimal256: return 256;
    case Type::kFixedSizeBinary:
      return TypeAs<FixedSizeBinaryType>(*this).fixed_byte_width() * 8;
    default: return -1;
  }
}

std::string FixedSizeBinaryType::ToString() const {
  return "fixed_size_binary[" + std::to_string(byte_width_) + "]";
}
bool FixedSizeBinaryType::ParametersEqual(const DataType& other, bool) const {
  return byte_width_ == TypeAs<FixedSizeBinaryType>(other).byte_width_;
}

int32_t DecimalType::MaxPrecision(Type id) {
  switch (id) {
    case Type::kDecimal32: return 9;
    case Type::kDecimal64: return 18;
    case Type::kDecimal128: return 38;
    case Type::kDecimal256: return 76;
    default: return 0;
  }
}
std::string DecimalType::ToString() const {
  return std::string(name()) + "(" + std::to_string(precision_) + ", " + std::to_string(scale_) +
         ")";
}
bool DecimalType::ParametersEqual(const DataType& other, bool) const {
  const auto& o = TypeAs<DecimalType>(other);
  return precision_ == o.precision_ && scale_ == o.scale_;
}

std::string TemporalType::ToString() const {
  std::string out = std::string(name()) + "[" + std::string(TimeUnitName(unit_));
  if (id_ == Type::kTimestamp && !timezone_.empty()) out += ", tz=" + timezone_;
  return out + "]";
}
bool TemporalType::ParametersEqual(const DataType& other, bool) const {
  const auto& o = TypeAs<TemporalType>(other);
  return unit_ == o.unit_ && timezone_ == o.timezone_;
}

ListType::ListType(Type id, FieldPtr value_field, int32_t list_size)
    : DataType(id), list_size_(list_size) {
  children_.push_back(std::move(value_field));
}
const TypePtr& ListType::value_type() const { return children_[0]->type(); }
std::string ListType::ToString() const {
  std::string out = std::string(name()) + "<" + children_[0]->ToString() + ">";
  if (id_ == Type::kFixedSizeList) out += "[" + std::to_string(list_size_) + "]";
  return out;
}
bool ListType::ParametersEqual(const DataType& other, bool check_metadata) const {
  // The child's name does not make two list types different (as in Arrow).
  const auto& o = TypeAs<ListType>(other);
  const Field& a = *children_[0];
  const Field& b = *o.children_[0];
  return list_size_ == o.list_size_ && a.nullable() == b.nullable() &&
         a.type()->Equals(*b.type(), check_metadata) &&
         (!check_metadata || MetadataEquals(a.metadata(), b.metadata()));
}

StructType::StructType(FieldVector fields) : DataType(Type::kStruct) {
  children_ = std::move(fields);
}
int StructType::GetFieldIndex(std::string_view name) const {
  for (size_t i = 0; i < children_.size(); ++i) {
    if (children_[i]->name() == name) return static_cast<int>(i);
  }
  return -1;
}
std::string StructType::ToString() const {
  std::string out = "struct<";
  for (size_t i = 0; i < children_.size(); ++i) {
    if (i > 0) out += ", ";
    out += children_[i]->ToString();
  }
  return out + ">";
}

MapType::MapType(FieldPtr key_field, FieldPtr item_field, bool keys_sorted,
                 std::string entries_name)
    : DataType(Type::kMap), keys_sorted_(keys_sorted) {
  auto entries = std::make_shared<StructType>(FieldVector{std::move(key_field), std::move(item_field)});
  children_.push_back(std::make_shared<Field>(std::move(entries_name), std::move(entries), false));
}
MapType::MapType(FieldPtr entries_field, bool keys_sorted)
    : DataType(Type::kMap), keys_sorted_(keys_sorted) {
  QUIVER_DCHECK(entries_field->type()->id() == Type::kStruct &&
                entries_field->type()->num_fields() == 2 && !entries_field->nullable());
  children_.push_back(std::move(entries_field));
}
const FieldPtr& MapType::key_field() const { return children_[0]->type()->field(0); }
const FieldPtr& MapType::item_field() const { return children_[0]->type()->field(1); }
const TypePtr& MapType::key_type() const { return key_field()->type(); }
const TypePtr& MapType::item_type() const { return item_field()->type(); }
std::string MapType::ToString() const {
  std::string out = "map<" + key_type()->ToString() + ", " + item_type()->ToString();
  if (keys_sorted_) out += ", keys_sorted";
  return out + ">";
}
bool MapType::ParametersEqual(const DataType& other, bool check_metadata) const {
  // Entry/key/value names do not matter (as in Arrow); types and nullability do.
  const auto& o = TypeAs<MapType>(other);
  return keys_sorted_ == o.keys_sorted_ && key_type()->Equals(*o.key_type(), check_metadata) &&
         item_type()->Equals(*o.item_type(), check_metadata) &&
         item_field()->nullable() == o.item_field()->nullable();
}

std::string DictionaryType::ToString() const {
  return "dictionary<values=" + value_type_->ToString() + ", indices=" + index_type_->ToString() +
         ", ordered=" + (ordered_ ? "1" : "0") + ">";
}
bool DictionaryType::ParametersEqual(const DataType& other, bool check_metadata) const {
  const auto& o = TypeAs<DictionaryType>(other);
  return ordered_ == o.ordered_ && index_type_->Equals(*o.index_type_) &&
         value_type_->Equals(*o.value_type_, check_metadata);
}

// --- Field and Schema -------------------------------------------------------

FieldPtr Field::WithName(std::string name) const {
  return std::make_shared<Field>(std::move(name), type_, nullable_, metadata_);
}
FieldPtr Field::WithType(TypePtr type) const {
  return std::make_shared<Field>(name_, std::move(type), nullable_, metadata_);
}
FieldPtr Field::WithNullable(bool nullable) const {
  return std::make_shared<Field>(name_, type_, nullable, metadata_);
}
FieldPtr Field::WithMetadata(MetadataPtr metadata) const {
  return std::make_shared<Field>(name_, type_, nullable_, std::move(metadata));
}
bool Field::Equals(const Field& other, bool check_metadata) const {
  if (this == &other) return true;
  return name_ == other.name_ && nullable_ == other.nullable_ &&
         type_->Equals(*other.type_, check_metadata) &&
         (!check_metadata || MetadataEquals(metadata_, other.metadata_));
}
std::string Field::ToString() const {
  return name_ + ": " + type_->ToString() + (nullable_ ? "" : " not null");
}

int Schema::GetFieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i]->name() == name) return static_cast<int>(i);
  }
  return -1;
}
SchemaPtr Schema::WithMetadata(MetadataPtr metadata) const {
  return std::make_shared<Schema>(fields_, std::move(metadata));
}
bool Schema::Equals(const Schema& other, bool check_metadata) const {
  if (this == &other) return true;
  return FieldsEqual(fields_, other.fields_, check_metadata) &&
         (!check_metadata || MetadataEquals(metadata_, other.metadata_));
}
std::string Schema::ToString() const {
  std::string out;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i > 0) out += "\n";
    out += fields_[i]->ToString();
  }
  if (metadata_ && metadata_->size() > 0) out += "\n-- schema metadata --" + metadata_->ToString();
  return out;
}

// --- Factories --------------------------------------------------------------

#define QUIVER_SIMPLE_TYPE_FACTORY(fn, id)                         \
  TypePtr fn() {                                                   \
    static const TypePtr type = std::make_shared<DataType>(id);    \
    return type;                                                   \
  }
QUIVER_SIMPLE_TYPE_FACTORY(null, Type::kNull)
QUIVER_SIMPLE_TYPE_FACTORY(boolean, Type::kBool)
QUIVER_SIMPLE_TYPE_FACTORY(int8, Type::kInt8)
QUIVER_SIMPLE_TYPE_FACTORY(int16, Type::kInt16)
QUIVER_SIMPLE_TYPE_FACTORY(int32, Type::kInt32)
QUIVER_SIMPLE_TYPE_FACTORY(int64, Type::kInt64)
QUIVER_SIMPLE_TYPE_FACTORY(uint8, Type::kUInt8)
QUIVER_SIMPLE_TYPE_FACTORY(uint16, Type::kUInt16)
QUIVER_SIMPLE_TYPE_FACTORY(uint32, Type::kUInt32)
QUIVER_SIMPLE_TYPE_FACTORY(uint64, Type::kUInt64)
QUIVER_SIMPLE_TYPE_FACTORY(float16, Type::kHalfFloat)
QUIVER_SIMPLE_TYPE_FACTORY(float32, Type::kFloat)
QUIVER_SIMPLE_TYPE_FACTORY(float64, Type::kDouble)
QUIVER_SIMPLE_TYPE_FACTORY(utf8, Type::kString)
QUIVER_SIMPLE_TYPE_FACTORY(large_utf8, Type::kLargeString)
QUIVER_SIMPLE_TYPE_FACTORY(binary, Type::kBinary)
QUIVER_SIMPLE_TYPE_FACTORY(large_binary, Type::kLargeBinary)
QUIVER_SIMPLE_TYPE_FACTORY(utf8_view, Type::kStringView)
QUIVER_SIMPLE_TYPE_FACTORY(binary_view, Type::kBinaryView)
QUIVER_SIMPLE_TYPE_FACTORY(date32, Type::kDate32)
QUIVER_SIMPLE_TYPE_FACTORY(date64, Type::kDate64)
QUIVER_SIMPLE_TYPE_FACTORY(month_interval, Type::kIntervalMonths)
QUIVER_SIMPLE_TYPE_FACTORY(day_time_interval, Type::kIntervalDayTime)
QUIVER_SIMPLE_TYPE_FACTORY(month_day_nano_interval, Type::kIntervalMonthDayNano)
#undef QUIVER_SIMPLE_TYPE_FACTORY

TypePtr fixed_size_binary(int32_t byte_width) {
  if (byte_width < 0) FatalBadType(Status::Invalid("negative fixed_size_binary width"));
  return std::make_shared<FixedSizeBinaryType>(byte_width);
}

Result<TypePtr> DecimalTypeSafe(Type id, int32_t precision, int32_t scale) {
  int32_t max = DecimalType::MaxPrecision(id);
  if (max == 0) return Status::Invalid("not a decimal type id");
  if (precision < 1 || precision > max) {
    return Status::Invalid("decimal precision must be in 1..", max, " for this width, got ",
                           precision);
  }
  return TypePtr(std::make_shared<DecimalType>(id, precision, scale));
}

static TypePtr DecimalOrDie(Type id, int32_t precision, int32_t scale) {
  auto r = DecimalTypeSafe(id, precision, scale);
  if (!r.ok()) FatalBadType(r.status());
  return *r;
}
TypePtr decimal32(int32_t p, int32_t s) { return DecimalOrDie(Type::kDecimal32, p, s); }
TypePtr decimal64(int32_t p, int32_t s) { return DecimalOrDie(Type::kDecimal64, p, s); }
TypePtr decimal128(int32_t p, int32_t s) { return DecimalOrDie(Type::kDecimal128, p, s); }
TypePtr decimal256(int32_t p, int32_t s) { return DecimalOrDie(Type::kDecimal256, p, s); }

TypePtr timestamp(TimeUnit unit, std::string timezone) {
  return std::make_shared<TemporalType>(Type::kTimestamp, unit, std::move(timezone));
}
TypePtr time32(TimeUnit unit) {
  if (unit != TimeUnit::kSecond && unit != TimeUnit::kMilli) {
    FatalBadType(Status::Invalid("time32 takes seconds or milliseconds"));
  }
  return std::make_shared<TemporalType>(Type::kTime32, unit);
}
TypePtr time64(TimeUnit unit) {
  if (unit != TimeUnit::kMicro && unit != TimeUnit::kNano) {
    FatalBadType(Status::Invalid("time64 takes microseconds or nanoseconds"));
  }
  return std::make_shared<TemporalType>(Type::kTime64, unit);
}
TypePtr duration(TimeUnit unit) { return std::make_shared<TemporalType>(Type::kDuration, unit); }

TypePtr list(TypePtr value_type) { return list(field("item", std::move(value_type))); }
TypePtr list(FieldPtr value_field) {
  return std::make_shared<ListType>(Type::kList, std::move(value_field));
}
TypePtr large_list(TypePtr value_type) { return large_list(field("item", std::move(value_type))); }
TypePtr large_list(FieldPtr value_field) {
  return std::make_shared<ListType>(Type::kLargeList, std::move(value_field));
}
TypePtr fixed_size_list(TypePtr value_type, int32_t list_size) {
  return fixed_size_list(field("item", std::move(value_type)), list_size);
}
TypePtr fixed_size_list(FieldPtr value_field, int32_t list_size) {
  if (list_size < 0) FatalBadType(Status::Invalid("negative fixed_size_list size"));
  return std::make_shared<ListType>(Type::kFixedSizeList, std::move(value_field), list_size);
}
TypePtr struct_(FieldVector fields) { return std::make_shared<StructType>(std::move(fields)); }
TypePtr map(TypePtr key_type, TypePtr item_type, bool keys_sorted) {
  return map(field("key", std::move(key_type), false), field("value", std::move(item_type)),
             keys_sorted);
}
TypePtr map(FieldPtr key_field, FieldPtr item_field, bool keys_sorted) {
  return std::make_shared<MapType>(std::move(key_field), std::move(item_field), keys_sorted);
}
TypePtr dictionary(TypePtr index_type, TypePtr value_type, bool ordered) {
  if (!IsInteger(index_type->id())) {
    FatalBadType(Status::TypeError("dictionary index type must be an integer, got ",
                                   index_type->ToString()));
  }
  return std::make_shared<DictionaryType>(std::move(index_type), std::move(value_type), ordered);
}

FieldPtr field(std::string name, TypePtr type, bool nullable, MetadataPtr metadata) {
  return std::make_shared<Field>(std::move(name), std::move(type), nullable, std::move(metadata));
}
SchemaPtr schema(FieldVector fields, MetadataPtr metadata) {
  return std::make_shared<Schema>(std::move(fields), std::move(metadata));
}

// --- Predicates -------------------------------------------------------------

bool IsSignedInteger(Type id) {
  return id == Type::kInt8 || id == Type::kInt16 || id == Type::kInt32 || id == Type::kInt64;
}
bool IsUnsignedInteger(Type id) {
  return id == Type::kUInt8 || id == Type::kUInt16 || id == Type::kUInt32 || id == Type::kUInt64;
}
bool IsInteger(Type id) { return IsSignedInteger(id) || IsUnsignedInteger(id); }
bool IsFloating(Type id) {
  return id == Type::kHalfFloat || id == Type::kFloat || id == Type::kDouble;
}
bool IsDecimal(Type id) {
  return id == Type::kDecimal32 || id == Type::kDecimal64 || id == Type::kDecimal128 ||
         id == Type::kDecimal256;
}
bool IsBinaryLike(Type id) { return id == Type::kString || id == Type::kBinary; }
bool IsLargeBinaryLike(Type id) { return id == Type::kLargeString || id == Type::kLargeBinary; }
bool IsStringLike(Type id) {
  return id == Type::kString || id == Type::kLargeString || id == Type::kStringView;
}
bool IsBinaryView(Type id) { return id == Type::kStringView || id == Type::kBinaryView; }
bool IsListLike(Type id) {
  return id == Type::kList || id == Type::kLargeList || id == Type::kFixedSizeList ||
         id == Type::kMap;
}
bool IsNested(Type id) { return IsListLike(id) || id == Type::kStruct; }
int64_t FixedWidthBytes(const DataType& type) {
  if (type.id() == Type::kFixedSizeBinary) {
    return TypeAs<FixedSizeBinaryType>(type).fixed_byte_width();
  }
  const int bits = type.bit_width();
  return bits > 0 && bits % 8 == 0 ? bits / 8 : -1;
}
bool IsFixedWidth(Type id) {
  switch (id) {
    case Type::kNull:
    case Type::kString:
    case Type::kBinary:
    case Type::kLargeString:
    case Type::kLargeBinary:
    case Type::kStringView:
    case Type::kBinaryView:
    case Type::kList:
    case Type::kLargeList:
    case Type::kFixedSizeList:
    case Type::kStruct:
    case Type::kMap:
    case Type::kDictionary:
      return false;
    default:
      return true;
  }
}

}  // namespace quiver
