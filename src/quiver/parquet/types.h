// Parquet's enumerations as the public headers name them, without the
// generated Thrift types (thrift/parquet_types_internal.h is an implementation
// detail). The values are parquet.thrift's, so a stored value converts with
// a static_cast (metadata/statistics.cc and page_index.cc assert that they
// agree; the generated enums keep their own names in parquet::format).
// The compression codec is compression::CompressionCodec (same values).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
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

enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

enum class BoundaryOrder : int32_t { kUnordered = 0, kAscending = 1, kDescending = 2 };

// Value and level encodings (parquet.thrift Encoding; 1 is unused).
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

enum class PageType : int32_t {
  kDataPage = 0,
  kIndexPage = 1,
  kDictionaryPage = 2,
  kDataPageV2 = 3,
};

// The legacy type annotation of a schema element (parquet.thrift
// ConvertedType; LogicalTypes.md "Deprecated ... ConvertedType").
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

// The logical type annotation of a schema element (parquet.thrift
// LogicalType, a union; LogicalTypes.md). `kind` says which member the file
// set (the values are parquet.thrift's field ids); the parameters of that
// member are in the fields below, the others keep their defaults.
struct LogicalType {
  enum class Kind : int16_t {
    kString = 1,
    kMap = 2,
    kList = 3,
    kEnum = 4,
    kDecimal = 5,
    kDate = 6,
    kTime = 7,
    kTimestamp = 8,
    kInteger = 10,
    kUnknown = 11,  // always null
    kJson = 12,
    kBson = 13,
    kUuid = 14,
    kFloat16 = 15,
    kVariant = 16,
    kGeometry = 17,
    kGeography = 18,
    kVector = 19,
  };
  enum class TimeUnit : int8_t { kMillis = 1, kMicros = 2, kNanos = 3 };
  // parquet.thrift EdgeInterpolationAlgorithm.
  enum class EdgeAlgorithm : int32_t {
    kSpherical = 0,
    kVincenty = 1,
    kThomas = 2,
    kAndoyer = 3,
    kKarney = 4,
  };

  Kind kind = Kind::kString;
  // kDecimal.
  int32_t precision = 0;
  int32_t scale = 0;
  // kTime, kTimestamp.
  bool is_adjusted_to_utc = false;
  TimeUnit unit = TimeUnit::kMillis;
  // kInteger.
  int8_t bit_width = 0;
  bool is_signed = false;
  // kVariant.
  std::optional<int8_t> specification_version;
  // kGeometry, kGeography.
  std::optional<std::string> crs;
  // kGeography.
  std::optional<EdgeAlgorithm> algorithm;

  friend bool operator==(const LogicalType&, const LogicalType&) = default;
};

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

constexpr std::string_view EncodingName(Encoding e) {
  switch (e) {
    case Encoding::kPlain: return "PLAIN";
    case Encoding::kPlainDictionary: return "PLAIN_DICTIONARY";
    case Encoding::kRle: return "RLE";
    case Encoding::kBitPacked: return "BIT_PACKED";
    case Encoding::kDeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case Encoding::kDeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::kDeltaByteArray: return "DELTA_BYTE_ARRAY";
    case Encoding::kRleDictionary: return "RLE_DICTIONARY";
    case Encoding::kByteStreamSplit: return "BYTE_STREAM_SPLIT";
  }
  return "";
}

constexpr std::string_view PageTypeName(PageType p) {
  switch (p) {
    case PageType::kDataPage: return "DATA_PAGE";
    case PageType::kIndexPage: return "INDEX_PAGE";
    case PageType::kDictionaryPage: return "DICTIONARY_PAGE";
    case PageType::kDataPageV2: return "DATA_PAGE_V2";
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
