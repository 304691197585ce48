// quiver.compute's expressions (python/quiver/_compute_expression.py wraps
// these): _Expression holds a compute::Expression (expression.h); the
// factories build one from Python values (literals converted as every
// quiver.compute argument is: compute_datum.h), parse_where reads the CLI's
// --where text, and filter_by_expression filters a table or record batch
// in C++ with the GIL released.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>
#include <vector>

#include "common.h"
#include "compute_datum.h"
#include "quiver/array/concatenate.h"
#include "quiver/array/nulls.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/compute/expression.h"

namespace quiver::python {

namespace {

using compute::Expression;

Expression::Function FunctionFromName(const std::string& name) {
  using F = Expression::Function;
  for (F f : {F::kEqual, F::kNotEqual, F::kLess, F::kLessEqual, F::kGreater, F::kGreaterEqual,
              F::kAndKleene, F::kOrKleene, F::kInvert, F::kIsIn, F::kIsNull, F::kIsValid}) {
    if (compute::FunctionName(f) == name) return f;
  }
  throw nb::value_error(("unknown expression function '" + name + "'").c_str());
}

Expression Literal(nb::handle value) {
  ComputeArg arg = ComputeArgFromPy(value);
  if (arg.chunked || !arg.datum.is_scalar()) {
    throw nb::type_error("quiver.compute: an expression literal must be a scalar value, not an array");
  }
  return compute::literal(arg.datum.scalar());
}

Expression Call(const std::string& function, const std::vector<Expression>& args) {
  const Expression::Function f = FunctionFromName(function);
  const size_t arity = f == Expression::Function::kInvert || f == Expression::Function::kIsValid ||
                               f == Expression::Function::kIsNull ||
                               f == Expression::Function::kIsIn
                           ? 1
                           : 2;
  if (args.size() != arity) {
    throw nb::type_error((function + " takes " + std::to_string(arity) + " argument(s)").c_str());
  }
  return compute::MakeCall(f, args);
}

Expression IsInCall(const Expression& values, nb::handle value_set, bool skip_nulls) {
  ArrayDataPtr set = ArrayFromPy(value_set).first->data();
  return compute::is_in(values, compute::SetLookupOptions{compute::Datum(std::move(set)), skip_nulls});
}

nb::object LiteralArray(const Expression& e) {
  if (!e.is_literal()) throw nb::type_error("not a literal");
  return WrapArray(MakeArray(Unwrap(compute::internal::ArrayFromScalar(e.literal()))));
}

nb::object Kind(const Expression& e) {
  switch (e.kind()) {
    case Expression::Kind::kField: return nb::str("field");
    case Expression::Kind::kLiteral: return nb::str("literal");
    case Expression::Kind::kCall: break;
  }
  return nb::str("call");
}

Result<RecordBatchPtr> EmptyBatchOf(const SchemaPtr& schema) {
  std::vector<ArrayDataPtr> columns;
  for (const auto& f : schema->fields()) {
    QUIVER_ASSIGN_OR_RAISE(auto column, MakeArrayOfNulls(f->type(), 0));
    columns.push_back(std::move(column));
  }
  return RecordBatch::Make(schema, 0, std::move(columns));
}

// One batch holding every row of `table` (a record batch imported as a
// table has one chunk per column).
Result<RecordBatchPtr> AsOneBatch(const Table& table) {
  QUIVER_ASSIGN_OR_RAISE(auto batches, table.ToRecordBatches());
  if (batches.size() == 1) return batches[0];
  if (batches.empty()) return EmptyBatchOf(table.schema());
  std::vector<ArrayDataPtr> columns;
  for (const auto& column : table.columns()) {
    std::vector<ArrayDataPtr> chunks;
    for (const auto& chunk : column->chunks()) chunks.push_back(chunk->data());
    QUIVER_ASSIGN_OR_RAISE(auto combined, Concatenate(chunks));
    columns.push_back(std::move(combined));
  }
  return RecordBatch::Make(table.schema(), table.num_rows(), std::move(columns));
}

nb::object FilterByExpression(nb::handle data, const Expression& predicate, bool as_batch) {
  TablePtr table = TableFromPy(data);
  if (as_batch) {
    Result<RecordBatchPtr> result(Status::UnknownError("filter did not run"));
    {
      nb::gil_scoped_release release;
      result = [&]() -> Result<RecordBatchPtr> {
        QUIVER_ASSIGN_OR_RAISE(auto batch, AsOneBatch(*table));
        return compute::FilterByExpression(*batch, predicate);
      }();
    }
    return WrapRecordBatch(Unwrap(std::move(result)));
  }
  Result<TablePtr> result(Status::UnknownError("filter did not run"));
  {
    nb::gil_scoped_release release;
    result = compute::FilterByExpression(*table, predicate);
  }
  return WrapTable(Unwrap(std::move(result)));
}

}  // namespace

void BindComputeExpression(nb::module_& c) {
  nb::class_<Expression>(c, "_Expression", "A compute::Expression (quiver.compute.Expression wraps it)")
      .def("to_string", &Expression::ToString, "pyarrow's str() of the same expression")
      .def("equals", &Expression::Equals, nb::arg("other"), "Structural equality")
      .def("fields", &Expression::FieldsReferenced, "The field names read, in first-use order")
      .def_prop_ro("kind", &Kind, "'field', 'literal' or 'call'")
      .def_prop_ro("field_name", [](const Expression& e) { return e.field_name(); })
      .def_prop_ro("literal",
                   [](const Expression& e) { return WrapDatum(compute::Datum(e.literal())); },
                   "The literal's value as a quiver.Scalar")
      .def("literal_array", &LiteralArray, "The literal as a one-row quiver.Array")
      .def_prop_ro("function", [](const Expression& e) { return std::string(e.function_name()); })
      .def_prop_ro("arguments", [](const Expression& e) { return e.arguments(); })
      .def_prop_ro("value_set",
                   [](const Expression& e) {
                     return WrapArray(MakeArray(e.set_lookup_options().value_set.array()));
                   })
      .def_prop_ro("skip_nulls", [](const Expression& e) { return e.set_lookup_options().skip_nulls; })
      .def_prop_ro("nan_is_null", &Expression::nan_is_null);
  c.def("expr_field", [](const std::string& name) { return compute::field(name); }, nb::arg("name"));
  c.def("expr_literal", &Literal, nb::arg("value").none(),
        "A literal of a Python value, quiver.Scalar or pyarrow Scalar (typed as pa.scalar types it)");
  c.def("expr_call", &Call, nb::arg("function"), nb::arg("arguments"),
        "equal ... greater_equal, and_kleene, or_kleene, invert, is_valid of expressions");
  c.def("expr_is_in", &IsInCall, nb::arg("values"), nb::arg("value_set"), nb::arg("skip_nulls"));
  c.def("expr_is_null", [](const Expression& e, bool nan_is_null) { return compute::is_null(e, nan_is_null); },
        nb::arg("operand"), nb::arg("nan_is_null"));
  c.def("parse_where", [](const std::string& text) { return Unwrap(compute::ParseWhere(text)); },
        nb::arg("text"), "The CLI's --where grammar as an expression");
  c.def("filter_by_expression", &FilterByExpression, nb::arg("data"), nb::arg("predicate"),
        nb::arg("as_batch"),
        "The rows of a table / record batch where the predicate is true (GIL released)");
}

}  // namespace quiver::python
