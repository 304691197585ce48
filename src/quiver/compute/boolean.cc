// Boolean kernels (see boolean.h). Plain and/or/xor: the values through
// BitmapBinary (bitmap_simd_internal.h: AVX2 / AVX-512 word loops at the
// active SIMD level, util/bitmap.h's loops otherwise) at any bit offset,
// the validity the AND of the inputs'. Kleene and/or (Arrow C++'s scalar_boolean.cc truth
// tables): a word at a time,
//   and: valid = (lv & rv) | (lv & ~l) | (rv & ~r), value = l & r
//   or:  valid = (lv & rv) | (lv & l)  | (rv & r),  value = l | r
// (a known false decides an AND, a known true an OR); the value bits are
// right wherever the slot is valid.
#include "quiver/compute/boolean.h"

#include <string>
#include <utility>

#include "quiver/compute/bitmap_simd_internal.h"
#include "quiver/compute/boolean_internal.h"
#include "quiver/compute/simd_level.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute {

namespace {

using internal::BitmapBinary;
using internal::BitOp;
using internal::BitsAtZero;
using internal::FillBitmap;
using internal::MakeBooleanArray;
using internal::NewBitmap;
using internal::ValidityAtZero;
using internal::WordAt;

enum class Op : uint8_t { kAnd, kOr, kXor, kAndKleene, kOrKleene };

const char* OpName(Op op) {
  switch (op) {
    case Op::kAnd: return "and";
    case Op::kOr: return "or";
    case Op::kXor: return "xor";
    case Op::kAndKleene: return "and_kleene";
    case Op::kOrKleene: return "or_kleene";
  }
  return "boolean";
}

bool IsKleene(Op op) { return op == Op::kAndKleene || op == Op::kOrKleene; }

Status CheckTypes(Op op, const Datum& left, const Datum& right) {
  if (left.type()->id() != Type::kBool || right.type()->id() != Type::kBool) {
    return Status::NotImplemented("Function '", OpName(op),
                                  "' has no kernel matching input types (", left.type()->ToString(),
                                  ", ", right.type()->ToString(), ")");
  }
  return Status::OK();
}

// One slot of Kleene or plain logic on nullable booleans.
Scalar ScalarOp(Op op, const Scalar& l, const Scalar& r) {
  const bool lv = l.is_valid(), rv = r.is_valid();
  const bool lb = l.bool_value(), rb = r.bool_value();
  switch (op) {
    case Op::kAnd:
      return lv && rv ? Scalar::MakeBool(lb && rb) : Scalar::MakeNull(boolean());
    case Op::kOr:
      return lv && rv ? Scalar::MakeBool(lb || rb) : Scalar::MakeNull(boolean());
    case Op::kXor:
      return lv && rv ? Scalar::MakeBool(lb != rb) : Scalar::MakeNull(boolean());
    case Op::kAndKleene:
      if ((lv && !lb) || (rv && !rb)) return Scalar::MakeBool(false);
      return lv && rv ? Scalar::MakeBool(true) : Scalar::MakeNull(boolean());
    case Op::kOrKleene:
      if ((lv && lb) || (rv && rb)) return Scalar::MakeBool(true);
      return lv && rv ? Scalar::MakeBool(false) : Scalar::MakeNull(boolean());
  }
  return Scalar::MakeNull(boolean());
}

// The values bitmap of `a` (offset a.offset) and its validity (nullptr
// when it has no null).
const uint8_t* ValuesOf(const ArrayData& a) {
  return a.buffers.size() > 1 && a.buffers[1] != nullptr ? a.buffers[1]->data() : nullptr;
}
const uint8_t* ValidityOf(const ArrayData& a) {
  return a.GetNullCount() == 0 ? nullptr : a.validity();
}

// A bitmap of `length` bits, each `value`.
Result<std::shared_ptr<Buffer>> ConstantBits(int64_t length, bool value, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer out, NewBitmap(length, pool));
  bitmap::SetBitsTo(out.data(), 0, length, value);
  return out.Freeze();
}

Result<Datum> ArrayArray(Op op, const ArrayData& l, const ArrayData& r, MemoryPool* pool) {
  const int64_t n = l.length;
  const uint8_t* lvals = ValuesOf(l);
  const uint8_t* rvals = ValuesOf(r);
  const uint8_t* lvalid = ValidityOf(l);
  const uint8_t* rvalid = ValidityOf(r);
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer values, NewBitmap(n, pool));
  std::shared_ptr<Buffer> validity;
  int64_t nulls = kUnknownNullCount;  // known when passed through or counted
  if (IsKleene(op) && (lvalid != nullptr || rvalid != nullptr)) {
    QUIVER_ASSIGN_OR_RAISE(MutableBuffer valid, NewBitmap(n, pool));
    const bool is_and = op == Op::kAndKleene;
    FillBitmap(valid.data(), n, [&](int64_t pos, int nbits) {
      const uint64_t lw = bitmap::LoadBits(lvals, l.offset + pos, nbits);
      const uint64_t rw = bitmap::LoadBits(rvals, r.offset + pos, nbits);
      const uint64_t lv = WordAt(lvalid, l.offset, pos, nbits);
      const uint64_t rv = WordAt(rvalid, r.offset, pos, nbits);
      return is_and ? (lv & rv) | (lv & ~lw) | (rv & ~rw) : (lv & rv) | (lv & lw) | (rv & rw);
    });
    validity = valid.Freeze();
  } else if (lvalid != nullptr && rvalid != nullptr) {
    QUIVER_ASSIGN_OR_RAISE(MutableBuffer valid, NewBitmap(n, pool));
    int64_t valid_count = 0;
    BitmapBinary(BitOp::kAnd, lvalid, l.offset, rvalid, r.offset, n, valid.data(), &valid_count);
    validity = valid.Freeze();
    nulls = n - valid_count;
  } else if (lvalid != nullptr) {
    QUIVER_ASSIGN_OR_RAISE(validity, ValidityAtZero(l, pool));
    nulls = l.GetNullCount();
  } else if (rvalid != nullptr) {
    QUIVER_ASSIGN_OR_RAISE(validity, ValidityAtZero(r, pool));
    nulls = r.GetNullCount();
  }
  const BitOp bit_op = op == Op::kAnd || op == Op::kAndKleene ? BitOp::kAnd
                       : op == Op::kXor                         ? BitOp::kXor
                                                                : BitOp::kOr;
  RecordSimdLevel(BitmapBinary(bit_op, lvals, l.offset, rvals, r.offset, n, values.data()));
  return Datum(MakeBooleanArray(n, values.Freeze(), std::move(validity), nulls));
}

// `a` op `s` (the ops are commutative, so the scalar's side does not
// matter).
Result<Datum> ArrayScalar(Op op, const ArrayData& a, const Scalar& s, MemoryPool* pool) {
  const int64_t n = a.length;
  const uint8_t* vals = ValuesOf(a);
  const uint8_t* valid = ValidityOf(a);
  const bool b = s.bool_value();
  std::shared_ptr<Buffer> values;
  std::shared_ptr<Buffer> validity;
  if (!s.is_valid() && !IsKleene(op)) {  // every slot null
    QUIVER_ASSIGN_OR_RAISE(values, ConstantBits(n, false, pool));
    QUIVER_ASSIGN_OR_RAISE(validity, ConstantBits(n, false, pool));
    return Datum(MakeBooleanArray(n, std::move(values), std::move(validity), n));
  }
  if (!s.is_valid()) {
    // Kleene with null: only the array's deciding values stay valid
    // (false for AND, true for OR), with those values.
    const bool is_and = op == Op::kAndKleene;
    QUIVER_ASSIGN_OR_RAISE(MutableBuffer v, NewBitmap(n, pool));
    FillBitmap(v.data(), n, [&](int64_t pos, int nbits) {
      const uint64_t w = bitmap::LoadBits(vals, a.offset + pos, nbits);
      return WordAt(valid, a.offset, pos, nbits) & (is_and ? ~w : w);
    });
    validity = v.Freeze();
    QUIVER_ASSIGN_OR_RAISE(values, ConstantBits(n, !is_and, pool));
    return Datum(MakeBooleanArray(n, std::move(values), std::move(validity)));
  }
  const bool is_and = op == Op::kAnd || op == Op::kAndKleene;
  const bool is_or = op == Op::kOr || op == Op::kOrKleene;
  // A Kleene op decided by the scalar: every slot valid.
  if (IsKleene(op) && ((is_and && !b) || (is_or && b))) {
    QUIVER_ASSIGN_OR_RAISE(values, ConstantBits(n, b, pool));
    return Datum(MakeBooleanArray(n, std::move(values), nullptr));
  }
  QUIVER_ASSIGN_OR_RAISE(validity, ValidityAtZero(a, pool));
  if ((is_and && !b) || (is_or && b)) {
    QUIVER_ASSIGN_OR_RAISE(values, ConstantBits(n, b, pool));
  } else if (op == Op::kXor && b) {
    QUIVER_ASSIGN_OR_RAISE(MutableBuffer v, NewBitmap(n, pool));
    bitmap::InvertBitmap(vals, a.offset, n, v.data(), 0);
    values = v.Freeze();
  } else {  // and true, or false, xor false: the array's values
    QUIVER_ASSIGN_OR_RAISE(values, BitsAtZero(a.buffers[1], a.offset, n, pool));
  }
  return Datum(MakeBooleanArray(n, std::move(values), std::move(validity), a.GetNullCount()));
}

Result<Datum> Binary(Op op, const Datum& left, const Datum& right, MemoryPool* pool) {
  QUIVER_RETURN_NOT_OK(CheckTypes(op, left, right));
  RecordSimdLevel(SimdLevel::kScalar);
  if (left.is_scalar() && right.is_scalar()) return Datum(ScalarOp(op, left.scalar(), right.scalar()));
  if (left.is_scalar()) return ArrayScalar(op, *right.array(), left.scalar(), pool);
  if (right.is_scalar()) return ArrayScalar(op, *left.array(), right.scalar(), pool);
  if (left.array()->length != right.array()->length) {
    return Status::Invalid("Array arguments must all be the same length");
  }
  return ArrayArray(op, *left.array(), *right.array(), pool);
}

}  // namespace

Result<Datum> And(const Datum& left, const Datum& right, MemoryPool* pool) {
  return Binary(Op::kAnd, left, right, pool);
}
Result<Datum> Or(const Datum& left, const Datum& right, MemoryPool* pool) {
  return Binary(Op::kOr, left, right, pool);
}
Result<Datum> Xor(const Datum& left, const Datum& right, MemoryPool* pool) {
  return Binary(Op::kXor, left, right, pool);
}
Result<Datum> AndKleene(const Datum& left, const Datum& right, MemoryPool* pool) {
  return Binary(Op::kAndKleene, left, right, pool);
}
Result<Datum> OrKleene(const Datum& left, const Datum& right, MemoryPool* pool) {
  return Binary(Op::kOrKleene, left, right, pool);
}

Result<Datum> Invert(const Datum& values, MemoryPool* pool) {
  if (values.type()->id() != Type::kBool) {
    return Status::NotImplemented("Function 'invert' has no kernel matching input types (",
                                  values.type()->ToString(), ")");
  }
  RecordSimdLevel(SimdLevel::kScalar);
  if (values.is_scalar()) {
    const Scalar& s = values.scalar();
    return Datum(s.is_valid() ? Scalar::MakeBool(!s.bool_value()) : Scalar::MakeNull(boolean()));
  }
  const ArrayData& a = *values.array();
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer out, NewBitmap(a.length, pool));
  bitmap::InvertBitmap(ValuesOf(a), a.offset, a.length, out.data(), 0);
  QUIVER_ASSIGN_OR_RAISE(std::shared_ptr<Buffer> validity, ValidityAtZero(a, pool));
  return Datum(MakeBooleanArray(a.length, out.Freeze(), std::move(validity), a.GetNullCount()));
}

}  // namespace quiver::compute
