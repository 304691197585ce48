// One decoder interface for the values of every Parquet encoding
// (apache/parquet-format Encodings.md), so that a column reader holds one
// decoder per page and calls it once per batch:
//
//   auto decoder = MakeDecoder(format::Type::kInt64, encoding, type_length);
//   decoder->SetDictionary(n, bytes, size);      // dictionary encodings only
//   decoder->SetData(num_values, page, size);    // once per data page
//   static_cast<Int64Decoder&>(*decoder).Decode(batch, out);
//
// Typed interfaces, one per physical type: BooleanDecoder (bitmap bits or
// bytes), TypedDecoder<T> for INT32, INT64, INT96, FLOAT and DOUBLE,
// ByteArrayDecoder (views, or appended to an Arrow offsets + data pair) and
// FixedLenByteArrayDecoder (type_length bytes a value). The implementations
// wrap this module's decoders (plain.h, rle_bit_packed.h,
// dictionary_indices.h, delta_*.h, byte_stream_split.h): one virtual call a
// batch, and inside it their loops.
//
// Safety, for untrusted pages: `num_values` is what the page header says the
// page holds (non-null values). SetData() checks it against what the bytes
// can hold wherever the encoding allows (PLAIN fixed widths and booleans,
// BYTE_STREAM_SPLIT, the DELTA headers' counts), so a huge count allocates
// nothing; a page that ends before `num_values` values is Invalid when the
// decoding reaches its end. Every error is Status::Invalid naming what is
// wrong and, where the encoding has one, the byte offset; asking for more
// values than values_left() is Invalid too. No byte outside
// [data, data + size) is read, and scratch memory is bounded by the batch
// (at most kScratchValues values), never by a count read from the page.
//
// Lifetimes: the decoder does not own the page; the bytes passed to
// SetData() must outlive the decoding of that page. The dictionary is
// copied by SetDictionary(). Byte-array views point into the page (PLAIN,
// DELTA_LENGTH_BYTE_ARRAY), the decoder's dictionary (dictionary encodings)
// or a buffer of the decoder valid until the next Decode or SetData
// (DELTA_BYTE_ARRAY).
//
// The implementations behind MakeDecoder() (decoder_internal.h), one file per kind:
// decoder_plain.cc, decoder_rle_boolean.cc, decoder_dictionary.cc,
// decoder_delta.cc, decoder_byte_stream_split.cc. Each returns nullptr for a
// type it does not serve; MakeDecoder() has checked the pair and the FLBA
// width before calling.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/encoding/plain.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"
#include "quiver/util/result.h"

namespace quiver::parquet {

namespace internal {
template <typename Base>
class RunsAdapter;  // reader/runs_decoder.cc: a decoder standing for another
}  // namespace internal

// A run of a page's values for DecodeRuns (the reader's masked reads):
// `skip` values passed over, then `take` decoded.
struct ValueRun {
  int64_t skip = 0;
  int64_t take = 0;
};

class Decoder {
 public:
  // Values decoded at once into scratch memory by the generic paths (Skip,
  // booleans into bits, dictionary indices, byte arrays into Arrow buffers).
  static constexpr int64_t kScratchValues = 1024;

  virtual ~Decoder() = default;
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  format::Type physical_type() const { return type_; }
  format::Encoding encoding() const { return encoding_; }

  // Starts a page: `num_values` values encoded in data[0, size). Invalid if
  // the bytes cannot hold them (where that can be known before decoding) or
  // their header is malformed; the decoder is then empty (values_left() 0).
  // A page of 0 values may have no bytes at all.
  Status SetData(int64_t num_values, const uint8_t* data, int64_t size);

  // Values of the current page not yet decoded or skipped.
  int64_t values_left() const { return values_left_; }

  // Moves past the next n values (Invalid if n > values_left() or the page
  // is malformed there).
  virtual Status Skip(int64_t n) = 0;

  // Dictionary encodings (PLAIN_DICTIONARY, RLE_DICTIONARY) only, Invalid
  // for the others: the dictionary page's `num_values` values, PLAIN-encoded
  // in data[0, size); decoded and copied, so the bytes may go afterwards.
  // Must come before SetData().
  virtual Status SetDictionary(int64_t num_values, const uint8_t* data, int64_t size);
  // The next n dictionary indices of the page, each checked against the
  // dictionary size (for a reader that keeps an Arrow dictionary column).
  virtual Status DecodeIndices(int64_t n, int32_t* out);
  // Dictionary encodings of BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: the
  // dictionary's values (0 and nothing for the other decoders): entry i's
  // bytes, valid until the next SetDictionary(), for 0 <= i <
  // dictionary_length().
  virtual int64_t dictionary_length() const { return 0; }
  virtual std::string_view dictionary_entry(int64_t) const { return {}; }
  // The same values in Arrow's layout, for a reader that takes them as an
  // Arrow dictionary without copying: BYTE_ARRAY: int32 offsets
  // (dictionary_length() + 1, from 0) and the values' bytes;
  // FIXED_LEN_BYTE_ARRAY: the values' bytes (offsets null). Both null for
  // the other decoders. Immutable: a new SetDictionary() makes new buffers.
  struct DictionaryBuffers {
    std::shared_ptr<Buffer> offsets;
    std::shared_ptr<Buffer> data;
    bool ascii = false;  // BYTE_ARRAY: every byte of `data` is ASCII
  };
  virtual DictionaryBuffers dictionary_buffers() const { return {}; }

 protected:
  Decoder(format::Type type, format::Encoding encoding) : type_(type), encoding_(encoding) {}

  // SetData() for num_values > 0 and size >= 0: reads the page's headers
  // and checks the count against what they (or the size) say is there.
  virtual Status StartPage(int64_t num_values, const uint8_t* data, int64_t size) = 0;

  // Invalid unless 0 <= n <= values_left().
  Status CheckWanted(int64_t n) const;
  // Invalid: the page ended after `decoded` of the n values wanted.
  Status EndedEarly(int64_t n, int64_t decoded) const;
  // Invalid: the header or bytes of a page hold only `available` values.
  Status TooFew(int64_t num_values, int64_t available, const char* where) const;
  // For a decoder that stands for another (internal::RunsAdapter): the
  // encoding it presents, that of the page it reads through.
  void set_encoding(format::Encoding encoding) { encoding_ = encoding; }

  int64_t values_left_ = 0;

 private:
  format::Type type_;
  format::Encoding encoding_;
};

class BooleanDecoder : public Decoder {
 public:
  static constexpr format::Type kType = format::Type::kBoolean;

  // The next n values into bits [out_offset, out_offset + n) of `out_bits`
  // (other bits untouched).
  virtual Status Decode(int64_t n, uint8_t* out_bits, int64_t out_offset) = 0;
  // The same as one byte (false / true) a value.
  virtual Status Decode(int64_t n, bool* out) = 0;

  Status Skip(int64_t n) override;

 protected:
  using Decoder::Decoder;
};

// The physical type of the C++ type T holds.
template <typename T>
constexpr format::Type PhysicalTypeOf() {
  if constexpr (std::is_same_v<T, int32_t>) return format::Type::kInt32;
  if constexpr (std::is_same_v<T, int64_t>) return format::Type::kInt64;
  if constexpr (std::is_same_v<T, Int96>) return format::Type::kInt96;
  if constexpr (std::is_same_v<T, float>) return format::Type::kFloat;
  if constexpr (std::is_same_v<T, double>) return format::Type::kDouble;
}

// INT32, INT64, INT96, FLOAT and DOUBLE.
template <typename T>
class TypedDecoder : public Decoder {
 public:
  static constexpr format::Type kType = PhysicalTypeOf<T>();

  // The next n values.
  virtual Status Decode(int64_t n, T* out) = 0;

  // `num_slots` slots of which those whose validity bit (validity_offset +
  // i) is set take the next values, the others a zero value; nullptr: all
  // valid (Decode). By default one Decode of the valid count into the end
  // of `out`, then moved forward run by run (PLAIN copies runs straight
  // from the page).
  virtual Status DecodeSpaced(int64_t num_slots, const uint8_t* validity,
                              int64_t validity_offset, T* out);

  // For each of runs[0, num_runs): skip its `skip` values, then decode its
  // `take` into out (one after the other). By default a Skip and a Decode
  // a run; PLAIN and dictionaries walk the runs inside one call.
  virtual Status DecodeRuns(const ValueRun* runs, int64_t num_runs, T* out);

  Status Skip(int64_t n) override;

 protected:
  using Decoder::Decoder;
};

// Instantiated in decoder.cc for these five.
using Int32Decoder = TypedDecoder<int32_t>;
using Int64Decoder = TypedDecoder<int64_t>;
using Int96Decoder = TypedDecoder<Int96>;
using FloatDecoder = TypedDecoder<float>;
using DoubleDecoder = TypedDecoder<double>;

class ByteArrayDecoder : public Decoder {
 public:
  static constexpr format::Type kType = format::Type::kByteArray;

  // The next n values as views (see the lifetimes above).
  virtual Status Decode(int64_t n, std::string_view* out) = 0;

  // Appends `num_slots` values to an Arrow binary/utf8 array being built:
  // per slot, its bytes to `data` and its end offset (int32, data->size()
  // after it) to `offsets`, which gets a first offset of 0 if empty. Slots
  // whose validity bit is clear (validity_offset + i; nullptr: all valid)
  // take no value from the page and are empty. CapacityError if `data`
  // would pass 2^31 - 1 bytes. Decodes kScratchValues views at a time
  // (one virtual call each), then copies them. On an error the buffers may
  // hold part of the batch.
  virtual Status DecodeArrow(int64_t num_slots, const uint8_t* validity, int64_t validity_offset,
                             MutableBuffer* offsets, MutableBuffer* data);
  // The same with int64 offsets (large_binary / large_string).
  Status DecodeArrowLarge(int64_t num_slots, const uint8_t* validity, int64_t validity_offset,
                          MutableBuffer* offsets, MutableBuffer* data);

  // An upper bound of the bytes the next n values (n <= values_left())
  // hold, known without decoding them (PLAIN: the page's bytes left;
  // dictionaries: n times the longest entry), or kUnknownBytes
  // (DELTA_BYTE_ARRAY). DecodeArrow copies in one pass where it is known.
  static constexpr int64_t kUnknownBytes = INT64_MAX;
  // DecodeArrow copies at most this many values a DecodeInto call.
  static constexpr int64_t kIntoPiece = 8192;
  virtual int64_t value_bytes_bound(int64_t n) const { return kUnknownBytes; }
  // Whether the values the last DecodeArrow / DecodeArrowLarge appended are
  // all ASCII (so valid UTF-8: no check needed), known from the copy (a
  // dictionary whose entries are all ASCII, PLAIN values copied by the
  // AVX-512 kernel, which ORs the bytes it moves); false when not known.
  bool appended_ascii() const { return appended_ascii_; }

  Status Skip(int64_t n) override;

 protected:
  using Decoder::Decoder;

  // DecodeArrow's one-pass copy, for decoders with a value_bytes_bound():
  // the next n values' bytes to data[0, ...) (room for the bound and
  // kIntoSlack bytes more is there: a copy may write whole words past the
  // last value's end) and their end offsets, base + the bytes so far, to
  // offsets[0, n).
  // Returns the bytes written. An implementation that knows whether the
  // bytes are all ASCII says so with CopiedAscii().
  static constexpr int64_t kIntoSlack = 32;
  virtual Result<int64_t> DecodeInto(int64_t n, int64_t base, int32_t* offsets, uint8_t* data);
  virtual Result<int64_t> DecodeInto(int64_t n, int64_t base, int64_t* offsets, uint8_t* data);
  void CopiedAscii(bool ascii) {
    copied_ascii_ = (copied_ascii_ == kAsciiUnknown || copied_ascii_ == kAscii) && ascii
                        ? kAscii
                        : kNotAscii;
  }

 private:
  template <typename Offset>
  Status AppendArrow(int64_t num_slots, const uint8_t* validity, int64_t validity_offset,
                     MutableBuffer* offsets, MutableBuffer* data);
  // Calls the DecodeInto of the decoder it stands for.
  template <typename Base>
  friend class internal::RunsAdapter;

 private:
  std::vector<std::string_view> views_;  // DecodeArrow's scratch
  // What the DecodeInto calls of one DecodeArrow said (CopiedAscii).
  enum : uint8_t { kAsciiUnknown, kAscii, kNotAscii } copied_ascii_ = kAsciiUnknown;
  bool appended_ascii_ = false;
};

class FixedLenByteArrayDecoder : public Decoder {
 public:
  static constexpr format::Type kType = format::Type::kFixedLenByteArray;

  int type_length() const { return type_length_; }

  // The next n values, n * type_length() bytes.
  virtual Status Decode(int64_t n, uint8_t* out) = 0;
  // TypedDecoder::DecodeRuns for these values.
  virtual Status DecodeRuns(const ValueRun* runs, int64_t num_runs, uint8_t* out);
  // The next n values read as decimals (big-endian two's complement,
  // big_endian_decimal.h) into n little-endian integers of out_width bytes
  // (type_length() <= out_width), sign-extended. By default Decode, then
  // the conversion; dictionaries convert their entries once and gather.
  virtual Status DecodeDecimals(int64_t n, int out_width, uint8_t* out);

  Status Skip(int64_t n) override;

 protected:
  FixedLenByteArrayDecoder(format::Encoding encoding, int type_length)
      : Decoder(kType, encoding), type_length_(type_length) {}

 private:
  int type_length_;
  std::vector<uint8_t> decimal_scratch_;  // DecodeDecimals' Decode output
};

// The decoder of `encoding` for values of physical type `type`
// (`type_length`: the FIXED_LEN_BYTE_ARRAY width, > 0; ignored for the other
// types). Invalid for a pair the format does not allow (RLE for anything but
// BOOLEAN, DELTA_BINARY_PACKED for anything but INT32/INT64,
// DELTA_LENGTH_BYTE_ARRAY for anything but BYTE_ARRAY, DELTA_BYTE_ARRAY for
// anything but BYTE_ARRAY/FLBA, BYTE_STREAM_SPLIT for BOOLEAN, INT96 or
// BYTE_ARRAY, BIT_PACKED, which only levels use, unknown encodings);
// NotImplemented for dictionary-encoded BOOLEAN, which no writer produces.
// `pool`: where dictionary encodings keep their decoded dictionary (a
// reader passes its capped pool).
Result<std::unique_ptr<Decoder>> MakeDecoder(format::Type type, format::Encoding encoding,
                                             int type_length = -1,
                                             MemoryPool* pool = DefaultMemoryPool());

// MakeDecoder() for the interface D (BooleanDecoder, Int32Decoder, ...,
// FixedLenByteArrayDecoder) of its physical type.
template <typename D>
Result<std::unique_ptr<D>> MakeTypedDecoder(format::Encoding encoding, int type_length = -1) {
  QUIVER_ASSIGN_OR_RAISE(auto decoder, MakeDecoder(D::kType, encoding, type_length));
  return std::unique_ptr<D>(static_cast<D*>(decoder.release()));
}

}  // namespace quiver::parquet

namespace quiver::parquet::internal {

std::unique_ptr<Decoder> MakePlainDecoder(format::Type type, int type_length);
std::unique_ptr<Decoder> MakeRleBooleanDecoder();
std::unique_ptr<Decoder> MakeDictionaryDecoder(format::Type type, format::Encoding encoding,
                                               int type_length, MemoryPool* pool);
// DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY.
std::unique_ptr<Decoder> MakeDeltaDecoder(format::Type type, format::Encoding encoding,
                                          int type_length);
std::unique_ptr<Decoder> MakeByteStreamSplitDecoder(format::Type type, int type_length);

}  // namespace quiver::parquet::internal
