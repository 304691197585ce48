// A column chunk's statistics, decoded once, as Arrow C++ (pyarrow 26)
// reads them: the place the CLI, the Python package and the filters take
// them from. Built by DecodeStatistics (statistics_internal.h) from the
// footer's Thrift Statistics.
//
// The rules (Arrow C++ parquet/metadata.cc, types.cc, statistics.cc and
// parquet/arrow/reader_internal.cc StatisticsAsScalars; checked attribute
// by attribute against pyarrow over the test corpus by
// python/tests/test_reader_statistics.py):
//   - the column's sort order (types.cc GetSortOrder) comes from its
//     logical type (a stored LogicalType that fits the physical type, else
//     the one its converted type stands for), else from the physical type:
//     BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY unsigned, INT96 unknown, the rest
//     signed; unsigned INTs unsigned; strings, enums, JSON, BSON, UUIDs
//     unsigned; decimals, dates, times, timestamps, FLOAT16 signed; other
//     logical types unknown;
//   - the statistics are dropped altogether (DecodeStatistics gives none,
//     pyarrow's is_stats_set is false) when the writer is not trusted for
//     them (ApplicationVersion::HasCorrectStatistics);
//   - the bounds are min_value / max_value when the file's column order for
//     the column is TYPE_ORDER; the legacy min / max when the file gives no
//     column order and the sort order is signed (their order; for unsigned
//     columns they are wrong); none under another column order (IEEE 754
//     total order, which pyarrow 26 does not take), for an unknown sort
//     order (INT96, geometries, ...), or when a bound does not PLAIN-decode
//     as a value of the physical type (too short);
//   - min() / max() are Scalars of the Arrow type pyarrow gives the bounds
//     (bound_type()): intN / uintN for INT logical types (the stored value
//     cut to the bit width), date32, time32 / time64, timestamp (tz "UTC"
//     when adjusted to UTC), decimal128 / decimal256 (precision above 38)
//     for DECIMAL on any physical type, halffloat for FLOAT16, string for
//     STRING, binary for other BYTE_ARRAYs, fixed_size_binary for other
//     FIXED_LEN_BYTE_ARRAYs, else the physical type's (bool, int32, int64,
//     float, double); min_physical() / max_physical() the PLAIN-decoded
//     physical values (pyarrow's min_raw / max_raw). A bound that decodes
//     physically but is no value of bound_type() (a string bound that is
//     not UTF-8, a decimal with more digits than its precision, a time
//     outside the day) leaves min() or max() null while has_min_max() holds:
//     pyarrow has the bound and fails only when it converts it;
//   - NaN: bounds are kept as stored (pyarrow 26 neither drops nor fixes
//     them on read); nan_count is the stored one (absent: NaNs may exist);
//   - exactness: is_min_value_exact / is_max_value_exact as stored; absent
//     means unknown (a byte-array bound may be truncated), and a filter takes
//     an unknown as inexact.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "quiver/array/scalar.h"
#include "quiver/parquet/types.h"

namespace quiver::parquet {

// Who wrote a file, from FileMetaData.created_by (Arrow C++'s
// ApplicationVersion): "<application> version <x.y.z...>"; the application
// is the first word, lower-cased ("unknown" when there is none); the version
// its first three numbers (missing parts 0).
class ApplicationVersion {
 public:
  ApplicationVersion() = default;
  explicit ApplicationVersion(std::string_view created_by);

  const std::string& application() const { return application_; }
  int major() const { return version_[0]; }
  int minor() const { return version_[1]; }
  int patch() const { return version_[2]; }
  // Written by `application` at a version before major.minor.patch.
  bool OlderThan(std::string_view application, int major, int minor, int patch) const;

  // Whether statistics this writer wrote for a column of `physical` type
  // and `order` can be used (metadata.cc HasCorrectStatistics):
  // parquet-cpp before 1.3.0 and parquet-mr before 1.10.0 computed every
  // bound in signed order, so only signed sort orders (or min == max)
  // count, and their byte-array bounds are not taken; parquet-mr before
  // 1.8.0 wrote wrong byte-array bounds (PARQUET-251).
  bool HasCorrectStatistics(PhysicalType physical, SortOrder order, bool min_equals_max) const;

 private:
  std::string application_ = "unknown";
  int version_[3] = {0, 0, 0};
};

class Statistics {
 public:
  PhysicalType physical_type() const { return physical_type_; }
  SortOrder sort_order() const { return sort_order_; }
  // The Arrow type of min() and max().
  const TypePtr& bound_type() const { return bound_type_; }

  bool has_min_max() const { return has_min_max_; }
  // Null scalars of bound_type() when !has_min_max() (or when the bound is
  // no value of the type, see above).
  const Scalar& min() const { return min_; }
  const Scalar& max() const { return max_; }
  const Scalar& min_physical() const { return min_physical_; }
  const Scalar& max_physical() const { return max_physical_; }
  // The bounds' PLAIN bytes as stored ("" when !has_min_max()).
  const std::string& encoded_min() const { return encoded_min_; }
  const std::string& encoded_max() const { return encoded_max_; }

  std::optional<int64_t> null_count() const { return null_count_; }
  std::optional<int64_t> distinct_count() const { return distinct_count_; }
  std::optional<int64_t> nan_count() const { return nan_count_; }
  std::optional<bool> is_min_value_exact() const { return min_exact_; }
  std::optional<bool> is_max_value_exact() const { return max_exact_; }
  // The chunk's values less its nulls (pyarrow's num_values).
  int64_t num_values() const { return num_values_; }

 private:
  friend class StatisticsDecoder;
  PhysicalType physical_type_ = PhysicalType::kInt32;
  SortOrder sort_order_ = SortOrder::kUnknown;
  TypePtr bound_type_;
  bool has_min_max_ = false;
  Scalar min_, max_, min_physical_, max_physical_;
  std::string encoded_min_, encoded_max_;
  std::optional<int64_t> null_count_, distinct_count_, nan_count_;
  std::optional<bool> min_exact_, max_exact_;
  int64_t num_values_ = 0;
};

}  // namespace quiver::parquet
