// The Thrift compact protocol, the encoding of all Parquet metadata (footer,
// page headers, page index, Bloom filter headers). Spec: apache/thrift
// doc/specs/thrift-compact-protocol.md. Only what Parquet needs: structs,
// fields and lists (and maps/sets/uuids, which are only ever skipped); no
// messages, no services.
//
// Wire format in short:
//   field header  one byte ddddtttt (d = id delta 1..15 from the previous
//                 field of the same struct, t = type), or 0000tttt followed
//                 by the id as a zigzag varint; 0x00 ends the struct.
//   bool field    no value: the type nibble is 1 (true) or 2 (false).
//   i8            one byte.   i16/i32/i64: zigzag varint (LEB128).
//   double        8 bytes little-endian.   binary/string: varint length.
//   list/set      ssssTTTT (size 0..14), or 1111TTTT + varint size.
//   map           varint size, then KKKKVVVV if size > 0.
//
// CompactReader decodes UNTRUSTED bytes, so it never trusts a length:
// every read is bounds-checked, varints are at most 10 bytes, a list or map
// size must fit in the bytes that remain (each element takes at least one
// byte) before anything is reserved, strings and containers obey
// ThriftLimits (same defaults as Arrow C++'s thrift_string_size_limit and
// thrift_container_size_limit), and nesting (structs, lists, maps, also while
// skipping unknown fields) is limited to ThriftLimits::max_depth. Errors are
// Status::Invalid("thrift: <what> at byte <offset>").
//
// Error protocol: the per-value primitives return `bool` (false = failed)
// and keep the first error as a Status in the reader/writer (status()).
// A footer has a million of these calls; returning a Status from each
// costs little in release builds but dominates Debug + ASan builds, which
// run all the tests. Everything above this layer (the generated Read/Write,
// DeserializeThrift, SerializeThrift) returns Status / Result as usual.
// After a failure the reader or writer must not be used again.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/thrift/thrift_limits.h"
#include "quiver/util/result.h"
#include "quiver/util/status.h"
#include "quiver/util/varint.h"

namespace quiver::parquet::thrift {

// Type codes of the compact protocol (4 bits on the wire).
enum class CompactType : uint8_t {
  kStop = 0,
  kBooleanTrue = 1,
  kBooleanFalse = 2,
  kI8 = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
  kUuid = 13,
};

// The element-type code of bool inside lists, sets and maps. The spec says
// 2; Apache Thrift's C++ and Java libraries write 1. The reader accepts both
// (and reports kListBool); the writer writes 2, as parquet-rs does.
inline constexpr CompactType kListBool = CompactType::kBooleanFalse;

inline constexpr bool IsBool(CompactType type) {
  return type == CompactType::kBooleanTrue || type == CompactType::kBooleanFalse;
}

// "i32", "struct", ... for error messages.
std::string_view CompactTypeName(CompactType type);

class CompactWriter {
 public:
  // Appends to `out` (not cleared first).
  explicit CompactWriter(MutableBuffer* out) : buffer_(out) {}
  explicit CompactWriter(std::string* out) : string_(out) {}

  CompactWriter(const CompactWriter&) = delete;
  CompactWriter& operator=(const CompactWriter&) = delete;

  // OK, or the first error (out of memory, a size beyond Thrift's i32
  // range, misuse).
  const Status& status() const { return status_; }
  // Records `error` (if none is recorded yet) and returns false.
  bool Fail(Status error);

  // Struct framing: Begin saves the enclosing struct's last field id, End
  // writes the stop byte and restores it.
  [[nodiscard]] bool WriteStructBegin();
  [[nodiscard]] bool WriteStructEnd();

  // Field header of a non-bool field; ids are delta-encoded when the
  // difference to the previous field of this struct is 1..15.
  [[nodiscard]] bool WriteFieldBegin(CompactType type, int16_t id);
  // A whole bool field: the value travels in the header's type nibble.
  [[nodiscard]] bool WriteBoolField(int16_t id, bool value) {
    return WriteFieldBegin(value ? CompactType::kBooleanTrue : CompactType::kBooleanFalse, id);
  }

  // List (or set) header; `size` must be 0..INT32_MAX.
  [[nodiscard]] bool WriteListBegin(CompactType element_type, int64_t size);
  // Map header. Parquet has no maps; this exists so that tests can produce
  // them for the reader's Skip().
  [[nodiscard]] bool WriteMapBegin(CompactType key_type, CompactType value_type, int64_t size);

  // Values. WriteBool is for list/map elements (1 = true, 2 = false, as the
  // Apache Thrift libraries and parquet-rs write them).
  [[nodiscard]] bool WriteBool(bool value) { return WriteByte(value ? 1 : 2); }
  [[nodiscard]] bool WriteI8(int8_t value) { return WriteByte(static_cast<uint8_t>(value)); }
  [[nodiscard]] bool WriteI16(int16_t value) { return WriteVarint(ZigZagEncode(value)); }
  [[nodiscard]] bool WriteI32(int32_t value) { return WriteVarint(ZigZagEncode(value)); }
  [[nodiscard]] bool WriteI64(int64_t value) { return WriteVarint(ZigZagEncode(value)); }
  [[nodiscard]] bool WriteDouble(double value);
  [[nodiscard]] bool WriteBinary(std::string_view value) {
    return WriteBinary(reinterpret_cast<const uint8_t*>(value.data()),
                       static_cast<int64_t>(value.size()));
  }
  [[nodiscard]] bool WriteBinary(const uint8_t* data, int64_t size);

  // Raw pieces, also for tests that need hand-made (even invalid) messages.
  [[nodiscard]] bool WriteVarint(uint64_t value) {
    if (buffer_ != nullptr &&
        QUIVER_PREDICT_TRUE(buffer_->capacity() - buffer_->size() >= kMaxUleb128Bytes)) {
      // Straight into the buffer: no copy of a variable number of bytes.
      const int n = PutUleb128(value, buffer_->data() + buffer_->size());
      buffer_->UnsafeSetSize(buffer_->size() + n);
      bytes_written_ += n;
      return true;
    }
    uint8_t bytes[kMaxUleb128Bytes];
    return Append(bytes, PutUleb128(value, bytes));
  }
  [[nodiscard]] bool WriteByte(uint8_t byte) { return Append(&byte, 1); }
  [[nodiscard]] bool WriteRaw(const uint8_t* bytes, int64_t size) { return Append(bytes, size); }

  // Bytes appended by this writer so far.
  int64_t bytes_written() const { return bytes_written_; }

 private:
  bool Append(const uint8_t* bytes, int64_t size) {
    if (buffer_ != nullptr) {
      const int64_t used = buffer_->size();
      if (QUIVER_PREDICT_FALSE(buffer_->capacity() - used < size)) return AppendSlow(bytes, size);
      if (size > 0) std::memcpy(buffer_->data() + used, bytes, static_cast<size_t>(size));
      buffer_->UnsafeSetSize(used + size);
    } else {
      string_->append(reinterpret_cast<const char*>(bytes), static_cast<size_t>(size));
    }
    bytes_written_ += size;
    return true;
  }
  bool AppendSlow(const uint8_t* bytes, int64_t size);

  MutableBuffer* buffer_ = nullptr;
  std::string* string_ = nullptr;
  int64_t bytes_written_ = 0;
  int16_t last_field_id_ = 0;
  std::vector<int16_t> field_id_stack_;
  Status status_;
};

class CompactReader {
 public:
  // Reads from data[0, size). The bytes must outlive the reader.
  CompactReader(const uint8_t* data, int64_t size, const ThriftLimits& limits = {});

  CompactReader(const CompactReader&) = delete;
  CompactReader& operator=(const CompactReader&) = delete;

  // Offset of the next unread byte, and bytes left.
  int64_t position() const { return pos_; }
  int64_t remaining() const { return size_ - pos_; }
  const ThriftLimits& limits() const { return limits_; }

  // OK, or the first error.
  const Status& status() const { return status_; }
  // Records `error` (if none is recorded yet) and returns false.
  bool Fail(Status error);
  // Fail(Invalid("thrift: <what> at byte <position>")).
  bool Fail(std::string_view what);
  // Fail(Invalid("thrift: required field <struct>.<field> is missing ...")).
  bool MissingField(std::string_view struct_name, std::string_view field_name);

  [[nodiscard]] bool ReadStructBegin();
  [[nodiscard]] bool ReadStructEnd();
  // Next field header: on the stop byte, *type is kStop and *id is 0. For a
  // bool field *type carries the value (kBooleanTrue / kBooleanFalse).
  [[nodiscard]] bool ReadFieldBegin(CompactType* type, int16_t* id);

  // List or set header. *element_type is never kStop for a non-empty list;
  // bools are reported as kListBool. The size is checked against the
  // container limit and against the bytes that remain.
  [[nodiscard]] bool ReadListBegin(CompactType* element_type, int32_t* size);
  // As above, and the element type must be `expected` (an empty list may
  // carry any element type: some writers put 0 there).
  [[nodiscard]] bool ReadListBeginOf(CompactType expected, int32_t* size);
  // Map header (size 0 reports kStop for both types).
  [[nodiscard]] bool ReadMapBegin(CompactType* key_type, CompactType* value_type,
                                  int32_t* size);

  // Values. ReadBool is for list/map elements; accepts 1 (true), 0 and 2
  // (false: the old and the current spelling).
  [[nodiscard]] bool ReadBool(bool* out);
  [[nodiscard]] bool ReadI8(int8_t* out);
  [[nodiscard]] bool ReadI16(int16_t* out);
  [[nodiscard]] bool ReadI32(int32_t* out);
  [[nodiscard]] bool ReadI64(int64_t* out) {
    uint64_t raw;
    if (!ReadVarint(&raw)) return false;
    *out = ZigZagDecode(raw);
    return true;
  }
  [[nodiscard]] bool ReadDouble(double* out);
  // Copies the bytes into *out (replacing its contents).
  [[nodiscard]] bool ReadBinary(std::string* out) {
    std::string_view view;
    if (!ReadBinaryView(&view)) return false;
    out->assign(view.data(), view.size());
    return true;
  }
  // A view into the input, without copying.
  [[nodiscard]] bool ReadBinaryView(std::string_view* out);
  // One-byte varints (most field values, lengths and sizes) are decoded
  // inline; longer ones by DecodeUleb128 (util/varint.h).
  [[nodiscard]] bool ReadVarint(uint64_t* out) {
    if (QUIVER_PREDICT_TRUE(pos_ < size_ && data_[pos_] < 0x80)) {
      *out = data_[pos_++];
      return true;
    }
    return ReadVarintSlow(out);
  }

  // Skips a field value of the given type (as reported by ReadFieldBegin):
  // structs, lists, sets and maps recursively, within max_depth.
  [[nodiscard]] bool Skip(CompactType type) { return SkipValue(type, /*in_container=*/false); }

  // Reserves room for a list of `size` elements that ReadListBegin accepted
  // (so size <= remaining bytes). The reservation is also held to
  // max(64 KiB, 8 x the remaining input bytes), so that a list header alone
  // never makes the reader allocate much more than the input could fill;
  // the vector still grows as elements actually arrive.
  template <typename T>
  void ReserveList(std::vector<T>* out, int32_t size) const {
    const int64_t budget_bytes = std::max<int64_t>(int64_t{64} << 10, 8 * remaining());
    const int64_t budget = std::max<int64_t>(1, budget_bytes / static_cast<int64_t>(sizeof(T)));
    out->reserve(static_cast<size_t>(size < budget ? size : budget));
  }

 private:
  bool ReadVarintSlow(uint64_t* out);
  bool ReadSize(std::string_view what, int32_t* size);
  bool CheckContainerSize(std::string_view what, int32_t size);
  bool CheckElementType(uint8_t code, CompactType* type);
  bool SkipValue(CompactType type, bool in_container);
  bool EnterNesting();
  void LeaveNesting() { --depth_; }

  const uint8_t* data_;
  int64_t size_;
  int64_t pos_ = 0;
  ThriftLimits limits_;
  // Nesting level (structs, lists, maps); at most limits_.max_depth.
  int32_t depth_ = 0;
  int16_t last_field_id_ = 0;
  // The enclosing structs' last field ids, indexed by depth_.
  int16_t field_id_stack_[ThriftLimits::kMaxDepthHardLimit + 1];
  Status status_;
};

// Reads one T (a generated Parquet struct) from data[0, size). The bytes
// need not be fully used (a page header is followed by its page): *consumed
// receives the number of bytes read.
template <typename T>
Result<T> DeserializeThrift(const uint8_t* data, int64_t size, int64_t* consumed = nullptr,
                            const ThriftLimits& limits = {}) {
  if (size < 0) return Status::Invalid("thrift: negative input size ", size);
  CompactReader reader(data, size, limits);
  T value;
  QUIVER_RETURN_NOT_OK(value.Read(&reader));
  if (consumed != nullptr) *consumed = reader.position();
  return value;
}

// Appends the encoding of `value` to *out.
template <typename T>
Status SerializeThrift(const T& value, MutableBuffer* out) {
  CompactWriter writer(out);
  return value.Write(&writer);
}
template <typename T>
Status SerializeThrift(const T& value, std::string* out) {
  CompactWriter writer(out);
  return value.Write(&writer);
}

}  // namespace quiver::parquet::thrift
