// Tests of DictionaryBuilder (builder_dict.h) and the memo tables
// (memo_table.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_dict.h"
#include "quiver/array/builder_nested.h"
#include "quiver/array/builder_primitive.h"
#include "quiver/array/builder_test_util_internal.h"
#include "quiver/array/memo_table.h"

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

using internal::BinaryMemoTable;
using internal::kKeyNotFound;
using internal::ScalarMemoTable;

std::unique_ptr<DictionaryBuilder> MakeDict(const TypePtr& type,
                                            MemoryPool* pool = DefaultMemoryPool()) {
  auto result = DictionaryBuilder::Make(type, pool);
  if (!result.ok()) {
    ADD_FAILURE() << result.status().ToString();
    return nullptr;
  }
  return *std::move(result);
}

// Index of slot i of a dictionary-typed ArrayData, widened.
int64_t IndexAt(const ArrayData& data, int64_t i) {
  DictionaryArray a(std::make_shared<ArrayData>(data));
  return a.GetValueIndex(i);
}

// --- memo tables -------------------------------------------------------------

TEST(ScalarMemoTable, InsertionOrderAndLookups) {
  ScalarMemoTable<int32_t> memo;
  EXPECT_EQ(memo.size(), 0);
  EXPECT_EQ(memo.Get(5), kKeyNotFound);
  bool inserted = false;
  BASSIGN(int32_t i5, memo.GetOrInsert(5, &inserted));
  EXPECT_TRUE(inserted);
  BASSIGN(int32_t i7, memo.GetOrInsert(7, &inserted));
  EXPECT_TRUE(inserted);
  BASSIGN(int32_t again, memo.GetOrInsert(5, &inserted));
  EXPECT_FALSE(inserted);
  EXPECT_EQ(i5, 0);
  EXPECT_EQ(i7, 1);
  EXPECT_EQ(again, 0);
  EXPECT_EQ(memo.Get(7), 1);
  EXPECT_EQ(memo.Get(8), kKeyNotFound);
  ASSERT_EQ(memo.size(), 2);
  EXPECT_EQ(memo.values()[0], 5);
  EXPECT_EQ(memo.value(1), 7);
  std::vector<int32_t> seen;
  memo.VisitValues(0, [&](int32_t index, int32_t v) {
    EXPECT_EQ(index, static_cast<int32_t>(seen.size()));
    seen.push_back(v);
  });
  EXPECT_EQ(seen, (std::vector<int32_t>{5, 7}));
  memo.Clear();
  EXPECT_EQ(memo.size(), 0);
  EXPECT_EQ(memo.Get(5), kKeyNotFound);
  BASSIGN(int32_t fresh, memo.GetOrInsert(9));
  EXPECT_EQ(fresh, 0);
}

TEST(ScalarMemoTable, HundredThousandDistinctValues) {
  ScalarMemoTable<int64_t> memo;
  std::mt19937_64 rng(42);
  std::vector<int64_t> values;
  std::unordered_map<int64_t, int32_t> reference;
  while (values.size() < 100'000) {
    const auto v = static_cast<int64_t>(rng());
    if (reference.emplace(v, static_cast<int32_t>(values.size())).second) values.push_back(v);
  }
  for (size_t i = 0; i < values.size(); ++i) {
    bool inserted = false;
    BASSIGN(int32_t index, memo.GetOrInsert(values[i], &inserted));
    ASSERT_TRUE(inserted);
    ASSERT_EQ(index, static_cast<int32_t>(i));
  }
  ASSERT_EQ(memo.size(), 100'000);
  // Everything found again, in any order; values kept in insertion order.
  for (size_t i = values.size(); i-- > 0;) {
    bool inserted = true;
    BASSIGN(int32_t index, memo.GetOrInsert(values[i], &inserted));
    ASSERT_FALSE(inserted);
    ASSERT_EQ(index, reference[values[i]]);
  }
  std::vector<int64_t> copy(values.size() - 10);
  memo.CopyValues(10, copy.data());
  for (size_t i = 0; i < copy.size(); ++i) ASSERT_EQ(copy[i], values[i + 10]);
  EXPECT_EQ(memo.Get(values[0] ^ 1), reference.count(values[0] ^ 1) ? 0 : kKeyNotFound);
}

TEST(ScalarMemoTable, BatchInsertAndReserveMatchOneByOne) {
  // GetOrInsertBatch (prefetching) and Reserve (one rehash midway) give the
  // indices GetOrInsert gives one value at a time; floats go in as their bits.
  std::mt19937_64 rng(7);
  std::vector<uint32_t> bits(50'000);
  for (auto& b : bits) b = static_cast<uint32_t>(rng() % 20'000);  // repeats too
  ScalarMemoTable<uint32_t> one;
  std::vector<int32_t> expected;
  for (uint32_t b : bits) {
    BASSIGN(int32_t index, one.GetOrInsert(b));
    expected.push_back(index);
  }
  std::vector<float> floats(bits.size());
  std::memcpy(floats.data(), bits.data(), bits.size() * sizeof(float));
  for (const bool reserve : {false, true}) {
    ScalarMemoTable<uint32_t> batch;
    std::vector<int32_t> out(bits.size(), -2);
    std::vector<int64_t> new_at;
    const int64_t half = static_cast<int64_t>(bits.size()) / 2;
    BASSERT_OK(batch.GetOrInsertBatch(floats.data(), half, out.data(),
                                     [&](int64_t j) { new_at.push_back(j); }));
    if (reserve) {
      BASSERT_OK(batch.Reserve(1 << 17));
      EXPECT_GE(batch.memory_used(), int64_t{1} << 18);
    }
    BASSERT_OK(batch.GetOrInsertBatch(floats.data() + half, half, out.data() + half,
                                     [&](int64_t j) { new_at.push_back(half + j); }));
    EXPECT_EQ(out, expected);
    ASSERT_EQ(batch.size(), one.size());
    // on_insert saw exactly the first occurrences, in order.
    std::vector<int64_t> first;
    std::unordered_map<uint32_t, int> seen;
    for (size_t j = 0; j < bits.size(); ++j) {
      if (seen.emplace(bits[j], 0).second) first.push_back(static_cast<int64_t>(j));
    }
    EXPECT_EQ(new_at, first);
    for (int32_t i = 0; i < batch.size(); ++i) ASSERT_EQ(batch.value(i), one.value(i));
  }
  ScalarMemoTable<uint32_t> empty;
  BASSERT_OK(empty.Reserve(1000));
  EXPECT_EQ(empty.Get(5), kKeyNotFound);
  BASSIGN(int32_t index, empty.GetOrInsert(5));
  EXPECT_EQ(index, 0);
}

TEST(ScalarMemoTable, ReserveForAPowerOfTwoAndAMarginDoesNotDouble) {
  // The Parquet writer reserves its dictionary limit's values plus a
  // mini-batch (2^18 + 1024 int32 values for 1 MiB): 2^19 slots of 4 bytes
  // (at most 9/16 full), not 2^20; filling it to the reserved size does not
  // grow it, one value past MaxFill does.
  const int64_t n = (int64_t{1} << 18) + 1024;
  const int64_t slots = int64_t{1} << 19;
  const int64_t fill = internal::MaxFill(slots);
  ScalarMemoTable<int32_t> table;
  BASSERT_OK(table.Reserve(n));
  const int64_t reserved = table.memory_used();
  EXPECT_LE(reserved, slots * 4 + fill * 4);
  EXPECT_GE(reserved, slots * 4);
  std::vector<int32_t> values(static_cast<size_t>(fill) + 1);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int32_t>(i * 2654435761u);
  std::vector<int32_t> out(values.size());
  BASSERT_OK(table.GetOrInsertBatch(values.data(), fill, out.data(), [](int64_t) {}));
  EXPECT_EQ(table.memory_used(), reserved);
  EXPECT_EQ(table.size(), fill);
  BASSIGN(int32_t last, table.GetOrInsert(values.back()));
  EXPECT_EQ(last, fill);
  EXPECT_GT(table.memory_used(), reserved);
  for (int64_t i = 0; i <= fill; ++i) ASSERT_EQ(table.Get(values[static_cast<size_t>(i)]), i);
}

TEST(ScalarMemoTable, ForcedCollisions) {
  // Hashes masked to 2 bits: every lookup walks a long probe run.
  ScalarMemoTable<uint16_t> memo;
  memo.set_hash_mask_for_testing(3);
  for (int i = 0; i < 3000; ++i) {
    BASSIGN(int32_t index, memo.GetOrInsert(static_cast<uint16_t>(i * 7)));
    ASSERT_EQ(index, i);
  }
  for (int i = 0; i < 3000; ++i) ASSERT_EQ(memo.Get(static_cast<uint16_t>(i * 7)), i);
  EXPECT_EQ(memo.Get(1), kKeyNotFound);
  EXPECT_EQ(memo.size(), 3000);
}

TEST(ScalarMemoTable, SmallTablesTheirLastSlotsAndFewTagBits) {
  // Tables of 32 slots filled to MaxFill (18 values): lookups that start in
  // the last three slots (read one at a time, wrapping to slot 0), probe
  // runs over several windows of four (hashes masked to 3 position bits),
  // and tags of 2 bits (most full slots' tags match: the values decide),
  // each against a std::unordered_map.
  const uint64_t masks[] = {~uint64_t{0}, (~uint64_t{0} << 32) | 7, (uint64_t{3} << 62) | 31};
  std::mt19937_64 rng(11);
  for (const uint64_t mask : masks) {
    for (int table_no = 0; table_no < 200; ++table_no) {
      ScalarMemoTable<uint64_t> memo;
      memo.set_hash_mask_for_testing(mask);
      BASSERT_OK(memo.Reserve(internal::MaxFill(32)));
      const int64_t reserved = memo.memory_used();
      std::unordered_map<uint64_t, int32_t> reference;
      std::vector<uint64_t> values;
      while (values.size() < static_cast<size_t>(internal::MaxFill(32))) {
        const uint64_t v = rng() % 64;  // repeats too
        const auto [it, fresh] = reference.emplace(v, static_cast<int32_t>(reference.size()));
        if (fresh) values.push_back(v);
        int32_t index = -3;
        if (table_no % 2 == 0) {
          BASSIGN(index, memo.GetOrInsert(v));
        } else {
          BASSERT_OK(memo.GetOrInsertBatch(&v, 1, &index, [](int64_t) {}));
        }
        ASSERT_EQ(index, it->second);
      }
      ASSERT_EQ(memo.memory_used(), reserved);  // 32 slots all along
      ASSERT_EQ(memo.size(), static_cast<int32_t>(values.size()));
      for (uint64_t v = 0; v < 64; ++v) {
        const auto it = reference.find(v);
        ASSERT_EQ(memo.Get(v), it == reference.end() ? kKeyNotFound : it->second);
      }
      for (int32_t i = 0; i < memo.size(); ++i) ASSERT_EQ(memo.value(i), values[static_cast<size_t>(i)]);
    }
  }
}

TEST(ScalarMemoTable, FloatsNaNAndSignedZero) {
  ScalarMemoTable<double> memo;
  const double nan1 = std::numeric_limits<double>::quiet_NaN();
  double nan2;
  const uint64_t payload = 0x7FF8'0000'0000'1234ULL;  // another NaN bit pattern
  std::memcpy(&nan2, &payload, 8);
  ASSERT_TRUE(std::isnan(nan2));
  BASSIGN(int32_t a, memo.GetOrInsert(nan1));
  BASSIGN(int32_t b, memo.GetOrInsert(nan2));
  BASSIGN(int32_t c, memo.GetOrInsert(-nan1));
  BASSIGN(int32_t z, memo.GetOrInsert(0.0));
  BASSIGN(int32_t nz, memo.GetOrInsert(-0.0));
  BASSIGN(int32_t one, memo.GetOrInsert(1.0));
  EXPECT_EQ(a, 0);
  EXPECT_EQ(b, 0);
  EXPECT_EQ(c, 0);
  EXPECT_EQ(z, 1);
  EXPECT_EQ(nz, 2);
  EXPECT_EQ(one, 3);
  EXPECT_EQ(memo.size(), 4);
  EXPECT_TRUE(std::isnan(memo.value(0)));
  EXPECT_FALSE(std::signbit(memo.value(1)));
  EXPECT_TRUE(std::signbit(memo.value(2)));

  ScalarMemoTable<float> fmemo;
  BASSIGN(int32_t f0, fmemo.GetOrInsert(std::nanf("")));
  BASSIGN(int32_t f1, fmemo.GetOrInsert(-std::nanf("7")));
  EXPECT_EQ(f0, f1);
}

TEST(BytesEqual, EveryLengthAndEveryDifferingByte) {
  // Lengths 0..40 (the inline paths of 1, 2, 4 and 8 bytes up to 16, and
  // memcmp beyond), equal and differing at each position, at odd addresses.
  std::vector<uint8_t> a(48), b(48);
  for (size_t i = 0; i < a.size(); ++i) a[i] = b[i] = static_cast<uint8_t>(i * 7 + 1);
  EXPECT_TRUE(internal::BytesEqual(nullptr, nullptr, 0));
  for (size_t n = 0; n <= 40; ++n) {
    EXPECT_TRUE(internal::BytesEqual(a.data() + 1, b.data() + 1, n)) << n;
    for (size_t k = 0; k < n; ++k) {
      b[1 + k] ^= 0x40;
      EXPECT_FALSE(internal::BytesEqual(a.data() + 1, b.data() + 1, n)) << n << " " << k;
      b[1 + k] ^= 0x40;
    }
  }
}

TEST(BinaryMemoTable, ValuesOffsetsAndCollisions) {
  BinaryMemoTable memo;
  EXPECT_EQ(memo.size(), 0);
  EXPECT_EQ(memo.data_length(), 0);
  EXPECT_EQ(memo.data_length(0), 0);
  EXPECT_EQ(memo.Get("x"), kKeyNotFound);
  bool inserted = false;
  BASSIGN(int32_t e, memo.GetOrInsert("", &inserted));
  EXPECT_TRUE(inserted);
  BASSIGN(int32_t h, memo.GetOrInsert("hello"));
  BASSIGN(int32_t w, memo.GetOrInsert(std::string_view("wor\0ld", 6)));
  BASSIGN(int32_t h2, memo.GetOrInsert("hello", &inserted));
  EXPECT_FALSE(inserted);
  BASSIGN(int32_t e2, memo.GetOrInsert(nullptr, 0));
  EXPECT_EQ(e, 0);
  EXPECT_EQ(h, 1);
  EXPECT_EQ(w, 2);
  EXPECT_EQ(h2, 1);
  EXPECT_EQ(e2, 0);
  ASSERT_EQ(memo.size(), 3);
  EXPECT_EQ(memo.value(0), "");
  EXPECT_EQ(memo.value(2), std::string_view("wor\0ld", 6));
  EXPECT_EQ(memo.offsets()[0], 0);
  EXPECT_EQ(memo.offsets()[1], 0);
  EXPECT_EQ(memo.offsets()[2], 5);
  EXPECT_EQ(memo.offsets()[3], 11);
  EXPECT_EQ(memo.data_length(), 11);
  EXPECT_EQ(memo.data_length(2), 6);
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(memo.data()), 5), "hello");

  // Prefixes and same-length strings under heavy forced collisions.
  BinaryMemoTable colliding;
  colliding.set_hash_mask_for_testing(1);
  std::vector<std::string> values;
  for (int i = 0; i < 2000; ++i) {
    values.push_back(std::string(static_cast<size_t>(i % 5), 'k') + std::to_string(i));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    BASSIGN(int32_t index, colliding.GetOrInsert(values[i]));
    ASSERT_EQ(index, static_cast<int32_t>(i));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    ASSERT_EQ(colliding.Get(values[i]), static_cast<int32_t>(i));
    ASSERT_EQ(colliding.value(static_cast<int32_t>(i)), values[i]);
  }
  EXPECT_EQ(colliding.Get("kk"), kKeyNotFound);
}

TEST(BinaryMemoTable, HundredThousandStrings) {
  BinaryMemoTable memo(DefaultMemoryPool(), 1000, 1 << 16);
  for (int i = 0; i < 100'000; ++i) {
    BASSIGN(int32_t index, memo.GetOrInsert("value-" + std::to_string(i)));
    ASSERT_EQ(index, i);
  }
  for (int i = 0; i < 100'000; i += 7) ASSERT_EQ(memo.Get("value-" + std::to_string(i)), i);
  int32_t visited = 0;
  memo.VisitValues(99'990, [&](int32_t index, std::string_view v) {
    EXPECT_EQ(v, "value-" + std::to_string(index));
    ++visited;
  });
  EXPECT_EQ(visited, 10);
  EXPECT_GT(memo.memory_used(), 0);
}

TEST(FindRepeatedValue, FirstRepeatAgainstABinaryMemoTable) {
  // Random short strings (many repeats) and distinct ones (none), with
  // int32 and int64 offsets, with real hashes and with every hash equal:
  // the answer is the first k that a memo table does not insert.
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 24; ++trial) {
    const int64_t n = trial % 4 == 0 ? 0 : static_cast<int64_t>(rng() % 3000) + 1;
    const bool distinct = trial % 2 == 1;
    std::string data;
    std::vector<int64_t> o64{0};
    for (int64_t k = 0; k < n; ++k) {
      if (distinct) {
        data += "v" + std::to_string(k) + std::string(static_cast<size_t>(k % 23), 'x');
      } else {
        data += std::string(static_cast<size_t>(rng() % 4), static_cast<char>('a' + rng() % 6));
      }
      o64.push_back(static_cast<int64_t>(data.size()));
    }
    std::vector<int32_t> o32(o64.begin(), o64.end());
    internal::BinaryMemoTable memo;
    int64_t expected = -1;
    for (int64_t k = 0; k < n && expected < 0; ++k) {
      bool inserted = false;
      ASSERT_TRUE(memo.GetOrInsert(data.data() + o64[k], o64[k + 1] - o64[k], &inserted).ok());
      if (!inserted) expected = k;
    }
    if (distinct) {
      EXPECT_EQ(expected, -1);
    }
    const auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
    for (uint64_t mask : {~uint64_t{0}, uint64_t{0}}) {
      if (mask == 0 && n > 1000) continue;  // all in one probe chain: quadratic
      std::vector<uint64_t> hashes;
      for (int64_t k = 0; k < n; ++k) {
        hashes.push_back(internal::HashBytes(data.data() + o64[k], o64[k + 1] - o64[k]) & mask);
      }
      auto a = internal::FindRepeatedValue(o32.data(), bytes, hashes.data(), n, DefaultMemoryPool());
      auto b = internal::FindRepeatedValue(o64.data(), bytes, hashes.data(), n, DefaultMemoryPool());
      ASSERT_TRUE(a.ok() && b.ok());
      EXPECT_EQ(*a, expected) << "trial " << trial;
      EXPECT_EQ(*b, expected) << "trial " << trial;
    }
  }
  // A null data pointer with empty values: the second is a repeat.
  const int32_t empty[] = {0, 0, 0};
  const uint64_t same[] = {7, 7};
  auto r = internal::FindRepeatedValue(empty, nullptr, same, 2, DefaultMemoryPool());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 1);
}

TEST(FindRepeatedValue, GivesUpAfterMaxCollisionsWhenAsked) {
  // 500 distinct values with one hash: value k is compared with the k
  // earlier ones, 499 * 500 / 2 = 124,750 compares in all. Unlimited, or
  // limited to that many, the answer is -1; one fewer, the search stops.
  std::string data;
  std::vector<int32_t> o{0};
  for (int k = 0; k < 500; ++k) {
    data += "value-" + std::to_string(k);
    o.push_back(static_cast<int32_t>(data.size()));
  }
  const std::vector<uint64_t> same(501, 42);
  const auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  for (int64_t limit : {int64_t{-1}, int64_t{124'750}, int64_t{124'749}, int64_t{1000}, int64_t{0}}) {
    auto r = internal::FindRepeatedValue(o.data(), bytes, same.data(), 500, DefaultMemoryPool(), limit);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(*r, limit == -1 || limit == 124'750 ? -1 : internal::kTooManyCollisions) << limit;
  }
  // The same values with a repeat at 30 (of value 3): found first.
  std::string rdata;
  std::vector<int32_t> ro{0};
  for (int k = 0; k < 500; ++k) {
    rdata += "value-" + std::to_string(k == 30 ? 3 : k);
    ro.push_back(static_cast<int32_t>(rdata.size()));
  }
  auto repeat = internal::FindRepeatedValue(ro.data(), reinterpret_cast<const uint8_t*>(rdata.data()),
                                            same.data(), 500, DefaultMemoryPool(), 1000);
  ASSERT_TRUE(repeat.ok());
  EXPECT_EQ(*repeat, 30);
}

TEST(HashBytesSampled, WholeUpTo64BytesThenHeadMiddleTailAndLength) {
  std::string a(64, 'a');
  EXPECT_EQ(internal::HashBytesSampled(a.data(), 64), internal::HashBytes(a.data(), 64));
  EXPECT_EQ(internal::HashBytesSampled(a.data(), 0), internal::HashBytes(a.data(), 0));
  std::string b = a;
  b[40] = 'b';  // every byte of a 64-byte value counts
  EXPECT_NE(internal::HashBytesSampled(a.data(), 64), internal::HashBytesSampled(b.data(), 64));
  // 200 bytes: [0, 16), [92, 108) and [184, 200) are read, with the length.
  std::string long_a(200, 'x');
  const uint64_t base = internal::HashBytesSampled(long_a.data(), 200);
  for (size_t at : {0, 15, 92, 107, 184, 199}) {
    std::string c = long_a;
    c[at] = 'y';
    EXPECT_NE(internal::HashBytesSampled(c.data(), 200), base) << at;
  }
  for (size_t at : {16, 40, 91, 108, 183}) {
    std::string c = long_a;
    c[at] = 'y';
    EXPECT_EQ(internal::HashBytesSampled(c.data(), 200), base) << at;  // not read
  }
  std::string longer(201, 'x');
  EXPECT_NE(internal::HashBytesSampled(longer.data(), 201), base);
}

TEST(MemoTable, OutOfMemoryLeavesTheTableUsable) {
  CappedMemoryPool pool(SystemMemoryPool(), 64 * 1024);
  {
    BinaryMemoTable memo(&pool);
    Status failure;
    int inserted = 0;
    for (int i = 0; i < 100'000; ++i) {
      auto r = memo.GetOrInsert("some string value " + std::to_string(i));
      if (!r.ok()) {
        failure = r.status();
        break;
      }
      ++inserted;
    }
    EXPECT_TRUE(failure.IsOutOfMemory()) << failure.ToString();
    EXPECT_EQ(memo.size(), inserted);
    for (int i = 0; i < inserted; ++i) {
      ASSERT_EQ(memo.Get("some string value " + std::to_string(i)), i);
    }
  }
  EXPECT_EQ(pool.bytes_allocated(), 0);
}

// --- DictionaryBuilder -------------------------------------------------------

TEST(DictionaryBuilder, StringsAreDeduplicated) {
  auto b = MakeDict(dictionary(int32(), utf8()));
  ASSERT_NE(b, nullptr);
  for (const char* s : {"apple", "pear", "apple", "fig", "pear", "apple"}) {
    BASSERT_OK(b->Append(s));
  }
  BASSERT_OK(b->AppendNull());
  BASSERT_OK(b->Append(""));
  EXPECT_EQ(b->dictionary_length(), 4);
  BASSIGN(ArrayDataPtr data, b->Finish());
  EXPECT_TRUE(data->type->Equals(*dictionary(int32(), utf8())));
  ASSERT_EQ(data->length, 8);
  EXPECT_EQ(data->null_count, 1);
  ASSERT_EQ(data->buffers.size(), 2u);
  const std::vector<int64_t> expected = {0, 1, 0, 2, 1, 0, 0, 3};
  for (int64_t i = 0; i < 8; ++i) {
    EXPECT_EQ(IndexAt(*data, i), expected[static_cast<size_t>(i)]) << i;
  }
  EXPECT_TRUE(data->IsNull(6));
  ASSERT_NE(data->dictionary, nullptr);
  StringArray dict(data->dictionary);
  ASSERT_EQ(dict.length(), 4);
  EXPECT_EQ(dict.null_count(), 0);
  EXPECT_EQ(dict.GetView(0), "apple");
  EXPECT_EQ(dict.GetView(1), "pear");
  EXPECT_EQ(dict.GetView(2), "fig");
  EXPECT_EQ(dict.GetView(3), "");
  EXPECT_EQ(dict.raw_value_offsets()[4], 12);
  // The typed view works on it too.
  DictionaryArray view(data);
  EXPECT_EQ(view.GetValueIndex(3), 2);
  EXPECT_EQ(view.dictionary()->length(), 4);
}

TEST(DictionaryBuilder, IntegersWithEveryIndexType) {
  for (auto index_type :
       {int8(), uint8(), int16(), uint16(), int32(), uint32(), int64(), uint64()}) {
    SCOPED_TRACE(index_type->ToString());
    auto b = MakeDict(dictionary(index_type, int64()));
    ASSERT_NE(b, nullptr);
    const std::vector<int64_t> values = {10, -3, 10, 10, 7, -3};
    BASSERT_OK(b->Reserve(static_cast<int64_t>(values.size()) + 1));
    for (int64_t v : values) BASSERT_OK(b->Append(v));
    BASSERT_OK(b->AppendNull());
    BASSIGN(ArrayDataPtr data, b->Finish());
    EXPECT_EQ(data->buffers[1]->size(), 7 * index_type->byte_width());
    const std::vector<int64_t> expected = {0, 1, 0, 0, 2, 1};
    for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(IndexAt(*data, i), expected[static_cast<size_t>(i)]);
    EXPECT_TRUE(data->IsNull(6));
    EXPECT_EQ(IndexAt(*data, 6), 0);  // null slots hold index 0
    Int64Array dict(data->dictionary);
    ASSERT_EQ(dict.length(), 3);
    EXPECT_EQ(dict.Value(0), 10);
    EXPECT_EQ(dict.Value(1), -3);
    EXPECT_EQ(dict.Value(2), 7);
  }
}

TEST(DictionaryBuilder, CTypesMustMatchTheStorage) {
  auto b = MakeDict(dictionary(int16(), int32()));
  BASSERT_OK(b->Append(5));           // int -> int32_t
  BASSERT_OK(b->Append(int32_t{5}));
  Status st = b->Append(int64_t{5});
  EXPECT_TRUE(st.IsTypeError()) << st.ToString();
  EXPECT_NE(st.message().find("int64_t"), std::string::npos) << st.message();
  EXPECT_TRUE(b->Append("five").IsTypeError());
  EXPECT_TRUE(b->Append(5.0).IsTypeError());
  auto s = MakeDict(dictionary(int16(), utf8()));
  EXPECT_TRUE(s->Append(5).IsTypeError());
  auto ts = MakeDict(dictionary(int8(), timestamp(TimeUnit::kMilli)));
  BASSERT_OK(ts->Append(int64_t{1'000}));
  BASSERT_OK(ts->Append(1'000LL));  // long long is int64 storage too
  EXPECT_EQ(ts->dictionary_length(), 1);
  EXPECT_EQ(b->length(), 2);
}

TEST(DictionaryBuilder, FloatsWithNaN) {
  auto b = MakeDict(dictionary(int8(), float64()));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (double v : {1.5, nan, -0.0, 0.0, nan, 1.5, -nan}) BASSERT_OK(b->Append(v));
  BASSIGN(ArrayDataPtr data, b->Finish());
  const std::vector<int64_t> expected = {0, 1, 2, 3, 1, 0, 1};
  for (int64_t i = 0; i < 7; ++i) {
    EXPECT_EQ(IndexAt(*data, i), expected[static_cast<size_t>(i)]) << i;
  }
  DoubleArray dict(data->dictionary);
  ASSERT_EQ(dict.length(), 4);
  EXPECT_EQ(dict.Value(0), 1.5);
  EXPECT_TRUE(std::isnan(dict.Value(1)));
  EXPECT_TRUE(std::signbit(dict.Value(2)));
  EXPECT_FALSE(std::signbit(dict.Value(3)));

  auto f = MakeDict(dictionary(int32(), float32()));
  BASSERT_OK(f->Append(std::nanf("")));
  BASSERT_OK(f->Append(std::nanf("")));
  BASSERT_OK(f->Append(2.0f));
  EXPECT_EQ(f->dictionary_length(), 2);
}

TEST(DictionaryBuilder, Int8IndexOverflowAfter128Values) {
  auto b = MakeDict(dictionary(int8(), utf8()));
  EXPECT_EQ(b->max_dictionary_length(), 128);
  for (int i = 0; i < 128; ++i) BASSERT_OK(b->Append("v" + std::to_string(i)));
  // Known values still append once the dictionary is full.
  BASSERT_OK(b->Append("v0"));
  BASSERT_OK(b->Append("v127"));
  Status st = b->Append("v128");
  ASSERT_TRUE(st.IsCapacityError()) << st.ToString();
  EXPECT_NE(st.message().find("int8"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("128"), std::string::npos) << st.message();
  EXPECT_EQ(b->dictionary_length(), 128);  // the refused value did not get in
  EXPECT_EQ(b->length(), 130);
  BASSIGN(ArrayDataPtr data, b->Finish());
  EXPECT_EQ(IndexAt(*data, 127), 127);
  EXPECT_EQ(IndexAt(*data, 129), 127);
  EXPECT_EQ(data->dictionary->length, 128);

  auto u = MakeDict(dictionary(uint8(), int32()));
  for (int i = 0; i < 256; ++i) BASSERT_OK(u->Append(i));
  EXPECT_TRUE(u->Append(256).IsCapacityError());
  BASSIGN(data, u->Finish());
  EXPECT_EQ(IndexAt(*data, 255), 255);

  auto from_array = MakeDict(dictionary(int8(), int32()));
  Int32Builder many;
  for (int i = 0; i < 200; ++i) BASSERT_OK(many.Append(i));
  BASSIGN(ArrayPtr arr, many.FinishArray());
  EXPECT_TRUE(from_array->AppendArray(*arr).IsCapacityError());
  EXPECT_TRUE(from_array->InsertMemoValues(*arr).IsCapacityError());
  EXPECT_EQ(from_array->dictionary_length(), 128);
}

TEST(DictionaryBuilder, ThirtyTwoBitOffsetLimitOfTheDictionary) {
  auto b = MakeDict(dictionary(int32(), utf8()));
  EXPECT_EQ(b->max_dictionary_bytes(), 2147483647);
  EXPECT_EQ(MakeDict(dictionary(int32(), large_utf8()))->max_dictionary_bytes(),
            std::numeric_limits<int64_t>::max());
  b->set_max_dictionary_bytes_for_testing(8);
  BASSERT_OK(b->Append("abcd"));
  BASSERT_OK(b->Append("efgh"));  // exactly 8 bytes
  BASSERT_OK(b->Append("abcd"));  // known values still fit
  BASSERT_OK(b->Append(""));      // a new empty value takes no bytes
  Status st = b->Append("i");
  ASSERT_TRUE(st.IsCapacityError()) << st.ToString();
  EXPECT_NE(st.message().find("past 8 bytes"), std::string::npos) << st.message();
  StringBuilder sb;
  BASSERT_OK(sb.AppendValues(std::vector<std::string>{"efgh", "jk"}));
  BASSIGN(ArrayPtr more, sb.FinishArray());
  EXPECT_TRUE(b->AppendArray(*more).IsCapacityError());
  EXPECT_TRUE(b->InsertMemoValues(*more).IsCapacityError());
  EXPECT_EQ(b->dictionary_length(), 3);
  BASSIGN(ArrayDataPtr data, b->Finish());
  EXPECT_EQ(data->length, 5);  // AppendArray appended "efgh" before refusing "jk"
  StringArray dict(data->dictionary);
  EXPECT_EQ(dict.raw_value_offsets()[3], 8);
}

TEST(DictionaryBuilder, MemoSurvivesFinishAndDeltas) {
  auto b = MakeDict(dictionary(int16(), utf8()));
  BASSERT_OK(b->Append("a"));
  BASSERT_OK(b->Append("b"));
  BASSIGN(ArrayDataPtr first, b->Finish());
  EXPECT_EQ(first->dictionary->length, 2);

  // Second chunk: old values keep their indices; Finish gives the whole
  // dictionary.
  BASSERT_OK(b->Append("b"));
  BASSERT_OK(b->Append("c"));
  BASSIGN(ArrayDataPtr second, b->Finish());
  EXPECT_EQ(IndexAt(*second, 0), 1);
  EXPECT_EQ(IndexAt(*second, 1), 2);
  StringArray full(second->dictionary);
  ASSERT_EQ(full.length(), 3);
  EXPECT_EQ(full.GetView(2), "c");

  // Third chunk as a delta: only "d" is new since the last Finish.
  BASSERT_OK(b->Append("a"));
  BASSERT_OK(b->Append("d"));
  BASSERT_OK(b->AppendNull());
  BASSIGN(DictionaryDelta delta, b->FinishDelta());
  EXPECT_TRUE(delta.indices->type->Equals(*int16()));
  Int16Array idx(delta.indices);
  ASSERT_EQ(idx.length(), 3);
  EXPECT_EQ(idx.Value(0), 0);
  EXPECT_EQ(idx.Value(1), 3);
  EXPECT_TRUE(idx.IsNull(2));
  StringArray d(delta.delta);
  ASSERT_EQ(d.length(), 1);
  EXPECT_EQ(d.GetView(0), "d");
  EXPECT_EQ(d.raw_value_offsets()[0], 0);  // rebased
  EXPECT_EQ(b->length(), 0);

  // No new values: an empty delta.
  BASSERT_OK(b->Append("c"));
  BASSIGN(delta, b->FinishDelta());
  EXPECT_EQ(delta.delta->length, 0);
  EXPECT_EQ(Int16Array(delta.indices).Value(0), 2);

  // Reset keeps the memo; ResetFull clears it.
  BASSERT_OK(b->Append("zzz"));
  b->Reset();
  EXPECT_EQ(b->dictionary_length(), 5);
  b->ResetFull();
  EXPECT_EQ(b->dictionary_length(), 0);
  BASSERT_OK(b->Append("c"));
  BASSIGN(ArrayDataPtr fresh, b->Finish());
  EXPECT_EQ(IndexAt(*fresh, 0), 0);
  EXPECT_EQ(fresh->dictionary->length, 1);
}

TEST(DictionaryBuilder, BinaryLikeValueTypes) {
  for (auto value_type : {binary(), large_utf8(), large_binary(), utf8_view(), binary_view()}) {
    SCOPED_TRACE(value_type->ToString());
    auto b = MakeDict(dictionary(uint16(), value_type));
    const std::string long_value = "a value longer than twelve bytes";
    for (const std::string& v : std::vector<std::string>{"x", long_value, "x", "", long_value}) {
      BASSERT_OK(b->Append(v));
    }
    BASSIGN(ArrayDataPtr data, b->Finish());
    const std::vector<int64_t> expected = {0, 1, 0, 2, 1};
    for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(IndexAt(*data, i), expected[static_cast<size_t>(i)]);
    ASSERT_TRUE(data->dictionary->type->Equals(*value_type));
    ASSERT_EQ(data->dictionary->length, 3);
    std::vector<std::string> dict;
    if (IsBinaryView(value_type->id())) {
      BinaryViewArray a(data->dictionary);
      for (int64_t i = 0; i < 3; ++i) dict.emplace_back(a.GetView(i));
    } else if (IsLargeBinaryLike(value_type->id())) {
      LargeBinaryArray a(data->dictionary);
      for (int64_t i = 0; i < 3; ++i) dict.emplace_back(a.GetView(i));
    } else {
      BinaryArray a(data->dictionary);
      for (int64_t i = 0; i < 3; ++i) dict.emplace_back(a.GetView(i));
    }
    EXPECT_EQ(dict, (std::vector<std::string>{"x", long_value, ""}));
  }
}

TEST(DictionaryBuilder, FixedSizeValueTypes) {
  auto b = MakeDict(dictionary(int32(), fixed_size_binary(3)));
  BASSERT_OK(b->Append("abc"));
  BASSERT_OK(b->Append("xyz"));
  BASSERT_OK(b->Append("abc"));
  Status st = b->Append("ab");
  EXPECT_TRUE(st.IsInvalid()) << st.ToString();
  BASSERT_OK(b->AppendEmptyValue());
  BASSIGN(ArrayDataPtr data, b->Finish());
  FixedSizeBinaryArray dict(data->dictionary);
  ASSERT_EQ(dict.length(), 3);
  EXPECT_EQ(dict.GetView(0), "abc");
  EXPECT_EQ(dict.GetView(1), "xyz");
  EXPECT_EQ(dict.GetView(2), std::string(3, '\0'));
  EXPECT_EQ(IndexAt(*data, 2), 0);
  EXPECT_EQ(IndexAt(*data, 3), 2);

  // decimal128 by raw bytes.
  auto d = MakeDict(dictionary(int8(), decimal128(20, 2)));
  DecimalBuilder values(decimal128(20, 2));
  BASSERT_OK(values.AppendInt64(-5));
  BASSERT_OK(values.AppendInt64(12345));
  BASSERT_OK(values.AppendNull());
  BASSERT_OK(values.AppendInt64(-5));
  BASSIGN(ArrayPtr arr, values.FinishArray());
  BASSERT_OK(d->AppendArray(*arr));
  BASSIGN(data, d->Finish());
  ASSERT_EQ(data->length, 4);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(IndexAt(*data, 3), 0);
  FixedSizeBinaryArray ddict(data->dictionary);
  ASSERT_EQ(ddict.length(), 2);
  EXPECT_EQ(ddict.GetValue(0)[0], 0xFB);
  EXPECT_EQ(ddict.GetValue(0)[15], 0xFF);
}

TEST(DictionaryBuilder, AppendArrayAndInsertMemoValues) {
  auto b = MakeDict(dictionary(int32(), utf8()));
  StringBuilder sb;
  BASSERT_OK(sb.AppendValues(std::vector<std::string>{"z", "y", "x"}));
  BASSIGN(ArrayPtr seed, sb.FinishArray());
  BASSERT_OK(b->InsertMemoValues(*seed));  // fixes the order, appends nothing
  EXPECT_EQ(b->length(), 0);
  EXPECT_EQ(b->dictionary_length(), 3);
  BASSERT_OK(sb.AppendValues(std::vector<std::string>{"x", "", "w", "z"},
                             std::vector<uint8_t>{1, 0, 1, 1}.data()));
  BASSIGN(ArrayPtr input, sb.FinishArray());
  BASSERT_OK(b->AppendArray(*input->Slice(1)));  // a sliced input: "", "w", "z"
  BASSERT_OK(b->AppendArray(*input));
  Int32Builder wrong;
  BASSIGN(ArrayPtr ints, wrong.FinishArray());
  EXPECT_TRUE(b->AppendArray(*ints).IsTypeError());
  BASSIGN(ArrayDataPtr data, b->Finish());
  ASSERT_EQ(data->length, 7);
  EXPECT_EQ(data->null_count, 2);
  const std::vector<int64_t> expected = {-1, 3, 0, 2, -1, 3, 0};
  for (int64_t i = 0; i < 7; ++i) {
    if (expected[static_cast<size_t>(i)] < 0) {
      EXPECT_TRUE(data->IsNull(i)) << i;
    } else {
      EXPECT_EQ(IndexAt(*data, i), expected[static_cast<size_t>(i)]) << i;
    }
  }
  StringArray dict(data->dictionary);
  ASSERT_EQ(dict.length(), 4);
  EXPECT_EQ(dict.GetView(0), "z");
  EXPECT_EQ(dict.GetView(3), "w");
}

TEST(DictionaryBuilder, TemporalAndIntervalValueTypes) {
  auto dates = MakeDict(dictionary(int8(), date32()));
  BASSERT_OK(dates->Append(int32_t{19000}));
  BASSERT_OK(dates->Append(int32_t{19000}));
  BASSIGN(ArrayDataPtr data, dates->Finish());
  EXPECT_EQ(data->dictionary->length, 1);
  EXPECT_TRUE(data->dictionary->type->Equals(*date32()));

  auto dt = MakeDict(dictionary(int8(), day_time_interval()));
  BASSERT_OK(dt->Append(DayTimeIntervalBuilder::Pack(1, 2)));
  BASSERT_OK(dt->Append(DayTimeIntervalBuilder::Pack(1, 3)));
  BASSERT_OK(dt->Append(DayTimeIntervalBuilder::Pack(1, 2)));
  EXPECT_EQ(dt->dictionary_length(), 2);

  auto mdn = MakeDict(dictionary(int8(), month_day_nano_interval()));
  MonthDayNanoIntervalBuilder mb;
  BASSERT_OK(mb.Append(1, 2, 3));
  BASSERT_OK(mb.Append(1, 2, 3));
  BASSERT_OK(mb.Append(1, 2, 4));
  BASSIGN(ArrayPtr arr, mb.FinishArray());
  BASSERT_OK(mdn->AppendArray(*arr));
  EXPECT_EQ(mdn->dictionary_length(), 2);

  auto h = MakeDict(dictionary(int8(), float16()));
  BASSERT_OK(h->Append(uint16_t{0x3C00}));
  BASSERT_OK(h->Append(uint16_t{0x3C00}));
  EXPECT_EQ(h->dictionary_length(), 1);
}

TEST(DictionaryBuilder, EmptyAndAllNull) {
  auto b = MakeDict(dictionary(int8(), utf8()));
  BASSIGN(ArrayDataPtr data, b->Finish());
  EXPECT_EQ(data->length, 0);
  EXPECT_EQ(data->buffers[0], nullptr);
  EXPECT_TRUE(buildertest::AtZeroSizeArea(data->buffers[1]));
  ASSERT_NE(data->dictionary, nullptr);
  EXPECT_EQ(data->dictionary->length, 0);
  EXPECT_TRUE(buildertest::AtZeroSizeArea(data->dictionary->buffers[2]));

  BASSERT_OK(b->AppendNulls(4));
  BASSIGN(data, b->Finish());
  EXPECT_EQ(data->length, 4);
  EXPECT_EQ(data->null_count, 4);
  EXPECT_EQ(data->dictionary->length, 0);
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(IndexAt(*data, i), 0);
}

TEST(DictionaryBuilder, InsideAList) {
  BASSIGN(auto builder, MakeBuilder(list(dictionary(int8(), utf8()))));
  auto& lb = static_cast<ListBuilder&>(*builder);
  auto& db = static_cast<DictionaryBuilder&>(*lb.value_builder());
  BASSERT_OK(lb.Append());
  BASSERT_OK(db.Append("a"));
  BASSERT_OK(db.Append("a"));
  BASSERT_OK(lb.Append());
  BASSERT_OK(db.Append("b"));
  auto a = buildertest::FinishAs<ListArray>(lb);
  ASSERT_EQ(a->values()->length(), 3);
  const auto& values = ArrayAs<DictionaryArray>(*a->values());
  EXPECT_EQ(values.GetValueIndex(2), 1);
  EXPECT_EQ(values.dictionary()->length(), 2);
}

TEST(DictionaryBuilder, MakeErrors) {
  EXPECT_TRUE(DictionaryBuilder::Make(utf8()).status().IsTypeError());
  EXPECT_TRUE(DictionaryBuilder::Make(nullptr).status().IsTypeError());
  auto st =
      DictionaryBuilder::Make(std::make_shared<DictionaryType>(float32(), utf8(), false)).status();
  EXPECT_TRUE(st.IsTypeError()) << st.ToString();
  st = DictionaryBuilder::Make(dictionary(int8(), null())).status();
  EXPECT_TRUE(st.IsNotImplemented()) << st.ToString();
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
