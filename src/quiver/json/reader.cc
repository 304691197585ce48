#include "quiver/json/reader.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "quiver/array/builder.h"
#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_nested.h"
#include "quiver/array/builder_primitive.h"
#include "quiver/csv/value_parse.h"

namespace quiver::json {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// One inference node per column path. A node from the explicit schema is
// `fixed` (its type is given; a fixed struct's unknown fields follow
// unexpected_field_behavior).
struct Node {
  enum Kind : uint8_t { kNull, kBool, kInt, kDouble, kString, kTimestamp, kList, kStruct };
  Kind kind = kNull;
  bool fixed = false;
  TypePtr fixed_type;  // a fixed leaf
  std::unique_ptr<Node> item;
  std::vector<std::string> names;
  std::vector<std::unique_ptr<Node>> children;
  std::unordered_map<std::string, int> index;

  int AddChild(std::string name, std::unique_ptr<Node> child) {
    int i = static_cast<int>(children.size());
    index.emplace(name, i);
    names.push_back(std::move(name));
    children.push_back(std::move(child));
    return i;
  }
};

const char* JsonKindName(element_type t) {
  switch (t) {
    case element_type::ARRAY: return "array";
    case element_type::OBJECT: return "object";
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE: return "number";
    case element_type::STRING: return "string";
    case element_type::BOOL: return "boolean";
    case element_type::NULL_VALUE: return "null";
  }
  return "value";
}

const char* NodeKindName(Node::Kind k) {
  switch (k) {
    case Node::kNull: return "null";
    case Node::kBool: return "boolean";
    case Node::kInt:
    case Node::kDouble: return "number";
    case Node::kString:
    case Node::kTimestamp: return "string";
    case Node::kList: return "array";
    case Node::kStruct: return "object";
  }
  return "value";
}

std::unique_ptr<Node> NodeOfType(const TypePtr& type) {
  auto node = std::make_unique<Node>();
  node->fixed = true;
  if (type->id() == Type::kStruct) {
    node->kind = Node::kStruct;
    for (int i = 0; i < type->num_fields(); ++i) {
      node->AddChild(type->field(i)->name(), NodeOfType(type->field(i)->type()));
    }
  } else if (type->id() == Type::kList) {
    node->kind = Node::kList;
    node->item = NodeOfType(TypeAs<ListType>(*type).value_type());
  } else {
    node->fixed_type = type;
  }
  return node;
}

Status CheckFixedType(const TypePtr& type) {
  switch (type->id()) {
    case Type::kNull: case Type::kBool: case Type::kInt8: case Type::kInt16:
    case Type::kInt32: case Type::kInt64: case Type::kUInt8: case Type::kUInt16:
    case Type::kUInt32: case Type::kUInt64: case Type::kFloat: case Type::kDouble:
    case Type::kString: case Type::kLargeString: case Type::kTimestamp: case Type::kDate32:
      return Status::OK();
    case Type::kList:
      return CheckFixedType(TypeAs<ListType>(*type).value_type());
    case Type::kStruct:
      for (int i = 0; i < type->num_fields(); ++i) {
        QUIVER_RETURN_NOT_OK(CheckFixedType(type->field(i)->type()));
      }
      return Status::OK();
    default:
      return Status::NotImplemented("JSON reader: explicit_schema type ", type->ToString(),
                                    " is not supported (null, bool, integers, float, double, "
                                    "string, large_string, timestamp, date32, list, struct)");
  }
}

TypePtr NodeType(const Node& n) {
  if (n.fixed_type) return n.fixed_type;
  switch (n.kind) {
    case Node::kNull: return null();
    case Node::kBool: return boolean();
    case Node::kInt: return int64();
    case Node::kDouble: return float64();
    case Node::kString: return utf8();
    case Node::kTimestamp: return timestamp(TimeUnit::kSecond);
    case Node::kList: return list(NodeType(*n.item));
    case Node::kStruct: {
      FieldVector fields;
      for (size_t i = 0; i < n.children.size(); ++i) {
        fields.push_back(field(n.names[i], NodeType(*n.children[i])));
      }
      return struct_(std::move(fields));
    }
  }
  return null();
}

// A timestamp[s] value as pyarrow.json infers it: ISO 8601, no fraction.
bool ParseSeconds(std::string_view s, int64_t* out) {
  csv::Timestamp ts;
  if (!csv::ParseTimestamp(s, &ts) || ts.frac_digits != 0) return false;
  *out = ts.seconds;
  return true;
}

std::string Shorten(std::string_view v) {
  if (v.size() <= 64) return std::string(v);
  return std::string(v.substr(0, 61)) + "...";
}

std::string ValueText(const element& e) {
  return Shorten(simdjson::minify(e));
}


// simdjson's DOM refuses integers beyond 64 bits (NUMBER_ERROR); pyarrow
// reads them as doubles. The block again with such integers written as
// doubles ("...e0"): same lines, the numbers beyond a few bytes longer.
// Empty when there is none.
bool IntegerOverflows(std::string_view digits, bool negative) {
  std::string_view limit = negative ? "9223372036854775808" : "18446744073709551615";
  if (digits.size() != limit.size()) return digits.size() > limit.size();
  return digits > limit;
}

std::string WidenBigIntegers(std::string_view text) {
  std::string out;
  bool in_string = false, changed = false;
  size_t i = 0;
  out.reserve(text.size() + 16);
  while (i < text.size()) {
    char c = text[i];
    if (in_string) {
      out.push_back(c);
      if (c == '\\' && i + 1 < text.size()) {
        out.push_back(text[++i]);
      } else if (c == '"') {
        in_string = false;
      }
      ++i;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '-' || (c >= '0' && c <= '9')) {
      size_t start = i;
      bool negative = c == '-';
      if (negative) ++i;
      size_t digits = i;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
      bool integer = i == text.size() || (text[i] != '.' && text[i] != 'e' && text[i] != 'E');
      out.append(text.substr(start, i - start));
      if (integer && IntegerOverflows(text.substr(digits, i - digits), negative)) {
        out.append("e0");
        changed = true;
      }
      continue;
    }
    out.push_back(c);
    ++i;
  }
  if (!changed) out.clear();
  return out;
}

}  // namespace

struct StreamingReader::Impl {
  std::string name;
  ReadOptions read;
  ParseOptions parse;
  MemoryPool* pool = nullptr;
  std::unique_ptr<io::InputStream> input;
  simdjson::dom::parser parser;
  Node root;

  // Bytes read, not parsed yet (buf), and the line and offset of buf[0].
  std::string buf;
  bool eof = false;
  int64_t line = 1;
  int64_t offset = 0;

  struct Block {
    std::string bytes;  // padded by SIMDJSON_PADDING past size
    size_t size = 0;
    int64_t first_line = 1;
    int64_t first_offset = 0;
  };
  std::deque<Block> pending;  // read during inference, not converted yet
  bool inferred = false;
  int64_t blocks_inferred = 0;

  // Where the error is: the row's line (by its byte offset in the block).
  const Block* cur = nullptr;
  size_t cur_index = 0;
  int64_t LineAt(const Block& b, size_t index) const {
    size_t end = std::min(index, b.size);
    return b.first_line + std::count(b.bytes.data(), b.bytes.data() + end, '\n');
  }
  std::string Where() const {
    return name + ":" + std::to_string(LineAt(*cur, cur_index));
  }

  Result<bool> ReadBlock(Block* block);
  template <typename F>
  Status ForEachRow(const Block& block, F&& f);
  // After a NUMBER_ERROR (integers beyond 64 bits, which simdjson's DOM
  // refuses and pyarrow reads as doubles): the block with them as doubles.
  bool big_integer_error = false;
  bool WidenIfBigIntegers(Block* block);
  Status LocateParseError(const Block& block, size_t index, simdjson::error_code code);
  Status Infer(Node* node, const element& e, const std::string& path);
  Status Append(Node* node, ArrayBuilder* b, const element& e, const std::string& path);
  Status AppendFixed(const Node& node, ArrayBuilder* b, const element& e, const std::string& path);
  Status AppendObject(Node* node, StructBuilder* b, const element& e, const std::string& path);
  Status Mismatch(const Node& node, const element& e, const std::string& path) const;
};

Result<bool> StreamingReader::Impl::ReadBlock(Block* block) {
  // Whole lines of about block_size bytes (the rest stays in buf).
  size_t end = std::string::npos;
  while (true) {
    if (static_cast<int64_t>(buf.size()) >= read.block_size || eof) {
      size_t from = std::min(buf.size(), static_cast<size_t>(std::max<int64_t>(read.block_size, 1)) - 1);
      if (eof) {
        end = buf.size();
        break;
      }
      size_t nl = buf.find('\n', from);
      if (nl != std::string::npos) {
        end = nl + 1;
        break;
      }
    }
    QUIVER_ASSIGN_OR_RAISE(auto chunk, input->Read(std::max<int64_t>(read.block_size, 1 << 16)));
    if (chunk->size() == 0) {
      eof = true;
    } else {
      buf.append(reinterpret_cast<const char*>(chunk->data()), static_cast<size_t>(chunk->size()));
    }
  }
  if (end == 0) return false;
  block->bytes.assign(buf.data(), end);
  block->size = end;
  block->bytes.append(simdjson::SIMDJSON_PADDING, '\0');
  block->first_line = line;
  block->first_offset = offset;
  line += std::count(buf.data(), buf.data() + end, '\n');
  offset += static_cast<int64_t>(end);
  buf.erase(0, end);
  return true;
}

Status StreamingReader::Impl::LocateParseError(const Block& block, size_t index,
                                               simdjson::error_code code) {
  if (code == simdjson::NUMBER_ERROR) big_integer_error = true;
  // parse_many says which batch failed, not always which line: parse the
  // lines one by one to name the first bad one.
  simdjson::dom::parser one;
  size_t start = 0;
  while (start < block.size) {
    size_t nl = block.bytes.find('\n', start);
    size_t stop = (nl == std::string::npos || nl >= block.size) ? block.size : nl;
    std::string_view text(block.bytes.data() + start, stop - start);
    if (text.find_first_not_of(" \t\r") != std::string_view::npos) {
      simdjson::padded_string line_bytes(text);
      simdjson::dom::document_stream docs;
      auto err = one.parse_many(line_bytes).get(docs);
      for (auto it = docs.begin(); !err && it != docs.end(); ++it) err = (*it).error();
      if (!err && docs.truncated_bytes() > 0) err = simdjson::INCOMPLETE_ARRAY_OR_OBJECT;
      if (err) {
        return Status::Invalid(name, ":", LineAt(block, start), ": invalid JSON (",
                               simdjson::error_message(err), ") in the line at byte offset ",
                               block.first_offset + static_cast<int64_t>(start));
      }
    }
    start = stop + 1;
  }
  return Status::Invalid(name, ":", LineAt(block, index), ": invalid JSON (",
                         simdjson::error_message(code), ") at byte offset ",
                         block.first_offset + static_cast<int64_t>(index),
                         " (a value spanning lines across a block boundary?)");
}

bool StreamingReader::Impl::WidenIfBigIntegers(Block* block) {
  if (!big_integer_error) return false;
  big_integer_error = false;
  std::string widened = WidenBigIntegers(std::string_view(block->bytes.data(), block->size));
  if (widened.empty()) return false;
  block->size = widened.size();
  block->bytes = std::move(widened);
  block->bytes.append(simdjson::SIMDJSON_PADDING, '\0');
  return true;
}

template <typename F>
Status StreamingReader::Impl::ForEachRow(const Block& block, F&& f) {
  cur = &block;
  simdjson::dom::document_stream docs;
  size_t batch = std::max<size_t>(block.size, simdjson::dom::MINIMAL_BATCH_SIZE);
  auto err = parser.parse_many(block.bytes.data(), block.size, batch).get(docs);
  if (err) return LocateParseError(block, 0, err);
  for (auto it = docs.begin(); it != docs.end(); ++it) {
    cur_index = it.current_index();
    element e;
    err = (*it).get(e);
    if (err) return LocateParseError(block, cur_index, err);
    if (e.type() != element_type::OBJECT) {
      return Status::Invalid(Where(), ": a JSON Lines row must be an object, got ",
                             JsonKindName(e.type()), " ", ValueText(e));
    }
    QUIVER_RETURN_NOT_OK(f(e));
  }
  if (docs.truncated_bytes() > 0) {
    return LocateParseError(block, block.size - docs.truncated_bytes(),
                            simdjson::error_code::TAPE_ERROR);
  }
  return Status::OK();
}

Status StreamingReader::Impl::Infer(Node* node, const element& e, const std::string& path) {
  element_type t = e.type();
  if (t == element_type::NULL_VALUE) return Status::OK();
  if (node->fixed && !node->fixed_type) {
    // A given struct or list: its kind must match; leaves are checked by Append.
    if ((node->kind == Node::kStruct) != (t == element_type::OBJECT) ||
        (node->kind == Node::kList) != (t == element_type::ARRAY)) {
      return Status::Invalid(Where(), ": column ", path, " is ", NodeKindName(node->kind),
                             " in explicit_schema, got ", JsonKindName(t), " ", ValueText(e));
    }
  } else if (node->fixed) {
    return Status::OK();
  }
  auto conflict = [&]() {
    return Status::Invalid(Where(), ": column ", path, " changed from ",
                           NodeKindName(node->kind), " to ", JsonKindName(t), " (value ",
                           ValueText(e), ")");
  };
  switch (t) {
    case element_type::BOOL:
      if (node->kind == Node::kNull) node->kind = Node::kBool;
      if (node->kind != Node::kBool) return conflict();
      return Status::OK();
    case element_type::INT64:
      if (node->kind == Node::kNull) node->kind = Node::kInt;
      if (node->kind != Node::kInt && node->kind != Node::kDouble) return conflict();
      return Status::OK();
    case element_type::UINT64:
    case element_type::DOUBLE:
      if (node->kind == Node::kNull || node->kind == Node::kInt) node->kind = Node::kDouble;
      if (node->kind != Node::kDouble) return conflict();
      return Status::OK();
    case element_type::STRING: {
      int64_t secs;
      bool ts = ParseSeconds(std::string_view(e.get_string().value_unsafe()), &secs);
      if (node->kind == Node::kNull) node->kind = ts ? Node::kTimestamp : Node::kString;
      if (node->kind == Node::kTimestamp && !ts) node->kind = Node::kString;
      if (node->kind != Node::kString && node->kind != Node::kTimestamp) return conflict();
      return Status::OK();
    }
    case element_type::ARRAY: {
      if (node->kind == Node::kNull) {
        node->kind = Node::kList;
        node->item = std::make_unique<Node>();
      }
      if (node->kind != Node::kList) return conflict();
      std::string item_path = path + "/[]";
      simdjson::dom::array array_1 = e.get_array().value_unsafe();
      for (element v : array_1) {
        QUIVER_RETURN_NOT_OK(Infer(node->item.get(), v, item_path));
      }
      return Status::OK();
    }
    case element_type::OBJECT: {
      if (node->kind == Node::kNull) node->kind = Node::kStruct;
      if (node->kind != Node::kStruct) return conflict();
      simdjson::dom::object object_2 = e.get_object().value_unsafe();
      for (auto [key, v] : object_2) {
        std::string k(key);
        auto found = node->index.find(k);
        int i;
        if (found != node->index.end()) {
          i = found->second;
        } else if (node->fixed &&
                   parse.unexpected_field_behavior != UnexpectedFieldBehavior::kInfer) {
          if (parse.unexpected_field_behavior == UnexpectedFieldBehavior::kIgnore) continue;
          return Status::Invalid(Where(), ": unexpected field ", path, "/", k,
                                 " (not in explicit_schema; unexpected_field_behavior='error')");
        } else {
          i = node->AddChild(k, std::make_unique<Node>());
        }
        QUIVER_RETURN_NOT_OK(Infer(node->children[static_cast<size_t>(i)].get(), v, path + "/" + k));
      }
      return Status::OK();
    }
    case element_type::NULL_VALUE:
      return Status::OK();
  }
  return conflict();
}

Status StreamingReader::Impl::Mismatch(const Node& node, const element& e,
                                       const std::string& path) const {
  std::string type = NodeType(node)->ToString();
  if (node.fixed) {
    return Status::Invalid(Where(), ": column ", path, ": value ", ValueText(e),
                           " does not convert to ", type, " (explicit_schema)");
  }
  return Status::Invalid(Where(), ": column ", path, ": value ", ValueText(e),
                         " does not fit type ", type, " inferred from the first ",
                         read.infer_blocks, " block(s) of ", read.block_size,
                         " bytes; infer over more blocks or give the type");
}

namespace {
template <typename T>
bool IntFits(const element& e, T* out) {
  if (e.type() == element_type::INT64) {
    int64_t v = e.get_int64().value_unsafe();
    if (v < static_cast<int64_t>(std::numeric_limits<T>::min())) return false;
    if (v >= 0 && static_cast<uint64_t>(v) > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
    *out = static_cast<T>(v);
    return true;
  }
  if (e.type() == element_type::UINT64) {
    uint64_t v = e.get_uint64().value_unsafe();
    if (v > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
    *out = static_cast<T>(v);
    return true;
  }
  return false;
}

bool AsDouble(const element& e, double* out) {
  switch (e.type()) {
    case element_type::INT64: *out = static_cast<double>(e.get_int64().value_unsafe()); return true;
    case element_type::UINT64: *out = static_cast<double>(e.get_uint64().value_unsafe()); return true;
    case element_type::DOUBLE: *out = e.get_double().value_unsafe(); return true;
    default: return false;
  }
}

template <typename T>
Status AppendInt(ArrayBuilder* b, const element& e, bool* ok) {
  T v;
  *ok = IntFits<T>(e, &v);
  return *ok ? static_cast<NumericBuilder<T>*>(b)->Append(v) : Status::OK();
}

int64_t ScaleSeconds(const csv::Timestamp& ts, TimeUnit unit, bool* ok) {
  static constexpr int64_t kPerSecond[] = {1, 1000, 1000000, 1000000000};
  int64_t per = kPerSecond[static_cast<int>(unit)];
  int64_t sub = ts.nanos / (1000000000 / per);
  if (sub * (1000000000 / per) != ts.nanos) *ok = false;  // finer than the unit
  int64_t out;
  if (__builtin_mul_overflow(ts.seconds, per, &out) || __builtin_add_overflow(out, sub, &out)) {
    *ok = false;
  }
  return out;
}
}  // namespace

Status StreamingReader::Impl::AppendFixed(const Node& node, ArrayBuilder* b, const element& e,
                                          const std::string& path) {
  bool ok = true;
  Status st;
  element_type t = e.type();
  switch (node.fixed_type->id()) {
    case Type::kNull: ok = false; break;
    case Type::kBool:
      ok = t == element_type::BOOL;
      if (ok) st = static_cast<BooleanBuilder*>(b)->Append(e.get_bool().value_unsafe());
      break;
    case Type::kInt8: st = AppendInt<int8_t>(b, e, &ok); break;
    case Type::kInt16: st = AppendInt<int16_t>(b, e, &ok); break;
    case Type::kInt32: st = AppendInt<int32_t>(b, e, &ok); break;
    case Type::kInt64: st = AppendInt<int64_t>(b, e, &ok); break;
    case Type::kUInt8: st = AppendInt<uint8_t>(b, e, &ok); break;
    case Type::kUInt16: st = AppendInt<uint16_t>(b, e, &ok); break;
    case Type::kUInt32: st = AppendInt<uint32_t>(b, e, &ok); break;
    case Type::kUInt64: st = AppendInt<uint64_t>(b, e, &ok); break;
    case Type::kFloat:
    case Type::kDouble: {
      double d;
      ok = AsDouble(e, &d);
      if (ok && node.fixed_type->id() == Type::kFloat) {
        st = static_cast<FloatBuilder*>(b)->Append(static_cast<float>(d));
      } else if (ok) {
        st = static_cast<DoubleBuilder*>(b)->Append(d);
      }
      break;
    }
    case Type::kString:
    case Type::kLargeString:
      ok = t == element_type::STRING;
      if (ok && node.fixed_type->id() == Type::kString) {
        st = static_cast<StringBuilder*>(b)->Append(e.get_string().value_unsafe());
      } else if (ok) {
        st = static_cast<LargeStringBuilder*>(b)->Append(e.get_string().value_unsafe());
      }
      break;
    case Type::kTimestamp: {
      csv::Timestamp ts;
      ok = t == element_type::STRING && csv::ParseTimestamp(e.get_string().value_unsafe(), &ts);
      if (ok) {
        int64_t v = ScaleSeconds(ts, TypeAs<TemporalType>(*node.fixed_type).unit(), &ok);
        if (ok) st = static_cast<TimestampBuilder*>(b)->Append(v);
      }
      break;
    }
    case Type::kDate32: {
      int32_t days;
      ok = t == element_type::STRING && csv::ParseDate(e.get_string().value_unsafe(), &days);
      if (ok) st = static_cast<Date32Builder*>(b)->Append(days);
      break;
    }
    default: ok = false;
  }
  QUIVER_RETURN_NOT_OK(st);
  return ok ? Status::OK() : Mismatch(node, e, path);
}

Status StreamingReader::Impl::AppendObject(Node* node, StructBuilder* b, const element& e,
                                           const std::string& path) {
  QUIVER_RETURN_NOT_OK(b->Append(true));
  std::vector<bool> seen(node->children.size(), false);
  simdjson::dom::object object_3 = e.get_object().value_unsafe();
  for (auto [key, v] : object_3) {
    auto found = node->index.find(std::string(key));
    if (found == node->index.end()) {
      if (node->fixed && parse.unexpected_field_behavior == UnexpectedFieldBehavior::kIgnore) {
        continue;
      }
      if (node->fixed && parse.unexpected_field_behavior == UnexpectedFieldBehavior::kError) {
        return Status::Invalid(Where(), ": unexpected field ", path, "/", key,
                               " (not in explicit_schema; unexpected_field_behavior='error')");
      }
      return Status::Invalid(Where(), ": field ", path, "/", key,
                             " first appears after the blocks types were inferred from (",
                             read.infer_blocks, " block(s) of ", read.block_size,
                             " bytes); infer over more blocks or give the schema");
    }
    size_t i = static_cast<size_t>(found->second);
    if (seen[i]) {
      return Status::Invalid(Where(), ": field ", path, "/", key, " is given twice in a row");
    }
    seen[i] = true;
    QUIVER_RETURN_NOT_OK(Append(node->children[i].get(), b->child(static_cast<int>(i)), v,
                                path + "/" + std::string(key)));
  }
  for (size_t i = 0; i < seen.size(); ++i) {
    if (!seen[i]) QUIVER_RETURN_NOT_OK(b->child(static_cast<int>(i))->AppendNull());
  }
  return Status::OK();
}

Status StreamingReader::Impl::Append(Node* node, ArrayBuilder* b, const element& e,
                                     const std::string& path) {
  element_type t = e.type();
  if (t == element_type::NULL_VALUE) return b->AppendNull();
  if (node->fixed_type) return AppendFixed(*node, b, e, path);
  switch (node->kind) {
    case Node::kNull: break;
    case Node::kBool:
      if (t == element_type::BOOL) {
        return static_cast<BooleanBuilder*>(b)->Append(e.get_bool().value_unsafe());
      }
      break;
    case Node::kInt:
      if (t == element_type::INT64) {
        return static_cast<Int64Builder*>(b)->Append(e.get_int64().value_unsafe());
      }
      break;
    case Node::kDouble: {
      double d;
      if (AsDouble(e, &d)) return static_cast<DoubleBuilder*>(b)->Append(d);
      break;
    }
    case Node::kString:
      if (t == element_type::STRING) {
        return static_cast<StringBuilder*>(b)->Append(e.get_string().value_unsafe());
      }
      break;
    case Node::kTimestamp: {
      int64_t secs;
      if (t == element_type::STRING && ParseSeconds(e.get_string().value_unsafe(), &secs)) {
        return static_cast<TimestampBuilder*>(b)->Append(secs);
      }
      break;
    }
    case Node::kList:
      if (t == element_type::ARRAY) {
        auto* lb = static_cast<ListBuilder*>(b);
        QUIVER_RETURN_NOT_OK(lb->Append(true));
        std::string item_path = path + "/[]";
        simdjson::dom::array array_4 = e.get_array().value_unsafe();
        for (element v : array_4) {
          QUIVER_RETURN_NOT_OK(Append(node->item.get(), lb->child(0), v, item_path));
        }
        return Status::OK();
      }
      break;
    case Node::kStruct:
      if (t == element_type::OBJECT) {
        return AppendObject(node, static_cast<StructBuilder*>(b), e, path);
      }
      break;
  }
  return Mismatch(*node, e, path);
}

StreamingReader::~StreamingReader() = default;

Result<std::unique_ptr<StreamingReader>> StreamingReader::Open(
    std::unique_ptr<io::InputStream> input, std::string name, const ReadOptions& read,
    const ParseOptions& parse, MemoryPool* pool) {
  if (read.block_size <= 0) {
    return Status::Invalid("JSON reader: block_size must be positive, got ", read.block_size);
  }
  if (read.infer_blocks == 0 || read.infer_blocks < ReadOptions::kInferAll) {
    return Status::Invalid("JSON reader: infer_blocks must be positive or kInferAll");
  }
  std::unique_ptr<StreamingReader> r(new StreamingReader());
  r->impl_ = std::make_unique<Impl>();
  Impl& im = *r->impl_;
  im.name = std::move(name);
  im.read = read;
  im.parse = parse;
  im.pool = pool;
  im.input = std::move(input);
  im.root.kind = Node::kStruct;
  if (parse.explicit_schema) {
    im.root.fixed = true;
    for (const FieldPtr& f : parse.explicit_schema->fields()) {
      QUIVER_RETURN_NOT_OK(CheckFixedType(f->type()));
      im.root.AddChild(f->name(), NodeOfType(f->type()));
    }
  }
  // Inference over the first blocks (all of them with kInferAll).
  while (read.infer_blocks == ReadOptions::kInferAll || im.blocks_inferred < read.infer_blocks) {
    Impl::Block block;
    QUIVER_ASSIGN_OR_RAISE(bool got, im.ReadBlock(&block));
    if (!got) break;
    auto infer = [&](const element& e) { return im.Infer(&im.root, e, ""); };
    Status st = im.ForEachRow(block, infer);
    if (!st.ok() && im.WidenIfBigIntegers(&block)) st = im.ForEachRow(block, infer);
    QUIVER_RETURN_NOT_OK(st);
    im.pending.push_back(std::move(block));
    ++im.blocks_inferred;
  }
  if (im.pending.empty()) {
    return Status::Invalid(im.name, ": empty JSON Lines input (no rows)");
  }
  const TypePtr root_type = NodeType(im.root);
  FieldVector fields;
  for (int i = 0; i < root_type->num_fields(); ++i) fields.push_back(root_type->field(i));
  r->schema_ = quiver::schema(std::move(fields));
  return r;
}

Result<RecordBatchPtr> StreamingReader::Next() {
  Impl& im = *impl_;
  while (true) {
    Impl::Block block;
    if (!im.pending.empty()) {
      block = std::move(im.pending.front());
      im.pending.pop_front();
    } else {
      QUIVER_ASSIGN_OR_RAISE(bool got, im.ReadBlock(&block));
      if (!got) return RecordBatchPtr();
    }
    TypePtr root_type = struct_(schema_->fields());
    QUIVER_ASSIGN_OR_RAISE(auto builder, MakeBuilder(root_type, im.pool));
    auto* sb = static_cast<StructBuilder*>(builder.get());
    auto append = [&](const element& e) { return im.AppendObject(&im.root, sb, e, ""); };
    Status st = im.ForEachRow(block, append);
    if (!st.ok() && im.WidenIfBigIntegers(&block)) {
      sb->Reset();
      st = im.ForEachRow(block, append);
    }
    QUIVER_RETURN_NOT_OK(st);
    bytes_read_ += static_cast<int64_t>(block.size);
    int64_t rows = sb->length();
    if (rows == 0) continue;
    QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr data, sb->Finish());
    rows_read_ += rows;
    return RecordBatch::Make(schema_, rows, data->children);
  }
}

Result<std::vector<RecordBatchPtr>> ReadAll(StreamingReader* reader) {
  std::vector<RecordBatchPtr> out;
  while (true) {
    QUIVER_ASSIGN_OR_RAISE(auto batch, reader->Next());
    if (!batch) return out;
    out.push_back(std::move(batch));
  }
}

}  // namespace quiver::json
