#include "quiver/parquet/schema/arrow_to_parquet_internal.h"

#include <cmath>
#include <string>

#include "quiver/util/utf8.h"

namespace quiver::parquet {

namespace {

using format::ConvertedType;
using format::FieldRepetitionType;
using format::LogicalType;
using format::SchemaElement;

format::TimeUnit MakeUnit(TimeUnit unit) {
  format::TimeUnit u;
  switch (unit) {
    case TimeUnit::kSecond:
    case TimeUnit::kMilli: u.millis.emplace(); break;
    case TimeUnit::kMicro: u.micros.emplace(); break;
    case TimeUnit::kNano: u.nanos.emplace(); break;
  }
  return u;
}

LogicalType IntLogical(int bits, bool is_signed) {
  LogicalType lt;
  lt.integer.emplace();
  lt.integer->bit_width = static_cast<int8_t>(bits);
  lt.integer->is_signed = is_signed;
  return lt;
}

ConvertedType IntConverted(int bits, bool is_signed) {
  switch (bits) {
    case 8: return is_signed ? ConvertedType::kInt8 : ConvertedType::kUint8;
    case 16: return is_signed ? ConvertedType::kInt16 : ConvertedType::kUint16;
    case 32: return is_signed ? ConvertedType::kInt32 : ConvertedType::kUint32;
    default: return is_signed ? ConvertedType::kInt64 : ConvertedType::kUint64;
  }
}

// At most 64 bytes of a name, as hex (for names that cannot be printed).
std::string HexName(const std::string& name) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  for (size_t i = 0; i < name.size() && i < 64; ++i) {
    const auto b = static_cast<uint8_t>(name[i]);
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  if (name.size() > 64) out += "...";
  return out;
}

// The one walk over the Arrow fields (recursive: an Arrow schema is built in
// memory, and the depth is capped). Fills the elements, the leaves' Arrow
// facts and the Arrow tree; the levels are filled in afterwards from the
// SchemaDescriptor of the elements.
class Mapper {
 public:
  Mapper(ParquetSchema* out, const MappingOptions& options) : out_(out), options_(options) {}

  // Maps `field` (stored under `parquet_name`, with nullability `nullable`)
  // into Arrow tree node `at`, which the caller has allocated.
  Status Node(const Field& field, const std::string& parquet_name, bool nullable, int32_t at,
              int top, int depth) {
    if (depth > 64) return Status::Invalid("field '", parquet_name, "' is nested too deeply");
    if (FindInvalidUtf8(reinterpret_cast<const uint8_t*>(parquet_name.data()),
                        static_cast<int64_t>(parquet_name.size())) >= 0) {
      // Parquet schema names are Thrift strings (UTF-8): readers reject others.
      return Status::Invalid("a field name is not valid UTF-8 (", HexName(parquet_name),
                             "); Parquet column names must be UTF-8");
    }
    const DataType& type = *field.type();
    path_.push_back(parquet_name);
    SchemaElement e;
    e.name = parquet_name;
    e.repetition_type = nullable ? FieldRepetitionType::kOptional : FieldRepetitionType::kRequired;
    {
      ArrowNode& node = Tree(at);
      node.nullable = nullable;
      node.name = field.name();
      node.type = field.type();
      node.element = static_cast<int32_t>(out_->elements.size());
    }

    switch (type.id()) {
      case Type::kStruct: {
        if (type.num_fields() == 0) {
          return Status::NotImplemented("struct field '", parquet_name,
                                        "' has no children: Parquet cannot store an empty group");
        }
        e.num_children = type.num_fields();
        out_->elements.push_back(std::move(e));
        const int32_t first = Children(at, ArrowNodeKind::kStruct, type.num_fields());
        for (int i = 0; i < type.num_fields(); ++i) {
          const Field& child = *type.field(i);
          QUIVER_RETURN_NOT_OK(
              Node(child, child.name(), child.nullable(), first + i, top, depth + 1));
        }
        break;
      }
      case Type::kList:
      case Type::kLargeList:
      case Type::kFixedSizeList: {
        e.num_children = 1;
        e.converted_type = ConvertedType::kList;
        e.logical_type.emplace().list.emplace();
        out_->elements.push_back(std::move(e));
        SchemaElement repeated;
        repeated.name = "list";
        repeated.repetition_type = FieldRepetitionType::kRepeated;
        repeated.num_children = 1;
        out_->elements.push_back(std::move(repeated));
        path_.push_back("list");
        const ArrowNodeKind kind = type.id() == Type::kList        ? ArrowNodeKind::kList
                                   : type.id() == Type::kLargeList ? ArrowNodeKind::kLargeList
                                                                   : ArrowNodeKind::kFixedSizeList;
        const int32_t child = Children(at, kind, 1);
        const Field& element = *type.field(0);
        QUIVER_RETURN_NOT_OK(Node(element, "element", element.nullable(), child, top, depth + 1));
        path_.pop_back();
        break;
      }
      case Type::kMap: {
        const auto& m = TypeAs<MapType>(type);
        e.num_children = 1;
        e.converted_type = ConvertedType::kMap;
        e.logical_type.emplace().map.emplace();
        out_->elements.push_back(std::move(e));
        SchemaElement kv;
        kv.name = "key_value";
        kv.repetition_type = FieldRepetitionType::kRepeated;
        kv.num_children = 2;
        const int32_t kv_element = static_cast<int32_t>(out_->elements.size());
        out_->elements.push_back(std::move(kv));
        path_.push_back("key_value");
        // The entries struct is the repeated group itself: never null.
        const int32_t entries = Children(at, ArrowNodeKind::kMap, 1);
        {
          const Field& entries_field = *type.field(0);
          ArrowNode& node = Tree(entries);
          node.name = entries_field.name();
          node.type = entries_field.type();
          node.element = kv_element;
        }
        const int32_t first = Children(entries, ArrowNodeKind::kStruct, 2);
        QUIVER_RETURN_NOT_OK(Node(*m.key_field(), "key", false, first, top, depth + 1));
        QUIVER_RETURN_NOT_OK(Node(*m.item_field(), "value", m.item_field()->nullable(), first + 1,
                                  top, depth + 1));
        path_.pop_back();
        break;
      }
      default:
        QUIVER_RETURN_NOT_OK(LeafNode(field, at, top, &e));
        break;
    }
    path_.pop_back();
    return Status::OK();
  }

 private:
  ArrowNode& Tree(int32_t i) { return out_->arrow.nodes[static_cast<size_t>(i)]; }

  // Makes node `at` a `kind` node with `n` new children; returns the first.
  int32_t Children(int32_t at, ArrowNodeKind kind, int n) {
    const auto first = static_cast<int32_t>(out_->arrow.nodes.size());
    out_->arrow.nodes.resize(out_->arrow.nodes.size() + static_cast<size_t>(n));
    ArrowNode& node = Tree(at);
    node.kind = kind;
    node.first_child = first;
    node.num_children = n;
    return first;
  }

  Status LeafNode(const Field& field, int32_t at, int top, SchemaElement* e) {
    std::string path;
    for (size_t i = 0; i < path_.size(); ++i) path += (i ? "." : "") + path_[i];
    ArrowLeaf c;
    c.top_level_field = top;
    c.arrow_type = field.type();
    const DataType* value_type = field.type().get();
    if (value_type->id() == Type::kDictionary) {
      c.dictionary = true;
      value_type = TypeAs<DictionaryType>(*value_type).value_type().get();
      if (value_type->id() == Type::kDictionary || IsNested(value_type->id())) {
        return Status::NotImplemented("field '", path_.back(), "': dictionary of ",
                                      value_type->ToString(), " cannot be written to Parquet");
      }
    }
    QUIVER_RETURN_NOT_OK(Leaf(path, *value_type, e, &c));  // errors name the dotted path
    out_->elements.push_back(std::move(*e));
    ArrowNode& node = Tree(at);
    node.kind = ArrowNodeKind::kLeaf;
    node.column = static_cast<int32_t>(out_->leaves.size());
    out_->leaves.push_back(std::move(c));
    return Status::OK();
  }

  static void Physical(SchemaElement* e, ArrowLeaf* c, format::Type t, ValueKind k,
                       StatsKind s) {
    e->type = t;
    c->value_kind = k;
    c->stats_kind = s;
  }

  Status Leaf(const std::string& name, const DataType& type, SchemaElement* e, ArrowLeaf* c) {
    using format::Type;
    switch (type.id()) {
      case quiver::Type::kNull:
        Physical(e, c, Type::kInt32, ValueKind::kNull, StatsKind::kInt32);
        e->logical_type.emplace().unknown.emplace();
        if (e->repetition_type != FieldRepetitionType::kOptional) {
          return Status::Invalid("field '", name, "' of type null must be nullable");
        }
        return Status::OK();
      case quiver::Type::kBool:
        Physical(e, c, Type::kBoolean, ValueKind::kBool, StatsKind::kBoolean);
        return Status::OK();
      case quiver::Type::kInt8:
      case quiver::Type::kInt16:
      case quiver::Type::kInt32:
      case quiver::Type::kUInt8:
      case quiver::Type::kUInt16:
      case quiver::Type::kUInt32: {
        if (type.id() == quiver::Type::kUInt32 && options_.version_1_0) {
          // Format 1.0 has no UINT_32 (Arrow C++: INT64, no annotation).
          Physical(e, c, Type::kInt64, ValueKind::kUInt32ToInt64, StatsKind::kInt64);
          return Status::OK();
        }
        const bool is_signed = IsSignedInteger(type.id());
        const int bits = type.bit_width();
        ValueKind k = bits == 8    ? (is_signed ? ValueKind::kInt8 : ValueKind::kUInt8)
                      : bits == 16 ? (is_signed ? ValueKind::kInt16 : ValueKind::kUInt16)
                                   : ValueKind::kInt32;
        Physical(e, c, Type::kInt32, k, is_signed ? StatsKind::kInt32 : StatsKind::kUInt32);
        e->logical_type = IntLogical(bits, is_signed);
        e->converted_type = IntConverted(bits, is_signed);
        return Status::OK();
      }
      case quiver::Type::kInt64:
      case quiver::Type::kUInt64: {
        const bool is_signed = type.id() == quiver::Type::kInt64;
        Physical(e, c, Type::kInt64, ValueKind::kInt64,
                 is_signed ? StatsKind::kInt64 : StatsKind::kUInt64);
        e->logical_type = IntLogical(64, is_signed);
        e->converted_type = IntConverted(64, is_signed);
        return Status::OK();
      }
      case quiver::Type::kHalfFloat:
        Physical(e, c, Type::kFixedLenByteArray, ValueKind::kFloat16, StatsKind::kFloat16);
        e->type_length = 2;
        e->logical_type.emplace().float16.emplace();
        return Status::OK();
      case quiver::Type::kFloat:
        Physical(e, c, Type::kFloat, ValueKind::kFloat, StatsKind::kFloat);
        return Status::OK();
      case quiver::Type::kDouble:
        Physical(e, c, Type::kDouble, ValueKind::kDouble, StatsKind::kDouble);
        return Status::OK();
      case quiver::Type::kDecimal32:
      case quiver::Type::kDecimal64:
      case quiver::Type::kDecimal128:
      case quiver::Type::kDecimal256: {
        const auto& d = TypeAs<DecimalType>(type);
        if (d.scale() < 0 || d.scale() > d.precision()) {
          // Parquet's DECIMAL requires 0 <= scale <= precision.
          return Status::Invalid("field '", name, "': ", type.ToString(), " has scale ",
                                 d.scale(), "; Parquet decimals need 0 <= scale <= precision");
        }
        c->arrow_byte_width = type.byte_width();
        if (d.precision() <= 9) {
          Physical(e, c, Type::kInt32,
                   type.id() == quiver::Type::kDecimal32 ? ValueKind::kInt32
                                                         : ValueKind::kDecimalToInt32,
                   StatsKind::kInt32);
        } else if (d.precision() <= 18) {
          Physical(e, c, Type::kInt64,
                   type.id() == quiver::Type::kDecimal64 ? ValueKind::kInt64
                                                         : ValueKind::kDecimalToInt64,
                   StatsKind::kInt64);
        } else {
          Physical(e, c, Type::kFixedLenByteArray, ValueKind::kDecimalToFlba,
                   StatsKind::kSignedBytes);
          e->type_length = DecimalFlbaLength(d.precision());
        }
        e->converted_type = ConvertedType::kDecimal;
        e->precision = d.precision();
        e->scale = d.scale();
        auto& dec = e->logical_type.emplace().decimal.emplace();
        dec.precision = d.precision();
        dec.scale = d.scale();
        return Status::OK();
      }
      case quiver::Type::kDate32:
      case quiver::Type::kDate64:
        Physical(e, c, Type::kInt32,
                 type.id() == quiver::Type::kDate32 ? ValueKind::kInt32 : ValueKind::kDate64,
                 StatsKind::kInt32);
        e->logical_type.emplace().date.emplace();
        e->converted_type = ConvertedType::kDate;
        return Status::OK();
      case quiver::Type::kTime32: {
        const auto& t = TypeAs<TemporalType>(type);
        Physical(e, c, Type::kInt32,
                 t.unit() == TimeUnit::kSecond ? ValueKind::kTime32Seconds : ValueKind::kInt32,
                 StatsKind::kInt32);
        auto& tt = e->logical_type.emplace().time.emplace();
        tt.is_adjusted_to_utc = true;
        tt.unit = MakeUnit(TimeUnit::kMilli);
        e->converted_type = ConvertedType::kTimeMillis;
        return Status::OK();
      }
      case quiver::Type::kTime64: {
        const auto& t = TypeAs<TemporalType>(type);
        Physical(e, c, Type::kInt64, ValueKind::kInt64, StatsKind::kInt64);
        auto& tt = e->logical_type.emplace().time.emplace();
        tt.is_adjusted_to_utc = true;
        tt.unit = MakeUnit(t.unit());
        if (t.unit() == TimeUnit::kMicro) e->converted_type = ConvertedType::kTimeMicros;
        return Status::OK();
      }
      case quiver::Type::kTimestamp: {
        const auto& t = TypeAs<TemporalType>(type);
        const TimeUnit stored = StoredTimestampUnit(t.unit(), options_);
        ValueKind kind = ValueKind::kInt64;
        if (stored != t.unit()) {
          const int steps = static_cast<int>(stored) - static_cast<int>(t.unit());
          for (int i = 0; i < (steps < 0 ? -steps : steps); ++i) c->time_factor *= 1000;
          c->stored_unit = stored;
          kind = steps > 0 ? ValueKind::kTimestampScaleUp : ValueKind::kTimestampScaleDown;
          if (options_.coerce_timestamps.has_value()) {
            c->truncate_timestamps = options_.allow_truncated_timestamps;
            c->coercion = "coerce_timestamps='" + std::string(TimeUnitName(stored)) +
                          "'; set allow_truncated_timestamps=True to truncate";
          } else {
            // Arrow C++ refuses lossy values here whatever
            // allow_truncated_timestamps says (WriteTimestamps).
            c->coercion = "version '" + options_.version_name + "' stores nanoseconds as " +
                          "microseconds; write version='2.6' to keep them, or set " +
                          "coerce_timestamps='us' with allow_truncated_timestamps=True to truncate";
          }
        }
        Physical(e, c, Type::kInt64, kind, StatsKind::kInt64);
        auto& ts = e->logical_type.emplace().timestamp.emplace();
        ts.is_adjusted_to_utc = !t.timezone().empty();
        ts.unit = MakeUnit(stored);
        if (stored == TimeUnit::kMilli) {
          e->converted_type = ConvertedType::kTimestampMillis;
        } else if (stored == TimeUnit::kMicro) {
          e->converted_type = ConvertedType::kTimestampMicros;
        }
        return Status::OK();
      }
      case quiver::Type::kDuration:
        Physical(e, c, Type::kInt64, ValueKind::kInt64, StatsKind::kInt64);
        return Status::OK();
      case quiver::Type::kString:
      case quiver::Type::kLargeString:
      case quiver::Type::kStringView:
      case quiver::Type::kBinary:
      case quiver::Type::kLargeBinary:
      case quiver::Type::kBinaryView: {
        ValueKind k = IsBinaryLike(type.id())        ? ValueKind::kBinary
                      : IsLargeBinaryLike(type.id()) ? ValueKind::kLargeBinary
                                                     : ValueKind::kBinaryView;
        Physical(e, c, Type::kByteArray, k, StatsKind::kBytes);
        if (IsStringLike(type.id())) {
          c->is_string = true;
          e->logical_type.emplace().string.emplace();
          e->converted_type = ConvertedType::kUtf8;
        }
        return Status::OK();
      }
      case quiver::Type::kFixedSizeBinary:
        if (TypeAs<FixedSizeBinaryType>(type).fixed_byte_width() <= 0) {
          // pyarrow refuses it too ("Invalid FIXED_LEN_BYTE_ARRAY length: 0").
          return Status::NotImplemented("field '", name, "': ", type.ToString(),
                                        " has no Parquet equivalent (FIXED_LEN_BYTE_ARRAY needs a "
                                        "positive length)");
        }
        Physical(e, c, Type::kFixedLenByteArray, ValueKind::kFixedSizeBinary, StatsKind::kBytes);
        e->type_length = c->arrow_byte_width = TypeAs<FixedSizeBinaryType>(type).fixed_byte_width();
        return Status::OK();
      default:
        return Status::NotImplemented("field '", name, "': Arrow type ", type.ToString(),
                                      " has no Parquet equivalent");
    }
  }

  ParquetSchema* out_;
  const MappingOptions& options_;
  std::vector<std::string> path_;  // Parquet names from the top-level field down
};

}  // namespace

TimeUnit StoredTimestampUnit(TimeUnit unit, const MappingOptions& options) {
  if (options.coerce_timestamps.has_value()) return *options.coerce_timestamps;
  if (unit == TimeUnit::kSecond) return TimeUnit::kMilli;
  if (unit == TimeUnit::kNano && options.nanos_as_micros) return TimeUnit::kMicro;
  return unit;
}

int32_t DecimalFlbaLength(int32_t precision) {
  // Smallest n with 10^precision - 1 <= 2^(8n - 1) - 1.
  const double bits = static_cast<double>(precision) * std::log2(10.0) + 1.0;
  int32_t n = static_cast<int32_t>(std::ceil(bits / 8.0));
  return n < 1 ? 1 : n;
}

Result<ParquetSchema> ArrowToParquetSchema(const Schema& schema, const MappingOptions& options) {
  ParquetSchema out;
  SchemaElement root;
  root.name = "schema";
  root.num_children = schema.num_fields();
  out.elements.push_back(std::move(root));
  out.arrow.nodes.resize(static_cast<size_t>(schema.num_fields()));
  Mapper mapper(&out, options);
  for (int i = 0; i < schema.num_fields(); ++i) {
    const Field& field = *schema.field(i);
    QUIVER_RETURN_NOT_OK(mapper.Node(field, field.name(), field.nullable(), i, i, 0));
  }
  // The levels (and every leaf's Parquet facts) are the descriptor's.
  QUIVER_ASSIGN_OR_RAISE(out.descriptor, SchemaDescriptor::Make(out.elements));
  if (out.descriptor.num_columns() != static_cast<int>(out.leaves.size())) {
    return Status::UnknownError("internal error: ", out.leaves.size(), " Arrow leaves but ",
                                out.descriptor.num_columns(), " Parquet leaves");
  }
  for (ArrowNode& node : out.arrow.nodes) {
    node.levels = out.descriptor.node(node.element).levels;
  }
  return out;
}

}  // namespace quiver::parquet
