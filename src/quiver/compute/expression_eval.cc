// Evaluate and FilterByExpression (expression.h): an expression bound to a
// batch the way Arrow C++'s Expression::Bind binds it (expression.cc,
// BindNonRecursive: exact dispatch, else the literals at their smallest
// type through the function's DispatchBest, then the literals cast to the
// chosen types), then run through the kernels. The kernels bring the
// non-literal arguments to the common type themselves (compare.cc), so only
// the literals are cast here.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "quiver/array/nulls.h"
#include "quiver/compute/boolean.h"
#include "quiver/compute/cast.h"
#include "quiver/compute/compare_internal.h"
#include "quiver/compute/expression.h"
#include "quiver/compute/filter.h"
#include "quiver/compute/null_predicates.h"
#include "quiver/compute/type_promotion.h"

namespace quiver::compute {

namespace {

using F = Expression::Function;

Result<int> FindField(const Schema& schema, const std::string& name) {
  int found = -1;
  int matches = 0;
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (schema.field(i)->name() == name) {
      found = i;
      ++matches;
    }
  }
  if (matches == 0) {
    return Status::Invalid("No match for FieldRef.Name(", name, ") in ", schema.ToString());
  }
  if (matches > 1) {
    return Status::Invalid("Multiple matches for FieldRef.Name(", name, ") in ",
                           schema.ToString());
  }
  return found;
}

// Arrow's SmallestTypeFor: the narrowest type holding a literal's value
// exactly (integers of the same signedness, float for a double that is
// one, the coarsest timestamp unit, the 32-bit-offset binary layouts).
TypePtr SmallestType(const Scalar& s) {
  const TypePtr& t = s.type();
  if (!s.is_valid()) return t;
  const Type id = t->id();
  if (IsSignedInteger(id)) {
    const int64_t v = s.int_value();
    if (v >= INT8_MIN && v <= INT8_MAX) return int8();
    if (v >= INT16_MIN && v <= INT16_MAX && id != Type::kInt8) return int16();
    if (v >= INT32_MIN && v <= INT32_MAX && id != Type::kInt8 && id != Type::kInt16) return int32();
    return t;
  }
  if (IsUnsignedInteger(id)) {
    const uint64_t v = s.uint_value();
    if (v <= UINT8_MAX) return uint8();
    if (v <= UINT16_MAX && id != Type::kUInt8) return uint16();
    if (v <= UINT32_MAX && id != Type::kUInt8 && id != Type::kUInt16) return uint32();
    return t;
  }
  if (id == Type::kDouble) {
    const double v = s.double_value();
    if (!std::isfinite(v) || static_cast<double>(static_cast<float>(v)) == v) return float32();
    return t;
  }
  if (id == Type::kLargeString) return utf8();
  if (id == Type::kLargeBinary) return binary();
  if (id == Type::kTimestamp) {
    const auto& ts = TypeAs<TemporalType>(*t);
    const int64_t v = s.int_value();
    const std::string& tz = ts.timezone();
    switch (ts.unit()) {
      case TimeUnit::kSecond: return t;
      case TimeUnit::kMilli:
        return v % 1000 == 0 ? timestamp(TimeUnit::kSecond, tz) : t;
      case TimeUnit::kMicro:
        if (v % 1000000 == 0) return timestamp(TimeUnit::kSecond, tz);
        return v % 1000 == 0 ? timestamp(TimeUnit::kMilli, tz) : t;
      case TimeUnit::kNano:
        if (v % 1000000000 == 0) return timestamp(TimeUnit::kSecond, tz);
        if (v % 1000000 == 0) return timestamp(TimeUnit::kMilli, tz);
        return v % 1000 == 0 ? timestamp(TimeUnit::kMicro, tz) : t;
    }
  }
  return t;
}

bool IsNumber(Type id) { return IsInteger(id) || id == Type::kFloat || id == Type::kDouble; }
bool IsTemporalType(Type id) {
  switch (id) {
    case Type::kDate32:
    case Type::kDate64:
    case Type::kTimestamp:
    case Type::kTime32:
    case Type::kTime64:
    case Type::kDuration: return true;
    default: return false;
  }
}

// What Arrow's exact dispatch of a comparison accepts: the same type, or
// timestamps of one unit whatever their zones (the kernel then refuses a
// zoned-naive pair).
bool ExactCompareMatch(const DataType& a, const DataType& b) {
  if (a.Equals(b)) return true;
  return a.id() == Type::kTimestamp && b.id() == Type::kTimestamp &&
         TypeAs<TemporalType>(a).unit() == TypeAs<TemporalType>(b).unit();
}

// The comparison functions' DispatchBest (Arrow scalar_compare.cc): the
// type both arguments are cast to, or nullptr when there is none.
Result<TypePtr> CompareCommonType(TypePtr a, TypePtr b) {
  if (IsDecimal(a->id()) || IsDecimal(b->id())) {
    const Type x = a->id();
    const Type y = b->id();
    if (IsFloating(x) || IsFloating(y)) return float64();
    if ((IsDecimal(x) || IsInteger(x)) && (IsDecimal(y) || IsInteger(y))) {
      QUIVER_ASSIGN_OR_RAISE(const int32_t scale, internal::CommonDecimalScale(*a, *b));
      int32_t digits = 0;  // integer digits
      for (const DataType* t : {a.get(), b.get()}) {
        digits = std::max(digits, IsDecimal(t->id()) ? TypeAs<DecimalType>(*t).precision() -
                                                           TypeAs<DecimalType>(*t).scale()
                                                     : internal::IntegerDigits(t->id()));
      }
      const bool wide = x == Type::kDecimal256 || y == Type::kDecimal256;
      return DecimalTypeSafe(wide ? Type::kDecimal256 : Type::kDecimal128, digits + scale, scale);
    }
    return TypePtr();
  }
  if (a->id() == Type::kDictionary) a = TypeAs<DictionaryType>(*a).value_type();
  if (b->id() == Type::kDictionary) b = TypeAs<DictionaryType>(*b).value_type();
  if (a->id() == Type::kNull) return b;
  if (b->id() == Type::kNull) return a;
  if (a->Equals(*b)) return a;
  if (IsNumber(a->id()) && IsNumber(b->id())) return CommonNumeric(*a, *b);
  if (IsTemporalType(a->id()) && IsTemporalType(b->id())) return CommonTemporal(*a, *b);
  if (TypePtr common = CommonBinary(*a, *b)) return common;
  return TypePtr();
}

struct Arg {
  Datum value;
  bool literal = false;
};

std::string TypeList(const std::vector<TypePtr>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i > 0) out += ", ";
    out += types[i]->ToString();
  }
  return out;
}

// The argument types pyarrow names when no kernel matches: literals at
// their smallest type.
std::vector<TypePtr> ReportedTypes(const std::vector<Arg>& args) {
  std::vector<TypePtr> types;
  for (const auto& a : args) {
    types.push_back(a.literal ? SmallestType(a.value.scalar()) : a.value.type());
  }
  return types;
}

Status NoKernel(F function, const std::vector<Arg>& args) {
  return Status::NotImplemented("Function '", FunctionName(function),
                                "' has no kernel matching input types (",
                                TypeList(ReportedTypes(args)), ")");
}

Status BindComparison(std::vector<Arg>* args) {
  Arg& l = (*args)[0];
  Arg& r = (*args)[1];
  if (ExactCompareMatch(*l.value.type(), *r.value.type())) return Status::OK();
  const std::vector<TypePtr> types = ReportedTypes(*args);
  QUIVER_ASSIGN_OR_RAISE(TypePtr common, CompareCommonType(types[0], types[1]));
  for (size_t i = 0; i < 2; ++i) {
    Arg& a = (*args)[i];
    if (!a.literal) continue;
    const TypePtr& to = common != nullptr ? common : types[i];
    if (to->Equals(*a.value.type())) continue;
    if (IsDecimal(a.value.type()->id()) && to->id() == Type::kDouble) {
      // A decimal literal against a float: Cast has no decimal -> double;
      // the decimal's text read back by strtod is the correctly rounded
      // double (Arrow's conversion for the digits a literal has).
      const Scalar& lit = a.value.scalar();
      a.value = lit.is_valid() ? Scalar::MakeDouble(std::strtod(
                                     DecimalToString(lit.decimal(),
                                                     TypeAs<DecimalType>(*lit.type()).scale())
                                         .c_str(),
                                     nullptr))
                               : Scalar::MakeNull(float64());
      continue;
    }
    QUIVER_ASSIGN_OR_RAISE(a.value, Cast(a.value, to));
  }
  return Status::OK();
}

class Evaluator {
 public:
  Evaluator(const RecordBatch& batch, const std::vector<int>& columns, MemoryPool* pool)
      : batch_(batch), columns_(columns), pool_(pool) {}

  Result<Datum> Eval(const Expression& e) {
    switch (e.kind()) {
      case Expression::Kind::kField: {
        // Every field was resolved (ResolveFields) before evaluating.
        return Datum(batch_.column_data(ColumnOf(e.field_name())));
      }
      case Expression::Kind::kLiteral: return Datum(e.literal());
      case Expression::Kind::kCall: break;
    }
    std::vector<Arg> args;
    for (const auto& a : e.arguments()) {
      QUIVER_ASSIGN_OR_RAISE(Datum v, Eval(a));
      args.push_back(Arg{std::move(v), a.is_literal()});
    }
    return Call(e, std::move(args));
  }

 private:
  int ColumnOf(const std::string& name) const {
    for (int i : columns_) {
      if (batch_.schema()->field(i)->name() == name) return i;
    }
    return -1;  // not reached: every field was resolved before
  }

  Result<Datum> Call(const Expression& e, std::vector<Arg> args) {
    const F f = e.function();
    switch (f) {
      case F::kEqual:
      case F::kNotEqual:
      case F::kLess:
      case F::kLessEqual:
      case F::kGreater:
      case F::kGreaterEqual:
        QUIVER_RETURN_NOT_OK(BindComparison(&args));
        return Compare(CompareOpOf(f), args[0].value, args[1].value, pool_);
      case F::kAndKleene:
      case F::kOrKleene:
        for (const auto& a : args) {
          if (a.value.type()->id() != Type::kBool) return NoKernel(f, args);
        }
        return f == F::kAndKleene ? AndKleene(args[0].value, args[1].value, pool_)
                                  : OrKleene(args[0].value, args[1].value, pool_);
      case F::kInvert:
        if (args[0].value.type()->id() != Type::kBool) return NoKernel(f, args);
        return Invert(args[0].value, pool_);
      case F::kIsIn:
        if (!e.set_lookup_options().value_set.is_array()) {
          return Status::Invalid("is_in: the value set must be an array");
        }
        return IsIn(args[0].value, e.set_lookup_options(), pool_);
      case F::kIsNull: return IsNull(args[0].value, e.nan_is_null(), pool_);
      case F::kIsValid: return IsValid(args[0].value, pool_);
    }
    return Status::Invalid("unknown function");
  }

  const RecordBatch& batch_;
  const std::vector<int>& columns_;
  MemoryPool* pool_;
};

// The columns the expression reads, resolved against the schema (pyarrow's
// first missing field is the error).
Result<std::vector<int>> ResolveFields(const Expression& expr, const Schema& schema) {
  std::vector<int> columns;
  for (const auto& name : expr.FieldsReferenced()) {
    QUIVER_ASSIGN_OR_RAISE(const int index, FindField(schema, name));
    columns.push_back(index);
  }
  return columns;
}

Result<Datum> EvaluateResolved(const Expression& expr, const RecordBatch& batch,
                               const std::vector<int>& columns, MemoryPool* pool) {
  Evaluator evaluator(batch, columns, pool);
  return evaluator.Eval(expr);
}

// pyarrow binds before it reads data: errors of types and literals come
// first. Running on zero rows raises exactly those.
Status CheckBinding(const Expression& expr, const RecordBatch& batch,
                    const std::vector<int>& columns, MemoryPool* pool) {
  RecordBatchPtr empty = batch.Slice(0, 0);
  return EvaluateResolved(expr, *empty, columns, pool).status();
}

Status CheckPredicateType(const Expression& predicate, const Schema& schema,
                          const std::vector<int>& columns) {
  TypePtr type = boolean();
  if (predicate.is_literal()) type = predicate.literal().type();
  if (predicate.is_field()) type = schema.field(columns[0])->type();
  if (type->id() != Type::kBool) {
    return Status::TypeError("Filter expression must evaluate to bool, but ",
                             predicate.ToString(), " evaluates to ", type->ToString());
  }
  return Status::OK();
}

Result<RecordBatchPtr> FilterResolved(const RecordBatch& batch, const Expression& predicate,
                                      const std::vector<int>& columns, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(Datum mask, EvaluateResolved(predicate, batch, columns, pool));
  if (mask.is_scalar()) {
    const Scalar& s = mask.scalar();
    const bool keep = s.is_valid() && s.bool_value();
    return batch.Slice(0, keep ? batch.num_rows() : 0);
  }
  return Filter(batch, mask.array(), FilterOptions::Defaults(), pool);
}

Result<RecordBatchPtr> EmptyBatch(const SchemaPtr& schema) {
  std::vector<ArrayDataPtr> columns;
  for (const auto& f : schema->fields()) {
    QUIVER_ASSIGN_OR_RAISE(auto column, MakeArrayOfNulls(f->type(), 0));
    columns.push_back(std::move(column));
  }
  return RecordBatch::Make(schema, 0, std::move(columns));
}

}  // namespace

CompareOp CompareOpOf(Expression::Function f) {
  switch (f) {
    case Expression::Function::kNotEqual: return CompareOp::kNotEqual;
    case Expression::Function::kLess: return CompareOp::kLess;
    case Expression::Function::kLessEqual: return CompareOp::kLessEqual;
    case Expression::Function::kGreater: return CompareOp::kGreater;
    case Expression::Function::kGreaterEqual: return CompareOp::kGreaterEqual;
    default: return CompareOp::kEqual;
  }
}

Result<Datum> Evaluate(const Expression& expr, const RecordBatch& batch, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(const std::vector<int> columns, ResolveFields(expr, *batch.schema()));
  if (batch.num_rows() > 0) QUIVER_RETURN_NOT_OK(CheckBinding(expr, batch, columns, pool));
  return EvaluateResolved(expr, batch, columns, pool);
}

Result<RecordBatchPtr> FilterByExpression(const RecordBatch& batch, const Expression& predicate,
                                          MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(const std::vector<int> columns,
                         ResolveFields(predicate, *batch.schema()));
  QUIVER_RETURN_NOT_OK(CheckBinding(predicate, batch, columns, pool));
  QUIVER_RETURN_NOT_OK(CheckPredicateType(predicate, *batch.schema(), columns));
  return FilterResolved(batch, predicate, columns, pool);
}

Result<TablePtr> FilterByExpression(const Table& table, const Expression& predicate,
                                    MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(const std::vector<int> columns,
                         ResolveFields(predicate, *table.schema()));
  QUIVER_ASSIGN_OR_RAISE(auto batches, table.ToRecordBatches());
  {
    QUIVER_ASSIGN_OR_RAISE(RecordBatchPtr sample, EmptyBatch(table.schema()));
    QUIVER_RETURN_NOT_OK(CheckBinding(predicate, *sample, columns, pool));
  }
  QUIVER_RETURN_NOT_OK(CheckPredicateType(predicate, *table.schema(), columns));
  std::vector<RecordBatchPtr> filtered;
  filtered.reserve(batches.size());
  for (const auto& batch : batches) {
    QUIVER_ASSIGN_OR_RAISE(auto out, FilterResolved(*batch, predicate, columns, pool));
    filtered.push_back(std::move(out));
  }
  return Table::FromRecordBatches(table.schema(), filtered);
}

}  // namespace quiver::compute
