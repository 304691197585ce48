// is_in (set_lookup.h). The value set is cast to the values' type
// (set_lookup_cast.cc), its distinct valid values go into a set chosen by
// their physical width, and the values are looked up 64 at a time: each
// row's hit as a byte, eight bytes packed to bits by one multiply, nulls
// then resolved for the whole word (a null row is true exactly when the
// value set holds a null and skip_nulls is off), so the output has no
// validity bitmap. Values are compared as their bits (Arrow C++'s
// scalar_set_lookup.cc visits floats as unsigned integers of their width).
#include "quiver/compute/set_lookup.h"

#include <array>
#include <bit>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "quiver/array/memo_table.h"
#include "quiver/compute/binary_reader_internal.h"
#include "quiver/compute/boolean_internal.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/compute/set_lookup_internal.h"
#include "quiver/compute/simd_level.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute {

namespace {

using internal::BinLayout;
using internal::BinReader;
using internal::FillBitmap;
using internal::WordAt;
using quiver::internal::BytesEqual;

struct U128 {
  uint64_t lo;
  uint64_t hi;
  friend bool operator==(const U128&, const U128&) = default;
};

template <typename K>
K Load(const uint8_t* p) {
  K k;
  std::memcpy(&k, p, sizeof(K));
  return k;
}

// Bit j of the result: hits[j] (0 or 1), j < nbits; eight at a time by a
// multiply that gathers bit 0 of eight bytes into the top byte.
uint64_t PackHits(const uint8_t* hits, int nbits) {
  uint64_t w = 0;
  int k = 0;
  for (; k + 8 <= nbits; k += 8) {
    uint64_t x;
    std::memcpy(&x, hits + k, 8);
    w |= ((x * 0x0102040810204080ULL) >> 56) << k;
  }
  for (; k < nbits; ++k) w |= static_cast<uint64_t>(hits[k]) << k;
  return w;
}

// What a lookup needs besides the set: where the values are and what a
// null row gives.
struct Rows {
  const ArrayData* array;
  const uint8_t* validity;  // null when no row is null
  bool null_match;

  // `hits` for the valid rows of the word at pos, null rows resolved.
  uint64_t Resolve(uint64_t hits, int64_t pos, int nbits) const {
    if (validity == nullptr) return hits;
    const uint64_t valid = bitmap::LoadBits(validity, array->offset + pos, nbits);
    const uint64_t nulls = ~valid & bit_util::LeastSignificantBitMask(nbits);
    return (hits & valid) | (null_match ? nulls : 0);
  }
};

// Fixed-width values of K, every row read (values under nulls are
// readable and their hits dropped).
template <typename K, typename Contains>
void LookupFixed(const Rows& rows, const Contains& contains, uint8_t* out) {
  const ArrayData& a = *rows.array;
  const uint8_t* values = a.buffers[1]->data() + a.offset * static_cast<int64_t>(sizeof(K));
  FillBitmap(out, a.length, [&](int64_t pos, int nbits) {
    uint8_t hits[64];
    const uint8_t* v = values + pos * static_cast<int64_t>(sizeof(K));
    for (int j = 0; j < nbits; ++j) hits[j] = contains(Load<K>(v + j * sizeof(K))) ? 1 : 0;
    return rows.Resolve(PackHits(hits, nbits), pos, nbits);
  });
}

// Up to kSmall distinct keys, compared one by one (a fixed count: the
// compiler unrolls the compares; padding repeats the first key).
constexpr int kSmall = 8;
template <typename K>
struct SmallSet {
  std::array<K, kSmall> keys;
  bool empty;
  bool operator()(K v) const {
    if (empty) return false;
    bool hit = false;
    for (int k = 0; k < kSmall; ++k) hit |= keys[static_cast<size_t>(k)] == v;
    return hit;
  }
};

// A bitmap over every 1- or 2-byte value.
template <typename K>
struct DenseSet {
  std::vector<uint64_t> bits = std::vector<uint64_t>((size_t{1} << (8 * sizeof(K))) / 64);
  void Insert(K k) { bits[k >> 6] |= uint64_t{1} << (k & 63); }
  bool operator()(K v) const { return ((bits[v >> 6] >> (v & 63)) & 1) != 0; }
};

// Zeroed memory for a table of at least `min_slots` slots of `slot_bytes`
// (a power of two, at least 8); *bits is log2 of the slot count.
Result<MutableBuffer> ZeroedTable(int64_t min_slots, int64_t slot_bytes, MemoryPool* pool,
                                  int* bits) {
  *bits = 3;
  while ((int64_t{1} << *bits) < min_slots) ++*bits;
  const int64_t bytes = slot_bytes << *bits;
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer slots, MutableBuffer::WithCapacity(bytes, pool));
  std::memset(slots.data(), 0, static_cast<size_t>(bytes));
  return slots;
}

// Open addressing, at most half full, in buckets of four slots probed at
// once (the compares have no branch on what each slot holds: a lookup
// branches only when a bucket is full without the key, rarely at half
// load); the zero key is kept aside so that a zero slot can mean empty.
// Hashing: the key times an odd constant, the top bits taken (Fibonacci
// hashing). 16-byte keys probe one slot at a time.
template <typename K>
class HashSet {
 public:
  static Result<HashSet> Make(int64_t max_keys, MemoryPool* pool) {
    HashSet s;
    int bits;
    QUIVER_ASSIGN_OR_RAISE(s.slots_, ZeroedTable(2 * max_keys, sizeof(K), pool, &bits));
    s.shift_ = 64 - bits;
    s.mask_ = (uint64_t{1} << bits) - 1;
    return s;
  }
  void Insert(K k) {
    if (IsZero(k)) {
      has_zero_ = true;
      return;
    }
    K* slots = slots_.template data_as<K>();
    for (uint64_t pos = Start(k);; pos = (pos + kStep) & mask_) {
      for (uint64_t j = pos; j < pos + kStep; ++j) {
        if (slots[j] == k) return;
        if (IsZero(slots[j])) {
          slots[j] = k;
          return;
        }
      }
    }
  }
  bool operator()(K k) const {
    if (IsZero(k)) return has_zero_;
    const K* slots = slots_.template data_as<K>();
    for (uint64_t pos = Start(k);; pos = (pos + kStep) & mask_) {
      const K* s = slots + pos;
      if constexpr (kStep == 4) {
        const bool hit = (s[0] == k) | (s[1] == k) | (s[2] == k) | (s[3] == k);
        const bool open = (s[0] == 0) | (s[1] == 0) | (s[2] == 0) | (s[3] == 0);
        if (QUIVER_PREDICT_TRUE(hit | open)) return hit;
      } else {
        if (s[0] == k) return true;
        if (IsZero(s[0])) return false;
      }
    }
  }

 private:
  static constexpr uint64_t kStep = std::is_same_v<K, U128> ? 1 : 4;
  uint64_t Start(K k) const { return (Hash(k) >> shift_) & ~(kStep - 1); }
  static bool IsZero(K k) {
    if constexpr (std::is_same_v<K, U128>) {
      return (k.lo | k.hi) == 0;
    } else {
      return k == 0;
    }
  }
  static uint64_t Hash(K k) {
    if constexpr (std::is_same_v<K, U128>) {
      const uint64_t h = k.lo * 0x9E3779B97F4A7C15ULL ^ k.hi;
      return (h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ULL;
    } else {
      return static_cast<uint64_t>(k) * 0x9E3779B97F4A7C15ULL;
    }
  }
  MutableBuffer slots_;
  uint64_t mask_ = 0;
  int shift_ = 61;
  bool has_zero_ = false;
};

// A set of byte strings pointing into the value set's buffers (alive for
// the call), at most a quarter full. Up to 32 bytes are hashed inline from
// two to four overlapping 8-byte loads (or two 4-byte ones, or three
// bytes), longer ones with XXH3; a hash is never 0, the mark of an empty
// slot, and the bytes are compared only on equal hashes, so a miss
// usually costs one slot read.
class BytesSet {
 public:
  static Result<BytesSet> Make(int64_t max_keys, MemoryPool* pool) {
    BytesSet s;
    int bits;
    QUIVER_ASSIGN_OR_RAISE(s.slots_, ZeroedTable(4 * max_keys, sizeof(Slot), pool, &bits));
    s.shift_ = 64 - bits;
    s.mask_ = (uint64_t{1} << bits) - 1;
    return s;
  }
  // Adds `v` unless present; whether it was new.
  bool Insert(std::string_view v) {
    const uint64_t h = Hash(v);
    Slot* slots = slots_.data_as<Slot>();
    uint64_t pos = h >> shift_;
    for (; slots[pos].hash != 0; pos = (pos + 1) & mask_) {
      if (slots[pos].hash == h && Same(slots[pos], v)) return false;
    }
    slots[pos] = Slot{h, v.data(), v.size()};
    return true;
  }
  bool operator()(std::string_view v) const {
    const uint64_t h = Hash(v);
    const Slot* slots = slots_.data_as<Slot>();
    for (uint64_t pos = h >> shift_;; pos = (pos + 1) & mask_) {
      const Slot& s = slots[pos];
      if (s.hash == h) {
        if (Same(s, v)) return true;
      } else if (s.hash == 0) {
        return false;
      }
    }
  }

 private:
  struct Slot {
    uint64_t hash;  // 0: empty
    const char* data;
    size_t length;
  };
  static bool Same(const Slot& s, std::string_view v) {
    return s.length == v.size() && BytesEqual(s.data, v.data(), v.size());
  }
  static uint64_t Load8(const uint8_t* p) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    return x;
  }
  static uint64_t Hash(std::string_view v) {
    const auto* p = reinterpret_cast<const uint8_t*>(v.data());
    const uint64_t n = v.size();
    uint64_t a = 0;
    uint64_t b = 0;
    if (n > 32) return quiver::internal::HashBytes(p, static_cast<int64_t>(n)) | 1;
    if (n > 16) {
      a = Load8(p) ^ std::rotl(Load8(p + 8), 23);
      b = Load8(p + n - 8) ^ std::rotl(Load8(p + n - 16), 41);
    } else if (n >= 8) {
      a = Load8(p);
      b = Load8(p + n - 8);
    } else if (n >= 4) {
      uint32_t x, y;
      std::memcpy(&x, p, 4);
      std::memcpy(&y, p + n - 4, 4);
      a = x;
      b = y;
    } else if (n > 0) {
      a = uint64_t{p[0]} | uint64_t{p[n / 2]} << 8 | uint64_t{p[n - 1]} << 16;
    }
    uint64_t h = (a ^ 0x9E3779B97F4A7C15ULL) * 0xBF58476D1CE4E5B9ULL;
    h ^= std::rotl((b ^ n) * 0x94D049BB133111EBULL, 31);
    h ^= h >> 32;
    return (h * 0xD6E8FEB86659FD93ULL) | 1;
  }
  MutableBuffer slots_;
  uint64_t mask_ = 0;
  int shift_ = 61;
};

// valid(i) for the value set's slots.
template <typename F>
void ForEachValid(const ArrayData& set, F&& f) {
  const uint8_t* validity = set.MayHaveNulls() ? set.validity() : nullptr;
  for (int64_t i = 0; i < set.length; ++i) {
    if (validity == nullptr || bit_util::GetBit(validity, set.offset + i)) f(i);
  }
}

template <typename K>
Status IsInFixed(const Rows& rows, const ArrayData& set, MemoryPool* pool, uint8_t* out) {
  const uint8_t* keys = set.length == 0 ? nullptr
                        : set.buffers[1]->data() + set.offset * static_cast<int64_t>(sizeof(K));
  auto key = [&](int64_t i) { return Load<K>(keys + i * static_cast<int64_t>(sizeof(K))); };
  if constexpr (sizeof(K) <= 2) {
    DenseSet<K> dense;
    ForEachValid(set, [&](int64_t i) { dense.Insert(key(i)); });
    LookupFixed<K>(rows, dense, out);
    return Status::OK();
  } else {
    SmallSet<K> small{};
    int count = 0;
    bool many = false;
    ForEachValid(set, [&](int64_t i) {
      if (many) return;
      const K k = key(i);
      for (int j = 0; j < count; ++j) {
        if (small.keys[static_cast<size_t>(j)] == k) return;
      }
      if (count == kSmall) {
        many = true;
        return;
      }
      small.keys[static_cast<size_t>(count++)] = k;
    });
    if (!many) {
      small.empty = count == 0;
      for (int j = count; j < kSmall && count > 0; ++j) small.keys[static_cast<size_t>(j)] = small.keys[0];
      LookupFixed<K>(rows, small, out);
      return Status::OK();
    }
    QUIVER_ASSIGN_OR_RAISE(HashSet<K> table, HashSet<K>::Make(set.length, pool));
    ForEachValid(set, [&](int64_t i) { table.Insert(key(i)); });
    LookupFixed<K>(rows, table, out);
    return Status::OK();
  }
}

// Fixed-width values read as bytes (decimal256, fixed_size_binary of a
// width other than 1, 2, 4, 8, 16).
struct FixedBytes {
  const uint8_t* values;
  int64_t width;
  explicit FixedBytes(const ArrayData& a)
      : values(a.buffers.size() > 1 && a.buffers[1] != nullptr
                   ? a.buffers[1]->data() + a.offset * FixedWidthBytes(*a.type)
                   : nullptr),
        width(FixedWidthBytes(*a.type)) {}
  std::string_view operator()(int64_t i) const {
    return {reinterpret_cast<const char*>(values) + width * i, static_cast<size_t>(width)};
  }
};

// Byte-string values: only valid rows are read (a view under a null may
// point anywhere).
template <typename Reader, typename Contains>
void LookupBytes(const Rows& rows, const Reader& reader, const Contains& contains, uint8_t* out) {
  const ArrayData& a = *rows.array;
  FillBitmap(out, a.length, [&](int64_t pos, int nbits) {
    const uint64_t valid = WordAt(rows.validity, a.offset, pos, nbits);
    uint64_t w = 0;
    for (uint64_t v = valid; v != 0; v &= v - 1) {
      const int j = std::countr_zero(v);
      w |= static_cast<uint64_t>(contains(reader(pos + j))) << j;
    }
    return rows.Resolve(w, pos, nbits);
  });
}

template <typename Reader, typename SetReader>
Status IsInBytes(const Rows& rows, const Reader& reader, const ArrayData& set,
                 const SetReader& set_reader, MemoryPool* pool, uint8_t* out) {
  QUIVER_ASSIGN_OR_RAISE(BytesSet table, BytesSet::Make(set.length, pool));
  std::vector<std::string_view> keys;  // the distinct keys, up to kSmall + 1
  ForEachValid(set, [&](int64_t i) {
    const std::string_view k = set_reader(i);
    if (table.Insert(k) && keys.size() <= kSmall) keys.push_back(k);
  });
  if (keys.size() <= kSmall) {
    LookupBytes(rows, reader, [&](std::string_view v) {
      for (const std::string_view& k : keys) {
        if (k.size() == v.size() && BytesEqual(k.data(), v.data(), v.size())) return true;
      }
      return false;
    }, out);
  } else {
    LookupBytes(rows, reader, table, out);
  }
  return Status::OK();
}

Status IsInBinaryLike(const Rows& rows, const ArrayData& set, MemoryPool* pool, uint8_t* out) {
  return internal::VisitBinLayout(rows.array->type->id(), [&](auto layout) {
    constexpr BinLayout kL = decltype(layout)::value;
    const BinReader<kL> reader(*rows.array);
    const BinReader<BinLayout::kAny> set_reader(set);
    return IsInBytes(rows, reader, set, set_reader, pool, out);
  });
}

bool IsBinaryLookupType(Type id) { return IsBinaryLike(id) || IsLargeBinaryLike(id) || IsBinaryView(id); }

// The values types is_in has a kernel for: pyarrow 26's (no float16, no
// decimal32/64, no month or day-time intervals), and the view layouts.
bool HasKernel(Type id) {
  switch (id) {
    case Type::kNull:
    case Type::kBool:
    case Type::kFloat:
    case Type::kDouble:
    case Type::kDate32:
    case Type::kDate64:
    case Type::kTime32:
    case Type::kTime64:
    case Type::kTimestamp:
    case Type::kDuration:
    case Type::kIntervalMonthDayNano:
    case Type::kDecimal128:
    case Type::kDecimal256:
    case Type::kFixedSizeBinary: return true;
    default: return IsInteger(id) || IsBinaryLookupType(id);
  }
}

Status NoKernel(const DataType& type) {
  return Status::NotImplemented("Function 'is_in' has no kernel matching input types (",
                                type.ToString(), ")");
}

// The lookup of plain (not dictionary) values into `out` (length bits);
// `set` already has the values' type.
Status LookupPlain(const ArrayData& a, const ArrayData& set, bool skip_nulls, MemoryPool* pool,
                   uint8_t* out) {
  const Type id = a.type->id();
  const bool null_match = !skip_nulls && set.GetNullCount() > 0;
  const Rows rows{&a, a.MayHaveNulls() && a.GetNullCount() > 0 ? a.validity() : nullptr,
                  null_match};
  if (id == Type::kNull) {
    // pyarrow: true for every row when the value set is not empty (its
    // values cast to null are nulls) and skip_nulls is off.
    bitmap::SetBitsTo(out, 0, a.length, !skip_nulls && set.length > 0);
    return Status::OK();
  }
  if (id == Type::kBool) {
    bool has[2] = {false, false};
    ForEachValid(set, [&](int64_t i) {
      has[bit_util::GetBit(set.buffers[1]->data(), set.offset + i) ? 1 : 0] = true;
    });
    const uint8_t* values = a.buffers[1]->data();
    FillBitmap(out, a.length, [&](int64_t pos, int nbits) {
      const uint64_t v = bitmap::LoadBits(values, a.offset + pos, nbits);
      const uint64_t mask = bit_util::LeastSignificantBitMask(nbits);
      const uint64_t hits = (has[1] ? v : 0) | (has[0] ? ~v & mask : 0);
      return rows.Resolve(hits, pos, nbits);
    });
    return Status::OK();
  }
  if (!HasKernel(id)) return NoKernel(*a.type);
  // Bytes: binary-like values or value sets in any layout, fixed-size
  // binary against another type (the plan checked the widths).
  if (IsBinaryLookupType(id) || IsBinaryLookupType(set.type->id()) ||
      (id == Type::kFixedSizeBinary && !set.type->Equals(*a.type))) {
    return IsInBinaryLike(rows, set, pool, out);
  }
  switch (FixedWidthBytes(*a.type)) {
    case 1: return IsInFixed<uint8_t>(rows, set, pool, out);
    case 2: return IsInFixed<uint16_t>(rows, set, pool, out);
    case 4: return IsInFixed<uint32_t>(rows, set, pool, out);
    case 8: return IsInFixed<uint64_t>(rows, set, pool, out);
    case 16: return IsInFixed<U128>(rows, set, pool, out);
    default: return IsInBytes(rows, FixedBytes(a), set, FixedBytes(set), pool, out);
  }
}

// Dictionary values: the dictionary looked up once, then each row takes
// its index's result (a null index, like a null value, the null rule).
Status LookupDictionary(const ArrayData& a, const ArrayData& set, bool skip_nulls,
                        MemoryPool* pool, uint8_t* out) {
  if (a.dictionary == nullptr) return Status::Invalid("a dictionary array without a dictionary");
  const ArrayData& dict = *a.dictionary;
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer dict_hits, internal::NewBitmap(dict.length, pool));
  QUIVER_RETURN_NOT_OK(LookupPlain(dict, set, skip_nulls, pool, dict_hits.data()));
  const bool null_match = !skip_nulls && set.GetNullCount() > 0;
  const uint8_t* validity = a.MayHaveNulls() ? a.validity() : nullptr;
  const uint8_t* hits = dict_hits.data();
  const Type index_id = TypeAs<DictionaryType>(*a.type).index_type()->id();
  if (!IsInteger(index_id)) return Status::Invalid("dictionary indices must be integers");
  return internal::VisitNumeric(index_id, [&](auto tag) -> Status {
    using I = decltype(tag);
    const I* indices = a.GetValues<I>(1);
    bool bad = false;
    FillBitmap(out, a.length, [&](int64_t pos, int nbits) {
      const uint64_t valid = WordAt(validity, a.offset, pos, nbits);
      uint64_t w = null_match ? ~valid & bit_util::LeastSignificantBitMask(nbits) : 0;
      for (uint64_t v = valid; v != 0; v &= v - 1) {
        const int j = std::countr_zero(v);
        const auto idx = static_cast<int64_t>(indices[pos + j]);
        if (idx < 0 || idx >= dict.length) {
          bad = true;
          continue;
        }
        w |= static_cast<uint64_t>(bit_util::GetBit(hits, idx)) << j;
      }
      return w;
    });
    if (bad) return Status::Invalid("dictionary index out of range of the dictionary");
    return Status::OK();
  });
}

Result<ArrayDataPtr> IsInArray(const ArrayDataPtr& values, const SetLookupOptions& options,
                               MemoryPool* pool) {
  const DataType& type = *values->type;
  const DataType& value_type =
      type.id() == Type::kDictionary ? *TypeAs<DictionaryType>(type).value_type() : type;
  if (!HasKernel(value_type.id())) return NoKernel(value_type);
  QUIVER_ASSIGN_OR_RAISE(internal::LookupPlan plan,
                         internal::PlanLookup(values, options.value_set.array(), pool));
  const ArrayData& a = *plan.values;
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer out, internal::NewBitmap(a.length, pool));
  if (a.length > 0) {
    if (a.type->id() == Type::kDictionary) {
      QUIVER_RETURN_NOT_OK(LookupDictionary(a, *plan.set, options.skip_nulls, pool, out.data()));
    } else {
      QUIVER_RETURN_NOT_OK(LookupPlain(a, *plan.set, options.skip_nulls, pool, out.data()));
    }
  }
  return internal::MakeBooleanArray(a.length, out.Freeze(), nullptr);
}

}  // namespace

Result<Datum> IsIn(const Datum& values, const SetLookupOptions& options, MemoryPool* pool) {
  if (!options.value_set.is_array()) {
    return Status::Invalid("Set lookup value set must be Array or ChunkedArray");
  }
  RecordSimdLevel(SimdLevel::kScalar);
  if (values.is_scalar()) {
    QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr one, internal::ArrayFromScalar(values.scalar(), pool));
    QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr result, IsInArray(one, options, pool));
    return Datum(Scalar::MakeBool(bit_util::GetBit(result->buffers[1]->data(), 0)));
  }
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr result, IsInArray(values.array(), options, pool));
  return Datum(std::move(result));
}

}  // namespace quiver::compute
