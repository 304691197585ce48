// DecodeDictionary (compare_internal.h): a dictionary array as the plain
// array of its values, for comparisons of a dictionary array with another
// array (pyarrow decodes there too; against a scalar, compare.cc compares
// the dictionary once instead).
#include <cstring>
#include <vector>

#include "quiver/compute/arithmetic_internal.h"
#include "quiver/compute/cast_numeric_internal.h"
#include "quiver/compute/compare_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute::internal {

namespace {

// Each row's dictionary index, -1 where the row is null (a null index or a
// null dictionary value).
std::vector<int64_t> RowIndices(const ArrayData& array, const ArrayData& dict) {
  std::vector<int64_t> rows(static_cast<size_t>(array.length));
  const Type index_type = TypeAs<DictionaryType>(*array.type).index_type()->id();
  VisitNumeric(index_type, [&](auto tag) {
    using Index = decltype(tag);
    if constexpr (std::is_integral_v<Index>) {
      const Index* idx = array.GetValues<Index>(1);
      for (int64_t i = 0; i < array.length; ++i) {
        const auto k = static_cast<int64_t>(idx[i]);
        rows[static_cast<size_t>(i)] = array.IsValid(i) && dict.IsValid(k) ? k : -1;
      }
    }
  });
  return rows;
}

template <typename Offset>
Result<std::vector<std::shared_ptr<Buffer>>> DecodeOffsets(const ArrayData& dict,
                                                           const std::vector<int64_t>& rows,
                                                           MemoryPool* pool) {
  const Offset* offsets = dict.GetValues<Offset>(1);
  const uint8_t* data = dict.buffers[2]->data();
  const auto n = static_cast<int64_t>(rows.size());
  int64_t total = 0;
  for (int64_t k : rows) {
    if (k >= 0) total += static_cast<int64_t>(offsets[k + 1] - offsets[k]);
  }
  if (sizeof(Offset) == 4 && total > INT32_MAX) {
    return Status::CapacityError("decoding the dictionary overflows 32-bit offsets (", total,
                                 " bytes)");
  }
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer out_offsets,
                         AllocateOutput((n + 1) * static_cast<int64_t>(sizeof(Offset)), pool));
  QUIVER_ASSIGN_OR_RAISE(MutableBuffer out_data, AllocateOutput(total, pool));
  auto* o = out_offsets.data_as<Offset>();
  uint8_t* d = out_data.data();
  Offset pos = 0;
  o[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = rows[static_cast<size_t>(i)];
    if (k >= 0) {
      const Offset len = offsets[k + 1] - offsets[k];
      if (len > 0) std::memcpy(d + pos, data + offsets[k], static_cast<size_t>(len));
      pos += len;
    }
    o[i + 1] = pos;
  }
  return std::vector<std::shared_ptr<Buffer>>{out_offsets.Freeze(), out_data.Freeze()};
}

}  // namespace

Result<ArrayDataPtr> DecodeDictionary(const ArrayData& array, MemoryPool* pool) {
  const ArrayData& dict = *array.dictionary;
  const TypePtr& type = dict.type;
  const int64_t n = array.length;
  const std::vector<int64_t> rows = RowIndices(array, dict);

  // Validity.
  std::shared_ptr<Buffer> validity;
  int64_t null_count = 0;
  for (int64_t k : rows) null_count += k < 0;
  if (null_count > 0) {
    QUIVER_ASSIGN_OR_RAISE(MutableBuffer bits, AllocateOutput(bit_util::BytesForBits(n), pool));
    std::memset(bits.data(), 0, static_cast<size_t>(bits.size()));
    for (int64_t i = 0; i < n; ++i) {
      if (rows[static_cast<size_t>(i)] >= 0) bit_util::SetBit(bits.data(), i);
    }
    validity = bits.Freeze();
  }

  const Type id = type->id();
  std::vector<std::shared_ptr<Buffer>> buffers{validity};
  if (id == Type::kBool) {
    QUIVER_ASSIGN_OR_RAISE(MutableBuffer bits, AllocateOutput(bit_util::BytesForBits(n), pool));
    std::memset(bits.data(), 0, static_cast<size_t>(bits.size()));
    const uint8_t* values = dict.buffers[1]->data();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t k = rows[static_cast<size_t>(i)];
      if (k >= 0 && bit_util::GetBit(values, dict.offset + k)) bit_util::SetBit(bits.data(), i);
    }
    buffers.push_back(bits.Freeze());
  } else if (IsBinaryLike(id) || IsLargeBinaryLike(id)) {
    QUIVER_ASSIGN_OR_RAISE(auto parts, IsBinaryLike(id) ? DecodeOffsets<int32_t>(dict, rows, pool)
                                                        : DecodeOffsets<int64_t>(dict, rows, pool));
    buffers.insert(buffers.end(), parts.begin(), parts.end());
  } else if ((IsFixedWidth(id) && FixedWidthBytes(*type) >= 0) || IsBinaryView(id)) {
    // Views are 16-byte values whose out-of-line bytes stay in the
    // dictionary's data buffers, shared.
    const int64_t width = IsBinaryView(id) ? 16 : FixedWidthBytes(*type);
    QUIVER_ASSIGN_OR_RAISE(MutableBuffer out, AllocateOutput(n * width, pool));
    const uint8_t* values = dict.buffers[1]->data() + dict.offset * width;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t k = rows[static_cast<size_t>(i)];
      if (k >= 0) {
        std::memcpy(out.data() + i * width, values + k * width, static_cast<size_t>(width));
      } else {
        std::memset(out.data() + i * width, 0, static_cast<size_t>(width));
      }
    }
    buffers.push_back(out.Freeze());
    if (IsBinaryView(id)) buffers.insert(buffers.end(), dict.buffers.begin() + 2, dict.buffers.end());
  } else {
    return Status::NotImplemented("decoding a dictionary of ", type->ToString());
  }
  return ArrayData::Make(type, n, std::move(buffers), null_count);
}

}  // namespace quiver::compute::internal
