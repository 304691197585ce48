// Parquet schema -> Arrow fields and ReadNodes, as pyarrow 26 reads them.
//
// The rules are Arrow C++'s (parquet/arrow/schema.cc NodeToSchemaField,
// ListToSchemaField, MapToSchemaField; schema_internal.cc GetArrowType;
// parquet/schema.cc, which validates annotations when it builds the node
// tree), checked against pyarrow 26.0.1 by parquet_to_arrow_files_test.cc
// over testdata and over crafted footers (testdata/dump_pyarrow_schemas.py):
//   - a leaf's type comes from its logical type when it has one (a logical
//     type that does not fit the physical type, or one this reader does not
//     know, is ignored: the physical type, not the converted type), else
//     from its converted type (one that does not fit is an error; Thrift
//     value 24, Arrow C++'s NA, is a null column), else from its physical
//     type;
//   - invalid parameters are errors wherever they are: DECIMAL precision
//     < 1 or beyond 76, scale < 0 or > precision, TIME / TIMESTAMP without
//     a unit, INTEGER of another width than 8, 16, 32, 64; a group
//     annotated with anything but LIST, MAP, MAP_KEY_VALUE (VARIANT: read
//     as a plain struct) is an error;
//   - lists follow LogicalTypes.md's backward-compatibility rules as Arrow
//     C++ applies them (see List below).
// The walk recurses once per nesting level; SchemaDescriptor bounds the
// depth (pyarrow refuses schemas deeper than 100 levels: a reader that
// wants its errors builds the descriptor with max_depth 99).
#include "quiver/parquet/schema/parquet_to_arrow.h"

#include <cmath>
#include <string>
#include <utility>

#include "quiver/parquet/schema/parquet_to_arrow_internal.h"

namespace quiver::parquet {

namespace internal {

std::string NodePath(const SchemaDescriptor& descriptor, int32_t node) {
  std::vector<int32_t> chain;
  for (int32_t i = node; i > 0; i = descriptor.node(i).parent) chain.push_back(i);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!out.empty()) out += '.';
    out += descriptor.node(*it).name;
  }
  return out;
}

std::string_view ExtensionName(const KeyValueMetadata* metadata) {
  if (metadata == nullptr) return {};
  const int64_t i = metadata->FindKey(kExtensionNameKey);
  return i < 0 ? std::string_view() : std::string_view(metadata->value(i));
}

MetadataPtr WithoutExtension(const MetadataPtr& metadata) {
  if (metadata == nullptr) return nullptr;
  auto out = std::make_shared<KeyValueMetadata>();
  for (int64_t i = 0; i < metadata->size(); ++i) {
    if (metadata->key(i) == kExtensionNameKey || metadata->key(i) == kExtensionMetadataKey)
      continue;
    out->Append(metadata->key(i), metadata->value(i));
  }
  return out->size() == 0 ? nullptr : MetadataPtr(std::move(out));
}

MetadataPtr WithExtension(const MetadataPtr& metadata, std::string_view name,
                          std::string_view serialized) {
  auto out = std::make_shared<KeyValueMetadata>();
  if (MetadataPtr rest = WithoutExtension(metadata)) *out = *rest;
  out->Append(std::string(kExtensionNameKey), std::string(name));
  out->Append(std::string(kExtensionMetadataKey), std::string(serialized));
  return out;
}

}  // namespace internal

namespace {

using format::ConvertedType;
using LogicalKind = format::LogicalType::Kind;
using internal::NodePath;

std::string_view LogicalTypeName(LogicalKind kind) {
  switch (kind) {
    case LogicalKind::kNone: return "(no member set, or one unknown to this reader)";
    case LogicalKind::kString: return "STRING";
    case LogicalKind::kMap: return "MAP";
    case LogicalKind::kList: return "LIST";
    case LogicalKind::kEnum: return "ENUM";
    case LogicalKind::kDecimal: return "DECIMAL";
    case LogicalKind::kDate: return "DATE";
    case LogicalKind::kTime: return "TIME";
    case LogicalKind::kTimestamp: return "TIMESTAMP";
    case LogicalKind::kInteger: return "INTEGER";
    case LogicalKind::kUnknown: return "UNKNOWN";
    case LogicalKind::kJson: return "JSON";
    case LogicalKind::kBson: return "BSON";
    case LogicalKind::kUuid: return "UUID";
    case LogicalKind::kFloat16: return "FLOAT16";
    case LogicalKind::kVariant: return "VARIANT";
    case LogicalKind::kGeometry: return "GEOMETRY";
    case LogicalKind::kGeography: return "GEOGRAPHY";
    case LogicalKind::kVector: return "VECTOR";
  }
  return "?";
}

// Thrift value 24, past parquet.thrift's last converted type (INTERVAL =
// 21): Arrow C++ reads Thrift value v as its ConvertedType v + 1
// (thrift_internal.h FromThriftUnsafe), and 25 there is NA, an obsolete
// annotation of all-null columns that interim parquet-cpp releases wrote
// (PARQUET-1990), read as a null column whatever the values. pyarrow
// refuses the other values past 21 ("UNKNOWN cannot be applied to a
// primitive type"), and so does this reader.
constexpr ConvertedType kConvertedNa = static_cast<ConvertedType>(24);

std::string ConvertedTypeName(ConvertedType type) {
  if (type == kConvertedNa) return "NA (24)";
  const std::string_view name = format::EnumName(type);
  return name.empty() ? std::to_string(static_cast<int32_t>(type)) : std::string(name);
}

std::string PhysicalTypeName(format::Type type) {
  const std::string_view name = format::EnumName(type);
  return name.empty() ? std::to_string(static_cast<int32_t>(type)) : std::string(name);
}

MetadataPtr FieldIdMetadata(const SchemaNode& node) {
  // Arrow C++ keeps non-negative ids only (Thrift readers may turn others
  // into "unset").
  if (!node.field_id.has_value() || *node.field_id < 0) return nullptr;
  return key_value_metadata({{std::string(internal::kFieldIdKey), std::to_string(*node.field_id)}});
}

// The Arrow type of a leaf, and the extension it carries (as metadata).
struct LeafType {
  TypePtr type;
  std::string_view extension;
};

// The group annotations the walk follows.
enum class GroupKind : uint8_t { kStruct, kList, kMap };

class Converter {
 public:
  Converter(const SchemaDescriptor& descriptor, const ParquetToArrowOptions& options,
            std::vector<bool> dictionary_columns)
      : d_(descriptor), options_(options), dictionary_columns_(std::move(dictionary_columns)) {}

  // Every group's annotation is checked, also where the walk never asks
  // for it (Arrow C++ refuses such a schema when it builds its node tree).
  Status CheckGroups() const {
    for (int32_t i = 1; i < static_cast<int32_t>(d_.nodes().size()); ++i) {
      if (d_.node(i).is_group()) QUIVER_RETURN_NOT_OK(Annotation(i).status());
    }
    return Status::OK();
  }

  // Any node where it stands for itself (not as the repeated child of a
  // LIST or MAP group). `parent` is the levels of its Parquet parent.
  Result<ReadNode> Field(int32_t i, const LevelInfo& parent) {
    const SchemaNode& n = d_.node(i);
    if (n.is_leaf()) {
      if (!n.is_repeated()) return Leaf(i, n.is_optional(), FieldIdMetadata(n));
      // A repeated leaf outside LIST: a non-nullable list of non-nullable
      // values (LogicalTypes.md, backward-compatibility rules).
      QUIVER_ASSIGN_OR_RAISE(ReadNode element, Leaf(i, false, nullptr));
      return LegacyList(i, parent, std::move(element));
    }
    QUIVER_ASSIGN_OR_RAISE(GroupKind kind, Annotation(i));
    if (kind == GroupKind::kList) return List(i, false);
    if (kind == GroupKind::kMap) return Map(i, false);
    if (!n.is_repeated()) return Struct(i, n.is_optional(), FieldIdMetadata(n));
    // A repeated group outside LIST: a non-nullable list of non-nullable
    // structs; list and struct both carry the group's field id.
    QUIVER_ASSIGN_OR_RAISE(ReadNode element, Struct(i, false, FieldIdMetadata(n)));
    return LegacyList(i, parent, std::move(element));
  }

 private:
  Status Refuse(int32_t node, const std::string& what) const {
    return Status::Invalid("Parquet field '", NodePath(d_, node), "': ", what);
  }

  const SchemaNode& Child(int32_t node, int i) const {
    return d_.node(d_.children(node)[static_cast<size_t>(i)]);
  }
  int32_t ChildIndex(int32_t node, int i) const {
    return d_.children(node)[static_cast<size_t>(i)];
  }

  Result<GroupKind> Annotation(int32_t i) const {
    const SchemaNode& n = d_.node(i);
    if (n.logical_type.has_value()) {
      switch (n.logical_type->kind()) {
        case LogicalKind::kList: return GroupKind::kList;
        case LogicalKind::kMap: return GroupKind::kMap;
        case LogicalKind::kVariant: return GroupKind::kStruct;  // no variant type: its struct
        default:
          return Refuse(i, "logical type " + std::string(LogicalTypeName(n.logical_type->kind())) +
                               " cannot annotate a group");
      }
    }
    if (!n.converted_type.has_value()) return GroupKind::kStruct;
    switch (*n.converted_type) {
      case ConvertedType::kList: return GroupKind::kList;
      case ConvertedType::kMap:
      case ConvertedType::kMapKeyValue: return GroupKind::kMap;
      default:
        return Refuse(i, "converted type " + ConvertedTypeName(*n.converted_type) +
                             " cannot annotate a group");
    }
  }

  TypePtr ListOf(FieldPtr element) const {
    if (options_.list_type == Type::kLargeList) return large_list(std::move(element));
    return list(std::move(element));
  }

  // A list or map node of one child (element or entries).
  static ReadNode Repeated(ReadNode::Kind kind, FieldPtr field, int32_t node,
                           const LevelInfo& levels, const LevelInfo& repeated, ReadNode child) {
    ReadNode out;
    out.kind = kind;
    out.field = std::move(field);
    out.node = node;
    out.levels = levels;
    out.repeated = repeated;
    out.columns = child.columns;
    out.children.push_back(std::move(child));
    return out;
  }

  // A list without a Parquet node of its own around repeated node `i`.
  ReadNode LegacyList(int32_t i, const LevelInfo& parent, ReadNode element) const {
    const SchemaNode& n = d_.node(i);
    FieldPtr list_field = field(n.name, ListOf(element.field), false, FieldIdMetadata(n));
    return Repeated(ReadNode::Kind::kList, std::move(list_field), i, parent, n.levels,
                    std::move(element));
  }

  // What LIST and MAP groups share: one child, repeated; the group itself
  // not repeated unless `nested` (the repeated child of a LIST).
  Status CheckAnnotatedGroup(int32_t g, std::string_view annotation, bool nested) const {
    const SchemaNode& n = d_.node(g);
    const std::string what = "a " + std::string(annotation) + "-annotated group";
    if (n.num_children != 1) {
      return Refuse(
          g, what + " must have exactly one child, it has " + std::to_string(n.num_children));
    }
    if (n.is_repeated() && !nested) return Refuse(g, what + " cannot be repeated");
    if (!Child(g, 0).is_repeated()) {
      return Refuse(g, "the child '" + Child(g, 0).name + "' of " + what + " is not repeated");
    }
    return Status::OK();
  }

  Result<ReadNode> Struct(int32_t i, bool nullable, MetadataPtr metadata) {
    const SchemaNode& n = d_.node(i);
    ReadNode out;
    out.kind = ReadNode::Kind::kStruct;
    out.node = i;
    out.levels = n.levels;
    FieldVector fields;
    for (int32_t c : d_.children(i)) {
      QUIVER_ASSIGN_OR_RAISE(ReadNode child, Field(c, n.levels));
      fields.push_back(child.field);
      out.columns.insert(out.columns.end(), child.columns.begin(), child.columns.end());
      out.children.push_back(std::move(child));
    }
    out.field = field(n.name, struct_(std::move(fields)), nullable, std::move(metadata));
    return out;
  }

  // A LIST-annotated group `g`. `nested`: g is the repeated child of an
  // enclosing LIST (a 2-level list of lists), so it may be repeated, and
  // its own child must then be a 2-level list's element.
  //   group g (LIST) { repeated R }; the element is
  //   - R, when R is a leaf (2-level);
  //   - struct R, when R has several children;
  //   - R as a list or a map when R (one child) is LIST / MAP annotated;
  //   - struct R, when R's child is repeated or R is named "array" or
  //     "<g>_tuple" (the legacy 2-level list of one-field structs);
  //   - else R's child (3-level, the standard form).
  Result<ReadNode> List(int32_t g, bool nested) {
    QUIVER_RETURN_NOT_OK(CheckAnnotatedGroup(g, "LIST", nested));
    const SchemaNode& list_node = d_.node(g);
    const int32_t r = ChildIndex(g, 0);
    const SchemaNode& repeated = d_.node(r);
    if (nested && repeated.is_group() && repeated.num_children == 1 && !Child(r, 0).is_repeated()) {
      return Refuse(g, "a repeated LIST-annotated group cannot hold a 3-level list (its child '" +
                           repeated.name + "' has one field, not repeated)");
    }
    ReadNode element;
    if (repeated.is_leaf()) {
      QUIVER_ASSIGN_OR_RAISE(element, Leaf(r, false, FieldIdMetadata(repeated)));
    } else if (repeated.num_children == 0) {
      return Refuse(r, "the repeated group of a list has no child");
    } else if (repeated.num_children > 1) {
      QUIVER_ASSIGN_OR_RAISE(element, Struct(r, false, FieldIdMetadata(repeated)));
    } else {
      QUIVER_ASSIGN_OR_RAISE(GroupKind kind, Annotation(r));
      const SchemaNode& only = Child(r, 0);
      if (kind == GroupKind::kList) {
        QUIVER_ASSIGN_OR_RAISE(element, List(r, true));
      } else if (kind == GroupKind::kMap) {
        QUIVER_ASSIGN_OR_RAISE(element, Map(r, true));
      } else if (only.is_repeated() || repeated.name == "array" ||
                 repeated.name == list_node.name + "_tuple") {
        QUIVER_ASSIGN_OR_RAISE(element, Struct(r, false, FieldIdMetadata(repeated)));
      } else {
        QUIVER_ASSIGN_OR_RAISE(element, Field(ChildIndex(r, 0), repeated.levels));
      }
    }
    FieldPtr list_field = field(list_node.name, ListOf(element.field), list_node.is_optional(),
                                FieldIdMetadata(list_node));
    return Repeated(ReadNode::Kind::kList, std::move(list_field), g, list_node.levels,
                    repeated.levels, std::move(element));
  }

  // A MAP- (or MAP_KEY_VALUE-) annotated group `g`:
  //   group g (MAP) { repeated group key_value { required key; value } }
  // read as map<key, value> whose entries struct is named after g; a
  // key_value group with only a key is read as a list of keys (Arrow has no
  // sets). `nested`: g is the repeated child of a LIST.
  Result<ReadNode> Map(int32_t g, bool nested) {
    QUIVER_RETURN_NOT_OK(CheckAnnotatedGroup(g, "MAP", nested));
    const SchemaNode& map_node = d_.node(g);
    const int32_t kv = ChildIndex(g, 0);
    const SchemaNode& key_value = d_.node(kv);
    if (key_value.is_leaf()) {
      return Refuse(g, "the key-value child '" + key_value.name + "' of a map is not a group");
    }
    if (key_value.num_children != 1 && key_value.num_children != 2) {
      return Refuse(g, "the key-value group of a map must have 1 or 2 children, it has " +
                           std::to_string(key_value.num_children));
    }
    if (Child(kv, 0).repetition != format::FieldRepetitionType::kRequired) {
      return Refuse(g, "map keys must be required");
    }
    if (key_value.num_children == 1) return List(g, false);

    ReadNode entries;
    entries.kind = ReadNode::Kind::kStruct;
    entries.node = kv;
    entries.levels = key_value.levels;
    for (int32_t c : d_.children(kv)) {
      QUIVER_ASSIGN_OR_RAISE(ReadNode child, Field(c, key_value.levels));
      entries.columns.insert(entries.columns.end(), child.columns.begin(), child.columns.end());
      entries.children.push_back(std::move(child));
    }
    const FieldPtr& key = entries.children[0].field;
    const FieldPtr& value = entries.children[1].field;
    entries.field = field(map_node.name, struct_({key, value}), false, FieldIdMetadata(key_value));

    FieldPtr map_field = field(map_node.name, std::make_shared<MapType>(entries.field, false),
                               map_node.is_optional(), FieldIdMetadata(map_node));
    return Repeated(ReadNode::Kind::kMap, std::move(map_field), g, map_node.levels,
                    key_value.levels, std::move(entries));
  }

  Result<ReadNode> Leaf(int32_t i, bool nullable, MetadataPtr metadata) {
    const SchemaNode& n = d_.node(i);
    QUIVER_ASSIGN_OR_RAISE(LeafType leaf, TypeOf(i));
    const bool dictionary_type =
        leaf.type->id() == Type::kBinary || leaf.type->id() == Type::kString;
    if (dictionary_columns_[static_cast<size_t>(n.column)] && dictionary_type &&
        leaf.extension.empty()) {
      leaf.type = dictionary(int32(), leaf.type);
    }
    if (!leaf.extension.empty()) {
      metadata = internal::WithExtension(metadata, leaf.extension, "");
    }
    ReadNode out;
    out.kind = ReadNode::Kind::kLeaf;
    out.field = field(n.name, std::move(leaf.type), nullable, std::move(metadata));
    out.node = i;
    out.levels = n.levels;
    out.column = n.column;
    out.columns.push_back(n.column);
    return out;
  }

  // BYTE_ARRAY values as binary_type says: binary, large_binary or
  // binary_view, or the string types of the same layout.
  TypePtr Bytes(bool is_string) const {
    switch (options_.binary_type.value_or(Type::kBinary)) {
      case Type::kLargeBinary: return is_string ? large_utf8() : large_binary();
      case Type::kBinaryView: return is_string ? utf8_view() : binary_view();
      default: return is_string ? utf8() : binary();
    }
  }

  LeafType Extension(TypePtr type, std::string_view name) const {
    return LeafType{std::move(type), options_.arrow_extensions_enabled ? name : std::string_view()};
  }

  Result<TypePtr> Decimal(int32_t i, int32_t precision, int32_t scale) const {
    if (precision > DecimalType::MaxPrecision(Type::kDecimal256)) {
      return Refuse(
          i, "decimal precision " + std::to_string(precision) + " is out of Arrow's range [1, 76]");
    }
    return DecimalTypeSafe(precision <= DecimalType::MaxPrecision(Type::kDecimal128)
                               ? Type::kDecimal128
                               : Type::kDecimal256,
                           precision, scale);
  }

  // Whether DECIMAL(precision) fits the physical type (Arrow C++'s
  // DecimalLogicalType::is_applicable): INT32 up to 9 digits, INT64 up to
  // 18, FIXED_LEN_BYTE_ARRAY(n) up to floor(log10(2^(8n - 1))) digits
  // (computed in doubles as Arrow does: past n = 128 the power is infinite
  // and any precision fits), BYTE_ARRAY any.
  static bool DecimalFits(const ColumnDescriptor& c, int32_t precision) {
    switch (c.physical_type) {
      case format::Type::kInt32: return precision <= 9;
      case format::Type::kInt64: return precision <= 18;
      case format::Type::kByteArray: return true;
      case format::Type::kFixedLenByteArray:
        if (c.type_length > 128) return true;
        return precision <=
               static_cast<int32_t>(std::floor(std::log10(std::ldexp(1.0, 8 * c.type_length - 1))));
      default: return false;
    }
  }

  static std::optional<TimeUnit> UnitOf(const format::TimeUnit& unit) {
    switch (unit.kind()) {
      case format::TimeUnit::Kind::kMillis: return TimeUnit::kMilli;
      case format::TimeUnit::Kind::kMicros: return TimeUnit::kMicro;
      case format::TimeUnit::Kind::kNanos: return TimeUnit::kNano;
      default: return std::nullopt;
    }
  }

  // The leaf type from the logical type; nullopt when it does not apply.
  Result<std::optional<LeafType>> FromLogical(int32_t i, const ColumnDescriptor& c,
                                              const format::LogicalType& logical) const {
    using PT = format::Type;
    const PT pt = c.physical_type;
    auto when = [](bool fits, TypePtr type) -> std::optional<LeafType> {
      if (!fits) return std::nullopt;
      return LeafType{std::move(type), {}};
    };
    switch (logical.kind()) {
      case LogicalKind::kUnknown: return LeafType{null(), {}};  // on any physical type
      case LogicalKind::kString: return when(pt == PT::kByteArray, Bytes(true));
      case LogicalKind::kEnum:
      case LogicalKind::kBson:
      case LogicalKind::kGeometry:
      case LogicalKind::kGeography: return when(pt == PT::kByteArray, Bytes(false));
      case LogicalKind::kJson:
        if (pt != PT::kByteArray) return std::nullopt;
        return Extension(Bytes(true), internal::kJsonExtension);
      case LogicalKind::kUuid:
        if (pt != PT::kFixedLenByteArray || c.type_length != 16) return std::nullopt;
        return Extension(fixed_size_binary(16), internal::kUuidExtension);
      case LogicalKind::kFloat16:
        return when(pt == PT::kFixedLenByteArray && c.type_length == 2, float16());
      case LogicalKind::kDecimal: {
        const int32_t precision = logical.decimal->precision;
        const int32_t scale = logical.decimal->scale;
        if (precision < 1) {
          return Refuse(i, "DECIMAL precision " + std::to_string(precision) + " is not positive");
        }
        if (scale < 0 || scale > precision) {
          return Refuse(i, "DECIMAL scale " + std::to_string(scale) + " is not in [0, precision " +
                               std::to_string(precision) + "]");
        }
        if (!DecimalFits(c, precision)) return std::nullopt;
        QUIVER_ASSIGN_OR_RAISE(TypePtr type, Decimal(i, precision, scale));
        return LeafType{std::move(type), {}};
      }
      case LogicalKind::kDate: return when(pt == PT::kInt32, date32());
      case LogicalKind::kTime: {
        const std::optional<TimeUnit> unit = UnitOf(logical.time->unit);
        if (!unit) return Refuse(i, "TIME has no unit (MILLIS, MICROS or NANOS)");
        if (*unit == TimeUnit::kMilli) return when(pt == PT::kInt32, time32(*unit));
        return when(pt == PT::kInt64, time64(*unit));
      }
      case LogicalKind::kTimestamp: {
        const std::optional<TimeUnit> unit = UnitOf(logical.timestamp->unit);
        if (!unit) return Refuse(i, "TIMESTAMP has no unit (MILLIS, MICROS or NANOS)");
        return when(pt == PT::kInt64,
                    timestamp(*unit, logical.timestamp->is_adjusted_to_utc ? "UTC" : ""));
      }
      case LogicalKind::kInteger: {
        const int bits = logical.integer->bit_width;
        const bool is_signed = logical.integer->is_signed;
        switch (bits) {
          case 8: return when(pt == PT::kInt32, is_signed ? int8() : uint8());
          case 16: return when(pt == PT::kInt32, is_signed ? int16() : uint16());
          case 32: return when(pt == PT::kInt32, is_signed ? int32() : uint32());
          case 64: return when(pt == PT::kInt64, is_signed ? int64() : uint64());
          default:
            return Refuse(i,
                          "INTEGER bit width " + std::to_string(bits) + " is not 8, 16, 32 or 64");
        }
      }
      default:
        // LIST / MAP on a leaf, VARIANT, VECTOR, a member unknown here: the
        // physical type, as Arrow C++ reads an undefined logical type.
        return std::nullopt;
    }
  }

  // The leaf type from a converted type (no logical type); errors where
  // it does not fit the physical type.
  Result<LeafType> FromConverted(int32_t i, const ColumnDescriptor& c,
                                 ConvertedType converted) const {
    using PT = format::Type;
    const PT pt = c.physical_type;
    auto only = [&](bool fits, std::string_view physical, TypePtr type) -> Result<LeafType> {
      if (!fits) {
        return Refuse(i, "converted type " + ConvertedTypeName(converted) + " can only annotate " +
                             std::string(physical) + ", not " + PhysicalTypeName(pt));
      }
      return LeafType{std::move(type), {}};
    };
    // NA (24, outside the generated enum): a null column on any physical
    // type, values dropped.
    if (converted == kConvertedNa) return LeafType{null(), {}};
    switch (converted) {
      case ConvertedType::kUtf8: return only(pt == PT::kByteArray, "BYTE_ARRAY", Bytes(true));
      case ConvertedType::kEnum:
      case ConvertedType::kBson: return only(pt == PT::kByteArray, "BYTE_ARRAY", Bytes(false));
      case ConvertedType::kJson: {
        QUIVER_ASSIGN_OR_RAISE(LeafType leaf,
                               only(pt == PT::kByteArray, "BYTE_ARRAY", Bytes(true)));
        return Extension(std::move(leaf.type), internal::kJsonExtension);
      }
      case ConvertedType::kDecimal: {
        if (pt != PT::kInt32 && pt != PT::kInt64 && pt != PT::kByteArray &&
            pt != PT::kFixedLenByteArray) {
          return only(false, "INT32, INT64, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY", nullptr);
        }
        const SchemaNode& n = d_.node(i);
        const int32_t precision = n.precision.value_or(0);
        const int32_t scale = n.scale.value_or(0);
        if (precision <= 0) {
          return Refuse(i, "DECIMAL precision " + std::to_string(precision) + " is not positive");
        }
        if (scale < 0 || scale > precision) {
          return Refuse(i, "DECIMAL scale " + std::to_string(scale) + " is not in [0, precision " +
                               std::to_string(precision) + "]");
        }
        // As Arrow C++: the precision is not checked against the physical
        // type here (INT32 with 12 digits reads as decimal128(12)).
        QUIVER_ASSIGN_OR_RAISE(TypePtr type, Decimal(i, precision, scale));
        return LeafType{std::move(type), {}};
      }
      case ConvertedType::kDate: return only(pt == PT::kInt32, "INT32", date32());
      case ConvertedType::kTimeMillis:
        return only(pt == PT::kInt32, "INT32", time32(TimeUnit::kMilli));
      case ConvertedType::kUint8: return only(pt == PT::kInt32, "INT32", uint8());
      case ConvertedType::kUint16: return only(pt == PT::kInt32, "INT32", uint16());
      case ConvertedType::kUint32: return only(pt == PT::kInt32, "INT32", uint32());
      case ConvertedType::kInt8: return only(pt == PT::kInt32, "INT32", int8());
      case ConvertedType::kInt16: return only(pt == PT::kInt32, "INT32", int16());
      case ConvertedType::kInt32: return only(pt == PT::kInt32, "INT32", int32());
      case ConvertedType::kTimeMicros:
        return only(pt == PT::kInt64, "INT64", time64(TimeUnit::kMicro));
      // The legacy timestamps are UTC-normalized (LogicalTypes.md).
      case ConvertedType::kTimestampMillis:
        return only(pt == PT::kInt64, "INT64", timestamp(TimeUnit::kMilli, "UTC"));
      case ConvertedType::kTimestampMicros:
        return only(pt == PT::kInt64, "INT64", timestamp(TimeUnit::kMicro, "UTC"));
      case ConvertedType::kUint64: return only(pt == PT::kInt64, "INT64", uint64());
      case ConvertedType::kInt64: return only(pt == PT::kInt64, "INT64", int64());
      case ConvertedType::kInterval:
        return only(pt == PT::kFixedLenByteArray && c.type_length == 12, "FIXED_LEN_BYTE_ARRAY(12)",
                    fixed_size_binary(12));
      default:
        return Refuse(i,
                      "converted type " + ConvertedTypeName(converted) + " cannot annotate a leaf");
    }
  }

  Result<LeafType> FromPhysical(int32_t i, const ColumnDescriptor& c) const {
    switch (c.physical_type) {
      case format::Type::kBoolean: return LeafType{boolean(), {}};
      case format::Type::kInt32: return LeafType{int32(), {}};
      case format::Type::kInt64: return LeafType{int64(), {}};
      case format::Type::kInt96: return LeafType{timestamp(options_.int96_unit), {}};
      case format::Type::kFloat: return LeafType{float32(), {}};
      case format::Type::kDouble: return LeafType{float64(), {}};
      case format::Type::kByteArray: return LeafType{Bytes(false), {}};
      case format::Type::kFixedLenByteArray: return LeafType{fixed_size_binary(c.type_length), {}};
    }
    return Refuse(i, "unknown physical type " + PhysicalTypeName(c.physical_type));
  }

  Result<LeafType> TypeOf(int32_t i) const {
    const SchemaNode& n = d_.node(i);
    const ColumnDescriptor& c = d_.column(n.column);
    if (format::EnumName(c.physical_type).empty()) return FromPhysical(i, c);
    if (c.logical_type.has_value()) {
      QUIVER_ASSIGN_OR_RAISE(std::optional<LeafType> leaf, FromLogical(i, c, *c.logical_type));
      if (leaf.has_value()) return std::move(*leaf);
    } else if (c.converted_type.has_value()) {
      return FromConverted(i, c, *c.converted_type);
    }
    return FromPhysical(i, c);
  }

  const SchemaDescriptor& d_;
  const ParquetToArrowOptions& options_;
  std::vector<bool> dictionary_columns_;
};

Status CheckOptions(const ParquetToArrowOptions& options) {
  if (options.binary_type.has_value() && *options.binary_type != Type::kBinary &&
      *options.binary_type != Type::kLargeBinary && *options.binary_type != Type::kBinaryView) {
    return Status::Invalid("binary_type must be binary, large_binary or binary_view");
  }
  if (options.list_type.has_value() && *options.list_type != Type::kList &&
      *options.list_type != Type::kLargeList) {
    return Status::Invalid("list_type must be list or large_list");
  }
  return Status::OK();
}

// read_dictionary's names as column flags. pyarrow maps each dotted path
// to its column (the last one when paths repeat) and raises KeyError for
// any other name.
Result<std::vector<bool>> DictionaryColumns(const SchemaDescriptor& d,
                                            const std::vector<std::string>& names) {
  std::vector<bool> out(static_cast<size_t>(d.num_columns()), false);
  for (const std::string& name : names) {
    int found = -1;
    for (int c = 0; c < d.num_columns(); ++c) {
      if (d.column(c).path == name) found = c;
    }
    if (found < 0) {
      return Status::Invalid("read_dictionary: '", name,
                             "' is not a leaf column of the file (name leaf columns by their "
                             "dotted path, e.g. 'a.list.element')");
    }
    out[static_cast<size_t>(found)] = true;
  }
  return out;
}

}  // namespace

Result<ArrowReadSchema> ParquetToArrowSchema(const SchemaDescriptor& descriptor,
                                             const KeyValueMetadata* file_metadata,
                                             const Schema* origin,
                                             const ParquetToArrowOptions& options) {
  QUIVER_RETURN_NOT_OK(CheckOptions(options));
  QUIVER_ASSIGN_OR_RAISE(std::vector<bool> dictionary_columns,
                         DictionaryColumns(descriptor, options.read_dictionary));
  Converter converter(descriptor, options, std::move(dictionary_columns));
  QUIVER_RETURN_NOT_OK(converter.CheckGroups());

  ArrowReadSchema out;
  for (int32_t c : descriptor.children(0)) {
    QUIVER_ASSIGN_OR_RAISE(ReadNode field, converter.Field(c, LevelInfo{}));
    out.fields.push_back(std::move(field));
  }

  MetadataPtr metadata;
  if (origin != nullptr && origin->num_fields() == static_cast<int>(out.fields.size())) {
    internal::ApplyOrigin(*origin, descriptor, &out.fields, &out.warnings);
    // pyarrow returns the original schema's own metadata (the footer's
    // other keys are dropped).
    metadata = origin->metadata();
  } else {
    if (origin != nullptr) {
      out.warnings.push_back(
          "ARROW:schema has " + std::to_string(origin->num_fields()) +
          " fields, the Parquet schema " + std::to_string(out.fields.size()) +
          ": ignored (as pyarrow, which then keeps ARROW:schema in the metadata)");
    }
    if (file_metadata != nullptr) {
      auto copy = std::make_shared<KeyValueMetadata>();
      for (int64_t i = 0; i < file_metadata->size(); ++i) {
        // Without an origin (ARROW:schema did not decode) the key goes.
        if (origin == nullptr && file_metadata->key(i) == internal::kArrowSchemaKey) continue;
        copy->Append(file_metadata->key(i), file_metadata->value(i));
      }
      if (copy->size() > 0) metadata = std::move(copy);
    }
  }
  FieldVector fields;
  fields.reserve(out.fields.size());
  for (const ReadNode& f : out.fields) fields.push_back(f.field);
  out.schema = schema(std::move(fields), std::move(metadata));
  return out;
}

}  // namespace quiver::parquet
