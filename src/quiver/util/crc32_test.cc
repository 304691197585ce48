#include "quiver/util/crc32.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

uint32_t Crc(const std::string& s) {
  return Crc32(reinterpret_cast<const uint8_t*>(s.data()), static_cast<int64_t>(s.size()));
}

TEST(Crc32, KnownValues) {
  EXPECT_EQ(Crc(""), 0u);
  EXPECT_EQ(Crc32(nullptr, 0), 0u);
  // The CRC catalogue's check value of CRC-32/ISO-HDLC.
  EXPECT_EQ(Crc("123456789"), 0xCBF43926u);
  EXPECT_EQ(Crc("a"), 0xE8B7BE43u);
  EXPECT_EQ(Crc("The quick brown fox jumps over the lazy dog"), 0x414FA339u);
  EXPECT_EQ(Crc(std::string(32, '\0')), 0x190A55ADu);
}

TEST(Crc32, UpdateContinuesAcrossPieces) {
  std::mt19937_64 rng(7);
  std::vector<uint8_t> data(4099);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  const uint32_t whole = Crc32(data.data(), static_cast<int64_t>(data.size()));
  // zlib's one-shot value as an independent reference.
  EXPECT_EQ(whole, static_cast<uint32_t>(crc32(0L, data.data(), static_cast<uInt>(data.size()))));
  for (int64_t cut : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{2048}, int64_t{4098},
                      int64_t{4099}}) {
    SCOPED_TRACE(cut);
    const uint32_t prefix = Crc32(data.data(), cut);
    EXPECT_EQ(Crc32Update(prefix, data.data() + cut, static_cast<int64_t>(data.size()) - cut),
              whole);
  }
  EXPECT_EQ(Crc32Update(whole, nullptr, 0), whole);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
