// Statistics decoded once (statistics.h says the rules and their sources).
#include "quiver/parquet/metadata/statistics.h"

#include <cctype>
#include <cmath>
#include <cstring>

#include "quiver/parquet/metadata/statistics_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {

static_assert(static_cast<int>(PhysicalType::kFixedLenByteArray) ==
              static_cast<int>(format::Type::kFixedLenByteArray));
static_assert(static_cast<int>(PhysicalType::kInt96) == static_cast<int>(format::Type::kInt96));

// --- ApplicationVersion ----------------------------------------------------------

ApplicationVersion::ApplicationVersion(std::string_view created_by) {
  // ^\s*(\S+)\s*(?:version\s*(\S*))?
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  size_t i = 0;
  while (i < created_by.size() && space(created_by[i])) ++i;
  const size_t app_start = i;
  while (i < created_by.size() && !space(created_by[i])) ++i;
  if (i == app_start) return;  // no application: "unknown"
  application_.assign(created_by.substr(app_start, i - app_start));
  for (char& c : application_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (i < created_by.size() && space(created_by[i])) ++i;
  if (created_by.substr(i, 7) != "version") return;
  i += 7;
  while (i < created_by.size() && space(created_by[i])) ++i;
  const size_t v_start = i;
  while (i < created_by.size() && !space(created_by[i])) ++i;
  std::string_view v = created_by.substr(v_start, i - v_start);
  // The first three parts split at '.', '-' or '+', each its leading digits.
  for (int part = 0; part < 3; ++part) {
    size_t j = 0;
    int n = 0;
    while (j < v.size() && v[j] >= '0' && v[j] <= '9') {
      if (n < 100000000) n = n * 10 + (v[j] - '0');
      ++j;
    }
    version_[part] = n;
    const size_t next = v.find_first_of(".-+");
    if (next == std::string_view::npos) break;
    v.remove_prefix(next + 1);
  }
}

bool ApplicationVersion::OlderThan(std::string_view application, int major, int minor,
                                   int patch) const {
  if (application_ != application) return false;
  const int other[3] = {major, minor, patch};
  for (int i = 0; i < 3; ++i) {
    if (version_[i] != other[i]) return version_[i] < other[i];
  }
  return false;
}

bool ApplicationVersion::HasCorrectStatistics(PhysicalType physical, SortOrder order,
                                              bool min_equals_max) const {
  const bool byte_array =
      physical == PhysicalType::kByteArray || physical == PhysicalType::kFixedLenByteArray;
  if (OlderThan("parquet-cpp", 1, 3, 0) || OlderThan("parquet-mr", 1, 10, 0)) {
    if (order != SortOrder::kSigned && !min_equals_max) return false;
    if (!byte_array) return true;
  }
  if (application_ == "unknown") return true;
  return !OlderThan("parquet-mr", 1, 8, 0);  // PARQUET-251
}

// --- The column's logical type, as Arrow C++ resolves it --------------------------

namespace {

enum class Kind {
  kNone,       // no logical or converted type
  kUndefined,  // one that does not fit, or that this reader does not know
  kString,
  kEnum,
  kJson,
  kBson,
  kUuid,
  kInt,
  kDate,
  kTime,
  kTimestamp,
  kDecimal,
  kFloat16,
  kNull,
  kOther,  // MAP, LIST, INTERVAL, geometries: no sort order
};

struct Logical {
  Kind kind = Kind::kNone;
  int bit_width = 0;
  bool is_signed = true;
  int32_t precision = 0;
  int32_t scale = 0;
  TimeUnit unit = TimeUnit::kMilli;
  bool utc = false;
};

TimeUnit UnitOf(const format::TimeUnit& u) {
  switch (u.kind()) {
    case format::TimeUnit::Kind::kMicros: return TimeUnit::kMicro;
    case format::TimeUnit::Kind::kNanos: return TimeUnit::kNano;
    default: return TimeUnit::kMilli;
  }
}

// LogicalType::is_applicable.
bool Fits(const Logical& l, format::Type physical, int32_t length) {
  using T = format::Type;
  switch (l.kind) {
    case Kind::kString:
    case Kind::kEnum:
    case Kind::kJson:
    case Kind::kBson:
    case Kind::kOther:  // geometries (the only kOther a stored LogicalType makes)
      return physical == T::kByteArray;
    case Kind::kInt: return physical == (l.bit_width == 64 ? T::kInt64 : T::kInt32);
    case Kind::kDate: return physical == T::kInt32;
    case Kind::kTime: return physical == (l.unit == TimeUnit::kMilli ? T::kInt32 : T::kInt64);
    case Kind::kTimestamp: return physical == T::kInt64;
    case Kind::kDecimal:
      switch (physical) {
        case T::kInt32: return l.precision >= 1 && l.precision <= 9;
        case T::kInt64: return l.precision >= 1 && l.precision <= 18;
        case T::kByteArray: return true;
        case T::kFixedLenByteArray:
          return length > 128 ||
                 l.precision <= static_cast<int32_t>(
                                    std::floor(std::log10(std::pow(2.0, 8.0 * length - 1))));
        default: return false;
      }
    case Kind::kUuid: return physical == T::kFixedLenByteArray && length == 16;
    case Kind::kFloat16: return physical == T::kFixedLenByteArray && length == 2;
    case Kind::kNull: return true;
    default: return false;
  }
}

Logical FromLogicalType(const format::LogicalType& t) {
  using K = format::LogicalType::Kind;
  Logical l;
  switch (t.kind()) {
    case K::kString: l.kind = Kind::kString; break;
    case K::kEnum: l.kind = Kind::kEnum; break;
    case K::kJson: l.kind = Kind::kJson; break;
    case K::kBson: l.kind = Kind::kBson; break;
    case K::kUuid: l.kind = Kind::kUuid; break;
    case K::kFloat16: l.kind = Kind::kFloat16; break;
    case K::kDate: l.kind = Kind::kDate; break;
    case K::kUnknown: l.kind = Kind::kNull; break;
    case K::kGeometry:
    case K::kGeography: l.kind = Kind::kOther; break;
    case K::kDecimal:
      l.kind = Kind::kDecimal;
      l.precision = t.decimal->precision;
      l.scale = t.decimal->scale;
      break;
    case K::kTime:
      l.kind = Kind::kTime;
      l.unit = UnitOf(t.time->unit);
      l.utc = t.time->is_adjusted_to_utc;
      break;
    case K::kTimestamp:
      l.kind = Kind::kTimestamp;
      l.unit = UnitOf(t.timestamp->unit);
      l.utc = t.timestamp->is_adjusted_to_utc;
      break;
    case K::kInteger:
      l.kind = Kind::kInt;
      l.bit_width = t.integer->bit_width;
      l.is_signed = t.integer->is_signed;
      break;
    default: l.kind = Kind::kUndefined; break;  // MAP, LIST, VARIANT, VECTOR, none set
  }
  return l;
}

Logical FromConvertedType(format::ConvertedType c, const LeafAnnotations& leaf) {
  using C = format::ConvertedType;
  Logical l;
  auto integer = [&](int bits, bool is_signed) {
    l.kind = Kind::kInt;
    l.bit_width = bits;
    l.is_signed = is_signed;
  };
  switch (c) {
    case C::kUtf8: l.kind = Kind::kString; break;
    case C::kEnum: l.kind = Kind::kEnum; break;
    case C::kJson: l.kind = Kind::kJson; break;
    case C::kBson: l.kind = Kind::kBson; break;
    case C::kDate: l.kind = Kind::kDate; break;
    case C::kMap:
    case C::kMapKeyValue:
    case C::kList:
    case C::kInterval: l.kind = Kind::kOther; break;
    case C::kInt8: integer(8, true); break;
    case C::kInt16: integer(16, true); break;
    case C::kInt32: integer(32, true); break;
    case C::kInt64: integer(64, true); break;
    case C::kUint8: integer(8, false); break;
    case C::kUint16: integer(16, false); break;
    case C::kUint32: integer(32, false); break;
    case C::kUint64: integer(64, false); break;
    case C::kDecimal:
      l.kind = Kind::kDecimal;
      l.precision = leaf.precision.value_or(0);
      l.scale = leaf.scale.value_or(0);
      break;
    case C::kTimeMillis:
    case C::kTimeMicros:
      l.kind = Kind::kTime;
      l.utc = true;
      l.unit = c == C::kTimeMillis ? TimeUnit::kMilli : TimeUnit::kMicro;
      break;
    case C::kTimestampMillis:
    case C::kTimestampMicros:
      l.kind = Kind::kTimestamp;
      l.utc = true;
      l.unit = c == C::kTimestampMillis ? TimeUnit::kMilli : TimeUnit::kMicro;
      break;
    default:
      // Thrift converted type 24 is Arrow's NA (the Null logical type).
      l.kind = static_cast<int32_t>(c) == 24 ? Kind::kNull : Kind::kUndefined;
      break;
  }
  return l;
}

Logical ResolveLogical(const LeafAnnotations& leaf) {
  if (leaf.logical_type.has_value()) {
    Logical l = FromLogicalType(*leaf.logical_type);
    if (l.kind == Kind::kUndefined || !Fits(l, leaf.physical_type, leaf.type_length)) {
      return Logical{Kind::kUndefined};
    }
    return l;
  }
  if (leaf.converted_type.has_value()) return FromConvertedType(*leaf.converted_type, leaf);
  return Logical{Kind::kNone};
}

SortOrder OrderOf(const Logical& l, format::Type physical) {
  switch (l.kind) {
    case Kind::kNone:
      if (physical == format::Type::kByteArray || physical == format::Type::kFixedLenByteArray) {
        return SortOrder::kUnsigned;
      }
      return physical == format::Type::kInt96 ? SortOrder::kUnknown : SortOrder::kSigned;
    case Kind::kString:
    case Kind::kEnum:
    case Kind::kJson:
    case Kind::kBson:
    case Kind::kUuid: return SortOrder::kUnsigned;
    case Kind::kInt: return l.is_signed ? SortOrder::kSigned : SortOrder::kUnsigned;
    case Kind::kDecimal:
    case Kind::kDate:
    case Kind::kTime:
    case Kind::kTimestamp:
    case Kind::kFloat16: return SortOrder::kSigned;
    default: return SortOrder::kUnknown;
  }
}

TypePtr DecimalOf(const Logical& l) {
  auto t = DecimalTypeSafe(l.precision > 38 ? Type::kDecimal256 : Type::kDecimal128,
                           l.precision, l.scale);
  return t.ok() ? *t : nullptr;
}

TypePtr BoundType(const Logical& l, format::Type physical, int32_t length) {
  using T = format::Type;
  switch (physical) {
    case T::kBoolean: return boolean();
    case T::kInt32:
    case T::kInt64: {
      const bool is64 = physical == T::kInt64;
      switch (l.kind) {
        case Kind::kInt:
          switch (l.bit_width) {
            case 8: return l.is_signed ? int8() : uint8();
            case 16: return l.is_signed ? int16() : uint16();
            case 32: return l.is_signed ? int32() : uint32();
            case 64: return l.is_signed ? int64() : uint64();
            default: break;
          }
          break;
        case Kind::kDate: return date32();
        case Kind::kDecimal: return DecimalOf(l);
        case Kind::kTime: return l.unit == TimeUnit::kMilli ? time32(l.unit) : time64(l.unit);
        case Kind::kTimestamp: return timestamp(l.unit, l.utc ? "UTC" : "");
        default: break;
      }
      return is64 ? int64() : int32();
    }
    case T::kFloat: return float32();
    case T::kDouble: return float64();
    case T::kByteArray:
      if (l.kind == Kind::kDecimal) return DecimalOf(l);
      return l.kind == Kind::kString ? utf8() : binary();
    case T::kFixedLenByteArray:
      if (l.kind == Kind::kDecimal) return DecimalOf(l);
      if (l.kind == Kind::kFloat16) return float16();
      return fixed_size_binary(length);
    default: return nullptr;  // INT96
  }
}

// The PLAIN-decoded physical value (pyarrow's min_raw / max_raw).
std::optional<Scalar> PhysicalValue(std::string_view raw, format::Type physical, int32_t length) {
  switch (physical) {
    case format::Type::kBoolean:
      return Scalar::MakeBool(!raw.empty() && (static_cast<uint8_t>(raw[0]) & 1) != 0);
    case format::Type::kInt32:
      if (raw.size() < 4) return std::nullopt;
      return *Scalar::MakeInt(int32(), bit_util::LoadLittleEndian<int32_t>(raw.data()));
    case format::Type::kInt64:
      if (raw.size() < 8) return std::nullopt;
      return Scalar::MakeInt64(bit_util::LoadLittleEndian<int64_t>(raw.data()));
    case format::Type::kFloat:
      if (raw.size() < 4) return std::nullopt;
      return Scalar::MakeFloat(bit_util::LoadLittleEndian<float>(raw.data()));
    case format::Type::kDouble:
      if (raw.size() < 8) return std::nullopt;
      return Scalar::MakeDouble(bit_util::LoadLittleEndian<double>(raw.data()));
    case format::Type::kByteArray: return Scalar::MakeBinary(std::string(raw));
    case format::Type::kFixedLenByteArray: {
      if (raw.size() < static_cast<size_t>(length)) return std::nullopt;
      auto s = Scalar::MakeBytes(fixed_size_binary(length), std::string(raw.substr(0, length)));
      if (!s.ok()) return std::nullopt;
      return *std::move(s);
    }
    default: return std::nullopt;  // INT96
  }
}

// The bound as a Scalar of `type` (BoundType's), from its physical value.
std::optional<Scalar> TypedValue(std::string_view raw, const Scalar& physical,
                                 const TypePtr& type) {
  auto ok = [](Result<Scalar> r) -> std::optional<Scalar> {
    if (!r.ok()) return std::nullopt;
    return *std::move(r);
  };
  switch (type->id()) {
    case Type::kBool:
    case Type::kFloat:
    case Type::kDouble:
    case Type::kBinary:
    case Type::kFixedSizeBinary: return physical;
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64:
    case Type::kUInt8:
    case Type::kUInt16:
    case Type::kUInt32:
    case Type::kUInt64: {
      // The stored value cut to the bit width (pyarrow's cast of the
      // physical value), signed or not.
      const uint64_t bits = static_cast<uint64_t>(physical.int_value());
      const int width = type->bit_width();
      const uint64_t cut = width == 64 ? bits : bits & ((uint64_t{1} << width) - 1);
      if (IsUnsignedInteger(type->id())) return ok(Scalar::MakeUInt(type, cut));
      int64_t v = static_cast<int64_t>(cut);
      if (width < 64 && (cut >> (width - 1)) != 0) v = static_cast<int64_t>(cut | (~uint64_t{0} << width));
      return ok(Scalar::MakeInt(type, v));
    }
    case Type::kDate32:
    case Type::kTime32:
    case Type::kTime64:
    case Type::kTimestamp: return ok(Scalar::MakeInt(type, physical.int_value()));
    case Type::kDecimal128:
    case Type::kDecimal256: {
      if (physical.type()->id() == Type::kInt32 || physical.type()->id() == Type::kInt64) {
        return ok(Scalar::MakeDecimal(type, Int256::FromInt64(physical.int_value())));
      }
      if (raw.empty()) return ok(Scalar::MakeDecimal(type, Int256::FromInt64(0)));
      auto unscaled = Int256::FromBigEndian(raw);
      if (!unscaled.ok()) return std::nullopt;
      return ok(Scalar::MakeDecimal(type, *unscaled));
    }
    case Type::kHalfFloat:
      if (raw.size() != 2) return std::nullopt;
      return Scalar::MakeHalfFloat(static_cast<uint16_t>(static_cast<uint8_t>(raw[0]) |
                                                         static_cast<uint8_t>(raw[1]) << 8));
    case Type::kString: return ok(Scalar::MakeBytes(type, std::string(raw)));
    default: return std::nullopt;
  }
}

}  // namespace

LeafAnnotations LeafAnnotations::Of(const SchemaDescriptor& schema, int column) {
  const ColumnDescriptor& c = schema.column(column);
  const SchemaNode& node = schema.node(c.node);
  LeafAnnotations leaf;
  leaf.physical_type = c.physical_type;
  leaf.type_length = c.type_length;
  leaf.logical_type = c.logical_type;
  leaf.converted_type = c.converted_type;
  leaf.precision = node.precision;
  leaf.scale = node.scale;
  return leaf;
}

LeafAnnotations LeafAnnotations::Of(const format::SchemaElement* element,
                                    format::Type physical_type) {
  LeafAnnotations leaf;
  leaf.physical_type = physical_type;
  if (element == nullptr) return leaf;
  leaf.type_length = element->type_length.value_or(0);
  leaf.logical_type = element->logical_type;
  leaf.converted_type = element->converted_type;
  leaf.precision = element->precision;
  leaf.scale = element->scale;
  return leaf;
}

SortOrder ColumnSortOrder(const LeafAnnotations& leaf) {
  return OrderOf(ResolveLogical(leaf), leaf.physical_type);
}

SortOrder ColumnSortOrder(const SchemaDescriptor& schema, int column) {
  return ColumnSortOrder(LeafAnnotations::Of(schema, column));
}

TypePtr StatisticsBoundType(const LeafAnnotations& leaf) {
  return BoundType(ResolveLogical(leaf), leaf.physical_type, leaf.type_length);
}

TypePtr StatisticsBoundType(const SchemaDescriptor& schema, int column) {
  return StatisticsBoundType(LeafAnnotations::Of(schema, column));
}

std::optional<Scalar> DecodeStatisticsValue(std::string_view raw, const LeafAnnotations& leaf) {
  const TypePtr type = StatisticsBoundType(leaf);
  if (type == nullptr) return std::nullopt;
  auto physical = PhysicalValue(raw, leaf.physical_type, leaf.type_length);
  if (!physical) return std::nullopt;
  return TypedValue(raw, *physical, type);
}

std::optional<bool> ColumnTypeOrder(const format::FileMetaData& metadata, int column) {
  if (!metadata.column_orders.has_value()) return std::nullopt;
  const auto& orders = *metadata.column_orders;
  return column >= 0 && static_cast<size_t>(column) < orders.size() &&
         orders[static_cast<size_t>(column)].kind() == format::ColumnOrder::Kind::kTypeOrder;
}

class StatisticsDecoder {
 public:
  static std::optional<Statistics> Decode(const format::Statistics& stats,
                                          const SchemaDescriptor& schema, int column,
                                          int64_t num_values, std::optional<bool> type_order,
                                          const ApplicationVersion& writer) {
    const ColumnDescriptor& c = schema.column(column);
    const Logical l = ResolveLogical(LeafAnnotations::Of(schema, column));
    Statistics s;
    s.physical_type_ = static_cast<PhysicalType>(c.physical_type);
    s.sort_order_ = OrderOf(l, c.physical_type);
    s.bound_type_ = BoundType(l, c.physical_type, c.type_length);
    s.null_count_ = stats.null_count;
    s.distinct_count_ = stats.distinct_count;
    s.nan_count_ = stats.nan_count;
    s.min_exact_ = stats.is_min_value_exact;
    s.max_exact_ = stats.is_max_value_exact;
    s.num_values_ = num_values - stats.null_count.value_or(0);

    // Which bounds count (statistics.h).
    const std::optional<std::string>* lo = nullptr;
    const std::optional<std::string>* hi = nullptr;
    if (s.sort_order_ == SortOrder::kUnknown || type_order == false) {
      // none
    } else if (type_order == true) {
      lo = &stats.min_value;
      hi = &stats.max_value;
    } else if (s.sort_order_ == SortOrder::kSigned) {
      lo = &stats.min;
      hi = &stats.max;
    }
    const bool have = lo != nullptr && lo->has_value() && hi->has_value();
    if (!writer.HasCorrectStatistics(s.physical_type_, s.sort_order_, have && **lo == **hi)) {
      return std::nullopt;
    }
    const TypePtr type = s.bound_type_ ? s.bound_type_ : null();
    s.min_ = s.max_ = Scalar::MakeNull(type);
    s.min_physical_ = s.max_physical_ = Scalar::MakeNull(nullptr);
    if (!have) return s;
    auto min_physical = PhysicalValue(**lo, c.physical_type, c.type_length);
    auto max_physical = PhysicalValue(**hi, c.physical_type, c.type_length);
    if (!min_physical || !max_physical) return s;
    s.has_min_max_ = true;
    if (s.bound_type_ != nullptr) {
      // A bound that is no value of the type stays a null (statistics.h).
      if (auto min = TypedValue(**lo, *min_physical, s.bound_type_)) s.min_ = *std::move(min);
      if (auto max = TypedValue(**hi, *max_physical, s.bound_type_)) s.max_ = *std::move(max);
    }
    s.min_physical_ = *std::move(min_physical);
    s.max_physical_ = *std::move(max_physical);
    s.encoded_min_ = **lo;
    s.encoded_max_ = **hi;
    return s;
  }
};

std::optional<Statistics> DecodeStatistics(const format::Statistics& stats,
                                           const SchemaDescriptor& schema, int column,
                                           int64_t num_values, std::optional<bool> type_order,
                                           const ApplicationVersion& writer) {
  return StatisticsDecoder::Decode(stats, schema, column, num_values, type_order, writer);
}

std::optional<Statistics> DecodeChunkStatistics(const format::FileMetaData& metadata,
                                                const SchemaDescriptor& schema, int row_group,
                                                int column) {
  const auto& chunk = metadata.row_groups[static_cast<size_t>(row_group)]
                          .columns[static_cast<size_t>(column)];
  if (!chunk.meta_data.has_value() || !chunk.meta_data->statistics.has_value()) {
    return std::nullopt;
  }
  const ApplicationVersion writer(metadata.created_by.value_or(""));
  return DecodeStatistics(*chunk.meta_data->statistics, schema, column,
                          chunk.meta_data->num_values, ColumnTypeOrder(metadata, column), writer);
}

}  // namespace quiver::parquet
