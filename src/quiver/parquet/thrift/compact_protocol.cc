// Thrift compact protocol reader and writer; see compact_protocol_internal.h for the
// wire format, the rules for untrusted input and the error protocol.
#include "quiver/parquet/thrift/compact_protocol_internal.h"

#include <cstring>
#include <limits>

#include "quiver/util/bit_util.h"

namespace quiver::parquet::thrift {

namespace {

// Fewest bytes one element of this type takes on the wire: what a list
// header's size is checked against.
constexpr int64_t MinWireSize(CompactType type) {
  switch (type) {
    case CompactType::kDouble:
      return 8;
    case CompactType::kUuid:
      return 16;
    default:
      return 1;
  }
}

bool IsValidElementType(CompactType type) {
  return type != CompactType::kStop && static_cast<uint8_t>(type) <= 13;
}

}  // namespace

std::string_view CompactTypeName(CompactType type) {
  switch (type) {
    case CompactType::kStop:
      return "stop";
    case CompactType::kBooleanTrue:
    case CompactType::kBooleanFalse:
      return "bool";
    case CompactType::kI8:
      return "i8";
    case CompactType::kI16:
      return "i16";
    case CompactType::kI32:
      return "i32";
    case CompactType::kI64:
      return "i64";
    case CompactType::kDouble:
      return "double";
    case CompactType::kBinary:
      return "binary";
    case CompactType::kList:
      return "list";
    case CompactType::kSet:
      return "set";
    case CompactType::kMap:
      return "map";
    case CompactType::kStruct:
      return "struct";
    case CompactType::kUuid:
      return "uuid";
  }
  return "invalid";
}

// ---------------------------------------------------------------- writer

bool CompactWriter::Fail(Status error) {
  if (status_.ok()) status_ = std::move(error);
  return false;
}

bool CompactWriter::AppendSlow(const uint8_t* bytes, int64_t size) {
  Status st = buffer_->ExtendFromSlice(bytes, size);
  if (!st.ok()) return Fail(std::move(st));
  bytes_written_ += size;
  return true;
}

bool CompactWriter::WriteStructBegin() {
  field_id_stack_.push_back(last_field_id_);
  last_field_id_ = 0;
  return true;
}

bool CompactWriter::WriteStructEnd() {
  if (field_id_stack_.empty()) {
    return Fail(Status::Invalid("thrift: WriteStructEnd without WriteStructBegin"));
  }
  last_field_id_ = field_id_stack_.back();
  field_id_stack_.pop_back();
  return WriteByte(0);
}

bool CompactWriter::WriteFieldBegin(CompactType type, int16_t id) {
  if (QUIVER_PREDICT_FALSE(type == CompactType::kStop || static_cast<uint8_t>(type) > 13)) {
    return Fail(
        Status::Invalid("thrift: cannot write a field of type ", static_cast<int>(type)));
  }
  const int32_t delta = static_cast<int32_t>(id) - last_field_id_;
  last_field_id_ = id;
  if (delta > 0 && delta <= 15) {
    return WriteByte(static_cast<uint8_t>((delta << 4) | static_cast<uint8_t>(type)));
  }
  return WriteByte(static_cast<uint8_t>(type)) && WriteVarint(ZigZagEncode(id));
}

bool CompactWriter::WriteListBegin(CompactType element_type, int64_t size) {
  if (QUIVER_PREDICT_FALSE(size < 0 || size > std::numeric_limits<int32_t>::max())) {
    return Fail(Status::Invalid("thrift: list size ", size, " is out of range"));
  }
  if (QUIVER_PREDICT_FALSE(!IsValidElementType(element_type))) {
    return Fail(Status::Invalid("thrift: invalid list element type ",
                                static_cast<int>(element_type)));
  }
  const uint8_t type = static_cast<uint8_t>(element_type);
  if (size < 15) return WriteByte(static_cast<uint8_t>((size << 4) | type));
  return WriteByte(static_cast<uint8_t>(0xF0 | type)) &&
         WriteVarint(static_cast<uint64_t>(size));
}

bool CompactWriter::WriteMapBegin(CompactType key_type, CompactType value_type, int64_t size) {
  if (size < 0 || size > std::numeric_limits<int32_t>::max()) {
    return Fail(Status::Invalid("thrift: map size ", size, " is out of range"));
  }
  if (!IsValidElementType(key_type) || !IsValidElementType(value_type)) {
    return Fail(Status::Invalid("thrift: invalid map key/value type"));
  }
  if (!WriteVarint(static_cast<uint64_t>(size))) return false;
  if (size == 0) return true;
  return WriteByte(static_cast<uint8_t>((static_cast<uint8_t>(key_type) << 4) |
                                        static_cast<uint8_t>(value_type)));
}

bool CompactWriter::WriteDouble(double value) {
  uint8_t bytes[8];
  bit_util::StoreLittleEndian(bytes, value);
  return Append(bytes, 8);
}

bool CompactWriter::WriteBinary(const uint8_t* data, int64_t size) {
  if (QUIVER_PREDICT_FALSE(size < 0 || size > std::numeric_limits<int32_t>::max())) {
    return Fail(Status::Invalid("thrift: binary of ", size, " bytes is out of range"));
  }
  return WriteVarint(static_cast<uint64_t>(size)) && Append(data, size);
}

// ---------------------------------------------------------------- reader

CompactReader::CompactReader(const uint8_t* data, int64_t size, const ThriftLimits& limits)
    : data_(data), size_(size < 0 ? 0 : size), limits_(limits) {
  if (limits_.max_depth > ThriftLimits::kMaxDepthHardLimit) {
    limits_.max_depth = ThriftLimits::kMaxDepthHardLimit;
  }
}

bool CompactReader::Fail(Status error) {
  if (status_.ok()) status_ = std::move(error);
  return false;
}

bool CompactReader::Fail(std::string_view what) {
  return Fail(Status::Invalid("thrift: ", what, " at byte ", pos_));
}

bool CompactReader::MissingField(std::string_view struct_name, std::string_view field_name) {
  return Fail(Status::Invalid("thrift: required field ", struct_name, ".", field_name,
                              " is missing (struct ends at byte ", pos_, ")"));
}

bool CompactReader::EnterNesting() {
  if (QUIVER_PREDICT_FALSE(++depth_ > limits_.max_depth)) {
    return Fail(Status::Invalid("thrift: nesting deeper than ", limits_.max_depth,
                                " at byte ", pos_));
  }
  return true;
}

bool CompactReader::ReadStructBegin() {
  if (!EnterNesting()) return false;
  field_id_stack_[depth_] = last_field_id_;
  last_field_id_ = 0;
  return true;
}

bool CompactReader::ReadStructEnd() {
  if (QUIVER_PREDICT_FALSE(depth_ <= 0)) return Fail("ReadStructEnd without ReadStructBegin");
  last_field_id_ = field_id_stack_[depth_];
  LeaveNesting();
  return true;
}

bool CompactReader::ReadFieldBegin(CompactType* type, int16_t* id) {
  if (QUIVER_PREDICT_FALSE(pos_ >= size_)) {
    return Fail("unexpected end of input reading a field header");
  }
  const uint8_t byte = data_[pos_];
  const uint8_t code = byte & 0x0F;
  if (code == 0) {
    ++pos_;
    *type = CompactType::kStop;
    *id = 0;
    return true;
  }
  if (QUIVER_PREDICT_FALSE(code > 13)) {
    return Fail(Status::Invalid("thrift: invalid field type ", static_cast<int>(code),
                                " at byte ", pos_));
  }
  ++pos_;
  const int delta = byte >> 4;
  if (delta != 0) {
    const int32_t next = static_cast<int32_t>(last_field_id_) + delta;
    if (QUIVER_PREDICT_FALSE(next > std::numeric_limits<int16_t>::max())) {
      return Fail("field id overflows i16");
    }
    last_field_id_ = static_cast<int16_t>(next);
  } else if (!ReadI16(&last_field_id_)) {
    return false;
  }
  *type = static_cast<CompactType>(code);
  *id = last_field_id_;
  return true;
}

bool CompactReader::CheckElementType(uint8_t code, CompactType* type) {
  if (QUIVER_PREDICT_FALSE(code == 0 || code > 13)) {
    return Fail(Status::Invalid("thrift: invalid element type ", static_cast<int>(code),
                                " at byte ", pos_));
  }
  *type = (code == 1 || code == 2) ? kListBool : static_cast<CompactType>(code);
  return true;
}

bool CompactReader::ReadSize(std::string_view what, int32_t* size) {
  const int64_t start = pos_;
  uint64_t n;
  if (!ReadVarint(&n)) return false;
  if (QUIVER_PREDICT_FALSE(n > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))) {
    return Fail(
        Status::Invalid("thrift: ", what, " size ", n, " is out of range at byte ", start));
  }
  *size = static_cast<int32_t>(n);
  return true;
}

bool CompactReader::CheckContainerSize(std::string_view what, int32_t size) {
  if (QUIVER_PREDICT_FALSE(size > limits_.container_size_limit)) {
    return Fail(Status::Invalid("thrift: ", what, " of ", size,
                                " elements exceeds the limit of ",
                                limits_.container_size_limit, " at byte ", pos_));
  }
  return true;
}

bool CompactReader::ReadListBegin(CompactType* element_type, int32_t* size) {
  if (QUIVER_PREDICT_FALSE(pos_ >= size_)) {
    return Fail("unexpected end of input reading a list header");
  }
  const uint8_t header = data_[pos_++];
  const int short_size = header >> 4;
  if (short_size != 15) {
    *size = short_size;
  } else if (!ReadSize("list", size)) {
    return false;
  }
  const uint8_t code = header & 0x0F;
  if (*size == 0) {
    // Some writers put element type 0 in empty lists.
    *element_type = (code == 0 || code > 13)         ? CompactType::kStop
                    : (code == 1 || code == 2)       ? kListBool
                                                     : static_cast<CompactType>(code);
    return true;
  }
  if (!CheckElementType(code, element_type) || !CheckContainerSize("list", *size)) return false;
  const int64_t min_bytes = static_cast<int64_t>(*size) * MinWireSize(*element_type);
  if (QUIVER_PREDICT_FALSE(min_bytes > remaining())) {
    return Fail(Status::Invalid("thrift: list of ", *size, " ",
                                CompactTypeName(*element_type),
                                " elements cannot fit in the ", remaining(),
                                " remaining bytes at byte ", pos_));
  }
  return true;
}

bool CompactReader::ReadListBeginOf(CompactType expected, int32_t* size) {
  CompactType actual;
  if (!ReadListBegin(&actual, size)) return false;
  if (*size == 0) return true;
  const bool matches = IsBool(expected) ? actual == kListBool : actual == expected;
  if (QUIVER_PREDICT_FALSE(!matches)) {
    return Fail(Status::Invalid("thrift: list of ", CompactTypeName(actual),
                                " where a list of ", CompactTypeName(expected),
                                " was expected at byte ", pos_));
  }
  return true;
}

bool CompactReader::ReadMapBegin(CompactType* key_type, CompactType* value_type,
                                 int32_t* size) {
  if (!ReadSize("map", size)) return false;
  if (*size == 0) {
    *key_type = CompactType::kStop;
    *value_type = CompactType::kStop;
    return true;
  }
  if (QUIVER_PREDICT_FALSE(pos_ >= size_)) {
    return Fail("unexpected end of input reading a map header");
  }
  const uint8_t types = data_[pos_++];
  if (!CheckElementType(types >> 4, key_type) || !CheckElementType(types & 0x0F, value_type) ||
      !CheckContainerSize("map", *size)) {
    return false;
  }
  const int64_t min_bytes =
      static_cast<int64_t>(*size) * (MinWireSize(*key_type) + MinWireSize(*value_type));
  if (QUIVER_PREDICT_FALSE(min_bytes > remaining())) {
    return Fail(Status::Invalid("thrift: map of ", *size, " entries cannot fit in the ",
                                remaining(), " remaining bytes at byte ", pos_));
  }
  return true;
}

bool CompactReader::ReadVarintSlow(uint64_t* out) {
  const int n = DecodeUleb128(data_ + pos_, data_ + size_, out);
  if (QUIVER_PREDICT_TRUE(n > 0)) {
    pos_ += n;
    return true;
  }
  if (n == kUleb128Truncated) {
    pos_ = size_;
    return Fail("unexpected end of input inside a varint");
  }
  // The 10th byte holds only bit 63 and cannot continue.
  pos_ += kMaxUleb128Bytes;
  return Fail("varint overflows 64 bits");
}

bool CompactReader::ReadBool(bool* out) {
  if (QUIVER_PREDICT_FALSE(pos_ >= size_)) return Fail("unexpected end of input reading a bool");
  const uint8_t byte = data_[pos_];
  if (QUIVER_PREDICT_FALSE(byte > 2)) {
    return Fail(Status::Invalid("thrift: invalid bool value ", static_cast<int>(byte),
                                " at byte ", pos_));
  }
  ++pos_;
  *out = byte == 1;
  return true;
}

bool CompactReader::ReadI8(int8_t* out) {
  if (QUIVER_PREDICT_FALSE(pos_ >= size_)) return Fail("unexpected end of input reading an i8");
  *out = static_cast<int8_t>(data_[pos_++]);
  return true;
}

bool CompactReader::ReadI16(int16_t* out) {
  const int64_t start = pos_;
  uint64_t raw;
  if (!ReadVarint(&raw)) return false;
  if (QUIVER_PREDICT_FALSE(raw > 0xFFFF)) {
    return Fail(Status::Invalid("thrift: i16 value out of range at byte ", start));
  }
  *out = static_cast<int16_t>(ZigZagDecode(raw));
  return true;
}

bool CompactReader::ReadI32(int32_t* out) {
  const int64_t start = pos_;
  uint64_t raw;
  if (!ReadVarint(&raw)) return false;
  if (QUIVER_PREDICT_FALSE(raw > 0xFFFFFFFFu)) {
    return Fail(Status::Invalid("thrift: i32 value out of range at byte ", start));
  }
  *out = static_cast<int32_t>(ZigZagDecode(raw));
  return true;
}

bool CompactReader::ReadDouble(double* out) {
  if (QUIVER_PREDICT_FALSE(remaining() < 8)) {
    return Fail("unexpected end of input reading a double");
  }
  *out = bit_util::LoadLittleEndian<double>(data_ + pos_);
  pos_ += 8;
  return true;
}

bool CompactReader::ReadBinaryView(std::string_view* out) {
  const int64_t start = pos_;
  uint64_t length;
  if (!ReadVarint(&length)) return false;
  if (QUIVER_PREDICT_FALSE(length > static_cast<uint64_t>(limits_.string_size_limit))) {
    return Fail(Status::Invalid("thrift: binary of ", length, " bytes exceeds the limit of ",
                                limits_.string_size_limit, " at byte ", start));
  }
  if (QUIVER_PREDICT_FALSE(length > static_cast<uint64_t>(remaining()))) {
    return Fail(Status::Invalid("thrift: binary of ", length,
                                " bytes runs past the end of input (", remaining(),
                                " bytes left) at byte ", start));
  }
  *out = std::string_view(reinterpret_cast<const char*>(data_ + pos_),
                          static_cast<size_t>(length));
  pos_ += static_cast<int64_t>(length);
  return true;
}

bool CompactReader::SkipValue(CompactType type, bool in_container) {
  switch (type) {
    case CompactType::kBooleanTrue:
    case CompactType::kBooleanFalse: {
      // A bool field has no value bytes; a bool element has one.
      if (!in_container) return true;
      bool ignored;
      return ReadBool(&ignored);
    }
    case CompactType::kI8: {
      int8_t ignored;
      return ReadI8(&ignored);
    }
    case CompactType::kI16:
    case CompactType::kI32:
    case CompactType::kI64: {
      uint64_t ignored;
      return ReadVarint(&ignored);
    }
    case CompactType::kDouble:
      if (QUIVER_PREDICT_FALSE(remaining() < 8)) {
        return Fail("unexpected end of input skipping a double");
      }
      pos_ += 8;
      return true;
    case CompactType::kUuid:
      if (QUIVER_PREDICT_FALSE(remaining() < 16)) {
        return Fail("unexpected end of input skipping a uuid");
      }
      pos_ += 16;
      return true;
    case CompactType::kBinary: {
      std::string_view ignored;
      return ReadBinaryView(&ignored);
    }
    case CompactType::kStruct: {
      if (!ReadStructBegin()) return false;
      while (true) {
        CompactType field_type;
        int16_t field_id;
        if (!ReadFieldBegin(&field_type, &field_id)) return false;
        if (field_type == CompactType::kStop) break;
        if (!SkipValue(field_type, /*in_container=*/false)) return false;
      }
      return ReadStructEnd();
    }
    case CompactType::kList:
    case CompactType::kSet: {
      CompactType element_type;
      int32_t size;
      if (!EnterNesting() || !ReadListBegin(&element_type, &size)) return false;
      for (int32_t i = 0; i < size; ++i) {
        if (!SkipValue(element_type, /*in_container=*/true)) return false;
      }
      LeaveNesting();
      return true;
    }
    case CompactType::kMap: {
      CompactType key_type;
      CompactType value_type;
      int32_t size;
      if (!EnterNesting() || !ReadMapBegin(&key_type, &value_type, &size)) return false;
      for (int32_t i = 0; i < size; ++i) {
        if (!SkipValue(key_type, /*in_container=*/true) ||
            !SkipValue(value_type, /*in_container=*/true)) {
          return false;
        }
      }
      LeaveNesting();
      return true;
    }
    case CompactType::kStop:
      break;
  }
  return Fail(Status::Invalid("thrift: cannot skip a value of type ", static_cast<int>(type),
                              " at byte ", pos_));
}

}  // namespace quiver::parquet::thrift
