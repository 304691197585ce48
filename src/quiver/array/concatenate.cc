// Array concatenation (see concatenate.h).
#include "quiver/array/concatenate.h"

#include <cstring>
#include <limits>

#include "quiver/array/array.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver {

namespace {

Result<std::shared_ptr<Buffer>> ZeroedBuffer(int64_t size, MemoryPool* pool) {
  MutableBuffer out(pool);
  QUIVER_RETURN_NOT_OK(out.Resize(size, 0));
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
        return Status::TypeError("cannot concatenate arrays of types ", type_->ToString(),
                                 " and ", a->type->ToString());
      }
      if (a->length > std::numeric_limits<int64_t>::max() - length_) {
        return Status::CapacityError("concatenated length overflows");
      }
      length_ += a->length;
    }
    out_ = std::make_shared<ArrayData>(type_, length_, std::vector<std::shared_ptr<Buffer>>{});
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
    QUIVER_ASSIGN_OR_RAISE(auto bitmap, ZeroedBuffer(bit_util::BytesForBits(length_), pool_));
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
    QUIVER_ASSIGN_OR_RAISE(auto bits, ZeroedBuffer(bit_util::BytesForBits(length_), pool_));
    int64_t pos = 0;
    for (const auto& a : in_) {
      bitmap::CopyBitmap(a->buffers[1]->data(), a->offset, a->length, MutableData(bits), pos);
      pos += a->length;
    }
    out_->buffers.push_back(std::move(bits));
    return Status::OK();
  }

  Status ConcatFixedWidth(int64_t width) {
    QUIVER_ASSIGN_OR_RAISE(auto values, ZeroedBuffer(length_ * width, pool_));
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

  // Re-based offsets into out_->buffers; the value range of each input.
  template <typename O>
  Result<std::vector<Range>> ConcatOffsets() {
    QUIVER_ASSIGN_OR_RAISE(auto offsets,
                           ZeroedBuffer((length_ + 1) * static_cast<int64_t>(sizeof(O)), pool_));
    O* dst = reinterpret_cast<O*>(MutableData(offsets));
    std::vector<Range> ranges;
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
        return Status::CapacityError("concatenated values exceed the offset type's range");
      }
      for (int64_t i = 1; i <= a->length; ++i) {
        dst[pos + i] = static_cast<O>(running + (static_cast<int64_t>(src[i]) - start));
      }
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
    QUIVER_ASSIGN_OR_RAISE(auto data, ZeroedBuffer(total, pool_));
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
    QUIVER_ASSIGN_OR_RAISE(auto views, ZeroedBuffer(length_ * 16, pool_));
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
      if (!longest_array->RangeEquals(*d, 0, d->length(), 0)) {
        return Status::NotImplemented(
            "concatenating dictionary arrays whose dictionaries differ");
      }
    }
    QUIVER_RETURN_NOT_OK(
        ConcatFixedWidth(FixedWidthBytes(*TypeAs<DictionaryType>(*type_).index_type())));
    out_->dictionary = longest;
    return Status::OK();
  }

  const std::vector<ArrayDataPtr>& in_;
  MemoryPool* pool_;
  TypePtr type_;
  int64_t length_ = 0;
  ArrayDataPtr out_;
};

}  // namespace

Result<ArrayDataPtr> Concatenate(const std::vector<ArrayDataPtr>& arrays, MemoryPool* pool) {
  if (arrays.empty()) return Status::Invalid("nothing to concatenate");
  return Concatenator(arrays, pool).Run();
}

}  // namespace quiver
