// Tests for the UTF-8 validator (utf8.h), against hand-made cases and a
// decode-by-arithmetic reference on every short sequence.
#include "quiver/util/utf8.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

int64_t FindInvalid(const std::string& s) {
  return FindInvalidUtf8(reinterpret_cast<const uint8_t*>(s.data()),
                         static_cast<int64_t>(s.size()));
}

TEST(Utf8Test, WellFormed) {
  for (const std::string& s : {
           std::string(),
           std::string("abc"),
           std::string("0123456789abcdefghijklmnopqrstuvwxyz"),
           std::string("\xc2\x80"),                  // U+0080
           std::string("\xdf\xbf"),                  // U+07FF
           std::string("\xc3\xa9t\xc3\xa9"),         // "été"
           std::string("\xe0\xa0\x80"),              // U+0800
           std::string("\xe2\x82\xac"),              // U+20AC euro
           std::string("\xed\x9f\xbf"),              // U+D7FF, last before surrogates
           std::string("\xee\x80\x80"),              // U+E000, first after surrogates
           std::string("\xef\xbf\xbf"),              // U+FFFF
           std::string("\xf0\x90\x80\x80"),          // U+10000
           std::string("\xf0\x9f\x98\x80"),          // U+1F600 emoji
           std::string("\xf4\x8f\xbf\xbf"),          // U+10FFFF
           std::string("long ascii prefix... \xf0\x9f\x98\x80 and a long ascii suffix too"),
       }) {
    EXPECT_EQ(FindInvalid(s), -1) << testing::PrintToString(s);
    EXPECT_TRUE(IsValidUtf8(s));
  }
}

TEST(Utf8Test, IllFormed) {
  struct Case {
    std::string bytes;
    int64_t position;
  };
  for (const Case& c : std::vector<Case>{
           {"\xc0\xaf", 0},                 // overlong '/'
           {"\xc1\xbf", 0},                 // overlong 2-byte
           {"\xe0\x80\xaf", 0},             // overlong 3-byte
           {"\xe0\x9f\xbf", 0},             // overlong 3-byte (U+07FF)
           {"\xf0\x80\x80\xaf", 0},         // overlong 4-byte
           {"\xf0\x8f\xbf\xbf", 0},         // overlong 4-byte (U+FFFF)
           {"\xed\xa0\x80", 0},             // surrogate U+D800
           {"\xed\xbf\xbf", 0},             // surrogate U+DFFF
           {"\xf4\x90\x80\x80", 0},         // U+110000
           {"\xf5\x80\x80\x80", 0},         // lead byte beyond F4
           {"\xff", 0},
           {"\xfe", 0},
           {"\x80", 0},                     // lone continuation
           {"ab\xbf", 2},
           {"abc\xc3", 3},                  // truncated at the end
           {"\xe2\x82", 0},
           {"\xf0\x9f\x98", 0},
           {"\xc3" "a", 0},                 // truncated, then ASCII
           {"\xe2\x82" "a", 0},
           {"\xf0\x9f\x98" "a", 0},
           {"\xc3\xa9\xc3", 2},
           {"0123456789abcdefghijk\xc0\xaf", 21},  // after the 16-byte fast path
           {"0123456789\xe2\x82\xac" "0123456789\xed\xa0\x80", 23},
       }) {
    EXPECT_EQ(FindInvalid(c.bytes), c.position) << testing::PrintToString(c.bytes);
    EXPECT_FALSE(IsValidUtf8(c.bytes));
  }
}

TEST(Utf8Test, EveryPositionOfTheFastPath) {
  // A bad byte (and a good multi-byte character) at every position of a
  // 200-byte ASCII run, so that the 64-byte, 16-byte, 8-byte and byte-wise
  // paths all see it at every alignment.
  for (size_t pos = 0; pos < 200; ++pos) {
    std::string bad(200, 'x');
    bad[pos] = '\xff';
    EXPECT_EQ(FindInvalid(bad), static_cast<int64_t>(pos));
    std::string good(200, 'x');
    good.replace(pos, 1, "\xf0\x9f\x98\x80");
    EXPECT_EQ(FindInvalid(good), -1) << pos;
    bool ascii = true;
    EXPECT_EQ(FindInvalidUtf8(reinterpret_cast<const uint8_t*>(good.data()),
                              static_cast<int64_t>(good.size()), &ascii),
              -1);
    EXPECT_FALSE(ascii) << pos;  // the emoji, wherever it is
    // A lone high byte is not ASCII either, nor well-formed.
    bad[pos] = '\x80';
    EXPECT_EQ(FindInvalid(bad), static_cast<int64_t>(pos));
    good.resize(pos + 2);  // cut the emoji short
    EXPECT_EQ(FindInvalid(good), static_cast<int64_t>(pos)) << pos;
  }
}

TEST(Utf8Test, ReportsAllAscii) {
  for (size_t size : {0, 1, 7, 8, 15, 16, 63, 64, 65, 200}) {
    const std::string s(size, 'q');
    bool ascii = false;
    EXPECT_EQ(FindInvalidUtf8(reinterpret_cast<const uint8_t*>(s.data()),
                              static_cast<int64_t>(s.size()), &ascii),
              -1);
    EXPECT_TRUE(ascii) << size;
  }
  bool ascii = false;
  const std::string two = "abc\xc3\xa9";
  EXPECT_EQ(FindInvalidUtf8(reinterpret_cast<const uint8_t*>(two.data()), 5, &ascii), -1);
  EXPECT_FALSE(ascii);
  ascii = false;
  EXPECT_EQ(FindInvalidUtf8(reinterpret_cast<const uint8_t*>(two.data()), 3, &ascii), -1);
  EXPECT_TRUE(ascii);  // the ASCII prefix alone
}

// Reference: decode by bit arithmetic, then reject overlong forms,
// surrogates and code points above U+10FFFF.
bool ReferenceValid(const uint8_t* s, int n) {
  int i = 0;
  while (i < n) {
    const uint8_t c = s[i];
    int length;
    uint32_t cp;
    if (c < 0x80) {
      length = 1;
      cp = c;
    } else if ((c & 0xE0) == 0xC0) {
      length = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      length = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      length = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + length > n) return false;
    for (int k = 1; k < length; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += length;
  }
  return true;
}

TEST(Utf8Test, MatchesReferenceOnAllShortSequences) {
  uint8_t s[4];
  for (int a = 0; a < 256; ++a) {
    s[0] = static_cast<uint8_t>(a);
    ASSERT_EQ(IsValidUtf8(s, 1), ReferenceValid(s, 1)) << a;
    for (int b = 0; b < 256; ++b) {
      s[1] = static_cast<uint8_t>(b);
      ASSERT_EQ(IsValidUtf8(s, 2), ReferenceValid(s, 2)) << a << " " << b;
    }
  }
  // Every 3-byte sequence with a non-ASCII lead byte.
  for (int a = 0x80; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      for (int c = 0; c < 256; c += (a >= 0xE0 && a < 0xF0) ? 1 : 17) {
        s[0] = static_cast<uint8_t>(a);
        s[1] = static_cast<uint8_t>(b);
        s[2] = static_cast<uint8_t>(c);
        ASSERT_EQ(IsValidUtf8(s, 3), ReferenceValid(s, 3)) << a << " " << b << " " << c;
      }
    }
  }
  // 4-byte sequences: every lead and second byte, a spread of the others.
  for (int a = 0xF0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      for (int c : {0x00, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0}) {
        for (int d : {0x41, 0x80, 0xBF, 0xC0}) {
          s[0] = static_cast<uint8_t>(a);
          s[1] = static_cast<uint8_t>(b);
          s[2] = static_cast<uint8_t>(c);
          s[3] = static_cast<uint8_t>(d);
          ASSERT_EQ(IsValidUtf8(s, 4), ReferenceValid(s, 4)) << a << " " << b << " " << c;
        }
      }
    }
  }
}

TEST(Utf8Test, SequenceLength) {
  auto len = [](const std::string& s) {
    return Utf8SequenceLength(reinterpret_cast<const uint8_t*>(s.data()),
                              static_cast<int64_t>(s.size()));
  };
  EXPECT_EQ(len("a"), 1);
  EXPECT_EQ(len("ab"), 1);
  EXPECT_EQ(len("\xc3\xa9x"), 2);
  EXPECT_EQ(len("\xe2\x82\xac"), 3);
  EXPECT_EQ(len("\xf0\x9f\x98\x80z"), 4);
  EXPECT_EQ(len("\xf0\x9f\x98"), 0);  // truncated
  EXPECT_EQ(len("\xed\xa0\x80"), 0);  // surrogate
  EXPECT_EQ(len("\xc0\xaf"), 0);       // overlong
  EXPECT_EQ(len("\x80"), 0);            // continuation
  EXPECT_TRUE(IsUtf8Continuation(0x80));
  EXPECT_TRUE(IsUtf8Continuation(0xBF));
  EXPECT_FALSE(IsUtf8Continuation(0x7F));
  EXPECT_FALSE(IsUtf8Continuation(0xC0));
}

TEST(Utf8Test, CopyAsciiCopiesExactlyAndFindsEveryHighByte) {
  // Every length up to 300 (the 64-, 16-byte, overlapping and short paths)
  // at source and destination offsets 0..3; a byte >= 0x80 at every
  // position, and at none; the bytes around the destination untouched.
  for (int64_t size = 0; size <= 300; ++size) {
    for (int shift = 0; shift < 4; ++shift) {
      std::vector<uint8_t> src(static_cast<size_t>(size + shift));
      for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>('!' + i % 90);
      for (int64_t high = -1; high < size; ++high) {
        std::vector<uint8_t> in = src;
        if (high >= 0) in[static_cast<size_t>(shift + high)] = static_cast<uint8_t>(0x80 + high % 128);
        std::vector<uint8_t> dst(static_cast<size_t>(size + 8), 0xEE);
        const bool ascii = CopyAscii(dst.data() + (3 - shift), in.data() + shift, size);
        ASSERT_EQ(ascii, high < 0) << "size " << size << " shift " << shift << " high " << high;
        for (int64_t i = 0; i < size + 8; ++i) {
          const int64_t from = i - (3 - shift);
          const uint8_t want = from >= 0 && from < size ? in[static_cast<size_t>(shift + from)] : 0xEE;
          ASSERT_EQ(dst[static_cast<size_t>(i)], want) << "size " << size << " byte " << i;
        }
      }
    }
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
