// DELTA_BYTE_ARRAY encoder and decoder; see delta_byte_array.h.
#include "quiver/parquet/encoding/delta_byte_array.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::parquet {

namespace {

constexpr int64_t kMaxLength = std::numeric_limits<int32_t>::max();

// Length of the common prefix of a and b, 8 bytes at a time.
int64_t CommonPrefix(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  while (i + 8 <= n) {
    const uint64_t x = bit_util::SafeLoad<uint64_t>(a.data() + i);
    const uint64_t y = bit_util::SafeLoad<uint64_t>(b.data() + i);
    if (x != y) {
      // Little endian: the first differing byte is the lowest differing one.
      return static_cast<int64_t>(i + std::countr_zero(x ^ y) / 8);
    }
    i += 8;
  }
  while (i < n && a[i] == b[i]) ++i;
  return static_cast<int64_t>(i);
}

}  // namespace

Status DeltaByteArrayEncoder::PutOne(std::string_view previous, std::string_view value) {
  if (value.size() > static_cast<size_t>(kMaxLength)) {
    return Status::Invalid("DELTA_BYTE_ARRAY: value of ", value.size(),
                           " bytes is longer than a Parquet BYTE_ARRAY can hold (2^31-1)");
  }
  const auto prefix = static_cast<int32_t>(CommonPrefix(previous, value));
  QUIVER_RETURN_NOT_OK(prefixes_.Put(&prefix, 1));
  return suffixes_.Put(value.substr(static_cast<size_t>(prefix)));
}

Status DeltaByteArrayEncoder::Put(std::string_view value) {
  QUIVER_RETURN_NOT_OK(PutOne(last_, value));
  last_.assign(value);
  return Status::OK();
}

template <typename GetValue>
Status DeltaByteArrayEncoder::PutRuns(int64_t n, const uint8_t* validity,
                                      int64_t validity_offset, GetValue&& get_value) {
  // Within the batch the previous value is a view of the input; only the
  // batch's last value is copied.
  Status status;
  std::string_view previous = last_;
  bool any = false;
  auto put_run = [&](int64_t pos, int64_t len) {
    for (int64_t i = pos; i < pos + len && status.ok(); ++i) {
      const std::string_view value = get_value(i);
      status = PutOne(previous, value);
      previous = value;
      any = true;
    }
  };
  if (validity == nullptr) {
    put_run(0, n);
  } else {
    bitmap::VisitSetBitRuns(validity, validity_offset, n, put_run);
  }
  QUIVER_RETURN_NOT_OK(status);
  if (any) last_.assign(previous);
  return Status::OK();
}

Status DeltaByteArrayEncoder::Put(const int32_t* offsets, const uint8_t* data, int64_t n,
                                  const uint8_t* validity, int64_t validity_offset) {
  return PutRuns(n, validity, validity_offset, [&](int64_t i) {
    return std::string_view(reinterpret_cast<const char*>(data) + offsets[i],
                            static_cast<size_t>(offsets[i + 1] - offsets[i]));
  });
}

Status DeltaByteArrayEncoder::Put(const int64_t* offsets, const uint8_t* data, int64_t n,
                                  const uint8_t* validity, int64_t validity_offset) {
  return PutRuns(n, validity, validity_offset, [&](int64_t i) {
    return std::string_view(reinterpret_cast<const char*>(data) + offsets[i],
                            static_cast<size_t>(offsets[i + 1] - offsets[i]));
  });
}

Status DeltaByteArrayEncoder::PutFixedLen(const uint8_t* data, int64_t n, int32_t byte_width,
                                          const uint8_t* validity, int64_t validity_offset) {
  if (byte_width < 0) return Status::Invalid("DELTA_BYTE_ARRAY: negative byte width");
  return PutRuns(n, validity, validity_offset, [&](int64_t i) {
    return std::string_view(reinterpret_cast<const char*>(data) + i * byte_width,
                            static_cast<size_t>(byte_width));
  });
}

Result<int64_t> DeltaByteArrayEncoder::Flush(MutableBuffer* out) {
  QUIVER_ASSIGN_OR_RAISE(const int64_t prefix_bytes, prefixes_.Flush(out));
  QUIVER_ASSIGN_OR_RAISE(const int64_t suffix_bytes, suffixes_.Flush(out));
  last_.clear();
  return prefix_bytes + suffix_bytes;
}

Status DeltaByteArrayDecoder::Init(const uint8_t* data, int64_t size) {
  if (size < 0) size = 0;
  values_read_ = 0;
  last_.clear();
  arena_.clear();
  QUIVER_RETURN_NOT_OK(prefixes_.Init(data, size).WithContext("DELTA_BYTE_ARRAY prefix lengths: "));
  DeltaBinaryPackedDecoder<int32_t> probe = prefixes_;
  QUIVER_RETURN_NOT_OK(probe.SkipAll().WithContext("DELTA_BYTE_ARRAY prefix lengths: "));
  const int64_t suffix_start = probe.bytes_consumed();
  QUIVER_RETURN_NOT_OK(suffixes_.Init(data + suffix_start, size - suffix_start)
                           .WithContext("DELTA_BYTE_ARRAY suffixes: "));
  if (suffixes_.total_values() != prefixes_.total_values()) {
    return Status::Invalid("DELTA_BYTE_ARRAY data: ", prefixes_.total_values(),
                           " prefix lengths but ", suffixes_.total_values(), " suffixes");
  }
  return Status::OK();
}

Result<int64_t> DeltaByteArrayDecoder::GetBatch(std::string_view* out, int64_t n) {
  n = std::min(n, values_left());
  if (n <= 0) return int64_t{0};
  prefix_scratch_.resize(static_cast<size_t>(n));
  suffix_scratch_.resize(static_cast<size_t>(n));
  auto got = prefixes_.GetBatch(prefix_scratch_.data(), n);
  if (!got.ok()) return got.status().WithContext("DELTA_BYTE_ARRAY prefix lengths: ");
  auto got_suffixes = suffixes_.GetBatch(suffix_scratch_.data(), n);
  if (!got_suffixes.ok()) return got_suffixes.status().WithContext("DELTA_BYTE_ARRAY: ");
  if (*got_suffixes != n) {
    return Status::Invalid("DELTA_BYTE_ARRAY data: suffixes end before value ",
                           values_read_ + *got_suffixes);
  }
  // Sizes first (checking each prefix against the previous value), so that
  // the arena is allocated once and the views into it stay put.
  int64_t total = 0;
  int64_t previous_length = static_cast<int64_t>(last_.size());
  for (int64_t i = 0; i < n; ++i) {
    const int64_t prefix = prefix_scratch_[static_cast<size_t>(i)];
    if (prefix < 0 || prefix > previous_length) {
      return Status::Invalid("DELTA_BYTE_ARRAY data: value ", values_read_ + i,
                             " has prefix length ", prefix, " but the previous value has ",
                             previous_length, " bytes");
    }
    previous_length = prefix + static_cast<int64_t>(suffix_scratch_[static_cast<size_t>(i)].size());
    total += previous_length;
    if (total > kMaxLength) {
      return Status::CapacityError("DELTA_BYTE_ARRAY: a batch of ", n,
                                   " values would need more than 2^31-1 bytes; decode in "
                                   "smaller batches");
    }
  }
  arena_.resize(static_cast<size_t>(total));
  char* dest = arena_.data();
  std::string_view previous = last_;
  for (int64_t i = 0; i < n; ++i) {
    const auto prefix = static_cast<size_t>(prefix_scratch_[static_cast<size_t>(i)]);
    const std::string_view suffix = suffix_scratch_[static_cast<size_t>(i)];
    if (prefix > 0) std::memcpy(dest, previous.data(), prefix);
    if (!suffix.empty()) std::memcpy(dest + prefix, suffix.data(), suffix.size());
    out[i] = std::string_view(dest, prefix + suffix.size());
    previous = out[i];
    dest += prefix + suffix.size();
  }
  last_.assign(previous);
  values_read_ += n;
  return n;
}

}  // namespace quiver::parquet
