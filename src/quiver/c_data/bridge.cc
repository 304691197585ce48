// C Data Interface: types, fields and schemas (ArrowSchema) both ways.
//
// Source: apache/arrow docs/source/format/CDataInterface.rst, sections "Data
// type description -- format strings", "The ArrowSchema structure" (flags,
// metadata encoding) and "Memory management". Arrays and streams live in
// bridge_array.cc and bridge_stream.cc.
//
// Export builds one heap-allocated SchemaExport per ArrowSchema node (format,
// name and metadata strings, and the child/dictionary structs it owns); the
// node's release deletes it after releasing whatever children the consumer has
// not moved out.
//
// Import walks untrusted structs: every pointer is checked before use, the
// recursion is bounded (kMaxImportDepth, which also stops cycles), and format
// strings are parsed strictly (no trailing characters, numbers in range).
#include "quiver/c_data/bridge.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/c_data/bridge_internal.h"

namespace quiver {

namespace {

// --- Export -----------------------------------------------------------------

struct SchemaExport {
  std::string format;
  std::string name;
  std::string metadata;  // empty: no metadata (NULL)
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
  ArrowSchema dictionary{};

  ~SchemaExport() {
    // Children the consumer moved out are marked released and skipped.
    for (ArrowSchema& child : children) {
      if (child.release != nullptr) child.release(&child);
    }
    if (dictionary.release != nullptr) dictionary.release(&dictionary);
  }
};

void ReleaseExportedSchema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  delete static_cast<SchemaExport*>(schema->private_data);
  schema->release = nullptr;
  schema->private_data = nullptr;
}

std::string DecimalFormat(const DecimalType& type) {
  std::string out = "d:" + std::to_string(type.precision()) + "," + std::to_string(type.scale());
  switch (type.id()) {
    case Type::kDecimal32: return out + ",32";
    case Type::kDecimal64: return out + ",64";
    case Type::kDecimal256: return out + ",256";
    default: return out;  // 128 bits is the default width
  }
}

char UnitChar(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 's';
    case TimeUnit::kMilli: return 'm';
    case TimeUnit::kMicro: return 'u';
    case TimeUnit::kNano: return 'n';
  }
  return '?';
}

Result<std::string> FormatOf(const DataType& type) {
  switch (type.id()) {
    case Type::kNull: return std::string("n");
    case Type::kBool: return std::string("b");
    case Type::kInt8: return std::string("c");
    case Type::kUInt8: return std::string("C");
    case Type::kInt16: return std::string("s");
    case Type::kUInt16: return std::string("S");
    case Type::kInt32: return std::string("i");
    case Type::kUInt32: return std::string("I");
    case Type::kInt64: return std::string("l");
    case Type::kUInt64: return std::string("L");
    case Type::kHalfFloat: return std::string("e");
    case Type::kFloat: return std::string("f");
    case Type::kDouble: return std::string("g");
    case Type::kBinary: return std::string("z");
    case Type::kLargeBinary: return std::string("Z");
    case Type::kString: return std::string("u");
    case Type::kLargeString: return std::string("U");
    case Type::kBinaryView: return std::string("vz");
    case Type::kStringView: return std::string("vu");
    case Type::kFixedSizeBinary:
      return "w:" + std::to_string(TypeAs<FixedSizeBinaryType>(type).fixed_byte_width());
    case Type::kDecimal32:
    case Type::kDecimal64:
    case Type::kDecimal128:
    case Type::kDecimal256: return DecimalFormat(TypeAs<DecimalType>(type));
    case Type::kDate32: return std::string("tdD");
    case Type::kDate64: return std::string("tdm");
    case Type::kTime32:
    case Type::kTime64:
      return std::string("tt") + UnitChar(TypeAs<TemporalType>(type).unit());
    case Type::kTimestamp: {
      const auto& t = TypeAs<TemporalType>(type);
      return std::string("ts") + UnitChar(t.unit()) + ":" + t.timezone();
    }
    case Type::kDuration: return std::string("tD") + UnitChar(TypeAs<TemporalType>(type).unit());
    case Type::kIntervalMonths: return std::string("tiM");
    case Type::kIntervalDayTime: return std::string("tiD");
    case Type::kIntervalMonthDayNano: return std::string("tin");
    case Type::kList: return std::string("+l");
    case Type::kLargeList: return std::string("+L");
    case Type::kFixedSizeList:
      return "+w:" + std::to_string(TypeAs<ListType>(type).list_size());
    case Type::kStruct: return std::string("+s");
    case Type::kMap: return std::string("+m");
    case Type::kDictionary: break;  // handled by the caller (index format + dictionary)
  }
  return Status::NotImplemented("C Data Interface export of type ", type.ToString());
}

// The metadata encoding of the spec: int32 number of pairs, then per pair an
// int32 key length, the key bytes, an int32 value length, the value bytes,
// all integers in native endianness.
Result<std::string> EncodeMetadata(const KeyValueMetadata* metadata) {
  std::string out;
  if (metadata == nullptr || metadata->size() == 0) return out;
  constexpr auto kMax = static_cast<size_t>(std::numeric_limits<int32_t>::max());
  auto append_int32 = [&out](size_t value) {
    int32_t v = static_cast<int32_t>(value);
    char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    out.append(bytes, sizeof v);
  };
  if (static_cast<size_t>(metadata->size()) > kMax) {
    return Status::Invalid("too many metadata pairs to export: ", metadata->size());
  }
  append_int32(static_cast<size_t>(metadata->size()));
  for (int64_t i = 0; i < metadata->size(); ++i) {
    const std::string& key = metadata->key(i);
    const std::string& value = metadata->value(i);
    if (key.size() > kMax || value.size() > kMax) {
      return Status::Invalid("metadata key or value of key '", key.substr(0, 40),
                             "' is too long to export (more than 2^31-1 bytes)");
    }
    append_int32(key.size());
    out += key;
    append_int32(value.size());
    out += value;
  }
  return out;
}

Status ExportNode(const DataType& type, std::string name, int64_t flags,
                  const KeyValueMetadata* metadata, ArrowSchema* out);

Status ExportFieldNode(const Field& field, ArrowSchema* out) {
  return ExportNode(*field.type(), field.name(), field.nullable() ? ARROW_FLAG_NULLABLE : 0,
                    field.metadata().get(), out);
}

// Fills `out` on success; on failure nothing is left to release.
Status ExportNode(const DataType& type, std::string name, int64_t flags,
                  const KeyValueMetadata* metadata, ArrowSchema* out) {
  auto exported = std::make_unique<SchemaExport>();
  exported->name = std::move(name);
  QUIVER_ASSIGN_OR_RAISE(exported->metadata, EncodeMetadata(metadata));

  const DataType* shape = &type;
  if (type.id() == Type::kDictionary) {
    const auto& dict = TypeAs<DictionaryType>(type);
    if (dict.index_type() == nullptr || !IsInteger(dict.index_type()->id())) {
      return Status::Invalid("dictionary index type must be an integer, got ",
                             dict.index_type() ? dict.index_type()->ToString() : "null");
    }
    QUIVER_ASSIGN_OR_RAISE(exported->format, FormatOf(*dict.index_type()));
    if (dict.ordered()) flags |= ARROW_FLAG_DICTIONARY_ORDERED;
    QUIVER_RETURN_NOT_OK(
        ExportNode(*dict.value_type(), "", ARROW_FLAG_NULLABLE, nullptr, &exported->dictionary));
    shape = dict.index_type().get();  // no children
  } else {
    QUIVER_ASSIGN_OR_RAISE(exported->format, FormatOf(type));
    if (type.id() == Type::kMap && TypeAs<MapType>(type).keys_sorted()) {
      flags |= ARROW_FLAG_MAP_KEYS_SORTED;
    }
  }

  const auto n = static_cast<size_t>(shape->num_fields());
  exported->children.assign(n, ArrowSchema{});
  exported->child_pointers.resize(n);
  for (size_t i = 0; i < n; ++i) {
    exported->child_pointers[i] = &exported->children[i];
    // On failure, the children exported so far are released by ~SchemaExport.
    QUIVER_RETURN_NOT_OK(ExportFieldNode(*shape->field(static_cast<int>(i)),
                                         &exported->children[i]));
  }

  out->format = exported->format.c_str();
  out->name = exported->name.c_str();
  out->metadata = exported->metadata.empty() ? nullptr : exported->metadata.data();
  out->flags = flags;
  out->n_children = static_cast<int64_t>(n);
  out->children = n == 0 ? nullptr : exported->child_pointers.data();
  out->dictionary = exported->dictionary.release != nullptr ? &exported->dictionary : nullptr;
  out->release = &ReleaseExportedSchema;
  out->private_data = exported.release();
  return Status::OK();
}

// --- Import -----------------------------------------------------------------

// Owns a moved ArrowSchema and releases it when destroyed.
class SchemaGuard {
 public:
  explicit SchemaGuard(ArrowSchema* source) : schema_(*source) { source->release = nullptr; }
  ~SchemaGuard() {
    if (schema_.release != nullptr) schema_.release(&schema_);
  }
  SchemaGuard(const SchemaGuard&) = delete;
  SchemaGuard& operator=(const SchemaGuard&) = delete;
  const ArrowSchema* get() const { return &schema_; }

 private:
  ArrowSchema schema_;
};

Status CheckImportable(const ArrowSchema* schema) {
  if (schema == nullptr) return Status::Invalid("ArrowSchema pointer is null");
  if (schema->release == nullptr) {
    return Status::Invalid("cannot import a released ArrowSchema (release is NULL)");
  }
  return Status::OK();
}

// Strict decimal integer: optional '-', digits, nothing else, in int32 range.
bool ParseInt32(std::string_view text, int32_t* out) {
  if (text.empty()) return false;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, *out);
  return ec == std::errc() && ptr == end;
}

std::string Quoted(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c >= 0x20 && c < 0x7f) {
      out += c;
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[(static_cast<unsigned char>(c) >> 4) & 15];
      out += kHex[static_cast<unsigned char>(c) & 15];
    }
  }
  return out + "'";
}

class SchemaImporter {
 public:
  Result<FieldPtr> ImportField(const ArrowSchema* schema, const std::string& path, int depth) {
    QUIVER_ASSIGN_OR_RAISE(TypePtr type, ImportType(schema, path, depth));
    QUIVER_ASSIGN_OR_RAISE(MetadataPtr metadata, ImportMetadata(schema, path));
    std::string name = schema->name == nullptr ? std::string() : std::string(schema->name);
    return std::make_shared<Field>(std::move(name), std::move(type),
                                   (schema->flags & ARROW_FLAG_NULLABLE) != 0,
                                   std::move(metadata));
  }

  // The type of `schema`, dictionary and type-level flags included.
  Result<TypePtr> ImportType(const ArrowSchema* schema, const std::string& path, int depth) {
    if (depth > internal::kMaxImportDepth) {
      return Status::Invalid("ArrowSchema ", path, ": nesting deeper than ",
                             internal::kMaxImportDepth,
                             " levels (too deep, or the children form a cycle)");
    }
    if (schema == nullptr) return Status::Invalid("ArrowSchema ", path, " is a null pointer");
    if (schema->release == nullptr) {
      return Status::Invalid("ArrowSchema ", path, " is released (release is NULL)");
    }
    if (schema->format == nullptr) {
      return Status::Invalid("ArrowSchema ", path, ": format is a null pointer");
    }
    if (schema->n_children < 0) {
      return Status::Invalid("ArrowSchema ", path, ": negative n_children ", schema->n_children);
    }
    if (schema->n_children > 0 && schema->children == nullptr) {
      return Status::Invalid("ArrowSchema ", path, ": children is NULL but n_children is ",
                             schema->n_children);
    }
    std::string_view format(schema->format);

    if (schema->dictionary != nullptr) {
      QUIVER_ASSIGN_OR_RAISE(TypePtr index_type, ParseFormat(format, schema, path, depth));
      if (!IsInteger(index_type->id())) {
        return Status::Invalid("ArrowSchema ", path, ": dictionary index type must be an integer, ",
                               "got format ", Quoted(format), " (", index_type->ToString(), ")");
      }
      QUIVER_ASSIGN_OR_RAISE(TypePtr value_type,
                             ImportType(schema->dictionary, path + ".dictionary", depth + 1));
      return TypePtr(std::make_shared<DictionaryType>(
          std::move(index_type), std::move(value_type),
          (schema->flags & ARROW_FLAG_DICTIONARY_ORDERED) != 0));
    }
    return ParseFormat(format, schema, path, depth);
  }

  Result<MetadataPtr> ImportMetadata(const ArrowSchema* schema, const std::string& path) {
    const char* p = schema->metadata;
    if (p == nullptr) return MetadataPtr();
    auto read_int32 = [&p]() {
      int32_t v;
      std::memcpy(&v, p, sizeof v);
      p += sizeof v;
      return v;
    };
    int32_t count = read_int32();
    if (count < 0) {
      return Status::Invalid("ArrowSchema ", path, ": metadata has a negative pair count ", count);
    }
    if (count == 0) return MetadataPtr();
    auto metadata = std::make_shared<KeyValueMetadata>();
    for (int32_t i = 0; i < count; ++i) {
      int32_t key_length = read_int32();
      if (key_length < 0) {
        return Status::Invalid("ArrowSchema ", path, ": metadata key ", i,
                               " has a negative length ", key_length);
      }
      std::string key(p, static_cast<size_t>(key_length));
      p += key_length;
      int32_t value_length = read_int32();
      if (value_length < 0) {
        return Status::Invalid("ArrowSchema ", path, ": metadata value ", i, " (key ",
                               Quoted(key), ") has a negative length ", value_length);
      }
      std::string value(p, static_cast<size_t>(value_length));
      p += value_length;
      metadata->Append(std::move(key), std::move(value));
    }
    return MetadataPtr(std::move(metadata));
  }

 private:
  Status ExpectChildren(const ArrowSchema* schema, std::string_view format,
                        const std::string& path, int64_t expected) {
    if (schema->n_children != expected) {
      return Status::Invalid("ArrowSchema ", path, ": format ", Quoted(format), " takes ",
                             expected, expected == 1 ? " child" : " children", ", got n_children ",
                             schema->n_children);
    }
    return Status::OK();
  }

  std::string ChildPath(const ArrowSchema* schema, const std::string& path, int64_t i) {
    std::string out = path + ".children[" + std::to_string(i) + "]";
    const ArrowSchema* child = schema->children[i];
    if (child != nullptr && child->release != nullptr && child->name != nullptr) {
      out += "(" + Quoted(std::string_view(child->name).substr(0, 64)) + ")";
    }
    return out;
  }

  Result<FieldVector> ImportChildren(const ArrowSchema* schema, const std::string& path,
                                     int depth) {
    FieldVector fields;
    for (int64_t i = 0; i < schema->n_children; ++i) {
      QUIVER_ASSIGN_OR_RAISE(
          FieldPtr child,
          ImportField(schema->children[i], ChildPath(schema, path, i), depth + 1));
      fields.push_back(std::move(child));
    }
    return fields;
  }

  // A leaf type: the format must match exactly and there must be no children.
  Result<TypePtr> Leaf(const ArrowSchema* schema, std::string_view format,
                       const std::string& path, TypePtr type) {
    QUIVER_RETURN_NOT_OK(ExpectChildren(schema, format, path, 0));
    return type;
  }

  Status BadFormat(std::string_view format, const std::string& path, std::string_view why) {
    return Status::Invalid("ArrowSchema ", path, ": invalid format string ", Quoted(format), ": ",
                           why);
  }

  Result<TimeUnit> ParseUnit(char c, std::string_view format, const std::string& path) {
    switch (c) {
      case 's': return TimeUnit::kSecond;
      case 'm': return TimeUnit::kMilli;
      case 'u': return TimeUnit::kMicro;
      case 'n': return TimeUnit::kNano;
      default: return BadFormat(format, path, "unknown time unit (expected s, m, u or n)");
    }
  }

  Result<TypePtr> ParseFormat(std::string_view f, const ArrowSchema* schema,
                              const std::string& path, int depth) {
    if (f.empty()) return BadFormat(f, path, "empty");
    if (f.size() == 1) {
      switch (f[0]) {
        case 'n': return Leaf(schema, f, path, null());
        case 'b': return Leaf(schema, f, path, boolean());
        case 'c': return Leaf(schema, f, path, int8());
        case 'C': return Leaf(schema, f, path, uint8());
        case 's': return Leaf(schema, f, path, int16());
        case 'S': return Leaf(schema, f, path, uint16());
        case 'i': return Leaf(schema, f, path, int32());
        case 'I': return Leaf(schema, f, path, uint32());
        case 'l': return Leaf(schema, f, path, int64());
        case 'L': return Leaf(schema, f, path, uint64());
        case 'e': return Leaf(schema, f, path, float16());
        case 'f': return Leaf(schema, f, path, float32());
        case 'g': return Leaf(schema, f, path, float64());
        case 'z': return Leaf(schema, f, path, binary());
        case 'Z': return Leaf(schema, f, path, large_binary());
        case 'u': return Leaf(schema, f, path, utf8());
        case 'U': return Leaf(schema, f, path, large_utf8());
        default: break;
      }
    }
    switch (f[0]) {
      case 'v':
        if (f == "vz") return Leaf(schema, f, path, binary_view());
        if (f == "vu") return Leaf(schema, f, path, utf8_view());
        break;
      case 'w': {
        if (f.size() < 2 || f[1] != ':') break;
        int32_t width;
        if (!ParseInt32(f.substr(2), &width) || width < 0) {
          return BadFormat(f, path, "expected a non-negative byte width after 'w:'");
        }
        return Leaf(schema, f, path, fixed_size_binary(width));
      }
      case 'd': return ParseDecimal(f, schema, path);
      case 't': return ParseTemporal(f, schema, path);
      case '+': return ParseNested(f, schema, path, depth);
      default: break;
    }
    return BadFormat(f, path, "unknown format");
  }

  Result<TypePtr> ParseDecimal(std::string_view f, const ArrowSchema* schema,
                               const std::string& path) {
    if (f.size() < 2 || f[1] != ':') return BadFormat(f, path, "unknown format");
    std::string_view rest = f.substr(2);
    std::vector<std::string_view> parts;
    while (true) {
      size_t comma = rest.find(',');
      parts.push_back(rest.substr(0, comma));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
    if (parts.size() < 2 || parts.size() > 3) {
      return BadFormat(f, path, "a decimal is 'd:precision,scale' or 'd:precision,scale,bitwidth'");
    }
    int32_t precision, scale, bit_width = 128;
    if (!ParseInt32(parts[0], &precision)) return BadFormat(f, path, "bad decimal precision");
    if (!ParseInt32(parts[1], &scale)) return BadFormat(f, path, "bad decimal scale");
    if (parts.size() == 3 && !ParseInt32(parts[2], &bit_width)) {
      return BadFormat(f, path, "bad decimal bit width");
    }
    Type id;
    switch (bit_width) {
      case 32: id = Type::kDecimal32; break;
      case 64: id = Type::kDecimal64; break;
      case 128: id = Type::kDecimal128; break;
      case 256: id = Type::kDecimal256; break;
      default: return BadFormat(f, path, "decimal bit width must be 32, 64, 128 or 256");
    }
    auto type = DecimalTypeSafe(id, precision, scale);
    if (!type.ok()) {
      return Status::Invalid("ArrowSchema ", path, ": invalid format string ", Quoted(f), ": ",
                             type.status().message());
    }
    return Leaf(schema, f, path, *type);
  }

  Result<TypePtr> ParseTemporal(std::string_view f, const ArrowSchema* schema,
                                const std::string& path) {
    if (f.size() < 3) return BadFormat(f, path, "truncated temporal format");
    const char kind = f[1];
    const char code = f[2];
    if (kind == 's') {  // timestamp: "ts" unit ":" timezone
      if (f.size() < 4 || f[3] != ':') {
        return BadFormat(f, path, "a timestamp is 'ts<unit>:<timezone>' (timezone may be empty)");
      }
      QUIVER_ASSIGN_OR_RAISE(TimeUnit unit, ParseUnit(code, f, path));
      return Leaf(schema, f, path, timestamp(unit, std::string(f.substr(4))));
    }
    if (f.size() != 3) return BadFormat(f, path, "unexpected characters after the temporal type");
    switch (kind) {
      case 'd':
        if (code == 'D') return Leaf(schema, f, path, date32());
        if (code == 'm') return Leaf(schema, f, path, date64());
        break;
      case 't':
        if (code == 's') return Leaf(schema, f, path, time32(TimeUnit::kSecond));
        if (code == 'm') return Leaf(schema, f, path, time32(TimeUnit::kMilli));
        if (code == 'u') return Leaf(schema, f, path, time64(TimeUnit::kMicro));
        if (code == 'n') return Leaf(schema, f, path, time64(TimeUnit::kNano));
        break;
      case 'D': {
        QUIVER_ASSIGN_OR_RAISE(TimeUnit unit, ParseUnit(code, f, path));
        return Leaf(schema, f, path, duration(unit));
      }
      case 'i':
        if (code == 'M') return Leaf(schema, f, path, month_interval());
        if (code == 'D') return Leaf(schema, f, path, day_time_interval());
        if (code == 'n') return Leaf(schema, f, path, month_day_nano_interval());
        break;
      default: break;
    }
    return BadFormat(f, path, "unknown temporal format");
  }

  Result<TypePtr> ParseNested(std::string_view f, const ArrowSchema* schema,
                              const std::string& path, int depth) {
    if (f == "+l" || f == "+L" || f == "+m" || (f.size() >= 3 && f.substr(0, 3) == "+w:")) {
      QUIVER_RETURN_NOT_OK(ExpectChildren(schema, f, path, 1));
      QUIVER_ASSIGN_OR_RAISE(FieldVector children, ImportChildren(schema, path, depth));
      FieldPtr& child = children[0];
      if (f == "+l") return TypePtr(std::make_shared<ListType>(Type::kList, std::move(child)));
      if (f == "+L") {
        return TypePtr(std::make_shared<ListType>(Type::kLargeList, std::move(child)));
      }
      if (f == "+m") {
        const DataType& entries = *child->type();
        if (entries.id() != Type::kStruct || entries.num_fields() != 2) {
          return Status::Invalid("ArrowSchema ", path,
                                 ": a map's child must be a struct of two fields (key, value), "
                                 "got ", entries.ToString());
        }
        return TypePtr(std::make_shared<MapType>(entries.field(0), entries.field(1),
                                                 (schema->flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0,
                                                 child->name()));
      }
      int32_t size;
      if (!ParseInt32(f.substr(3), &size) || size < 0) {
        return BadFormat(f, path, "expected a non-negative list size after '+w:'");
      }
      return TypePtr(std::make_shared<ListType>(Type::kFixedSizeList, std::move(child), size));
    }
    if (f == "+s") {
      QUIVER_ASSIGN_OR_RAISE(FieldVector children, ImportChildren(schema, path, depth));
      return TypePtr(std::make_shared<StructType>(std::move(children)));
    }
    if (f == "+vl" || f == "+vL" || f == "+r" || f.substr(0, 4) == "+ud:" ||
        f.substr(0, 4) == "+us:") {
      return Status::NotImplemented("ArrowSchema ", path, ": format ", Quoted(f),
                                    " (list views, run-end encoded and union types) is not "
                                    "supported by Quiver");
    }
    return BadFormat(f, path, "unknown nested format");
  }
};

}  // namespace

// --- Public API ---------------------------------------------------------------

Status ExportType(const DataType& type, ArrowSchema* out) {
  if (out == nullptr) return Status::Invalid("ExportType: output ArrowSchema is null");
  return ExportNode(type, "", ARROW_FLAG_NULLABLE, nullptr, out);
}

Status ExportField(const Field& field, ArrowSchema* out) {
  if (out == nullptr) return Status::Invalid("ExportField: output ArrowSchema is null");
  return ExportFieldNode(field, out);
}

Status ExportSchema(const Schema& schema, ArrowSchema* out) {
  if (out == nullptr) return Status::Invalid("ExportSchema: output ArrowSchema is null");
  StructType type(schema.fields());
  return ExportNode(type, "", 0, schema.metadata().get(), out);
}

Result<TypePtr> ImportType(ArrowSchema* schema) {
  QUIVER_RETURN_NOT_OK(CheckImportable(schema));
  SchemaGuard guard(schema);
  return SchemaImporter().ImportType(guard.get(), "<root>", 0);
}

Result<FieldPtr> ImportField(ArrowSchema* schema) {
  QUIVER_RETURN_NOT_OK(CheckImportable(schema));
  SchemaGuard guard(schema);
  return SchemaImporter().ImportField(guard.get(), "<root>", 0);
}

Result<SchemaPtr> ImportSchema(ArrowSchema* schema) {
  QUIVER_RETURN_NOT_OK(CheckImportable(schema));
  SchemaGuard guard(schema);
  SchemaImporter importer;
  QUIVER_ASSIGN_OR_RAISE(TypePtr type, importer.ImportType(guard.get(), "<root>", 0));
  if (type->id() != Type::kStruct) {
    return Status::Invalid("ArrowSchema <root>: a schema must be a struct ('+s'), got format ",
                           Quoted(guard.get()->format), " (", type->ToString(), ")");
  }
  QUIVER_ASSIGN_OR_RAISE(MetadataPtr metadata, importer.ImportMetadata(guard.get(), "<root>"));
  return std::make_shared<Schema>(type->fields(), std::move(metadata));
}

}  // namespace quiver
