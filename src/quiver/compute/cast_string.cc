// Casts among the binary and string layouts (binary, large_binary,
// binary_view, string, large_string, string_view, fixed_size_binary), as
// Arrow C++'s scalar_cast_string.cc (measured against pyarrow 26):
//  - To a string type from a binary one, under `safe`, every valid value
//    must be UTF-8 (Invalid "Invalid UTF8 payload"); unsafe casts do not
//    look (Arrow's allow_invalid_utf8).
//  - Same offsets, other type (string <-> binary, large_string <->
//    large_binary, string_view <-> binary_view): the buffers are shared.
//  - 32 <-> 64-bit offsets: new offsets from 0, the data shared (a slice
//    of the values' range); past 2^31 - 1 bytes a 32-bit target is Invalid
//    "Failed casting from X to Y: input array too large", never a wrap.
//  - To views: values of up to 12 bytes inline, longer ones pointing into
//    the shared data (split into buffers under 2 GiB when it is larger).
//  - From views: the values gathered into an exactly sized data buffer.
//  - fixed_size_binary[w] to the others: offsets i * w over its values
//    (shared); to fixed_size_binary[w], every valid value must be w bytes
//    (Invalid "Failed casting from X to Y: widths must match").
// UTF-8 is checked a run of valid values at a time: one validation of
// their bytes, then (only when they hold non-ASCII bytes) a look at each
// value's first byte, which must not continue a character.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

#include "quiver/compute/cast_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"
#include "quiver/util/utf8.h"

namespace quiver::compute::internal {

namespace {

constexpr int64_t kViewSize = 16;
constexpr int32_t kInlineSize = 12;
constexpr int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();

enum class Layout { kOffsets32, kOffsets64, kView, kFixed };

Layout LayoutOf(Type id) {
  switch (id) {
    case Type::kString:
    case Type::kBinary: return Layout::kOffsets32;
    case Type::kLargeString:
    case Type::kLargeBinary: return Layout::kOffsets64;
    case Type::kStringView:
    case Type::kBinaryView: return Layout::kView;
    default: return Layout::kFixed;
  }
}

// Value i (relative to the array's offset) of any binary layout.
std::string_view ValueAt(const ArrayData& a, Layout layout, int64_t i) {
  switch (layout) {
    case Layout::kOffsets32: {
      const int32_t* o = a.GetValues<int32_t>(1);
      return {reinterpret_cast<const char*>(a.buffers[2]->data()) + o[i],
              static_cast<size_t>(o[i + 1] - o[i])};
    }
    case Layout::kOffsets64: {
      const int64_t* o = a.GetValues<int64_t>(1);
      return {reinterpret_cast<const char*>(a.buffers[2]->data()) + o[i],
              static_cast<size_t>(o[i + 1] - o[i])};
    }
    case Layout::kView: {
      const uint8_t* view = a.buffers[1]->data() + (a.offset + i) * kViewSize;
      int32_t len;
      std::memcpy(&len, view, 4);
      if (len <= kInlineSize) return {reinterpret_cast<const char*>(view + 4), static_cast<size_t>(len)};
      int32_t index;
      int32_t offset;
      std::memcpy(&index, view + 8, 4);
      std::memcpy(&offset, view + 12, 4);
      return {reinterpret_cast<const char*>(a.buffers[static_cast<size_t>(2 + index)]->data()) + offset,
              static_cast<size_t>(len)};
    }
    case Layout::kFixed: {
      const int64_t w = TypeAs<FixedSizeBinaryType>(*a.type).fixed_byte_width();
      return {reinterpret_cast<const char*>(a.buffers[1]->data()) + (a.offset + i) * w,
              static_cast<size_t>(w)};
    }
  }
  return {};
}

// Calls visit(start, length) for each run of valid slots (the whole array
// when it has no nulls).
template <typename Visit>
void VisitValidRuns(const ArrayData& a, Visit&& visit) {
  if (a.length == 0) return;
  if (!a.MayHaveNulls() || a.validity() == nullptr) {
    visit(int64_t{0}, a.length);
    return;
  }
  bitmap::VisitSetBitRuns(a.validity(), a.offset, a.length, visit);
}

Status InvalidUtf8() { return Status::Invalid("Invalid UTF8 payload"); }

template <typename Offset>
Status CheckUtf8Offsets(const ArrayData& a) {
  const Offset* o = a.GetValues<Offset>(1);
  const uint8_t* data = a.buffers[2]->data();
  Status status;
  VisitValidRuns(a, [&](int64_t start, int64_t length) {
    if (!status.ok()) return;
    const int64_t begin = o[start];
    const int64_t end = o[start + length];
    bool ascii = false;
    if (FindInvalidUtf8(data + begin, end - begin, &ascii) >= 0) {
      status = InvalidUtf8();
      return;
    }
    if (ascii) return;
    for (int64_t i = start + 1; i < start + length; ++i) {
      if (o[i] < end && IsUtf8Continuation(data[o[i]])) {
        status = InvalidUtf8();
        return;
      }
    }
  });
  return status;
}

// Every valid value of `a` (any binary layout) is UTF-8.
Status CheckUtf8(const ArrayData& a) {
  const Layout layout = LayoutOf(a.type->id());
  if (layout == Layout::kOffsets32) return CheckUtf8Offsets<int32_t>(a);
  if (layout == Layout::kOffsets64) return CheckUtf8Offsets<int64_t>(a);
  Status status;
  VisitValidRuns(a, [&](int64_t start, int64_t length) {
    for (int64_t i = start; i < start + length && status.ok(); ++i) {
      const std::string_view v = ValueAt(a, layout, i);
      if (!IsValidUtf8(v)) status = InvalidUtf8();
    }
  });
  return status;
}

Status TooLarge(const DataType& from, const DataType& to) {
  return Status::Invalid("Failed casting from ", from.ToString(), " to ", to.ToString(),
                         ": input array too large");
}

// The input's buffers under another type (same layout).
ArrayDataPtr Retyped(const ArrayData& in, const TypePtr& to) {
  auto out = std::make_shared<ArrayData>(in);
  out->type = to;
  if (out->GetNullCount() == 0) out->buffers[0] = nullptr;
  return out;
}

Result<ArrayDataPtr> OffsetsResult(const ArrayData& in, const TypePtr& to,
                                   std::shared_ptr<Buffer> offsets, std::shared_ptr<Buffer> data,
                                   MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(CastValidity validity, ResultValidity(in, pool));
  return ArrayData::Make(to, in.length, {std::move(validity.bitmap), std::move(offsets), std::move(data)},
                         validity.null_count);
}

// 32 <-> 64-bit offsets: rebased to 0, the data a slice of the input's.
template <typename In, typename Out>
Result<ArrayDataPtr> ConvertOffsets(const ArrayData& in, const TypePtr& to, MemoryPool* pool) {
  const In* o = in.GetValues<In>(1);
  const int64_t n = in.length;
  const int64_t first = o[0];
  const int64_t total = static_cast<int64_t>(o[n]) - first;
  if (total > static_cast<int64_t>(std::numeric_limits<Out>::max())) return TooLarge(*in.type, *to);
  uint8_t* bytes = nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto offsets, AllocateExact((n + 1) * static_cast<int64_t>(sizeof(Out)), pool, &bytes));
  Out* out = reinterpret_cast<Out*>(bytes);
  for (int64_t i = 0; i <= n; ++i) out[i] = static_cast<Out>(static_cast<int64_t>(o[i]) - first);
  return OffsetsResult(in, to, std::move(offsets), SliceBuffer(in.buffers[2], first, total), pool);
}

// fixed_size_binary[w]: offsets i * w over a slice of its values.
template <typename Out>
Result<ArrayDataPtr> FixedToOffsets(const ArrayData& in, const TypePtr& to, MemoryPool* pool) {
  const int64_t w = TypeAs<FixedSizeBinaryType>(*in.type).fixed_byte_width();
  const int64_t n = in.length;
  if (n * w > static_cast<int64_t>(std::numeric_limits<Out>::max())) return TooLarge(*in.type, *to);
  uint8_t* bytes = nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto offsets, AllocateExact((n + 1) * static_cast<int64_t>(sizeof(Out)), pool, &bytes));
  Out* out = reinterpret_cast<Out*>(bytes);
  for (int64_t i = 0; i <= n; ++i) out[i] = static_cast<Out>(i * w);
  return OffsetsResult(in, to, std::move(offsets), SliceBuffer(in.buffers[1], in.offset * w, n * w),
                       pool);
}

// Views gathered into offsets and an exactly sized data buffer (null
// slots empty).
template <typename Out>
Result<ArrayDataPtr> GatherToOffsets(const ArrayData& in, Layout layout, const TypePtr& to,
                                     MemoryPool* pool) {
  const int64_t n = in.length;
  int64_t total = 0;
  VisitValidRuns(in, [&](int64_t start, int64_t length) {
    for (int64_t i = start; i < start + length; ++i) {
      total += static_cast<int64_t>(ValueAt(in, layout, i).size());
    }
  });
  if (total > static_cast<int64_t>(std::numeric_limits<Out>::max())) return TooLarge(*in.type, *to);
  uint8_t* offset_bytes = nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto offsets, AllocateExact((n + 1) * static_cast<int64_t>(sizeof(Out)), pool, &offset_bytes));
  uint8_t* data = nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto values, AllocateExact(total, pool, &data));
  Out* out = reinterpret_cast<Out*>(offset_bytes);
  const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
  int64_t pos = 0;
  for (int64_t i = 0; i < n; ++i) {
    out[i] = static_cast<Out>(pos);
    if (validity != nullptr && !bit_util::GetBit(validity, in.offset + i)) continue;
    const std::string_view v = ValueAt(in, layout, i);
    if (!v.empty()) std::memcpy(data + pos, v.data(), v.size());
    pos += static_cast<int64_t>(v.size());
  }
  out[n] = static_cast<Out>(pos);
  return OffsetsResult(in, to, std::move(offsets), std::move(values), pool);
}

// Offsets (or fixed-size values) to views: short values inline, longer
// ones pointing into slices of the input's data buffer, each under 2 GiB.
Result<ArrayDataPtr> ToViews(const ArrayData& in, Layout layout, const TypePtr& to,
                             MemoryPool* pool) {
  const int64_t n = in.length;
  uint8_t* views = nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto view_buffer, AllocateExact(n * kViewSize, pool, &views));
  const std::shared_ptr<Buffer>& source = in.buffers[layout == Layout::kFixed ? 1 : 2];
  const uint8_t* source_data = source->data();
  std::vector<std::shared_ptr<Buffer>> data_buffers;
  int64_t base = 0;  // where the last data buffer starts in `source`
  int64_t limit = -1;  // and ends (exclusive)
  const int64_t source_end = source->size();
  const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
  for (int64_t i = 0; i < n; ++i) {
    uint8_t* view = views + i * kViewSize;
    std::memset(view, 0, kViewSize);
    if (validity != nullptr && !bit_util::GetBit(validity, in.offset + i)) continue;
    const std::string_view v = ValueAt(in, layout, i);
    const int32_t len = static_cast<int32_t>(v.size());
    std::memcpy(view, &len, 4);
    if (len <= kInlineSize) {
      if (len > 0) std::memcpy(view + 4, v.data(), v.size());
      continue;
    }
    std::memcpy(view + 4, v.data(), 4);
    const int64_t start = reinterpret_cast<const uint8_t*>(v.data()) - source_data;
    if (start < base || start + len > limit) {
      base = start;
      limit = std::min(source_end, base + kMaxInt32);
      data_buffers.push_back(SliceBuffer(source, base, limit - base));
    }
    const int32_t index = static_cast<int32_t>(data_buffers.size() - 1);
    const int32_t offset = static_cast<int32_t>(start - base);
    std::memcpy(view + 8, &index, 4);
    std::memcpy(view + 12, &offset, 4);
  }
  QUIVER_ASSIGN_OR_RAISE(CastValidity validity_out, ResultValidity(in, pool));
  std::vector<std::shared_ptr<Buffer>> buffers = {std::move(validity_out.bitmap), std::move(view_buffer)};
  for (auto& b : data_buffers) buffers.push_back(std::move(b));
  return ArrayData::Make(to, n, std::move(buffers), validity_out.null_count);
}

// The 16-byte view of a value of `len` bytes at `p` (which has at least 16
// readable bytes when `wide`): inline up to 12 bytes, else its length,
// prefix, buffer 0 and `offset`. Two 8-byte stores and no memcpy call.
inline void StoreView(uint8_t* view, const uint8_t* p, int32_t len, bool wide, int32_t offset) {
  uint64_t lo = 0;
  uint64_t hi = 0;
  if (wide) {
    std::memcpy(&lo, p, 8);
    std::memcpy(&hi, p + 8, 8);
  } else {
    uint8_t bytes[16] = {};
    if (len > 0) std::memcpy(bytes, p, static_cast<size_t>(std::min(len, 12)));
    std::memcpy(&lo, bytes, 8);
    std::memcpy(&hi, bytes + 8, 8);
  }
  uint64_t first;
  uint64_t second;
  const uint64_t length = static_cast<uint32_t>(len);
  if (len <= kInlineSize) {
    // Keep bytes [0, len) of lo:hi; the view holds them after the length.
    const uint64_t lo_mask = len >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * len)) - 1;
    const uint64_t hi_mask = len <= 8 ? 0 : (uint64_t{1} << (8 * (len - 8))) - 1;
    lo &= lo_mask;
    hi &= hi_mask;
    first = length | (lo << 32);
    second = (lo >> 32) | (hi << 32);
  } else {
    first = length | (lo << 32);  // the prefix: the value's first 4 bytes
    second = static_cast<uint64_t>(static_cast<uint32_t>(offset)) << 32;  // buffer 0
  }
  std::memcpy(view, &first, 8);
  std::memcpy(view + 8, &second, 8);
}

// Offsets to views when the values span at most 2^31 - 1 bytes (one data
// buffer: a slice of the input's); ToViews otherwise.
template <typename Offset>
Result<ArrayDataPtr> OffsetsToViews(const ArrayData& in, const TypePtr& to, MemoryPool* pool) {
  const int64_t n = in.length;
  const Offset* o = in.GetValues<Offset>(1);
  const int64_t first = o[0];
  const int64_t total = static_cast<int64_t>(o[n]) - first;
  const std::shared_ptr<Buffer>& source = in.buffers[2];
  const uint8_t* data = source != nullptr ? source->data() : nullptr;
  const int64_t data_size = source != nullptr ? source->size() : 0;
  uint8_t* views = nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto view_buffer, AllocateExact(n * kViewSize, pool, &views));
  const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
  bool any_long = false;
  for (int64_t i = 0; i < n; ++i) {
    uint8_t* view = views + i * kViewSize;
    if (validity != nullptr && !bit_util::GetBit(validity, in.offset + i)) {
      std::memset(view, 0, kViewSize);
      continue;
    }
    const int64_t start = o[i];
    const auto len = static_cast<int32_t>(static_cast<int64_t>(o[i + 1]) - start);
    any_long |= len > kInlineSize;
    StoreView(view, data + start, len, start + 16 <= data_size,
              static_cast<int32_t>(start - first));
  }
  QUIVER_ASSIGN_OR_RAISE(CastValidity validity_out, ResultValidity(in, pool));
  std::vector<std::shared_ptr<Buffer>> buffers = {std::move(validity_out.bitmap),
                                                  std::move(view_buffer)};
  if (any_long) buffers.push_back(SliceBuffer(source, first, total));
  return ArrayData::Make(to, n, std::move(buffers), validity_out.null_count);
}

// Any layout to fixed_size_binary[w]: each valid value must be w bytes.
Status CheckWidths(const ArrayData& in, Layout layout, const DataType& to) {
  const int64_t w = TypeAs<FixedSizeBinaryType>(to).fixed_byte_width();
  auto mismatch = [&] {
    return Status::Invalid("Failed casting from ", in.type->ToString(), " to ", to.ToString(),
                           ": widths must match");
  };
  if (layout == Layout::kFixed) return mismatch();  // another width (same type returned earlier)
  const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
  for (int64_t i = 0; i < in.length; ++i) {
    if (validity != nullptr && !bit_util::GetBit(validity, in.offset + i)) continue;
    if (static_cast<int64_t>(ValueAt(in, layout, i).size()) != w) return mismatch();
  }
  return Status::OK();
}

Result<ArrayDataPtr> ToFixed(const ArrayData& in, Layout layout, const TypePtr& to,
                             MemoryPool* pool) {
  QUIVER_RETURN_NOT_OK(CheckWidths(in, layout, *to));
  const int64_t w = TypeAs<FixedSizeBinaryType>(*to).fixed_byte_width();
  const int64_t n = in.length;
  uint8_t* out = nullptr;
  QUIVER_ASSIGN_OR_RAISE(auto values, AllocateExact(n * w, pool, &out));
  const uint8_t* validity = in.MayHaveNulls() ? in.validity() : nullptr;
  if (w > 0) {
    for (int64_t i = 0; i < n; ++i) {
      if (validity != nullptr && !bit_util::GetBit(validity, in.offset + i)) {
        std::memset(out + i * w, 0, static_cast<size_t>(w));
      } else {
        std::memcpy(out + i * w, ValueAt(in, layout, i).data(), static_cast<size_t>(w));
      }
    }
  }
  return FixedWidthResult(in, to, std::move(values), pool);
}

}  // namespace

bool IsBinaryCastType(Type id) {
  return IsBinaryLike(id) || IsLargeBinaryLike(id) || IsBinaryView(id) ||
         id == Type::kFixedSizeBinary;
}

bool BinaryCastSupported(const DataType& from, const DataType& to) {
  return IsBinaryCastType(from.id()) && IsBinaryCastType(to.id());
}

Status CheckBinaryCast(const ArrayData& in, const DataType& to, bool safe) {
  if (!BinaryCastSupported(*in.type, to)) return UnsupportedCast(*in.type, to);
  if (in.type->Equals(to) || in.length == 0) return Status::OK();
  if (safe && !IsStringLike(in.type->id()) && IsStringLike(to.id())) {
    QUIVER_RETURN_NOT_OK(CheckUtf8(in));
  }
  if (to.id() == Type::kFixedSizeBinary) return CheckWidths(in, LayoutOf(in.type->id()), to);
  return Status::OK();
}

Result<ArrayDataPtr> CastBinaryArray(const ArrayDataPtr& input, const TypePtr& to,
                                     const CastContext& ctx) {
  const ArrayData& in = *input;
  const Type from = in.type->id();
  if (!BinaryCastSupported(*in.type, *to)) return UnsupportedCast(*in.type, *to);
  if (ctx.safe && !IsStringLike(from) && IsStringLike(to->id())) {
    QUIVER_RETURN_NOT_OK(CheckUtf8(in));
  }
  const Layout source = LayoutOf(from);
  const Layout target = LayoutOf(to->id());
  switch (target) {
    case Layout::kOffsets32:
      if (source == Layout::kOffsets32) return Retyped(in, to);
      if (source == Layout::kOffsets64) return ConvertOffsets<int64_t, int32_t>(in, to, ctx.pool);
      if (source == Layout::kFixed) return FixedToOffsets<int32_t>(in, to, ctx.pool);
      return GatherToOffsets<int32_t>(in, source, to, ctx.pool);
    case Layout::kOffsets64:
      if (source == Layout::kOffsets64) return Retyped(in, to);
      if (source == Layout::kOffsets32) return ConvertOffsets<int32_t, int64_t>(in, to, ctx.pool);
      if (source == Layout::kFixed) return FixedToOffsets<int64_t>(in, to, ctx.pool);
      return GatherToOffsets<int64_t>(in, source, to, ctx.pool);
    case Layout::kView:
      if (source == Layout::kView) return Retyped(in, to);
      if (source == Layout::kOffsets32) return OffsetsToViews<int32_t>(in, to, ctx.pool);
      if (source == Layout::kOffsets64) {
        const int64_t* o = in.GetValues<int64_t>(1);
        if (o[in.length] - o[0] <= kMaxInt32) return OffsetsToViews<int64_t>(in, to, ctx.pool);
      }
      return ToViews(in, source, to, ctx.pool);
    case Layout::kFixed:
      return ToFixed(in, source, to, ctx.pool);
  }
  return UnsupportedCast(*in.type, *to);
}

}  // namespace quiver::compute::internal
