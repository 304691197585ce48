// Array equality; see compare.h for the rules. One recursive comparer over
// slot ranges: validity first (one BitmapEquals over the range), then the
// values of each run of valid slots (bitmap::VisitSetBitRuns), so runs of
// fixed-width values are one memcmp and a list run is one recursive call
// over the contiguous child range it covers. Primitive values (floats,
// integers, temporals of 1/2/4/8 bytes) of a range with nulls are instead
// compared 64 slots at a time, in vectors, looking at the validity only in
// a block where some pair differs (MaskedCompare): runs between nulls are
// short, and one call per run costs more than the comparison. Typed reads
// go through memcpy (buffers imported from C or IPC need not be aligned).
#include "quiver/array/compare.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "quiver/array/compare_internal.h"
#include "quiver/memory/buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver {

namespace internal {

namespace {

// The widest vector this CPU has for the value loops: 64 (AVX-512 F, BW,
// DQ, VL), 32 (AVX2) or 16 (SSE2), capped by QUIVER_SIMD_LEVEL as the
// compute kernels' levels are (compute/simd_level.h, which sits above
// array/: scalar 16, avx2 32, avx512 64).
int DetectVectorBytes() {
  int bytes = 16;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) bytes = 32;
  if (bytes == 32 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
    bytes = 64;
  }
#endif
  return bytes;
}

int ProcessVectorBytes() {
  static const int bytes = [] {
    int detected = DetectVectorBytes();
    if (const char* env = std::getenv("QUIVER_SIMD_LEVEL"); env != nullptr) {
      const std::string_view cap(env);
      if (cap == "scalar") detected = 16;
      if (cap == "avx2" && detected > 32) detected = 32;
    }
    return detected;
  }();
  return bytes;
}

std::atomic<int> forced_vector_bytes{0};

}  // namespace

int CompareVectorBytes() {
  const int forced = forced_vector_bytes.load(std::memory_order_relaxed);
  return forced != 0 ? forced : ProcessVectorBytes();
}

bool SetCompareVectorBytesForTesting(int bytes) {
  if (bytes != 0 && bytes != 16 && bytes != 32 && bytes != 64) return false;
  if (bytes > DetectVectorBytes()) return false;
  forced_vector_bytes.store(bytes, std::memory_order_relaxed);
  return true;
}

}  // namespace internal

namespace {

constexpr int64_t kViewSize = 16;
constexpr int32_t kInlineViewSize = 12;

template <typename T>
T LoadAt(const uint8_t* base, int64_t index) {
  return bit_util::SafeLoad<T>(base + index * static_cast<int64_t>(sizeof(T)));
}

// Whether an array of this type can hold a NaN (then an array is not
// necessarily equal to itself).
bool TypeMayHoldNaN(const DataType& type) {
  if (IsFloating(type.id())) return true;
  if (type.id() == Type::kDictionary) {
    return TypeMayHoldNaN(*TypeAs<DictionaryType>(type).value_type());
  }
  for (const auto& field : type.fields()) {
    if (TypeMayHoldNaN(*field->type())) return true;
  }
  return false;
}

// IEEE 754 binary16: exponent bits all ones and a non-zero mantissa.
constexpr bool HalfIsNaN(uint16_t bits) { return (bits & 0x7FFF) > 0x7C00; }
constexpr bool HalfIsZero(uint16_t bits) { return (bits & 0x7FFF) == 0; }

const uint8_t* BufferData(const ArrayData& data, size_t i) {
  const auto& buffer = data.buffers[i];
  return buffer == nullptr ? ZeroSizeArea() : buffer->data();
}

// FirstDifferingBlockN<T, kNansEqual>(l, r, blocks): the first block of
// 64 values among `blocks` where some pair differs (a != b, as floats
// for float and double: NaN differs unless kNansEqual, -0 == 0), or
// `blocks`; in N-byte vectors (GCC/Clang vector extension: a lane
// comparison gives all ones where it holds), compiled for SSE2 (the
// x86-64 baseline), AVX2 and AVX-512, chosen at run time by
// CompareVectorBytes().
#define QUIVER_FIRST_DIFFERING_BLOCK(kBytes, ATTRIBUTES)                               \
  template <typename T, bool kNansEqual>                                               \
  ATTRIBUTES int64_t FirstDifferingBlock##kBytes(const uint8_t* l, const uint8_t* r,   \
                                                 int64_t blocks) {                     \
    using V [[gnu::vector_size(kBytes)]] = T;                                          \
    using Mask = decltype(V{} != V{});                                                 \
    constexpr int kLanes = static_cast<int>(kBytes / sizeof(T));                       \
    constexpr int64_t kBlockBytes = 64 * static_cast<int64_t>(sizeof(T));              \
    for (int64_t b = 0; b < blocks; ++b) {                                             \
      const uint8_t* lb = l + b * kBlockBytes;                                         \
      const uint8_t* rb = r + b * kBlockBytes;                                         \
      Mask acc = {};                                                                   \
      for (int j = 0; j < 64; j += kLanes) {                                           \
        V x;                                                                           \
        V y;                                                                           \
        std::memcpy(&x, lb + j * static_cast<int>(sizeof(T)), sizeof(V));             \
        std::memcpy(&y, rb + j * static_cast<int>(sizeof(T)), sizeof(V));              \
        Mask d = x != y;                                                               \
        if constexpr (kNansEqual) d &= ~((x != x) & (y != y));                         \
        acc |= d;                                                                      \
      }                                                                                \
      uint64_t words[kBytes / 8];                                                      \
      std::memcpy(words, &acc, sizeof(words));                                         \
      uint64_t any = 0;                                                                \
      for (uint64_t w : words) any |= w;                                               \
      if (any != 0) return b;                                                          \
    }                                                                                  \
    return blocks;                                                                     \
  }

QUIVER_FIRST_DIFFERING_BLOCK(16, )
#if defined(__x86_64__)
QUIVER_FIRST_DIFFERING_BLOCK(32, __attribute__((target("avx2"))))
QUIVER_FIRST_DIFFERING_BLOCK(64, __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))))
#endif
#undef QUIVER_FIRST_DIFFERING_BLOCK

template <typename T, bool kNansEqual>
int64_t FirstDifferingBlock(int width, const uint8_t* l, const uint8_t* r, int64_t blocks) {
#if defined(__x86_64__)
  if (width == 64) return FirstDifferingBlock64<T, kNansEqual>(l, r, blocks);
  if (width == 32) return FirstDifferingBlock32<T, kNansEqual>(l, r, blocks);
#endif
  return FirstDifferingBlock16<T, kNansEqual>(l, r, blocks);
}

class RangeComparer {
 public:
  explicit RangeComparer(const EqualOptions& options) : options_(options) {}

  // Slots [ls, ls + n) of `l` against [rs, rs + n) of `r`, whose types are
  // equal.
  bool Compare(const ArrayData& l, const ArrayData& r, int64_t ls, int64_t rs, int64_t n) {
    if (n == 0 || l.type->id() == Type::kNull) return true;
    if (&l == &r && ls == rs && (options_.nans_equal || !TypeMayHoldNaN(*l.type))) return true;

    const uint8_t* l_valid = l.null_count == 0 ? nullptr : l.validity();
    const uint8_t* r_valid = r.null_count == 0 ? nullptr : r.validity();
    if (l_valid != nullptr && r_valid != nullptr) {
      if (!bitmap::BitmapEquals(l_valid, l.offset + ls, r_valid, r.offset + rs, n)) return false;
    } else if (l_valid != nullptr) {
      if (bitmap::CountSetBits(l_valid, l.offset + ls, n) != n) return false;
      l_valid = nullptr;
    } else if (r_valid != nullptr) {
      if (bitmap::CountSetBits(r_valid, r.offset + rs, n) != n) return false;
    }
    // From here on l_valid describes both sides.
    if (l_valid == nullptr) return CompareValues(l, r, ls, rs, n);
    switch (l.type->id()) {
      case Type::kFloat:
        return MaskedCompare<float, true>(l, r, ls, rs, n, l_valid);
      case Type::kDouble:
        return MaskedCompare<double, true>(l, r, ls, rs, n, l_valid);
      default:
        break;
    }
    if (IsPrimitiveFixedWidth(*l.type)) {
      switch (l.type->byte_width()) {
        case 1: return MaskedCompare<uint8_t, false>(l, r, ls, rs, n, l_valid);
        case 2: return MaskedCompare<uint16_t, false>(l, r, ls, rs, n, l_valid);
        case 4: return MaskedCompare<uint32_t, false>(l, r, ls, rs, n, l_valid);
        case 8: return MaskedCompare<uint64_t, false>(l, r, ls, rs, n, l_valid);
        default: break;
      }
    }
    bool equal = true;
    bitmap::VisitSetBitRuns(l_valid, l.offset + ls, n, [&](int64_t pos, int64_t run) {
      if (equal) equal = CompareValues(l, r, ls + pos, rs + pos, run);
    });
    return equal;
  }

 private:
  // Fixed-width types whose values are compared as integers of their
  // width by CompareFixedWidth (the default of CompareValues).
  static bool IsPrimitiveFixedWidth(const DataType& type) {
    switch (type.id()) {
      case Type::kNull:
      case Type::kBool:
      case Type::kHalfFloat:
      case Type::kFloat:
      case Type::kDouble:
      case Type::kFixedSizeBinary:
        return false;
      default:
        return IsFixedWidth(type.id()) && type.num_fields() == 0;
    }
  }

  // Values of a range with nulls (the validity of both sides equal, at
  // `valid`; nullptr when every slot is valid): 64 slots at a time, first
  // a branch-free test of whether any pair of a block differs regardless
  // of validity (FirstDifferingBlock, in vectors as wide as the CPU has);
  // only a block with a difference looks at its validity bits. Floats
  // compare as IEEE (-0 == 0; NaN equal to NaN only under nans_equal),
  // other types as integers of their width.
  template <typename T, bool kFloat>
  bool MaskedCompare(const ArrayData& l, const ArrayData& r, int64_t ls, int64_t rs, int64_t n,
                     const uint8_t* valid) {
    const uint8_t* lp = BufferData(l, 1) + (l.offset + ls) * static_cast<int64_t>(sizeof(T));
    const uint8_t* rp = BufferData(r, 1) + (r.offset + rs) * static_cast<int64_t>(sizeof(T));
    const int64_t valid_offset = l.offset + ls;
    const bool nans_equal = options_.nans_equal;
    auto differ = [nans_equal](T a, T b) -> bool {
      if constexpr (kFloat) {
        return (a != b) & !(nans_equal & (a != a) & (b != b));
      } else {
        return a != b;
      }
    };
    // Slots [pos, pos + nbits): false when a valid pair differs.
    auto block_equal = [&](int64_t pos, int nbits) {
      const uint8_t* lb = lp + pos * static_cast<int64_t>(sizeof(T));
      const uint8_t* rb = rp + pos * static_cast<int64_t>(sizeof(T));
      const uint64_t word = valid != nullptr
                                ? bitmap::LoadBits(valid, valid_offset + pos, nbits)
                                : ~uint64_t{0};
      for (int j = 0; j < nbits; ++j) {
        if (((word >> j) & 1) != 0 && differ(LoadAt<T>(lb, j), LoadAt<T>(rb, j))) return false;
      }
      return true;
    };
    const int64_t blocks = n / 64;
    const int width = internal::CompareVectorBytes();
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t offset = b * 64 * static_cast<int64_t>(sizeof(T));
      b += kFloat && nans_equal
               ? FirstDifferingBlock<T, true>(width, lp + offset, rp + offset, blocks - b)
               : FirstDifferingBlock<T, false>(width, lp + offset, rp + offset, blocks - b);
      if (b < blocks && !block_equal(b * 64, 64)) return false;
    }
    return blocks * 64 == n || block_equal(blocks * 64, static_cast<int>(n - blocks * 64));
  }

  // All slots of both ranges are valid.
  bool CompareValues(const ArrayData& l, const ArrayData& r, int64_t ls, int64_t rs, int64_t n) {
    const DataType& type = *l.type;
    switch (type.id()) {
      case Type::kNull:
        return true;
      case Type::kBool:
        return bitmap::BitmapEquals(BufferData(l, 1), l.offset + ls, BufferData(r, 1),
                                    r.offset + rs, n);
      case Type::kHalfFloat:
        return CompareHalfFloats(l, r, ls, rs, n);
      case Type::kFloat:
        return MaskedCompare<float, true>(l, r, ls, rs, n, nullptr);
      case Type::kDouble:
        return MaskedCompare<double, true>(l, r, ls, rs, n, nullptr);
      case Type::kString:
      case Type::kBinary:
        return CompareBinary<int32_t>(l, r, ls, rs, n);
      case Type::kLargeString:
      case Type::kLargeBinary:
        return CompareBinary<int64_t>(l, r, ls, rs, n);
      case Type::kStringView:
      case Type::kBinaryView:
        return CompareViews(l, r, ls, rs, n);
      case Type::kList:
      case Type::kMap:
        return CompareLists<int32_t>(l, r, ls, rs, n);
      case Type::kLargeList:
        return CompareLists<int64_t>(l, r, ls, rs, n);
      case Type::kFixedSizeList: {
        const int64_t size = TypeAs<ListType>(type).list_size();
        return Compare(*l.children[0], *r.children[0], (l.offset + ls) * size,
                       (r.offset + rs) * size, n * size);
      }
      case Type::kStruct:
        for (size_t i = 0; i < l.children.size(); ++i) {
          if (!Compare(*l.children[i], *r.children[i], l.offset + ls, r.offset + rs, n)) {
            return false;
          }
        }
        return true;
      case Type::kDictionary:
        return CompareDictionaries(l, r, ls, rs, n);
      case Type::kFixedSizeBinary:
        return CompareFixedWidth(l, r, ls, rs, n,
                                 TypeAs<FixedSizeBinaryType>(type).fixed_byte_width());
      default:
        return CompareFixedWidth(l, r, ls, rs, n, type.byte_width());
    }
  }

  static bool CompareFixedWidth(const ArrayData& l, const ArrayData& r, int64_t ls, int64_t rs,
                                int64_t n, int64_t width) {
    return BytesEqual(BufferData(l, 1) + (l.offset + ls) * width,
                      BufferData(r, 1) + (r.offset + rs) * width, n * width);
  }

  bool CompareHalfFloats(const ArrayData& l, const ArrayData& r, int64_t ls, int64_t rs,
                         int64_t n) {
    const uint8_t* lp = BufferData(l, 1);
    const uint8_t* rp = BufferData(r, 1);
    for (int64_t i = 0; i < n; ++i) {
      const auto a = LoadAt<uint16_t>(lp, l.offset + ls + i);
      const auto b = LoadAt<uint16_t>(rp, r.offset + rs + i);
      if (HalfIsNaN(a) || HalfIsNaN(b)) {
        if (options_.nans_equal && HalfIsNaN(a) && HalfIsNaN(b)) continue;
        return false;
      }
      if (a != b && !(HalfIsZero(a) && HalfIsZero(b))) return false;
    }
    return true;
  }

  // Empty values are compared at the start of the data buffer rather than at
  // their offset, which may be one past the end of the allocation (possibly
  // an unmapped page, where even a zero-byte memcmp is slow: see
  // zero_size_area.h).
  template <typename OffsetT>
  static bool CompareBinary(const ArrayData& l, const ArrayData& r, int64_t ls, int64_t rs,
                            int64_t n) {
    const uint8_t* lo = BufferData(l, 1);
    const uint8_t* ro = BufferData(r, 1);
    const uint8_t* ld = BufferData(l, 2);
    const uint8_t* rd = BufferData(r, 2);
    int64_t l_begin = LoadAt<OffsetT>(lo, l.offset + ls);
    int64_t r_begin = LoadAt<OffsetT>(ro, r.offset + rs);
    for (int64_t i = 1; i <= n; ++i) {
      const int64_t l_end = LoadAt<OffsetT>(lo, l.offset + ls + i);
      const int64_t r_end = LoadAt<OffsetT>(ro, r.offset + rs + i);
      const int64_t length = l_end - l_begin;
      if (length != r_end - r_begin) return false;
      const bool empty = length == 0;
      if (!BytesEqual(ld + (empty ? 0 : l_begin), rd + (empty ? 0 : r_begin), length)) {
        return false;
      }
      l_begin = l_end;
      r_begin = r_end;
    }
    return true;
  }

  static const uint8_t* ViewValue(const ArrayData& data, const uint8_t* view, int32_t size) {
    if (size <= kInlineViewSize) return view + 4;
    const auto buffer_index = bit_util::SafeLoad<int32_t>(view + 8);
    const auto offset = bit_util::SafeLoad<int32_t>(view + 12);
    return data.buffers[static_cast<size_t>(2 + buffer_index)]->data() + offset;
  }

  static bool CompareViews(const ArrayData& l, const ArrayData& r, int64_t ls, int64_t rs,
                           int64_t n) {
    const uint8_t* lv = BufferData(l, 1) + (l.offset + ls) * kViewSize;
    const uint8_t* rv = BufferData(r, 1) + (r.offset + rs) * kViewSize;
    for (int64_t i = 0; i < n; ++i, lv += kViewSize, rv += kViewSize) {
      const auto size = bit_util::SafeLoad<int32_t>(lv);
      if (size != bit_util::SafeLoad<int32_t>(rv)) return false;
      // Out-of-line views: the prefixes first (they are in the views).
      if (size > kInlineViewSize && !BytesEqual(lv + 4, rv + 4, 4)) return false;
      if (!BytesEqual(ViewValue(l, lv, size), ViewValue(r, rv, size), size)) return false;
    }
    return true;
  }

  // A run of valid list slots covers one contiguous child range on each
  // side: equal when every list has the same length and those ranges are
  // equal.
  template <typename OffsetT>
  bool CompareLists(const ArrayData& l, const ArrayData& r, int64_t ls, int64_t rs, int64_t n) {
    const uint8_t* lo = BufferData(l, 1);
    const uint8_t* ro = BufferData(r, 1);
    const int64_t l_first = LoadAt<OffsetT>(lo, l.offset + ls);
    const int64_t r_first = LoadAt<OffsetT>(ro, r.offset + rs);
    int64_t l_previous = l_first;
    int64_t r_previous = r_first;
    for (int64_t i = 1; i <= n; ++i) {
      const int64_t l_current = LoadAt<OffsetT>(lo, l.offset + ls + i);
      const int64_t r_current = LoadAt<OffsetT>(ro, r.offset + rs + i);
      if (l_current - l_previous != r_current - r_previous) return false;
      l_previous = l_current;
      r_previous = r_current;
    }
    return Compare(*l.children[0], *r.children[0], l_first, r_first, l_previous - l_first);
  }

  template <typename IndexT>
  bool CompareDecoded(const ArrayData& l, const ArrayData& r, int64_t ls, int64_t rs, int64_t n) {
    const uint8_t* li = BufferData(l, 1);
    const uint8_t* ri = BufferData(r, 1);
    for (int64_t i = 0; i < n; ++i) {
      const auto l_index = static_cast<int64_t>(LoadAt<IndexT>(li, l.offset + ls + i));
      const auto r_index = static_cast<int64_t>(LoadAt<IndexT>(ri, r.offset + rs + i));
      if (!Compare(*l.dictionary, *r.dictionary, l_index, r_index, 1)) return false;
    }
    return true;
  }

  bool CompareDictionaries(const ArrayData& l, const ArrayData& r, int64_t ls, int64_t rs,
                           int64_t n) {
    const ArrayData& l_dict = *l.dictionary;
    const ArrayData& r_dict = *r.dictionary;
    const DataType& index_type = *TypeAs<DictionaryType>(*l.type).index_type();
    // Shared dictionary: equal indices are enough. The same object counts
    // unless it may hold NaNs that must not compare equal; an equal
    // dictionary is only looked for when that costs no more than the range.
    bool same_dictionary = false;
    if (l.dictionary == r.dictionary) {
      same_dictionary = options_.nans_equal || !TypeMayHoldNaN(*l_dict.type);
    } else if (l_dict.length == r_dict.length && l_dict.length <= n) {
      same_dictionary = Compare(l_dict, r_dict, 0, 0, l_dict.length);
    }
    if (same_dictionary && CompareFixedWidth(l, r, ls, rs, n, index_type.byte_width())) {
      return true;
    }
    // Different indices may still decode to equal values (duplicates in a
    // dictionary, or different dictionaries).
    switch (index_type.id()) {
      case Type::kInt8: return CompareDecoded<int8_t>(l, r, ls, rs, n);
      case Type::kUInt8: return CompareDecoded<uint8_t>(l, r, ls, rs, n);
      case Type::kInt16: return CompareDecoded<int16_t>(l, r, ls, rs, n);
      case Type::kUInt16: return CompareDecoded<uint16_t>(l, r, ls, rs, n);
      case Type::kInt32: return CompareDecoded<int32_t>(l, r, ls, rs, n);
      case Type::kUInt32: return CompareDecoded<uint32_t>(l, r, ls, rs, n);
      case Type::kInt64: return CompareDecoded<int64_t>(l, r, ls, rs, n);
      case Type::kUInt64: return CompareDecoded<uint64_t>(l, r, ls, rs, n);
      default: return false;
    }
  }

  const EqualOptions& options_;
};

}  // namespace

bool ArrayEquals(const ArrayData& left, const ArrayData& right, const EqualOptions& options) {
  if (left.type == nullptr || right.type == nullptr) return false;
  if (!left.type->Equals(*right.type, options.check_metadata)) return false;
  if (left.length != right.length) return false;
  return RangeComparer(options).Compare(left, right, 0, 0, left.length);
}

bool ArrayRangeEquals(const ArrayData& left, const ArrayData& right, int64_t left_start,
                      int64_t left_end, int64_t right_start, const EqualOptions& options) {
  if (left.type == nullptr || right.type == nullptr) return false;
  if (!left.type->Equals(*right.type, options.check_metadata)) return false;
  if (left_start < 0 || left_end < left_start || left_end > left.length || right_start < 0) {
    return false;
  }
  const int64_t n = left_end - left_start;
  if (right_start > right.length - n) return false;
  return RangeComparer(options).Compare(left, right, left_start, right_start, n);
}

bool Array::Equals(const Array& other, const EqualOptions& options) const {
  return ArrayEquals(*data_, *other.data(), options);
}

bool Array::RangeEquals(const Array& other, int64_t start, int64_t end, int64_t other_start,
                        const EqualOptions& options) const {
  return ArrayRangeEquals(*data_, *other.data(), start, end, other_start, options);
}

}  // namespace quiver
