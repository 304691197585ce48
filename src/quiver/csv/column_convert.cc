#include "quiver/csv/column_convert.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/utf8.h"

namespace quiver::csv {

namespace {
constexpr uint32_t Bit(InferKind k) { return 1u << static_cast<int>(k); }
constexpr int64_t kNanosPerSecond = 1000000000;
}  // namespace

TypePtr InferKindType(InferKind kind) {
  switch (kind) {
    case InferKind::kNull: return null();
    case InferKind::kInt64: return int64();
    case InferKind::kBool: return boolean();
    case InferKind::kDate32: return date32();
    case InferKind::kTime32: return time32(TimeUnit::kSecond);
    case InferKind::kTimestampS: return timestamp(TimeUnit::kSecond);
    case InferKind::kTimestampNs: return timestamp(TimeUnit::kNano);
    case InferKind::kTimestampSUtc: return timestamp(TimeUnit::kSecond, "UTC");
    case InferKind::kTimestampNsUtc: return timestamp(TimeUnit::kNano, "UTC");
    case InferKind::kDouble: return float64();
    case InferKind::kString: return utf8();
    case InferKind::kBinary: return binary();
  }
  return binary();
}

ConvertContext::ConvertContext(const ConvertOptions& options, uint8_t quote_char)
    : nulls(options.null_values),
      trues(options.true_values),
      falses(options.false_values),
      strings_can_be_null(options.strings_can_be_null),
      quoted_strings_can_be_null(options.quoted_strings_can_be_null),
      check_utf8(options.check_utf8),
      decimal_point(options.decimal_point),
      quote(quote_char) {}

bool ConvertContext::Fits(InferKind kind, std::string_view v) const {
  switch (kind) {
    case InferKind::kNull: return false;
    case InferKind::kInt64: {
      int64_t x;
      return ParseInt64(v, &x);
    }
    case InferKind::kBool: return trues.Matches(v) || falses.Matches(v);
    case InferKind::kDate32: {
      int32_t d;
      return ParseDate(v, &d);
    }
    case InferKind::kTime32: {
      int64_t n;
      int digits;
      return ParseTimeOfDay(v, &n, &digits) && digits == 0;
    }
    case InferKind::kTimestampS:
    case InferKind::kTimestampNs:
    case InferKind::kTimestampSUtc:
    case InferKind::kTimestampNsUtc: {
      Timestamp ts;
      if (!ParseTimestamp(v, &ts)) return false;
      const bool zoned = kind == InferKind::kTimestampSUtc || kind == InferKind::kTimestampNsUtc;
      const bool seconds = kind == InferKind::kTimestampS || kind == InferKind::kTimestampSUtc;
      return ts.has_zone == zoned && (!seconds || ts.frac_digits == 0);
    }
    case InferKind::kDouble: {
      double d;
      return ParseDouble(v, decimal_point, &d);
    }
    case InferKind::kString:
      return !check_utf8 || IsValidUtf8(reinterpret_cast<const uint8_t*>(v.data()),
                                        static_cast<int64_t>(v.size()));
    case InferKind::kBinary: return true;
  }
  return false;
}

void ColumnInference::Feed(const ConvertContext& ctx, std::string_view v, bool quoted) {
  if (ctx.IsNull(v, quoted, /*string_type=*/false)) return;
  uint32_t c = candidates_ & ~Bit(InferKind::kNull);
  for (uint32_t rest = c; rest != 0; rest &= rest - 1) {
    const auto kind = static_cast<InferKind>(__builtin_ctz(rest));
    if (!ctx.Fits(kind, v)) c &= ~Bit(kind);
  }
  candidates_ = c;
}

void ColumnInference::FeedBlock(const ConvertContext& ctx, const TokenizedBlock& block,
                                int32_t col, int64_t max_rows) {
  const int64_t n = std::min(block.num_rows, max_rows);
  for (int64_t r = 0; r < n; ++r) {
    const FieldRef& f = block.field(r, col);
    Feed(ctx, block.Value(f, ctx.quote, &tmp_), (f.end & FieldRef::kQuoted) != 0);
    if (candidates_ == Bit(InferKind::kBinary)) return;
  }
}

InferKind ColumnInference::kind() const {
  return static_cast<InferKind>(__builtin_ctz(candidates_ | Bit(InferKind::kBinary)));
}

Status CheckConvertible(const TypePtr& type) {
  switch (type->id()) {
    case Type::kNull: case Type::kBool:
    case Type::kInt8: case Type::kInt16: case Type::kInt32: case Type::kInt64:
    case Type::kUInt8: case Type::kUInt16: case Type::kUInt32: case Type::kUInt64:
    case Type::kFloat: case Type::kDouble:
    case Type::kDate32: case Type::kDate64:
    case Type::kTime32: case Type::kTime64: case Type::kTimestamp:
    case Type::kString: case Type::kLargeString: case Type::kBinary: case Type::kLargeBinary:
      return Status::OK();
    default:
      return Status::NotImplemented("CSV columns of type ", type->ToString(),
                                    " are not supported (read as string and cast)");
  }
}

namespace {

int64_t UnitsPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 1;
    case TimeUnit::kMilli: return 1000;
    case TimeUnit::kMicro: return 1000000;
    case TimeUnit::kNano: return kNanosPerSecond;
  }
  return 1;
}

// Nanoseconds -> `unit`, only when nothing is lost.
bool NanosToUnit(int64_t nanos, TimeUnit unit, int64_t* out) {
  const int64_t div = kNanosPerSecond / UnitsPerSecond(unit);
  if (nanos % div != 0) return false;
  *out = nanos / div;
  return true;
}

class Validity {
 public:
  Validity(int64_t n, MemoryPool* pool) : n_(n), bits_(pool) {}
  Status SetNull(int64_t i) {
    if (bits_.size() == 0) {
      QUIVER_RETURN_NOT_OK(bits_.Resize(bit_util::BytesForBits(n_), 0xFF));
    }
    bit_util::ClearBit(bits_.data(), i);
    ++null_count_;
    return Status::OK();
  }
  std::shared_ptr<Buffer> Finish() { return null_count_ == 0 ? nullptr : bits_.Freeze(); }
  int64_t null_count() const { return null_count_; }

 private:
  int64_t n_;
  MutableBuffer bits_;
  int64_t null_count_ = 0;
};

// Fixed-width columns: `parse(value, &out)` says whether the value fits.
template <typename T, typename Parse>
Result<ArrayDataPtr> ConvertFixed(const TokenizedBlock& b, int32_t col, const TypePtr& type,
                                  const ConvertContext& ctx, std::vector<int64_t>* failed,
                                  MemoryPool* pool, Parse&& parse) {
  const int64_t n = b.num_rows;
  QUIVER_ASSIGN_OR_RAISE(auto values, MutableBuffer::WithCapacity(n * int64_t{sizeof(T)}, pool));
  values.UnsafeSetSize(n * int64_t{sizeof(T)});
  T* out = values.data_as<T>();
  Validity validity(n, pool);
  std::string tmp;
  const int32_t stride = b.num_columns;
  const FieldRef* field = b.fields.data() + col;
  for (int64_t r = 0; r < n; ++r, field += stride) {
    const FieldRef f = *field;
    const std::string_view v = b.Value(f, ctx.quote, &tmp);
    if (QUIVER_PREDICT_FALSE(ctx.IsNull(v, (f.end & FieldRef::kQuoted) != 0, false))) {
      out[r] = T{};
      QUIVER_RETURN_NOT_OK(validity.SetNull(r));
      continue;
    }
    if (QUIVER_PREDICT_TRUE(parse(v, &out[r]))) continue;
    out[r] = T{};
    QUIVER_RETURN_NOT_OK(validity.SetNull(r));
    failed->push_back(r);
  }
  const int64_t nulls = validity.null_count();
  return ArrayData::Make(type, n, {validity.Finish(), values.Freeze()}, nulls);
}

Result<ArrayDataPtr> ConvertBool(const TokenizedBlock& b, int32_t col, const TypePtr& type,
                                 const ConvertContext& ctx, std::vector<int64_t>* failed,
                                 MemoryPool* pool) {
  const int64_t n = b.num_rows;
  MutableBuffer values(pool);
  QUIVER_RETURN_NOT_OK(values.Resize(bit_util::BytesForBits(n), 0));
  Validity validity(n, pool);
  std::string tmp;
  for (int64_t r = 0; r < n; ++r) {
    const FieldRef& f = b.field(r, col);
    const std::string_view v = b.Value(f, ctx.quote, &tmp);
    if (ctx.IsNull(v, (f.end & FieldRef::kQuoted) != 0, false)) {
      QUIVER_RETURN_NOT_OK(validity.SetNull(r));
    } else if (ctx.trues.Matches(v)) {
      bit_util::SetBit(values.data(), r);
    } else if (!ctx.falses.Matches(v)) {
      QUIVER_RETURN_NOT_OK(validity.SetNull(r));
      failed->push_back(r);
    }
  }
  const int64_t nulls = validity.null_count();
  return ArrayData::Make(type, n, {validity.Finish(), values.Freeze()}, nulls);
}

template <typename Offset>
Result<ArrayDataPtr> ConvertBinary(const TokenizedBlock& b, int32_t col, const TypePtr& type,
                                   const ConvertContext& ctx, bool utf8,
                                   std::vector<int64_t>* failed, MemoryPool* pool) {
  const int64_t n = b.num_rows;
  const int32_t stride = b.num_columns;
  int64_t total = 0;
  {
    const FieldRef* field = b.fields.data() + col;
    for (int64_t r = 0; r < n; ++r, field += stride) {
      total += (field->end & FieldRef::kOffsetMask) - field->start;
    }
  }
  if (sizeof(Offset) == 4 && total > std::numeric_limits<int32_t>::max()) {
    return Status::CapacityError("a CSV block's string column exceeds 2 GiB");
  }
  QUIVER_ASSIGN_OR_RAISE(auto offsets, MutableBuffer::WithCapacity((n + 1) * int64_t{sizeof(Offset)}, pool));
  QUIVER_ASSIGN_OR_RAISE(auto data, MutableBuffer::WithCapacity(total, pool));
  offsets.UnsafeSetSize((n + 1) * int64_t{sizeof(Offset)});
  Offset* off = offsets.data_as<Offset>();
  uint8_t* dst = data.data();
  Offset pos = 0;
  off[0] = 0;
  Validity validity(n, pool);
  std::string tmp;
  const bool may_be_null = ctx.strings_can_be_null;
  const FieldRef* field = b.fields.data() + col;
  for (int64_t r = 0; r < n; ++r, field += stride) {
    const FieldRef f = *field;
    const std::string_view v = b.Value(f, ctx.quote, &tmp);
    if (may_be_null && ctx.IsNull(v, (f.end & FieldRef::kQuoted) != 0, true)) {
      QUIVER_RETURN_NOT_OK(validity.SetNull(r));
    } else {
      std::memcpy(dst + pos, v.data(), v.size());  // unescaping only shortens
      pos += static_cast<Offset>(v.size());
    }
    off[r + 1] = pos;
  }
  data.UnsafeSetSize(pos);
  if (utf8 && ctx.check_utf8) {
    int64_t bad = FindInvalidUtf8(data.data(), pos);
    if (bad >= 0) {
      // The rows holding invalid UTF-8 (rare: found row by row) fail and
      // become nulls; their bytes stay in the data buffer under a null slot.
      for (int64_t r = 0; r < n; ++r) {
        const int64_t len = off[r + 1] - off[r];
        if (len > 0 && !IsValidUtf8(data.data() + off[r], len)) {
          QUIVER_RETURN_NOT_OK(validity.SetNull(r));
          failed->push_back(r);
        }
      }
    }
  }
  const int64_t nulls = validity.null_count();
  return ArrayData::Make(type, n, {validity.Finish(), offsets.Freeze(), data.Freeze()}, nulls);
}

}  // namespace

Result<ArrayDataPtr> ConvertColumn(const TokenizedBlock& b, int32_t col, const TypePtr& type,
                                   const ConvertContext& ctx, std::vector<int64_t>* failed,
                                   MemoryPool* pool) {
  switch (type->id()) {
    case Type::kNull: {
      std::string tmp;
      for (int64_t r = 0; r < b.num_rows; ++r) {
        const FieldRef& f = b.field(r, col);
        if (!ctx.IsNull(b.Value(f, ctx.quote, &tmp), (f.end & FieldRef::kQuoted) != 0, false)) {
          failed->push_back(r);
        }
      }
      return ArrayData::Make(type, b.num_rows, {}, b.num_rows);
    }
    case Type::kBool: return ConvertBool(b, col, type, ctx, failed, pool);
    case Type::kInt64:
      return ConvertFixed<int64_t>(b, col, type, ctx, failed, pool,
                                   [](std::string_view v, int64_t* o) { return ParseInt64(v, o); });
#define QUIVER_CSV_INT(TYPE_ID, CTYPE, PARSE_T, PARSE)                                      \
  case TYPE_ID:                                                                            \
    return ConvertFixed<CTYPE>(b, col, type, ctx, failed, pool,                            \
                               [](std::string_view v, CTYPE* o) {                          \
                                 PARSE_T x;                                                \
                                 if (!PARSE(v, &x) || x < std::numeric_limits<CTYPE>::min() || \
                                     x > std::numeric_limits<CTYPE>::max()) {              \
                                   return false;                                           \
                                 }                                                         \
                                 *o = static_cast<CTYPE>(x);                               \
                                 return true;                                              \
                               });
      QUIVER_CSV_INT(Type::kInt8, int8_t, int64_t, ParseInt64)
      QUIVER_CSV_INT(Type::kInt16, int16_t, int64_t, ParseInt64)
      QUIVER_CSV_INT(Type::kInt32, int32_t, int64_t, ParseInt64)
      QUIVER_CSV_INT(Type::kUInt8, uint8_t, uint64_t, ParseUInt64)
      QUIVER_CSV_INT(Type::kUInt16, uint16_t, uint64_t, ParseUInt64)
      QUIVER_CSV_INT(Type::kUInt32, uint32_t, uint64_t, ParseUInt64)
      QUIVER_CSV_INT(Type::kUInt64, uint64_t, uint64_t, ParseUInt64)
#undef QUIVER_CSV_INT
    case Type::kDouble: {
      const char dp = ctx.decimal_point;
      return ConvertFixed<double>(b, col, type, ctx, failed, pool,
                                  [&](std::string_view v, double* o) {
                                    return ParseDouble(v, dp, o);
                                  });
    }
    case Type::kFloat: {
      const char dp = ctx.decimal_point;
      return ConvertFixed<float>(b, col, type, ctx, failed, pool,
                                 [&](std::string_view v, float* o) {
                                   double d;
                                   if (!ParseDouble(v, dp, &d)) return false;
                                   *o = static_cast<float>(d);
                                   return true;
                                 });
    }
    case Type::kDate32:
      return ConvertFixed<int32_t>(b, col, type, ctx, failed, pool,
                                   [](std::string_view v, int32_t* o) { return ParseDate(v, o); });
    case Type::kDate64:
      return ConvertFixed<int64_t>(b, col, type, ctx, failed, pool,
                                   [](std::string_view v, int64_t* o) {
                                     int32_t d;
                                     if (!ParseDate(v, &d)) return false;
                                     *o = int64_t{d} * 86400000;
                                     return true;
                                   });
    case Type::kTime32: {
      const TimeUnit unit = static_cast<const TemporalType&>(*type).unit();
      return ConvertFixed<int32_t>(b, col, type, ctx, failed, pool,
                                   [unit](std::string_view v, int32_t* o) {
                                     int64_t nanos, x;
                                     int digits;
                                     if (!ParseTimeOfDay(v, &nanos, &digits) ||
                                         !NanosToUnit(nanos, unit, &x)) {
                                       return false;
                                     }
                                     *o = static_cast<int32_t>(x);
                                     return true;
                                   });
    }
    case Type::kTime64: {
      const TimeUnit unit = static_cast<const TemporalType&>(*type).unit();
      return ConvertFixed<int64_t>(b, col, type, ctx, failed, pool,
                                   [unit](std::string_view v, int64_t* o) {
                                     int64_t nanos;
                                     int digits;
                                     return ParseTimeOfDay(v, &nanos, &digits) &&
                                            NanosToUnit(nanos, unit, o);
                                   });
    }
    case Type::kTimestamp: {
      const auto& t = static_cast<const TemporalType&>(*type);
      const TimeUnit unit = t.unit();
      const bool zoned = !t.timezone().empty();
      const int64_t per_second = UnitsPerSecond(unit);
      return ConvertFixed<int64_t>(
          b, col, type, ctx, failed, pool, [=](std::string_view v, int64_t* o) {
            Timestamp ts;
            int64_t frac;
            if (!ParseTimestamp(v, &ts) || ts.has_zone != zoned ||
                !NanosToUnit(ts.nanos, unit, &frac)) {
              return false;
            }
            if (__builtin_mul_overflow(ts.seconds, per_second, o) ||
                __builtin_add_overflow(*o, frac, o)) {
              return false;
            }
            return true;
          });
    }
    case Type::kString: return ConvertBinary<int32_t>(b, col, type, ctx, true, failed, pool);
    case Type::kBinary: return ConvertBinary<int32_t>(b, col, type, ctx, false, failed, pool);
    case Type::kLargeString: return ConvertBinary<int64_t>(b, col, type, ctx, true, failed, pool);
    case Type::kLargeBinary: return ConvertBinary<int64_t>(b, col, type, ctx, false, failed, pool);
    default: break;
  }
  return CheckConvertible(type);
}

}  // namespace quiver::csv
