// ParseWhere: the CLI's --where grammar (docs/interfaces.md) into an
// Expression, recursive descent over a small tokenizer:
//
//   where      := or
//   or         := and ("or" and)*                    left-associative
//   and        := not ("and" not)*
//   not        := "not" not | predicate
//   predicate  := operand [ op operand | "in" list | "not" "in" list
//                          | "is" ["not"] "null" ]
//   operand    := name | "quoted name" | literal | "(" or ")"
//   op         := "=" | "==" | "!=" | "<" | "<=" | ">" | ">="
//   list       := "(" [literal ("," literal)*] ")"
//   literal    := ["-"|"+"] integer | ["-"|"+"] float | 'string' | true
//                 | false | null | date 'YYYY-MM-DD'
//                 | timestamp 'YYYY-MM-DD HH:MM:SS[.ffffff]'
//
// Keywords are case-insensitive; a name that is a keyword, or holds other
// characters than letters, digits, '_' and '.', is written in double quotes
// ("" is a quote inside). In a string '' is a quote. Literals take the
// types pyarrow gives the same Python values (pa.scalar, pa.array for the
// lists): int64 (a value outside it is an error, as pyarrow's
// OverflowError), double, string, bool, null, date32, timestamp[us]; a list
// of integers and floats is double, a list of nulls the null type, other
// mixes are refused. So the result equals
// pyarrow.parquet.filters_to_expression of the same predicate: `a = 1 and
// b in (2, 3)` is and_kleene(equal(a, 1), is_in(b, [2, 3])), `not in` is
// invert(is_in(...)), `is null` is is_null(a, nan_is_null=false) and `is
// not null` is is_valid(a). Errors: Invalid "--where: <what> at column
// <n>", n counting bytes of the text from 1.
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "quiver/array/concatenate.h"
#include "quiver/array/nulls.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/compute/expression.h"

namespace quiver::compute {

namespace {

enum class Tok : uint8_t { kName, kQuotedName, kString, kNumber, kOp, kLParen, kRParen, kComma, kEnd };

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;  // names: the name; strings: the value; ops: the operator
  int column = 1;
};

Status SyntaxError(int column, const std::string& what) {
  return Status::Invalid("--where: ", what, " at column ", column);
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

Result<std::vector<Token>> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (true) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    Token t;
    t.column = static_cast<int>(i) + 1;
    if (i == text.size()) {
      tokens.push_back(t);
      return tokens;
    }
    const char c = text[i];
    if (c == '(' || c == ')' || c == ',') {
      t.kind = c == '(' ? Tok::kLParen : c == ')' ? Tok::kRParen : Tok::kComma;
      t.text = std::string(1, c);
      ++i;
    } else if (c == '=' || c == '<' || c == '>' || c == '!') {
      const bool two = i + 1 < text.size() && text[i + 1] == '=';
      if (c == '!' && !two) return SyntaxError(t.column, "unexpected '!' (did you mean '!='?)");
      t.kind = Tok::kOp;
      t.text = std::string(text.substr(i, two ? 2 : 1));
      i += two ? 2 : 1;
    } else if (c == '\'' || c == '"') {
      t.kind = c == '\'' ? Tok::kString : Tok::kQuotedName;
      ++i;
      bool closed = false;
      while (i < text.size()) {
        if (text[i] == c) {
          if (i + 1 < text.size() && text[i + 1] == c) {
            t.text += c;
            i += 2;
            continue;
          }
          ++i;
          closed = true;
          break;
        }
        t.text += text[i++];
      }
      if (!closed) {
        return SyntaxError(t.column, c == '\'' ? "unterminated string" : "unterminated quoted name");
      }
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+') {
      size_t j = i;
      if (c == '-' || c == '+') ++j;
      const size_t digits_start = j;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '.' ||
                                 ((text[j] == '-' || text[j] == '+') &&
                                  (text[j - 1] == 'e' || text[j - 1] == 'E')))) {
        ++j;
      }
      if (j == digits_start) {
        return SyntaxError(t.column, "expected a number after '" + std::string(1, c) + "'");
      }
      t.kind = Tok::kNumber;
      t.text = std::string(text.substr(i, j - i));
      i = j;
    } else if (IsNameStart(c)) {
      size_t j = i;
      while (j < text.size() && IsNameChar(text[j])) ++j;
      t.kind = Tok::kName;
      t.text = std::string(text.substr(i, j - i));
      i = j;
    } else {
      return SyntaxError(t.column, "unexpected character '" + std::string(1, c) + "'");
    }
    tokens.push_back(std::move(t));
  }
}

// Days since 1970-01-01 of a civil date (H. Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool ParseFixedDigits(std::string_view s, size_t at, size_t n, int* out) {
  if (at + n > s.size()) return false;
  int v = 0;
  for (size_t k = at; k < at + n; ++k) {
    if (!std::isdigit(static_cast<unsigned char>(s[k]))) return false;
    v = v * 10 + (s[k] - '0');
  }
  *out = v;
  return true;
}

// "YYYY-MM-DD" at the start of s: the day number (Python's date range,
// years 1..9999).
bool ParseDate(std::string_view s, int64_t* days) {
  int y = 0, m = 0, d = 0;
  if (s.size() < 10 || !ParseFixedDigits(s, 0, 4, &y) || s[4] != '-' ||
      !ParseFixedDigits(s, 5, 2, &m) || s[7] != '-' || !ParseFixedDigits(s, 8, 2, &d)) {
    return false;
  }
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > kDays[m - 1] + (m == 2 && leap ? 1 : 0)) return false;
  *days = DaysFromCivil(y, m, d);
  return true;
}

// "YYYY-MM-DD HH:MM:SS[.ffffff]" (or a 'T' between): microseconds since
// the epoch.
bool ParseTimestamp(std::string_view s, int64_t* micros) {
  int64_t days = 0;
  int hh = 0, mm = 0, ss = 0;
  if (s.size() < 19 || !ParseDate(s.substr(0, 10), &days) || (s[10] != ' ' && s[10] != 'T') ||
      !ParseFixedDigits(s, 11, 2, &hh) || s[13] != ':' || !ParseFixedDigits(s, 14, 2, &mm) ||
      s[16] != ':' || !ParseFixedDigits(s, 17, 2, &ss) || hh > 23 || mm > 59 || ss > 59) {
    return false;
  }
  int64_t fraction = 0;
  if (s.size() > 19) {
    if (s[19] != '.' || s.size() == 20 || s.size() > 26) return false;
    int64_t scale = 1000000;
    for (size_t k = 20; k < s.size(); ++k) {
      if (!std::isdigit(static_cast<unsigned char>(s[k]))) return false;
      scale /= 10;
      fraction += (s[k] - '0') * scale;
    }
  }
  *micros = ((days * 24 + hh) * 60 + mm) * 60 * 1000000 + ss * int64_t{1000000} + fraction;
  return true;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<Expression> ParseAll() {
    if (Peek().kind == Tok::kEnd) return SyntaxError(Peek().column, "empty expression");
    QUIVER_ASSIGN_OR_RAISE(Expression e, ParseOr());
    if (Peek().kind != Tok::kEnd) return Unexpected("'and', 'or' or the end");
    return e;
  }

 private:
  const Token& Peek(size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token& Next() { return tokens_[std::min(pos_++, tokens_.size() - 1)]; }
  bool IsKeyword(const Token& t, std::string_view word) const {
    return t.kind == Tok::kName && Lower(t.text) == word;
  }
  Status Unexpected(const std::string& expected) const {
    const Token& t = Peek();
    if (t.kind == Tok::kEnd) return SyntaxError(t.column, "expected " + expected + ", found the end");
    const std::string shown = t.kind == Tok::kString       ? "'" + t.text + "'"
                              : t.kind == Tok::kQuotedName ? "\"" + t.text + "\""
                                                           : "'" + t.text + "'";
    return SyntaxError(t.column, "expected " + expected + ", found " + shown);
  }

  Result<Expression> ParseOr() {
    QUIVER_ASSIGN_OR_RAISE(Expression left, ParseAnd());
    while (IsKeyword(Peek(), "or")) {
      Next();
      QUIVER_ASSIGN_OR_RAISE(Expression right, ParseAnd());
      left = or_kleene(std::move(left), std::move(right));
    }
    return left;
  }

  Result<Expression> ParseAnd() {
    QUIVER_ASSIGN_OR_RAISE(Expression left, ParseNot());
    while (IsKeyword(Peek(), "and")) {
      Next();
      QUIVER_ASSIGN_OR_RAISE(Expression right, ParseNot());
      left = and_kleene(std::move(left), std::move(right));
    }
    return left;
  }

  Result<Expression> ParseNot() {
    if (IsKeyword(Peek(), "not")) {
      Next();
      QUIVER_ASSIGN_OR_RAISE(Expression operand, ParseNot());
      return invert(std::move(operand));
    }
    return ParsePredicate();
  }

  Result<Expression> ParsePredicate() {
    QUIVER_ASSIGN_OR_RAISE(Expression left, ParseOperand());
    const Token& t = Peek();
    if (t.kind == Tok::kOp) {
      const std::string op = Next().text;
      QUIVER_ASSIGN_OR_RAISE(Expression right, ParseOperand("a value after '" + op + "'"));
      CompareOp cmp = CompareOp::kEqual;
      if (op == "!=") cmp = CompareOp::kNotEqual;
      if (op == "<") cmp = CompareOp::kLess;
      if (op == "<=") cmp = CompareOp::kLessEqual;
      if (op == ">") cmp = CompareOp::kGreater;
      if (op == ">=") cmp = CompareOp::kGreaterEqual;
      return compare(cmp, std::move(left), std::move(right));
    }
    if (IsKeyword(t, "in")) {
      Next();
      return ParseInList(std::move(left));
    }
    if (IsKeyword(t, "not") && IsKeyword(Peek(1), "in")) {
      Next();
      Next();
      QUIVER_ASSIGN_OR_RAISE(Expression in, ParseInList(std::move(left)));
      return invert(std::move(in));
    }
    if (IsKeyword(t, "is")) {
      Next();
      const bool negated = IsKeyword(Peek(), "not");
      if (negated) Next();
      if (!IsKeyword(Peek(), "null")) return Unexpected(negated ? "'null'" : "'null' or 'not null'");
      Next();
      return negated ? is_valid(std::move(left)) : is_null(std::move(left));
    }
    return left;
  }

  Result<Expression> ParseOperand(const std::string& expected = "a name, a value or '('") {
    const Token& t = Peek();
    if (t.kind == Tok::kLParen) {
      Next();
      QUIVER_ASSIGN_OR_RAISE(Expression inner, ParseOr());
      if (Peek().kind != Tok::kRParen) return Unexpected("')'");
      Next();
      return inner;
    }
    if (t.kind == Tok::kQuotedName) return field(Next().text);
    if (t.kind == Tok::kName && !IsLiteralStart(t)) {
      const std::string word = Lower(t.text);
      if (word == "and" || word == "or" || word == "not" || word == "in" || word == "is") {
        return Unexpected(expected);
      }
      return field(Next().text);
    }
    if (IsLiteralStart(t)) {
      QUIVER_ASSIGN_OR_RAISE(Scalar value, ParseLiteral());
      return literal(std::move(value));
    }
    return Unexpected(expected);
  }

  bool IsLiteralStart(const Token& t) const {
    if (t.kind == Tok::kString || t.kind == Tok::kNumber) return true;
    if (t.kind != Tok::kName) return false;
    const std::string word = Lower(t.text);
    if (word == "true" || word == "false" || word == "null") return true;
    // (`t` is always the next token: Peek(1) is the one after it.)
    return (word == "date" || word == "timestamp") && Peek(1).kind == Tok::kString;
  }

  Result<Scalar> ParseLiteral() {
    const Token t = Next();
    if (t.kind == Tok::kString) return Scalar::MakeBytes(utf8(), t.text);
    if (t.kind == Tok::kNumber) return ParseNumber(t);
    const std::string word = Lower(t.text);
    if (word == "true" || word == "false") return Scalar::MakeBool(word == "true");
    if (word == "null") return Scalar();
    const Token value = Next();  // the string after date / timestamp
    if (word == "date") {
      int64_t days = 0;
      if (value.text.size() != 10 || !ParseDate(value.text, &days)) {
        return SyntaxError(value.column, "invalid date '" + value.text + "' (expected YYYY-MM-DD)");
      }
      return Scalar::MakeInt(date32(), days);
    }
    int64_t micros = 0;
    if (!ParseTimestamp(value.text, &micros)) {
      return SyntaxError(value.column, "invalid timestamp '" + value.text +
                                           "' (expected YYYY-MM-DD HH:MM:SS[.ffffff])");
    }
    return Scalar::MakeInt(timestamp(TimeUnit::kMicro), micros);
  }

  static Result<Scalar> ParseNumber(const Token& t) {
    const std::string& s = t.text;
    const bool is_float = s.find_first_of(".eE") != std::string::npos;
    if (!is_float) {
      const size_t start = s[0] == '+' ? 1 : 0;
      int64_t v = 0;
      const auto r = std::from_chars(s.data() + start, s.data() + s.size(), v);
      if (r.ec == std::errc::result_out_of_range) {
        return SyntaxError(t.column, "integer " + s + " out of the int64 range");
      }
      if (r.ec != std::errc() || r.ptr != s.data() + s.size()) {
        return SyntaxError(t.column, "invalid number '" + s + "'");
      }
      return Scalar::MakeInt64(v);
    }
    // strtod reads hex and "inf" too: accept only decimal digits, one '.'
    // and an exponent.
    size_t k = s[0] == '-' || s[0] == '+' ? 1 : 0;
    size_t mantissa_digits = 0;
    while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k, ++mantissa_digits;
    if (k < s.size() && s[k] == '.') {
      ++k;
      while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k, ++mantissa_digits;
    }
    bool ok = mantissa_digits > 0;
    if (ok && k < s.size() && (s[k] == 'e' || s[k] == 'E')) {
      ++k;
      if (k < s.size() && (s[k] == '-' || s[k] == '+')) ++k;
      size_t exp_digits = 0;
      while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k, ++exp_digits;
      ok = exp_digits > 0;
    }
    if (!ok || k != s.size()) return SyntaxError(t.column, "invalid number '" + s + "'");
    return Scalar::MakeDouble(std::strtod(s.c_str(), nullptr));
  }

  // "(" literal, ... ")" after `in`: the value set typed as pa.array types
  // the same Python list.
  Result<Expression> ParseInList(Expression values) {
    if (Peek().kind != Tok::kLParen) return Unexpected("'(' after 'in'");
    Next();
    std::vector<Scalar> items;
    std::vector<int> columns;
    if (Peek().kind != Tok::kRParen) {
      while (true) {
        if (!IsLiteralStart(Peek())) return Unexpected("a value in the list");
        columns.push_back(Peek().column);
        QUIVER_ASSIGN_OR_RAISE(Scalar item, ParseLiteral());
        items.push_back(std::move(item));
        if (Peek().kind == Tok::kComma) {
          Next();
          continue;
        }
        if (Peek().kind == Tok::kRParen) break;
        return Unexpected("',' or ')'");
      }
    }
    Next();  // ')'
    QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr set, ValueSet(items, columns));
    return is_in(std::move(values), SetLookupOptions{Datum(std::move(set)), false});
  }

  static Result<ArrayDataPtr> ValueSet(std::vector<Scalar> items, const std::vector<int>& columns) {
    // The type: the first non-null item's, with integers and floats mixing
    // as double.
    TypePtr type = null();
    for (size_t i = 0; i < items.size(); ++i) {
      const TypePtr& t = items[i].type();
      if (t->id() == Type::kNull) continue;
      if (type->id() == Type::kNull || type->Equals(*t)) {
        type = t;
        continue;
      }
      const bool numbers = (type->id() == Type::kInt64 || type->id() == Type::kDouble) &&
                           (t->id() == Type::kInt64 || t->id() == Type::kDouble);
      if (numbers) {
        type = float64();
        continue;
      }
      return SyntaxError(columns[i], "the list mixes " + type->ToString() + " and " +
                                         t->ToString() + " values");
    }
    if (type->id() == Type::kNull) return MakeArrayOfNulls(null(), static_cast<int64_t>(items.size()));
    std::vector<ArrayDataPtr> pieces;
    for (size_t i = 0; i < items.size(); ++i) {
      Scalar& item = items[i];
      if (!item.is_valid()) {
        item = Scalar::MakeNull(type);
      } else if (!item.type()->Equals(*type)) {  // an integer in a double list
        const int64_t v = item.int_value();
        constexpr int64_t kExact = int64_t{1} << 53;
        if (v > kExact || v < -kExact) {  // pa.array's check
          return SyntaxError(columns[i], "Integer value " + std::to_string(v) +
                                             " is outside of the range exactly representable by "
                                             "a IEEE 754 double precision value");
        }
        item = Scalar::MakeDouble(static_cast<double>(v));
      }
      QUIVER_ASSIGN_OR_RAISE(auto one, internal::ArrayFromScalar(item));
      pieces.push_back(std::move(one));
    }
    return Concatenate(pieces);
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

}  // namespace

Result<Expression> ParseWhere(std::string_view text) {
  QUIVER_ASSIGN_OR_RAISE(std::vector<Token> tokens, Tokenize(text));
  Parser parser(std::move(tokens));
  return parser.ParseAll();
}

}  // namespace quiver::compute
