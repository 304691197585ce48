// Tests for bit_util.h and bitmap.h.
//
// bit_util helpers are checked against hand-computed values. Every bitmap
// function is checked against a naive bit-by-bit reference (built on
// bit_util::GetBit/SetBitTo, which are tested first) on random bitmaps from a
// seeded std::mt19937_64, for every offset 0..70 and every length 0..200 in
// each operand position, plus same-bit-phase cases and a few long inputs.
//
// Out-of-range access: each test bitmap is a heap buffer of exactly
// BytesForBits(offset + length) bytes, so ASan catches any read or write past
// the end. Under ASan the bytes before offset / 8 (and some padding placed in
// front of the buffer) are also poisoned during the call, so touching a byte
// before the range is caught as well. Destination buffers are compared whole
// against the reference, so every bit outside the range must be unchanged.
#include "quiver/util/bitmap.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "quiver/util/bit_util.h"

#if defined(__SANITIZE_ADDRESS__)
#define QUIVER_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QUIVER_TEST_ASAN 1
#endif
#endif

#if defined(QUIVER_TEST_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace quiver {
namespace {
namespace QUIVER_UNITY_ID {

using bit_util::BytesForBits;
using bit_util::GetBit;
using bit_util::SetBitTo;

// ===========================================================================
// bit_util

TEST(BitUtil, RoundUp) {
  EXPECT_EQ(bit_util::RoundUp(0, 8), 0);
  EXPECT_EQ(bit_util::RoundUp(1, 8), 8);
  EXPECT_EQ(bit_util::RoundUp(7, 8), 8);
  EXPECT_EQ(bit_util::RoundUp(8, 8), 8);
  EXPECT_EQ(bit_util::RoundUp(9, 8), 16);
  EXPECT_EQ(bit_util::RoundUp(9, 5), 10);
  EXPECT_EQ(bit_util::RoundUp(10, 5), 10);
  EXPECT_EQ(bit_util::RoundUp(11, 1), 11);
  static_assert(bit_util::RoundUp(100, 64) == 128);

  EXPECT_EQ(bit_util::RoundUpToMultipleOf64(0), 0);
  EXPECT_EQ(bit_util::RoundUpToMultipleOf64(1), 64);
  EXPECT_EQ(bit_util::RoundUpToMultipleOf64(63), 64);
  EXPECT_EQ(bit_util::RoundUpToMultipleOf64(64), 64);
  EXPECT_EQ(bit_util::RoundUpToMultipleOf64(65), 128);
  EXPECT_EQ(bit_util::RoundUpToMultipleOf64(int64_t{1} << 40), int64_t{1} << 40);
  static_assert(bit_util::RoundUpToMultipleOf64(129) == 192);

  EXPECT_EQ(bit_util::RoundUpToMultipleOf8(0), 0);
  EXPECT_EQ(bit_util::RoundUpToMultipleOf8(1), 8);
  EXPECT_EQ(bit_util::RoundUpToMultipleOf8(8), 8);
  EXPECT_EQ(bit_util::RoundUpToMultipleOf8(9), 16);
  EXPECT_EQ(bit_util::RoundUpToMultipleOf8(23), 24);
}

TEST(BitUtil, BytesForBits) {
  EXPECT_EQ(BytesForBits(0), 0);
  EXPECT_EQ(BytesForBits(1), 1);
  EXPECT_EQ(BytesForBits(7), 1);
  EXPECT_EQ(BytesForBits(8), 1);
  EXPECT_EQ(BytesForBits(9), 2);
  EXPECT_EQ(BytesForBits(64), 8);
  EXPECT_EQ(BytesForBits(65), 9);
  EXPECT_EQ(BytesForBits(int64_t{1} << 40), int64_t{1} << 37);
  static_assert(BytesForBits(17) == 3);
}

TEST(BitUtil, IsPowerOf2) {
  EXPECT_FALSE(bit_util::IsPowerOf2(int64_t{0}));
  EXPECT_TRUE(bit_util::IsPowerOf2(int64_t{1}));
  EXPECT_TRUE(bit_util::IsPowerOf2(int64_t{2}));
  EXPECT_FALSE(bit_util::IsPowerOf2(int64_t{3}));
  EXPECT_TRUE(bit_util::IsPowerOf2(int64_t{64}));
  EXPECT_FALSE(bit_util::IsPowerOf2(int64_t{96}));
  EXPECT_FALSE(bit_util::IsPowerOf2(int64_t{-4}));
  EXPECT_TRUE(bit_util::IsPowerOf2(int64_t{1} << 62));
  EXPECT_FALSE(bit_util::IsPowerOf2(uint64_t{0}));
  EXPECT_TRUE(bit_util::IsPowerOf2(uint64_t{1} << 63));
  EXPECT_FALSE(bit_util::IsPowerOf2(~uint64_t{0}));
}

TEST(BitUtil, Log2IsCeiling) {
  EXPECT_EQ(bit_util::Log2(0), 0);
  EXPECT_EQ(bit_util::Log2(1), 0);
  EXPECT_EQ(bit_util::Log2(2), 1);
  EXPECT_EQ(bit_util::Log2(3), 2);
  EXPECT_EQ(bit_util::Log2(4), 2);
  EXPECT_EQ(bit_util::Log2(5), 3);
  EXPECT_EQ(bit_util::Log2(1024), 10);
  EXPECT_EQ(bit_util::Log2(1025), 11);
  EXPECT_EQ(bit_util::Log2(uint64_t{1} << 63), 63);
  EXPECT_EQ(bit_util::Log2(~uint64_t{0}), 64);
  static_assert(bit_util::Log2(9) == 4);

  EXPECT_EQ(bit_util::NumRequiredBits(0), 0);
  EXPECT_EQ(bit_util::NumRequiredBits(1), 1);
  EXPECT_EQ(bit_util::NumRequiredBits(255), 8);
  EXPECT_EQ(bit_util::NumRequiredBits(256), 9);
}

TEST(BitUtil, CountZerosAndPopCount) {
  EXPECT_EQ(bit_util::CountLeadingZeros(uint32_t{0}), 32);
  EXPECT_EQ(bit_util::CountLeadingZeros(uint32_t{1}), 31);
  EXPECT_EQ(bit_util::CountLeadingZeros(uint32_t{0x80000000u}), 0);
  EXPECT_EQ(bit_util::CountLeadingZeros(uint32_t{0x00010000u}), 15);
  EXPECT_EQ(bit_util::CountLeadingZeros(uint64_t{0}), 64);
  EXPECT_EQ(bit_util::CountLeadingZeros(uint64_t{1}), 63);
  EXPECT_EQ(bit_util::CountLeadingZeros(uint64_t{1} << 40), 23);
  EXPECT_EQ(bit_util::CountTrailingZeros(uint32_t{0}), 32);
  EXPECT_EQ(bit_util::CountTrailingZeros(uint32_t{8}), 3);
  EXPECT_EQ(bit_util::CountTrailingZeros(uint32_t{0x80000000u}), 31);
  EXPECT_EQ(bit_util::CountTrailingZeros(uint64_t{0}), 64);
  EXPECT_EQ(bit_util::CountTrailingZeros(uint64_t{1} << 63), 63);
  EXPECT_EQ(bit_util::CountTrailingZeros(uint64_t{0x50}), 4);
  EXPECT_EQ(bit_util::PopCount(0), 0);
  EXPECT_EQ(bit_util::PopCount(0xF0F0), 8);
  EXPECT_EQ(bit_util::PopCount(~uint64_t{0}), 64);
}

TEST(BitUtil, MaskTables) {
  const uint8_t bitmask[] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80};
  const uint8_t flipped[] = {0xFE, 0xFD, 0xFB, 0xF7, 0xEF, 0xDF, 0xBF, 0x7F};
  const uint8_t preceding[] = {0x00, 0x01, 0x03, 0x07, 0x0F, 0x1F, 0x3F, 0x7F, 0xFF};
  const uint8_t trailing[] = {0xFF, 0xFE, 0xFC, 0xF8, 0xF0, 0xE0, 0xC0, 0x80, 0x00};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(bit_util::kBitmask[i], bitmask[i]) << i;
    EXPECT_EQ(bit_util::kFlippedBitmask[i], flipped[i]) << i;
    EXPECT_EQ(bit_util::kPrecedingBitmask[i], preceding[i]) << i;
    EXPECT_EQ(bit_util::kTrailingBitmask[i], trailing[i]) << i;
  }
  for (int i = 0; i <= 8; ++i) {
    EXPECT_EQ(bit_util::PrecedingBitmask(i), preceding[i]) << i;
    EXPECT_EQ(bit_util::TrailingBitmask(i), trailing[i]) << i;
  }
  static_assert(bit_util::kBitmask[5] == 0x20);
  static_assert(bit_util::PrecedingBitmask(3) == 0x07);
  static_assert(bit_util::TrailingBitmask(3) == 0xF8);

  EXPECT_EQ(bit_util::LeastSignificantBitMask(0), uint64_t{0});
  EXPECT_EQ(bit_util::LeastSignificantBitMask(1), uint64_t{1});
  EXPECT_EQ(bit_util::LeastSignificantBitMask(12), uint64_t{0xFFF});
  EXPECT_EQ(bit_util::LeastSignificantBitMask(63), ~uint64_t{0} >> 1);
  EXPECT_EQ(bit_util::LeastSignificantBitMask(64), ~uint64_t{0});
}

TEST(BitUtil, GetSetClearBits) {
  const uint8_t pattern[] = {0xA5, 0x01};  // 0b10100101, 0b00000001
  const bool expected[] = {true, false, true, false, false, true, false, true,
                           true, false, false, false, false, false, false, false};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(GetBit(pattern, i), expected[i]) << i;

  uint8_t bits[2] = {0, 0};
  bit_util::SetBit(bits, 0);
  EXPECT_EQ(bits[0], 0x01);
  bit_util::SetBit(bits, 9);
  EXPECT_EQ(bits[1], 0x02);
  bit_util::SetBit(bits, 9);  // Idempotent.
  EXPECT_EQ(bits[1], 0x02);
  SetBitTo(bits, 7, true);
  EXPECT_EQ(bits[0], 0x81);
  SetBitTo(bits, 0, false);
  EXPECT_EQ(bits[0], 0x80);
  SetBitTo(bits, 0, false);  // Clearing a clear bit.
  EXPECT_EQ(bits[0], 0x80);
  SetBitTo(bits, 15, true);
  EXPECT_EQ(bits[1], 0x82);
  bit_util::ClearBit(bits, 9);
  EXPECT_EQ(bits[1], 0x80);
  bit_util::ClearBit(bits, 7);
  EXPECT_EQ(bits[0], 0x00);
  EXPECT_EQ(bits[1], 0x80);

  // Exhaustive on one byte: SetBitTo changes exactly the addressed bit.
  for (int byte = 0; byte < 256; ++byte) {
    for (int i = 0; i < 8; ++i) {
      for (bool v : {false, true}) {
        uint8_t b = static_cast<uint8_t>(byte);
        SetBitTo(&b, i, v);
        const int want = v ? (byte | (1 << i)) : (byte & ~(1 << i));
        ASSERT_EQ(b, want) << byte << " " << i << " " << v;
      }
    }
  }
}

TEST(BitUtil, Endianness) {
  EXPECT_EQ(bit_util::ByteSwap(uint8_t{0x12}), 0x12);
  EXPECT_EQ(bit_util::ByteSwap(uint16_t{0x1122}), 0x2211);
  EXPECT_EQ(bit_util::ByteSwap(uint32_t{0x11223344u}), 0x44332211u);
  EXPECT_EQ(bit_util::ByteSwap(uint64_t{0x1122334455667788ull}), 0x8877665544332211ull);
  EXPECT_EQ(bit_util::ByteSwap(int32_t{-2}), int32_t{-16777217});  // FFFFFFFE -> FEFFFFFF
  static_assert(bit_util::ByteSwap(uint16_t{0xABCD}) == 0xCDAB);

  // Little-endian bytes decode to the same value on any machine.
  const uint8_t bytes[] = {0xEE, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
  EXPECT_EQ(bit_util::FromLittleEndian(bit_util::SafeLoad<uint32_t>(bytes + 1)), 0x04030201u);
  EXPECT_EQ(bit_util::FromLittleEndian(bit_util::SafeLoad<uint64_t>(bytes + 1)),
            0x0807060504030201ull);
  EXPECT_EQ(bit_util::FromLittleEndian(bit_util::SafeLoad<uint16_t>(bytes)), 0x01EE);

  uint8_t out[9] = {};
  bit_util::SafeStore(out + 1, bit_util::ToLittleEndian(uint32_t{0xA1B2C3D4u}));
  EXPECT_EQ(out[0], 0x00);
  EXPECT_EQ(out[1], 0xD4);
  EXPECT_EQ(out[2], 0xC3);
  EXPECT_EQ(out[3], 0xB2);
  EXPECT_EQ(out[4], 0xA1);
  EXPECT_EQ(out[5], 0x00);
  EXPECT_EQ(bit_util::ToLittleEndian(bit_util::FromLittleEndian(uint64_t{42})), uint64_t{42});
}

TEST(BitUtil, LoadAndStoreInAByteOrder) {
  const uint8_t bytes[] = {0xEE, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
  // Unaligned on purpose (bytes + 1).
  EXPECT_EQ(bit_util::LoadLE32(bytes + 1), 0x04030201u);
  EXPECT_EQ(bit_util::LoadLE64(bytes + 1), 0x0807060504030201ull);
  EXPECT_EQ(bit_util::LoadLittleEndian<uint16_t>(bytes), 0x01EE);
  EXPECT_EQ(bit_util::LoadLittleEndian<int32_t>(bytes), int32_t{0x030201EE});
  EXPECT_EQ(bit_util::LoadLittleEndian<uint8_t>(bytes), 0xEE);
  EXPECT_EQ(bit_util::LoadBigEndian<uint32_t>(bytes + 1), 0x01020304u);
  EXPECT_EQ(bit_util::LoadBigEndian<uint16_t>(bytes), 0xEE01);
  const uint8_t minus_two[] = {0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  EXPECT_EQ(bit_util::LoadLittleEndian<int64_t>(minus_two), -2);

  // IEEE 754 doubles and floats travel as their bit patterns.
  const uint8_t one_point_five[] = {0, 0, 0, 0, 0, 0, 0xF8, 0x3F};  // 0x3FF8000000000000
  EXPECT_EQ(bit_util::LoadLittleEndian<double>(one_point_five), 1.5);
  const uint8_t minus_quarter[] = {0x00, 0x00, 0x80, 0xBE};  // 0xBE800000
  EXPECT_EQ(bit_util::LoadLittleEndian<float>(minus_quarter), -0.25f);

  uint8_t out[10] = {};
  bit_util::StoreLittleEndian(out + 1, uint32_t{0xA1B2C3D4u});
  EXPECT_EQ(out[0], 0x00);
  EXPECT_EQ(out[1], 0xD4);
  EXPECT_EQ(out[4], 0xA1);
  EXPECT_EQ(out[5], 0x00);
  bit_util::StoreLittleEndian(out + 1, 1.5);
  EXPECT_EQ(std::memcmp(out + 1, one_point_five, 8), 0);
  EXPECT_EQ(out[9], 0x00);
  EXPECT_EQ(bit_util::LoadLittleEndian<double>(out + 1), 1.5);
}

// ===========================================================================
// Test bitmaps

enum class Fill { kRandom, kSparse, kDense, kZeros, kOnes, kRuns };
constexpr int kNumFills = 6;

// A heap buffer of exactly BytesForBits(offset + length) bytes holding
// random bits, with the bytes before the range poisonable under ASan.
class TestBitmap {
 public:
  TestBitmap(int64_t offset, int64_t length, std::mt19937_64& rng, Fill fill)
      : size_(BytesForBits(offset + length)), guard_(offset >> 3) {
    // Half the time put the range's first byte on an ASan granule boundary so
    // that every byte before it can be poisoned; otherwise a random address.
    pad_ = (rng() & 1) ? (8 - guard_ % 8) % 8 : static_cast<int64_t>(rng() % 8);
    storage_.reset(new uint8_t[pad_ + size_]);
    data_ = storage_.get() + pad_;
    FillBits(rng, fill);
  }
  TestBitmap(int64_t offset, int64_t length, std::mt19937_64& rng)
      : TestBitmap(offset, length, rng, static_cast<Fill>(rng() % kNumFills)) {}
  ~TestBitmap() { Unpoison(); }

  TestBitmap(const TestBitmap&) = delete;
  TestBitmap& operator=(const TestBitmap&) = delete;

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  std::vector<uint8_t> Snapshot() const { return std::vector<uint8_t>(data_, data_ + size_); }

  // Makes the padding and bytes [0, offset / 8) inaccessible (as far as ASan's
  // 8-byte granularity allows).
  void Poison() {
#if defined(QUIVER_TEST_ASAN)
    ASAN_POISON_MEMORY_REGION(storage_.get(), pad_ + guard_);
#endif
  }
  void Unpoison() {
#if defined(QUIVER_TEST_ASAN)
    ASAN_UNPOISON_MEMORY_REGION(storage_.get(), pad_ + guard_);
#endif
  }

 private:
  void FillBits(std::mt19937_64& rng, Fill fill) {
    const int64_t nbits = size_ * 8;
    switch (fill) {
      case Fill::kRandom:
        for (int64_t i = 0; i < size_; ++i) data_[i] = static_cast<uint8_t>(rng());
        break;
      case Fill::kSparse:
      case Fill::kDense:
        for (int64_t i = 0; i < nbits; ++i) {
          const bool rare = rng() % 16 == 0;
          SetBitTo(data_, i, fill == Fill::kSparse ? rare : !rare);
        }
        break;
      case Fill::kZeros:
        if (size_ > 0) std::memset(data_, 0, size_);
        break;
      case Fill::kOnes:
        if (size_ > 0) std::memset(data_, 0xFF, size_);
        break;
      case Fill::kRuns: {
        bool value = rng() & 1;
        for (int64_t i = 0; i < nbits;) {
          const int64_t run = 1 + static_cast<int64_t>(rng() % 150);
          for (int64_t j = 0; j < run && i < nbits; ++j, ++i) SetBitTo(data_, i, value);
          value = !value;
        }
        break;
      }
    }
  }

  int64_t size_;
  int64_t guard_;
  int64_t pad_;
  std::unique_ptr<uint8_t[]> storage_;
  uint8_t* data_;
};

// Poisons the given bitmaps for the lifetime of the guard.
class PoisonGuard {
 public:
  explicit PoisonGuard(std::initializer_list<TestBitmap*> bitmaps) : bitmaps_(bitmaps) {
    for (TestBitmap* b : bitmaps_) b->Poison();
  }
  ~PoisonGuard() {
    for (TestBitmap* b : bitmaps_) b->Unpoison();
  }

 private:
  std::vector<TestBitmap*> bitmaps_;
};

// Operand offsets (up to three) and a length.
struct Case {
  int64_t offsets[3];
  int64_t length;
};

std::string Describe(const Case& c) {
  return "offsets=(" + std::to_string(c.offsets[0]) + "," + std::to_string(c.offsets[1]) + "," +
         std::to_string(c.offsets[2]) + ") length=" + std::to_string(c.length);
}

constexpr int64_t kMaxOffset = 70;
constexpr int64_t kMaxSmallLength = 200;
constexpr int64_t kLargeLengths[] = {1000, 4096, 10000, 10007};
constexpr int64_t kLargeOffsets[] = {0, 1, 7, 8, 9, 31, 63, 64, 65, 70};

// For every length 0..200 and offset 0..70: the offset in each operand slot
// with random offsets in the other slots, and all slots with the same bit
// phase (the word-at-a-time path). Then long lengths with selected offsets.
std::vector<Case> MakeCases() {
  std::mt19937_64 rng(20240611);
  auto random_offset = [&] { return static_cast<int64_t>(rng() % (kMaxOffset + 1)); };
  auto same_phase = [&](int64_t off) { return (off & 7) + 8 * static_cast<int64_t>(rng() % 8); };
  std::vector<Case> cases;
  for (int64_t length = 0; length <= kMaxSmallLength; ++length) {
    for (int64_t off = 0; off <= kMaxOffset; ++off) {
      for (int slot = 0; slot < 3; ++slot) {
        Case c{{random_offset(), random_offset(), random_offset()}, length};
        c.offsets[slot] = off;
        cases.push_back(c);
      }
      cases.push_back(Case{{off, same_phase(off), same_phase(off)}, length});
    }
  }
  constexpr int kN = sizeof(kLargeOffsets) / sizeof(kLargeOffsets[0]);
  for (int64_t length : kLargeLengths) {
    for (int i = 0; i < kN; ++i) {
      for (int j = 0; j < kN; ++j) {
        cases.push_back(
            Case{{kLargeOffsets[i], kLargeOffsets[j], kLargeOffsets[(i + 3 * j) % kN]}, length});
      }
      const int64_t a = kLargeOffsets[i];
      cases.push_back(Case{{a, same_phase(a), same_phase(a)}, length});
    }
  }
  return cases;
}

const std::vector<Case>& Cases() {
  static const std::vector<Case>* cases = new std::vector<Case>(MakeCases());
  return *cases;
}

// (offset, length) pairs for single-bitmap functions: all offsets 0..70 for
// every length 0..200, plus long lengths.
std::vector<std::pair<int64_t, int64_t>> SingleCases() {
  std::vector<std::pair<int64_t, int64_t>> cases;
  for (int64_t length = 0; length <= kMaxSmallLength; ++length) {
    for (int64_t off = 0; off <= kMaxOffset; ++off) cases.emplace_back(off, length);
  }
  for (int64_t length : kLargeLengths) {
    for (int64_t off : kLargeOffsets) cases.emplace_back(off, length);
  }
  return cases;
}

// ===========================================================================
// LoadBits / StoreBits

TEST(Bitmap, LoadBitsMatchesReference) {
  std::mt19937_64 rng(1);
  for (int64_t off = 0; off <= kMaxOffset; ++off) {
    for (int nbits = 0; nbits <= 64; ++nbits) {
      TestBitmap src(off, nbits, rng);
      uint64_t want = 0;
      for (int i = 0; i < nbits; ++i) {
        want |= static_cast<uint64_t>(GetBit(src.data(), off + i)) << i;
      }
      PoisonGuard guard({&src});
      ASSERT_EQ(bitmap::LoadBits(src.data(), off, nbits), want) << off << " " << nbits;
    }
  }
}

TEST(Bitmap, LoadBitsInMatchesReferenceAndStaysInItsBytes) {
  // A bitmap of exactly the bytes that hold the bits (ASan: not a byte
  // more is readable), and one with 64 bits more (the one-load path).
  std::mt19937_64 rng(11);
  for (int64_t off = 0; off <= kMaxOffset; ++off) {
    for (int nbits = 0; nbits <= 64; ++nbits) {
      for (const int64_t extra : {int64_t{0}, int64_t{64}}) {
        TestBitmap src(off, nbits + extra, rng);
        uint64_t want = 0;
        for (int i = 0; i < nbits; ++i) {
          want |= static_cast<uint64_t>(GetBit(src.data(), off + i)) << i;
        }
        PoisonGuard guard({&src});
        ASSERT_EQ(bitmap::LoadBitsIn(src.data(), src.size(), off, nbits), want)
            << off << " " << nbits << " +" << extra;
      }
    }
  }
  // No bits at an offset before or past the bitmap (a null list slot's
  // unjudged offsets): 0, and nothing read (ASan: the bytes before the
  // bitmap are poisoned; the far offsets are unmapped).
  TestBitmap src(0, 128, rng, Fill::kRandom);
  PoisonGuard guard({&src});
  for (const int64_t off : {int64_t{-1}, int64_t{-8}, int64_t{-9}, int64_t{-64}, int64_t{-16000000000},
                            int64_t{128}, int64_t{16000000000}}) {
    EXPECT_EQ(bitmap::LoadBitsIn(src.data(), src.size(), off, 0), 0u) << off;
  }
}

TEST(Bitmap, StoreBitsMatchesReference) {
  std::mt19937_64 rng(2);
  for (int64_t off = 0; off <= kMaxOffset; ++off) {
    for (int nbits = 0; nbits <= 64; ++nbits) {
      TestBitmap dest(off, nbits, rng);
      const uint64_t value = rng();
      std::vector<uint8_t> expected = dest.Snapshot();
      for (int i = 0; i < nbits; ++i) SetBitTo(expected.data(), off + i, (value >> i) & 1);
      {
        PoisonGuard guard({&dest});
        bitmap::StoreBits(dest.data(), off, nbits, value);  // High bits of value ignored.
      }
      ASSERT_EQ(dest.Snapshot(), expected) << off << " " << nbits;
    }
  }
}

// ===========================================================================
// CountSetBits / SetBitsTo

TEST(Bitmap, CountSetBitsMatchesReference) {
  std::mt19937_64 rng(3);
  for (auto [off, length] : SingleCases()) {
    TestBitmap src(off, length, rng);
    int64_t want = 0;
    for (int64_t i = 0; i < length; ++i) want += GetBit(src.data(), off + i);
    PoisonGuard guard({&src});
    ASSERT_EQ(bitmap::CountSetBits(src.data(), off, length), want) << off << " " << length;
  }
}

TEST(Bitmap, CountSetBitsKnownValues) {
  const uint8_t bits[] = {0xFF, 0x0F, 0x00, 0x80};
  EXPECT_EQ(bitmap::CountSetBits(bits, 0, 32), 13);
  EXPECT_EQ(bitmap::CountSetBits(bits, 4, 8), 8);
  EXPECT_EQ(bitmap::CountSetBits(bits, 12, 19), 0);
  EXPECT_EQ(bitmap::CountSetBits(bits, 12, 20), 1);
  EXPECT_EQ(bitmap::CountSetBits(bits, 3, 1), 1);
}

TEST(Bitmap, FindSetAndUnsetMatchesReference) {
  std::mt19937_64 rng(31);
  for (auto [off, length] : SingleCases()) {
    TestBitmap src(off, length, rng);
    bool want_set = false, want_unset = false;
    for (int64_t i = 0; i < length; ++i) (GetBit(src.data(), off + i) ? want_set : want_unset) = true;
    PoisonGuard guard({&src});
    for (int prior = 0; prior < 4; ++prior) {  // flags already true stay true
      bool set = (prior & 1) != 0, unset = (prior & 2) != 0;
      bitmap::FindSetAndUnset(src.data(), off, length, &set, &unset);
      ASSERT_EQ(set, want_set || (prior & 1) != 0) << off << " " << length << " " << prior;
      ASSERT_EQ(unset, want_unset || (prior & 2) != 0) << off << " " << length << " " << prior;
    }
  }
}

TEST(Bitmap, FindSetAndUnsetKnownValues) {
  const uint8_t bits[] = {0xFF, 0xFF, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01};
  auto find = [&](int64_t off, int64_t len) {
    bool set = false, unset = false;
    bitmap::FindSetAndUnset(bits, off, len, &set, &unset);
    return std::pair{set, unset};
  };
  EXPECT_EQ(find(0, 16), std::pair(true, false));
  EXPECT_EQ(find(16, 16), std::pair(false, true));
  EXPECT_EQ(find(15, 2), std::pair(true, true));
  EXPECT_EQ(find(32, 64), std::pair(true, false));    // a whole word of ones
  EXPECT_EQ(find(32, 65), std::pair(true, false));    // and the set bit after it
  EXPECT_EQ(find(33, 65), std::pair(true, true));     // the unset bit after that
  EXPECT_EQ(find(0, 0), std::pair(false, false));
}

TEST(Bitmap, SetBitsToMatchesReference) {
  std::mt19937_64 rng(4);
  for (auto [off, length] : SingleCases()) {
    for (bool value : {false, true}) {
      TestBitmap dest(off, length, rng);
      std::vector<uint8_t> expected = dest.Snapshot();
      for (int64_t i = 0; i < length; ++i) SetBitTo(expected.data(), off + i, value);
      {
        PoisonGuard guard({&dest});
        bitmap::SetBitsTo(dest.data(), off, length, value);
      }
      ASSERT_EQ(dest.Snapshot(), expected) << off << " " << length << " " << value;
    }
  }
}

// ===========================================================================
// Unary and binary transforms

using UnaryFn = void (*)(const uint8_t*, int64_t, int64_t, uint8_t*, int64_t);
using BinaryFn = void (*)(const uint8_t*, int64_t, const uint8_t*, int64_t, int64_t, uint8_t*,
                          int64_t);

template <typename Ref>
void CheckUnary(UnaryFn fn, Ref ref, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (const Case& c : Cases()) {
    const int64_t src_off = c.offsets[0], dest_off = c.offsets[1], length = c.length;
    TestBitmap src(src_off, length, rng);
    TestBitmap dest(dest_off, length, rng);
    const std::vector<uint8_t> src_before = src.Snapshot();
    std::vector<uint8_t> expected = dest.Snapshot();
    for (int64_t i = 0; i < length; ++i) {
      SetBitTo(expected.data(), dest_off + i, ref(GetBit(src.data(), src_off + i)));
    }
    {
      PoisonGuard guard({&src, &dest});
      fn(src.data(), src_off, length, dest.data(), dest_off);
    }
    ASSERT_EQ(dest.Snapshot(), expected) << Describe(c);
    ASSERT_EQ(src.Snapshot(), src_before) << Describe(c);
  }
}

template <typename Ref>
void CheckBinary(BinaryFn fn, Ref ref, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (const Case& c : Cases()) {
    const int64_t left_off = c.offsets[0], right_off = c.offsets[1], dest_off = c.offsets[2];
    const int64_t length = c.length;
    TestBitmap left(left_off, length, rng);
    TestBitmap right(right_off, length, rng);
    TestBitmap dest(dest_off, length, rng);
    std::vector<uint8_t> expected = dest.Snapshot();
    for (int64_t i = 0; i < length; ++i) {
      SetBitTo(expected.data(), dest_off + i,
               ref(GetBit(left.data(), left_off + i), GetBit(right.data(), right_off + i)));
    }
    {
      PoisonGuard guard({&left, &right, &dest});
      fn(left.data(), left_off, right.data(), right_off, length, dest.data(), dest_off);
    }
    ASSERT_EQ(dest.Snapshot(), expected) << Describe(c);
  }
}

TEST(Bitmap, CopyBitmapMatchesReference) {
  CheckUnary(bitmap::CopyBitmap, [](bool a) { return a; }, 10);
}

TEST(Bitmap, InvertBitmapMatchesReference) {
  CheckUnary(bitmap::InvertBitmap, [](bool a) { return !a; }, 11);
}

TEST(Bitmap, BitmapAndMatchesReference) {
  CheckBinary(bitmap::BitmapAnd, [](bool a, bool b) { return a && b; }, 12);
}

TEST(Bitmap, BitmapOrMatchesReference) {
  CheckBinary(bitmap::BitmapOr, [](bool a, bool b) { return a || b; }, 13);
}

TEST(Bitmap, BitmapXorMatchesReference) {
  CheckBinary(bitmap::BitmapXor, [](bool a, bool b) { return a != b; }, 14);
}

TEST(Bitmap, BitmapAndNotMatchesReference) {
  CheckBinary(bitmap::BitmapAndNot, [](bool a, bool b) { return a && !b; }, 15);
}

TEST(Bitmap, KnownValues) {
  const uint8_t left[] = {0b11001010, 0b00001111};
  const uint8_t right[] = {0b10100110, 0b11110000};
  uint8_t out[2] = {0x55, 0x55};
  bitmap::BitmapAnd(left, 0, right, 0, 16, out, 0);
  EXPECT_EQ(out[0], 0b10000010);
  EXPECT_EQ(out[1], 0b00000000);
  bitmap::BitmapOr(left, 0, right, 0, 16, out, 0);
  EXPECT_EQ(out[0], 0b11101110);
  EXPECT_EQ(out[1], 0b11111111);
  bitmap::BitmapXor(left, 0, right, 0, 16, out, 0);
  EXPECT_EQ(out[0], 0b01101100);
  EXPECT_EQ(out[1], 0b11111111);
  bitmap::BitmapAndNot(left, 0, right, 0, 16, out, 0);
  EXPECT_EQ(out[0], 0b01001000);
  EXPECT_EQ(out[1], 0b00001111);

  // Copy bits 4..11 of left (0b11111100) to bit 2 of a zeroed buffer.
  uint8_t dest[2] = {0, 0};
  bitmap::CopyBitmap(left, 4, 8, dest, 2);
  EXPECT_EQ(dest[0], 0b11110000);
  EXPECT_EQ(dest[1], 0b00000011);
  bitmap::InvertBitmap(left, 0, 3, dest, 5);  // !0,!1,!0 -> bits 5..7 = 1,0,1
  EXPECT_EQ(dest[0], 0b10110000);
  EXPECT_EQ(dest[1], 0b00000011);
}

TEST(Bitmap, InPlaceOperations) {
  // A destination may be one of the sources at the same offset.
  std::mt19937_64 rng(16);
  for (auto [off, length] : SingleCases()) {
    TestBitmap a(off, length, rng);
    TestBitmap b(off, length, rng);
    std::vector<uint8_t> expected_and = a.Snapshot();
    std::vector<uint8_t> expected_not = b.Snapshot();
    for (int64_t i = 0; i < length; ++i) {
      SetBitTo(expected_and.data(), off + i,
               GetBit(a.data(), off + i) && GetBit(b.data(), off + i));
      SetBitTo(expected_not.data(), off + i, !GetBit(b.data(), off + i));
    }
    {
      PoisonGuard guard({&a, &b});
      bitmap::BitmapAnd(a.data(), off, b.data(), off, length, a.data(), off);
      bitmap::InvertBitmap(b.data(), off, length, b.data(), off);
    }
    ASSERT_EQ(a.Snapshot(), expected_and) << off << " " << length;
    ASSERT_EQ(b.Snapshot(), expected_not) << off << " " << length;
    const std::vector<uint8_t> before = a.Snapshot();
    {
      PoisonGuard guard({&a});
      bitmap::CopyBitmap(a.data(), off, length, a.data(), off);
    }
    ASSERT_EQ(a.Snapshot(), before) << off << " " << length;
  }
}

// ===========================================================================
// BitmapEquals

TEST(Bitmap, BitmapEqualsMatchesReference) {
  std::mt19937_64 rng(20);
  for (const Case& c : Cases()) {
    const int64_t left_off = c.offsets[0], right_off = c.offsets[1], length = c.length;
    TestBitmap left(left_off, length, rng);
    TestBitmap right(right_off, length, rng);
    // Mostly make right a copy of left's range, then maybe flip one bit.
    if (rng() % 4 != 0) {
      for (int64_t i = 0; i < length; ++i) {
        SetBitTo(right.data(), right_off + i, GetBit(left.data(), left_off + i));
      }
      if (length > 0 && rng() % 2 == 0) {
        const int64_t i = right_off + static_cast<int64_t>(rng() % length);
        SetBitTo(right.data(), i, !GetBit(right.data(), i));
      }
    }
    bool want = true;
    for (int64_t i = 0; i < length; ++i) {
      want = want && GetBit(left.data(), left_off + i) == GetBit(right.data(), right_off + i);
    }
    PoisonGuard guard({&left, &right});
    ASSERT_EQ(bitmap::BitmapEquals(left.data(), left_off, right.data(), right_off, length), want)
        << Describe(c);
  }
}

TEST(Bitmap, BitmapEqualsIgnoresBitsOutsideRange) {
  const uint8_t left[] = {0b10101010, 0xFF};
  const uint8_t right[] = {0b01010101, 0x00};
  EXPECT_TRUE(bitmap::BitmapEquals(left, 1, right, 0, 1));
  EXPECT_TRUE(bitmap::BitmapEquals(left, 1, right, 2, 5));
  EXPECT_FALSE(bitmap::BitmapEquals(left, 1, right, 2, 8));
  EXPECT_FALSE(bitmap::BitmapEquals(left, 0, right, 0, 1));
  EXPECT_TRUE(bitmap::BitmapEquals(left, 8, left, 8, 8));
}

// ===========================================================================
// BitmapReader / BitmapWriter

TEST(Bitmap, BitmapReaderMatchesReference) {
  std::mt19937_64 rng(30);
  for (auto [off, length] : SingleCases()) {
    TestBitmap src(off, length, rng);
    std::vector<bool> want(length);
    for (int64_t i = 0; i < length; ++i) want[i] = GetBit(src.data(), off + i);
    PoisonGuard guard({&src});
    bitmap::BitmapReader reader(src.data(), off, length);
    ASSERT_EQ(reader.length(), length);
    for (int64_t i = 0; i < length; ++i) {
      ASSERT_EQ(reader.position(), i);
      ASSERT_EQ(reader.IsSet(), want[i]) << off << " " << length << " " << i;
      ASSERT_EQ(reader.IsNotSet(), !want[i]);
      reader.Next();
    }
    ASSERT_EQ(reader.position(), length);
  }
}

TEST(Bitmap, BitmapWriterMatchesReference) {
  std::mt19937_64 rng(31);
  for (auto [off, length] : SingleCases()) {
    for (int use_set_to = 0; use_set_to < 2; ++use_set_to) {
      TestBitmap dest(off, length, rng);
      std::vector<bool> values(length);
      for (int64_t i = 0; i < length; ++i) values[i] = rng() & 1;
      std::vector<uint8_t> expected = dest.Snapshot();
      for (int64_t i = 0; i < length; ++i) SetBitTo(expected.data(), off + i, values[i]);
      {
        PoisonGuard guard({&dest});
        bitmap::BitmapWriter writer(dest.data(), off, length);
        for (int64_t i = 0; i < length; ++i) {
          ASSERT_EQ(writer.position(), i);
          if (use_set_to) {
            writer.SetTo(values[i]);
          } else if (values[i]) {
            writer.Set();
          } else {
            writer.Clear();
          }
          writer.Next();
        }
        writer.Finish();
      }
      ASSERT_EQ(dest.Snapshot(), expected) << off << " " << length;
    }
  }
}

// ===========================================================================
// VisitSetBitRuns

std::vector<std::pair<int64_t, int64_t>> ReferenceRuns(const uint8_t* data, int64_t offset,
                                                       int64_t length) {
  std::vector<std::pair<int64_t, int64_t>> runs;
  for (int64_t i = 0; i < length;) {
    if (!GetBit(data, offset + i)) {
      ++i;
      continue;
    }
    const int64_t start = i;
    while (i < length && GetBit(data, offset + i)) ++i;
    runs.emplace_back(start, i - start);
  }
  return runs;
}

TEST(Bitmap, VisitSetBitRunsMatchesReference) {
  std::mt19937_64 rng(40);
  for (auto [off, length] : SingleCases()) {
    for (int fill = 0; fill < kNumFills; ++fill) {
      TestBitmap src(off, length, rng, static_cast<Fill>(fill));
      const auto want = ReferenceRuns(src.data(), off, length);
      std::vector<std::pair<int64_t, int64_t>> got;
      {
        PoisonGuard guard({&src});
        bitmap::VisitSetBitRuns(src.data(), off, length,
                                [&](int64_t pos, int64_t len) { got.emplace_back(pos, len); });
      }
      ASSERT_EQ(got, want) << off << " " << length << " fill " << fill;
    }
  }
}

TEST(Bitmap, VisitSetBitRunsKnownValues) {
  // Bits 1..3, 8..20 (crossing a byte) and 62..129 (crossing two words).
  uint8_t bits[17] = {};
  for (int i = 1; i <= 3; ++i) bit_util::SetBit(bits, i);
  for (int i = 8; i <= 20; ++i) bit_util::SetBit(bits, i);
  for (int i = 62; i <= 129; ++i) bit_util::SetBit(bits, i);
  std::vector<std::pair<int64_t, int64_t>> got;
  auto collect = [&](int64_t pos, int64_t len) { got.emplace_back(pos, len); };
  bitmap::VisitSetBitRuns(bits, 0, 136, collect);
  const std::vector<std::pair<int64_t, int64_t>> want = {{1, 3}, {8, 13}, {62, 68}};
  EXPECT_EQ(got, want);

  // With an offset, positions are relative to it and runs are clipped.
  got.clear();
  bitmap::VisitSetBitRuns(bits, 2, 70, collect);
  const std::vector<std::pair<int64_t, int64_t>> want2 = {{0, 2}, {6, 13}, {60, 10}};
  EXPECT_EQ(got, want2);
}

// ===========================================================================
// Length zero

TEST(Bitmap, LengthZeroNeverDereferences) {
  for (int64_t off : {int64_t{0}, int64_t{13}}) {
    uint8_t* null = nullptr;
    EXPECT_EQ(bitmap::LoadBits(null, off, 0), uint64_t{0});
    bitmap::StoreBits(null, off, 0, ~uint64_t{0});
    EXPECT_EQ(bitmap::CountSetBits(null, off, 0), 0);
    bitmap::SetBitsTo(null, off, 0, true);
    bitmap::CopyBitmap(null, off, 0, null, off + 1);
    bitmap::InvertBitmap(null, off, 0, null, off + 1);
    bitmap::BitmapAnd(null, off, null, off + 3, 0, null, off + 1);
    bitmap::BitmapOr(null, off, null, off + 3, 0, null, off + 1);
    bitmap::BitmapXor(null, off, null, off + 3, 0, null, off + 1);
    bitmap::BitmapAndNot(null, off, null, off + 3, 0, null, off + 1);
    EXPECT_TRUE(bitmap::BitmapEquals(null, off, null, off + 3, 0));
    bitmap::BitmapReader reader(null, off, 0);
    EXPECT_EQ(reader.position(), 0);
    bitmap::BitmapWriter writer(null, off, 0);
    writer.Finish();
    int calls = 0;
    bitmap::VisitSetBitRuns(null, off, 0, [&](int64_t, int64_t) { ++calls; });
    EXPECT_EQ(calls, 0);
  }
}

// BitAppender: pieces of 1..64 bits, repeated runs and ranges of another
// bitmap (AppendBitmap: short ones by words, long ones by CopyBitmap) from
// every output offset in a word and source ranges at every bit phase, into
// a bitmap of random bits: the appended bits in order, every bit before
// and after them unchanged.
TEST(Bitmap, BitAppenderKeepsTheBitsAround) {
  std::mt19937_64 rng(42);
  std::vector<uint8_t> src(2048);
  for (auto& b : src) b = static_cast<uint8_t>(rng());
  for (int64_t offset = 0; offset < 70; ++offset) {
    std::vector<uint8_t> bits(4096);
    for (auto& b : bits) b = static_cast<uint8_t>(rng());
    std::vector<uint8_t> expected = bits;
    bitmap::BitAppender out(bits.data(), offset);
    int64_t at = offset;
    while (at < offset + 20000) {
      const auto choice = rng() % 4;
      if (choice == 0) {
        const int m = 1 + static_cast<int>(rng() % 64);
        const uint64_t word = rng() & bit_util::LeastSignificantBitMask(m);
        out.Append(word, m);
        for (int i = 0; i < m; ++i) bit_util::SetBitTo(expected.data(), at + i, (word >> i) & 1);
        at += m;
      } else if (choice == 1) {
        const bool bit = rng() % 2 == 1;
        const int64_t k = 1 + static_cast<int64_t>(rng() % 150);
        out.AppendRepeated(bit, k);
        for (int64_t i = 0; i < k; ++i) bit_util::SetBitTo(expected.data(), at + i, bit);
        at += k;
      } else {
        const int64_t length = static_cast<int64_t>(rng() % 1500);
        const int64_t from = static_cast<int64_t>(rng() % (2048 * 8 - 1500));
        out.AppendBitmap(src.data(), from, length);
        for (int64_t i = 0; i < length; ++i) {
          bit_util::SetBitTo(expected.data(), at + i, bit_util::GetBit(src.data(), from + i));
        }
        at += length;
      }
    }
    out.Finish();
    ASSERT_EQ(bits, expected) << offset;
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver
