// Bloom filter probes for pruning (span_evaluator_internal.h): the
// physical values a column's value must have to equal a literal, hashed
// as BloomFilter.md hashes them (XXH64 of the PLAIN bytes; bloom_filter.h).
//
// Sound only if the set is exact, so each step proves itself or gives up:
//  1. the literal in the read type T (safe Cast); when it is refused and
//     both are integers of the same signedness, no value of T equals it
//     (comparisons of such integers are exact): the empty set;
//  2. that value r equals the literal under the comparison's own typing
//     (compute::Evaluate on r), and its neighbours in T (r - 1 and r + 1
//     for integers and temporal types, the adjacent floats) do not, so no
//     other value of T compares equal (the casts Evaluate applies are
//     monotone, so the values equal to the literal form an interval);
//     byte strings and decimals compared with non-floating literals are
//     compared exactly and need no neighbours;
//  3. r in the statistics bound type B (the stored values' logical type)
//     and back to T unchanged, then B's value as the physical value;
//  4. floats: 0.0 and -0.0 compare equal but hash differently: both are
//     probed. NaN equals nothing; a set holding NaN gives up (caller).
// Byte-array decimals (their width is the writer's choice), booleans and
// INT96 give up.
#include <cmath>
#include <cstring>
#include <limits>

#include "quiver/array/concatenate.h"
#include "quiver/array/record_batch.h"
#include "quiver/compute/cast.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/parquet/pruning/span_evaluator_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {

namespace {

using compute::Expression;

using compute::internal::IsTemporal;  // one-integer temporal types

std::optional<Scalar> CastExactly(const Scalar& s, const TypePtr& to) {
  if (s.type()->Equals(*to)) return s;
  Result<compute::Datum> out = compute::Cast(compute::Datum(s), to);
  if (!out.ok() || !out->is_scalar() || !out->scalar().is_valid()) return std::nullopt;
  return out->scalar();
}

// The neighbours of r in its type (none at the ends of the range).
std::optional<std::vector<Scalar>> Neighbours(const Scalar& r) {
  const TypePtr& t = r.type();
  const Type id = t->id();
  std::vector<Scalar> out;
  if (IsSignedInteger(id) || IsTemporal(id)) {
    const int64_t v = r.int_value();
    if (v > std::numeric_limits<int64_t>::min()) {
      if (auto s = Scalar::MakeInt(t, v - 1); s.ok()) out.push_back(*s);
    }
    if (v < std::numeric_limits<int64_t>::max()) {
      if (auto s = Scalar::MakeInt(t, v + 1); s.ok()) out.push_back(*s);
    }
    return out;
  }
  if (IsUnsignedInteger(id)) {
    const uint64_t v = r.uint_value();
    if (v > 0) {
      if (auto s = Scalar::MakeUInt(t, v - 1); s.ok()) out.push_back(*s);
    }
    if (v < std::numeric_limits<uint64_t>::max()) {
      if (auto s = Scalar::MakeUInt(t, v + 1); s.ok()) out.push_back(*s);
    }
    return out;
  }
  if (id == Type::kFloat) {
    const auto v = static_cast<float>(r.double_value());
    for (float to : {-std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity()}) {
      const float n = std::nextafter(v, to);
      if (n != v) out.push_back(Scalar::MakeFloat(n));
    }
    return out;
  }
  if (id == Type::kDouble) {
    const double v = r.double_value();
    for (double to : {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()}) {
      const double n = std::nextafter(v, to);
      if (n != v) out.push_back(Scalar::MakeDouble(n));
    }
    return out;
  }
  return std::nullopt;
}

// Whether `norm` (field == literal) is true for r and false for each of
// `others`.
bool OnlyMatch(const Expression& norm, const std::string& name, const Scalar& r,
               const std::vector<Scalar>& others) {
  std::vector<ArrayDataPtr> pieces;
  for (size_t i = 0; i <= others.size(); ++i) {
    auto a = compute::internal::ArrayFromScalar(i == 0 ? r : others[i - 1]);
    if (!a.ok()) return false;
    pieces.push_back(*std::move(a));
  }
  auto values = Concatenate(pieces);
  if (!values.ok()) return false;
  auto batch = RecordBatch::Make(quiver::schema({quiver::field(name, r.type())}),
                                 (*values)->length, {*values});
  if (!batch.ok()) return false;
  auto out = compute::Evaluate(norm, **batch);
  if (!out.ok() || !out->is_array()) return false;
  const ArrayData& a = *out->array();
  for (int64_t i = 0; i < a.length; ++i) {
    if (a.IsNull(i)) return false;
    const bool v = bit_util::GetBit(a.buffers[1]->data(), a.offset + i);
    if (v != (i == 0)) return false;
  }
  return true;
}

void AddFloatHashes(double v, bool single, std::vector<uint64_t>* out) {
  if (single) {
    const auto f = static_cast<float>(v);
    out->push_back(BloomFilter::Hash(f));
    if (f == 0.0f) out->push_back(BloomFilter::Hash(-f));
  } else {
    out->push_back(BloomFilter::Hash(v));
    if (v == 0.0) out->push_back(BloomFilter::Hash(-v));
  }
}

// Big-endian two's complement of `width` bytes (FIXED_LEN_BYTE_ARRAY
// decimals); nullopt when the value does not fit.
std::optional<std::string> BigEndian(const Int256& v, int32_t width) {
  if (width <= 0 || width > 32 || !v.FitsInBits(width * 8)) return std::nullopt;
  std::string out(static_cast<size_t>(width), '\0');
  for (int32_t i = 0; i < width; ++i) {
    const int byte = i;  // from the least significant
    out[static_cast<size_t>(width - 1 - i)] =
        static_cast<char>((v.words[static_cast<size_t>(byte / 8)] >> (8 * (byte % 8))) & 0xff);
  }
  return out;
}

// The hashes of the physical value(s) of read value r.
bool PhysicalHashes(const Scalar& r, const TypePtr& read_type, const PhysicalColumn& physical,
                    std::vector<uint64_t>* out) {
  if (physical.bound_type == nullptr) return false;
  std::optional<Scalar> b = CastExactly(r, physical.bound_type);
  if (!b.has_value()) return false;
  std::optional<Scalar> back = CastExactly(*b, read_type);
  if (!back.has_value() || !back->Equals(r)) return false;
  const Type id = b->type()->id();
  switch (physical.physical_type) {
    case PhysicalType::kInt32: {
      int32_t v;
      if (IsSignedInteger(id) || id == Type::kDate32 || id == Type::kTime32) {
        v = static_cast<int32_t>(b->int_value());
      } else if (IsUnsignedInteger(id)) {
        v = static_cast<int32_t>(static_cast<uint32_t>(b->uint_value()));
      } else if (IsDecimal(id)) {
        if (!b->decimal().FitsInBits(32)) return false;
        v = static_cast<int32_t>(static_cast<uint32_t>(b->decimal().words[0]));
      } else {
        return false;
      }
      out->push_back(BloomFilter::Hash(v));
      return true;
    }
    case PhysicalType::kInt64: {
      int64_t v;
      if (IsSignedInteger(id) || IsTemporal(id)) {
        v = b->int_value();
      } else if (IsUnsignedInteger(id)) {
        v = static_cast<int64_t>(b->uint_value());
      } else if (IsDecimal(id)) {
        if (!b->decimal().FitsInBits(64)) return false;
        v = static_cast<int64_t>(b->decimal().words[0]);
      } else {
        return false;
      }
      out->push_back(BloomFilter::Hash(v));
      return true;
    }
    case PhysicalType::kFloat:
      if (id != Type::kFloat) return false;
      AddFloatHashes(b->double_value(), true, out);
      return true;
    case PhysicalType::kDouble:
      if (id != Type::kDouble) return false;
      AddFloatHashes(b->double_value(), false, out);
      return true;
    case PhysicalType::kByteArray:
      if (!(IsBinaryLike(id) || IsLargeBinaryLike(id))) return false;
      out->push_back(BloomFilter::Hash(std::string_view(b->bytes())));
      return true;
    case PhysicalType::kFixedLenByteArray: {
      if (id == Type::kFixedSizeBinary) {
        if (static_cast<int32_t>(b->bytes().size()) != physical.type_length) return false;
        out->push_back(BloomFilter::Hash(std::string_view(b->bytes())));
        return true;
      }
      if (IsDecimal(id)) {
        auto bytes = BigEndian(b->decimal(), physical.type_length);
        if (!bytes.has_value()) return false;
        out->push_back(BloomFilter::Hash(std::string_view(*bytes)));
        return true;
      }
      if (id == Type::kHalfFloat && physical.type_length == 2) {
        const uint16_t bits = b->half_bits();
        for (uint16_t h : {bits, static_cast<uint16_t>(bits ^ 0x8000u)}) {
          const char le[2] = {static_cast<char>(h & 0xff), static_cast<char>(h >> 8)};
          out->push_back(BloomFilter::Hash(std::string_view(le, 2)));
          if ((bits & 0x7fffu) != 0) break;  // only a zero has a twin
        }
        return true;
      }
      return false;
    }
    default: return false;
  }
}

}  // namespace

std::optional<std::vector<uint64_t>> EqualityProbeHashes(const Expression& normalized,
                                                          const std::string& field_name,
                                                          const TypePtr& read_type,
                                                          const PhysicalColumn& physical) {
  const Scalar& lit = normalized.arguments()[1].literal();
  const Type lid = lit.type()->id();
  const Type tid = read_type->id();
  if (!lit.is_valid()) return std::nullopt;
  if (IsFloating(lid) && std::isnan(lit.double_value())) return std::vector<uint64_t>{};
  std::optional<Scalar> r = CastExactly(lit, read_type);
  if (!r.has_value()) {
    const bool same_sign_ints = (IsSignedInteger(lid) && IsSignedInteger(tid)) ||
                                (IsUnsignedInteger(lid) && IsUnsignedInteger(tid));
    if (same_sign_ints) return std::vector<uint64_t>{};
    return std::nullopt;
  }
  std::vector<Scalar> neighbours;
  const bool exact_compare = IsBinaryLike(tid) || IsLargeBinaryLike(tid) ||
                             tid == Type::kFixedSizeBinary ||
                             (IsDecimal(tid) && !IsFloating(lid));
  if (!exact_compare) {
    auto n = Neighbours(*r);
    if (!n.has_value()) return std::nullopt;
    neighbours = *std::move(n);
  }
  if (!OnlyMatch(normalized, field_name, *r, neighbours)) return std::nullopt;
  std::vector<uint64_t> hashes;
  if (!PhysicalHashes(*r, read_type, physical, &hashes)) return std::nullopt;
  return hashes;
}

std::optional<std::vector<uint64_t>> SetProbeHashes(const ArrayData& set, const TypePtr& read_type,
                                                    const PhysicalColumn& physical) {
  std::vector<uint64_t> hashes;
  for (int64_t i = 0; i < set.length; ++i) {
    auto v = compute::internal::ScalarFromArray(set, i);
    if (!v.ok() || !v->is_valid()) return std::nullopt;
    if (IsFloating(v->type()->id()) && std::isnan(v->double_value())) return std::nullopt;
    if (!PhysicalHashes(*v, read_type, physical, &hashes)) return std::nullopt;
  }
  return hashes;
}

}  // namespace quiver::parquet
