// Filter expressions: the predicate a reader or Table.filter evaluates, with
// pyarrow.compute.Expression's shape, printing and evaluation rules (Arrow
// C++ arrow/compute/expression.h), limited to what a row filter needs:
//
//   field("a")                    a top-level column by name
//   literal(Scalar)               a typed value (a null literal too)
//   equal / not_equal / less / less_equal / greater / greater_equal (a, b)
//   and_kleene / or_kleene (a, b), invert(a)
//   is_in(a, SetLookupOptions{value_set, skip_nulls})
//   is_null(a, nan_is_null), is_valid(a)
//
// An Expression is immutable; copies share their nodes. ToString prints what
// pyarrow prints for the same expression ("(a < 10)", "((a < 10) and (b ==
// \"x\"))", "invert(is_in(a, {value_set=int64:[\n  1\n],
// null_matching_behavior=MATCH}))", "is_null(a, {nan_is_null=false})").
// Equals is structural (a NaN literal equals a NaN literal, as Arrow's).
//
// Evaluate binds the expression to a batch as Arrow's Expression::Bind does
// before running the kernels of compare.h, boolean.h, set_lookup.h and
// null_predicates.h:
//  - every field is looked up first: a missing one is Invalid "No match for
//    FieldRef.Name(x) in <schema>" (pyarrow's ArrowInvalid), a name held by
//    several fields Invalid "Multiple matches for FieldRef.Name(x) in ...";
//  - a call whose argument types differ (a comparison, and_kleene, ...)
//    takes each literal at its smallest type (5 -> int8, 1.5 -> float,
//    timestamp[us] of whole seconds -> timestamp[s]), picks pyarrow's
//    common type from those (DispatchBest: decimals with integers as
//    decimals, decimals with floats as float64, dictionaries decoded, then
//    CommonNumeric / CommonTemporal / CommonBinary) and casts the literal,
//    as given, to it (a safe cast, whose errors are the call's). So
//    `int32_column == 1.5` compares in float32 and is Invalid for a value
//    past 2^24, `decimal128(10, 2) == 2` is pyarrow's precision error, and
//    `string_column < 5` is NotImplemented "(string, int8)", as in pyarrow;
//  - type errors come before data errors: the expression is first run on
//    zero rows (pyarrow raises these while binding, before reading data).
// FilterByExpression keeps the rows where the predicate is true (null
// drops the row), as pyarrow's Table.filter(Expression); a predicate that
// is not boolean is TypeError "Filter expression must evaluate to bool, but
// <expr> evaluates to <type>".
//
// ParseWhere reads the CLI's --where grammar (docs/interfaces.md) into an
// Expression equal to what pyarrow.parquet.filters_to_expression builds for
// the same predicate (`not in` is invert(is_in(...))). See expression_parse.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/array/record_batch.h"
#include "quiver/array/scalar.h"
#include "quiver/compute/compare.h"
#include "quiver/compute/datum.h"
#include "quiver/compute/set_lookup.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute {

class Expression {
 public:
  enum class Kind : uint8_t { kField, kLiteral, kCall };
  // The functions a call may name (pyarrow's names: CallName()).
  enum class Function : uint8_t {
    kEqual,
    kNotEqual,
    kLess,
    kLessEqual,
    kGreater,
    kGreaterEqual,
    kAndKleene,
    kOrKleene,
    kInvert,
    kIsIn,
    kIsNull,
    kIsValid,
  };

  // A null literal of the null type (pyarrow's `pc.scalar(None)`).
  Expression();

  Kind kind() const;
  bool is_field() const { return kind() == Kind::kField; }
  bool is_literal() const { return kind() == Kind::kLiteral; }
  bool is_call() const { return kind() == Kind::kCall; }

  // kField: the column name.
  const std::string& field_name() const;
  // kLiteral: the value.
  const Scalar& literal() const;
  // kCall: the function, its pyarrow name, its arguments and options.
  Function function() const;
  std::string_view function_name() const;
  const std::vector<Expression>& arguments() const;
  const SetLookupOptions& set_lookup_options() const;  // kIsIn
  bool nan_is_null() const;                            // kIsNull

  // pyarrow's str(expression).
  std::string ToString() const;
  // Structural equality.
  bool Equals(const Expression& other) const;
  friend bool operator==(const Expression& a, const Expression& b) { return a.Equals(b); }
  // The field names the expression reads, each once, in first-use order.
  std::vector<std::string> FieldsReferenced() const;

  struct Node;

 private:
  explicit Expression(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  friend Expression field(std::string name);
  friend Expression literal(Scalar value);
  friend Expression MakeCall(Function function, std::vector<Expression> arguments,
                             SetLookupOptions set_lookup, bool nan_is_null);
  std::shared_ptr<const Node> node_;
};

// pyarrow's name of a function ("equal", "and_kleene", "is_in", ...).
std::string_view FunctionName(Expression::Function function);
// The CompareOp of a comparison function (kEqual for any other).
CompareOp CompareOpOf(Expression::Function function);

Expression field(std::string name);
Expression literal(Scalar value);
Expression compare(CompareOp op, Expression left, Expression right);
Expression equal(Expression left, Expression right);
Expression not_equal(Expression left, Expression right);
Expression less(Expression left, Expression right);
Expression less_equal(Expression left, Expression right);
Expression greater(Expression left, Expression right);
Expression greater_equal(Expression left, Expression right);
Expression and_kleene(Expression left, Expression right);
Expression or_kleene(Expression left, Expression right);
Expression invert(Expression operand);
// `options.value_set` must be an array (an Expression holding a scalar
// value set is refused by Evaluate).
Expression is_in(Expression values, SetLookupOptions options);
Expression is_null(Expression operand, bool nan_is_null = false);
Expression is_valid(Expression operand);
// The generic constructor the factories above use.
Expression MakeCall(Expression::Function function, std::vector<Expression> arguments,
                    SetLookupOptions set_lookup = {}, bool nan_is_null = false);

// The expression's value over the batch's rows: a boolean array of
// num_rows rows, or a Scalar when it reads no field (see the top of this
// file for the binding rules and errors).
Result<Datum> Evaluate(const Expression& expr, const RecordBatch& batch,
                       MemoryPool* pool = DefaultMemoryPool());

// The rows where `predicate` is true, in order (a null drops the row).
Result<RecordBatchPtr> FilterByExpression(const RecordBatch& batch, const Expression& predicate,
                                          MemoryPool* pool = DefaultMemoryPool());
// A table batch by batch (its chunking kept, as pyarrow's); the predicate
// is checked against the schema even when the table has no rows.
Result<TablePtr> FilterByExpression(const Table& table, const Expression& predicate,
                                    MemoryPool* pool = DefaultMemoryPool());

// The --where grammar (docs/interfaces.md, expression_parse.cc). Invalid
// "--where: <what> at column <n>" for a syntax error (columns count bytes
// from 1).
Result<Expression> ParseWhere(std::string_view text);

}  // namespace quiver::compute
