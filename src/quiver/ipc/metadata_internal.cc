// Schema <-> flatbuffers conversion and message framing for IPC (see
// metadata_internal.h). Type mapping (Arrow format/Schema.fbs):
//   Int{bitWidth, is_signed}            int8..uint64
//   FloatingPoint{HALF,SINGLE,DOUBLE}   float16, float32, float64
//   Utf8 / Binary / LargeUtf8 / LargeBinary / Utf8View / BinaryView
//   FixedSizeBinary{byteWidth}, Bool, Null
//   Decimal{precision, scale, bitWidth 32/64/128/256}
//   Date{DAY -> date32, MILLISECOND -> date64}
//   Time{unit, bitWidth 32 (s, ms) / 64 (us, ns)}, Timestamp{unit, timezone}
//   Duration{unit}, Interval{YEAR_MONTH, DAY_TIME, MONTH_DAY_NANO}
//   List / LargeList / FixedSizeList{listSize} (one child), Struct_,
//   Map{keysSorted} (child "entries": struct<key, value>)
//   dictionary<index, value>: the value type, plus DictionaryEncoding{id,
//   indexType, isOrdered} on the Field.
#include "quiver/ipc/metadata_internal.h"

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"

namespace quiver::ipc::internal {

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

// --- Writing ----------------------------------------------------------------

struct TypeOffset {
  fb::Type type;
  Offset<void> offset;
};

fb::TimeUnit ToFlatbuffer(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return fb::TimeUnit::SECOND;
    case TimeUnit::kMilli: return fb::TimeUnit::MILLISECOND;
    case TimeUnit::kMicro: return fb::TimeUnit::MICROSECOND;
    case TimeUnit::kNano: return fb::TimeUnit::NANOSECOND;
  }
  return fb::TimeUnit::SECOND;
}

Offset<fb::Int> IntToFlatbuffer(FlatBufferBuilder& fbb, Type id) {
  int width = 0;
  switch (id) {
    case Type::kInt8:
    case Type::kUInt8: width = 8; break;
    case Type::kInt16:
    case Type::kUInt16: width = 16; break;
    case Type::kInt32:
    case Type::kUInt32: width = 32; break;
    default: width = 64; break;
  }
  return fb::CreateInt(fbb, width, IsSignedInteger(id));
}

Result<TypeOffset> TypeToFlatbuffer(FlatBufferBuilder& fbb, const DataType& type) {
  switch (type.id()) {
    case Type::kNull: return TypeOffset{fb::Type::Null, fb::CreateNull(fbb).Union()};
    case Type::kBool: return TypeOffset{fb::Type::Bool, fb::CreateBool(fbb).Union()};
    case Type::kInt8:
    case Type::kInt16:
    case Type::kInt32:
    case Type::kInt64:
    case Type::kUInt8:
    case Type::kUInt16:
    case Type::kUInt32:
    case Type::kUInt64:
      return TypeOffset{fb::Type::Int, IntToFlatbuffer(fbb, type.id()).Union()};
    case Type::kHalfFloat:
      return TypeOffset{fb::Type::FloatingPoint,
                        fb::CreateFloatingPoint(fbb, fb::Precision::HALF).Union()};
    case Type::kFloat:
      return TypeOffset{fb::Type::FloatingPoint,
                        fb::CreateFloatingPoint(fbb, fb::Precision::SINGLE).Union()};
    case Type::kDouble:
      return TypeOffset{fb::Type::FloatingPoint,
                        fb::CreateFloatingPoint(fbb, fb::Precision::DOUBLE).Union()};
    case Type::kString: return TypeOffset{fb::Type::Utf8, fb::CreateUtf8(fbb).Union()};
    case Type::kBinary: return TypeOffset{fb::Type::Binary, fb::CreateBinary(fbb).Union()};
    case Type::kLargeString:
      return TypeOffset{fb::Type::LargeUtf8, fb::CreateLargeUtf8(fbb).Union()};
    case Type::kLargeBinary:
      return TypeOffset{fb::Type::LargeBinary, fb::CreateLargeBinary(fbb).Union()};
    case Type::kStringView:
      return TypeOffset{fb::Type::Utf8View, fb::CreateUtf8View(fbb).Union()};
    case Type::kBinaryView:
      return TypeOffset{fb::Type::BinaryView, fb::CreateBinaryView(fbb).Union()};
    case Type::kFixedSizeBinary:
      return TypeOffset{
          fb::Type::FixedSizeBinary,
          fb::CreateFixedSizeBinary(fbb, TypeAs<FixedSizeBinaryType>(type).fixed_byte_width())
              .Union()};
    case Type::kDate32:
      return TypeOffset{fb::Type::Date, fb::CreateDate(fbb, fb::DateUnit::DAY).Union()};
    case Type::kDate64:
      return TypeOffset{fb::Type::Date, fb::CreateDate(fbb, fb::DateUnit::MILLISECOND).Union()};
    case Type::kTimestamp: {
      const auto& t = TypeAs<TemporalType>(type);
      Offset<flatbuffers::String> tz;
      if (!t.timezone().empty()) tz = fbb.CreateString(t.timezone());
      return TypeOffset{fb::Type::Timestamp,
                        fb::CreateTimestamp(fbb, ToFlatbuffer(t.unit()), tz).Union()};
    }
    case Type::kTime32:
    case Type::kTime64: {
      const auto& t = TypeAs<TemporalType>(type);
      return TypeOffset{
          fb::Type::Time,
          fb::CreateTime(fbb, ToFlatbuffer(t.unit()), type.id() == Type::kTime32 ? 32 : 64)
              .Union()};
    }
    case Type::kDuration:
      return TypeOffset{
          fb::Type::Duration,
          fb::CreateDuration(fbb, ToFlatbuffer(TypeAs<TemporalType>(type).unit())).Union()};
    case Type::kIntervalMonths:
      return TypeOffset{fb::Type::Interval,
                        fb::CreateInterval(fbb, fb::IntervalUnit::YEAR_MONTH).Union()};
    case Type::kIntervalDayTime:
      return TypeOffset{fb::Type::Interval,
                        fb::CreateInterval(fbb, fb::IntervalUnit::DAY_TIME).Union()};
    case Type::kIntervalMonthDayNano:
      return TypeOffset{fb::Type::Interval,
                        fb::CreateInterval(fbb, fb::IntervalUnit::MONTH_DAY_NANO).Union()};
    case Type::kDecimal32:
    case Type::kDecimal64:
    case Type::kDecimal128:
    case Type::kDecimal256: {
      const auto& t = TypeAs<DecimalType>(type);
      return TypeOffset{
          fb::Type::Decimal,
          fb::CreateDecimal(fbb, t.precision(), t.scale(), type.bit_width()).Union()};
    }
    case Type::kList: return TypeOffset{fb::Type::List, fb::CreateList(fbb).Union()};
    case Type::kLargeList:
      return TypeOffset{fb::Type::LargeList, fb::CreateLargeList(fbb).Union()};
    case Type::kFixedSizeList:
      return TypeOffset{
          fb::Type::FixedSizeList,
          fb::CreateFixedSizeList(fbb, TypeAs<ListType>(type).list_size()).Union()};
    case Type::kStruct: return TypeOffset{fb::Type::Struct_, fb::CreateStruct_(fbb).Union()};
    case Type::kMap:
      return TypeOffset{fb::Type::Map,
                        fb::CreateMap(fbb, TypeAs<MapType>(type).keys_sorted()).Union()};
    case Type::kDictionary:
      return Status::NotImplemented("IPC: a dictionary whose values are dictionary-encoded (",
                                    type.ToString(), ")");
  }
  return Status::NotImplemented("IPC: cannot write type ", type.ToString());
}

Result<Offset<fb::Field>> FieldToFlatbuffer(FlatBufferBuilder& fbb, const Field& field,
                                            FieldPath* path,
                                            const DictionaryFieldMapper& mapper) {
  const DataType* type = field.type().get();
  Offset<fb::DictionaryEncoding> dictionary;
  if (type->id() == Type::kDictionary) {
    const auto& dict = TypeAs<DictionaryType>(*type);
    QUIVER_ASSIGN_OR_RAISE(int64_t id, mapper.GetFieldId(*path));
    auto index = IntToFlatbuffer(fbb, dict.index_type()->id());
    dictionary = fb::CreateDictionaryEncoding(fbb, id, index, dict.ordered());
    type = dict.value_type().get();
  }
  std::vector<Offset<fb::Field>> children;
  children.reserve(type->fields().size());
  for (size_t i = 0; i < type->fields().size(); ++i) {
    path->push_back(static_cast<int>(i));
    QUIVER_ASSIGN_OR_RAISE(auto child, FieldToFlatbuffer(fbb, *type->fields()[i], path, mapper));
    path->pop_back();
    children.push_back(child);
  }
  QUIVER_ASSIGN_OR_RAISE(TypeOffset type_offset, TypeToFlatbuffer(fbb, *type));
  auto name = fbb.CreateString(field.name());
  auto children_offset = fbb.CreateVector(children);
  auto metadata = MetadataToFlatbuffer(fbb, field.metadata());
  return fb::CreateField(fbb, name, field.nullable(), type_offset.type, type_offset.offset,
                         dictionary, children_offset, metadata);
}

// --- Reading ----------------------------------------------------------------

Result<TimeUnit> FromFlatbuffer(fb::TimeUnit unit) {
  switch (unit) {
    case fb::TimeUnit::SECOND: return TimeUnit::kSecond;
    case fb::TimeUnit::MILLISECOND: return TimeUnit::kMilli;
    case fb::TimeUnit::MICROSECOND: return TimeUnit::kMicro;
    case fb::TimeUnit::NANOSECOND: return TimeUnit::kNano;
  }
  return Status::Invalid("unknown time unit ", static_cast<int>(unit));
}

Result<TypePtr> IntFromFlatbuffer(const fb::Int* int_type) {
  if (int_type == nullptr) return Status::Invalid("Int type without its table");
  const bool is_signed = int_type->is_signed();
  switch (int_type->bitWidth()) {
    case 8: return is_signed ? int8() : uint8();
    case 16: return is_signed ? int16() : uint16();
    case 32: return is_signed ? int32() : uint32();
    case 64: return is_signed ? int64() : uint64();
    default:
      return Status::Invalid("integer bit width must be 8, 16, 32 or 64, got ",
                             int_type->bitWidth());
  }
}

Status ExpectChildren(const char* type_name, const FieldVector& children, size_t expected) {
  if (children.size() != expected) {
    return Status::Invalid(type_name, " type must have ", expected, " child field",
                           expected == 1 ? "" : "s", ", got ", children.size());
  }
  return Status::OK();
}

// Fetches the union member table, failing cleanly when it is absent (the
// verifier accepts a union tag without its table).
template <typename T>
Result<const T*> Member(const T* table, const char* type_name) {
  if (table == nullptr) return Status::Invalid(type_name, " type without its parameters table");
  return table;
}

// The (value) type of a field, given its already decoded children.
Result<TypePtr> TypeFromFlatbuffer(const fb::Field& field, const FieldVector& children) {
  const fb::Type kind = field.type_type();
  const bool leaf = kind != fb::Type::List && kind != fb::Type::LargeList &&
                    kind != fb::Type::FixedSizeList && kind != fb::Type::Struct_ &&
                    kind != fb::Type::Map && kind != fb::Type::Union &&
                    kind != fb::Type::RunEndEncoded && kind != fb::Type::ListView &&
                    kind != fb::Type::LargeListView;
  if (leaf && !children.empty()) {
    return Status::Invalid(fb::EnumNameType(kind), " type cannot have child fields (got ",
                           children.size(), ")");
  }
  switch (kind) {
    case fb::Type::NONE:
      return Status::Invalid("field without a type");
    case fb::Type::Null: return null();
    case fb::Type::Bool: return boolean();
    case fb::Type::Int: return IntFromFlatbuffer(field.type_as_Int());
    case fb::Type::FloatingPoint: {
      QUIVER_ASSIGN_OR_RAISE(auto fp, Member(field.type_as_FloatingPoint(), "FloatingPoint"));
      switch (fp->precision()) {
        case fb::Precision::HALF: return float16();
        case fb::Precision::SINGLE: return float32();
        case fb::Precision::DOUBLE: return float64();
      }
      return Status::Invalid("unknown floating point precision ",
                             static_cast<int>(fp->precision()));
    }
    case fb::Type::Utf8: return utf8();
    case fb::Type::Binary: return binary();
    case fb::Type::LargeUtf8: return large_utf8();
    case fb::Type::LargeBinary: return large_binary();
    case fb::Type::Utf8View: return utf8_view();
    case fb::Type::BinaryView: return binary_view();
    case fb::Type::FixedSizeBinary: {
      QUIVER_ASSIGN_OR_RAISE(auto fsb,
                             Member(field.type_as_FixedSizeBinary(), "FixedSizeBinary"));
      if (fsb->byteWidth() < 0) {
        return Status::Invalid("negative fixed_size_binary width ", fsb->byteWidth());
      }
      return fixed_size_binary(fsb->byteWidth());
    }
    case fb::Type::Decimal: {
      QUIVER_ASSIGN_OR_RAISE(auto dec, Member(field.type_as_Decimal(), "Decimal"));
      Type id;
      switch (dec->bitWidth()) {
        case 32: id = Type::kDecimal32; break;
        case 64: id = Type::kDecimal64; break;
        case 128: id = Type::kDecimal128; break;
        case 256: id = Type::kDecimal256; break;
        default:
          return Status::Invalid("decimal bit width must be 32, 64, 128 or 256, got ",
                                 dec->bitWidth());
      }
      return DecimalTypeSafe(id, dec->precision(), dec->scale());
    }
    case fb::Type::Date: {
      QUIVER_ASSIGN_OR_RAISE(auto date, Member(field.type_as_Date(), "Date"));
      switch (date->unit()) {
        case fb::DateUnit::DAY: return date32();
        case fb::DateUnit::MILLISECOND: return date64();
      }
      return Status::Invalid("unknown date unit ", static_cast<int>(date->unit()));
    }
    case fb::Type::Time: {
      QUIVER_ASSIGN_OR_RAISE(auto time, Member(field.type_as_Time(), "Time"));
      QUIVER_ASSIGN_OR_RAISE(TimeUnit unit, FromFlatbuffer(time->unit()));
      const bool is32 = unit == TimeUnit::kSecond || unit == TimeUnit::kMilli;
      if (time->bitWidth() != (is32 ? 32 : 64)) {
        return Status::Invalid("time type with unit ", TimeUnitName(unit), " must be ",
                               is32 ? 32 : 64, " bits wide, got ", time->bitWidth());
      }
      return TypePtr(std::make_shared<TemporalType>(is32 ? Type::kTime32 : Type::kTime64, unit));
    }
    case fb::Type::Timestamp: {
      QUIVER_ASSIGN_OR_RAISE(auto ts, Member(field.type_as_Timestamp(), "Timestamp"));
      QUIVER_ASSIGN_OR_RAISE(TimeUnit unit, FromFlatbuffer(ts->unit()));
      return timestamp(unit, ts->timezone() ? ts->timezone()->str() : std::string());
    }
    case fb::Type::Duration: {
      QUIVER_ASSIGN_OR_RAISE(auto d, Member(field.type_as_Duration(), "Duration"));
      QUIVER_ASSIGN_OR_RAISE(TimeUnit unit, FromFlatbuffer(d->unit()));
      return duration(unit);
    }
    case fb::Type::Interval: {
      QUIVER_ASSIGN_OR_RAISE(auto iv, Member(field.type_as_Interval(), "Interval"));
      switch (iv->unit()) {
        case fb::IntervalUnit::YEAR_MONTH: return month_interval();
        case fb::IntervalUnit::DAY_TIME: return day_time_interval();
        case fb::IntervalUnit::MONTH_DAY_NANO: return month_day_nano_interval();
      }
      return Status::Invalid("unknown interval unit ", static_cast<int>(iv->unit()));
    }
    case fb::Type::List:
      QUIVER_RETURN_NOT_OK(ExpectChildren("list", children, 1));
      return list(children[0]);
    case fb::Type::LargeList:
      QUIVER_RETURN_NOT_OK(ExpectChildren("large_list", children, 1));
      return large_list(children[0]);
    case fb::Type::FixedSizeList: {
      QUIVER_ASSIGN_OR_RAISE(auto fsl, Member(field.type_as_FixedSizeList(), "FixedSizeList"));
      QUIVER_RETURN_NOT_OK(ExpectChildren("fixed_size_list", children, 1));
      if (fsl->listSize() < 0) {
        return Status::Invalid("negative fixed_size_list size ", fsl->listSize());
      }
      return fixed_size_list(children[0], fsl->listSize());
    }
    case fb::Type::Struct_:
      return struct_(children);
    case fb::Type::Map: {
      QUIVER_ASSIGN_OR_RAISE(auto map_type, Member(field.type_as_Map(), "Map"));
      QUIVER_RETURN_NOT_OK(ExpectChildren("map", children, 1));
      const Field& entries = *children[0];
      if (entries.type()->id() != Type::kStruct || entries.type()->num_fields() != 2) {
        return Status::Invalid("map entries must be a struct of two fields, got ",
                               entries.type()->ToString());
      }
      return TypePtr(std::make_shared<MapType>(entries.type()->field(0),
                                               entries.type()->field(1),
                                               map_type->keysSorted(), entries.name()));
    }
    case fb::Type::Union:
    case fb::Type::RunEndEncoded:
    case fb::Type::ListView:
    case fb::Type::LargeListView:
      return Status::NotImplemented("IPC: Arrow type ", fb::EnumNameType(kind),
                                    " is not supported by Quiver");
  }
  return Status::Invalid("unknown type code ", static_cast<int>(kind));
}

Result<FieldPtr> FieldFromFlatbuffer(const fb::Field* field, FieldPath* path, int depth,
                                     int max_nesting, DictionaryMemo* memo,
                                     bool unsupported_as_null) {
  if (field == nullptr) return Status::Invalid("null field");
  if (depth > max_nesting) {
    return Status::Invalid("schema nests deeper than the limit of ", max_nesting, " levels");
  }
  std::string name = field->name() ? field->name()->str() : std::string();
  auto decode = [&]() -> Result<FieldPtr> {
    FieldVector children;
    if (const auto* kids = field->children()) {
      children.reserve(kids->size());
      for (flatbuffers::uoffset_t i = 0; i < kids->size(); ++i) {
        path->push_back(static_cast<int>(i));
        QUIVER_ASSIGN_OR_RAISE(auto child,
                               FieldFromFlatbuffer(kids->Get(i), path, depth + 1, max_nesting,
                                                   memo, unsupported_as_null));
        path->pop_back();
        children.push_back(std::move(child));
      }
    }
    auto decoded = TypeFromFlatbuffer(*field, children);
    if (!decoded.ok() && decoded.status().IsNotImplemented() && unsupported_as_null &&
        field->dictionary() == nullptr) {
      return quiver::field(name, null(), field->nullable(),
                           key_value_metadata({{"quiver:unsupported_type",
                                                fb::EnumNameType(field->type_type())}}));
    }
    QUIVER_ASSIGN_OR_RAISE(TypePtr type, std::move(decoded));
    if (const fb::DictionaryEncoding* encoding = field->dictionary()) {
      TypePtr index_type = int32();
      if (encoding->indexType() != nullptr) {
        QUIVER_ASSIGN_OR_RAISE(index_type, IntFromFlatbuffer(encoding->indexType()));
      }
      if (encoding->dictionaryKind() != fb::DictionaryKind::DenseArray) {
        return Status::NotImplemented("IPC: dictionary kind ",
                                      static_cast<int>(encoding->dictionaryKind()));
      }
      type = std::make_shared<DictionaryType>(std::move(index_type), std::move(type),
                                              encoding->isOrdered());
      if (memo != nullptr) QUIVER_RETURN_NOT_OK(memo->AddField(encoding->id(), *path, type));
    }
    return quiver::field(name, std::move(type), field->nullable(),
                         MetadataFromFlatbuffer(field->custom_metadata()));
  };
  auto result = decode();
  if (!result.ok()) return result.status().WithContext("field '", name, "': ");
  return result;
}

int VerifierDepth(int max_nesting) {
  // Message -> Schema -> Field (-> Field ...) plus a type table and the
  // dictionary encoding's Int: a few tables more than the field nesting.
  return 2 * max_nesting + 16;
}

}  // namespace

// --- Verification -------------------------------------------------------------

Result<const fb::Message*> VerifyMessage(const uint8_t* data, int64_t size, int max_nesting) {
  if (size < 8 || size > kMaxFlatbufferSize) {
    return Status::Invalid("IPC message metadata of ", size, " bytes is not a valid flatbuffer");
  }
  flatbuffers::Verifier::Options options;
  options.max_depth = static_cast<flatbuffers::uoffset_t>(VerifierDepth(max_nesting));
  flatbuffers::Verifier verifier(data, static_cast<size_t>(size), options);
  if (!fb::VerifyMessageBuffer(verifier)) {
    return Status::Invalid("IPC message metadata (", size,
                           " bytes) failed flatbuffer verification");
  }
  return fb::GetMessage(data);
}

Result<const fb::Footer*> VerifyFooter(const uint8_t* data, int64_t size, int max_nesting) {
  if (size < 8 || size > kMaxFlatbufferSize) {
    return Status::Invalid("IPC file footer of ", size, " bytes is not a valid flatbuffer");
  }
  flatbuffers::Verifier::Options options;
  options.max_depth = static_cast<flatbuffers::uoffset_t>(VerifierDepth(max_nesting));
  flatbuffers::Verifier verifier(data, static_cast<size_t>(size), options);
  if (!fb::VerifyFooterBuffer(verifier)) {
    return Status::Invalid("IPC file footer (", size, " bytes) failed flatbuffer verification");
  }
  return fb::GetFooter(data);
}

Result<std::shared_ptr<Buffer>> EnsureAligned(const std::shared_ptr<Buffer>& buffer,
                                              int64_t alignment, MemoryPool* pool) {
  if (reinterpret_cast<uintptr_t>(buffer->data()) % static_cast<uintptr_t>(alignment) == 0) {
    return buffer;
  }
  return Buffer::Copy(buffer->data(), buffer->size(), pool);
}

// --- Schema ---------------------------------------------------------------------

Result<Offset<fb::Schema>> SchemaToFlatbuffer(FlatBufferBuilder& fbb, const Schema& schema,
                                              const DictionaryFieldMapper& mapper) {
  std::vector<Offset<fb::Field>> fields;
  fields.reserve(schema.fields().size());
  FieldPath path;
  for (int i = 0; i < schema.num_fields(); ++i) {
    path.assign(1, i);
    auto field = FieldToFlatbuffer(fbb, *schema.field(i), &path, mapper);
    if (!field.ok()) {
      return field.status().WithContext("field '", schema.field(i)->name(), "': ");
    }
    fields.push_back(*field);
  }
  auto fields_offset = fbb.CreateVector(fields);
  auto metadata = MetadataToFlatbuffer(fbb, schema.metadata());
  return fb::CreateSchema(fbb, fb::Endianness::Little, fields_offset, metadata);
}

Result<SchemaPtr> SchemaFromFlatbuffer(const fb::Schema* schema, int max_nesting,
                                       DictionaryMemo* memo, bool unsupported_as_null) {
  if (schema == nullptr) return Status::Invalid("IPC schema message without a schema");
  FieldVector fields;
  if (const auto* fb_fields = schema->fields()) {
    fields.reserve(fb_fields->size());
    FieldPath path;
    for (flatbuffers::uoffset_t i = 0; i < fb_fields->size(); ++i) {
      path.assign(1, static_cast<int>(i));
      QUIVER_ASSIGN_OR_RAISE(auto field,
                             FieldFromFlatbuffer(fb_fields->Get(i), &path, 1, max_nesting, memo,
                                                 unsupported_as_null));
      fields.push_back(std::move(field));
    }
  }
  return quiver::schema(std::move(fields), MetadataFromFlatbuffer(schema->custom_metadata()));
}

MetadataPtr MetadataFromFlatbuffer(
    const flatbuffers::Vector<Offset<fb::KeyValue>>* pairs) {
  if (pairs == nullptr || pairs->size() == 0) return nullptr;
  std::vector<std::string> keys;
  std::vector<std::string> values;
  keys.reserve(pairs->size());
  values.reserve(pairs->size());
  for (const fb::KeyValue* kv : *pairs) {
    keys.push_back(kv != nullptr && kv->key() ? kv->key()->str() : std::string());
    values.push_back(kv != nullptr && kv->value() ? kv->value()->str() : std::string());
  }
  return std::make_shared<KeyValueMetadata>(std::move(keys), std::move(values));
}

Offset<flatbuffers::Vector<Offset<fb::KeyValue>>> MetadataToFlatbuffer(
    FlatBufferBuilder& fbb, const MetadataPtr& metadata) {
  if (metadata == nullptr || metadata->size() == 0) return 0;
  std::vector<Offset<fb::KeyValue>> pairs;
  pairs.reserve(static_cast<size_t>(metadata->size()));
  for (int64_t i = 0; i < metadata->size(); ++i) {
    auto key = fbb.CreateString(metadata->key(i));
    auto value = fbb.CreateString(metadata->value(i));
    pairs.push_back(fb::CreateKeyValue(fbb, key, value));
  }
  return fbb.CreateVector(pairs);
}

// --- Messages -------------------------------------------------------------------

Result<std::shared_ptr<Buffer>> FinishMessage(FlatBufferBuilder& fbb,
                                              fb::MessageHeader header_type,
                                              Offset<void> header, int64_t body_length,
                                              int32_t alignment, MemoryPool* pool) {
  auto message =
      fb::CreateMessage(fbb, fb::MetadataVersion::V5, header_type, header, body_length);
  fbb.Finish(message);
  const int64_t flatbuffer_size = fbb.GetSize();
  const int64_t total = bit_util::RoundUp(8 + flatbuffer_size, alignment);
  const int64_t metadata_length = total - 8;
  if (metadata_length > std::numeric_limits<int32_t>::max()) {
    return Status::CapacityError("IPC message metadata of ", metadata_length,
                                 " bytes exceeds the format's 2 GiB limit");
  }
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer out, MutableBuffer::WithCapacity(total, pool));
  out.UnsafeAppend(bit_util::ToLittleEndian(kContinuation));
  out.UnsafeAppend(bit_util::ToLittleEndian(static_cast<int32_t>(metadata_length)));
  out.UnsafeExtendFromSlice(fbb.GetBufferPointer(), flatbuffer_size);
  QUIVER_RETURN_NOT_OK(out.AppendRepeated(0, total - out.size()));
  return out.Freeze();
}

Result<std::shared_ptr<Buffer>> MakeSchemaMessage(const Schema& schema,
                                                  const DictionaryFieldMapper& mapper,
                                                  int32_t alignment, MemoryPool* pool) {
  FlatBufferBuilder fbb;
  QUIVER_ASSIGN_OR_RAISE(auto schema_offset, SchemaToFlatbuffer(fbb, schema, mapper));
  return FinishMessage(fbb, fb::MessageHeader::Schema, schema_offset.Union(), 0, alignment,
                       pool);
}

std::string_view MessageHeaderName(fb::MessageHeader type) {
  switch (type) {
    case fb::MessageHeader::NONE: return "none";
    case fb::MessageHeader::Schema: return "Schema";
    case fb::MessageHeader::DictionaryBatch: return "DictionaryBatch";
    case fb::MessageHeader::RecordBatch: return "RecordBatch";
    case fb::MessageHeader::Tensor: return "Tensor";
    case fb::MessageHeader::SparseTensor: return "SparseTensor";
  }
  return "unknown";
}

}  // namespace quiver::ipc::internal
