// The three-valued evaluation of a filter over spans of rows (pruning.h
// says what each node gives). Everything about literal typing is left to
// compute::Evaluate: a comparison node is evaluated, as written, on small
// arrays holding the spans' bounds (and a NaN), and the possible results
// of every value between the bounds follow from monotonicity: each cast
// Evaluate applies is monotone (non-decreasing), so `x < c` is true for
// some x in [lo, hi] iff it is true for lo, false for some iff false for
// hi, and so on. A kernel or cast error on the bounds gives "anything".
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "quiver/array/concatenate.h"
#include "quiver/array/nulls.h"
#include "quiver/array/record_batch.h"
#include "quiver/compute/cast.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/compute/compare.h"
#include "quiver/compute/compare_internal.h"
#include "quiver/compute/set_lookup_internal.h"
#include "quiver/parquet/pruning/span_evaluator_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {

namespace {

using compute::CompareOp;
using compute::Expression;
using F = Expression::Function;

bool IsFloatingType(const TypePtr& t) {
  const Type id = t->id();
  return id == Type::kHalfFloat || id == Type::kFloat || id == Type::kDouble;
}

bool IsComparison(F f) {
  switch (f) {
    case F::kEqual:
    case F::kNotEqual:
    case F::kLess:
    case F::kLessEqual:
    case F::kGreater:
    case F::kGreaterEqual: return true;
    default: return false;
  }
}

// Element i of a boolean result as a Possible bit.
Possible BitOf(const ArrayData& a, int64_t i) {
  if (a.IsNull(i)) return kMayBeNull;
  return bit_util::GetBit(a.buffers[1]->data(), a.offset + i) ? kMayBeTrue : kMayBeFalse;
}

Possible BitOfScalar(const Scalar& s) {
  if (!s.is_valid()) return kMayBeNull;
  if (s.type()->id() != Type::kBool) return kMayBeAnything;
  return s.bool_value() ? kMayBeTrue : kMayBeFalse;
}

Result<ArrayDataPtr> ArrayOfScalars(const std::vector<Scalar>& values, const TypePtr& type) {
  std::vector<ArrayDataPtr> pieces;
  pieces.reserve(values.size());
  for (const auto& v : values) {
    if (v.is_valid()) {
      QUIVER_ASSIGN_OR_RAISE(auto one, compute::internal::ArrayFromScalar(v));
      pieces.push_back(std::move(one));
    } else {
      QUIVER_ASSIGN_OR_RAISE(auto one, MakeArrayOfNulls(type, 1));
      pieces.push_back(std::move(one));
    }
  }
  if (pieces.empty()) return MakeArrayOfNulls(type, 0);
  return Concatenate(pieces);
}

// A bound of the statistics' type in the read type; nullopt when the cast
// is refused or fails (the side is then unbounded).
// The kinds a bound may change type within: casts inside a kind keep the
// order (a cast between kinds, numbers formatted as strings, does not).
int KindOf(const TypePtr& t) {
  const Type id = t->id();
  if (IsBinaryLike(id) || IsLargeBinaryLike(id) || IsBinaryView(id) ||
      id == Type::kFixedSizeBinary) {
    return 0;
  }
  if (id == Type::kBool) return 1;
  if (IsFloatingType(t)) return 2;
  return 3;  // integers, decimals, temporal types
}

std::optional<Scalar> CastBound(const std::optional<Scalar>& bound, const TypePtr& type) {
  if (!bound.has_value()) return std::nullopt;
  if (bound->type()->Equals(*type)) return bound;
  if (KindOf(bound->type()) != KindOf(type)) return std::nullopt;
  Result<compute::Datum> cast = compute::Cast(compute::Datum(*bound), type);
  if (!cast.ok() || !cast->is_scalar() || !cast->scalar().is_valid()) return std::nullopt;
  const Scalar& s = cast->scalar();
  if (IsFloatingType(type) && std::isnan(s.double_value())) return std::nullopt;
  return s;
}

}  // namespace

struct SpanEvaluator::FieldState {
  TypePtr type;
  bool floating = false;
  ArrayDataPtr lo, hi;  // num_spans values of `type`, null: unbounded
  std::vector<Scalar> lo_scalars, hi_scalars;
  std::vector<uint8_t> may_null, may_nan, may_value, lo_exact, hi_exact;
  bool any_nan = false;
};

SpanEvaluator::SpanEvaluator(const FilterPruner& pruner, std::vector<FieldFacts> facts,
                             int64_t num_spans)
    : pruner_(pruner), facts_(std::move(facts)), num_spans_(num_spans) {
  states_.resize(facts_.size());
}

SpanEvaluator::~SpanEvaluator() = default;

Result<std::vector<Possible>> SpanEvaluator::Run() { return Eval(pruner_.filter()); }

std::optional<size_t> SpanEvaluator::FieldIndex(const std::string& name) const {
  for (size_t i = 0; i < pruner_.fields().size(); ++i) {
    if (pruner_.fields()[i] == name) return i;
  }
  return std::nullopt;
}

Result<SpanEvaluator::FieldState*> SpanEvaluator::State(size_t field) {
  if (states_[field] != nullptr) return states_[field].get();
  const auto& summaries = *facts_[field].summaries;
  auto st = std::make_unique<FieldState>();
  st->type = pruner_.field_type(field);
  st->floating = IsFloatingType(st->type);
  const auto n = static_cast<size_t>(num_spans_);
  st->lo_scalars.reserve(n);
  st->hi_scalars.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const ColumnSummary& s = summaries[i];
    std::optional<Scalar> lo = CastBound(s.min, st->type);
    std::optional<Scalar> hi = CastBound(s.max, st->type);
    st->lo_exact.push_back(lo.has_value() && s.min_exact);
    st->hi_exact.push_back(hi.has_value() && s.max_exact);
    st->lo_scalars.push_back(lo ? *std::move(lo) : Scalar::MakeNull(st->type));
    st->hi_scalars.push_back(hi ? *std::move(hi) : Scalar::MakeNull(st->type));
    st->may_null.push_back(s.MayHaveNulls());
    const bool nan = st->floating && s.MayHaveNaN();
    st->may_nan.push_back(nan);
    st->any_nan = st->any_nan || nan;
    st->may_value.push_back(s.MayHaveValues());
  }
  QUIVER_ASSIGN_OR_RAISE(st->lo, ArrayOfScalars(st->lo_scalars, st->type));
  QUIVER_ASSIGN_OR_RAISE(st->hi, ArrayOfScalars(st->hi_scalars, st->type));
  states_[field] = std::move(st);
  return states_[field].get();
}

Result<SpanEvaluator::Results> SpanEvaluator::EvalOnValues(const Expression& e, size_t field,
                                                           const ArrayDataPtr& values) {
  auto schema = quiver::schema({quiver::field(pruner_.fields()[field], values->type)});
  QUIVER_ASSIGN_OR_RAISE(auto batch, RecordBatch::Make(schema, values->length, {values}));
  QUIVER_ASSIGN_OR_RAISE(compute::Datum out, compute::Evaluate(e, *batch));
  Results bits(static_cast<size_t>(values->length));
  if (out.is_scalar()) {
    std::fill(bits.begin(), bits.end(), BitOfScalar(out.scalar()));
    return bits;
  }
  const ArrayData& a = *out.array();
  if (a.type->id() != Type::kBool) return Status::TypeError("not a boolean result");
  for (int64_t i = 0; i < a.length; ++i) bits[static_cast<size_t>(i)] = BitOf(a, i);
  return bits;
}

Result<SpanEvaluator::Results> SpanEvaluator::EvalConstant(const Expression& e) {
  QUIVER_ASSIGN_OR_RAISE(auto batch,
                         RecordBatch::Make(quiver::schema({}), 1, std::vector<ArrayDataPtr>{}));
  QUIVER_ASSIGN_OR_RAISE(compute::Datum out, compute::Evaluate(e, *batch));
  if (out.is_scalar()) return Fill(BitOfScalar(out.scalar()));
  if (out.array()->length != 1 || out.array()->type->id() != Type::kBool) {
    return Fill(kMayBeAnything);
  }
  return Fill(BitOf(*out.array(), 0));
}

Result<SpanEvaluator::Results> SpanEvaluator::EvalOnDictionary(const Expression& e,
                                                               size_t field) {
  const FieldFacts& f = facts_[field];
  const TypePtr& type = pruner_.field_type(field);
  ArrayDataPtr values = f.dictionary;
  if (!values->type->Equals(*type)) {
    QUIVER_ASSIGN_OR_RAISE(compute::Datum cast, compute::Cast(compute::Datum(values), type));
    values = cast.array();
  }
  const bool nulls = f.summaries == nullptr || (*f.summaries)[0].MayHaveNulls();
  if (nulls) {
    QUIVER_ASSIGN_OR_RAISE(auto null, MakeArrayOfNulls(type, 1));
    QUIVER_ASSIGN_OR_RAISE(values, Concatenate({values, null}));
  }
  QUIVER_ASSIGN_OR_RAISE(Results bits, EvalOnValues(e, field, values));
  Possible p = 0;
  for (Possible b : bits) p |= b;
  return Fill(p);
}

Result<SpanEvaluator::Results> SpanEvaluator::EvalBooleanField(size_t field) {
  if (facts_[field].summaries == nullptr) return Fill(kMayBeAnything);
  QUIVER_ASSIGN_OR_RAISE(FieldState * st, State(field));
  Results out = Fill(0);
  for (size_t i = 0; i < out.size(); ++i) {
    if (st->may_value[i]) {
      const Scalar& lo = st->lo_scalars[i];
      const Scalar& hi = st->hi_scalars[i];
      if (!hi.is_valid() || hi.bool_value()) out[i] |= kMayBeTrue;
      if (!lo.is_valid() || !lo.bool_value()) out[i] |= kMayBeFalse;
    }
    if (st->may_null[i]) out[i] |= kMayBeNull;
  }
  return out;
}

SpanEvaluator::Results SpanEvaluator::EvalNullCheck(const Expression& e, size_t field) {
  if (facts_[field].summaries == nullptr) return Fill(kMayBeTrue | kMayBeFalse);
  const auto& summaries = *facts_[field].summaries;
  const bool floating = IsFloatingType(pruner_.field_type(field));
  const bool nan_is_null = e.function() == F::kIsNull && e.nan_is_null();
  Results out = Fill(0);
  for (size_t i = 0; i < out.size(); ++i) {
    const ColumnSummary& s = summaries[i];
    const bool nan = floating && s.MayHaveNaN();
    bool null_like = s.MayHaveNulls() || (nan_is_null && nan);
    bool value_like = s.MayHaveValues() || (nan && !nan_is_null);
    if (e.function() == F::kIsValid) {
      null_like = s.MayHaveNulls();
      value_like = s.MayHaveValues() || nan;
      out[i] = (value_like ? kMayBeTrue : 0) | (null_like ? kMayBeFalse : 0);
    } else {
      out[i] = (null_like ? kMayBeTrue : 0) | (value_like ? kMayBeFalse : 0);
    }
  }
  return out;
}

Result<SpanEvaluator::Results> SpanEvaluator::EvalComparison(const Expression& e, size_t field) {
  const auto& args = e.arguments();
  const bool field_left = args[0].is_field();
  const Scalar& lit = field_left ? args[1].literal() : args[0].literal();
  CompareOp op = compute::CompareOpOf(e.function());
  if (!field_left) op = compute::internal::FlipCompare(op);  // `c < x` is `x > c`
  // A null literal: every row compares to null.
  if (!lit.is_valid()) return Fill(kMayBeNull);
  if (facts_[field].summaries == nullptr) return Fill(kMayBeAnything);
  QUIVER_ASSIGN_OR_RAISE(FieldState * st, State(field));
  const std::string& name = pruner_.fields()[field];
  auto expr = [&](CompareOp o) {
    return compute::compare(o, compute::field(name), compute::literal(lit));
  };
  const Expression norm = expr(op);
  const auto n = static_cast<size_t>(num_spans_);

  // The comparisons on the bounds that the rule for `op` needs.
  Results on_lo, on_hi, eq_lo, eq_hi;
  const bool equality = op == CompareOp::kEqual || op == CompareOp::kNotEqual;
  if (equality) {
    QUIVER_ASSIGN_OR_RAISE(on_lo, EvalOnValues(expr(CompareOp::kLessEqual), field, st->lo));
    QUIVER_ASSIGN_OR_RAISE(on_hi, EvalOnValues(expr(CompareOp::kGreaterEqual), field, st->hi));
    QUIVER_ASSIGN_OR_RAISE(eq_lo, EvalOnValues(expr(CompareOp::kEqual), field, st->lo));
    QUIVER_ASSIGN_OR_RAISE(eq_hi, EvalOnValues(expr(CompareOp::kEqual), field, st->hi));
  } else {
    QUIVER_ASSIGN_OR_RAISE(on_lo, EvalOnValues(norm, field, st->lo));
    QUIVER_ASSIGN_OR_RAISE(on_hi, EvalOnValues(norm, field, st->hi));
  }
  Possible nan_bits = 0;
  if (st->any_nan) {
    QUIVER_ASSIGN_OR_RAISE(compute::Datum nan,
                           compute::Cast(compute::Datum(Scalar::MakeDouble(NAN)), st->type));
    QUIVER_ASSIGN_OR_RAISE(auto nan_array, compute::internal::ArrayFromScalar(nan.scalar()));
    QUIVER_ASSIGN_OR_RAISE(Results r, EvalOnValues(norm, field, nan_array));
    nan_bits = r[0];
  }
  // A bound's result that is not plainly true or false is taken as both.
  auto has = [](Possible bits, Possible what) { return (bits & what) != 0 || bits == kMayBeNull; };

  Results out = Fill(0);
  for (size_t i = 0; i < n; ++i) {
    const bool lo_known = st->lo->IsValid(static_cast<int64_t>(i));
    const bool hi_known = st->hi->IsValid(static_cast<int64_t>(i));
    Possible range = 0;
    if (st->may_value[i]) {
      switch (op) {
        case CompareOp::kLess:
        case CompareOp::kLessEqual:
          if (!lo_known || has(on_lo[i], kMayBeTrue)) range |= kMayBeTrue;
          if (!hi_known || !st->hi_exact[i] || has(on_hi[i], kMayBeFalse)) range |= kMayBeFalse;
          break;
        case CompareOp::kGreater:
        case CompareOp::kGreaterEqual:
          if (!hi_known || has(on_hi[i], kMayBeTrue)) range |= kMayBeTrue;
          if (!lo_known || !st->lo_exact[i] || has(on_lo[i], kMayBeFalse)) range |= kMayBeFalse;
          break;
        case CompareOp::kEqual:
        case CompareOp::kNotEqual: {
          const bool may_equal =
              (!lo_known || has(on_lo[i], kMayBeTrue)) && (!hi_known || has(on_hi[i], kMayBeTrue));
          const bool all_equal = lo_known && hi_known && st->lo_exact[i] && st->hi_exact[i] &&
                                 eq_lo[i] == kMayBeTrue && eq_hi[i] == kMayBeTrue;
          const Possible yes = may_equal ? kMayBeTrue : 0;
          const Possible no = all_equal ? 0 : kMayBeFalse;
          range = op == CompareOp::kEqual ? (yes | no) : (KleeneNot(yes) | KleeneNot(no));
          break;
        }
      }
    }
    // A bloom filter rules out `x == c` when no physical value that equals c
    // is in it.
    if (op == CompareOp::kEqual && (range & kMayBeTrue) && n == 1 &&
        facts_[field].bloom_filter != nullptr && facts_[field].physical != nullptr) {
      auto hashes = EqualityProbeHashes(norm, name, st->type, *facts_[field].physical);
      if (hashes.has_value() &&
          std::none_of(hashes->begin(), hashes->end(), [&](uint64_t h) {
            return facts_[field].bloom_filter->FindHash(h);
          })) {
        range &= static_cast<Possible>(~kMayBeTrue);
      }
    }
    out[i] = range;
    if (st->may_nan[i]) out[i] |= nan_bits;
    if (st->may_null[i]) out[i] |= kMayBeNull;
  }
  return out;
}

Result<SpanEvaluator::Results> SpanEvaluator::EvalIsIn(const Expression& e, size_t field) {
  if (facts_[field].summaries == nullptr) return Fill(kMayBeTrue | kMayBeFalse);
  const auto& options = e.set_lookup_options();
  if (!options.value_set.is_array()) return Fill(kMayBeTrue | kMayBeFalse);
  QUIVER_ASSIGN_OR_RAISE(FieldState * st, State(field));
  // Bounds and set as is_in compares them.
  const ArrayDataPtr& set_in = options.value_set.array();
  QUIVER_ASSIGN_OR_RAISE(auto lo_plan, compute::internal::PlanLookup(st->lo, set_in, DefaultMemoryPool()));
  QUIVER_ASSIGN_OR_RAISE(auto hi_plan, compute::internal::PlanLookup(st->hi, set_in, DefaultMemoryPool()));
  if (!lo_plan.set->type->Equals(*hi_plan.set->type) ||
      !lo_plan.values->type->Equals(*hi_plan.values->type)) {
    return Fill(kMayBeTrue | kMayBeFalse);
  }
  const ArrayDataPtr& set = lo_plan.set;
  const bool set_floating = IsFloatingType(set->type);
  bool set_null = false, set_nan = false;
  std::vector<Scalar> members;
  for (int64_t j = 0; j < set->length; ++j) {
    QUIVER_ASSIGN_OR_RAISE(Scalar v, compute::internal::ScalarFromArray(*set, j));
    if (!v.is_valid()) {
      set_null = true;
    } else if (set_floating && std::isnan(v.double_value())) {
      set_nan = true;
    } else {
      members.push_back(std::move(v));
    }
  }
  const auto n = static_cast<size_t>(num_spans_);
  // in_range[i]: some member lies within span i's bounds (in the lookup
  // type; an unknown bound is open).
  std::vector<uint8_t> in_range(n, 0);
  const ArrayDataPtr& lo = lo_plan.values;
  const ArrayDataPtr& hi = hi_plan.values;
  auto true_at = [](const compute::Datum& d, int64_t i) {
    return BitOf(*d.array(), i) == kMayBeTrue;
  };
  if (members.size() <= n) {
    for (const Scalar& v : members) {
      QUIVER_ASSIGN_OR_RAISE(auto le, compute::Compare(CompareOp::kLessEqual, lo, v));
      QUIVER_ASSIGN_OR_RAISE(auto ge, compute::Compare(CompareOp::kGreaterEqual, hi, v));
      for (size_t i = 0; i < n; ++i) {
        const auto k = static_cast<int64_t>(i);
        if ((lo->IsNull(k) || true_at(le, k)) && (hi->IsNull(k) || true_at(ge, k))) in_range[i] = 1;
      }
    }
  } else {
    QUIVER_ASSIGN_OR_RAISE(auto members_array, ArrayOfScalars(members, set->type));
    for (size_t i = 0; i < n; ++i) {
      const auto k = static_cast<int64_t>(i);
      std::vector<uint8_t> ok(members.size(), 1);
      for (int side = 0; side < 2; ++side) {
        const ArrayDataPtr& bound = side == 0 ? lo : hi;
        if (bound->IsNull(k)) continue;
        QUIVER_ASSIGN_OR_RAISE(Scalar b, compute::internal::ScalarFromArray(*bound, k));
        QUIVER_ASSIGN_OR_RAISE(
            auto cmp, compute::Compare(side == 0 ? CompareOp::kGreaterEqual : CompareOp::kLessEqual,
                                       members_array, b));
        for (size_t j = 0; j < members.size(); ++j) {
          if (!true_at(cmp, static_cast<int64_t>(j))) ok[j] = 0;
        }
      }
      in_range[i] = std::any_of(ok.begin(), ok.end(), [](uint8_t x) { return x != 0; });
    }
  }
  // Bloom probes need the set in the read type itself (is_in cast the set,
  // not the values).
  std::optional<std::vector<uint64_t>> hashes;
  if (n == 1 && facts_[field].bloom_filter != nullptr && facts_[field].physical != nullptr &&
      set->type->Equals(*st->type) && lo_plan.values == st->lo) {
    QUIVER_ASSIGN_OR_RAISE(auto members_array, ArrayOfScalars(members, set->type));
    hashes = SetProbeHashes(*members_array, st->type, *facts_[field].physical);
  }
  const bool same_types = lo->type->Equals(*set->type) && !set_floating;
  Results out = Fill(0);
  for (size_t i = 0; i < n; ++i) {
    const auto k = static_cast<int64_t>(i);
    Possible p = 0;
    if (st->may_value[i]) {
      if (in_range[i]) p |= kMayBeTrue;
      bool all_in = false;
      if (same_types && lo->IsValid(k) && hi->IsValid(k) && st->lo_exact[i] && st->hi_exact[i]) {
        QUIVER_ASSIGN_OR_RAISE(Scalar a, compute::internal::ScalarFromArray(*lo, k));
        QUIVER_ASSIGN_OR_RAISE(Scalar b, compute::internal::ScalarFromArray(*hi, k));
        all_in = a.Equals(b) && std::any_of(members.begin(), members.end(),
                                            [&](const Scalar& v) { return v.Equals(a); });
      }
      if (!all_in) p |= kMayBeFalse;
      if ((p & kMayBeTrue) && hashes.has_value() &&
          std::none_of(hashes->begin(), hashes->end(), [&](uint64_t h) {
            return facts_[field].bloom_filter->FindHash(h);
          })) {
        p &= static_cast<Possible>(~kMayBeTrue);
      }
    }
    if (st->may_nan[i]) p |= kMayBeFalse | (set_nan ? kMayBeTrue : 0);
    if (st->may_null[i]) p |= (set_null && !options.skip_nulls) ? kMayBeTrue : kMayBeFalse;
    out[i] = p;
  }
  return out;
}

Result<SpanEvaluator::Results> SpanEvaluator::Eval(const Expression& e) {
  if (e.is_literal()) {
    const Scalar& s = e.literal();
    if (!s.is_valid()) return Fill(kMayBeNull);
    return Fill(BitOfScalar(s));
  }
  if (e.is_field()) {
    const std::optional<size_t> f = FieldIndex(e.field_name());
    if (!f.has_value()) return Fill(kMayBeAnything);
    Result<Results> r = facts_[*f].dictionary != nullptr ? EvalOnDictionary(e, *f)
                        : pruner_.field_type(*f)->id() == Type::kBool
                            ? EvalBooleanField(*f)
                            : Result<Results>(Fill(kMayBeAnything));
    return r.ok() ? r : Fill(kMayBeAnything);
  }
  const std::vector<std::string> names = e.FieldsReferenced();
  const F function = e.function();
  if (function == F::kAndKleene || function == F::kOrKleene || function == F::kInvert) {
    if (!(names.size() == 1 && facts_[*FieldIndex(names[0])].dictionary != nullptr)) {
      QUIVER_ASSIGN_OR_RAISE(Results a, Eval(e.arguments()[0]));
      if (function == F::kInvert) {
        for (Possible& p : a) p = KleeneNot(p);
        return a;
      }
      QUIVER_ASSIGN_OR_RAISE(Results b, Eval(e.arguments()[1]));
      for (size_t i = 0; i < a.size(); ++i) {
        a[i] = function == F::kAndKleene ? KleeneAnd(a[i], b[i]) : KleeneOr(a[i], b[i]);
      }
      return a;
    }
  }
  Result<Results> r = Fill(kMayBeAnything);
  if (names.empty()) {
    r = EvalConstant(e);
  } else if (names.size() == 1) {
    const size_t f = *FieldIndex(names[0]);
    const auto& args = e.arguments();
    if (facts_[f].dictionary != nullptr) {
      r = EvalOnDictionary(e, f);
    } else if (IsComparison(function) && args.size() == 2 &&
               ((args[0].is_field() && args[1].is_literal()) ||
                (args[0].is_literal() && args[1].is_field()))) {
      r = EvalComparison(e, f);
    } else if (function == F::kIsIn && args[0].is_field()) {
      r = EvalIsIn(e, f);
    } else if ((function == F::kIsNull || function == F::kIsValid) && args[0].is_field()) {
      r = EvalNullCheck(e, f);
    }
  }
  // A node that cannot be judged (or whose judging failed) may be anything.
  return r.ok() ? r : Fill(kMayBeAnything);
}

}  // namespace quiver::parquet
