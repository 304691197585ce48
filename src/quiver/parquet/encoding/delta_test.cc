// Tests of DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "quiver/parquet/encoding/delta_binary_packed.h"
#include "quiver/parquet/encoding/delta_byte_array.h"
#include "quiver/parquet/encoding/delta_length_byte_array.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using Bytes = std::vector<uint8_t>;

Bytes ToBytes(const MutableBuffer& buffer) {
  return Bytes(buffer.data(), buffer.data() + buffer.size());
}

template <typename T>
Bytes EncodeDelta(const std::vector<T>& values) {
  DeltaBinaryPackedEncoder<T> encoder;
  EXPECT_TRUE(encoder.Put(values.data(), static_cast<int64_t>(values.size())).ok());
  EXPECT_EQ(encoder.num_values(), static_cast<int64_t>(values.size()));
  MutableBuffer out;
  auto n = encoder.Flush(&out);
  EXPECT_TRUE(n.ok());
  EXPECT_EQ(*n, out.size());
  return ToBytes(out);
}

template <typename T>
Result<std::vector<T>> DecodeDelta(const Bytes& bytes, int64_t batch = 1 << 30,
                                   int64_t max_values = int64_t{1} << 40) {
  // An exact-size copy so that ASan sees any read past the end.
  auto copy = std::make_unique<uint8_t[]>(bytes.size() + 0);
  if (!bytes.empty()) std::memcpy(copy.get(), bytes.data(), bytes.size());
  DeltaBinaryPackedDecoder<T> decoder;
  QUIVER_RETURN_NOT_OK(decoder.Init(copy.get(), static_cast<int64_t>(bytes.size())));
  // Corrupt headers may legitimately announce millions of values (width-0
  // blocks are 5 bytes for 128 values): the fuzz loops skip those.
  if (decoder.total_values() > max_values) return Status::CapacityError("too many values");
  std::vector<T> out(static_cast<size_t>(decoder.total_values()));
  int64_t read = 0;
  while (decoder.values_left() > 0) {
    QUIVER_ASSIGN_OR_RAISE(
        int64_t got,
        decoder.GetBatch(out.data() + read, std::min(batch, decoder.values_left())));
    read += got;
  }
  if (decoder.bytes_consumed() != static_cast<int64_t>(bytes.size())) {
    return Status::UnknownError("consumed ", decoder.bytes_consumed(), " of ", bytes.size());
  }
  return out;
}

// A slow, independent DELTA_BINARY_PACKED writer with any block shape, for
// decoder tests (bit by bit, unsigned arithmetic).
template <typename T>
Bytes ReferenceDeltaEncode(const std::vector<T>& values, uint64_t block_size,
                           uint64_t miniblocks, uint8_t unused_width_byte = 0) {
  using U = std::make_unsigned_t<T>;
  Bytes out;
  auto uleb = [&](uint64_t v) {
    while (v >= 0x80) {
      out.push_back(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<uint8_t>(v));
  };
  auto zigzag = [](int64_t v) {
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  };
  uleb(block_size);
  uleb(miniblocks);
  uleb(values.size());
  uleb(zigzag(values.empty() ? 0 : values[0]));
  const uint64_t per_mini = block_size / miniblocks;
  for (size_t start = 1; start < values.size(); start += block_size) {
    const size_t end = std::min(values.size(), start + block_size);
    std::vector<U> deltas;
    for (size_t i = start; i < end; ++i) {
      deltas.push_back(static_cast<U>(static_cast<U>(values[i]) - static_cast<U>(values[i - 1])));
    }
    T min = static_cast<T>(deltas[0]);
    for (U d : deltas) min = std::min(min, static_cast<T>(d));
    for (U& d : deltas) d = static_cast<U>(d - static_cast<U>(min));
    uleb(zigzag(min));
    const size_t used = (deltas.size() + per_mini - 1) / per_mini;
    std::vector<int> widths(miniblocks, 0);
    for (size_t m = 0; m < miniblocks; ++m) {
      if (m >= used) {
        out.push_back(unused_width_byte);
        continue;
      }
      U bits = 0;
      for (size_t j = m * per_mini; j < std::min(deltas.size(), (m + 1) * per_mini); ++j) {
        bits |= deltas[j];
      }
      widths[m] = bit_util::NumRequiredBits(bits);
      out.push_back(static_cast<uint8_t>(widths[m]));
    }
    for (size_t m = 0; m < used; ++m) {
      const int w = widths[m];
      Bytes mini(per_mini * w / 8, 0);
      for (size_t j = 0; j < per_mini; ++j) {
        const size_t idx = m * per_mini + j;
        const U v = idx < deltas.size() ? deltas[idx] : 0;
        for (int b = 0; b < w; ++b) {
          if ((v >> b) & 1) mini[(j * w + b) / 8] |= static_cast<uint8_t>(1u << ((j * w + b) % 8));
        }
      }
      out.insert(out.end(), mini.begin(), mini.end());
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// DELTA_BINARY_PACKED: exact bytes

TEST(DeltaBinaryPackedTest, SpecExample1) {
  // 1, 2, 3, 4, 5: deltas all 1, min delta 1, bit width 0 (no data).
  const Bytes expected = {0x80, 0x01,  // block size 128
                          0x04,        // 4 miniblocks
                          0x05,        // 5 values
                          0x02,        // first value 1 (zigzag)
                          0x02,        // min delta 1 (zigzag)
                          0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(EncodeDelta<int32_t>({1, 2, 3, 4, 5}), expected);
  // INT64 blocks hold 256 values (0x80 0x02), as Arrow C++ writes them.
  Bytes expected64 = expected;
  expected64[1] = 0x02;
  EXPECT_EQ(EncodeDelta<int64_t>({1, 2, 3, 4, 5}), expected64);
  auto back = DecodeDelta<int32_t>(expected);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, (std::vector<int32_t>{1, 2, 3, 4, 5}));
}

TEST(DeltaBinaryPackedTest, SpecExample2) {
  // 7, 5, 3, 1, 2, 3, 4, 5: deltas -2 -2 -2 1 1 1 1, min -2, relative
  // 0 0 0 3 3 3 3 on 2 bits, packed LSB first into a 32-value miniblock.
  const Bytes expected = {0x80, 0x01, 0x04, 0x08,
                          0x0E,                    // first value 7
                          0x03,                    // min delta -2
                          0x02, 0x00, 0x00, 0x00,  // widths
                          0xC0, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(EncodeDelta<int32_t>({7, 5, 3, 1, 2, 3, 4, 5}), expected);
  auto back = DecodeDelta<int64_t>(expected);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, (std::vector<int64_t>{7, 5, 3, 1, 2, 3, 4, 5}));
  // The reference writer agrees.
  EXPECT_EQ(ReferenceDeltaEncode<int32_t>({7, 5, 3, 1, 2, 3, 4, 5}, 128, 4), expected);
}

TEST(DeltaBinaryPackedTest, EmptyAndSingleValue) {
  EXPECT_EQ(EncodeDelta<int32_t>({}), (Bytes{0x80, 0x01, 0x04, 0x00, 0x00}));
  EXPECT_EQ(EncodeDelta<int64_t>({-3}), (Bytes{0x80, 0x02, 0x04, 0x01, 0x05}));
  auto empty = DecodeDelta<int32_t>({0x80, 0x01, 0x04, 0x00, 0x00});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  auto one = DecodeDelta<int64_t>({0x80, 0x01, 0x04, 0x01, 0x05});
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(*one, std::vector<int64_t>{-3});
}

// ---------------------------------------------------------------------------
// DELTA_BINARY_PACKED: round trips

template <typename T>
std::vector<T> MakeInts(int64_t n, int pattern, std::mt19937_64& rng) {
  std::vector<T> v(static_cast<size_t>(n));
  T x = static_cast<T>(rng());
  for (auto& e : v) {
    switch (pattern) {
      case 0:  // full range random: deltas need every bit
        e = static_cast<T>(rng());
        break;
      case 1:  // sorted with small steps
        x = static_cast<T>(x + static_cast<T>(rng() % 100));
        e = x;
        break;
      case 2:  // extremes: overflowing deltas
        e = rng() % 2 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
        break;
      case 3:  // constant
        e = 42;
        break;
      default:  // small random with occasional spikes
        e = static_cast<T>(rng() % 16 == 0 ? rng() : rng() % 1000);
    }
  }
  return v;
}

template <typename T>
void RoundTripDelta() {
  std::mt19937_64 rng(sizeof(T));
  std::vector<int64_t> lengths;
  for (int64_t n = 0; n <= 140; ++n) lengths.push_back(n);
  for (int64_t n = 141; n <= 2000; n += 53) lengths.push_back(n);
  lengths.push_back(2000);
  for (int64_t n : lengths) {
    for (int pattern = 0; pattern < 5; ++pattern) {
      const std::vector<T> values = MakeInts<T>(n, pattern, rng);
      const Bytes bytes = EncodeDelta(values);
      SCOPED_TRACE("n " + std::to_string(n) + " pattern " + std::to_string(pattern));
      auto back = DecodeDelta<T>(bytes);
      ASSERT_TRUE(back.ok()) << back.status().ToString();
      ASSERT_EQ(*back, values);
      // Small batches.
      auto back3 = DecodeDelta<T>(bytes, 3);
      ASSERT_TRUE(back3.ok()) << back3.status().ToString();
      ASSERT_EQ(*back3, values);
      // The reference writer with the same shape writes the same bytes.
      ASSERT_EQ(ReferenceDeltaEncode<T>(values, DeltaBinaryPackedEncoder<T>::kBlockSize, 4), bytes);
    }
  }
}

TEST(DeltaBinaryPackedTest, RoundTripInt32) { RoundTripDelta<int32_t>(); }
TEST(DeltaBinaryPackedTest, RoundTripInt64) { RoundTripDelta<int64_t>(); }

TEST(DeltaBinaryPackedTest, PutSpacedAndIncrementalPuts) {
  std::vector<int32_t> values(1000);
  for (int i = 0; i < 1000; ++i) values[i] = i * 3 - 500;
  std::vector<uint8_t> validity(126, 0);
  std::vector<int32_t> expected;
  for (int i = 0; i < 1000; ++i) {
    if (i % 7 != 3) {
      bit_util::SetBit(validity.data(), i + 5);
      expected.push_back(values[i]);
    }
  }
  DeltaBinaryPackedEncoder<int32_t> encoder;
  ASSERT_TRUE(encoder.PutSpaced(values.data(), 400, validity.data(), 5).ok());
  ASSERT_TRUE(encoder.PutSpaced(values.data() + 400, 600, validity.data(), 405).ok());
  MutableBuffer out;
  ASSERT_TRUE(encoder.Flush(&out).ok());
  auto back = DecodeDelta<int32_t>(ToBytes(out));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, expected);
  // Reusable after Flush.
  ASSERT_TRUE(encoder.Put(values.data(), 5).ok());
  MutableBuffer out2;
  ASSERT_TRUE(encoder.Flush(&out2).ok());
  EXPECT_EQ(ToBytes(out2), EncodeDelta<int32_t>({-500, -497, -494, -491, -488}));
}

// ---------------------------------------------------------------------------
// DELTA_BINARY_PACKED: other writers' shapes and untrusted input

TEST(DeltaBinaryPackedTest, DecodesOtherBlockShapes) {
  std::mt19937_64 rng(11);
  struct Shape {
    uint64_t block;
    uint64_t miniblocks;
  };
  for (const Shape& s : std::vector<Shape>{{128, 1}, {256, 8}, {256, 2}, {2048, 64}, {1024, 4}}) {
    for (int64_t n : {1, 2, 100, 129, 257, 3000}) {
      const auto values = MakeInts<int64_t>(n, 4, rng);
      // Unused miniblock widths hold garbage: readers must accept that.
      const Bytes bytes = ReferenceDeltaEncode<int64_t>(values, s.block, s.miniblocks, 0xEE);
      auto back = DecodeDelta<int64_t>(bytes, 77);
      ASSERT_TRUE(back.ok()) << s.block << "/" << s.miniblocks << " n " << n << ": "
                             << back.status().ToString();
      ASSERT_EQ(*back, values);
    }
  }
}

TEST(DeltaBinaryPackedTest, SkipAllFindsTheEnd) {
  const std::vector<int32_t> values = {5, 9, 100, -7, 3, 3, 3, 1000000};
  Bytes bytes = EncodeDelta(values);
  const size_t length = bytes.size();
  bytes.insert(bytes.end(), {'t', 'a', 'i', 'l'});
  DeltaBinaryPackedDecoder<int32_t> decoder;
  ASSERT_TRUE(decoder.Init(bytes.data(), static_cast<int64_t>(bytes.size())).ok());
  ASSERT_TRUE(decoder.SkipAll().ok());
  EXPECT_EQ(decoder.bytes_consumed(), static_cast<int64_t>(length));
  EXPECT_EQ(decoder.values_left(), 0);
}

TEST(DeltaBinaryPackedTest, MalformedHeadersAreInvalid) {
  struct Case {
    Bytes data;
    const char* message;
  };
  const std::vector<Case> cases = {
      {{}, "truncated or malformed header"},
      {{0x80, 0x01, 0x04}, "truncated or malformed header"},
      {{0x08, 0x01, 0x05, 0x02, 0x02, 0x00}, "block size 8"},  // the spec's toy block size
      {{0x00, 0x01, 0x05, 0x02}, "block size 0"},
      {{0x80, 0x01, 0x00, 0x05, 0x02}, "0 miniblocks"},
      {{0x80, 0x01, 0x03, 0x05, 0x02}, "3 miniblocks"},
      {{0x80, 0x01, 0x08, 0x05, 0x02}, "8 miniblocks"},  // 16 values per miniblock
      {{0x80, 0x01, 0x04, 0xFF, 0xFF, 0x03, 0x02, 0x02, 0, 0, 0, 0}, "header claims 65535"},
      {Bytes(12, 0xFF), "truncated or malformed header"},
  };
  for (const Case& c : cases) {
    DeltaBinaryPackedDecoder<int32_t> decoder;
    Status st = decoder.Init(c.data.data(), static_cast<int64_t>(c.data.size()));
    ASSERT_FALSE(st.ok()) << c.message;
    EXPECT_TRUE(st.IsInvalid());
    EXPECT_NE(st.message().find(c.message), std::string::npos) << st.ToString();
  }
  // A first value out of the INT32 range.
  const Bytes big_first = {0x80, 0x01, 0x04, 0x01, 0x80, 0x80, 0x80, 0x80, 0x10};
  DeltaBinaryPackedDecoder<int32_t> d32;
  EXPECT_TRUE(d32.Init(big_first.data(), static_cast<int64_t>(big_first.size())).IsInvalid());
  DeltaBinaryPackedDecoder<int64_t> d64;
  EXPECT_TRUE(d64.Init(big_first.data(), static_cast<int64_t>(big_first.size())).ok());
}

TEST(DeltaBinaryPackedTest, WidthWiderThanTheTypeIsInvalid) {
  // Two values; the only used miniblock claims 33 bits (INT32) / 65 (INT64).
  Bytes data = {0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 33, 0, 0, 0};
  data.resize(data.size() + 4 * 33, 0);
  DeltaBinaryPackedDecoder<int32_t> decoder;
  ASSERT_TRUE(decoder.Init(data.data(), static_cast<int64_t>(data.size())).ok());
  int32_t out[2];
  auto got = decoder.GetBatch(out, 2);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("bit width 33 exceeds 32"), std::string::npos)
      << got.status().ToString();
  DeltaBinaryPackedDecoder<int64_t> wide;
  ASSERT_TRUE(wide.Init(data.data(), static_cast<int64_t>(data.size())).ok());
  int64_t out64[2];
  EXPECT_TRUE(wide.GetBatch(out64, 2).ok());  // 33 bits is fine for INT64
  data[6] = 65;
  ASSERT_TRUE(wide.Init(data.data(), static_cast<int64_t>(data.size())).ok());
  EXPECT_TRUE(wide.GetBatch(out64, 2).status().IsInvalid());
}

TEST(DeltaBinaryPackedTest, TruncatedAndCorruptInputNeverCrashes) {
  std::mt19937_64 rng(12);
  const auto values = MakeInts<int64_t>(700, 4, rng);
  const Bytes bytes = EncodeDelta(values);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    const Bytes truncated(bytes.begin(), bytes.begin() + static_cast<long>(cut));
    auto back = DecodeDelta<int64_t>(truncated);
    // Either an error, or (when only padding was cut) the right values.
    if (back.ok()) {
      EXPECT_EQ(*back, values) << "cut " << cut;
    }
  }
  for (int trial = 0; trial < 3000; ++trial) {
    Bytes corrupt = bytes;
    for (int k = 0; k < 3; ++k) corrupt[rng() % corrupt.size()] = static_cast<uint8_t>(rng());
    corrupt.resize(rng() % (corrupt.size() + 1));
    (void)DecodeDelta<int64_t>(corrupt, 1 + static_cast<int64_t>(rng() % 200), 100000).status();
    (void)DecodeDelta<int32_t>(corrupt, 1 << 30, 100000).status();
  }
}

TEST(DeltaBinaryPackedTest, TruncatedLastMiniblockHoldingItsValuesIsAccepted) {
  // Some writers stop after the last value's bits: 3 values, width 2.
  Bytes data = {0x80, 0x01, 0x04, 0x03, 0x00, 0x00, 0x02, 0, 0, 0};
  data.push_back(0x09);  // deltas 1, 2 on 2 bits: 01 | 10 << 2
  auto back = DecodeDelta<int32_t>(data);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, (std::vector<int32_t>{0, 1, 3}));
}

// ---------------------------------------------------------------------------
// DELTA_LENGTH_BYTE_ARRAY

Bytes EncodeDlba(const std::vector<std::string>& strings) {
  DeltaLengthByteArrayEncoder encoder;
  for (const auto& s : strings) EXPECT_TRUE(encoder.Put(s).ok());
  MutableBuffer out;
  auto n = encoder.Flush(&out);
  EXPECT_TRUE(n.ok());
  EXPECT_EQ(*n, out.size());
  return ToBytes(out);
}

TEST(DeltaLengthByteArrayTest, SpecExample) {
  // "Hello", "World", "Foobar", "ABCDEF": DeltaEncoding(5, 5, 6, 6) then the
  // bytes. Lengths: first 5; deltas 0, 1, 0; min 0; width 1 -> 0b010.
  Bytes expected = {0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 0x01, 0x00, 0x00, 0x00,
                    0x02, 0x00, 0x00, 0x00};
  const std::string text = "HelloWorldFoobarABCDEF";
  expected.insert(expected.end(), text.begin(), text.end());
  EXPECT_EQ(EncodeDlba({"Hello", "World", "Foobar", "ABCDEF"}), expected);
  DeltaLengthByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(expected.data(), static_cast<int64_t>(expected.size())).ok());
  std::string_view out[4];
  auto got = decoder.GetBatch(out, 10);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, 4);
  EXPECT_EQ(out[0], "Hello");
  EXPECT_EQ(out[3], "ABCDEF");
  EXPECT_EQ(decoder.bytes_consumed(), static_cast<int64_t>(expected.size()));
}

std::vector<std::string> MakeStrings(int64_t n, std::mt19937_64& rng, int shared_prefixes) {
  std::vector<std::string> out;
  std::string previous;
  for (int64_t i = 0; i < n; ++i) {
    std::string s;
    if (shared_prefixes && !previous.empty() && rng() % 4 != 0) {
      s = previous.substr(0, rng() % (previous.size() + 1));
    }
    const size_t extra = rng() % (rng() % 10 == 0 ? 200 : 12);
    for (size_t k = 0; k < extra; ++k) s.push_back(static_cast<char>(rng() % 256));
    out.push_back(s);
    previous = s;
  }
  return out;
}

TEST(DeltaLengthByteArrayTest, RoundTripWithOffsetsAndNulls) {
  std::mt19937_64 rng(13);
  for (int64_t n : {0, 1, 2, 127, 128, 129, 1000}) {
    const auto strings = MakeStrings(n, rng, 0);
    std::vector<int64_t> offsets = {3};
    std::string data = "pad";
    std::vector<uint8_t> validity(static_cast<size_t>(n / 8 + 1), 0);
    std::vector<std::string> expected;
    for (int64_t i = 0; i < n; ++i) {
      data += strings[i];
      offsets.push_back(static_cast<int64_t>(data.size()));
      if (i % 5 != 1) {
        bit_util::SetBit(validity.data(), i);
        expected.push_back(strings[i]);
      }
    }
    DeltaLengthByteArrayEncoder encoder;
    ASSERT_TRUE(encoder.Put(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), n,
                            validity.data(), 0)
                    .ok());
    EXPECT_EQ(encoder.num_values(), static_cast<int64_t>(expected.size()));
    MutableBuffer out;
    ASSERT_TRUE(encoder.Flush(&out).ok());
    DeltaLengthByteArrayDecoder decoder;
    ASSERT_TRUE(decoder.Init(out.data(), out.size()).ok());
    std::vector<std::string_view> views(expected.size());
    int64_t read = 0;
    while (decoder.values_left() > 0) {
      auto got = decoder.GetBatch(views.data() + read, 33);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      read += *got;
    }
    ASSERT_EQ(read, static_cast<int64_t>(expected.size()));
    for (size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(views[i], expected[i]);
    EXPECT_EQ(decoder.bytes_consumed(), out.size());
  }
}

TEST(DeltaLengthByteArrayTest, BadLengthsAreInvalid) {
  // Lengths 5, 5, 6, 6 but only 10 bytes of data.
  Bytes data = {0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00};
  for (char c : std::string("HelloWorld")) data.push_back(static_cast<uint8_t>(c));
  DeltaLengthByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(data.data(), static_cast<int64_t>(data.size())).ok());
  std::string_view out[4];
  auto got = decoder.GetBatch(out, 4);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("value 2 has length 6 but 0 bytes remain"),
            std::string::npos)
      << got.status().ToString();
  // A negative length: first value -1.
  const Bytes negative = {0x80, 0x01, 0x04, 0x01, 0x01};
  ASSERT_TRUE(decoder.Init(negative.data(), static_cast<int64_t>(negative.size())).ok());
  EXPECT_TRUE(decoder.GetBatch(out, 1).status().IsInvalid());
  // Corrupt lengths header.
  const Bytes bad = {0x80};
  Status st = decoder.Init(bad.data(), 1);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("DELTA_LENGTH_BYTE_ARRAY lengths"), std::string::npos);
}

// ---------------------------------------------------------------------------
// DELTA_BYTE_ARRAY

Bytes EncodeDba(const std::vector<std::string>& strings) {
  DeltaByteArrayEncoder encoder;
  for (const auto& s : strings) EXPECT_TRUE(encoder.Put(s).ok());
  MutableBuffer out;
  auto n = encoder.Flush(&out);
  EXPECT_TRUE(n.ok());
  return ToBytes(out);
}

TEST(DeltaByteArrayTest, SpecExample) {
  // "axis", "axle", "babble", "babyhood": prefix lengths 0, 2, 0, 3; suffix
  // lengths 4, 2, 6, 5; then "axislebabbleyhood".
  Bytes expected = {// prefixes: first 0; deltas 2, -2, 3; min -2; rel 4, 0, 5 on 3 bits
                    0x80, 0x01, 0x04, 0x04, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00, 0x44, 0x01,
                    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                    // suffix lengths: first 4; deltas -2, 4, -1; min -2; rel 0, 6, 1
                    0x80, 0x01, 0x04, 0x04, 0x08, 0x03, 0x03, 0x00, 0x00, 0x00, 0x70, 0x00,
                    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  const std::string text = "axislebabbleyhood";
  expected.insert(expected.end(), text.begin(), text.end());
  EXPECT_EQ(EncodeDba({"axis", "axle", "babble", "babyhood"}), expected);
  DeltaByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(expected.data(), static_cast<int64_t>(expected.size())).ok());
  std::string_view out[4];
  auto got = decoder.GetBatch(out, 4);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(out[0], "axis");
  EXPECT_EQ(out[1], "axle");
  EXPECT_EQ(out[2], "babble");
  EXPECT_EQ(out[3], "babyhood");
}

TEST(DeltaByteArrayTest, RoundTripBinaryAndFixedLen) {
  std::mt19937_64 rng(14);
  for (int64_t n : {0, 1, 2, 129, 1000}) {
    const auto strings = MakeStrings(n, rng, 1);
    std::vector<int32_t> offsets = {0};
    std::string data;
    for (const auto& s : strings) {
      data += s;
      offsets.push_back(static_cast<int32_t>(data.size()));
    }
    DeltaByteArrayEncoder encoder;
    // In two batches, so the previous value crosses a batch boundary.
    const int64_t half = n / 2;
    const auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
    ASSERT_TRUE(encoder.Put(offsets.data(), bytes, half, nullptr, 0).ok());
    ASSERT_TRUE(encoder.Put(offsets.data() + half, bytes, n - half, nullptr, 0).ok());
    MutableBuffer out;
    ASSERT_TRUE(encoder.Flush(&out).ok());
    EXPECT_EQ(ToBytes(out), EncodeDba(strings));
    DeltaByteArrayDecoder decoder;
    ASSERT_TRUE(decoder.Init(out.data(), out.size()).ok());
    std::vector<std::string> back;
    while (decoder.values_left() > 0) {
      std::string_view views[17];
      auto got = decoder.GetBatch(views, 17);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      for (int64_t i = 0; i < *got; ++i) back.emplace_back(views[i]);
    }
    ASSERT_EQ(back, strings);
  }
  // FIXED_LEN_BYTE_ARRAY with nulls.
  const std::string flba = "aaaabbbbaabbzzzz";
  const uint8_t validity[] = {0b1011};
  DeltaByteArrayEncoder encoder;
  ASSERT_TRUE(encoder.PutFixedLen(reinterpret_cast<const uint8_t*>(flba.data()), 4, 4, validity, 0)
                  .ok());
  MutableBuffer out;
  ASSERT_TRUE(encoder.Flush(&out).ok());
  EXPECT_EQ(ToBytes(out), EncodeDba({"aaaa", "bbbb", "zzzz"}));
}

TEST(DeltaByteArrayTest, BadPrefixesAreInvalid) {
  // Prefix lengths 0, 5 but the first value has 1 byte.
  DeltaBinaryPackedEncoder<int32_t> prefixes;
  const int32_t p[] = {0, 5};
  ASSERT_TRUE(prefixes.Put(p, 2).ok());
  MutableBuffer out;
  ASSERT_TRUE(prefixes.Flush(&out).ok());
  DeltaLengthByteArrayEncoder suffixes;
  ASSERT_TRUE(suffixes.Put("a").ok());
  ASSERT_TRUE(suffixes.Put("b").ok());
  ASSERT_TRUE(suffixes.Flush(&out).ok());
  DeltaByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.Init(out.data(), out.size()).ok());
  std::string_view views[2];
  auto got = decoder.GetBatch(views, 2);
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.status().message().find("value 1 has prefix length 5 but the previous value has 1"),
            std::string::npos)
      << got.status().ToString();
  // Counts that differ.
  MutableBuffer mismatch;
  ASSERT_TRUE(prefixes.Put(p, 1).ok());
  ASSERT_TRUE(prefixes.Flush(&mismatch).ok());
  ASSERT_TRUE(suffixes.Put("a").ok());
  ASSERT_TRUE(suffixes.Put("b").ok());
  ASSERT_TRUE(suffixes.Flush(&mismatch).ok());
  Status st = decoder.Init(mismatch.data(), mismatch.size());
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("1 prefix lengths but 2 suffixes"), std::string::npos);
}

TEST(DeltaByteArrayTest, TruncatedAndCorruptInputNeverCrashes) {
  std::mt19937_64 rng(15);
  const auto strings = MakeStrings(300, rng, 1);
  const Bytes bytes = EncodeDba(strings);
  for (int trial = 0; trial < 2000; ++trial) {
    Bytes corrupt = bytes;
    if (trial % 2) {
      for (int k = 0; k < 3; ++k) corrupt[rng() % corrupt.size()] = static_cast<uint8_t>(rng());
    }
    corrupt.resize(rng() % (corrupt.size() + 1));
    auto copy = std::make_unique<uint8_t[]>(corrupt.size() + 0);
    if (!corrupt.empty()) std::memcpy(copy.get(), corrupt.data(), corrupt.size());
    DeltaByteArrayDecoder decoder;
    if (!decoder.Init(copy.get(), static_cast<int64_t>(corrupt.size())).ok()) continue;
    std::string_view views[64];
    while (decoder.values_left() > 0) {
      auto got = decoder.GetBatch(views, 64);
      if (!got.ok() || *got == 0) break;
    }
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
