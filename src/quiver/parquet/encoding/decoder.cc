#include "quiver/parquet/encoding/decoder_internal.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "quiver/parquet/encoding/big_endian_decimal.h"
#include "quiver/parquet/encoding/decoder_internal.h"
#include "quiver/parquet/encoding/spaced_internal.h"
#include "quiver/util/bitmap.h"

namespace quiver::parquet {

// ---------------------------------------------------------------------------
// Decoder

Status Decoder::SetData(int64_t num_values, const uint8_t* data, int64_t size) {
  values_left_ = 0;
  if (num_values < 0 || size < 0) {
    return Status::Invalid(EnumName(encoding_), " ", EnumName(type_), " page: ", num_values,
                           " values in ", size, " bytes");
  }
  if (num_values == 0) return Status::OK();
  QUIVER_RETURN_NOT_OK(StartPage(num_values, data, size));
  values_left_ = num_values;
  return Status::OK();
}

Status Decoder::SetDictionary(int64_t, const uint8_t*, int64_t) {
  return Status::Invalid(EnumName(encoding_), " data of ", EnumName(type_),
                         " has no dictionary");
}

Status Decoder::DecodeIndices(int64_t, int32_t*) {
  return Status::Invalid(EnumName(encoding_), " data of ", EnumName(type_),
                         " has no dictionary indices");
}

Status Decoder::CheckWanted(int64_t n) const {
  if (QUIVER_PREDICT_TRUE(n >= 0 && n <= values_left_)) return Status::OK();
  return Status::Invalid(EnumName(encoding_), " ", EnumName(type_), " page: ", n,
                         " values wanted but only ", values_left_, " are left");
}

Status Decoder::EndedEarly(int64_t n, int64_t decoded) const {
  return Status::Invalid(EnumName(encoding_), " ", EnumName(type_), " page: the data ends after ",
                         decoded, " of ", n, " values wanted (", values_left_,
                         " values were left by the page header's count)");
}

Status Decoder::TooFew(int64_t num_values, int64_t available, const char* where) const {
  return Status::Invalid(EnumName(encoding_), " ", EnumName(type_), " page: the header says ",
                         num_values, " values but ", where, " hold only ", available);
}

// ---------------------------------------------------------------------------
// Skips and spaced decodes through bounded scratch memory

Status BooleanDecoder::Skip(int64_t n) {
  QUIVER_RETURN_NOT_OK(CheckWanted(n));
  bool scratch[kScratchValues];
  for (int64_t done = 0; done < n;) {
    const int64_t m = std::min(n - done, kScratchValues);
    QUIVER_RETURN_NOT_OK(Decode(m, scratch));
    done += m;
  }
  return Status::OK();
}

template <typename T>
Status TypedDecoder<T>::Skip(int64_t n) {
  QUIVER_RETURN_NOT_OK(CheckWanted(n));
  // On the stack: a masked read skips between every few values it takes.
  constexpr int64_t kChunk = 256;
  T scratch[kChunk];
  for (int64_t done = 0; done < n;) {
    const int64_t m = std::min(n - done, kChunk);
    QUIVER_RETURN_NOT_OK(Decode(m, scratch));
    done += m;
  }
  return Status::OK();
}

template <typename T>
Status TypedDecoder<T>::DecodeSpaced(int64_t num_slots, const uint8_t* validity,
                                     int64_t validity_offset, T* out) {
  if (validity == nullptr) return Decode(num_slots, out);
  if (num_slots < 0) return CheckWanted(num_slots);
  const int64_t valid = bitmap::CountSetBits(validity, validity_offset, num_slots);
  // The values at the end of the slots, then spaced out forward (see
  // spaced_internal.h).
  QUIVER_RETURN_NOT_OK(Decode(valid, out + (num_slots - valid)));
  internal::ExpandSpaced(sizeof(T), reinterpret_cast<const uint8_t*>(out + (num_slots - valid)),
                         valid, validity, validity_offset, num_slots,
                         reinterpret_cast<uint8_t*>(out));
  return Status::OK();
}

template <typename T>
Status TypedDecoder<T>::DecodeRuns(const ValueRun* runs, int64_t num_runs, T* out) {
  for (int64_t r = 0; r < num_runs; ++r) {
    if (runs[r].skip > 0) QUIVER_RETURN_NOT_OK(Skip(runs[r].skip));
    QUIVER_RETURN_NOT_OK(Decode(runs[r].take, out));
    out += runs[r].take;
  }
  return Status::OK();
}

template class TypedDecoder<int32_t>;
template class TypedDecoder<int64_t>;
template class TypedDecoder<Int96>;
template class TypedDecoder<float>;
template class TypedDecoder<double>;

Status FixedLenByteArrayDecoder::Skip(int64_t n) {
  QUIVER_RETURN_NOT_OK(CheckWanted(n));
  // At most kScratchValues values and 64 KiB, whatever type_length says.
  const int64_t chunk = std::min({n, kScratchValues, std::max<int64_t>(1, 65536 / type_length_)});
  std::vector<uint8_t> scratch(static_cast<size_t>(chunk * type_length_));
  for (int64_t done = 0; done < n;) {
    const int64_t m = std::min(n - done, chunk);
    QUIVER_RETURN_NOT_OK(Decode(m, scratch.data()));
    done += m;
  }
  return Status::OK();
}

Status FixedLenByteArrayDecoder::DecodeRuns(const ValueRun* runs, int64_t num_runs,
                                            uint8_t* out) {
  for (int64_t r = 0; r < num_runs; ++r) {
    if (runs[r].skip > 0) QUIVER_RETURN_NOT_OK(Skip(runs[r].skip));
    QUIVER_RETURN_NOT_OK(Decode(runs[r].take, out));
    out += runs[r].take * type_length_;
  }
  return Status::OK();
}

Status FixedLenByteArrayDecoder::DecodeDecimals(int64_t n, int out_width, uint8_t* out) {
  if (type_length_ > out_width) {
    return Status::Invalid("a decimal of ", type_length_, " bytes does not fit in ", out_width);
  }
  // At most kScratchValues values at a time through the scratch.
  for (int64_t done = 0; done < n;) {
    const int64_t m = std::min(n - done, kScratchValues);
    decimal_scratch_.resize(static_cast<size_t>(m * type_length_));
    QUIVER_RETURN_NOT_OK(Decode(m, decimal_scratch_.data()));
    internal::BigEndianToDecimals(decimal_scratch_.data(), type_length_, m, out + done * out_width,
                        out_width);
    done += m;
  }
  return Status::OK();
}

Status ByteArrayDecoder::Skip(int64_t n) {
  QUIVER_RETURN_NOT_OK(CheckWanted(n));
  constexpr int64_t kChunk = 256;  // on the stack, as TypedDecoder's
  std::string_view scratch[kChunk];
  for (int64_t done = 0; done < n;) {
    const int64_t m = std::min(n - done, kChunk);
    QUIVER_RETURN_NOT_OK(Decode(m, scratch));
    done += m;
  }
  return Status::OK();
}

namespace {

// The end offsets of `valid` values, at ends[num_slots - valid, num_slots),
// moved to their slots among [0, num_slots) (those whose validity bit is
// set), each null slot given the end before it (`base` before the first
// value). Forward and in place: when slot s is written, the next value not
// yet moved (j) lies at num_slots - valid + j, and the nulls up to s (at
// most num_slots - valid) number s + 1 - j, so it lies past s. A word of
// 64 slots all valid or all null is a copy or a fill.
template <typename Offset>
void SpreadEnds(const uint8_t* validity, int64_t validity_offset, int64_t num_slots, int64_t valid,
                Offset base, Offset* ends) {
  const Offset* tail = ends + (num_slots - valid);
  int64_t j = 0;
  Offset prev = base;
  for (int64_t s = 0; s < num_slots; s += 64) {
    const int n = static_cast<int>(std::min<int64_t>(64, num_slots - s));
    const uint64_t bits = bitmap::LoadBits(validity, validity_offset + s, n);
    const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    if (bits == all) {
      for (int k = 0; k < n; ++k) ends[s + k] = tail[j + k];  // forward: a source never behind
      j += n;
      prev = ends[s + n - 1];
    } else if (bits == 0) {
      std::fill(ends + s, ends + s + n, prev);
    } else {
      // (A word with both kinds of slots: valid >= 1, and j stays below
      // valid where a set bit reads it; the clamp keeps the other reads in
      // bounds, so the choice is a select, not a branch.)
      for (int k = 0; k < n; ++k) {
        const bool set = (bits >> k) & 1;
        const Offset v = tail[std::min(j, valid - 1)];
        prev = set ? v : prev;
        j += set;
        ends[s + k] = prev;
      }
    }
  }
}

}  // namespace

template <typename Offset>
Status ByteArrayDecoder::AppendArrow(int64_t num_slots, const uint8_t* validity,
                                     int64_t validity_offset, MutableBuffer* offsets,
                                     MutableBuffer* data) {
  appended_ascii_ = false;
  if (num_slots < 0) return CheckWanted(num_slots);
  const int64_t valid =
      validity == nullptr ? num_slots : bitmap::CountSetBits(validity, validity_offset, num_slots);
  QUIVER_RETURN_NOT_OK(CheckWanted(valid));
  constexpr int64_t kMaxOffset = std::numeric_limits<Offset>::max();
  if (offsets->empty()) QUIVER_RETURN_NOT_OK(offsets->Append(Offset{0}));
  QUIVER_RETURN_NOT_OK(offsets->Reserve(num_slots * int64_t{sizeof(Offset)}));
  const auto end_offset = [&] { return static_cast<Offset>(data->size()); };

  const int64_t bound = value_bytes_bound(valid);
  if (bound != kUnknownBytes && bound <= kMaxOffset - data->size()) {
    // One pass: the values' bytes straight into `data`.
    Offset* ends = offsets->data_as<Offset>() + offsets->size() / int64_t{sizeof(Offset)};
    const int64_t base = data->size();
    copied_ascii_ = kAsciiUnknown;
    // The valid values in pieces of kIntoPiece (not a call per run of
    // them), each with room for its bound: the room reserved stays near
    // what the values take (a dictionary's bound, n times its longest
    // entry, would outgrow a buffer sized for the chunk, a copy). Their
    // ends go to the tail of the slots' room, then to their slots
    // (SpreadEnds).
    Offset* tail = ends + (num_slots - valid);
    int64_t bytes = 0;
    for (int64_t done = 0; done < valid;) {
      const int64_t m = std::min(valid - done, kIntoPiece);
      QUIVER_RETURN_NOT_OK(data->Reserve(value_bytes_bound(m) + kIntoSlack));
      QUIVER_ASSIGN_OR_RAISE(const int64_t piece,
                             DecodeInto(m, base + bytes, tail + done, data->data() + base + bytes));
      bytes += piece;
      data->UnsafeSetSize(base + bytes);
      done += m;
    }
    if (valid < num_slots) {
      SpreadEnds(validity, validity_offset, num_slots, valid, static_cast<Offset>(base), ends);
    }
    offsets->UnsafeSetSize(offsets->size() + num_slots * int64_t{sizeof(Offset)});
    appended_ascii_ = copied_ascii_ == kAscii;
    return Status::OK();
  }

  std::vector<std::string_view>& views = views_;
  views.resize(static_cast<size_t>(std::min(valid, kScratchValues)));
  // Appends the next `count` values of the page.
  auto append_values = [&](int64_t count) -> Status {
    for (int64_t done = 0; done < count;) {
      const int64_t m = std::min(count - done, kScratchValues);
      QUIVER_RETURN_NOT_OK(Decode(m, views.data()));
      int64_t bytes = 0;
      for (int64_t i = 0; i < m; ++i) bytes += static_cast<int64_t>(views[i].size());
      if (bytes > kMaxOffset - data->size()) {
        return Status::CapacityError("BYTE_ARRAY values: more than ", kMaxOffset,
                                     " bytes for one array");
      }
      QUIVER_RETURN_NOT_OK(data->Reserve(bytes));
      for (int64_t i = 0; i < m; ++i) {
        data->UnsafeExtendFromSlice(views[i].data(), static_cast<int64_t>(views[i].size()));
        offsets->UnsafeAppend(end_offset());
      }
      done += m;
    }
    return Status::OK();
  };
  if (validity == nullptr) return append_values(num_slots);

  Status status;
  int64_t next = 0;  // first slot not yet appended
  bitmap::VisitSetBitRuns(validity, validity_offset, num_slots, [&](int64_t pos, int64_t len) {
    if (!status.ok()) return;
    for (; next < pos; ++next) offsets->UnsafeAppend(end_offset());
    status = append_values(len);
    next = pos + len;
  });
  QUIVER_RETURN_NOT_OK(status);
  for (; next < num_slots; ++next) offsets->UnsafeAppend(end_offset());
  return Status::OK();
}

Status ByteArrayDecoder::DecodeArrow(int64_t num_slots, const uint8_t* validity,
                                     int64_t validity_offset, MutableBuffer* offsets,
                                     MutableBuffer* data) {
  return AppendArrow<int32_t>(num_slots, validity, validity_offset, offsets, data);
}

Status ByteArrayDecoder::DecodeArrowLarge(int64_t num_slots, const uint8_t* validity,
                                          int64_t validity_offset, MutableBuffer* offsets,
                                          MutableBuffer* data) {
  return AppendArrow<int64_t>(num_slots, validity, validity_offset, offsets, data);
}

Result<int64_t> ByteArrayDecoder::DecodeInto(int64_t, int64_t, int32_t*, uint8_t*) {
  return Status::NotImplemented("DecodeInto without a value_bytes_bound()");
}

Result<int64_t> ByteArrayDecoder::DecodeInto(int64_t, int64_t, int64_t*, uint8_t*) {
  return Status::NotImplemented("DecodeInto without a value_bytes_bound()");
}

// ---------------------------------------------------------------------------
// The factory

namespace {

constexpr uint32_t Bit(format::Type type) { return 1u << static_cast<int>(type); }

// The physical types each value encoding serves (Encodings.md), one bit a
// type.
uint32_t TypesOf(format::Encoding encoding) {
  using format::Type;
  constexpr uint32_t kAll = (1u << 8) - 1;
  switch (encoding) {
    case format::Encoding::kPlain:
      return kAll;
    case format::Encoding::kPlainDictionary:
    case format::Encoding::kRleDictionary:
      return kAll & ~Bit(Type::kBoolean);
    case format::Encoding::kRle:
      return Bit(Type::kBoolean);
    case format::Encoding::kDeltaBinaryPacked:
      return Bit(Type::kInt32) | Bit(Type::kInt64);
    case format::Encoding::kDeltaLengthByteArray:
      return Bit(Type::kByteArray);
    case format::Encoding::kDeltaByteArray:
      return Bit(Type::kByteArray) | Bit(Type::kFixedLenByteArray);
    case format::Encoding::kByteStreamSplit:
      return Bit(Type::kInt32) | Bit(Type::kInt64) | Bit(Type::kFloat) | Bit(Type::kDouble) |
             Bit(Type::kFixedLenByteArray);
    default:  // BIT_PACKED (levels only) and unknown values
      return 0;
  }
}

}  // namespace

Result<std::unique_ptr<Decoder>> MakeDecoder(format::Type type, format::Encoding encoding,
                                             int type_length, MemoryPool* pool) {
  if (EnumName(type).empty()) {
    return Status::Invalid("unknown physical type ", static_cast<int>(type));
  }
  if (EnumName(encoding).empty()) {
    return Status::Invalid("unknown encoding ", static_cast<int>(encoding));
  }
  if (type == format::Type::kFixedLenByteArray && type_length <= 0) {
    return Status::Invalid("FIXED_LEN_BYTE_ARRAY values need a positive type_length, not ",
                           type_length);
  }
  const bool dictionary = encoding == format::Encoding::kPlainDictionary ||
                          encoding == format::Encoding::kRleDictionary;
  if (dictionary && type == format::Type::kBoolean) {
    return Status::NotImplemented("dictionary-encoded BOOLEAN values");
  }
  if ((TypesOf(encoding) & Bit(type)) == 0) {
    return Status::Invalid("encoding ", EnumName(encoding), " cannot encode ", EnumName(type),
                           " values");
  }
  if (dictionary) return internal::MakeDictionaryDecoder(type, encoding, type_length, pool);
  switch (encoding) {
    case format::Encoding::kPlain:
      return internal::MakePlainDecoder(type, type_length);
    case format::Encoding::kRle:
      return internal::MakeRleBooleanDecoder();
    case format::Encoding::kByteStreamSplit:
      return internal::MakeByteStreamSplitDecoder(type, type_length);
    default:
      return internal::MakeDeltaDecoder(type, encoding, type_length);
  }
}

}  // namespace quiver::parquet
