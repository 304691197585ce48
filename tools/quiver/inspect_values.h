// Names and values for `quiver inspect`: enum spellings (with the number
// for values this build does not name), logical type descriptions, and the
// decoding of statistics values, which are PLAIN-encoded without a length
// prefix (parquet.thrift, Statistics): BOOLEAN 1 byte, INT32/FLOAT 4 bytes
// and INT64/DOUBLE 8 bytes little-endian, INT96 12 bytes, byte arrays as
// they are. The value is read by the library's statistics rules
// (parquet/metadata/statistics.h DecodeStatisticsValue: integers unsigned or
// cut to their width by the logical or converted type, FLOAT16 widened,
// DECIMAL with its point, STRING as text); text-like columns (ENUM, JSON)
// show valid UTF-8 as text too, dates and times show their stored number. A
// value whose size does not fit its type is shown as raw bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "quiver/parquet/thrift/parquet_types_internal.h"

namespace quiver::cli {

namespace format = parquet::format;

std::string TypeName(format::Type v);
std::string EncodingName(format::Encoding v);
std::string CodecName(format::CompressionCodec v);
std::string PageTypeName(format::PageType v);
std::string RepetitionName(format::FieldRepetitionType v);
std::string ConvertedTypeName(format::ConvertedType v);
std::string BoundaryOrderName(format::BoundaryOrder v);
// "STRING", "DECIMAL(10, 2)", "TIMESTAMP(MICROS, utc)", "INT(8, unsigned)", ...
std::string LogicalTypeString(const format::LogicalType& t);

// How to read a column's values: its physical type and annotations.
struct ValueContext {
  format::Type type = format::Type::kByteArray;
  int32_t type_length = 0;
  const format::SchemaElement* element = nullptr;  // may be null
};

struct DecodedValue {
  enum class Kind { kBool, kInt, kUInt, kDouble, kString, kDecimal, kBytes };
  Kind kind = Kind::kBytes;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  std::string s;  // kString text, kDecimal digits, kBytes raw bytes
  bool bad_size = false;  // kBytes because the size did not fit the type
};

DecodedValue DecodeValue(std::string_view raw, const ValueContext& context);
// For text output: numbers as numbers, strings quoted (cut at `max_chars`),
// bytes as 0x-hex.
std::string ValueText(const DecodedValue& value, size_t max_chars = 48);

}  // namespace quiver::cli
