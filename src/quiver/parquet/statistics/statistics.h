// Column statistics (min, max, null count, NaN count) in Parquet's
// TYPE_ORDER column order, as parquet-format's parquet.thrift
// (Statistics, ColumnOrder) and the current spec for floating point define:
//   - signed integers / dates / times / timestamps / decimals on INT32 and
//     INT64: signed comparison; INT(bits, false): unsigned comparison;
//   - FLOAT/DOUBLE and FLOAT16 (FLBA(2)): NaN never becomes min or max; if
//     every non-null value is NaN there is no min/max; a zero min is written
//     as -0.0 and a zero max as +0.0; nan_count counts NaNs;
//   - BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY: unsigned lexicographic order,
//     except DECIMAL (signed, two's complement big-endian);
//   - BOOLEAN: false < true.
// Min/max are written PLAIN-encoded (no length prefix for byte arrays).
// Byte-array bounds longer than a limit (64 bytes) are truncated: the min to
// a prefix (cut at a UTF-8 boundary for strings), the max to a prefix whose
// last byte (or code point) is incremented, and flagged inexact.
//
// Values arrive in their Parquet physical representation, a batch at a
// time; accumulators merge (page -> column chunk).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/parquet/types.h"

namespace quiver::parquet {

enum class StatsKind : uint8_t {
  kBoolean,
  kInt32,          // signed
  kUInt32,         // INT32 with unsigned logical type
  kInt64,
  kUInt64,
  kFloat,
  kDouble,
  kFloat16,        // FIXED_LEN_BYTE_ARRAY(2) holding IEEE half floats
  kBytes,          // BYTE_ARRAY / FLBA, unsigned lexicographic
  kSignedBytes,    // DECIMAL on BYTE_ARRAY / FLBA: two's complement big-endian
  kNone,           // no defined order (INT96, INTERVAL): only counts
};

struct EncodedStatistics {
  std::optional<std::string> min;
  std::optional<std::string> max;
  int64_t null_count = 0;
  std::optional<int64_t> nan_count;       // floating point kinds only
  std::optional<int64_t> distinct_count;  // set by the writer when asked
  bool is_min_exact = true;
  bool is_max_exact = true;
  bool has_min_max() const { return min.has_value() && max.has_value(); }
};

class ColumnStatistics {
 public:
  virtual ~ColumnStatistics() = default;

  static std::unique_ptr<ColumnStatistics> Make(StatsKind kind, bool is_string = false,
                                                int32_t fixed_length = 0);

  StatsKind kind() const { return kind_; }

  // Dense values (no nulls among them): `count` values of the physical C
  // type (bool as uint8_t 0/1, FLBA as count * fixed_length bytes).
  virtual void Update(const void* values, int64_t count) = 0;
  // Values with a validity bitmap (bit `valid_offset` is values[0]); only
  // valid slots count. Nulls are NOT added to null_count here.
  virtual void UpdateSpaced(const void* values, const uint8_t* valid, int64_t valid_offset,
                            int64_t count) = 0;
  // Byte arrays given as Arrow offsets (int32 or int64) + data.
  virtual void UpdateBinary32(const int32_t* offsets, const uint8_t* data, const uint8_t* valid,
                              int64_t valid_offset, int64_t count) = 0;
  virtual void UpdateBinary64(const int64_t* offsets, const uint8_t* data, const uint8_t* valid,
                              int64_t valid_offset, int64_t count) = 0;
  // One byte-array value (dictionary values, views).
  virtual void UpdateOne(std::string_view value) = 0;

  void AddNulls(int64_t n) { null_count_ += n; }
  int64_t null_count() const { return null_count_; }

  virtual bool has_min_max() const = 0;
  virtual void Merge(const ColumnStatistics& other) = 0;
  virtual void Reset() = 0;
  // `max_bytes`: truncation limit for byte-array bounds (<= 0: none).
  virtual EncodedStatistics Encode(int64_t max_bytes = 64) const = 0;

 protected:
  explicit ColumnStatistics(StatsKind kind) : kind_(kind) {}
  StatsKind kind_;
  int64_t null_count_ = 0;
};

// Truncation of byte-array bounds (exposed for tests). `is_string`: cut at
// UTF-8 code point boundaries and increment code points, not bytes.
// Returns nullopt for a max that cannot be incremented (all 0xFF / U+10FFFF).
std::string TruncateMin(std::string_view value, int64_t max_bytes, bool is_string);
std::optional<std::string> TruncateMax(std::string_view value, int64_t max_bytes, bool is_string);

// <0, 0, >0 as a sorts before, with or after b: two PLAIN-encoded bounds
// (as Encode() writes them) compared in the column order of `kind`.
int CompareEncoded(StatsKind kind, std::string_view a, std::string_view b);

// The ColumnIndex boundary order of pages with these bounds (null pages
// skipped), decided as Arrow C++ does: unordered if every page is null;
// else ascending if no min and no max decreases from one non-null page to
// the next, else descending if none increases, else unordered.
// (BoundaryOrder: parquet/types.h.)
BoundaryOrder ComputeBoundaryOrder(StatsKind kind, const std::vector<std::string>& mins,
                                   const std::vector<std::string>& maxs,
                                   const std::vector<bool>& null_pages);

}  // namespace quiver::parquet
