// Property tests of the content-defined chunker: Chunker::FindCuts, with its
// skipped min-size windows and specialised loops, must cut exactly where a
// plain byte-at-a-time reading of docs/cdc.md cuts (ReferenceChunker below),
// on random columns of every kind, with several option sets (tiny ones, so
// that many cuts occur), inputs split into several write calls with the
// state continuing, and sliced arrays. python/tests/test_cdc.py ties the
// chunker to pyarrow; this file ties the fast paths to the simple statement.
//
// QUIVER_DEEP_TESTS=1 runs more seeds. A failure prints its seed.
#include "quiver/parquet/cdc/chunker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "quiver/array/test_util_internal.h"
#include "quiver/parquet/cdc/gather_simd.h"
#include "quiver/parquet/cdc/gear_roll_internal.h"
#include "quiver/parquet/cdc/gear_simd.h"
#include "quiver/parquet/cdc/gear_table.h"
#include "quiver/parquet/levels/level_builder.h"

namespace quiver::parquet::cdc {
namespace {
namespace QUIVER_UNITY_ID {

using namespace ::quiver::testutil;  // NOLINT

// --- The reference: docs/cdc.md read literally --------------------------------

// docs/cdc.md, "Gear hash": the mask for (min, max, norm_level).
uint64_t ReferenceMask(int64_t min_size, int64_t max_size, int norm_level) {
  const int64_t avg = (min_size + max_size) / 2;
  const auto target = static_cast<uint64_t>((avg - min_size) / 8);
  const int mask_bits = target == 0 ? 0 : static_cast<int>(std::bit_width(target)) - 1;
  const int effective = mask_bits - norm_level;
  EXPECT_GE(effective, 1);
  EXPECT_LE(effective, 63);
  return ~uint64_t{0} << (64 - effective);
}

// The bytes docs/cdc.md feeds to the hash for leaf slot `i` (logical index,
// the array's offset not yet applied).
std::vector<uint8_t> ReferenceValueBytes(const ArrayData& a, int64_t i) {
  const int64_t j = a.offset + i;
  auto bytes_at = [](const uint8_t* p, int64_t n) { return std::vector<uint8_t>(p, p + n); };
  switch (a.type->id()) {
    case Type::kNull:
      return {};
    case Type::kBool:
      return {static_cast<uint8_t>(bit_util::GetBit(a.buffers[1]->data(), j) ? 1 : 0)};
    case Type::kString:
    case Type::kBinary: {
      const auto* o = a.buffers[1]->data_as<int32_t>();
      return bytes_at(a.buffers[2]->data() + o[j], o[j + 1] - o[j]);
    }
    case Type::kLargeString:
    case Type::kLargeBinary: {
      const auto* o = a.buffers[1]->data_as<int64_t>();
      return bytes_at(a.buffers[2]->data() + o[j], o[j + 1] - o[j]);
    }
    case Type::kStringView:
    case Type::kBinaryView: {
      // The same bytes as binary: a 16-byte view, inline up to 12 bytes.
      const uint8_t* view = a.buffers[1]->data() + j * 16;
      int32_t length, buffer, offset;
      std::memcpy(&length, view, 4);
      if (length <= 12) return bytes_at(view + 4, length);
      std::memcpy(&buffer, view + 8, 4);
      std::memcpy(&offset, view + 12, 4);
      return bytes_at(a.buffers[static_cast<size_t>(2 + buffer)]->data() + offset, length);
    }
    case Type::kDictionary: {
      const int w = TypeAs<DictionaryType>(*a.type).index_type()->byte_width();
      return bytes_at(a.buffers[1]->data() + j * w, w);
    }
    default: {
      const int w = a.type->byte_width();
      return bytes_at(a.buffers[1]->data() + j * w, w);
    }
  }
}

class ReferenceChunker {
 public:
  ReferenceChunker(int64_t min_size, int64_t max_size, uint64_t mask)
      : min_(min_size), max_(max_size), mask_(mask) {}

  // The cuts of one write call; the state continues into the next call.
  std::vector<int64_t> Feed(const LeafLevels& levels) {
    std::vector<int64_t> cuts;
    // The leaf slots the levels consume, in order.
    std::vector<int64_t> slots;
    for (const auto& [first, end] : levels.ranges) {
      for (int64_t s = first; s < end; ++s) slots.push_back(s);
    }
    size_t next_slot = 0;
    const bool has_def = levels.max_def > 0;
    const bool has_rep = levels.max_rep > 0;
    const int slot_def = levels.max_def - (levels.leaf_nullable ? 1 : 0);
    for (int64_t i = 0; i < levels.num_levels; ++i) {
      const int def = has_def ? levels.def_levels[static_cast<size_t>(i)] : levels.max_def;
      const int rep = has_rep ? levels.rep_levels[static_cast<size_t>(i)] : 0;
      if (has_def) RollLevel(def);
      if (has_rep) RollLevel(rep);
      if (def >= slot_def) {
        EXPECT_LT(next_slot, slots.size());
        const int64_t slot = slots[next_slot++];
        if (def == levels.max_def) Roll(ReferenceValueBytes(*levels.leaf, slot));
      }
      if (!has_rep) {
        if (NeedCut()) cuts.push_back(i);
      } else if (rep == 0) {
        if (NeedCut() && i > 0) cuts.push_back(i);
      }
    }
    EXPECT_EQ(next_slot, slots.size());
    return cuts;
  }

  ChunkerState state() const { return {hash_, matched_, run_, size_}; }

 private:
  void Roll(const std::vector<uint8_t>& bytes) {
    size_ += static_cast<int64_t>(bytes.size());
    if (size_ < min_) return;
    for (uint8_t b : bytes) {
      hash_ = (hash_ << 1) + kGearTable[run_][b];
      if ((hash_ & mask_) == 0) matched_ = true;
    }
  }
  void RollLevel(int level) {
    Roll({static_cast<uint8_t>(level & 0xFF), static_cast<uint8_t>((level >> 8) & 0xFF)});
  }
  bool NeedCut() {
    if (matched_) {
      matched_ = false;
      if (++run_ == 8) {
        run_ = 0;
        size_ = 0;
        return true;
      }
    }
    if (size_ >= max_) {
      size_ = 0;
      return true;
    }
    return false;
  }

  int64_t min_, max_;
  uint64_t mask_;
  uint64_t hash_ = 0;
  bool matched_ = false;
  int run_ = 0;
  int64_t size_ = 0;
};

// --- Random columns ------------------------------------------------------------

using Rng = std::mt19937_64;

bool Chance(Rng& rng, double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }
int64_t Uniform(Rng& rng, int64_t lo, int64_t hi) {  // inclusive
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}
std::vector<bool> Validity(Rng& rng, int64_t n, double null_probability) {
  if (null_probability == 0) return {};
  std::vector<bool> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = !Chance(rng, null_probability);
  return v;
}

template <typename T>
ArrayDataPtr RandomFixed(Rng& rng, TypePtr type, int64_t n, double null_probability) {
  std::vector<T> values(static_cast<size_t>(n));
  for (auto& v : values) v = static_cast<T>(rng());
  return ArrayFromVector<T>(std::move(type), values, Validity(rng, n, null_probability));
}

ArrayDataPtr RandomBools(Rng& rng, int64_t n, double null_probability) {
  std::vector<bool> values(static_cast<size_t>(n));
  for (size_t i = 0; i < values.size(); ++i) values[i] = Chance(rng, 0.5);
  return BooleanArrayFromVector(values, Validity(rng, n, null_probability));
}

// Lengths 0..max_length, with extra empties (runs of empty strings feed no
// bytes at all).
ArrayDataPtr RandomStrings(Rng& rng, TypePtr type, int64_t n, double null_probability,
                           int64_t max_length = 400) {
  std::vector<std::string> values(static_cast<size_t>(n));
  for (auto& v : values) {
    if (Chance(rng, 0.2)) continue;
    v.resize(static_cast<size_t>(Uniform(rng, 0, max_length)));
    for (char& c : v) c = static_cast<char>(rng());
  }
  return StringArrayFromVector(values, Validity(rng, n, null_probability), std::move(type));
}

// A list array of `n` slots over `child` (which must have enough slots):
// lengths 0..max_length, null slots with probability `null_probability`; a
// null slot sometimes owns a non-empty child range (levels skip it).
ArrayDataPtr RandomList(Rng& rng, TypePtr type, int64_t n, double null_probability,
                        int64_t max_length, const std::function<ArrayDataPtr(int64_t)>& child) {
  std::vector<int64_t> offsets{0};
  std::vector<bool> validity(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const bool valid = !Chance(rng, null_probability);
    validity[static_cast<size_t>(i)] = valid;
    const int64_t length = valid || Chance(rng, 0.3) ? Uniform(rng, 0, max_length) : 0;
    offsets.push_back(offsets.back() + length);
  }
  return ListArrayFromOffsets(std::move(type), offsets, child(offsets.back()), validity);
}

struct Column {
  std::string name;
  Field field;
  ArrayDataPtr array;
};

// Every kind of leaf the chunker distinguishes, `n` top-level slots each.
std::vector<Column> RandomColumns(Rng& rng, int64_t n) {
  std::vector<Column> c;
  auto add = [&](std::string name, TypePtr type, bool nullable, ArrayDataPtr array) {
    c.push_back({std::move(name), Field("c", std::move(type), nullable), std::move(array)});
  };
  for (double nulls : {0.0, 0.3}) {
    const bool nullable = nulls > 0;
    const std::string suffix = nullable ? "_nullable" : "_required";
    add("int8" + suffix, int8(), nullable, RandomFixed<int8_t>(rng, int8(), n, nulls));
    add("int16" + suffix, int16(), nullable, RandomFixed<int16_t>(rng, int16(), n, nulls));
    add("int32" + suffix, int32(), nullable, RandomFixed<int32_t>(rng, int32(), n, nulls));
    add("int64" + suffix, int64(), nullable, RandomFixed<int64_t>(rng, int64(), n, nulls));
    add("bool" + suffix, boolean(), nullable, RandomBools(rng, n, nulls));
    add("string" + suffix, utf8(), nullable, RandomStrings(rng, utf8(), n, nulls));
    add("large_string" + suffix, large_utf8(), nullable,
        RandomStrings(rng, large_utf8(), n, nulls));
    {
      // string_view, with values inline (<= 12 bytes) and out of line.
      std::vector<std::string> values(static_cast<size_t>(n));
      for (auto& v : values) {
        const int64_t length = Chance(rng, 0.5) ? Uniform(rng, 0, 12) : Uniform(rng, 13, 80);
        v.resize(static_cast<size_t>(length));
        for (char& ch : v) ch = static_cast<char>(rng());
      }
      add("string_view" + suffix, utf8_view(), nullable,
          BinaryViewArrayFromVector(values, Validity(rng, n, nulls)));
    }
    {
      // decimal128: a 16-byte value, the runtime-width path.
      std::vector<std::string> values(static_cast<size_t>(n), std::string(16, '\0'));
      for (auto& v : values) {
        for (char& ch : v) ch = static_cast<char>(rng());
      }
      add("decimal128" + suffix, decimal128(30, 2), nullable,
          FixedSizeBinaryArrayFromVector(decimal128(30, 2), values, Validity(rng, n, nulls)));
    }
    {
      // Dictionary arrays feed their indices (int32 and int8 widths).
      auto dict = StringArrayFromVector({"a", "bb", "ccc", "dddd"});
      for (const auto& index_type : {int32(), int8()}) {
        std::vector<int64_t> indices(static_cast<size_t>(n));
        for (auto& x : indices) x = Uniform(rng, 0, 3);
        auto type = dictionary(index_type, utf8());
        add("dictionary_" + index_type->ToString() + suffix, type, nullable,
            DictionaryArrayFromIndices(type, indices, dict, Validity(rng, n, nulls)));
      }
    }
  }
  add("null", null(), true, NullArrayOfLength(n));
  // Repeated leaves: list<int32> with null lists, empty lists and null items.
  add("list_int32", list(int32()), true,
      RandomList(rng, list(int32()), n, 0.25, 6,
                 [&](int64_t m) { return RandomFixed<int32_t>(rng, int32(), m, 0.25); }));
  // Only empty and null lists: a leaf with no slot at all.
  add("list_int32_all_empty", list(int32()), true,
      RandomList(rng, list(int32()), n, 0.5, 0,
                 [&](int64_t m) { return RandomFixed<int32_t>(rng, int32(), m, 0.25); }));
  add("list_int64", list(int64()), true,
      RandomList(rng, list(int64()), n, 0.25, 5,
                 [&](int64_t m) { return RandomFixed<int64_t>(rng, int64(), m, 0.25); }));
  {
    auto type = list(field("item", int64(), false));
    add("list_int64_required_items", type, false,
        RandomList(rng, type, n, 0.0, 4,
                   [&](int64_t m) { return RandomFixed<int64_t>(rng, int64(), m, 0.0); }));
  }
  add("list_string", list(utf8()), true,
      RandomList(rng, list(utf8()), n, 0.2, 4,
                 [&](int64_t m) { return RandomStrings(rng, utf8(), m, 0.2, 60); }));
  add("list_bool", list(boolean()), true,
      RandomList(rng, list(boolean()), n, 0.2, 5,
                 [&](int64_t m) { return RandomBools(rng, m, 0.2); }));
  {
    auto inner = list(int32());
    auto outer = list(inner);
    add("list_list_int32", outer, true, RandomList(rng, outer, n, 0.2, 3, [&](int64_t m) {
          return RandomList(rng, inner, m, 0.2, 3, [&](int64_t k) {
            return RandomFixed<int32_t>(rng, int32(), k, 0.2);
          });
        }));
  }
  {
    // A nullable struct's nullable child: def levels without repetition, and
    // null struct slots that consume no leaf slot (several leaf ranges).
    auto type = struct_({field("a", int64())});
    auto child = RandomFixed<int64_t>(rng, int64(), n, 0.3);
    add("struct_int64", type, true,
        StructArrayFromChildren(type, n, {child}, Validity(rng, n, 0.3)));
  }
  return c;
}

// --- The property --------------------------------------------------------------

struct Sizes {
  int64_t min_size;
  int64_t max_size;
  int norm_level;
};

std::string Describe(const Sizes& s) {
  return "(min " + std::to_string(s.min_size) + ", max " + std::to_string(s.max_size) +
         ", norm " + std::to_string(s.norm_level) + ")";
}

LeafLevels LevelsOf(const Field& field, const ArrayDataPtr& array) {
  auto r = ComputeLevels(field, array);
  EXPECT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->size(), 1u);
  return std::move((*r)[0]);
}

void ExpectSameState(const ChunkerState& got, const ChunkerState& want, const std::string& where) {
  EXPECT_EQ(got.hash, want.hash) << where;
  EXPECT_EQ(got.matched, want.matched) << where;
  EXPECT_EQ(got.run, want.run) << where;
  EXPECT_EQ(got.size, want.size) << where;
}

// Splits `array` into write calls at random slots and compares every call's
// cuts (and the state after it) with the reference's. Returns the number of
// cuts found, so that callers can check the test exercised something.
int64_t CheckColumn(Rng& rng, const Column& column, const Sizes& sizes, const std::string& where,
                    int64_t max_splits = 4) {
  const uint64_t mask = ReferenceMask(sizes.min_size, sizes.max_size, sizes.norm_level);
  ReferenceChunker reference(sizes.min_size, sizes.max_size, mask);
  ChunkerOptions options{sizes.min_size, sizes.max_size, mask};

  std::vector<int64_t> bounds{0, column.array->length};
  const int64_t splits = Uniform(rng, 0, max_splits);
  for (int64_t k = 0; k < splits; ++k) bounds.push_back(Uniform(rng, 0, column.array->length));
  std::sort(bounds.begin(), bounds.end());

  int64_t total_cuts = 0;
  std::unique_ptr<Chunker> chunker;
  for (size_t call = 0; call + 1 < bounds.size(); ++call) {
    const ArrayDataPtr piece = column.array->Slice(bounds[call], bounds[call + 1] - bounds[call]);
    const LeafLevels levels = LevelsOf(column.field, piece);
    // Alternately keep one Chunker for several calls and make a new one that
    // continues from options.state (as the writer does per row group).
    if (chunker == nullptr || Chance(rng, 0.5)) chunker = std::make_unique<Chunker>(options);
    std::vector<int64_t> cuts{-1};  // FindCuts must clear it
    Status st;
    if (Chance(rng, 0.5)) {
      // A call chunked in consecutive ranges (as the writer hashes windows
      // of a call) has the cuts of the whole call.
      cuts.clear();
      std::vector<int64_t> part{-1};
      for (int64_t r = 0; st.ok() && r < levels.num_levels;) {
        const int64_t e = std::min(levels.num_levels, r + Uniform(rng, 1, 300));
        st = chunker->FindCuts(levels, r, e, &part);
        cuts.insert(cuts.end(), part.begin(), part.end());
        r = e;
      }
    } else {
      st = chunker->FindCuts(levels, &cuts);
    }
    const std::string at = where + " call " + std::to_string(call) + " slots [" +
                           std::to_string(bounds[call]) + ", " + std::to_string(bounds[call + 1]) +
                           ")";
    EXPECT_TRUE(st.ok()) << st << at;
    const std::vector<int64_t> want = reference.Feed(levels);
    EXPECT_EQ(cuts, want) << at;
    ExpectSameState(*options.state, reference.state(), at);
    EXPECT_EQ(chunker->chunk_size(), reference.state().size) << at;
    total_cuts += static_cast<int64_t>(want.size());
    if (::testing::Test::HasFailure()) break;
  }
  return total_cuts;
}

bool DeepTests() {
  const char* env = std::getenv("QUIVER_DEEP_TESTS");
  return env != nullptr && std::string(env) == "1";
}

// FirstMatchSimd (gear_simd.h) against FirstMatch: the same first match and
// the same hash after it, for every table, thresholds from a match every
// few bytes to almost never, lengths from under a round to several rounds
// (and not multiples of one), and bytes that are random or of a small
// alphabet. Matches fall in the scalar segment, in every lane, in the
// warm-up bytes of the lane after them and in the tail; the kernel's result
// is checked whatever the threshold, not only where the chunker uses it.
TEST(GearRoll, FirstMatchSimdAgreesWithFirstMatch) {
  if (!internal::GearSimdEnabled()) GTEST_SKIP() << "no AVX-512 VBMI on this CPU";
  Rng rng(17);
  std::vector<uint8_t> bytes(6 * internal::kGearSimdRound + 100);
  const int trials = DeepTests() ? 20'000 : 1'500;
  int64_t matches_seen = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const int mask_bits = static_cast<int>(Uniform(rng, 1, 20));
    // Mostly the chunker's thresholds (a power of two); also any other
    // value, and 0 (no match: the chunker rolls the rest of a value so).
    uint64_t threshold = uint64_t{1} << (64 - mask_bits);
    if (trial % 7 == 1) threshold = rng() >> (mask_bits - 1);
    if (trial % 50 == 3) threshold = 0;
    if (trial % 50 == 4) threshold = ~uint64_t{0};
    const int run = trial % kGearTables;
    const auto n = static_cast<int64_t>(Uniform(rng, 0, static_cast<int64_t>(bytes.size())));
    const bool alphabet = trial % 3 == 0;
    for (int64_t i = 0; i < n; ++i) {
      bytes[static_cast<size_t>(i)] =
          static_cast<uint8_t>(alphabet ? 'a' + rng() % 4 : rng());
    }
    // The kernel reads a copy of exactly n bytes (so that ASan sees any
    // read past them).
    const std::vector<uint8_t> exact(bytes.begin(), bytes.begin() + n);
    const uint64_t start = rng();
    uint64_t want_h = start;
    const int64_t want = internal::FirstMatch(kGearTable[run], bytes.data(), n, threshold, want_h);
    uint64_t h = start;
    EXPECT_EQ(internal::FirstMatchSimd(run, exact.data(), n, threshold, h), want)
        << "trial " << trial << ", threshold " << threshold << ", n " << n;
    EXPECT_EQ(h, want_h) << "trial " << trial;
    if (HasFailure()) return;
    matches_seen += want < n;
  }
  EXPECT_GT(matches_seen, trials / 4);
}

// The first match from every start offset of a buffer (and a new start
// hash each time), so that it falls at every place of a round: the scalar
// segment, each of the 8 lanes (their warm-up bytes included) and the tail
// after the last whole round; each place must be seen.
TEST(GearRoll, FirstMatchSimdFindsMatchesInEveryPartOfARound) {
  if (!internal::GearSimdEnabled()) GTEST_SKIP() << "no AVX-512 VBMI on this CPU";
  Rng rng(19);
  const int64_t round = internal::kGearSimdRound;
  const int64_t scalar = internal::kGearSimdScalarBytes;
  const int64_t lane = (round - scalar) / 8;
  std::vector<uint8_t> bytes(static_cast<size_t>(3 * round));
  for (auto& b : bytes) b = static_cast<uint8_t>(rng());
  std::vector<int> seen(10, 0);  // scalar segment, lanes 0..7, tail
  const int64_t step = DeepTests() ? 1 : 5;
  for (int64_t off = 0; off < round; off += step) {
    const int mask_bits = 11 + static_cast<int>(off % 3);  // a match every 2-8 KiB
    const uint64_t threshold = uint64_t{1} << (64 - mask_bits);
    const int run = static_cast<int>(off % kGearTables);
    const int64_t n = static_cast<int64_t>(bytes.size()) - off;
    const uint64_t start = rng();
    uint64_t want_h = start;
    const int64_t want =
        internal::FirstMatch(kGearTable[run], bytes.data() + off, n, threshold, want_h);
    uint64_t h = start;
    EXPECT_EQ(internal::FirstMatchSimd(run, bytes.data() + off, n, threshold, h), want)
        << "offset " << off;
    EXPECT_EQ(h, want_h) << "offset " << off;
    if (HasFailure()) return;
    if (want == n) continue;
    const int64_t whole_rounds = n / round;
    const int64_t in_round = want % round;
    const size_t place = want >= whole_rounds * round ? 9
                         : in_round < scalar      ? 0
                                                  : static_cast<size_t>(1 + (in_round - scalar) / lane);
    ++seen[place];
  }
  for (size_t place = 0; place < seen.size(); ++place) {
    EXPECT_GT(seen[place], 0) << "no first match in part " << place << " of a round";
  }
}

// The reference tests run twice: with the AVX-512 kernels (gather_simd.h's
// gathering, and gear_simd.h's hashing where the options give 12 mask bits
// or more; where the CPU has none, this run repeats the other) and with the
// portable loops alone.
class ChunkerReference : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { previous_ = internal::SetGatherSimd(GetParam()); }
  void TearDown() override { internal::SetGatherSimd(previous_); }

 private:
  bool previous_ = false;
};

INSTANTIATE_TEST_SUITE_P(Gather, ChunkerReference, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Simd" : "Portable";
                         });

TEST_P(ChunkerReference, MatchesTheReferenceOnRandomColumns) {
  const std::vector<Sizes> option_sets = {
      {64, 256, 0}, {64, 256, 1}, {64, 256, -1}, {0, 64, 0},
      {100, 1000, 0}, {1024, 4096, 0}, {4096, 16384, -2},
      // Long stretches between cuts (several gathered stretches for
      // columns with levels), with tiny and larger min sizes.
      {0, 4096, 0}, {63, 65536, 0}, {64, 65536, 0}, {65, 65536, 2},
      {1, 1 << 20, 0}, {8, 300000, -3},
      // Min-size windows of many levels (skipped in blocks of levels).
      {2000, 100000, 0}, {3000, 6000, 0},
  };
  const uint64_t seeds = DeepTests() ? 200 : 8;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    Rng rng(seed);
    const int64_t n = Uniform(rng, 50, 600);
    for (const Column& column : RandomColumns(rng, n)) {
      // The whole array, then a slice of it (offset != 0 in every buffer
      // the levels reach).
      const int64_t a = Uniform(rng, 1, n / 4), b = Uniform(rng, a, n);
      const Column sliced{column.name, column.field, column.array->Slice(a, b - a)};
      for (const Column* c : {&column, &sliced}) {
        for (const Sizes& sizes : option_sets) {
          const std::string where = "seed " + std::to_string(seed) + " column " + c->name +
                                    (c == &sliced ? " (sliced)" : "") + " " + Describe(sizes);
          CheckColumn(rng, *c, sizes, where);
          if (HasFailure()) return;
        }
      }
    }
  }
}

// Many cuts, long runs and the default options: enough data that every kind
// crosses several min-size windows with the real parameters.
TEST_P(ChunkerReference, MatchesTheReferenceWithDefaultOptions) {
  const Sizes defaults{256 * 1024, 1024 * 1024, 0};
  Rng rng(7);
  struct Big {
    const char* name;
    Field field;
    ArrayDataPtr array;
  };
  std::vector<Big> big;
  big.push_back({"int64_nullable", Field("c", int64(), true),
                 RandomFixed<int64_t>(rng, int64(), 250'000, 0.25)});
  big.push_back({"int32_required", Field("c", int32(), false),
                 RandomFixed<int32_t>(rng, int32(), 500'000, 0.0)});
  big.push_back({"string_required", Field("c", utf8(), false),
                 RandomStrings(rng, utf8(), 10'000, 0.0)});
  big.push_back({"string_nullable", Field("c", utf8(), true),
                 RandomStrings(rng, utf8(), 12'000, 0.25)});
  big.push_back({"list_int32", Field("c", list(int32()), true),
                 RandomList(rng, list(int32()), 250'000, 0.25, 4, [&](int64_t m) {
                   return RandomFixed<int32_t>(rng, int32(), m, 0.25);
                 })});
  for (const Big& b : big) {
    const int64_t cuts = CheckColumn(rng, {b.name, b.field, b.array}, defaults,
                                     std::string(b.name) + " " + Describe(defaults));
    EXPECT_GE(cuts, 2) << b.name;
  }
}

// Long columns (long stretches between cuts, and many gathered stretches
// for columns with levels), cut into many write calls with the state
// carried over, with min sizes small and large.
TEST_P(ChunkerReference, MatchesTheReferenceOnLongColumns) {
  Rng rng(23);
  std::vector<Column> columns;
  columns.push_back({"int64_required", Field("c", int64(), false),
                     RandomFixed<int64_t>(rng, int64(), 60'000, 0.0)});
  columns.push_back({"int16_required", Field("c", int16(), false),
                     RandomFixed<int16_t>(rng, int16(), 100'000, 0.0)});
  columns.push_back({"decimal128_required", Field("c", decimal128(30, 2), false), [&] {
                       std::vector<std::string> values(30'000, std::string(16, '\0'));
                       for (auto& v : values) {
                         for (char& ch : v) ch = static_cast<char>(rng());
                       }
                       return FixedSizeBinaryArrayFromVector(decimal128(30, 2), values, {});
                     }()});
  columns.push_back({"string_required", Field("c", utf8(), false),
                     RandomStrings(rng, utf8(), 3'000, 0.0)});
  // Values of up to 5000 bytes (a stretch may end inside one).
  columns.push_back({"large_string_required", Field("c", large_utf8(), false),
                     RandomStrings(rng, large_utf8(), 300, 0.0, 5000)});
  columns.push_back({"int64_nullable", Field("c", int64(), true),
                     RandomFixed<int64_t>(rng, int64(), 60'000, 0.25)});
  columns.push_back({"int32_nullable", Field("c", int32(), true),
                     RandomFixed<int32_t>(rng, int32(), 80'000, 0.25)});
  columns.push_back({"int16_nullable", Field("c", int16(), true),
                     RandomFixed<int16_t>(rng, int16(), 100'000, 0.4)});
  columns.push_back({"int8_nullable", Field("c", int8(), true),
                     RandomFixed<int8_t>(rng, int8(), 100'000, 0.5)});
  columns.push_back({"list_int32", Field("c", list(int32()), true),
                     RandomList(rng, list(int32()), 30'000, 0.25, 4, [&](int64_t m) {
                       return RandomFixed<int32_t>(rng, int32(), m, 0.25);
                     })});
  columns.push_back({"list_int64", Field("c", list(int64()), true),
                     RandomList(rng, list(int64()), 20'000, 0.25, 4, [&](int64_t m) {
                       return RandomFixed<int64_t>(rng, int64(), m, 0.25);
                     })});
  // Strings with levels (gathered with their value bytes), of up to 400
  // bytes, and of up to 40,000 (some longer than a gathered stretch, which
  // are hashed in place on their own).
  columns.push_back({"string_nullable", Field("c", utf8(), true),
                     RandomStrings(rng, utf8(), 4'000, 0.25)});
  columns.push_back({"large_string_nullable_long", Field("c", large_utf8(), true),
                     RandomStrings(rng, large_utf8(), 120, 0.3, 40'000)});
  columns.push_back({"list_string", Field("c", list(utf8()), true),
                     RandomList(rng, list(utf8()), 2'000, 0.25, 4, [&](int64_t m) {
                       return RandomStrings(rng, utf8(), m, 0.25);
                     })});
  columns.push_back({"list_large_string_long", Field("c", list(large_utf8()), true),
                     RandomList(rng, list(large_utf8()), 60, 0.25, 4, [&](int64_t m) {
                       return RandomStrings(rng, large_utf8(), m, 0.25, 40'000);
                     })});
  {
    auto type = struct_({field("a", int16())});
    auto child = RandomFixed<int16_t>(rng, int16(), 60'000, 0.3);
    columns.push_back({"struct_int16", Field("c", type, true),
                       StructArrayFromChildren(type, 60'000, {child}, Validity(rng, 60'000, 0.3))});
  }
  const std::vector<Sizes> option_sets = {
      {0, 1 << 16, 0}, {32, 1 << 14, 0}, {63, 1 << 15, -1}, {64, 1 << 15, 0},
      {65, 1 << 15, 1}, {127, 1 << 18, 0}, {4096, 1 << 20, 0}, {1000, 1 << 20, -3},
  };
  for (const Column& column : columns) {
    for (const Sizes& sizes : option_sets) {
      const std::string where = column.name + " " + Describe(sizes);
      CheckColumn(rng, column, sizes, where, /*max_splits=*/40);
      if (HasFailure()) return;
    }
  }
}

// Long stretches of one byte value (null slots' zero definition levels,
// runs of one value), which the first-match search skips once the hash is
// at the stretch's fixed point: every byte value 0..255 in runs of a few to
// a few thousand bytes (for some values and masks the fixed point matches),
// all-null and 99%-null columns, runs of equal values, and a constant
// column, under small and large sizes.
TEST_P(ChunkerReference, MatchesTheReferenceOnRunsOfOneByte) {
  Rng rng(31);
  auto runs_int8 = [&](int64_t n, int64_t max_run) {
    std::vector<int8_t> values;
    while (static_cast<int64_t>(values.size()) < n) {
      const auto b = static_cast<int8_t>(rng());
      const int64_t run = Uniform(rng, 1, max_run);
      values.insert(values.end(), static_cast<size_t>(run), b);
    }
    values.resize(static_cast<size_t>(n));
    return values;
  };
  std::vector<Column> columns;
  columns.push_back({"int8_runs", Field("c", int8(), false),
                     ArrayFromVector<int8_t>(int8(), runs_int8(100'000, 3000), {})});
  columns.push_back({"int8_short_runs", Field("c", int8(), false),
                     ArrayFromVector<int8_t>(int8(), runs_int8(50'000, 90), {})});
  {
    std::vector<int8_t> every;
    for (int b = 0; b < 256; ++b) every.insert(every.end(), 400, static_cast<int8_t>(b));
    columns.push_back({"int8_every_byte", Field("c", int8(), false),
                       ArrayFromVector<int8_t>(int8(), every, {})});
  }
  columns.push_back({"int64_all_null", Field("c", int64(), true),
                     RandomFixed<int64_t>(rng, int64(), 80'000, 1.0)});
  columns.push_back({"int32_99pct_null", Field("c", int32(), true),
                     RandomFixed<int32_t>(rng, int32(), 80'000, 0.99)});
  columns.push_back({"int16_90pct_null", Field("c", int16(), true),
                     RandomFixed<int16_t>(rng, int16(), 50'000, 0.9)});
  columns.push_back({"int64_constant", Field("c", int64(), false),
                     ArrayFromVector<int64_t>(int64(), std::vector<int64_t>(60'000, 0x0505050505050505), {})});
  {
    auto type = struct_({field("a", int32())});
    auto child = RandomFixed<int32_t>(rng, int32(), 60'000, 0.0);
    columns.push_back({"struct_99pct_null", Field("c", type, true),
                       StructArrayFromChildren(type, 60'000, {child}, Validity(rng, 60'000, 0.99))});
  }
  const std::vector<Sizes> option_sets = {
      {0, 64, 0}, {64, 256, 0}, {32, 1 << 14, 0}, {256, 1024, 2}, {4096, 1 << 20, 0},
      {64 * 1024, 256 * 1024, 0}, {1000, 1 << 20, -3},
  };
  int64_t cuts = 0;
  for (const Column& column : columns) {
    for (const Sizes& sizes : option_sets) {
      cuts += CheckColumn(rng, column, sizes, column.name + " " + Describe(sizes), /*max_splits=*/10);
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(cuts, 500);
}

// docs/cdc.md's smoke vector (checked against pyarrow): 200,000 int64 values
// of an LCG, required, min 64 KiB, max 256 KiB, norm 0.
TEST(Chunker, SmokeVectorFromTheNote) {
  std::vector<int64_t> values(200'000);
  uint64_t x = 0x243F6A8885A308D3ULL;
  for (auto& v : values) {
    x = 6364136223846793005ULL * x + 1442695040888963407ULL;
    v = static_cast<int64_t>(x);
  }
  const std::vector<int64_t> pages = {17054, 17725, 12281, 14801, 17490, 15449, 19582,
                                      14469, 22343, 16007, 10731, 20511, 1557};
  std::vector<int64_t> want;
  int64_t at = 0;
  for (size_t i = 0; i + 1 < pages.size(); ++i) want.push_back(at += pages[i]);

  const uint64_t mask = ReferenceMask(64 * 1024, 256 * 1024, 0);
  const LeafLevels levels = LevelsOf(Field("x", int64(), false), ArrayFromVector(int64(), values));
  Chunker chunker(ChunkerOptions{64 * 1024, 256 * 1024, mask});
  std::vector<int64_t> cuts;
  ASSERT_TRUE(chunker.FindCuts(levels, &cuts).ok());
  EXPECT_EQ(cuts, want);
  ReferenceChunker reference(64 * 1024, 256 * 1024, mask);
  EXPECT_EQ(reference.Feed(levels), want);
}

// The rolling variants of gear_roll_internal.h against 8 plain steps: the
// same hash, and the same matches (RollFixed only says whether).
TEST(GearRoll, VariantsAgreeWithTheByteLoop) {
  Rng rng(11);
  for (int mask_bits : {1, 2, 3, 8, 15, 63}) {
    const uint64_t threshold = uint64_t{1} << (64 - mask_bits);
    for (int trial = 0; trial < 2000; ++trial) {
      const uint64_t* table = kGearTable[trial % kGearTables];
      uint8_t bytes[24];
      for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
      const uint64_t start = rng();
      const int64_t n = Uniform(rng, 0, 24);

      uint64_t want_h = start;
      uint64_t want_matches = 0;
      for (int64_t j = 0; j < n; ++j) {
        want_h = (want_h << 1) + table[bytes[j]];
        want_matches += (want_h & ~(threshold - 1)) == 0;
      }
      uint64_t h = start;
      EXPECT_EQ(internal::RollBytes(table, bytes, n, threshold, h), want_matches);
      EXPECT_EQ(h, want_h);

      uint64_t word_h = start;
      uint64_t word_matches = 0;
      for (int j = 0; j < 8; ++j) {
        word_matches += internal::RollByte(table, bytes[j], threshold, word_h);
      }
      uint64_t split_h = start;
      EXPECT_EQ(internal::RollWordSplit(table, bytes, threshold, split_h), word_matches)
          << "mask bits " << mask_bits << " trial " << trial;
      EXPECT_EQ(split_h, word_h);
      uint64_t fixed_h = start;
      EXPECT_EQ(internal::RollFixed<8>(table, bytes, threshold, fixed_h) != 0, word_matches != 0);
      EXPECT_EQ(fixed_h, word_h);
      if (HasFailure()) return;
    }
  }
}

// FirstMatch (unrolled, stopping at the first match) against the byte
// loop: the same first match and the same hash after it, for runs of every
// length modulo the unrolling and matches at every position in it.
TEST(GearRoll, FirstMatchAgreesWithTheByteLoop) {
  Rng rng(13);
  std::vector<uint8_t> bytes(2'000);
  for (int trial = 0; trial < 20'000; ++trial) {
    const int mask_bits = static_cast<int>(Uniform(rng, 1, 14));
    const uint64_t threshold = uint64_t{1} << (64 - mask_bits);
    const uint64_t* table = kGearTable[trial % kGearTables];
    const auto n = static_cast<int64_t>(Uniform(rng, 0, static_cast<int64_t>(bytes.size())));
    for (int64_t i = 0; i < n; ++i) bytes[static_cast<size_t>(i)] = static_cast<uint8_t>(rng());
    const uint64_t start = rng();

    int64_t want = n;
    uint64_t want_h = start;
    for (int64_t i = 0; i < n; ++i) {
      want_h = (want_h << 1) + table[bytes[static_cast<size_t>(i)]];
      if ((want_h & ~(threshold - 1)) == 0) {
        want = i;
        break;
      }
    }
    uint64_t h = start;
    EXPECT_EQ(internal::FirstMatch(table, bytes.data(), n, threshold, h), want)
        << "trial " << trial;
    EXPECT_EQ(h, want_h) << "trial " << trial;
    if (HasFailure()) return;
  }
}

TEST(Chunker, GearTableCheckValues) {
  EXPECT_EQ(kGearTable[0][0], 0xf09f35a563783945ULL);
  EXPECT_EQ(kGearTable[0][1], 0x0dcc5b3bc5ae410aULL);
  EXPECT_EQ(kGearTable[7][255], 0x8df9314914f0857eULL);
}

// An all-null fixed-width column may come without a values buffer; only
// present values are read.
TEST(Chunker, AllNullColumnWithoutValuesBuffer) {
  const int64_t n = 1000;
  auto data = ArrayData::Make(int64(), n, {BitmapFromBools(std::vector<bool>(n, false)), nullptr},
                              n);
  for (const Sizes& sizes : {Sizes{64, 256, 0}, Sizes{0, 64, 0}}) {
    const uint64_t mask = ReferenceMask(sizes.min_size, sizes.max_size, sizes.norm_level);
    const LeafLevels levels = LevelsOf(Field("x", int64(), true), data);
    Chunker chunker(ChunkerOptions{sizes.min_size, sizes.max_size, mask});
    std::vector<int64_t> cuts;
    ASSERT_TRUE(chunker.FindCuts(levels, &cuts).ok());
    ReferenceChunker reference(sizes.min_size, sizes.max_size, mask);
    EXPECT_EQ(cuts, reference.Feed(levels)) << Describe(sizes);
    EXPECT_FALSE(cuts.empty());
  }
}

TEST(Chunker, RangesOfColumnsWithLevelsMustFollowEachOther) {
  const Field nullable("c", int64(), true);
  const LeafLevels levels = LevelsOf(nullable, ArrayFromVector<int64_t>(int64(), {1, 2, 3}));
  Chunker chunker(ChunkerOptions{64, 256, ReferenceMask(64, 256, 0)});
  std::vector<int64_t> cuts;
  EXPECT_TRUE(chunker.FindCuts(levels, 0, 1, &cuts).ok());
  EXPECT_TRUE(chunker.FindCuts(levels, 1, 3, &cuts).ok());
  EXPECT_TRUE(chunker.FindCuts(levels, 1, 3, &cuts).IsInvalid());
  EXPECT_TRUE(chunker.FindCuts(levels, 0, 3, &cuts).ok());
  const LeafLevels flat = LevelsOf(Field("c", int64(), false), ArrayFromVector<int64_t>(int64(), {1, 2, 3}));
  EXPECT_TRUE(chunker.FindCuts(flat, 1, 3, &cuts).ok());
  EXPECT_TRUE(chunker.FindCuts(flat, 2, 4, &cuts).IsInvalid());
  EXPECT_TRUE(chunker.FindCuts(flat, 2, 1, &cuts).IsInvalid());
}

TEST(Chunker, RejectsOptionsArrowRejects) {
  const LeafLevels levels =
      LevelsOf(Field("x", int32(), false), ArrayFromVector<int32_t>(int32(), {1, 2, 3}));
  const uint64_t mask = ReferenceMask(64, 256, 0);
  std::vector<int64_t> cuts;
  EXPECT_TRUE(Chunker(ChunkerOptions{-1, 256, mask}).FindCuts(levels, &cuts).IsInvalid());
  EXPECT_TRUE(Chunker(ChunkerOptions{256, 256, mask}).FindCuts(levels, &cuts).IsInvalid());
  // The mask must be the top 1..63 bits of a word (what CdcMask makes).
  EXPECT_TRUE(Chunker(ChunkerOptions{64, 256, 0}).FindCuts(levels, &cuts).IsInvalid());
  EXPECT_TRUE(Chunker(ChunkerOptions{64, 256, ~uint64_t{0}}).FindCuts(levels, &cuts).IsInvalid());
  EXPECT_TRUE(Chunker(ChunkerOptions{64, 256, 0x00F0000000000000ULL})
                  .FindCuts(levels, &cuts)
                  .IsInvalid());
  EXPECT_TRUE(Chunker(ChunkerOptions{64, 256, mask}).FindCuts(levels, &cuts).ok());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet::cdc
