// sort_indices (sort.h).
//
// One key: the rows are split into values, NaNs and nulls (each list in
// row order), the values get an order-preserving unsigned 64-bit key (a
// "normalized key": integers with the sign bit flipped, IEEE floats with
// the sign-magnitude trick, -0.0 folded into +0.0, dictionaries the rank of
// their value, descending the complement), and a stable LSD radix sort
// (sort_radix.cc) orders them in one sweep of passes. Byte strings (binary
// layouts, fixed_size_binary, and decimal128/256 turned into big-endian
// bytes with the sign bit flipped) are sorted most significant bytes first
// (McIlroy, Bostic and McIlroy, "Engineering Radix Sort", 1993): 7 bytes and
// the length left make a 64-bit key (ChunkKey) for the LSD radix sort, runs
// of equal keys go on 7 bytes further, runs of at most 16 by a stable
// comparison sort. The parts are then
// laid out as pyarrow does: values, NaN, nulls (at_end) or nulls, NaN,
// values (at_start).
//
// Several keys: each key is sorted alone and its rows given dense ranks
// (equal keys, equal rank; NaNs one rank, nulls one rank, placed as asked);
// then a stable LSD sort over the keys, last key first, with as many keys'
// ranks packed into one 64-bit radix key as fit. Stability at every step
// makes the result pyarrow's exactly.
#include "quiver/compute/sort.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>

#include "quiver/compute/arithmetic_internal.h"
#include "quiver/compute/binary_reader_internal.h"
#include "quiver/compute/sort_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::compute {

Result<SortOrder> ParseSortOrder(std::string_view text) {
  if (text == "ascending") return SortOrder::kAscending;
  if (text == "descending") return SortOrder::kDescending;
  return Status::Invalid("\"", std::string(text), "\" is not a valid sort order");
}

Result<NullPlacement> ParseNullPlacement(std::string_view text) {
  if (text == "at_end") return NullPlacement::kAtEnd;
  if (text == "at_start") return NullPlacement::kAtStart;
  return Status::Invalid("\"", std::string(text), "\" is not a valid null placement");
}

namespace {

using internal::RadixSortByKey;
constexpr uint64_t kSignBit = uint64_t{1} << 63;

// A key column's rows by class, and the value rows' keys (parallel to
// value_rows). Byte-string columns also keep each value row's bytes.
struct Classified {
  std::vector<uint64_t> value_rows, nan_rows, null_rows;
  std::vector<uint64_t> keys;
  bool bytes = false;
  std::vector<std::string_view> views;
  std::string owned;  // decimals' normalized bytes
};

template <typename T>
uint64_t NormalizeInt(T v) {
  if constexpr (std::is_signed_v<T>) {
    return static_cast<uint64_t>(static_cast<int64_t>(v)) ^ kSignBit;
  } else {
    return static_cast<uint64_t>(v);
  }
}

// IEEE sign-magnitude to an unsigned order: negatives complemented,
// positives with the sign bit set. `bits` of a non-NaN value, -0 as +0.
inline uint64_t NormalizeFloatBits(uint64_t bits, int width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  return (bits & sign) != 0 ? (~bits & mask) : (bits | sign);
}

// The radix key of a byte string at `depth` (the bytes before it equal
// among the strings compared): bytes [depth, depth + 7) big-endian and
// zero-padded, then a byte holding how many bytes remain, capped at 8.
// Keys order as the strings do when they differ in those 7 bytes or one
// ends within them (a string that ends first is a prefix of the other, the
// padding being zeros): equal keys with a length byte under 8 are equal
// strings; with 8, both go on at depth + 7.
constexpr size_t kChunk = 7;
inline uint64_t ChunkKey(std::string_view v, size_t depth) {
  const size_t remaining = v.size() > depth ? v.size() - depth : 0;
  uint8_t b[8] = {};
  std::memcpy(b, v.data() + std::min(depth, v.size()), std::min(kChunk, remaining));
  uint64_t k = 0;
  for (size_t i = 0; i < kChunk; ++i) k = (k << 8) | b[i];
  return (k << 8) | std::min<size_t>(remaining, 8);
}

// Calls visit(row) for the valid rows and null(row) for the others.
template <typename Valid, typename Null>
void ForRows(const ArrayData& a, Valid&& visit, Null&& null) {
  if (a.GetNullCount() == 0) {
    for (int64_t i = 0; i < a.length; ++i) visit(i);
    return;
  }
  for (int64_t i = 0; i < a.length; ++i) {
    if (a.IsValid(i)) {
      visit(i);
    } else {
      null(i);
    }
  }
}

void ReserveFor(const ArrayData& a, Classified* c) {
  const auto n = static_cast<size_t>(a.length);
  const auto nulls = static_cast<size_t>(a.GetNullCount());
  c->value_rows.reserve(n - nulls);
  c->keys.reserve(n - nulls);
  c->null_rows.reserve(nulls);
}

template <typename T>
void ClassifyInts(const ArrayData& a, uint64_t flip, Classified* c) {
  const T* v = a.GetValues<T>(1);
  if (a.GetNullCount() == 0) {  // every row a value: one loop without branches
    const auto n = static_cast<size_t>(a.length);
    c->value_rows.resize(n);
    c->keys.resize(n);
    for (size_t i = 0; i < n; ++i) {
      c->value_rows[i] = i;
      c->keys[i] = NormalizeInt(v[i]) ^ flip;
    }
    return;
  }
  ReserveFor(a, c);
  ForRows(
      a,
      [&](int64_t i) {
        c->value_rows.push_back(static_cast<uint64_t>(i));
        c->keys.push_back(NormalizeInt(v[i]) ^ flip);
      },
      [&](int64_t i) { c->null_rows.push_back(static_cast<uint64_t>(i)); });
}

// Float / double / half (as its bits: `U` the bit type).
template <typename U, int kWidth>
void ClassifyFloats(const ArrayData& a, uint64_t flip, Classified* c) {
  const U* v = a.GetValues<U>(1);
  constexpr uint64_t kExp = kWidth == 64 ? 0x7FF0000000000000ULL
                            : kWidth == 32 ? 0x7F800000ULL
                                           : 0x7C00ULL;
  constexpr uint64_t kAbs = (kWidth == 64 ? ~uint64_t{0} : (uint64_t{1} << kWidth) - 1) >> 1;
  ReserveFor(a, c);
  ForRows(
      a,
      [&](int64_t i) {
        uint64_t bits = static_cast<uint64_t>(v[i]);
        if ((bits & kAbs) > kExp) {  // NaN: all exponent bits and a mantissa
          c->nan_rows.push_back(static_cast<uint64_t>(i));
          return;
        }
        if ((bits & kAbs) == 0) bits = 0;  // -0.0 == +0.0
        c->value_rows.push_back(static_cast<uint64_t>(i));
        c->keys.push_back(NormalizeFloatBits(bits, kWidth) ^ flip);
      },
      [&](int64_t i) { c->null_rows.push_back(static_cast<uint64_t>(i)); });
}

void ClassifyBool(const ArrayData& a, uint64_t flip, Classified* c) {
  if (a.length == 0) return;
  const uint8_t* bits = a.buffers[1]->data();
  ReserveFor(a, c);
  ForRows(
      a,
      [&](int64_t i) {
        c->value_rows.push_back(static_cast<uint64_t>(i));
        c->keys.push_back((bit_util::GetBit(bits, a.offset + i) ? 1 : 0) ^ flip);
      },
      [&](int64_t i) { c->null_rows.push_back(static_cast<uint64_t>(i)); });
}

void ClassifyBytes(const ArrayData& a, uint64_t flip, Classified* c) {
  c->bytes = true;
  ReserveFor(a, c);
  c->views.reserve(c->keys.capacity());
  internal::VisitBinLayout(a.type->id(), [&](auto layout) {
    const internal::BinReader<decltype(layout)::value> read(a);
    ForRows(
        a,
        [&](int64_t i) {
          const std::string_view v = read(i);
          c->value_rows.push_back(static_cast<uint64_t>(i));
          c->views.push_back(v);
        },
        [&](int64_t i) { c->null_rows.push_back(static_cast<uint64_t>(i)); });
  });
}

// decimal128/256: little-endian two's complement to big-endian bytes with
// the sign bit flipped, which memcmp orders as the numbers.
void ClassifyDecimal(const ArrayData& a, int width, uint64_t flip, Classified* c) {
  c->bytes = true;
  if (a.length == 0) return;
  ReserveFor(a, c);
  const uint8_t* v = a.buffers[1]->data() + a.offset * width;
  c->owned.resize(static_cast<size_t>((a.length - a.GetNullCount()) * width));
  size_t pos = 0;
  ForRows(
      a,
      [&](int64_t i) {
        char* out = c->owned.data() + pos;
        for (int b = 0; b < width; ++b) out[b] = static_cast<char>(v[i * width + width - 1 - b]);
        out[0] = static_cast<char>(static_cast<uint8_t>(out[0]) ^ 0x80);
        c->value_rows.push_back(static_cast<uint64_t>(i));
        pos += static_cast<size_t>(width);
      },
      [&](int64_t i) { c->null_rows.push_back(static_cast<uint64_t>(i)); });
  for (size_t e = 0; e < c->value_rows.size(); ++e) {
    const std::string_view view(c->owned.data() + e * static_cast<size_t>(width),
                                static_cast<size_t>(width));
    c->views.push_back(view);
  }
}

Status SortOne(const ArrayData& a, SortOrder order, NullPlacement placement, uint64_t* out,
               std::vector<uint64_t>* ranks);

bool IsNaNAt(const ArrayData& a, int64_t i) {
  switch (a.type->id()) {
    case Type::kHalfFloat: {
      const uint16_t h = a.GetValues<uint16_t>(1)[i];
      return (h & 0x7FFF) > 0x7C00;
    }
    case Type::kFloat: return std::isnan(a.GetValues<float>(1)[i]);
    case Type::kDouble: return std::isnan(a.GetValues<double>(1)[i]);
    default: return false;
  }
}

// A dictionary array: each row's key is the rank of its value among the
// dictionary's values (sorted once); a null index or a null value is a
// null row, a NaN value a NaN row.
Status ClassifyDictionary(const ArrayData& a, uint64_t flip, Classified* c) {
  const ArrayData& dict = *a.dictionary;
  std::vector<uint64_t> dict_order(static_cast<size_t>(dict.length));
  std::vector<uint64_t> dict_rank;
  QUIVER_RETURN_NOT_OK(
      SortOne(dict, SortOrder::kAscending, NullPlacement::kAtEnd, dict_order.data(), &dict_rank));
  ReserveFor(a, c);
  const Type index_type = TypeAs<DictionaryType>(*a.type).index_type()->id();
  auto run = [&](auto* indices) {
    ForRows(
        a,
        [&](int64_t i) {
          const auto k = static_cast<int64_t>(indices[i]);
          if (k < 0 || k >= dict.length) {
            c->null_rows.push_back(static_cast<uint64_t>(i));  // not reached: validated input
          } else if (dict.IsNull(k)) {
            c->null_rows.push_back(static_cast<uint64_t>(i));
          } else if (IsNaNAt(dict, k)) {
            c->nan_rows.push_back(static_cast<uint64_t>(i));
          } else {
            c->value_rows.push_back(static_cast<uint64_t>(i));
            c->keys.push_back(dict_rank[static_cast<size_t>(k)] ^ flip);
          }
        },
        [&](int64_t i) { c->null_rows.push_back(static_cast<uint64_t>(i)); });
  };
  switch (index_type) {
    case Type::kInt8: run(a.GetValues<int8_t>(1)); break;
    case Type::kUInt8: run(a.GetValues<uint8_t>(1)); break;
    case Type::kInt16: run(a.GetValues<int16_t>(1)); break;
    case Type::kUInt16: run(a.GetValues<uint16_t>(1)); break;
    case Type::kInt32: run(a.GetValues<int32_t>(1)); break;
    case Type::kUInt32: run(a.GetValues<uint32_t>(1)); break;
    case Type::kInt64: run(a.GetValues<int64_t>(1)); break;
    case Type::kUInt64: run(a.GetValues<uint64_t>(1)); break;
    default:
      return Status::NotImplemented("sort_indices: dictionary indices of type ",
                                    TypeAs<DictionaryType>(*a.type).index_type()->ToString());
  }
  return Status::OK();
}

Status Classify(const ArrayData& a, SortOrder order, Classified* c) {
  const uint64_t flip = order == SortOrder::kDescending ? ~uint64_t{0} : 0;
  switch (a.type->id()) {
    case Type::kNull:
      c->null_rows.resize(static_cast<size_t>(a.length));
      std::iota(c->null_rows.begin(), c->null_rows.end(), uint64_t{0});
      return Status::OK();
    case Type::kBool: ClassifyBool(a, flip, c); return Status::OK();
    case Type::kInt8: ClassifyInts<int8_t>(a, flip, c); return Status::OK();
    case Type::kUInt8: ClassifyInts<uint8_t>(a, flip, c); return Status::OK();
    case Type::kInt16: ClassifyInts<int16_t>(a, flip, c); return Status::OK();
    case Type::kUInt16: ClassifyInts<uint16_t>(a, flip, c); return Status::OK();
    case Type::kInt32:
    case Type::kDate32:
    case Type::kTime32:
    case Type::kDecimal32: ClassifyInts<int32_t>(a, flip, c); return Status::OK();
    case Type::kUInt32: ClassifyInts<uint32_t>(a, flip, c); return Status::OK();
    case Type::kInt64:
    case Type::kDate64:
    case Type::kTime64:
    case Type::kTimestamp:
    case Type::kDuration:
    case Type::kDecimal64: ClassifyInts<int64_t>(a, flip, c); return Status::OK();
    case Type::kUInt64: ClassifyInts<uint64_t>(a, flip, c); return Status::OK();
    case Type::kHalfFloat: ClassifyFloats<uint16_t, 16>(a, flip, c); return Status::OK();
    case Type::kFloat: ClassifyFloats<uint32_t, 32>(a, flip, c); return Status::OK();
    case Type::kDouble: ClassifyFloats<uint64_t, 64>(a, flip, c); return Status::OK();
    case Type::kDecimal128: ClassifyDecimal(a, 16, flip, c); return Status::OK();
    case Type::kDecimal256: ClassifyDecimal(a, 32, flip, c); return Status::OK();
    case Type::kDictionary: return ClassifyDictionary(a, flip, c);
    default: {
      const Type id = a.type->id();
      if (IsBinaryLike(id) || IsLargeBinaryLike(id) || IsBinaryView(id) ||
          id == Type::kFixedSizeBinary) {
        ClassifyBytes(a, flip, c);
        return Status::OK();
      }
      return Status::NotImplemented("Function 'sort_indices' has no kernel matching input types (",
                                    a.type->ToString(), ")");
    }
  }
}

// Sorts entries e[0, n) (indices into views, equal bytes before `depth`)
// by the views' bytes, stably.
void SortBytes(const std::vector<std::string_view>& views, bool descending, size_t depth,
               uint64_t* e, size_t n) {
  if (n < 2) return;
  auto less = [&](uint64_t x, uint64_t y) {
    const std::string_view a = views[x].substr(std::min(depth, views[x].size()));
    const std::string_view b = views[y].substr(std::min(depth, views[y].size()));
    return descending ? b < a : a < b;
  };
  if (n <= 16) {
    std::stable_sort(e, e + n, less);
    return;
  }
  const uint64_t flip = descending ? ~uint64_t{0} : 0;
  std::vector<uint64_t> keys(n), sorted_keys(n), sorted(n);
  for (size_t i = 0; i < n; ++i) keys[i] = ChunkKey(views[e[i]], depth) ^ flip;
  internal::RadixSortByKey(keys.data(), e, n, sorted.data(), sorted_keys.data());
  std::memcpy(e, sorted.data(), n * sizeof(uint64_t));
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && sorted_keys[j] == sorted_keys[i]) ++j;
    // A length byte of 8: more bytes follow in every string of the run.
    if (j - i > 1 && ((sorted_keys[i] ^ flip) & 0xFF) == 8) {
      SortBytes(views, descending, depth + kChunk, e + i, j - i);
    }
    i = j;
  }
}

// Sorts the value rows of `c`: `sorted` gets the rows, `starts` (when not
// null) marks each row that differs from the one before it.
void SortValues(Classified& c, SortOrder order, uint64_t* sorted, std::vector<bool>* starts) {
  const size_t n = c.value_rows.size();
  if (n == 0) return;
  if (!c.bytes) {
    std::vector<uint64_t> keys(starts != nullptr ? n : 0);
    RadixSortByKey(c.keys, c.value_rows, sorted, starts != nullptr ? keys.data() : nullptr);
    if (starts != nullptr) {
      starts->assign(n, false);
      (*starts)[0] = true;
      for (size_t i = 1; i < n; ++i) (*starts)[i] = keys[i] != keys[i - 1];
    }
    return;
  }
  // Byte strings: MSD radix, 7 bytes (and the length left) at a time
  // (SortBytes); small runs of equal keys by a comparison sort.
  std::vector<uint64_t> entries(n);
  std::iota(entries.begin(), entries.end(), uint64_t{0});
  SortBytes(c.views, order == SortOrder::kDescending, 0, entries.data(), n);
  for (size_t i = 0; i < n; ++i) sorted[i] = c.value_rows[entries[i]];
  if (starts != nullptr) {
    starts->assign(n, false);
    (*starts)[0] = true;
    for (size_t i = 1; i < n; ++i) (*starts)[i] = c.views[entries[i]] != c.views[entries[i - 1]];
  }
}

// Sorts one column: out gets its n rows in order; ranks (when not null)
// gets each row's dense rank in that order.
Status SortOne(const ArrayData& a, SortOrder order, NullPlacement placement, uint64_t* out,
               std::vector<uint64_t>* ranks) {
  Classified c;
  QUIVER_RETURN_NOT_OK(Classify(a, order, &c));
  const size_t values = c.value_rows.size(), nans = c.nan_rows.size(), nulls = c.null_rows.size();
  const bool at_start = placement == NullPlacement::kAtStart;
  uint64_t* value_out = at_start ? out + nulls + nans : out;
  uint64_t* nan_out = at_start ? out + nulls : out + values;
  uint64_t* null_out = at_start ? out : out + values + nans;
  std::vector<bool> starts;
  SortValues(c, order, value_out, ranks != nullptr ? &starts : nullptr);
  std::copy(c.nan_rows.begin(), c.nan_rows.end(), nan_out);
  std::copy(c.null_rows.begin(), c.null_rows.end(), null_out);
  if (ranks == nullptr) return Status::OK();
  ranks->resize(static_cast<size_t>(a.length));
  uint64_t rank = 0;
  auto group = [&](const uint64_t* rows, size_t count) {
    for (size_t i = 0; i < count; ++i) (*ranks)[rows[i]] = rank;
    if (count > 0) ++rank;
  };
  auto value_group = [&] {
    for (size_t i = 0; i < values; ++i) {
      if (i > 0 && starts[i]) ++rank;
      (*ranks)[value_out[i]] = rank;
    }
    if (values > 0) ++rank;
  };
  if (at_start) {
    group(null_out, nulls);
    group(nan_out, nans);
    value_group();
  } else {
    value_group();
    group(nan_out, nans);
    group(null_out, nulls);
  }
  return Status::OK();
}

ArrayDataPtr MakeIndices(int64_t n, MutableBuffer* buffer) {
  return ArrayData::Make(uint64(), n, {nullptr, buffer->Freeze()}, 0);
}

}  // namespace

Result<ArrayDataPtr> SortIndices(const ArrayData& values, SortOrder order,
                                 NullPlacement null_placement, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer buffer, internal::AllocateOutput(values.length * 8, pool));
  QUIVER_RETURN_NOT_OK(
      SortOne(values, order, null_placement, buffer.data_as<uint64_t>(), nullptr));
  return MakeIndices(values.length, &buffer);
}

Result<ArrayDataPtr> SortIndices(const std::vector<ColumnSortKey>& keys, MemoryPool* pool) {
  if (keys.empty()) return Status::Invalid("Must specify one or more sort keys");
  const int64_t n = keys[0].values->length;
  for (const auto& key : keys) {
    if (key.values->length != n) {
      return Status::Invalid("sort_indices: the sort key columns have different lengths (", n,
                             " and ", key.values->length, ")");
    }
  }
  if (keys.size() == 1) {
    return SortIndices(*keys[0].values, keys[0].order, keys[0].null_placement, pool);
  }
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer buffer, internal::AllocateOutput(n * 8, pool));
  const auto rows = static_cast<size_t>(n);
  std::vector<uint64_t> scratch(rows);
  // Each key's dense ranks.
  std::vector<std::vector<uint64_t>> ranks(keys.size());
  std::vector<int> bits(keys.size());
  for (size_t k = 0; k < keys.size(); ++k) {
    QUIVER_RETURN_NOT_OK(SortOne(*keys[k].values, keys[k].order, keys[k].null_placement,
                                 scratch.data(), &ranks[k]));
    uint64_t max_rank = 0;
    for (uint64_t r : ranks[k]) max_rank = std::max(max_rank, r);
    bits[k] = std::bit_width(max_rank);
  }
  // LSD over the keys, last key first: perm holds the rows in the order
  // sorted so far; each round sorts it stably by a group of keys packed
  // into 64 bits.
  std::vector<uint64_t> perm(rows), packed(rows, 0);
  std::iota(perm.begin(), perm.end(), uint64_t{0});
  int packed_bits = 0;
  auto flush = [&] {
    if (packed_bits == 0) return;
    std::vector<uint64_t> round_keys(rows);
    for (size_t i = 0; i < rows; ++i) round_keys[i] = packed[perm[i]];
    RadixSortByKey(round_keys, perm, scratch.data(), nullptr);
    perm.swap(scratch);
    std::fill(packed.begin(), packed.end(), 0);
    packed_bits = 0;
  };
  for (size_t k = keys.size(); k-- > 0;) {
    if (bits[k] == 0) continue;  // one value: no order among the rows
    if (packed_bits + bits[k] > 64) flush();
    for (size_t r = 0; r < rows; ++r) packed[r] |= ranks[k][r] << packed_bits;
    packed_bits += bits[k];
  }
  flush();
  std::memcpy(buffer.data(), perm.data(), rows * sizeof(uint64_t));
  return MakeIndices(n, &buffer);
}

Result<ArrayDataPtr> SortIndices(const RecordBatch& batch, const std::vector<SortKey>& keys,
                                 MemoryPool* pool) {
  std::vector<ColumnSortKey> columns;
  for (const auto& key : keys) {
    int found = -1;
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (batch.schema()->field(c)->name() == key.name) {
        found = c;
        break;
      }
    }
    if (found < 0) {
      std::string names;
      for (int c = 0; c < batch.num_columns(); ++c) {
        names += (c > 0 ? ", " : "") + batch.schema()->field(c)->name();
      }
      return Status::Invalid("Invalid sort key column: no column named '", key.name,
                             "' (columns: ", names, ")");
    }
    columns.push_back({batch.column_data(found), key.order, key.null_placement});
  }
  return SortIndices(columns, pool);
}

}  // namespace quiver::compute
