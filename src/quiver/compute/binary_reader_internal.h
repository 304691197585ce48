// Row i's bytes of a binary-like array in any of its layouts (binary /
// string with 32- or 64-bit offsets, the 16-byte views of binary_view /
// string_view, fixed_size_binary), for the kernels that read binary values
// (comparisons, set lookup, string predicates). Not installed.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <type_traits>

#include "quiver/array/array_data.h"
#include "quiver/array/type.h"
#include "quiver/memory/buffer.h"

namespace quiver::compute::internal {

enum class BinLayout { kOffsets32, kOffsets64, kView, kFixed, kAny };

inline BinLayout LayoutOf(Type id) {
  switch (id) {
    case Type::kString:
    case Type::kBinary: return BinLayout::kOffsets32;
    case Type::kLargeString:
    case Type::kLargeBinary: return BinLayout::kOffsets64;
    case Type::kStringView:
    case Type::kBinaryView: return BinLayout::kView;
    default: return BinLayout::kFixed;
  }
}

// Row i's bytes of a binary-like array in layout kLayout (kAny: the
// array's own layout, chosen per row by a switch the branch predictor
// learns). Row i is read at the array's offset + i. An empty array may
// lack its buffers (nothing is read then).
template <BinLayout kLayout>
struct BinReader {
  BinLayout layout;
  const uint8_t* values = nullptr;  // offsets (at the array's offset), views, or fixed-width values
  const uint8_t* data = nullptr;    // the bytes of offset layouts
  const std::shared_ptr<Buffer>* data_buffers = nullptr;  // views' variadic buffers
  int64_t width = 0;                                      // fixed_size_binary

  explicit BinReader(const ArrayData& a) : layout(LayoutOf(a.type->id())) {
    auto buffer = [&](size_t i) -> const uint8_t* {
      return a.buffers.size() > i && a.buffers[i] != nullptr ? a.buffers[i]->data() : nullptr;
    };
    switch (layout) {
      case BinLayout::kOffsets32:
        values = buffer(1) == nullptr ? nullptr : buffer(1) + 4 * a.offset;
        data = buffer(2);
        break;
      case BinLayout::kOffsets64:
        values = buffer(1) == nullptr ? nullptr : buffer(1) + 8 * a.offset;
        data = buffer(2);
        break;
      case BinLayout::kView:
        values = buffer(1) == nullptr ? nullptr : buffer(1) + 16 * a.offset;
        data_buffers = a.buffers.data() + 2;
        break;
      default:
        width = TypeAs<FixedSizeBinaryType>(*a.type).fixed_byte_width();
        values = buffer(1) == nullptr ? nullptr : buffer(1) + width * a.offset;
        break;
    }
  }

  template <BinLayout kL>
  std::string_view Read(int64_t i) const {
    if constexpr (kL == BinLayout::kOffsets32) {
      int32_t o[2];
      std::memcpy(o, values + 4 * i, 8);
      return {reinterpret_cast<const char*>(data) + o[0], static_cast<size_t>(o[1] - o[0])};
    } else if constexpr (kL == BinLayout::kOffsets64) {
      int64_t o[2];
      std::memcpy(o, values + 8 * i, 16);
      return {reinterpret_cast<const char*>(data) + o[0], static_cast<size_t>(o[1] - o[0])};
    } else if constexpr (kL == BinLayout::kView) {
      const uint8_t* v = values + 16 * i;
      int32_t length;
      std::memcpy(&length, v, 4);
      if (length <= 12) return {reinterpret_cast<const char*>(v + 4), static_cast<size_t>(length)};
      int32_t index;
      int32_t offset;
      std::memcpy(&index, v + 8, 4);
      std::memcpy(&offset, v + 12, 4);
      return {reinterpret_cast<const char*>(data_buffers[index]->data()) + offset,
              static_cast<size_t>(length)};
    } else {
      return {reinterpret_cast<const char*>(values) + width * i, static_cast<size_t>(width)};
    }
  }

  std::string_view operator()(int64_t i) const {
    if constexpr (kLayout != BinLayout::kAny) {
      return Read<kLayout>(i);
    } else {
      switch (layout) {
        case BinLayout::kOffsets32: return Read<BinLayout::kOffsets32>(i);
        case BinLayout::kOffsets64: return Read<BinLayout::kOffsets64>(i);
        case BinLayout::kView: return Read<BinLayout::kView>(i);
        default: return Read<BinLayout::kFixed>(i);
      }
    }
  }
};

// Calls f(BinLayout constant) with the layout of binary-like type `id`, so
// that a loop over BinReader<kL> is compiled once per layout.
template <typename F>
decltype(auto) VisitBinLayout(Type id, F&& f) {
  switch (LayoutOf(id)) {
    case BinLayout::kOffsets32:
      return f(std::integral_constant<BinLayout, BinLayout::kOffsets32>{});
    case BinLayout::kOffsets64:
      return f(std::integral_constant<BinLayout, BinLayout::kOffsets64>{});
    case BinLayout::kView: return f(std::integral_constant<BinLayout, BinLayout::kView>{});
    default: return f(std::integral_constant<BinLayout, BinLayout::kFixed>{});
  }
}

}  // namespace quiver::compute::internal
