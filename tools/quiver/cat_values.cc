#include "cat_values.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>

#include "json_writer.h"
#include "quiver/array/pretty_print.h"
#include "quiver/array/type.h"
#include "quiver/util/base64.h"
#include "quiver/util/bit_util.h"

namespace quiver::cli {

namespace {

constexpr int64_t kViewSize = 16;
constexpr int32_t kInlineViewSize = 12;

template <typename T>
T LoadAt(const ArrayData& data, int buffer, int64_t i) {
  return bit_util::SafeLoad<T>(data.buffers[static_cast<size_t>(buffer)]->data() +
                               (data.offset + i) * static_cast<int64_t>(sizeof(T)));
}

// Slot i of a binary or string array with OffsetT offsets.
template <typename OffsetT>
std::string_view OffsetView(const ArrayData& data, int64_t i) {
  const int64_t begin = LoadAt<OffsetT>(data, 1, i);
  const int64_t end = LoadAt<OffsetT>(data, 1, i + 1);
  return {reinterpret_cast<const char*>(data.buffers[2]->data()) + begin,
          static_cast<size_t>(end - begin)};
}

// The bytes of slot i of a binary-like array.
std::string_view BinaryView(const ArrayData& data, int64_t i) {
  switch (data.type->id()) {
    case Type::kString:
    case Type::kBinary:
      return OffsetView<int32_t>(data, i);
    case Type::kLargeString:
    case Type::kLargeBinary:
      return OffsetView<int64_t>(data, i);
    case Type::kFixedSizeBinary: {
      const int64_t width = TypeAs<FixedSizeBinaryType>(*data.type).fixed_byte_width();
      return {reinterpret_cast<const char*>(data.buffers[1]->data()) + (data.offset + i) * width,
              static_cast<size_t>(width)};
    }
    default: {  // views
      const uint8_t* view = data.buffers[1]->data() + (data.offset + i) * kViewSize;
      const auto size = bit_util::SafeLoad<int32_t>(view);
      if (size <= kInlineViewSize) {
        return {reinterpret_cast<const char*>(view + 4), static_cast<size_t>(size)};
      }
      const auto index = bit_util::SafeLoad<int32_t>(view + 8);
      const auto offset = bit_util::SafeLoad<int32_t>(view + 12);
      return {reinterpret_cast<const char*>(data.buffers[static_cast<size_t>(2 + index)]->data()) +
                  offset,
              static_cast<size_t>(size)};
    }
  }
}

template <typename T>
void AppendNumber(T value, std::string* out) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out->append(buffer, result.ptr);
}

template <typename T>
void AppendFloat(T value, CellFormat format, std::string* out) {
  const bool json = format == CellFormat::kJson;
  if (std::isnan(value)) {
    *out += json ? "\"NaN\"" : "nan";
  } else if (std::isinf(value)) {
    *out += value > 0 ? (json ? "\"Infinity\"" : "inf") : (json ? "\"-Infinity\"" : "-inf");
  } else {
    AppendNumber(value, out);
  }
}

class CellWriter {
 public:
  CellWriter(CellFormat format, std::string* out) : format_(format), out_(out) {}

  Status Append(const ArrayData& data, int64_t i) {
    if (data.IsNull(i)) {
      *out_ += "null";
      return Status::OK();
    }
    const DataType& type = *data.type;
    const bool json = format_ == CellFormat::kJson;
    switch (type.id()) {
      case Type::kNull:
        *out_ += "null";
        return Status::OK();
      case Type::kBool:
        *out_ += bit_util::GetBit(data.buffers[1]->data(), data.offset + i) ? "true" : "false";
        return Status::OK();
      case Type::kInt8: return Number(LoadAt<int8_t>(data, 1, i));
      case Type::kUInt8: return Number(LoadAt<uint8_t>(data, 1, i));
      case Type::kInt16: return Number(LoadAt<int16_t>(data, 1, i));
      case Type::kUInt16: return Number(LoadAt<uint16_t>(data, 1, i));
      case Type::kInt32: return Number(LoadAt<int32_t>(data, 1, i));
      case Type::kUInt32: return Number(LoadAt<uint32_t>(data, 1, i));
      case Type::kInt64:
      case Type::kDuration:
        return Number(LoadAt<int64_t>(data, 1, i));
      case Type::kUInt64: return Number(LoadAt<uint64_t>(data, 1, i));
      case Type::kFloat:
        AppendFloat(LoadAt<float>(data, 1, i), format_, out_);
        return Status::OK();
      case Type::kDouble:
        AppendFloat(LoadAt<double>(data, 1, i), format_, out_);
        return Status::OK();
      case Type::kHalfFloat: {
        // PrettyPrint widens half floats exactly and spells NaN "nan".
        std::string text;
        QUIVER_RETURN_NOT_OK(AppendValueText(data, i, &text));
        if (json && (text == "nan" || text == "inf" || text == "-inf")) {
          AppendFloat(text == "nan" ? NAN : (text == "inf" ? INFINITY : -INFINITY), format_, out_);
        } else {
          *out_ += text;
        }
        return Status::OK();
      }
      case Type::kString:
      case Type::kLargeString:
      case Type::kStringView: {
        const std::string_view text = BinaryView(data, i);
        if (json) {
          JsonWriter::AppendQuoted(text, out_);
        } else {
          out_->append(text);
        }
        return Status::OK();
      }
      case Type::kBinary:
      case Type::kLargeBinary:
      case Type::kBinaryView:
      case Type::kFixedSizeBinary:
        if (json) {
          JsonWriter::AppendQuoted(Base64Encode(BinaryView(data, i)), out_);
          return Status::OK();
        }
        return AppendValueText(data, i, out_);
      case Type::kDictionary:
        return Dictionary(data, i);
      case Type::kStruct:
      case Type::kList:
      case Type::kLargeList:
      case Type::kFixedSizeList:
      case Type::kMap: {
        // Nested values are JSON in every format.
        CellWriter nested(CellFormat::kJson, out_);
        return nested.Nested(data, i);
      }
      default:
        break;
    }
    // Decimals (a number), dates, times, timestamps and intervals (strings):
    // PrettyPrint's text. Other types are NotImplemented there.
    if (IsDecimal(type.id())) return AppendValueText(data, i, out_);
    return Quoted(data, i);
  }

 private:
  template <typename T>
  Status Number(T value) {
    AppendNumber(value, out_);
    return Status::OK();
  }

  // PrettyPrint's text, in quotes for JSON.
  Status Quoted(const ArrayData& data, int64_t i) {
    if (format_ != CellFormat::kJson) return AppendValueText(data, i, out_);
    std::string text;
    QUIVER_RETURN_NOT_OK(AppendValueText(data, i, &text));
    JsonWriter::AppendQuoted(text, out_);
    return Status::OK();
  }

  Status Dictionary(const ArrayData& data, int64_t i) {
    int64_t index = 0;
    switch (TypeAs<DictionaryType>(*data.type).index_type()->id()) {
      case Type::kInt8: index = LoadAt<int8_t>(data, 1, i); break;
      case Type::kUInt8: index = LoadAt<uint8_t>(data, 1, i); break;
      case Type::kInt16: index = LoadAt<int16_t>(data, 1, i); break;
      case Type::kUInt16: index = LoadAt<uint16_t>(data, 1, i); break;
      case Type::kInt32: index = LoadAt<int32_t>(data, 1, i); break;
      case Type::kUInt32: index = LoadAt<uint32_t>(data, 1, i); break;
      case Type::kInt64: index = LoadAt<int64_t>(data, 1, i); break;
      case Type::kUInt64: index = static_cast<int64_t>(LoadAt<uint64_t>(data, 1, i)); break;
      default:
        return Status::Invalid("dictionary index type ",
                               TypeAs<DictionaryType>(*data.type).index_type()->ToString());
    }
    if (data.dictionary == nullptr || index < 0 || index >= data.dictionary->length) {
      return Status::Invalid("dictionary index ", index, " out of range");
    }
    return Append(*data.dictionary, index);
  }

  Status Nested(const ArrayData& data, int64_t i) {
    switch (data.type->id()) {
      case Type::kStruct: {
        *out_ += '{';
        for (size_t k = 0; k < data.children.size(); ++k) {
          if (k > 0) *out_ += ',';
          JsonWriter::AppendQuoted(data.type->field(static_cast<int>(k))->name(), out_);
          *out_ += ':';
          QUIVER_RETURN_NOT_OK(Append(*data.children[k], data.offset + i));
        }
        *out_ += '}';
        return Status::OK();
      }
      case Type::kFixedSizeList: {
        const int64_t size = TypeAs<ListType>(*data.type).list_size();
        return Elements(data, (data.offset + i) * size, (data.offset + i + 1) * size);
      }
      case Type::kLargeList:
        return Elements(data, LoadAt<int64_t>(data, 1, i), LoadAt<int64_t>(data, 1, i + 1));
      default:  // list, map
        return Elements(data, LoadAt<int32_t>(data, 1, i), LoadAt<int32_t>(data, 1, i + 1));
    }
  }

  // Child slots [begin, end) of a list-like slot, as a JSON array.
  Status Elements(const ArrayData& data, int64_t begin, int64_t end) {
    const ArrayData& child = *data.children[0];
    const bool map = data.type->id() == Type::kMap;
    *out_ += '[';
    for (int64_t j = begin; j < end; ++j) {
      if (j > begin) *out_ += ',';
      if (map) {
        *out_ += "{\"key\":";
        QUIVER_RETURN_NOT_OK(Append(*child.children[0], child.offset + j));
        *out_ += ",\"value\":";
        QUIVER_RETURN_NOT_OK(Append(*child.children[1], child.offset + j));
        *out_ += '}';
      } else {
        QUIVER_RETURN_NOT_OK(Append(child, j));
      }
    }
    *out_ += ']';
    return Status::OK();
  }

  CellFormat format_;
  std::string* out_;
};

}  // namespace

Status AppendCell(const ArrayData& data, int64_t i, CellFormat format, std::string* out) {
  return CellWriter(format, out).Append(data, i);
}

}  // namespace quiver::cli
