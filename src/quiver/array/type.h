// Arrow logical types: DataType, Field, Schema.
//
// The set follows the Arrow columnar format (format/Schema.fbs): every type
// has an id; parametric types (timestamps, decimals, fixed-size binary,
// nested and dictionary types) are subclasses carrying their parameters.
// Types are immutable and shared (std::shared_ptr<const DataType> via the
// alias TypePtr); factories such as int32(), utf8(), timestamp(unit, tz),
// list(value) build them. Equality is structural.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quiver/util/result.h"

namespace quiver {

enum class Type : uint8_t {
  kNull,
  kBool,
  kUInt8,
  kInt8,
  kUInt16,
  kInt16,
  kUInt32,
  kInt32,
  kUInt64,
  kInt64,
  kHalfFloat,
  kFloat,
  kDouble,
  kString,
  kBinary,
  kFixedSizeBinary,
  kDate32,
  kDate64,
  kTimestamp,
  kTime32,
  kTime64,
  kIntervalMonths,
  kIntervalDayTime,
  kIntervalMonthDayNano,
  kDecimal32,
  kDecimal64,
  kDecimal128,
  kDecimal256,
  kList,
  kStruct,
  kDictionary,
  kMap,
  kFixedSizeList,
  kDuration,
  kLargeString,
  kLargeBinary,
  kLargeList,
  kStringView,
  kBinaryView,
};

enum class TimeUnit : uint8_t { kSecond, kMilli, kMicro, kNano };
std::string_view TimeUnitName(TimeUnit unit);  // "s", "ms", "us", "ns"

class DataType;
class Field;
class Schema;
class KeyValueMetadata;
using TypePtr = std::shared_ptr<const DataType>;
using FieldPtr = std::shared_ptr<const Field>;
using SchemaPtr = std::shared_ptr<const Schema>;
using MetadataPtr = std::shared_ptr<const KeyValueMetadata>;
using FieldVector = std::vector<FieldPtr>;

// Ordered string key/value pairs (duplicates allowed, as in the format).
class KeyValueMetadata {
 public:
  KeyValueMetadata() = default;
  KeyValueMetadata(std::vector<std::string> keys, std::vector<std::string> values);

  int64_t size() const { return static_cast<int64_t>(keys_.size()); }
  const std::string& key(int64_t i) const { return keys_[static_cast<size_t>(i)]; }
  const std::string& value(int64_t i) const { return values_[static_cast<size_t>(i)]; }
  const std::vector<std::string>& keys() const { return keys_; }
  const std::vector<std::string>& values() const { return values_; }
  // Index of the first pair with this key, or -1.
  int64_t FindKey(std::string_view key) const;
  std::optional<std::string> Get(std::string_view key) const;
  void Append(std::string key, std::string value);
  bool Equals(const KeyValueMetadata& other) const;
  std::string ToString() const;

 private:
  std::vector<std::string> keys_;
  std::vector<std::string> values_;
};

MetadataPtr key_value_metadata(std::vector<std::pair<std::string, std::string>> pairs);

class DataType {
 public:
  explicit DataType(Type id) : id_(id) {}
  virtual ~DataType() = default;
  DataType(const DataType&) = delete;
  DataType& operator=(const DataType&) = delete;

  Type id() const { return id_; }
  // Child fields of nested types (list: 1, struct: n, map: 1 entries struct,
  // fixed-size list: 1); empty otherwise.
  const FieldVector& fields() const { return children_; }
  int num_fields() const { return static_cast<int>(children_.size()); }
  const FieldPtr& field(int i) const { return children_[static_cast<size_t>(i)]; }

  // Structural equality; field metadata is compared when `check_metadata`.
  bool Equals(const DataType& other, bool check_metadata = false) const;
  bool Equals(const TypePtr& other, bool check_metadata = false) const {
    return other != nullptr && Equals(*other, check_metadata);
  }
  // Arrow's text form: "int32", "timestamp[us, tz=UTC]", "list<item: int64>".
  virtual std::string ToString() const;
  // The type's name without parameters: "timestamp", "list".
  std::string_view name() const;

  // Width in bits of one value for fixed-width types (bool: 1); -1 for
  // variable-width, nested and null types.
  int bit_width() const;
  int byte_width() const {
    const int bits = bit_width();
    return bits >= 0 && bits % 8 == 0 ? bits / 8 : -1;
  }

 protected:
  virtual bool ParametersEqual(const DataType& other, bool check_metadata) const;
  Type id_;
  FieldVector children_;
};

class FixedSizeBinaryType final : public DataType {
 public:
  explicit FixedSizeBinaryType(int32_t byte_width)
      : DataType(Type::kFixedSizeBinary), byte_width_(byte_width) {}
  int32_t fixed_byte_width() const { return byte_width_; }
  std::string ToString() const override;

 private:
  bool ParametersEqual(const DataType& other, bool) const override;
  int32_t byte_width_;
};

// decimal32/64/128/256: id selects the storage width (4, 8, 16, 32 bytes).
class DecimalType final : public DataType {
 public:
  DecimalType(Type id, int32_t precision, int32_t scale)
      : DataType(id), precision_(precision), scale_(scale) {}
  int32_t precision() const { return precision_; }
  int32_t scale() const { return scale_; }
  // Largest precision the storage width can hold: 9, 18, 38, 76.
  static int32_t MaxPrecision(Type id);
  std::string ToString() const override;

 private:
  bool ParametersEqual(const DataType& other, bool) const override;
  int32_t precision_;
  int32_t scale_;
};

// timestamp, time32, time64, duration: a unit (and a timezone for timestamps;
// empty means a naive, wall-clock timestamp).
class TemporalType final : public DataType {
 public:
  TemporalType(Type id, TimeUnit unit, std::string timezone = {})
      : DataType(id), unit_(unit), timezone_(std::move(timezone)) {}
  TimeUnit unit() const { return unit_; }
  const std::string& timezone() const { return timezone_; }
  std::string ToString() const override;

 private:
  bool ParametersEqual(const DataType& other, bool) const override;
  TimeUnit unit_;
  std::string timezone_;
};

// list, large_list (one child), fixed_size_list (one child and a size).
class ListType final : public DataType {
 public:
  ListType(Type id, FieldPtr value_field, int32_t list_size = -1);
  const FieldPtr& value_field() const { return children_[0]; }
  const TypePtr& value_type() const;
  // Values per list for fixed_size_list; -1 otherwise.
  int32_t list_size() const { return list_size_; }
  std::string ToString() const override;

 private:
  bool ParametersEqual(const DataType& other, bool) const override;
  int32_t list_size_;
};

class StructType final : public DataType {
 public:
  explicit StructType(FieldVector fields);
  // Index of the first child named `name`, or -1.
  int GetFieldIndex(std::string_view name) const;
  std::string ToString() const override;
};

// map<key, item>: physically a list of struct<key, value> entries.
class MapType final : public DataType {
 public:
  MapType(FieldPtr key_field, FieldPtr item_field, bool keys_sorted,
          std::string entries_name = "entries");
  // From the entries field itself (a non-nullable struct of key and
  // value), which keeps its metadata (a Parquet reader puts the key-value
  // group's field id there). The caller guarantees the shape.
  MapType(FieldPtr entries_field, bool keys_sorted);
  // The single child: the non-nullable struct of (key, value).
  const FieldPtr& entries_field() const { return children_[0]; }
  const FieldPtr& key_field() const;
  const FieldPtr& item_field() const;
  const TypePtr& key_type() const;
  const TypePtr& item_type() const;
  bool keys_sorted() const { return keys_sorted_; }
  std::string ToString() const override;

 private:
  bool ParametersEqual(const DataType& other, bool) const override;
  bool keys_sorted_;
};

class DictionaryType final : public DataType {
 public:
  DictionaryType(TypePtr index_type, TypePtr value_type, bool ordered)
      : DataType(Type::kDictionary),
        index_type_(std::move(index_type)),
        value_type_(std::move(value_type)),
        ordered_(ordered) {}
  const TypePtr& index_type() const { return index_type_; }
  const TypePtr& value_type() const { return value_type_; }
  bool ordered() const { return ordered_; }
  std::string ToString() const override;

 private:
  bool ParametersEqual(const DataType& other, bool check_metadata) const override;
  TypePtr index_type_;
  TypePtr value_type_;
  bool ordered_;
};

class Field {
 public:
  Field(std::string name, TypePtr type, bool nullable = true, MetadataPtr metadata = nullptr)
      : name_(std::move(name)),
        type_(std::move(type)),
        nullable_(nullable),
        metadata_(std::move(metadata)) {}

  const std::string& name() const { return name_; }
  const TypePtr& type() const { return type_; }
  bool nullable() const { return nullable_; }
  const MetadataPtr& metadata() const { return metadata_; }

  FieldPtr WithName(std::string name) const;
  FieldPtr WithType(TypePtr type) const;
  FieldPtr WithNullable(bool nullable) const;
  FieldPtr WithMetadata(MetadataPtr metadata) const;

  bool Equals(const Field& other, bool check_metadata = false) const;
  // "name: type" plus " not null" for a non-nullable field.
  std::string ToString() const;

 private:
  std::string name_;
  TypePtr type_;
  bool nullable_;
  MetadataPtr metadata_;
};

class Schema {
 public:
  explicit Schema(FieldVector fields, MetadataPtr metadata = nullptr)
      : fields_(std::move(fields)), metadata_(std::move(metadata)) {}

  const FieldVector& fields() const { return fields_; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  const FieldPtr& field(int i) const { return fields_[static_cast<size_t>(i)]; }
  const MetadataPtr& metadata() const { return metadata_; }
  // Index of the first field named `name`, or -1.
  int GetFieldIndex(std::string_view name) const;
  SchemaPtr WithMetadata(MetadataPtr metadata) const;

  bool Equals(const Schema& other, bool check_metadata = false) const;
  std::string ToString() const;  // one field per line

 private:
  FieldVector fields_;
  MetadataPtr metadata_;
};

// --- Factories --------------------------------------------------------------
TypePtr null();
TypePtr boolean();
TypePtr int8();
TypePtr int16();
TypePtr int32();
TypePtr int64();
TypePtr uint8();
TypePtr uint16();
TypePtr uint32();
TypePtr uint64();
TypePtr float16();
TypePtr float32();
TypePtr float64();
TypePtr utf8();
TypePtr large_utf8();
TypePtr binary();
TypePtr large_binary();
TypePtr utf8_view();
TypePtr binary_view();
TypePtr date32();
TypePtr date64();
TypePtr month_interval();
TypePtr day_time_interval();
TypePtr month_day_nano_interval();
TypePtr fixed_size_binary(int32_t byte_width);
// Decimals: precision in 1..MaxPrecision, else Invalid (the Safe variants);
// the plain factories abort on bad parameters and are for literals.
Result<TypePtr> DecimalTypeSafe(Type id, int32_t precision, int32_t scale);
TypePtr decimal32(int32_t precision, int32_t scale);
TypePtr decimal64(int32_t precision, int32_t scale);
TypePtr decimal128(int32_t precision, int32_t scale);
TypePtr decimal256(int32_t precision, int32_t scale);
TypePtr timestamp(TimeUnit unit, std::string timezone = {});
TypePtr time32(TimeUnit unit);  // seconds or milliseconds
TypePtr time64(TimeUnit unit);  // microseconds or nanoseconds
TypePtr duration(TimeUnit unit);
TypePtr list(TypePtr value_type);  // child named "item", nullable
TypePtr list(FieldPtr value_field);
TypePtr large_list(TypePtr value_type);
TypePtr large_list(FieldPtr value_field);
TypePtr fixed_size_list(TypePtr value_type, int32_t list_size);
TypePtr fixed_size_list(FieldPtr value_field, int32_t list_size);
TypePtr struct_(FieldVector fields);
TypePtr map(TypePtr key_type, TypePtr item_type, bool keys_sorted = false);
TypePtr map(FieldPtr key_field, FieldPtr item_field, bool keys_sorted = false);
TypePtr dictionary(TypePtr index_type, TypePtr value_type, bool ordered = false);

FieldPtr field(std::string name, TypePtr type, bool nullable = true,
               MetadataPtr metadata = nullptr);
SchemaPtr schema(FieldVector fields, MetadataPtr metadata = nullptr);

// --- Type predicates --------------------------------------------------------
bool IsInteger(Type id);
bool IsSignedInteger(Type id);
bool IsUnsignedInteger(Type id);
bool IsFloating(Type id);
bool IsDecimal(Type id);
// Variable-width binary/string with 32-bit or 64-bit offsets.
bool IsBinaryLike(Type id);
bool IsLargeBinaryLike(Type id);
bool IsStringLike(Type id);  // string, large_string, string_view
bool IsBinaryView(Type id);  // binary_view, string_view
bool IsListLike(Type id);    // list, large_list, fixed_size_list, map
bool IsNested(Type id);      // list-like, struct, map
// One values buffer of fixed width (bool included; decimals, fsb, temporal).
bool IsFixedWidth(Type id);
// Bytes per value of a fixed-width type other than bool (fixed_size_binary
// of width 0 included), or -1.
int64_t FixedWidthBytes(const DataType& type);

// A checked downcast for parametric types: `TypeAs<TemporalType>(*t)`.
template <typename T>
const T& TypeAs(const DataType& type) {
  return static_cast<const T&>(type);
}

}  // namespace quiver
