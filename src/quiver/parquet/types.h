// Parquet's enumerations as the public headers name them, without the
// generated Thrift types (thrift/parquet_types.h is an implementation
// detail). The values are parquet.thrift's, so a stored value converts with
// a static_cast; thrift/public_enums_check.cc asserts they agree.
#pragma once

#include <cstdint>
#include <string_view>

namespace quiver::parquet {

enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

enum class ConvertedType : int32_t {
  kUtf8 = 0,
  kMap = 1,
  kMapKeyValue = 2,
  kList = 3,
  kEnum = 4,
  kDecimal = 5,
  kDate = 6,
  kTimeMillis = 7,
  kTimeMicros = 8,
  kTimestampMillis = 9,
  kTimestampMicros = 10,
  kUint8 = 11,
  kUint16 = 12,
  kUint32 = 13,
  kUint64 = 14,
  kInt8 = 15,
  kInt16 = 16,
  kInt32 = 17,
  kInt64 = 18,
  kJson = 19,
  kBson = 20,
  kInterval = 21,
};

enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

enum class Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};

enum class CompressionCodec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,  // Hadoop-framed LZ4 (deprecated)
  kZstd = 6,
  kLz4Raw = 7,
};

enum class PageType : int32_t { kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3 };

enum class BoundaryOrder : int32_t { kUnordered = 0, kAscending = 1, kDescending = 2 };

// The order in which a column's statistics are computed (Arrow C++
// parquet/types.h SortOrder; parquet-format LogicalTypes.md "Sort order").
enum class SortOrder : int8_t { kSigned, kUnsigned, kUnknown };

// parquet.thrift's names ("INT32", "FIXED_LEN_BYTE_ARRAY"); "" for a value
// it does not name.
constexpr std::string_view PhysicalTypeName(PhysicalType t) {
  switch (t) {
    case PhysicalType::kBoolean: return "BOOLEAN";
    case PhysicalType::kInt32: return "INT32";
    case PhysicalType::kInt64: return "INT64";
    case PhysicalType::kInt96: return "INT96";
    case PhysicalType::kFloat: return "FLOAT";
    case PhysicalType::kDouble: return "DOUBLE";
    case PhysicalType::kByteArray: return "BYTE_ARRAY";
    case PhysicalType::kFixedLenByteArray: return "FIXED_LEN_BYTE_ARRAY";
  }
  return "";
}

constexpr std::string_view SortOrderName(SortOrder s) {
  switch (s) {
    case SortOrder::kSigned: return "SIGNED";
    case SortOrder::kUnsigned: return "UNSIGNED";
    case SortOrder::kUnknown: return "UNKNOWN";
  }
  return "";
}

}  // namespace quiver::parquet
