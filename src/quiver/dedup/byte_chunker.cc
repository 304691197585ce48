// FastCDC byte chunking; the algorithm and its parameters are stated in
// byte_chunker.h.
#include "quiver/dedup/byte_chunker.h"

#include <algorithm>
#include <bit>

#include <xxhash.h>

namespace quiver::dedup {

namespace {

// Bytes hashed before min_size so that the first tested hash covers a full
// window (the hash forgets a byte after 64 shifts).
constexpr int64_t kWindow = 64;

std::array<uint64_t, 256> MakeGearTable() {
  std::array<uint64_t, 256> table{};
  for (int b = 0; b < 256; ++b) {
    const auto byte = static_cast<uint8_t>(b);
    table[static_cast<size_t>(b)] = XXH64(&byte, 1, /*seed=*/0);
  }
  return table;
}

// The `count` most significant bits of a 64-bit word set.
constexpr uint64_t TopBits(int count) { return ~uint64_t{0} << (64 - count); }

struct Plan {
  int64_t min_size;
  int64_t normal_size;
  int64_t max_size;
  uint64_t mask_small;
  uint64_t mask_large;
};

Plan MakePlan(const ByteChunkerOptions& options) {
  const int bits = std::countr_zero(static_cast<uint64_t>(options.avg_size));
  Plan plan;
  plan.min_size = options.min_size;
  plan.max_size = options.max_size;
  plan.normal_size =
      std::max(options.min_size, options.avg_size - options.min_size - options.min_size / 2);
  plan.mask_small = TopBits(bits + options.normalization);
  plan.mask_large = TopBits(bits - options.normalization);
  return plan;
}

// The length of the chunk starting at data[0], of the `remaining` bytes.
int64_t CutPoint(const uint8_t* data, int64_t remaining, const Plan& plan,
                 const std::array<uint64_t, 256>& gear) {
  if (remaining <= plan.min_size) return remaining;
  const int64_t limit = std::min(remaining, plan.max_size);
  const int64_t normal = std::min(limit, plan.normal_size);
  uint64_t hash = 0;
  int64_t i = plan.min_size - kWindow;
  for (; i < plan.min_size; ++i) hash = (hash << 1) + gear[data[i]];
  for (; i < normal; ++i) {
    hash = (hash << 1) + gear[data[i]];
    if ((hash & plan.mask_small) == 0) return i + 1;
  }
  for (; i < limit; ++i) {
    hash = (hash << 1) + gear[data[i]];
    if ((hash & plan.mask_large) == 0) return i + 1;
  }
  return limit;
}

}  // namespace

Status ByteChunkerOptions::Validate() const {
  if (min_size < kWindow) {
    return Status::Invalid("byte chunker: min_size must be at least ", kWindow, ", got ", min_size);
  }
  if (avg_size <= min_size || !std::has_single_bit(static_cast<uint64_t>(avg_size))) {
    return Status::Invalid("byte chunker: avg_size must be a power of two above min_size (",
                           min_size, "), got ", avg_size);
  }
  if (max_size <= avg_size) {
    return Status::Invalid("byte chunker: max_size must exceed avg_size (", avg_size, "), got ",
                           max_size);
  }
  const int bits = std::countr_zero(static_cast<uint64_t>(avg_size));
  if (normalization < 0 || normalization > 3 || bits - normalization < 1 ||
      bits + normalization > 63) {
    return Status::Invalid("byte chunker: normalization must be in 0..3 with 1 <= log2(avg_size) "
                           "+- normalization <= 63, got ",
                           normalization);
  }
  return Status::OK();
}

const std::array<uint64_t, 256>& ByteGearTable() {
  static const std::array<uint64_t, 256> table = MakeGearTable();
  return table;
}

Result<std::vector<int64_t>> ChunkBytes(const uint8_t* data, int64_t size,
                                        const ByteChunkerOptions& options) {
  QUIVER_RETURN_NOT_OK(options.Validate());
  if (size < 0) return Status::Invalid("byte chunker: negative input size ", size);
  if (size > 0 && data == nullptr) return Status::Invalid("byte chunker: null input data");
  const Plan plan = MakePlan(options);
  const auto& gear = ByteGearTable();
  std::vector<int64_t> ends;
  ends.reserve(static_cast<size_t>(size / options.avg_size + 1));
  int64_t start = 0;
  while (start < size) {
    start += CutPoint(data + start, size - start, plan, gear);
    ends.push_back(start);
  }
  return ends;
}

}  // namespace quiver::dedup
