#include "quiver/util/base64.h"

#include <gtest/gtest.h>

#include <string>

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

TEST(Base64, Rfc4648Vectors) {
  // RFC 4648, section 10.
  const std::pair<std::string, std::string> vectors[] = {
      {"", ""},           {"f", "Zg=="},         {"fo", "Zm8="},         {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : vectors) {
    SCOPED_TRACE(plain);
    EXPECT_EQ(Base64Encode(reinterpret_cast<const uint8_t*>(plain.data()),
                           static_cast<int64_t>(plain.size())),
              encoded);
    EXPECT_EQ(Base64Encode(plain), encoded);
    auto decoded = Base64Decode(encoded);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(*decoded, plain);
  }
}

TEST(Base64, EveryByteRoundTrips) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t n = 0; n <= all.size(); n += 37) {
    const std::string bytes = all.substr(all.size() - n);
    const std::string text = Base64Encode(bytes);
    EXPECT_EQ(text.size(), (n + 2) / 3 * 4);
    auto decoded = Base64Decode(text);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(*decoded, bytes);
  }
  EXPECT_EQ(Base64Encode(std::string("\xff\xfe\xfd", 3)), "//79");
  EXPECT_EQ(Base64Encode(std::string("\xfb\xef", 2)), "++8=");
}

TEST(Base64, DecodeIsStrict) {
  for (const char* bad : {
           "Zg=",        // length not a multiple of 4
           "Zg",         // missing padding
           "Zm9v\n",     // line break
           "Zm 9v",      // whitespace (and length)
           "Zm9 ",       // whitespace
           "Zm-v",       // URL-safe alphabet
           "Zm_v",
           "Z===",       // too much padding
           "====",
           "Zg==Zm9v",   // padding in the middle
           "Z=g=",
           "Zh==",       // padding bits not zero ('h' = 33: low 4 bits 0001)
           "Zm9=",       // padding bits not zero ('9' = 61: low 2 bits 01)
       }) {
    SCOPED_TRACE(bad);
    auto decoded = Base64Decode(bad);
    EXPECT_TRUE(decoded.status().IsInvalid()) << decoded.status();
  }
  EXPECT_EQ(Base64Decode("Zm-v").status().message(), "base64: invalid character 0x2d at position 2");
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
