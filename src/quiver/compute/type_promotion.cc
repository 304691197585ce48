#include "quiver/compute/type_promotion.h"

#include <algorithm>
#include <string>

namespace quiver::compute {

namespace {

int IntegerBits(Type id) {
  switch (id) {
    case Type::kInt8:
    case Type::kUInt8: return 8;
    case Type::kInt16:
    case Type::kUInt16: return 16;
    case Type::kInt32:
    case Type::kUInt32: return 32;
    default: return 64;
  }
}

TypePtr SignedOfWidth(int bits) {
  if (bits >= 64) return int64();
  if (bits == 32) return int32();
  if (bits == 16) return int16();
  return int8();
}

TypePtr UnsignedOfWidth(int bits) {
  if (bits >= 64) return uint64();
  if (bits == 32) return uint32();
  if (bits == 16) return uint16();
  return uint8();
}

TimeUnit Finer(TimeUnit a, TimeUnit b) { return a > b ? a : b; }

}  // namespace

TypePtr CommonNumeric(const DataType& a, const DataType& b) {
  for (const DataType* t : {&a, &b}) {
    const Type id = t->id();
    if (!IsInteger(id) && id != Type::kFloat && id != Type::kDouble) return nullptr;
  }
  if (a.id() == Type::kDouble || b.id() == Type::kDouble) return float64();
  if (a.id() == Type::kFloat || b.id() == Type::kFloat) return float32();
  int max_signed = 0;
  int max_unsigned = 0;
  for (const DataType* t : {&a, &b}) {
    int& width = IsSignedInteger(t->id()) ? max_signed : max_unsigned;
    width = std::max(width, IntegerBits(t->id()));
  }
  if (max_signed == 0) return UnsignedOfWidth(max_unsigned);
  // A signed type must hold every unsigned value: the next power of two
  // past the unsigned width (capped at 64 bits).
  if (max_signed <= max_unsigned) max_signed = 2 * max_unsigned;
  return SignedOfWidth(max_signed);
}

TypePtr CommonTemporal(const DataType& a, const DataType& b) {
  TimeUnit finest = TimeUnit::kSecond;
  const std::string* timezone = nullptr;
  bool saw_date32 = false;
  bool saw_date64 = false;
  bool saw_duration = false;
  bool saw_time = false;
  for (const DataType* t : {&a, &b}) {
    switch (t->id()) {
      case Type::kDate32:
        saw_date32 = true;
        break;
      case Type::kDate64:
        finest = Finer(finest, TimeUnit::kMilli);
        saw_date64 = true;
        break;
      case Type::kTimestamp: {
        const auto& ts = TypeAs<TemporalType>(*t);
        if (timezone != nullptr && *timezone != ts.timezone()) return nullptr;
        timezone = &ts.timezone();
        finest = Finer(finest, ts.unit());
        break;
      }
      case Type::kTime32:
      case Type::kTime64:
        finest = Finer(finest, TypeAs<TemporalType>(*t).unit());
        saw_time = true;
        break;
      case Type::kDuration:
        finest = Finer(finest, TypeAs<TemporalType>(*t).unit());
        saw_duration = true;
        break;
      default:
        return nullptr;
    }
  }
  const bool saw_timestamp_or_date =
      timezone != nullptr || saw_date32 || saw_date64 || saw_duration;
  if (saw_time && saw_timestamp_or_date) return nullptr;
  if (saw_timestamp_or_date) {
    if (timezone != nullptr) return timestamp(finest, *timezone);
    if (saw_date64) return date64();
    if (saw_date32) return date32();
    return duration(finest);
  }
  if (saw_time) {
    return finest <= TimeUnit::kMilli ? time32(finest) : time64(finest);
  }
  return nullptr;
}

TypePtr CommonBinary(const DataType& a, const DataType& b) {
  bool all_utf8 = true;
  bool all_offset32 = true;
  bool all_fixed_width = true;
  for (const DataType* t : {&a, &b}) {
    switch (t->id()) {
      case Type::kString:
        all_fixed_width = false;
        break;
      case Type::kBinary:
        all_fixed_width = false;
        all_utf8 = false;
        break;
      case Type::kFixedSizeBinary:
        all_utf8 = false;
        break;
      case Type::kLargeString:
        all_offset32 = false;
        all_fixed_width = false;
        break;
      case Type::kLargeBinary:
        all_offset32 = false;
        all_fixed_width = false;
        all_utf8 = false;
        break;
      default:
        return nullptr;
    }
  }
  if (all_fixed_width) return nullptr;
  if (all_utf8) return all_offset32 ? utf8() : large_utf8();
  return all_offset32 ? binary() : large_binary();
}

}  // namespace quiver::compute
