// Pretty printer; see pretty_print.h for the format. One Printer walks the
// array over logical slot ranges (no slices are made): a range of a leaf
// type prints as a bracketed list of values, nested types recurse into the
// child range of each printed slot. Everything is appended to one string,
// which is written to the sink only if printing succeeded.
//
// Dates use the proleptic Gregorian calendar; days since 1970-01-01 become
// year/month/day with Howard Hinnant's civil_from_days algorithm
// (http://howardhinnant.github.io/date_algorithms.html, public domain).
#include "quiver/array/pretty_print.h"

#include <charconv>
#include <cmath>
#include <ostream>

#include "quiver/array/time_unit_internal.h"
#include "quiver/array/validate.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver {

namespace {

constexpr int64_t kViewSize = 16;
constexpr int32_t kInlineViewSize = 12;
constexpr int64_t kSecondsPerDay = 86400;
constexpr char kHexDigits[] = "0123456789ABCDEF";

template <typename T>
T LoadAt(const uint8_t* base, int64_t index) {
  return bit_util::SafeLoad<T>(base + index * static_cast<int64_t>(sizeof(T)));
}

// Floor division: value = quotient * divisor + remainder, 0 <= remainder < divisor.
struct DivMod {
  int64_t quotient;
  int64_t remainder;
};
DivMod FloorDivMod(int64_t value, int64_t divisor) {
  int64_t q = value / divisor;
  int64_t r = value % divisor;
  if (r < 0) {
    q -= 1;
    r += divisor;
  }
  return {q, r};
}

int FractionDigits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 0;
    case TimeUnit::kMilli: return 3;
    case TimeUnit::kMicro: return 6;
    case TimeUnit::kNano: return 9;
  }
  return 0;
}

// IEEE 754 binary16 to float (exact).
float HalfToFloat(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  float value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    value = mantissa != 0 ? std::nanf("") : HUGE_VALF;
  } else {
    value = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  }
  return (bits & 0x8000) != 0 ? -value : value;
}

class Printer {
 public:
  explicit Printer(const PrettyPrintOptions& options) : options_(options) {}

  Status Print(const ArrayData& data) {
    PrintRange(data, *data.type, 0, data.length, options_.indent);
    return status_;
  }

  // One valid slot of a non-nested array.
  Status PrintValue(const ArrayData& data, int64_t i) {
    WriteValue(data, *data.type, i);
    return status_;
  }

  const std::string& out() const { return out_; }

 private:
  // ---- Layout ---------------------------------------------------------------

  void Indent(int n) {
    if (n > 0) out_.append(static_cast<size_t>(n), ' ');
  }

  void Fail(Status status) {
    if (status_.ok()) status_ = std::move(status);
    out_ += "<invalid>";
  }

  // "[", the slots one per line (a window of them at each end), "]". Slot
  // writers of nested values indent themselves (`nested`).
  template <typename IsNull, typename WriteSlot>
  void WriteSlots(int64_t n, int indent, int window, bool nested, IsNull&& is_null,
                  WriteSlot&& write) {
    Indent(indent);
    out_ += '[';
    if (n == 0) {
      out_ += ']';
      return;
    }
    out_ += '\n';
    const int slot_indent = indent + options_.indent_size;
    for (int64_t i = 0; i < n; ++i) {
      // As Arrow C++: no "..." standing for a single slot (2 * window + 1
      // slots print whole).
      if (window >= 0 && i == window && n > 2 * static_cast<int64_t>(window) + 1) {
        Indent(slot_indent);
        out_ += "...\n";
        i = n - window - 1;
        continue;
      }
      if (is_null(i)) {
        Indent(slot_indent);
        out_ += options_.null_rep;
      } else {
        if (!nested) Indent(slot_indent);
        write(i, slot_indent);
      }
      if (i + 1 < n) out_ += ',';
      out_ += '\n';
    }
    Indent(indent);
    out_ += ']';
  }

  // Slots [start, start + n) of `data` (logical positions), read as `type`
  // (the index type for the indices of a dictionary array).
  void PrintRange(const ArrayData& data, const DataType& type, int64_t start, int64_t n,
                  int indent) {
    auto is_null = [&](int64_t i) { return data.IsNull(start + i); };
    switch (type.id()) {
      case Type::kNull:
        Indent(indent);
        out_ += std::to_string(n);
        out_ += " nulls";
        return;
      case Type::kStruct:
        return PrintStruct(data, start, n, indent);
      case Type::kDictionary:
        return PrintDictionary(data, start, n, indent);
      case Type::kList:
      case Type::kMap:
        return WriteSlots(n, indent, options_.container_window, true, is_null,
                          [&](int64_t i, int slot_indent) {
                            PrintListSlot<int32_t>(data, start + i, slot_indent);
                          });
      case Type::kLargeList:
        return WriteSlots(n, indent, options_.container_window, true, is_null,
                          [&](int64_t i, int slot_indent) {
                            PrintListSlot<int64_t>(data, start + i, slot_indent);
                          });
      case Type::kFixedSizeList: {
        const int64_t size = TypeAs<ListType>(type).list_size();
        const ArrayData& child = *data.children[0];
        return WriteSlots(n, indent, options_.container_window, true, is_null,
                          [&](int64_t i, int slot_indent) {
                            PrintRange(child, *child.type, (data.offset + start + i) * size, size,
                                       slot_indent);
                          });
      }
      default:
        return WriteSlots(n, indent, options_.window, false, is_null,
                          [&](int64_t i, int) { WriteValue(data, type, start + i); });
    }
  }

  void PrintStruct(const ArrayData& data, int64_t start, int64_t n, int indent) {
    const uint8_t* validity = data.validity();
    const int64_t valid =
        validity == nullptr ? n : bitmap::CountSetBits(validity, data.offset + start, n);
    Indent(indent);
    if (valid == n) {
      out_ += "-- is_valid: all not null";
    } else {
      out_ += "-- is_valid:\n";
      WriteSlots(
          n, indent + options_.indent_size, options_.window, false,
          [](int64_t) { return false; },
          [&](int64_t i, int) { out_ += data.IsValid(start + i) ? "true" : "false"; });
    }
    for (size_t k = 0; k < data.children.size(); ++k) {
      const FieldPtr& field = data.type->field(static_cast<int>(k));
      const ArrayData& child = *data.children[k];
      out_ += '\n';
      Indent(indent);
      out_ += "-- child " + std::to_string(k) + " '" + field->name() +
              "' type: " + field->type()->ToString() + "\n";
      PrintRange(child, *child.type, data.offset + start, n, indent + options_.indent_size);
    }
  }

  void PrintDictionary(const ArrayData& data, int64_t start, int64_t n, int indent) {
    const ArrayData& dictionary = *data.dictionary;
    Indent(indent);
    out_ += "-- dictionary:\n";
    PrintRange(dictionary, *dictionary.type, 0, dictionary.length,
               indent + options_.indent_size);
    out_ += '\n';
    Indent(indent);
    out_ += "-- indices:\n";
    PrintRange(data, *TypeAs<DictionaryType>(*data.type).index_type(), start, n,
               indent + options_.indent_size);
  }

  // The child range of list slot `i`, checked against the child's length.
  template <typename OffsetT>
  void PrintListSlot(const ArrayData& data, int64_t i, int indent) {
    const uint8_t* offsets = data.buffers[1]->data();
    const int64_t begin = LoadAt<OffsetT>(offsets, data.offset + i);
    const int64_t end = LoadAt<OffsetT>(offsets, data.offset + i + 1);
    const ArrayData& child = *data.children[0];
    if (begin < 0 || end < begin || end > child.length) {
      Indent(indent);
      return Fail(Status::Invalid(data.type->ToString(), " array: offsets [", begin, ", ", end,
                                  ") of slot ", i, " are out of bounds of the child length ",
                                  child.length));
    }
    if (data.type->id() != Type::kMap) {
      return PrintRange(child, *child.type, begin, end - begin, indent);
    }
    const ArrayData& keys = *child.children[0];
    const ArrayData& items = *child.children[1];
    Indent(indent);
    out_ += "keys:\n";
    PrintRange(keys, *keys.type, child.offset + begin, end - begin, indent);
    out_ += '\n';
    Indent(indent);
    out_ += "values:\n";
    PrintRange(items, *items.type, child.offset + begin, end - begin, indent);
  }

  // ---- Values ---------------------------------------------------------------

  template <typename T>
  void AppendInteger(T value) {
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    out_.append(buffer, result.ptr);
  }

  template <typename T>
  void AppendFloat(T value) {
    if (std::isnan(value)) {
      out_ += "nan";
      return;
    }
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    out_.append(buffer, result.ptr);
  }

  // Zero-padded to `width` digits, with a leading '-' when negative.
  void AppendPadded(int64_t value, int width) {
    if (value < 0) {
      out_ += '-';
      value = -value;  // >= -2^63 / 86400 here: no overflow
    }
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    const auto digits = static_cast<int>(result.ptr - buffer);
    if (digits < width) out_.append(static_cast<size_t>(width - digits), '0');
    out_.append(buffer, result.ptr);
  }

  // Days since 1970-01-01 as YYYY-MM-DD (civil_from_days).
  void AppendDate(int64_t days) {
    const int64_t z = days + 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;                                   // [0, 146096]
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);            // [0, 365]
    const int64_t mp = (5 * doy + 2) / 153;                                 // [0, 11]
    const int64_t day = doy - (153 * mp + 2) / 5 + 1;                       // [1, 31]
    const int64_t month = mp < 10 ? mp + 3 : mp - 9;                        // [1, 12]
    const int64_t year = yoe + era * 400 + (month <= 2);
    AppendPadded(year, 4);
    out_ += '-';
    AppendPadded(month, 2);
    out_ += '-';
    AppendPadded(day, 2);
  }

  // HH:MM:SS[.fraction] for 0 <= seconds < 86400.
  void AppendTimeOfDay(int64_t seconds, int64_t fraction, int fraction_digits) {
    AppendPadded(seconds / 3600, 2);
    out_ += ':';
    AppendPadded(seconds / 60 % 60, 2);
    out_ += ':';
    AppendPadded(seconds % 60, 2);
    if (fraction_digits > 0) {
      out_ += '.';
      AppendPadded(fraction, fraction_digits);
    }
  }

  void AppendTimestamp(int64_t value, const TemporalType& type) {
    const auto [seconds, fraction] = FloorDivMod(value, TimeUnitsPerSecond(type.unit()));
    const auto [days, second_of_day] = FloorDivMod(seconds, kSecondsPerDay);
    AppendDate(days);
    out_ += ' ';
    AppendTimeOfDay(second_of_day, fraction, FractionDigits(type.unit()));
    if (!type.timezone().empty()) out_ += 'Z';
  }

  void AppendTime(int64_t value, const TemporalType& type) {
    const int64_t per_second = TimeUnitsPerSecond(type.unit());
    if (value < 0 || value >= kSecondsPerDay * per_second) return AppendInteger(value);
    AppendTimeOfDay(value / per_second, value % per_second, FractionDigits(type.unit()));
  }

  // A little-endian two's complement integer of `width` bytes (4..32) with
  // `scale` decimal digits after the point.
  void AppendDecimal(const uint8_t* bytes, int width, int32_t scale) {
    uint32_t limbs[8] = {};
    const int num_limbs = width / 4;
    for (int k = 0; k < num_limbs; ++k) {
      limbs[k] = bit_util::FromLittleEndian(bit_util::SafeLoad<uint32_t>(bytes + 4 * k));
    }
    const bool negative = (limbs[num_limbs - 1] >> 31) != 0;
    if (negative) {  // magnitude = ~x + 1
      uint64_t carry = 1;
      for (int k = 0; k < num_limbs; ++k) {
        const uint64_t v = static_cast<uint64_t>(static_cast<uint32_t>(~limbs[k])) + carry;
        limbs[k] = static_cast<uint32_t>(v);
        carry = v >> 32;
      }
    }
    // Base 10^9 chunks, least significant first.
    std::string digits;
    int top = num_limbs;
    while (top > 0 && limbs[top - 1] == 0) --top;
    if (top == 0) digits = "0";
    while (top > 0) {
      uint64_t remainder = 0;
      for (int k = top - 1; k >= 0; --k) {
        const uint64_t current = (remainder << 32) | limbs[k];
        limbs[k] = static_cast<uint32_t>(current / 1000000000);
        remainder = current % 1000000000;
      }
      while (top > 0 && limbs[top - 1] == 0) --top;
      std::string chunk = std::to_string(remainder);
      if (top > 0) chunk.insert(0, 9 - chunk.size(), '0');
      digits.insert(0, chunk);
    }
    constexpr int32_t kMaxPlainScale = 256;  // beyond this, exponent form
    if (scale > kMaxPlainScale || scale < -kMaxPlainScale) {
      digits += "E" + std::to_string(-static_cast<int64_t>(scale));
    } else if (scale > 0) {
      const auto s = static_cast<size_t>(scale);
      if (digits.size() <= s) digits.insert(0, s + 1 - digits.size(), '0');
      digits.insert(digits.size() - s, ".");
    } else if (scale < 0) {
      digits.append(static_cast<size_t>(-scale), '0');
    }
    if (negative) out_ += '-';
    out_ += digits;
  }

  void AppendHex(const uint8_t* bytes, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      out_ += kHexDigits[bytes[i] >> 4];
      out_ += kHexDigits[bytes[i] & 15];
    }
  }

  void AppendQuoted(const uint8_t* bytes, int64_t n) {
    out_ += '"';
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t c = bytes[i];
      switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default:
          if (c < 0x20 || c == 0x7F) {
            out_ += "\\x";
            out_ += kHexDigits[c >> 4];
            out_ += kHexDigits[c & 15];
          } else {
            out_ += static_cast<char>(c);
          }
      }
    }
    out_ += '"';
  }

  void AppendBytes(const DataType& type, const uint8_t* bytes, int64_t n) {
    if (IsStringLike(type.id())) {
      AppendQuoted(bytes, n);
    } else {
      AppendHex(bytes, n);
    }
  }

  template <typename OffsetT>
  void AppendBinarySlot(const ArrayData& data, int64_t i) {
    const uint8_t* offsets = data.buffers[1]->data();
    const int64_t begin = LoadAt<OffsetT>(offsets, data.offset + i);
    const int64_t end = LoadAt<OffsetT>(offsets, data.offset + i + 1);
    const Buffer& values = *data.buffers[2];
    if (begin < 0 || end < begin || end > values.size()) {
      return Fail(Status::Invalid(data.type->ToString(), " array: offsets [", begin, ", ", end,
                                  ") of slot ", i, " are out of bounds of the data buffer size ",
                                  values.size()));
    }
    AppendBytes(*data.type, values.data() + begin, end - begin);
  }

  void AppendViewSlot(const ArrayData& data, int64_t i) {
    const uint8_t* view = data.buffers[1]->data() + (data.offset + i) * kViewSize;
    const auto size = bit_util::SafeLoad<int32_t>(view);
    if (size < 0) {
      return Fail(Status::Invalid(data.type->ToString(), " array: view at slot ", i,
                                  " has a negative length ", size));
    }
    if (size <= kInlineViewSize) return AppendBytes(*data.type, view + 4, size);
    const auto buffer_index = bit_util::SafeLoad<int32_t>(view + 8);
    const auto offset = bit_util::SafeLoad<int32_t>(view + 12);
    const auto num_data_buffers = static_cast<int64_t>(data.buffers.size()) - 2;
    if (buffer_index < 0 || buffer_index >= num_data_buffers || offset < 0 ||
        int64_t{offset} + size > data.buffers[static_cast<size_t>(2 + buffer_index)]->size()) {
      return Fail(Status::Invalid(data.type->ToString(), " array: view at slot ", i,
                                  " is out of bounds of its data buffers"));
    }
    AppendBytes(*data.type,
                data.buffers[static_cast<size_t>(2 + buffer_index)]->data() + offset, size);
  }

  // Valid slot `i` (logical position) of `data`, whose buffers[1] holds values
  // of `type`.
  void WriteValue(const ArrayData& data, const DataType& type, int64_t i) {
    const uint8_t* values = data.buffers[1] == nullptr ? nullptr : data.buffers[1]->data();
    const int64_t at = data.offset + i;
    switch (type.id()) {
      case Type::kBool:
        out_ += bit_util::GetBit(values, at) ? "true" : "false";
        return;
      case Type::kInt8: return AppendInteger(LoadAt<int8_t>(values, at));
      case Type::kUInt8: return AppendInteger(LoadAt<uint8_t>(values, at));
      case Type::kInt16: return AppendInteger(LoadAt<int16_t>(values, at));
      case Type::kUInt16: return AppendInteger(LoadAt<uint16_t>(values, at));
      case Type::kInt32:
      case Type::kIntervalMonths:
        return AppendInteger(LoadAt<int32_t>(values, at));
      case Type::kUInt32: return AppendInteger(LoadAt<uint32_t>(values, at));
      case Type::kInt64:
      case Type::kDuration:
        return AppendInteger(LoadAt<int64_t>(values, at));
      case Type::kUInt64: return AppendInteger(LoadAt<uint64_t>(values, at));
      case Type::kHalfFloat: return AppendFloat(HalfToFloat(LoadAt<uint16_t>(values, at)));
      case Type::kFloat: return AppendFloat(LoadAt<float>(values, at));
      case Type::kDouble: return AppendFloat(LoadAt<double>(values, at));
      case Type::kDate32: return AppendDate(LoadAt<int32_t>(values, at));
      case Type::kDate64:
        return AppendDate(FloorDivMod(LoadAt<int64_t>(values, at), kSecondsPerDay * 1000).quotient);
      case Type::kTimestamp:
        return AppendTimestamp(LoadAt<int64_t>(values, at), TypeAs<TemporalType>(type));
      case Type::kTime32:
        return AppendTime(LoadAt<int32_t>(values, at), TypeAs<TemporalType>(type));
      case Type::kTime64:
        return AppendTime(LoadAt<int64_t>(values, at), TypeAs<TemporalType>(type));
      case Type::kIntervalDayTime: {
        const uint8_t* p = values + at * 8;
        AppendInteger(bit_util::SafeLoad<int32_t>(p));
        out_ += 'd';
        AppendInteger(bit_util::SafeLoad<int32_t>(p + 4));
        out_ += "ms";
        return;
      }
      case Type::kIntervalMonthDayNano: {
        const uint8_t* p = values + at * 16;
        AppendInteger(bit_util::SafeLoad<int32_t>(p));
        out_ += 'M';
        AppendInteger(bit_util::SafeLoad<int32_t>(p + 4));
        out_ += 'd';
        AppendInteger(bit_util::SafeLoad<int64_t>(p + 8));
        out_ += "ns";
        return;
      }
      case Type::kDecimal32:
      case Type::kDecimal64:
      case Type::kDecimal128:
      case Type::kDecimal256: {
        const int width = type.byte_width();
        return AppendDecimal(values + at * width, width, TypeAs<DecimalType>(type).scale());
      }
      case Type::kFixedSizeBinary: {
        const int64_t width = TypeAs<FixedSizeBinaryType>(type).fixed_byte_width();
        return AppendHex(values + at * width, width);
      }
      case Type::kString:
      case Type::kBinary:
        return AppendBinarySlot<int32_t>(data, i);
      case Type::kLargeString:
      case Type::kLargeBinary:
        return AppendBinarySlot<int64_t>(data, i);
      case Type::kStringView:
      case Type::kBinaryView:
        return AppendViewSlot(data, i);
      default:
        // Nested types are printed by PrintRange; nothing else reaches here.
        return Fail(Status::NotImplemented("printing values of type ", type.ToString()));
    }
  }

  const PrettyPrintOptions& options_;
  std::string out_;
  Status status_;
};

}  // namespace

Status PrettyPrint(const Array& array, const PrettyPrintOptions& options, std::ostream* sink) {
  QUIVER_RETURN_NOT_OK(ValidateArray(*array.data()));
  Printer printer(options);
  QUIVER_RETURN_NOT_OK(printer.Print(*array.data()));
  *sink << printer.out();
  return Status::OK();
}

std::string PrettyPrint(const Array& array, const PrettyPrintOptions& options) {
  Status status = ValidateArray(*array.data());
  if (status.ok()) {
    Printer printer(options);
    status = printer.Print(*array.data());
    if (status.ok()) return printer.out();
  }
  return "<Invalid array: " + status.message() + ">";
}

Status AppendValueText(const ArrayData& data, int64_t i, std::string* out) {
  if (data.type->num_fields() > 0 || data.type->id() == Type::kDictionary ||
      data.type->id() == Type::kNull) {
    return Status::NotImplemented("AppendValueText of type ", data.type->ToString());
  }
  if (i < 0 || i >= data.length) {
    return Status::Invalid("AppendValueText: slot ", i, " out of an array of length ", data.length);
  }
  Printer printer(PrettyPrintOptions::Defaults());
  QUIVER_RETURN_NOT_OK(printer.PrintValue(data, i));
  *out += printer.out();
  return Status::OK();
}

std::string Array::ToString() const { return PrettyPrint(*this, PrettyPrintOptions::Defaults()); }

}  // namespace quiver
