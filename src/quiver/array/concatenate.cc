// Array concatenation (see concatenate.h).
#include "quiver/array/concatenate.h"

#include <cstring>
#include <type_traits>
#include <limits>
#include <string>
#include <unordered_map>

#include "quiver/array/array.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver {

namespace {

// `size` bytes at their exact size, not zeroed: every caller writes them
// all.
Result<std::shared_ptr<Buffer>> AllocateBuffer(int64_t size, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(auto out, MutableBuffer::WithCapacity(size, pool));
  out.UnsafeSetSize(size);
  return out.Freeze();
}

// A bitmap of `bits` bits, not zeroed but for its last byte (its padding
// bits past `bits` stay zero).
Result<std::shared_ptr<Buffer>> AllocateBitmap(int64_t bits, MemoryPool* pool) {
  const int64_t bytes = bit_util::BytesForBits(bits);
  QUIVER_ASSIGN_OR_RAISE(auto out, MutableBuffer::WithCapacity(bytes, pool));
  out.UnsafeSetSize(bytes);
  if (bytes > 0) out.data()[bytes - 1] = 0;
  return out.Freeze();
}

uint8_t* MutableData(const std::shared_ptr<Buffer>& buffer) {
  // Freshly allocated, not yet shared: writing is fine.
  return const_cast<uint8_t*>(buffer->data());
}

struct Range {
  int64_t offset;
  int64_t length;
};

class Concatenator {
 public:
  Concatenator(const std::vector<ArrayDataPtr>& in, MemoryPool* pool) : in_(in), pool_(pool) {}

  Result<ArrayDataPtr> Run() {
    type_ = in_[0]->type;
    for (const auto& a : in_) {
      if (!a->type->Equals(*type_)) {
        // pyarrow's class (ArrowInvalid) and words.
        return Status::Invalid("arrays to be concatenated must be identically typed, but ",
                               type_->ToString(), " and ", a->type->ToString(),
                               " were encountered.");
      }
      if (a->length > std::numeric_limits<int64_t>::max() - length_) {
        return Status::CapacityError("concatenated length overflows");
      }
      length_ += a->length;
    }
    std::vector<std::shared_ptr<Buffer>> buffers;
    buffers.reserve(3);  // validity, offsets or values, data: no regrowth
    out_ = std::make_shared<ArrayData>(type_, length_, std::move(buffers));
    if (type_->id() == Type::kNull) {
      out_->null_count = length_;
      return out_;
    }
    QUIVER_RETURN_NOT_OK(ConcatValidity());
    switch (type_->id()) {
      case Type::kBool:
        QUIVER_RETURN_NOT_OK(ConcatBits());
        break;
      case Type::kString:
      case Type::kBinary:
        QUIVER_RETURN_NOT_OK(ConcatBinary<int32_t>());
        break;
      case Type::kLargeString:
      case Type::kLargeBinary:
        QUIVER_RETURN_NOT_OK(ConcatBinary<int64_t>());
        break;
      case Type::kStringView:
      case Type::kBinaryView:
        QUIVER_RETURN_NOT_OK(ConcatViews());
        break;
      case Type::kList:
      case Type::kMap:
        QUIVER_RETURN_NOT_OK(ConcatList<int32_t>());
        break;
      case Type::kLargeList:
        QUIVER_RETURN_NOT_OK(ConcatList<int64_t>());
        break;
      case Type::kFixedSizeList:
        QUIVER_RETURN_NOT_OK(ConcatFixedSizeList());
        break;
      case Type::kStruct:
        QUIVER_RETURN_NOT_OK(ConcatStruct());
        break;
      case Type::kDictionary:
        QUIVER_RETURN_NOT_OK(ConcatDictionary());
        break;
      default:
        if (!IsFixedWidth(type_->id()) || FixedWidthBytes(*type_) < 0) {
          return Status::NotImplemented("concatenating arrays of type ", type_->ToString());
        }
        QUIVER_RETURN_NOT_OK(ConcatFixedWidth(FixedWidthBytes(*type_)));
        break;
    }
    return out_;
  }

 private:
  Status ConcatValidity() {
    int64_t null_count = 0;
    for (const auto& a : in_) null_count += a->GetNullCount();
    out_->null_count = null_count;
    if (null_count == 0) {
      out_->buffers.push_back(nullptr);
      return Status::OK();
    }
    QUIVER_ASSIGN_OR_RAISE(auto bitmap, AllocateBitmap(length_, pool_));
    uint8_t* dst = MutableData(bitmap);
    int64_t pos = 0;
    for (const auto& a : in_) {
      if (const uint8_t* v = a->validity()) {
        bitmap::CopyBitmap(v, a->offset, a->length, dst, pos);
      } else {
        bitmap::SetBitsTo(dst, pos, a->length, true);
      }
      pos += a->length;
    }
    out_->buffers.push_back(std::move(bitmap));
    return Status::OK();
  }

  Status ConcatBits() {
    QUIVER_ASSIGN_OR_RAISE(auto bits, AllocateBitmap(length_, pool_));
    int64_t pos = 0;
    for (const auto& a : in_) {
      bitmap::CopyBitmap(a->buffers[1]->data(), a->offset, a->length, MutableData(bits), pos);
      pos += a->length;
    }
    out_->buffers.push_back(std::move(bits));
    return Status::OK();
  }

  Status ConcatFixedWidth(int64_t width) {
    QUIVER_ASSIGN_OR_RAISE(auto values, AllocateBuffer(length_ * width, pool_));
    uint8_t* dst = MutableData(values);
    for (const auto& a : in_) {
      if (a->length > 0) {
        std::memcpy(dst, a->buffers[1]->data() + a->offset * width,
                    static_cast<size_t>(a->length * width));
      }
      dst += a->length * width;
    }
    out_->buffers.push_back(std::move(values));
    return Status::OK();
  }

  // out[i] = in[i] + delta for n offsets whose results fit O (checked by
  // the caller): unsigned wrapping arithmetic, 32 bytes at a time in two
  // 16-byte vectors (GCC/Clang vector extension: SSE2 adds), then one by one.
  template <typename O>
  static void RebaseOffsets(const O* in, int64_t n, int64_t delta, O* out) {
    using U = std::make_unsigned_t<O>;
    using V [[gnu::vector_size(16)]] = U;
    constexpr int64_t kLanes = 16 / sizeof(O);
    const U d = static_cast<U>(delta);
    int64_t i = 0;
    for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
      V lo;
      V hi;
      std::memcpy(&lo, in + i, sizeof(V));
      std::memcpy(&hi, in + i + kLanes, sizeof(V));
      lo += d;
      hi += d;
      std::memcpy(out + i, &lo, sizeof(V));
      std::memcpy(out + i + kLanes, &hi, sizeof(V));
    }
    for (; i < n; ++i) out[i] = static_cast<O>(static_cast<U>(in[i]) + d);
  }

  // Re-based offsets into out_->buffers; the value range of each input.
  template <typename O>
  Result<std::vector<Range>> ConcatOffsets() {
    QUIVER_ASSIGN_OR_RAISE(auto offsets,
                           AllocateBuffer((length_ + 1) * static_cast<int64_t>(sizeof(O)), pool_));
    O* dst = reinterpret_cast<O*>(MutableData(offsets));
    dst[0] = 0;
    std::vector<Range> ranges;
    ranges.reserve(in_.size());
    int64_t running = 0;
    int64_t pos = 0;
    for (const auto& a : in_) {
      if (a->length == 0) {
        ranges.push_back({0, 0});
        continue;
      }
      const O* src = a->GetValues<O>(1);
      const int64_t start = src[0];
      const int64_t end = src[a->length];
      if (end - start > static_cast<int64_t>(std::numeric_limits<O>::max()) - running) {
        // pyarrow's class (ArrowInvalid) and words.
        return Status::Invalid("offset overflow while concatenating arrays, consider casting "
                               "input from `", type_->ToString(), "` to `large_",
                               type_->ToString(), "` first");
      }
      RebaseOffsets(src + 1, a->length, running - start, dst + pos + 1);
      ranges.push_back({start, end - start});
      running += end - start;
      pos += a->length;
    }
    out_->buffers.push_back(std::move(offsets));
    return ranges;
  }

  template <typename O>
  Status ConcatBinary() {
    QUIVER_ASSIGN_OR_RAISE(auto ranges, ConcatOffsets<O>());
    int64_t total = 0;
    for (const auto& r : ranges) total += r.length;
    QUIVER_ASSIGN_OR_RAISE(auto data, AllocateBuffer(total, pool_));
    uint8_t* dst = MutableData(data);
    for (size_t i = 0; i < in_.size(); ++i) {
      if (ranges[i].length > 0) {
        std::memcpy(dst, in_[i]->buffers[2]->data() + ranges[i].offset,
                    static_cast<size_t>(ranges[i].length));
      }
      dst += ranges[i].length;
    }
    out_->buffers.push_back(std::move(data));
    return Status::OK();
  }

  Status ConcatViews() {
    QUIVER_ASSIGN_OR_RAISE(auto views, AllocateBuffer(length_ * 16, pool_));
    uint8_t* dst = MutableData(views);
    std::vector<std::shared_ptr<Buffer>> data_buffers;
    for (const auto& a : in_) {
      const int32_t base = static_cast<int32_t>(data_buffers.size());
      if (a->length > 0) {
        std::memcpy(dst, a->buffers[1]->data() + a->offset * 16,
                    static_cast<size_t>(a->length * 16));
      }
      for (int64_t i = 0; i < a->length && base > 0; ++i) {
        uint8_t* view = dst + i * 16;
        if (bit_util::SafeLoad<int32_t>(view) > 12) {
          bit_util::SafeStore<int32_t>(view + 8, bit_util::SafeLoad<int32_t>(view + 8) + base);
        }
      }
      dst += a->length * 16;
      for (size_t b = 2; b < a->buffers.size(); ++b) data_buffers.push_back(a->buffers[b]);
    }
    out_->buffers.push_back(std::move(views));
    for (auto& b : data_buffers) out_->buffers.push_back(std::move(b));
    return Status::OK();
  }

  template <typename O>
  Status ConcatList() {
    QUIVER_ASSIGN_OR_RAISE(auto ranges, ConcatOffsets<O>());
    std::vector<ArrayDataPtr> children;
    for (size_t i = 0; i < in_.size(); ++i) {
      children.push_back(in_[i]->children[0]->Slice(ranges[i].offset, ranges[i].length));
    }
    QUIVER_ASSIGN_OR_RAISE(auto child, Concatenator(children, pool_).Run());
    out_->children.push_back(std::move(child));
    return Status::OK();
  }

  Status ConcatFixedSizeList() {
    const int64_t size = TypeAs<ListType>(*type_).list_size();
    std::vector<ArrayDataPtr> children;
    for (const auto& a : in_) {
      children.push_back(a->children[0]->Slice(a->offset * size, a->length * size));
    }
    QUIVER_ASSIGN_OR_RAISE(auto child, Concatenator(children, pool_).Run());
    out_->children.push_back(std::move(child));
    return Status::OK();
  }

  Status ConcatStruct() {
    for (int f = 0; f < type_->num_fields(); ++f) {
      std::vector<ArrayDataPtr> children;
      for (const auto& a : in_) {
        children.push_back(a->children[static_cast<size_t>(f)]->Slice(a->offset, a->length));
      }
      QUIVER_ASSIGN_OR_RAISE(auto child, Concatenator(children, pool_).Run());
      out_->children.push_back(std::move(child));
    }
    return Status::OK();
  }

  Status ConcatDictionary() {
    // Every input must see the same dictionary, or (after deltas) a prefix
    // of the longest one.
    for (const auto& a : in_) {
      if (a->dictionary == nullptr) return Status::Invalid("dictionary array without dictionary");
    }
    ArrayDataPtr longest = in_[0]->dictionary;
    for (const auto& a : in_) {
      if (a->dictionary->length > longest->length) longest = a->dictionary;
    }
    ArrayPtr longest_array = MakeArray(longest);
    for (const auto& a : in_) {
      if (a->dictionary == longest) continue;
      ArrayPtr d = MakeArray(a->dictionary);
      if (!longest_array->RangeEquals(*d, 0, d->length(), 0)) return UnifyDictionaries();
    }
    QUIVER_RETURN_NOT_OK(
        ConcatFixedWidth(FixedWidthBytes(*TypeAs<DictionaryType>(*type_).index_type())));
    out_->dictionary = longest;
    return Status::OK();
  }

  // Dictionaries that differ: one dictionary holding each distinct value
  // once, the first input's values first and then each later input's new
  // values in their order, and every input's indices mapped to it (Arrow
  // C++'s DictionaryUnifier, which pyarrow.concat_arrays uses; its errors:
  // a dictionary holding nulls, an index type too narrow for the result).
  Status UnifyDictionaries() {
    const auto& dict_type = TypeAs<DictionaryType>(*type_);
    const Type index_id = dict_type.index_type()->id();
    const int64_t width = FixedWidthBytes(*dict_type.index_type());
    if (!CanKey(*dict_type.value_type())) {
      return Status::NotImplemented("concatenating dictionary arrays whose dictionaries differ, ",
                                    "of value type ", dict_type.value_type()->ToString());
    }
    struct Piece {
      size_t input;
      int64_t start;
      int64_t length;
    };
    std::unordered_map<std::string, int64_t> memo;
    std::vector<Piece> pieces;
    std::vector<std::vector<int64_t>> transpose(in_.size());
    int64_t size = 0;
    for (size_t a = 0; a < in_.size(); ++a) {
      const ArrayData& d = *in_[a]->dictionary;
      if (d.GetNullCount() > 0) return Status::Invalid("Cannot yet unify dictionaries with nulls");
      auto& t = transpose[a];
      t.resize(static_cast<size_t>(d.length));
      for (int64_t i = 0; i < d.length; ++i) {
        auto [it, inserted] = memo.emplace(KeyOf(d, i), size);
        if (inserted) {
          if (!pieces.empty() && pieces.back().input == a &&
              pieces.back().start + pieces.back().length == i) {
            ++pieces.back().length;
          } else {
            pieces.push_back({a, i, 1});
          }
          ++size;
        }
        t[static_cast<size_t>(i)] = it->second;
      }
    }
    if (size > 0 && size - 1 > MaxIndex(index_id)) {
      return Status::Invalid("These dictionaries cannot be combined.  The unified dictionary "
                             "requires a larger index type.");
    }
    std::vector<ArrayDataPtr> slices;
    for (const auto& p : pieces) slices.push_back(in_[p.input]->dictionary->Slice(p.start, p.length));
    ArrayDataPtr unified;
    if (slices.empty()) {
      unified = in_[0]->dictionary;
    } else {
      QUIVER_ASSIGN_OR_RAISE(unified, Concatenator(slices, pool_).Run());
    }
    MutableBuffer indices(pool_);
    QUIVER_RETURN_NOT_OK(indices.Resize(length_ * width, 0));
    uint8_t* dst = indices.data();
    for (size_t a = 0; a < in_.size(); ++a) {
      const ArrayData& in = *in_[a];
      const uint8_t* src = in.buffers[1] == nullptr ? nullptr : in.buffers[1]->data();
      const auto& t = transpose[a];
      for (int64_t i = 0; i < in.length; ++i) {
        const int64_t old = LoadIndex(src + (in.offset + i) * width, index_id);
        // Slots under nulls may hold anything: they map to 0.
        const int64_t mapped =
            old >= 0 && old < static_cast<int64_t>(t.size()) ? t[static_cast<size_t>(old)] : 0;
        StoreIndex(dst, index_id, mapped);
        dst += width;
      }
    }
    out_->buffers.push_back(indices.Freeze());
    out_->dictionary = std::move(unified);
    return Status::OK();
  }

  static bool CanKey(const DataType& type) {
    return IsBinaryLike(type.id()) || IsLargeBinaryLike(type.id()) || IsBinaryView(type.id()) ||
           type.id() == Type::kBool || (IsFixedWidth(type.id()) && FixedWidthBytes(type) >= 0);
  }

  // The bytes of value i of `d` (a type CanKey accepts).
  static std::string KeyOf(const ArrayData& d, int64_t i) {
    const Type id = d.type->id();
    if (IsBinaryLike(id)) {
      const int32_t* off = d.GetValues<int32_t>(1);
      return std::string(d.buffers[2]->data_as<char>() + off[i],
                         static_cast<size_t>(off[i + 1] - off[i]));
    }
    if (IsLargeBinaryLike(id)) {
      const int64_t* off = d.GetValues<int64_t>(1);
      return std::string(d.buffers[2]->data_as<char>() + off[i],
                         static_cast<size_t>(off[i + 1] - off[i]));
    }
    if (IsBinaryView(id)) {
      const uint8_t* view = d.buffers[1]->data() + (d.offset + i) * 16;
      const auto length = bit_util::SafeLoad<int32_t>(view);
      if (length <= 12) return std::string(reinterpret_cast<const char*>(view + 4), static_cast<size_t>(length));
      const auto buffer = bit_util::SafeLoad<int32_t>(view + 8);
      const auto offset = bit_util::SafeLoad<int32_t>(view + 12);
      return std::string(d.buffers[static_cast<size_t>(2 + buffer)]->data_as<char>() + offset,
                         static_cast<size_t>(length));
    }
    if (id == Type::kBool) {
      return std::string(1, bit_util::GetBit(d.buffers[1]->data(), d.offset + i) ? '\1' : '\0');
    }
    const int64_t width = FixedWidthBytes(*d.type);
    return std::string(d.buffers[1]->data_as<char>() + (d.offset + i) * width,
                       static_cast<size_t>(width));
  }

  static int64_t MaxIndex(Type id) {
    switch (id) {
      case Type::kInt8: return std::numeric_limits<int8_t>::max();
      case Type::kUInt8: return std::numeric_limits<uint8_t>::max();
      case Type::kInt16: return std::numeric_limits<int16_t>::max();
      case Type::kUInt16: return std::numeric_limits<uint16_t>::max();
      case Type::kInt32: return std::numeric_limits<int32_t>::max();
      case Type::kUInt32: return std::numeric_limits<uint32_t>::max();
      default: return std::numeric_limits<int64_t>::max();
    }
  }

  static int64_t LoadIndex(const uint8_t* p, Type id) {
    switch (id) {
      case Type::kInt8: return bit_util::SafeLoad<int8_t>(p);
      case Type::kUInt8: return bit_util::SafeLoad<uint8_t>(p);
      case Type::kInt16: return bit_util::SafeLoad<int16_t>(p);
      case Type::kUInt16: return bit_util::SafeLoad<uint16_t>(p);
      case Type::kInt32: return bit_util::SafeLoad<int32_t>(p);
      case Type::kUInt32: return bit_util::SafeLoad<uint32_t>(p);
      case Type::kUInt64: {
        const auto v = bit_util::SafeLoad<uint64_t>(p);
        return v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ? -1 : static_cast<int64_t>(v);
      }
      default: return bit_util::SafeLoad<int64_t>(p);
    }
  }

  static void StoreIndex(uint8_t* p, Type id, int64_t v) {
    switch (id) {
      case Type::kInt8: bit_util::SafeStore(p, static_cast<int8_t>(v)); break;
      case Type::kUInt8: bit_util::SafeStore(p, static_cast<uint8_t>(v)); break;
      case Type::kInt16: bit_util::SafeStore(p, static_cast<int16_t>(v)); break;
      case Type::kUInt16: bit_util::SafeStore(p, static_cast<uint16_t>(v)); break;
      case Type::kInt32: bit_util::SafeStore(p, static_cast<int32_t>(v)); break;
      case Type::kUInt32: bit_util::SafeStore(p, static_cast<uint32_t>(v)); break;
      case Type::kUInt64: bit_util::SafeStore(p, static_cast<uint64_t>(v)); break;
      default: bit_util::SafeStore(p, v); break;
    }
  }

  const std::vector<ArrayDataPtr>& in_;
  MemoryPool* pool_;
  TypePtr type_;
  int64_t length_ = 0;
  ArrayDataPtr out_;
};

}  // namespace

Result<ArrayDataPtr> Concatenate(const std::vector<ArrayDataPtr>& arrays, MemoryPool* pool) {
  if (arrays.empty()) return Status::Invalid("Must pass at least one array");
  return Concatenator(arrays, pool).Run();
}

}  // namespace quiver
