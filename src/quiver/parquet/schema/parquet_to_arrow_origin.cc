// ARROW:schema applied to the fields inferred from Parquet, as pyarrow 26
// does (Arrow C++ parquet/arrow/schema.cc ApplyOriginalMetadata and
// ApplyOriginalStorageMetadata), and CanConvertLeaf.
//
// Facts checked against pyarrow 26.0.1 (craft_origin_*.parquet in
// testdata/schema_files: every stored type against ~60 original types):
//   - fields are matched by position, names are never compared; a nested
//     field takes its original's children only when both are structs,
//     both maps, or the inferred is a list and the original a list,
//     large_list or fixed_size_list, with as many children;
//   - a leaf takes the original type only for: a time zone on a UTC
//     timestamp (the stored unit stays), duration on plain int64,
//     dictionary<original index, inferred values> on binary / string,
//     large / view variants within the binary or within the string family,
//     another decimal width of the same precision and scale, and extension
//     types whose storage fits (arrow.json on strings, arrow.uuid on
//     fixed_size_binary(16), others on an equal storage type); nothing
//     else (no date64, time32[s], uint from plain int32, float16 from
//     plain FLBA(2), ...);
//   - a rebuilt nested type keeps the inferred child names (list element
//     "element", map entries named after the map); a map takes the
//     original's keys_sorted only when one of its children changed, which
//     Arrow counts as "modified": any timestamp pair, any binary-family
//     pair (even equal types), any extension, any field metadata, an
//     applied rule;
//   - field metadata: the inferred keys (PARQUET:field_id) first, then the
//     original's other keys (KeyValueMetadata::Merge).
// Extension types are storage types plus ARROW:extension:name / metadata
// here (parquet_to_arrow.h); those pyarrow has registered are applied as
// its extension types are, others are plain metadata.
#include <string>
#include <utility>

#include "quiver/parquet/schema/parquet_to_arrow.h"
#include "quiver/parquet/schema/parquet_to_arrow_internal.h"

namespace quiver::parquet {

namespace {

using internal::ExtensionName;

// ipc::kUnsupportedTypeKey (this module does not depend on IPC).
constexpr std::string_view kUnsupportedOriginKey = "quiver:unsupported_type";

bool IsStringFamily(Type id) {
  return id == Type::kString || id == Type::kLargeString || id == Type::kStringView;
}
bool IsBinaryFamily(Type id) {
  return id == Type::kBinary || id == Type::kLargeBinary || id == Type::kBinaryView;
}

// The canonical extension types pyarrow 26 registers: its IPC reader turns
// them into extension types (others stay storage + metadata).
bool IsRegisteredExtension(std::string_view name) {
  return name == internal::kJsonExtension || name == internal::kUuidExtension ||
         name == "arrow.bool8" || name == "arrow.opaque" || name == "arrow.fixed_shape_tensor" ||
         name == "arrow.variable_shape_tensor";
}

// The stored timestamp unit of an INT64 column, as the inference reads
// it (logical type first, else converted type), if it is a timestamp.
std::optional<TimeUnit> StoredTimestampUnit(const ColumnDescriptor& c) {
  if (c.logical_type.has_value()) {
    if (c.logical_type->kind() != format::LogicalType::Kind::kTimestamp) return std::nullopt;
    switch (c.logical_type->timestamp->unit.kind()) {
      case format::TimeUnit::Kind::kMillis: return TimeUnit::kMilli;
      case format::TimeUnit::Kind::kMicros: return TimeUnit::kMicro;
      case format::TimeUnit::Kind::kNanos: return TimeUnit::kNano;
      default: return std::nullopt;
    }
  }
  if (c.converted_type == format::ConvertedType::kTimestampMillis) return TimeUnit::kMilli;
  if (c.converted_type == format::ConvertedType::kTimestampMicros) return TimeUnit::kMicro;
  return std::nullopt;
}

// Arrow C++'s KeyValueMetadata::Merge(other) on this = original,
// other = inferred: other's keys first, then this one's others (first
// occurrence of each key kept).
MetadataPtr Merge(const KeyValueMetadata& original, const KeyValueMetadata& inferred) {
  auto out = std::make_shared<KeyValueMetadata>();
  for (const KeyValueMetadata* source : {&inferred, &original}) {
    for (int64_t i = 0; i < source->size(); ++i) {
      if (out->FindKey(source->key(i)) < 0) out->Append(source->key(i), source->value(i));
    }
  }
  return out;
}

// An extension carried as metadata.
struct Extension {
  std::string name;
  std::string serialized;
  bool empty() const { return name.empty(); }
};

class OriginApplier {
 public:
  OriginApplier(const SchemaDescriptor& descriptor, std::vector<std::string>* warnings)
      : d_(descriptor), warnings_(warnings) {}

  // ApplyOriginalMetadata: whether anything was "modified" (in Arrow's
  // sense, which decides whether a parent map is rebuilt). `entries`: the
  // node is a map's entries struct (its children's names are not checked).
  bool Apply(const Field& origin, ReadNode* node, bool entries = false) {
    if (origin.metadata() != nullptr && origin.metadata()->FindKey(kUnsupportedOriginKey) >= 0) {
      // A type Quiver does not have (the IPC reader left a placeholder):
      // the field keeps its inferred type.
      warnings_->push_back("ARROW:schema field '" + origin.name() + "' has an Arrow type (" +
                           origin.metadata()->Get(kUnsupportedOriginKey).value_or("") +
                           ") Quiver does not have: read as " + node->field->type()->ToString());
      return false;
    }
    const Extension inferred = TakeExtension(node);
    Extension result = inferred;
    bool modified;
    const std::string_view origin_name = ExtensionName(origin.metadata().get());
    if (!origin_name.empty() && IsRegisteredExtension(origin_name)) {
      Extension original{std::string(origin_name), ""};
      if (const auto i = origin.metadata()->FindKey(internal::kExtensionMetadataKey); i >= 0) {
        original.serialized = origin.metadata()->value(i);
      }
      const MetadataPtr origin_metadata = internal::WithoutExtension(origin.metadata());
      const DataType& storage = *origin.type();
      const DataType& type = *node->field->type();
      bool fits;
      if (original.name == internal::kJsonExtension) {
        fits = !inferred.empty() || IsStringFamily(type.id());
      } else if (original.name == internal::kUuidExtension) {
        fits = !inferred.empty() || (type.id() == Type::kFixedSizeBinary &&
                                     TypeAs<FixedSizeBinaryType>(type).fixed_byte_width() == 16);
      } else {
        fits = inferred.empty() ? storage.Equals(type)
                                : (inferred.name == original.name && storage.Equals(type) &&
                                   inferred.serialized == original.serialized);
      }
      ApplyStorage(origin.type(), origin_metadata, !inferred.empty(), entries, node);
      if (!inferred.empty() || fits) {
        // Arrow then gives the field the original extension type outright.
        if (SetType(node, origin.type(), "extension " + original.name)) result = original;
      } else if (storage.Equals(*node->field->type())) {
        // The restored storage equals the original's: the extension type
        // (with the original storage type, its child names included).
        result =
            SetType(node, origin.type(), "extension " + original.name) ? original : Extension{};
      } else {
        result = Extension{};
      }
      modified = true;
    } else {
      modified = ApplyStorage(origin.type(), origin.metadata(), !inferred.empty(), entries, node);
    }
    if (!result.empty()) {
      node->field = node->field->WithMetadata(
          internal::WithExtension(node->field->metadata(), result.name, result.serialized));
    }
    return modified;
  }

 private:
  // Removes the extension keys from the node's metadata; returns them.
  static Extension TakeExtension(ReadNode* node) {
    const MetadataPtr& metadata = node->field->metadata();
    const std::string_view name = ExtensionName(metadata.get());
    if (name.empty()) return {};
    Extension out{std::string(name), ""};
    if (const auto i = metadata->FindKey(internal::kExtensionMetadataKey); i >= 0) {
      out.serialized = metadata->value(i);
    }
    node->field = node->field->WithMetadata(internal::WithoutExtension(metadata));
    return out;
  }

  void Warn(const ReadNode& node, const std::string& what) {
    warnings_->push_back("ARROW:schema, field '" + internal::NodePath(d_, node.node) +
                         "': " + what);
  }

  // Gives a leaf the original type if the reader can produce it. A nested
  // field only ever gets a type equal to its own but for child names and
  // metadata (an extension's storage type): its children take the type's
  // child fields.
  bool SetType(ReadNode* node, const TypePtr& type, const std::string& what) {
    if (node->kind == ReadNode::Kind::kLeaf && !CanConvertLeaf(d_.column(node->column), *type)) {
      Warn(*node, what + " (" + type->ToString() +
                      ") cannot be read from the stored values; kept " +
                      node->field->type()->ToString());
      return false;
    }
    node->field = node->field->WithType(type);
    AdoptChildren(node);
    return true;
  }

  static void AdoptChildren(ReadNode* node) {
    const DataType& type = *node->field->type();
    QUIVER_DCHECK_EQ(node->children.size(), static_cast<size_t>(type.num_fields()));
    for (size_t i = 0; i < node->children.size(); ++i) {
      node->children[i].field = type.field(static_cast<int>(i));
      AdoptChildren(&node->children[i]);
    }
  }

  // Whether Arrow has a "nested factory" for this pair of types.
  static bool HasFactory(const DataType& origin, const DataType& inferred) {
    switch (inferred.id()) {
      case Type::kStruct: return origin.id() == Type::kStruct;
      case Type::kList:
      case Type::kLargeList:
        return origin.id() == Type::kList || origin.id() == Type::kLargeList ||
               origin.id() == Type::kFixedSizeList;
      case Type::kMap: return origin.id() == Type::kMap;
      default: return false;
    }
  }

  // The nested type rebuilt from the (modified) children, in the
  // original's kind: list kind and size, map key order.
  static TypePtr Rebuild(const DataType& origin, const ReadNode& node) {
    FieldVector children;
    for (const ReadNode& child : node.children) children.push_back(child.field);
    switch (origin.id()) {
      case Type::kStruct: return struct_(std::move(children));
      case Type::kList: return list(children[0]);
      case Type::kLargeList: return large_list(children[0]);
      case Type::kFixedSizeList:
        return fixed_size_list(children[0], TypeAs<ListType>(origin).list_size());
      default: return std::make_shared<MapType>(children[0], TypeAs<MapType>(origin).keys_sorted());
    }
  }

  // ApplyOriginalStorageMetadata. `inferred_is_extension`: Arrow's inferred
  // type is an extension type, which none of the leaf rules matches.
  bool ApplyStorage(const TypePtr& origin_type, const MetadataPtr& origin_metadata,
                    bool inferred_is_extension, bool entries, ReadNode* node) {
    bool modified = false;
    const TypePtr inferred = node->field->type();
    const int num_children = inferred->num_fields();
    if (num_children > 0) {
      if (origin_type->num_fields() == num_children && HasFactory(*origin_type, *inferred)) {
        modified |= origin_type->id() != inferred->id();
        for (int i = 0; i < num_children; ++i) {
          const Field& child_origin = *origin_type->field(i);
          ReadNode* child = &node->children[static_cast<size_t>(i)];
          if (node->kind == ReadNode::Kind::kStruct && !entries &&
              child_origin.name() != child->field->name()) {
            Warn(*child, "applied by position to the original field '" + child_origin.name() + "'");
          }
          modified |= Apply(child_origin, child, node->kind == ReadNode::Kind::kMap);
        }
        if (modified) node->field = node->field->WithType(Rebuild(*origin_type, *node));
      } else {
        Warn(*node, "the original type " + origin_type->ToString() + " does not match " +
                        inferred->ToString() + ": its children are not applied");
      }
    } else if (origin_type->num_fields() > 0) {
      Warn(*node, "the original type " + origin_type->ToString() + " is nested, the stored one " +
                      inferred->ToString() + " is not");
    }

    if (!inferred_is_extension && node->kind == ReadNode::Kind::kLeaf) {
      const DataType& o = *origin_type;
      const DataType& t = *inferred;
      TypePtr restored;
      if (o.id() == Type::kTimestamp && t.id() == Type::kTimestamp) {
        // Parquet has no time zone: a UTC-normalized timestamp takes the
        // original's, in the stored unit.
        const auto& ts = TypeAs<TemporalType>(t);
        const auto& original = TypeAs<TemporalType>(o);
        if (ts.timezone() == "UTC" && !original.timezone().empty()) {
          restored = timestamp(ts.unit(), original.timezone());
        }
        modified = true;
      } else if (o.id() == Type::kDuration && t.id() == Type::kInt64) {
        restored = origin_type;
      } else if (o.id() == Type::kDictionary &&
                 (t.id() == Type::kBinary || t.id() == Type::kString)) {
        const auto& dict = TypeAs<DictionaryType>(o);
        restored = dictionary(dict.index_type(), inferred, dict.ordered());
      } else if ((IsStringFamily(o.id()) && IsStringFamily(t.id())) ||
                 (IsBinaryFamily(o.id()) && IsBinaryFamily(t.id()))) {
        restored = origin_type;  // also when equal: Arrow counts it as modified
      } else if (IsDecimal(o.id()) && IsDecimal(t.id()) && o.id() != t.id() &&
                 TypeAs<DecimalType>(o).precision() == TypeAs<DecimalType>(t).precision() &&
                 TypeAs<DecimalType>(o).scale() == TypeAs<DecimalType>(t).scale()) {
        restored = origin_type;
      }
      if (restored != nullptr) {
        modified = true;
        SetType(node, restored, "the original type");
      }
    }

    if (origin_metadata != nullptr) {
      const MetadataPtr& current = node->field->metadata();
      node->field = node->field->WithMetadata(current != nullptr ? Merge(*origin_metadata, *current)
                                                                 : origin_metadata);
      modified = true;
    }
    return modified;
  }

  const SchemaDescriptor& d_;
  std::vector<std::string>* warnings_;
};

}  // namespace

namespace internal {

void ApplyOrigin(const Schema& origin, const SchemaDescriptor& descriptor,
                 std::vector<ReadNode>* fields, std::vector<std::string>* warnings) {
  OriginApplier applier(descriptor, warnings);
  for (size_t i = 0; i < fields->size(); ++i) {
    const Field& original = *origin.field(static_cast<int>(i));
    ReadNode* node = &(*fields)[i];
    if (original.name() != node->field->name()) {
      warnings->push_back("ARROW:schema field '" + original.name() +
                          "' is applied by position to '" + node->field->name() + "' (as pyarrow)");
    }
    (void)applier.Apply(original, node);
  }
}

}  // namespace internal

bool CanConvertLeaf(const ColumnDescriptor& column, const DataType& type) {
  using PT = format::Type;
  const PT pt = column.physical_type;
  if (type.id() == Type::kNull) return true;  // levels only
  if (type.id() == Type::kDictionary) {
    const auto& dict = TypeAs<DictionaryType>(type);
    if (!IsInteger(dict.index_type()->id())) return false;
    const DataType& value = *dict.value_type();
    if (pt == PT::kByteArray) return IsBinaryLike(value.id()) || IsLargeBinaryLike(value.id());
    return pt == PT::kFixedLenByteArray && value.id() == Type::kFixedSizeBinary &&
           TypeAs<FixedSizeBinaryType>(value).fixed_byte_width() == column.type_length;
  }
  switch (pt) {
    case PT::kBoolean: return type.id() == Type::kBool;
    case PT::kInt32:
      switch (type.id()) {
        case Type::kInt32:
        case Type::kInt8:
        case Type::kInt16:
        case Type::kUInt8:
        case Type::kUInt16:
        case Type::kUInt32:
        case Type::kDate32:
        case Type::kDate64:
        case Type::kTime32: return true;
        default: return IsDecimal(type.id());
      }
    case PT::kInt64:
      switch (type.id()) {
        case Type::kInt64:
        case Type::kUInt64:
        case Type::kDuration: return true;
        case Type::kTime64: return true;
        case Type::kTimestamp: {
          const std::optional<TimeUnit> stored = StoredTimestampUnit(column);
          return stored.has_value() && *stored == TypeAs<TemporalType>(type).unit();
        }
        default: return IsDecimal(type.id());
      }
    case PT::kInt96: return type.id() == Type::kTimestamp;
    case PT::kFloat: return type.id() == Type::kFloat;
    case PT::kDouble: return type.id() == Type::kDouble;
    case PT::kFixedLenByteArray:
      if (type.id() == Type::kFixedSizeBinary) {
        return TypeAs<FixedSizeBinaryType>(type).fixed_byte_width() == column.type_length;
      }
      if (type.id() == Type::kHalfFloat) return column.type_length == 2;
      return IsDecimal(type.id());
    case PT::kByteArray:
      return IsBinaryLike(type.id()) || IsLargeBinaryLike(type.id()) || IsBinaryView(type.id()) ||
             IsDecimal(type.id());
  }
  return false;
}

}  // namespace quiver::parquet
