// Expression nodes, factories, printing and structural equality (see
// expression.h). Printing follows Arrow C++'s Expression::ToString
// (arrow/compute/expression.cc) and the ToString of the scalars, arrays and
// function options it calls, as pyarrow 26 shows them:
//  - a field prints its name as it is; a null literal "null[<type>]"; a
//    string literal double-quoted with \" \\ \t \r \n escaped (Arrow's
//    Escape); a binary literal its bytes in upper-case hex, quoted; a
//    float in Arrow's FloatToStringFormatter layout (double-conversion's
//    shortest digits, plain notation for exponents -6..9, else "1e+20" /
//    "1e-7"; a half float as the double it widens to); other values as
//    Arrow's PrettyPrint writes them (array/pretty_print.h);
//  - comparisons "(l op r)", and_kleene / or_kleene "(l and r)" /
//    "(l or r)", other calls "name(args, {options})": is_in's options
//    "{value_set=<type>:<array>, null_matching_behavior=MATCH|SKIP}" (the
//    array as PrettyPrint lays it out: one value per line, the first and
//    last 10 of more than 21, strings quoted but not escaped), is_null's
//    "{nan_is_null=false}".
#include "quiver/compute/expression.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "quiver/array/array.h"
#include "quiver/array/compare.h"
#include "quiver/array/pretty_print.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/util/float16.h"

namespace quiver::compute {

struct Expression::Node {
  Kind kind = Kind::kLiteral;
  std::string name;  // kField
  Scalar value;      // kLiteral
  Function function = Function::kEqual;
  std::vector<Expression> arguments;
  SetLookupOptions set_lookup;
  bool nan_is_null = false;
};

namespace {

const std::shared_ptr<const Expression::Node>& NullLiteralNode() {
  static const auto node = std::make_shared<const Expression::Node>();
  return node;
}

// ---- Values as Arrow prints them ----------------------------------------------

// Arrow's FloatToStringFormatter (double-conversion ToShortest with
// decimal_in_shortest_low -6, decimal_in_shortest_high 10,
// EMIT_POSITIVE_EXPONENT_SIGN, "inf", "nan").
template <typename T>
void AppendArrowFloat(T value, std::string* out) {
  if (std::isnan(value)) {
    *out += "nan";
    return;
  }
  if (std::signbit(value)) *out += '-';
  value = std::fabs(value);
  if (std::isinf(value)) {
    *out += "inf";
    return;
  }
  if (value == 0) {
    *out += '0';
    return;
  }
  // The shortest digits that read back exactly, and the decimal exponent.
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                    std::chars_format::scientific);
  const std::string_view text(buffer, static_cast<size_t>(result.ptr - buffer));
  const size_t e = text.find('e');
  std::string digits;
  for (size_t i = 0; i < e; ++i) {
    if (text[i] != '.') digits += text[i];
  }
  int exponent = 0;
  std::from_chars(text.data() + e + 1 + (text[e + 1] == '+' ? 1 : 0), text.data() + text.size(),
                  exponent);
  const int n = static_cast<int>(digits.size());
  if (exponent >= -6 && exponent < 10) {
    const int point = exponent + 1;  // digits before the decimal point
    if (point <= 0) {
      *out += "0.";
      out->append(static_cast<size_t>(-point), '0');
      *out += digits;
    } else if (point >= n) {
      *out += digits;
      out->append(static_cast<size_t>(point - n), '0');
    } else {
      out->append(digits, 0, static_cast<size_t>(point));
      *out += '.';
      out->append(digits, static_cast<size_t>(point), std::string::npos);
    }
    return;
  }
  *out += digits[0];
  if (n > 1) {
    *out += '.';
    out->append(digits, 1, std::string::npos);
  }
  *out += 'e';
  *out += exponent < 0 ? '-' : '+';
  *out += std::to_string(exponent < 0 ? -exponent : exponent);
}

double HalfToDouble(uint16_t bits) { return static_cast<double>(util::HalfToFloat(bits)); }

void AppendEscaped(std::string_view s, std::string* out) {
  for (char c : s) {
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\t': *out += "\\t"; break;
      case '\r': *out += "\\r"; break;
      case '\n': *out += "\\n"; break;
      default: *out += c;
    }
  }
}

void AppendHex(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : s) {
    *out += kHex[c >> 4];
    *out += kHex[c & 15];
  }
}

bool IsStringType(Type id) { return id == Type::kString || id == Type::kLargeString; }
bool IsBinaryType(Type id) {
  return id == Type::kBinary || id == Type::kLargeBinary || id == Type::kFixedSizeBinary;
}

// Slot i of a non-nested array as the value set's PrettyPrint shows it.
void AppendSlot(const ArrayData& data, int64_t i, std::string* out) {
  const Type id = data.type->id();
  if (IsStringType(id) || IsBinaryType(id) || id == Type::kFloat || id == Type::kDouble ||
      id == Type::kHalfFloat) {
    auto scalar = internal::ScalarFromArray(data, i);
    if (scalar.ok()) {
      if (IsStringType(id)) {
        *out += '"';
        *out += scalar->bytes();
        *out += '"';
      } else if (IsBinaryType(id)) {
        AppendHex(scalar->bytes(), out);
      } else if (id == Type::kFloat) {
        AppendArrowFloat(static_cast<float>(scalar->double_value()), out);
      } else if (id == Type::kHalfFloat) {
        AppendArrowFloat(HalfToDouble(scalar->half_bits()), out);
      } else {
        AppendArrowFloat(scalar->double_value(), out);
      }
      return;
    }
  }
  std::string text;
  if (AppendValueText(data, i, &text).ok()) {
    *out += text;
  } else {
    *out += "<?>";
  }
}

bool SlotIsNull(const ArrayData& data, int64_t i) {
  if (data.type->id() == Type::kNull) return true;
  return !data.IsValid(i);
}

// Arrow's PrettyPrint of a value set (indent 0, window 10).
std::string ValueSetText(const Datum& value_set) {
  if (!value_set.is_array()) return "<scalar value set>";
  const ArrayData& data = *value_set.array();
  std::string out = data.type->ToString() + ":";
  const Type id = data.type->id();
  if (id == Type::kNull) {
    out += std::to_string(data.length) + " nulls";
    return out;
  }
  if (data.type->num_fields() > 0 || id == Type::kDictionary) {
    out += PrettyPrint(*MakeArray(value_set.array()), PrettyPrintOptions::Defaults());
    return out;
  }
  if (data.length == 0) {
    out += "[]";
    return out;
  }
  constexpr int64_t kWindow = 10;
  const bool elide = data.length > 2 * kWindow + 1;
  out += "[\n";
  for (int64_t i = 0; i < data.length; ++i) {
    if (elide && i == kWindow) {
      out += "  ...\n";
      i = data.length - kWindow - 1;
      continue;
    }
    out += "  ";
    if (SlotIsNull(data, i)) {
      out += "null";
    } else {
      AppendSlot(data, i, &out);
    }
    out += i + 1 < data.length ? ",\n" : "\n";
  }
  out += "]";
  return out;
}

std::string LiteralText(const Scalar& value) {
  const TypePtr& type = value.type();
  if (!value.is_valid()) return "null[" + type->ToString() + "]";
  const Type id = type->id();
  std::string out;
  if (IsStringType(id)) {
    out += '"';
    AppendEscaped(value.bytes(), &out);
    out += '"';
  } else if (IsBinaryType(id)) {
    out += '"';
    AppendHex(value.bytes(), &out);
    out += '"';
  } else if (id == Type::kBool) {
    out = value.bool_value() ? "true" : "false";
  } else if (id == Type::kFloat) {
    AppendArrowFloat(static_cast<float>(value.double_value()), &out);
  } else if (id == Type::kDouble) {
    AppendArrowFloat(value.double_value(), &out);
  } else if (id == Type::kHalfFloat) {
    AppendArrowFloat(HalfToDouble(value.half_bits()), &out);
  } else {
    auto array = internal::ArrayFromScalar(value);
    if (!array.ok() || !AppendValueText(**array, 0, &out).ok()) out = value.ToString();
  }
  return out;
}

// A literal's equality as Arrow's Expression::Equals (NaN equals NaN).
bool LiteralEquals(const Scalar& a, const Scalar& b) {
  if (!a.type()->Equals(*b.type())) return false;
  if (a.is_valid() != b.is_valid()) return false;
  if (!a.is_valid()) return true;
  const Type id = a.type()->id();
  if (id == Type::kFloat || id == Type::kDouble) {
    if (std::isnan(a.double_value()) && std::isnan(b.double_value())) return true;
  }
  if (id == Type::kHalfFloat) {
    const double x = HalfToDouble(a.half_bits());
    const double y = HalfToDouble(b.half_bits());
    return (std::isnan(x) && std::isnan(y)) || x == y;
  }
  return a.Equals(b);
}

bool DatumEquals(const Datum& a, const Datum& b) {
  if (a.is_array() != b.is_array()) return false;
  if (a.is_scalar()) return LiteralEquals(a.scalar(), b.scalar());
  return ArrayEquals(*a.array(), *b.array());
}

}  // namespace

std::string_view FunctionName(Expression::Function function) {
  using F = Expression::Function;
  switch (function) {
    case F::kEqual: return "equal";
    case F::kNotEqual: return "not_equal";
    case F::kLess: return "less";
    case F::kLessEqual: return "less_equal";
    case F::kGreater: return "greater";
    case F::kGreaterEqual: return "greater_equal";
    case F::kAndKleene: return "and_kleene";
    case F::kOrKleene: return "or_kleene";
    case F::kInvert: return "invert";
    case F::kIsIn: return "is_in";
    case F::kIsNull: return "is_null";
    case F::kIsValid: return "is_valid";
  }
  return "?";
}

Expression::Expression() : node_(NullLiteralNode()) {}

Expression::Kind Expression::kind() const { return node_->kind; }
const std::string& Expression::field_name() const { return node_->name; }
const Scalar& Expression::literal() const { return node_->value; }
Expression::Function Expression::function() const { return node_->function; }
std::string_view Expression::function_name() const { return FunctionName(node_->function); }
const std::vector<Expression>& Expression::arguments() const { return node_->arguments; }
const SetLookupOptions& Expression::set_lookup_options() const { return node_->set_lookup; }
bool Expression::nan_is_null() const { return node_->nan_is_null; }

Expression field(std::string name) {
  auto node = std::make_shared<Expression::Node>();
  node->kind = Expression::Kind::kField;
  node->name = std::move(name);
  return Expression(std::move(node));
}

Expression literal(Scalar value) {
  auto node = std::make_shared<Expression::Node>();
  node->kind = Expression::Kind::kLiteral;
  node->value = std::move(value);
  return Expression(std::move(node));
}

Expression MakeCall(Expression::Function function, std::vector<Expression> arguments,
                    SetLookupOptions set_lookup, bool nan_is_null) {
  auto node = std::make_shared<Expression::Node>();
  node->kind = Expression::Kind::kCall;
  node->function = function;
  node->arguments = std::move(arguments);
  node->set_lookup = std::move(set_lookup);
  node->nan_is_null = nan_is_null;
  return Expression(std::move(node));
}

Expression compare(CompareOp op, Expression left, Expression right) {
  using F = Expression::Function;
  F f = F::kEqual;
  switch (op) {
    case CompareOp::kEqual: f = F::kEqual; break;
    case CompareOp::kNotEqual: f = F::kNotEqual; break;
    case CompareOp::kLess: f = F::kLess; break;
    case CompareOp::kLessEqual: f = F::kLessEqual; break;
    case CompareOp::kGreater: f = F::kGreater; break;
    case CompareOp::kGreaterEqual: f = F::kGreaterEqual; break;
  }
  return MakeCall(f, {std::move(left), std::move(right)});
}

Expression equal(Expression l, Expression r) { return compare(CompareOp::kEqual, std::move(l), std::move(r)); }
Expression not_equal(Expression l, Expression r) {
  return compare(CompareOp::kNotEqual, std::move(l), std::move(r));
}
Expression less(Expression l, Expression r) { return compare(CompareOp::kLess, std::move(l), std::move(r)); }
Expression less_equal(Expression l, Expression r) {
  return compare(CompareOp::kLessEqual, std::move(l), std::move(r));
}
Expression greater(Expression l, Expression r) {
  return compare(CompareOp::kGreater, std::move(l), std::move(r));
}
Expression greater_equal(Expression l, Expression r) {
  return compare(CompareOp::kGreaterEqual, std::move(l), std::move(r));
}
Expression and_kleene(Expression l, Expression r) {
  return MakeCall(Expression::Function::kAndKleene, {std::move(l), std::move(r)});
}
Expression or_kleene(Expression l, Expression r) {
  return MakeCall(Expression::Function::kOrKleene, {std::move(l), std::move(r)});
}
Expression invert(Expression operand) {
  return MakeCall(Expression::Function::kInvert, {std::move(operand)});
}
Expression is_in(Expression values, SetLookupOptions options) {
  return MakeCall(Expression::Function::kIsIn, {std::move(values)}, std::move(options));
}
Expression is_null(Expression operand, bool nan_is_null) {
  return MakeCall(Expression::Function::kIsNull, {std::move(operand)}, {}, nan_is_null);
}
Expression is_valid(Expression operand) {
  return MakeCall(Expression::Function::kIsValid, {std::move(operand)});
}

std::string Expression::ToString() const {
  switch (kind()) {
    case Kind::kField: return field_name();
    case Kind::kLiteral: return LiteralText(literal());
    case Kind::kCall: break;
  }
  const auto& args = arguments();
  auto binary = [&](std::string_view op) {
    return "(" + args[0].ToString() + " " + std::string(op) + " " + args[1].ToString() + ")";
  };
  switch (function()) {
    case Function::kEqual: return binary("==");
    case Function::kNotEqual: return binary("!=");
    case Function::kLess: return binary("<");
    case Function::kLessEqual: return binary("<=");
    case Function::kGreater: return binary(">");
    case Function::kGreaterEqual: return binary(">=");
    case Function::kAndKleene: return binary("and");
    case Function::kOrKleene: return binary("or");
    default: break;
  }
  std::string out(function_name());
  out += '(';
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) out += ", ";
    out += args[i].ToString();
  }
  if (function() == Function::kIsIn) {
    out += ", {value_set=" + ValueSetText(set_lookup_options().value_set) +
           ", null_matching_behavior=" + (set_lookup_options().skip_nulls ? "SKIP" : "MATCH") + "}";
  } else if (function() == Function::kIsNull) {
    out += std::string(", {nan_is_null=") + (nan_is_null() ? "true" : "false") + "}";
  }
  out += ')';
  return out;
}

bool Expression::Equals(const Expression& other) const {
  if (node_ == other.node_) return true;
  if (kind() != other.kind()) return false;
  switch (kind()) {
    case Kind::kField: return field_name() == other.field_name();
    case Kind::kLiteral: return LiteralEquals(literal(), other.literal());
    case Kind::kCall: break;
  }
  if (function() != other.function() || arguments().size() != other.arguments().size()) {
    return false;
  }
  for (size_t i = 0; i < arguments().size(); ++i) {
    if (!arguments()[i].Equals(other.arguments()[i])) return false;
  }
  if (function() == Function::kIsIn) {
    return set_lookup_options().skip_nulls == other.set_lookup_options().skip_nulls &&
           DatumEquals(set_lookup_options().value_set, other.set_lookup_options().value_set);
  }
  if (function() == Function::kIsNull) return nan_is_null() == other.nan_is_null();
  return true;
}

namespace {
void CollectFields(const Expression& e, std::vector<std::string>* out) {
  if (e.is_field()) {
    for (const auto& name : *out) {
      if (name == e.field_name()) return;
    }
    out->push_back(e.field_name());
    return;
  }
  if (e.is_call()) {
    for (const auto& arg : e.arguments()) CollectFields(arg, out);
  }
}
}  // namespace

std::vector<std::string> Expression::FieldsReferenced() const {
  std::vector<std::string> out;
  CollectFields(*this, &out);
  return out;
}

}  // namespace quiver::compute
