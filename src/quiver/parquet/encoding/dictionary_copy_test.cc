// The copies that turn dictionary entries into Arrow values: decimals
// converted from big-endian bytes (big_endian_decimal.h, and
// DecodeDecimals, which converts a dictionary's entries once), and the
// byte-array gather with word-sized copies (every entry length class:
// uniform, at most 8, 16, 32 bytes, longer), checked against plain
// byte-by-byte references on buffers of exactly their size (ASan sees a
// read or write past them).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "quiver/parquet/encoding/big_endian_decimal.h"
#include "quiver/parquet/encoding/decoder_internal.h"
#include "quiver/parquet/encoding/dictionary_indices.h"
#include "quiver/parquet/encoding/plain.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

#define ASSERT_OK(expr)                                       \
  do {                                                        \
    const ::quiver::Status _st = (expr);                      \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.ToString(); \
  } while (false)

// The value of `length` big-endian bytes as `width` little-endian ones,
// by arithmetic on the bytes (no shared code with the converter).
std::vector<uint8_t> Reference(const uint8_t* in, int length, int width) {
  std::vector<uint8_t> out(static_cast<size_t>(width));
  const uint8_t fill = (in[0] & 0x80) ? 0xFF : 0x00;
  for (int i = 0; i < width; ++i) out[static_cast<size_t>(i)] = i < length ? in[length - 1 - i] : fill;
  return out;
}

TEST(BigEndianDecimals, EveryLengthAndWidth) {
  std::mt19937_64 rng(48);
  for (int width : {4, 8, 16, 32}) {
    for (int length = 1; length <= width; ++length) {
      for (int64_t n : {0, 1, 2, 3, 7, 17, 100}) {
        SCOPED_TRACE(testing::Message() << "width " << width << " length " << length << " n " << n);
        // Exactly n * length bytes on the heap; signs of both kinds, and
        // the extremes.
        std::unique_ptr<uint8_t[]> in(new uint8_t[static_cast<size_t>(n * length) + (n == 0)]);
        for (int64_t i = 0; i < n * length; ++i) in[i] = static_cast<uint8_t>(rng());
        if (n >= 3) {
          std::memset(in.get(), 0x80, 1);
          std::memset(in.get() + 1, 0x00, static_cast<size_t>(length - 1));  // the minimum
          std::memset(in.get() + length, 0x7F, 1);
          std::memset(in.get() + length + 1, 0xFF, static_cast<size_t>(length - 1));  // maximum
          std::memset(in.get() + 2 * length, 0xFF, static_cast<size_t>(length));  // -1
        }
        std::unique_ptr<uint8_t[]> out(new uint8_t[static_cast<size_t>(n * width) + (n == 0)]);
        internal::BigEndianToDecimals(in.get(), length, n, out.get(), width);
        for (int64_t i = 0; i < n; ++i) {
          const auto want = Reference(in.get() + i * length, length, width);
          ASSERT_EQ(std::memcmp(out.get() + i * width, want.data(), want.size()), 0) << i;
        }
      }
    }
  }
}

// Dictionary entries of `length` bytes, `distinct` of them, and n indices.
struct DictionaryPages {
  std::vector<uint8_t> dictionary;  // PLAIN
  int64_t entries = 0;
  std::vector<uint8_t> indices;  // the data page
  std::vector<int32_t> chosen;
};

DictionaryPages MakePages(const std::vector<std::string>& entries, int64_t n, uint64_t seed,
                          bool byte_array) {
  std::mt19937_64 rng(seed);
  DictionaryPages pages;
  MutableBuffer dictionary;
  for (const auto& e : entries) {
    if (byte_array) {
      PlainEncodeByteArray(e, &dictionary).Abort("dictionary");
    } else {
      dictionary.ExtendFromSlice(e.data(), static_cast<int64_t>(e.size())).Abort("dictionary");
    }
  }
  pages.dictionary.assign(dictionary.data(), dictionary.data() + dictionary.size());
  pages.entries = static_cast<int64_t>(entries.size());
  for (int64_t i = 0; i < n; ++i) {
    // Runs and scattered values both (RLE and bit-packed groups).
    const bool repeat = i > 0 && rng() % 3 == 0;
    pages.chosen.push_back(repeat ? pages.chosen.back()
                                  : static_cast<int32_t>(rng() % entries.size()));
  }
  MutableBuffer data;
  EncodeDictionaryIndices(pages.chosen.data(), n, MinBitWidth(pages.entries), &data)
      .status()
      .Abort("indices");
  pages.indices.assign(data.data(), data.data() + data.size());
  return pages;
}

std::string RandomBytes(std::mt19937_64& rng, size_t size) {
  std::string s;
  for (size_t i = 0; i < size; ++i) s.push_back(static_cast<char>(rng()));
  return s;
}

TEST(DictionaryCopy, DecimalsConvertTheEntriesOnceAndGather) {
  std::mt19937_64 rng(7);
  // 50 entries: converted once; 20,000 (over 256 KiB converted): gathered
  // and converted value by value (but into 32 bytes).
  for (int length : {1, 4, 7, 9, 16}) {
    for (int width : {4, 8, 16, 32}) {
      for (int count : {50, 20000}) {
        if (length > width) continue;
        SCOPED_TRACE(testing::Message() << "FLBA(" << length << ") into " << width << ", "
                                        << count << " entries");
        std::vector<std::string> entries;
        for (int i = 0; i < count; ++i) {
          entries.push_back(RandomBytes(rng, static_cast<size_t>(length)));
        }
        const int64_t n = 3000;
        DictionaryPages pages = MakePages(entries, n, 100 + length, /*byte_array=*/false);
        auto made = MakeDecoder(format::Type::kFixedLenByteArray, format::Encoding::kRleDictionary,
                                length);
        ASSERT_OK(made.status());
        auto& decoder = static_cast<FixedLenByteArrayDecoder&>(**made);
        ASSERT_OK(decoder.SetDictionary(pages.entries, pages.dictionary.data(),
                                        static_cast<int64_t>(pages.dictionary.size())));
        // Two data pages through the same dictionary, in uneven pieces.
        for (int page = 0; page < 2; ++page) {
          ASSERT_OK(decoder.SetData(n, pages.indices.data(),
                                    static_cast<int64_t>(pages.indices.size())));
          std::vector<uint8_t> out(static_cast<size_t>(n * width));
          int64_t done = 0;
          for (int64_t piece : {1, 999, 1500, 500}) {
            ASSERT_OK(decoder.DecodeDecimals(piece, width, out.data() + done * width));
            done += piece;
          }
          ASSERT_EQ(done, n);
          for (int64_t i = 0; i < n; ++i) {
            const auto& e = entries[static_cast<size_t>(pages.chosen[static_cast<size_t>(i)])];
            const auto want = Reference(reinterpret_cast<const uint8_t*>(e.data()), length, width);
            ASSERT_EQ(std::memcmp(out.data() + i * width, want.data(), want.size()), 0) << i;
          }
        }
      }
    }
  }
  // A value wider than the type: an error, not a conversion.
  auto made = MakeDecoder(format::Type::kFixedLenByteArray, format::Encoding::kPlain, 17);
  ASSERT_OK(made.status());
  std::vector<uint8_t> page(17, 1), out(16);
  ASSERT_OK((*made)->SetData(1, page.data(), 17));
  EXPECT_FALSE(
      static_cast<FixedLenByteArrayDecoder&>(**made).DecodeDecimals(1, 16, out.data()).ok());
}

TEST(DictionaryCopy, ByteArraysOfEveryLengthClass) {
  std::mt19937_64 rng(8);
  struct Shape {
    const char* name;
    int min_length;
    int max_length;
  };
  // "skewed": one entry of 10,000 bytes among short ones (copied view by
  // view: value_bytes_bound is unknown).
  for (Shape shape : {Shape{"skewed", -1, -1}, Shape{"uniform 1", 1, 1}, Shape{"uniform 5", 5, 5},
                      Shape{"uniform 8", 8, 8},
                      Shape{"uniform 12", 12, 12}, Shape{"uniform 16", 16, 16},
                      Shape{"uniform 17", 17, 17}, Shape{"uniform 40", 40, 40},
                      Shape{"0..8", 0, 8}, Shape{"3..16", 3, 16}, Shape{"0..32", 0, 32},
                      Shape{"10..100", 10, 100}, Shape{"uniform 0", 0, 0}}) {
    for (int distinct : {1, 2, 300}) {
      SCOPED_TRACE(testing::Message() << shape.name << ", " << distinct << " entries");
      std::vector<std::string> entries;
      for (int i = 0; i < distinct; ++i) {
        const int size = shape.min_length < 0 ? (i == 0 ? 10000 : static_cast<int>(rng() % 9))
                                              : shape.min_length + static_cast<int>(rng() % (
                                                    shape.max_length - shape.min_length + 1));
        entries.push_back(RandomBytes(rng, static_cast<size_t>(size)));
      }

      const int64_t n = 20000;  // more than one DecodeInto piece
      DictionaryPages pages = MakePages(entries, n, 200 + distinct, /*byte_array=*/true);
      auto made = MakeDecoder(format::Type::kByteArray, format::Encoding::kRleDictionary, -1);
      ASSERT_OK(made.status());
      auto& decoder = static_cast<ByteArrayDecoder&>(**made);
      // The dictionary page in a buffer of exactly its size.
      std::unique_ptr<uint8_t[]> dictionary(new uint8_t[pages.dictionary.size() + 1]);
      std::memcpy(dictionary.get(), pages.dictionary.data(), pages.dictionary.size());
      ASSERT_OK(decoder.SetDictionary(pages.entries, dictionary.get(),
                                      static_cast<int64_t>(pages.dictionary.size())));
      // A loose bound only where the entries are of like lengths.
      EXPECT_EQ(decoder.value_bytes_bound(10) == ByteArrayDecoder::kUnknownBytes,
                shape.min_length < 0 && distinct == 300);
      ASSERT_OK(decoder.SetData(n, pages.indices.data(),
                                static_cast<int64_t>(pages.indices.size())));
      MutableBuffer offsets, data;
      // Two appends into the same buffers (the second starts mid-buffer).
      ASSERT_OK(decoder.DecodeArrow(7, nullptr, 0, &offsets, &data));
      ASSERT_OK(decoder.DecodeArrow(n - 7, nullptr, 0, &offsets, &data));
      const auto* o = offsets.data_as<int32_t>();
      ASSERT_EQ(offsets.size(), (n + 1) * 4);
      for (int64_t i = 0; i < n; ++i) {
        const std::string got(reinterpret_cast<const char*>(data.data()) + o[i],
                              static_cast<size_t>(o[i + 1] - o[i]));
        ASSERT_EQ(got, entries[static_cast<size_t>(pages.chosen[static_cast<size_t>(i)])]) << i;
      }
      EXPECT_EQ(o[n], data.size());
      EXPECT_EQ(decoder.values_left(), 0);
    }
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
