#include "quiver/parquet/encoding/plain.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "quiver/util/bit_util.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using Bytes = std::vector<uint8_t>;

Bytes ToBytes(const MutableBuffer& buffer) {
  return Bytes(buffer.data(), buffer.data() + buffer.size());
}

std::vector<uint8_t> MakeBitmap(const std::vector<bool>& bits) {
  std::vector<uint8_t> out((bits.size() + 7) / 8 + 1, 0);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i]) bit_util::SetBit(out.data(), static_cast<int64_t>(i));
  }
  return out;
}

TEST(PlainTest, FixedWidthExactBytes) {
  const int32_t ints[] = {1, -1, 0x01020304};
  MutableBuffer out;
  ASSERT_TRUE(PlainEncode<int32_t>(ints, nullptr, 0, &out).ok());
  EXPECT_EQ(ToBytes(out), (Bytes{1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 4, 3, 2, 1}));

  const double d[] = {1.0};
  out.Clear();
  ASSERT_TRUE(PlainEncode<double>(d, nullptr, 0, &out).ok());
  EXPECT_EQ(ToBytes(out), (Bytes{0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));

  const Int96 i96[] = {{{1, 2, 3}}};
  out.Clear();
  ASSERT_TRUE(PlainEncode<Int96>(i96, nullptr, 0, &out).ok());
  EXPECT_EQ(ToBytes(out), (Bytes{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}));
}

TEST(PlainTest, FixedWidthSkipsNullSlots) {
  const int64_t values[] = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  // validity at bit offset 3: slots 0, 2, 3, 9 valid.
  std::vector<bool> bits(13, false);
  for (int slot : {0, 2, 3, 9}) bits[3 + slot] = true;
  const auto validity = MakeBitmap(bits);
  MutableBuffer out;
  ASSERT_TRUE(PlainEncode<int64_t>(values, validity.data(), 3, &out).ok());
  ASSERT_EQ(out.size(), 32);
  int64_t back[4];
  std::memcpy(back, out.data(), 32);
  EXPECT_EQ(back[0], 10);
  EXPECT_EQ(back[1], 12);
  EXPECT_EQ(back[2], 13);
  EXPECT_EQ(back[3], 19);

  // FIXED_LEN_BYTE_ARRAY of width 3, appended after what is there.
  const uint8_t flba[] = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'};
  const auto v2 = MakeBitmap({true, false, true});
  MutableBuffer out2;
  ASSERT_TRUE(out2.Push('X').ok());
  ASSERT_TRUE(PlainEncodeFixedWidth(flba, 3, 3, v2.data(), 0, &out2).ok());
  EXPECT_EQ(ToBytes(out2), (Bytes{'X', 'a', 'b', 'c', 'g', 'h', 'i'}));
  EXPECT_TRUE(PlainEncodeFixedWidth(flba, 3, 0, nullptr, 0, &out2).IsInvalid());
}

TEST(PlainTest, ByteArrayExactBytes) {
  const int32_t offsets[] = {0, 2, 2, 5};
  const uint8_t data[] = {'a', 'b', 'x', 'y', 'z'};
  MutableBuffer out;
  ASSERT_TRUE(PlainEncodeByteArray(offsets, data, 3, nullptr, 0, &out).ok());
  EXPECT_EQ(ToBytes(out),
            (Bytes{2, 0, 0, 0, 'a', 'b', 0, 0, 0, 0, 3, 0, 0, 0, 'x', 'y', 'z'}));
  // int64 offsets, with a null middle slot and an offset start.
  const int64_t offsets64[] = {7, 9, 9, 12};
  const uint8_t data64[] = {0, 0, 0, 0, 0, 0, 0, 'a', 'b', 'x', 'y', 'z'};
  const auto validity = MakeBitmap({true, false, true});
  MutableBuffer out64;
  ASSERT_TRUE(PlainEncodeByteArray(offsets64, data64, 3, validity.data(), 0, &out64).ok());
  EXPECT_EQ(ToBytes(out64), (Bytes{2, 0, 0, 0, 'a', 'b', 3, 0, 0, 0, 'x', 'y', 'z'}));
  MutableBuffer one;
  ASSERT_TRUE(PlainEncodeByteArray(std::string_view("hi"), &one).ok());
  EXPECT_EQ(ToBytes(one), (Bytes{2, 0, 0, 0, 'h', 'i'}));
}

TEST(PlainTest, BooleansContinueAcrossPuts) {
  MutableBuffer out;
  PlainBooleanEncoder encoder(&out);
  const auto a = MakeBitmap({true, false, true});
  const auto b = MakeBitmap({false, true, true});
  ASSERT_TRUE(encoder.Put(a.data(), 0, 3, nullptr, 0).ok());
  // From bit 1 of b: true, true.
  ASSERT_TRUE(encoder.Put(b.data(), 1, 2, nullptr, 0).ok());
  EXPECT_EQ(ToBytes(out), (Bytes{0x1D}));  // 1,0,1,1,1
  // With validity: 9 slots of all-true values, slots 1 and 4 null.
  const auto ones = MakeBitmap(std::vector<bool>(9, true));
  std::vector<bool> valid(9, true);
  valid[1] = valid[4] = false;
  const auto validity = MakeBitmap(valid);
  ASSERT_TRUE(encoder.Put(ones.data(), 0, 9, validity.data(), 0).ok());
  ASSERT_TRUE(encoder.Put(false).ok());
  EXPECT_EQ(encoder.num_values(), 5 + 7 + 1);
  // 1,0,1,1,1, 1,1,1 | 1,1,1,1,0 -> 0xFD 0x0F
  EXPECT_EQ(ToBytes(out), (Bytes{0xFD, 0x0F}));
  EXPECT_EQ(encoder.Flush(), 2);
  // A new stream starts on a byte boundary.
  ASSERT_TRUE(encoder.Put(true).ok());
  EXPECT_EQ(ToBytes(out), (Bytes{0xFD, 0x0F, 0x01}));
  EXPECT_EQ(encoder.Flush(), 1);
  EXPECT_EQ(encoder.Flush(), 0);
}

TEST(PlainTest, FixedWidthRoundTripAndSpaced) {
  std::mt19937_64 rng(8);
  for (int width : {1, 4, 8, 12, 16, 33}) {
    for (int64_t n : {0, 1, 7, 100, 1000}) {
      Bytes values(static_cast<size_t>(n * width));
      for (auto& byte : values) byte = static_cast<uint8_t>(rng());
      std::vector<bool> valid(static_cast<size_t>(n));
      for (size_t i = 0; i < valid.size(); ++i) valid[i] = rng() % 3 != 0;
      const auto validity = MakeBitmap(valid);
      MutableBuffer out;
      ASSERT_TRUE(PlainEncodeFixedWidth(values.data(), n, width, validity.data(), 0, &out).ok());
      const int64_t valid_count = std::count(valid.begin(), valid.end(), true);
      ASSERT_EQ(out.size(), valid_count * width);
      // Spaced decoding puts them back in their slots, zeroing the nulls.
      PlainFixedWidthDecoder decoder(out.data(), out.size(), width);
      Bytes back(static_cast<size_t>(n * width), 0xCC);
      ASSERT_TRUE(decoder.DecodeSpaced(n, validity.data(), 0, back.data()).ok());
      for (int64_t i = 0; i < n; ++i) {
        for (int k = 0; k < width; ++k) {
          const uint8_t expected = valid[static_cast<size_t>(i)] ? values[i * width + k] : 0;
          ASSERT_EQ(back[i * width + k], expected);
        }
      }
      EXPECT_EQ(decoder.values_left(), 0);
      EXPECT_EQ(decoder.bytes_consumed(), out.size());
      // Dense.
      MutableBuffer dense;
      ASSERT_TRUE(PlainEncodeFixedWidth(values.data(), n, width, nullptr, 0, &dense).ok());
      PlainFixedWidthDecoder d2(dense.data(), dense.size(), width);
      Bytes back2(values.size());
      ASSERT_TRUE(d2.Decode(n, back2.data()).ok());
      EXPECT_EQ(back2, values);
    }
  }
}

TEST(PlainTest, DecodersRejectTruncatedData) {
  const Bytes ten(10, 7);
  PlainFixedWidthDecoder fixed(ten.data(), 10, 4);
  EXPECT_EQ(fixed.values_left(), 2);
  int32_t out[3];
  Status st = fixed.Decode(3, out);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("only 10 bytes remain"), std::string::npos) << st.ToString();
  ASSERT_TRUE(fixed.Decode(2, out).ok());
  EXPECT_TRUE(fixed.Decode(1, out).IsInvalid());
  const auto validity = MakeBitmap({true, true, true});
  PlainFixedWidthDecoder spaced(ten.data(), 10, 4);
  EXPECT_TRUE(spaced.DecodeSpaced(3, validity.data(), 0, out).IsInvalid());

  PlainBooleanDecoder booleans(ten.data(), 1);
  bool flags[9];
  EXPECT_TRUE(booleans.Decode(9, flags).IsInvalid());
  ASSERT_TRUE(booleans.Decode(8, flags).ok());
  EXPECT_TRUE(flags[0] && flags[1] && flags[2] && !flags[3]);  // 7 = 0b111

  // BYTE_ARRAY: a length that runs past the end, and a missing length.
  const Bytes bad = {5, 0, 0, 0, 'a', 'b'};
  PlainByteArrayDecoder byte_arrays(bad.data(), static_cast<int64_t>(bad.size()));
  std::string_view views[2];
  st = byte_arrays.Decode(1, views);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("claims 5 bytes but only 2 remain"), std::string::npos)
      << st.ToString();
  const Bytes short_length = {1, 0, 0, 0, 'a', 9, 9};
  PlainByteArrayDecoder d2(short_length.data(), static_cast<int64_t>(short_length.size()));
  st = d2.Decode(2, views);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("value 1 has no room"), std::string::npos) << st.ToString();
  EXPECT_EQ(views[0], "a");
}

TEST(PlainTest, ByteArrayRoundTripAndTruncationNeverOverreads) {
  std::mt19937_64 rng(9);
  std::vector<std::string> strings;
  std::vector<int32_t> offsets = {0};
  std::string data;
  for (int i = 0; i < 300; ++i) {
    std::string s(rng() % 20, 'a');
    for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
    strings.push_back(s);
    data += s;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  MutableBuffer out;
  ASSERT_TRUE(PlainEncodeByteArray(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()),
                                   300, nullptr, 0, &out)
                  .ok());
  PlainByteArrayDecoder decoder(out.data(), out.size());
  std::vector<std::string_view> views(300);
  ASSERT_TRUE(decoder.Decode(300, views.data()).ok());
  EXPECT_TRUE(decoder.at_end());
  for (int i = 0; i < 300; ++i) ASSERT_EQ(views[i], strings[i]);
  for (int64_t cut = 0; cut < out.size(); cut += 7) {
    auto copy = std::make_unique<uint8_t[]>(static_cast<size_t>(cut) + 0);
    std::memcpy(copy.get(), out.data(), static_cast<size_t>(cut));
    PlainByteArrayDecoder truncated(copy.get(), cut);
    EXPECT_TRUE(truncated.Decode(300, views.data()).IsInvalid());
  }
}

// DecodeInto with the AVX-512 copy and with the portable loop: the same
// bytes and end offsets for values of every length around the 64-byte
// blocks (0..200), the ASCII flag true exactly when the kernel copied only
// ASCII (a byte >= 0x80 anywhere in any value clears it; the portable loop
// never sets it), and a page cut anywhere is an error, with the values
// before the cut decoded.
TEST(PlainTest, ByteArrayDecodeIntoAtEveryLengthWithAndWithoutTheKernel) {
  std::mt19937_64 rng(17);
  std::vector<std::string> strings;
  std::vector<int32_t> offsets = {0};
  std::string data;
  for (int i = 0; i <= 200; ++i) {
    std::string s(static_cast<size_t>(i), 'a');
    for (auto& c : s) c = static_cast<char>(' ' + rng() % 95);
    strings.push_back(s);
    data += s;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  const int n = static_cast<int>(strings.size());
  MutableBuffer page;
  ASSERT_TRUE(PlainEncodeByteArray(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), n,
                                   nullptr, 0, &page)
                  .ok());
  const bool had = SetByteArrayCopyKernelForTesting(true);
  for (const bool kernel : {true, false}) {
    SetByteArrayCopyKernelForTesting(kernel);
    const bool kernel_on = SetByteArrayCopyKernelForTesting(kernel);
    // Whole page; then with one byte >= 0x80 in value v at byte b.
    for (int bad = -1; bad < static_cast<int>(data.size()); bad += (bad < 0 ? 1 : 37)) {
      Bytes body(page.data(), page.data() + page.size());
      std::string expected = data;
      if (bad >= 0) {
        int v = 0;
        while (offsets[v + 1] <= bad) ++v;
        body[static_cast<size_t>(4 * (v + 1) + bad)] = 0xE9;
        expected[static_cast<size_t>(bad)] = static_cast<char>(0xE9);
      }
      PlainByteArrayDecoder decoder(body.data(), static_cast<int64_t>(body.size()));
      std::vector<uint8_t> out(body.size(), 0xAB);  // nothing written past the values
      std::vector<int64_t> ends(static_cast<size_t>(n));
      int64_t bytes = 0;
      bool ascii = !kernel_on;
      ASSERT_TRUE(decoder.DecodeInto(n, 5, ends.data(), out.data(), &bytes, &ascii).ok());
      ASSERT_EQ(bytes, static_cast<int64_t>(data.size()));
      EXPECT_EQ(std::string(out.begin(), out.begin() + bytes), expected) << kernel << " " << bad;
      for (int i = 0; i < n; ++i) ASSERT_EQ(ends[static_cast<size_t>(i)], 5 + offsets[i + 1]);
      EXPECT_EQ(ascii, kernel_on && bad < 0) << kernel << " " << bad;
      for (size_t k = static_cast<size_t>(bytes); k < out.size(); ++k) ASSERT_EQ(out[k], 0xAB) << k;
      EXPECT_TRUE(decoder.at_end());
    }
    for (int64_t cut = 0; cut < page.size(); cut += 13) {
      auto copy = std::make_unique<uint8_t[]>(static_cast<size_t>(cut) + 1);
      std::memcpy(copy.get(), page.data(), static_cast<size_t>(cut));
      PlainByteArrayDecoder truncated(copy.get(), cut);
      std::vector<uint8_t> out(static_cast<size_t>(cut) + 1);
      std::vector<int32_t> ends(static_cast<size_t>(n));
      int64_t bytes = 0;
      bool ascii = false;
      const Status st = truncated.DecodeInto(n, 0, ends.data(), out.data(), &bytes, &ascii);
      ASSERT_TRUE(st.IsInvalid()) << cut;
      int whole = 0;  // values wholly before the cut
      while (whole < n && 4 * (whole + 1) + offsets[whole + 1] <= cut) ++whole;
      EXPECT_EQ(bytes, offsets[whole]) << cut;
      EXPECT_EQ(std::string(out.begin(), out.begin() + bytes), data.substr(0, static_cast<size_t>(bytes)));
    }
  }
  SetByteArrayCopyKernelForTesting(had);
}

// PlainPutValues (and ByteArrayCopyAscii, a value at a time) with the
// AVX-512 copy and with CopyAscii: the PLAIN bytes (with and without length
// prefixes) of values of every length 0..200, the ASCII flag exactly when
// no value byte is >= 0x80, nothing written past the end, and the same
// bytes as PlainEncodeByteArray.
TEST(PlainTest, PutValuesAtEveryLengthWithAndWithoutTheKernel) {
  std::mt19937_64 rng(23);
  std::vector<std::string> strings;
  for (int i = 0; i <= 200; ++i) {
    std::string s(static_cast<size_t>(i), 'a');
    for (auto& c : s) c = static_cast<char>(' ' + rng() % 95);
    strings.push_back(s);
  }
  const bool had = SetByteArrayCopyKernelForTesting(true);
  for (const bool kernel : {true, false}) {
    SetByteArrayCopyKernelForTesting(kernel);
    for (int bad = -1; bad < 200; bad += (bad < 0 ? 1 : 29)) {
      std::vector<std::string> values = strings;
      // A value with a high byte, last (in its masked part) or first (in a
      // whole 64-byte block once the value is that long).
      if (bad >= 0 && bad % 2 == 0) values[static_cast<size_t>(bad)] += '\x80';
      if (bad >= 0 && bad % 2 == 1) values[static_cast<size_t>(bad)].insert(0, 1, '\x80');
      std::vector<std::string_view> views(values.begin(), values.end());
      std::string expected_plain, expected_fixed;
      for (const auto& v : values) {
        MutableBuffer one;
        ASSERT_TRUE(PlainEncodeByteArray(v, &one).ok());
        expected_plain.append(reinterpret_cast<const char*>(one.data()), static_cast<size_t>(one.size()));
        expected_fixed += v;
      }
      for (const bool prefix : {true, false}) {
        const std::string& expected = prefix ? expected_plain : expected_fixed;
        std::vector<uint8_t> out(expected.size() + 64, 0xAB);
        bool ascii = bad >= 0;
        uint8_t* end = PlainPutValues(views.data(), static_cast<int64_t>(views.size()), prefix,
                                      out.data(), &ascii);
        ASSERT_EQ(end - out.data(), static_cast<int64_t>(expected.size()));
        EXPECT_EQ(std::string(out.begin(), out.begin() + static_cast<int64_t>(expected.size())), expected)
            << kernel << " " << bad << " " << prefix;
        EXPECT_EQ(ascii, bad < 0) << kernel << " " << bad << " " << prefix;
        for (size_t k = expected.size(); k < out.size(); ++k) ASSERT_EQ(out[k], 0xAB) << k;
      }
      // One value at a time (ByteArrayCopyAscii): the same bytes, and each
      // value's flag its own.
      const CopyAsciiFn copy = ByteArrayCopyAscii();
      for (size_t i = 0; i < values.size(); ++i) {
        std::vector<uint8_t> one(values[i].size() + 64, 0xAB);
        const bool ascii = copy(one.data(), reinterpret_cast<const uint8_t*>(values[i].data()),
                                static_cast<int64_t>(values[i].size()));
        EXPECT_EQ(ascii, static_cast<int>(i) != bad) << kernel << " " << i;
        ASSERT_EQ(std::string(one.begin(), one.begin() + static_cast<int64_t>(values[i].size())), values[i]);
        for (size_t k = values[i].size(); k < one.size(); ++k) ASSERT_EQ(one[k], 0xAB) << k;
      }
    }
  }
  SetByteArrayCopyKernelForTesting(had);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
