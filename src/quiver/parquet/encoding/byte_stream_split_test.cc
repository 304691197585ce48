#include "quiver/parquet/encoding/byte_stream_split.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "quiver/util/bit_util.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using Bytes = std::vector<uint8_t>;

TEST(ByteStreamSplitTest, SpecExample) {
  const Bytes values = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
  ByteStreamSplitEncoder encoder(4);
  ASSERT_TRUE(encoder.Put(values.data(), 3).ok());
  MutableBuffer out;
  auto n = encoder.Flush(&out);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 12);
  EXPECT_EQ(Bytes(out.data(), out.data() + out.size()),
            (Bytes{0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6}));
  ByteStreamSplitDecoder decoder;
  ASSERT_TRUE(decoder.Init(out.data(), out.size(), 4).ok());
  EXPECT_EQ(decoder.total_values(), 3);
  Bytes back(12);
  EXPECT_EQ(decoder.GetBatch(back.data(), 10), 3);
  EXPECT_EQ(back, values);
}

TEST(ByteStreamSplitTest, RoundTripWidthsLengthsAndBatches) {
  std::mt19937_64 rng(16);
  for (int width : {1, 2, 3, 4, 8, 12, 16, 17}) {
    for (int64_t n : {0, 1, 2, 7, 100, 1001}) {
      Bytes values(static_cast<size_t>(n * width));
      for (auto& b : values) b = static_cast<uint8_t>(rng());
      std::vector<uint8_t> validity(static_cast<size_t>(n / 8 + 1), 0);
      Bytes expected;
      for (int64_t i = 0; i < n; ++i) {
        if (i % 4 != 2) {
          bit_util::SetBit(validity.data(), i);
          expected.insert(expected.end(), values.begin() + i * width,
                          values.begin() + (i + 1) * width);
        }
      }
      ByteStreamSplitEncoder encoder(width);
      ASSERT_TRUE(encoder.PutSpaced(values.data(), n, validity.data(), 0).ok());
      MutableBuffer out;
      ASSERT_TRUE(out.Push(0x77).ok());  // appended after existing bytes
      auto size = encoder.Flush(&out);
      ASSERT_TRUE(size.ok());
      ASSERT_EQ(*size, static_cast<int64_t>(expected.size()));
      // Stream k holds byte k of every value.
      const int64_t count = *size / width;
      for (int64_t i = 0; i < count; ++i) {
        for (int k = 0; k < width; ++k) {
          ASSERT_EQ(out.data()[1 + k * count + i], expected[i * width + k]);
        }
      }
      ByteStreamSplitDecoder decoder;
      ASSERT_TRUE(decoder.Init(out.data() + 1, out.size() - 1, width).ok());
      Bytes back(expected.size());
      int64_t read = 0;
      while (decoder.values_left() > 0) read += decoder.GetBatch(back.data() + read * width, 13);
      EXPECT_EQ(back, expected) << "width " << width << " n " << n;
    }
  }
}

TEST(ByteStreamSplitTest, SizeNotAMultipleOfTheWidthIsInvalid) {
  const Bytes data(10, 0);
  ByteStreamSplitDecoder decoder;
  Status st = decoder.Init(data.data(), 10, 4);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("10 bytes is not a whole number of 4-byte values"),
            std::string::npos);
  EXPECT_TRUE(decoder.Init(data.data(), 10, 0).IsInvalid());
  EXPECT_TRUE(decoder.Init(data.data(), -1, 1).IsInvalid());
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
