#include "quiver/parquet/writer/timestamp_scale_internal.h"

#include <limits>
#include <string>

namespace quiver::parquet {

namespace {

// v[0, n) / Factor toward zero; with `exact`, the index of the first value
// that is not a multiple of Factor (nothing is divided then), else -1. A
// constant factor: the compiler divides by multiplying.
template <int64_t Factor>
int64_t Divide(int64_t* v, int64_t n, bool exact) {
  if (exact) {
    for (int64_t j = 0; j < n; ++j) {
      if (v[j] % Factor != 0) return j;
    }
  }
  for (int64_t j = 0; j < n; ++j) v[j] /= Factor;
  return -1;
}

// v[0, n) * Factor, or the index of the first value whose product does not
// fit in int64 (nothing is multiplied then).
template <int64_t Factor>
int64_t Multiply(int64_t* v, int64_t n) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / Factor;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min() / Factor;
  for (int64_t j = 0; j < n; ++j) {
    if (v[j] > kMax || v[j] < kMin) return j;
  }
  for (int64_t j = 0; j < n; ++j) v[j] *= Factor;
  return -1;
}

}  // namespace

Status ScaleTimestamps(const ColumnDescriptor& column, const ArrowLeaf& arrow, int64_t* v, int64_t n) {
  if (n == 0) return Status::OK();
  const bool down = arrow.value_kind == ValueKind::kTimestampScaleDown;
  const bool exact = !arrow.truncate_timestamps;
  int64_t bad = -1;
  // (Factors between the units coerce_timestamps and the versions choose:
  // s -> ms, ms -> us, us -> ms, ns -> us: 1000; s -> us, ns -> ms: 10^6.)
  switch (arrow.time_factor) {
    case 1000:
      bad = down ? Divide<1000>(v, n, exact) : Multiply<1000>(v, n);
      break;
    case 1000000:
      bad = down ? Divide<1000000>(v, n, exact) : Multiply<1000000>(v, n);
      break;
    default:
      return Status::Invalid("column '", column.path, "': internal error: timestamp factor ", arrow.time_factor);
  }
  if (bad < 0) return Status::OK();
  const DataType* type = arrow.arrow_type.get();
  if (type->id() == Type::kDictionary) type = TypeAs<DictionaryType>(*type).value_type().get();
  const auto& t = TypeAs<TemporalType>(*type);
  const std::string target = "timestamp[" + std::string(TimeUnitName(arrow.stored_unit)) +
                             (t.timezone().empty() ? "" : ", tz=" + t.timezone()) + "]";
  if (!down) {
    return Status::Invalid("column '", column.path, "': integer overflow when casting timestamp value ", v[bad],
                           " from ", t.ToString(), " to ", target);
  }
  return Status::Invalid("column '", column.path, "': casting from ", t.ToString(), " to ", target,
                         " would lose data: ", v[bad], " (", arrow.coercion, ")");
}

}  // namespace quiver::parquet
