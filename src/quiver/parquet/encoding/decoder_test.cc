#include "quiver/parquet/encoding/decoder_internal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "quiver/parquet/encoding/byte_stream_split.h"
#include "quiver/parquet/encoding/delta_binary_packed.h"
#include "quiver/parquet/encoding/delta_byte_array.h"
#include "quiver/parquet/encoding/delta_length_byte_array.h"
#include "quiver/parquet/encoding/dictionary_indices.h"
#include "quiver/parquet/encoding/plain.h"
#include "quiver/parquet/encoding/rle_bit_packed.h"
#include "quiver/parquet/encoding/spaced_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet {
namespace {
namespace QUIVER_UNITY_ID {

using format::Type;
using Bytes = std::vector<uint8_t>;
// Every value as its bytes: fixed widths as stored (little endian), booleans
// as "\0" / "\1", byte arrays as themselves.
using Values = std::vector<std::string>;

#define ASSERT_OK(expr)                                     \
  do {                                                      \
    const ::quiver::Status _st = (expr);                    \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.ToString(); \
  } while (false)

Bytes ToBytes(const MutableBuffer& buffer) {
  return Bytes(buffer.data(), buffer.data() + buffer.size());
}

std::string Concat(const Values& values) {
  std::string out;
  for (const auto& v : values) out += v;
  return out;
}

int FixedWidth(Type type, int type_length) {
  switch (type) {
    case Type::kInt32:
    case Type::kFloat:
      return 4;
    case Type::kInt64:
    case Type::kDouble:
      return 8;
    case Type::kInt96:
      return 12;
    case Type::kFixedLenByteArray:
      return type_length;
    default:
      return 0;
  }
}

// n values drawn from a pool of `distinct` random ones (so that dictionaries
// are small), of the type's width; byte arrays of 0 to 20 bytes.
Values MakeValues(Type type, int type_length, int64_t n, uint64_t seed, int distinct = 37) {
  std::mt19937_64 rng(seed);
  const int width = FixedWidth(type, type_length);
  Values pool;
  for (int i = 0; i < distinct; ++i) {
    std::string v;
    if (type == Type::kBoolean) {
      v = std::string(1, static_cast<char>(rng() & 1));
    } else {
      const size_t size = width > 0 ? static_cast<size_t>(width) : rng() % 21;
      for (size_t b = 0; b < size; ++b) v.push_back(static_cast<char>(rng()));
    }
    pool.push_back(v);
  }
  Values out;
  for (int64_t i = 0; i < n; ++i) out.push_back(pool[rng() % pool.size()]);
  return out;
}

// A page as a writer makes it.
struct Page {
  Type type;
  format::Encoding encoding;
  int type_length = -1;
  Values values;
  Bytes data;
  // Dictionary encodings: the PLAIN dictionary page.
  Bytes dictionary;
  int64_t dictionary_size = 0;

  std::string Name() const {
    return std::string(EnumName(type)) + "/" + std::string(EnumName(encoding)) +
           (type == Type::kFixedLenByteArray ? "(" + std::to_string(type_length) + ")" : "");
  }
};

Status PlainEncodeValues(Type type, int type_length, const Values& values, MutableBuffer* out) {
  if (type == Type::kBoolean) {
    PlainBooleanEncoder encoder(out);
    for (const auto& v : values) QUIVER_RETURN_NOT_OK(encoder.Put(v[0] != 0));
    encoder.Flush();
    return Status::OK();
  }
  if (type == Type::kByteArray) {
    for (const auto& v : values) QUIVER_RETURN_NOT_OK(PlainEncodeByteArray(v, out));
    return Status::OK();
  }
  const std::string all = Concat(values);
  return PlainEncodeFixedWidth(all.data(), static_cast<int64_t>(values.size()),
                               FixedWidth(type, type_length), nullptr, 0, out);
}

// Encodes `values` with Quiver's encoders.
Page Encode(Type type, format::Encoding encoding, int type_length, Values values) {
  Page page{type, encoding, type_length, std::move(values), {}, {}, 0};
  const auto n = static_cast<int64_t>(page.values.size());
  const std::string all = Concat(page.values);
  const int width = FixedWidth(type, type_length);
  MutableBuffer out;
  Status st;
  switch (encoding) {
    case format::Encoding::kPlain:
      st = PlainEncodeValues(type, type_length, page.values, &out);
      break;
    case format::Encoding::kRle: {
      RleBitPackedEncoder encoder(1, &out, /*length_prefix=*/true);
      for (const auto& v : page.values) st = encoder.Put(v[0] != 0);
      if (st.ok()) st = encoder.Flush().status();
      break;
    }
    case format::Encoding::kPlainDictionary:
    case format::Encoding::kRleDictionary: {
      std::map<std::string, int32_t> index;
      Values uniques;
      std::vector<int32_t> indices;
      for (const auto& v : page.values) {
        auto [it, inserted] = index.emplace(v, static_cast<int32_t>(uniques.size()));
        if (inserted) uniques.push_back(v);
        indices.push_back(it->second);
      }
      MutableBuffer dictionary;
      st = PlainEncodeValues(type, type_length, uniques, &dictionary);
      page.dictionary = ToBytes(dictionary);
      page.dictionary_size = static_cast<int64_t>(uniques.size());
      if (st.ok()) {
        st = EncodeDictionaryIndices(indices.data(), n, MinBitWidth(page.dictionary_size), &out)
                 .status();
      }
      break;
    }
    case format::Encoding::kDeltaBinaryPacked:
      if (type == Type::kInt32) {
        DeltaBinaryPackedEncoder<int32_t> encoder;
        st = encoder.Put(reinterpret_cast<const int32_t*>(all.data()), n);
        if (st.ok()) st = encoder.Flush(&out).status();
      } else {
        DeltaBinaryPackedEncoder<int64_t> encoder;
        st = encoder.Put(reinterpret_cast<const int64_t*>(all.data()), n);
        if (st.ok()) st = encoder.Flush(&out).status();
      }
      break;
    case format::Encoding::kDeltaLengthByteArray: {
      DeltaLengthByteArrayEncoder encoder;
      for (const auto& v : page.values) st = encoder.Put(v);
      if (st.ok()) st = encoder.Flush(&out).status();
      break;
    }
    case format::Encoding::kDeltaByteArray: {
      DeltaByteArrayEncoder encoder;
      if (type == Type::kByteArray) {
        for (const auto& v : page.values) st = encoder.Put(v);
      } else {
        st = encoder.PutFixedLen(reinterpret_cast<const uint8_t*>(all.data()), n, width, nullptr,
                                 0);
      }
      if (st.ok()) st = encoder.Flush(&out).status();
      break;
    }
    case format::Encoding::kByteStreamSplit: {
      ByteStreamSplitEncoder encoder(width);
      st = encoder.Put(all.data(), n);
      if (st.ok()) st = encoder.Flush(&out).status();
      break;
    }
    default:
      st = Status::NotImplemented("no encoder");
  }
  st.Abort(page.Name());
  page.data = ToBytes(out);
  return page;
}

// Every (type, encoding) pair a page can have, with n values each.
std::vector<Page> AllPages(int64_t n, uint64_t seed) {
  struct Pair {
    Type type;
    format::Encoding encoding;
    int type_length;
  };
  std::vector<Pair> pairs = {
      {Type::kBoolean, format::Encoding::kPlain, -1},
      {Type::kBoolean, format::Encoding::kRle, -1},
      {Type::kInt96, format::Encoding::kPlain, -1},
      {Type::kInt96, format::Encoding::kRleDictionary, -1},
      {Type::kByteArray, format::Encoding::kPlain, -1},
      {Type::kByteArray, format::Encoding::kPlainDictionary, -1},
      {Type::kByteArray, format::Encoding::kRleDictionary, -1},
      {Type::kByteArray, format::Encoding::kDeltaLengthByteArray, -1},
      {Type::kByteArray, format::Encoding::kDeltaByteArray, -1},
  };
  for (Type type : {Type::kInt32, Type::kInt64, Type::kFloat, Type::kDouble}) {
    for (format::Encoding e : {format::Encoding::kPlain, format::Encoding::kPlainDictionary,
                               format::Encoding::kRleDictionary, format::Encoding::kByteStreamSplit}) {
      pairs.push_back({type, e, -1});
    }
    if (type == Type::kInt32 || type == Type::kInt64) {
      pairs.push_back({type, format::Encoding::kDeltaBinaryPacked, -1});
    }
  }
  for (int length : {2, 3, 4, 8, 16}) {  // 2: FLOAT16; 2, 4, 8, 16: Gather<kWidth>
    for (format::Encoding e : {format::Encoding::kPlain, format::Encoding::kRleDictionary,
                               format::Encoding::kDeltaByteArray, format::Encoding::kByteStreamSplit}) {
      pairs.push_back({Type::kFixedLenByteArray, e, length});
    }
  }
  std::vector<Page> pages;
  for (const auto& p : pairs) {
    pages.push_back(Encode(p.type, p.encoding, p.type_length,
                           MakeValues(p.type, p.type_length, n, seed++)));
  }
  return pages;
}

template <typename T>
Status ReadFixed(Decoder& decoder, int64_t n, int mode, Values* out) {
  auto& typed = static_cast<TypedDecoder<T>&>(decoder);
  std::vector<T> values(static_cast<size_t>(n));
  if (mode == 0) {
    QUIVER_RETURN_NOT_OK(typed.Decode(n, values.data()));
  } else {  // all valid through the spaced path
    std::vector<uint8_t> validity(static_cast<size_t>(n / 8 + 2), 0xFF);
    QUIVER_RETURN_NOT_OK(typed.DecodeSpaced(n, validity.data(), 5, values.data()));
  }
  for (const T& v : values) out->emplace_back(reinterpret_cast<const char*>(&v), sizeof(T));
  return Status::OK();
}

// Decodes the next n values through the typed interface of the decoder's
// type; mode 1 takes the other path (booleans as bytes, byte arrays into
// Arrow buffers, fixed widths spaced).
Status Read(Decoder& decoder, int64_t n, int mode, Values* out) {
  switch (decoder.physical_type()) {
    case Type::kBoolean: {
      auto& typed = static_cast<BooleanDecoder&>(decoder);
      if (mode == 0) {
        std::vector<uint8_t> bits(static_cast<size_t>(n / 8 + 2), 0xA5);
        QUIVER_RETURN_NOT_OK(typed.Decode(n, bits.data(), 3));
        for (int64_t i = 0; i < n; ++i) {
          out->push_back(std::string(1, bit_util::GetBit(bits.data(), 3 + i) ? 1 : 0));
        }
        // The bits around the values are untouched.
        const bool after = bit_util::GetBit(bits.data(), 3 + n);
        if (!(bits[0] & 1) || after != (((0xA5 >> ((3 + n) % 8)) & 1) != 0)) {
          return Status::Invalid("bits outside the output range changed");
        }
      } else {
        std::unique_ptr<bool[]> bools(new bool[static_cast<size_t>(n) + 1]);
        QUIVER_RETURN_NOT_OK(typed.Decode(n, bools.get()));
        for (int64_t i = 0; i < n; ++i) out->push_back(std::string(1, bools[i] ? 1 : 0));
      }
      return Status::OK();
    }
    case Type::kInt32:
      return ReadFixed<int32_t>(decoder, n, mode, out);
    case Type::kInt64:
      return ReadFixed<int64_t>(decoder, n, mode, out);
    case Type::kInt96:
      return ReadFixed<Int96>(decoder, n, mode, out);
    case Type::kFloat:
      return ReadFixed<float>(decoder, n, mode, out);
    case Type::kDouble:
      return ReadFixed<double>(decoder, n, mode, out);
    case Type::kByteArray: {
      auto& typed = static_cast<ByteArrayDecoder&>(decoder);
      if (mode == 0) {
        std::vector<std::string_view> views(static_cast<size_t>(n));
        QUIVER_RETURN_NOT_OK(typed.Decode(n, views.data()));
        for (auto v : views) out->emplace_back(v);
      } else {
        MutableBuffer offsets, data;
        QUIVER_RETURN_NOT_OK(typed.DecodeArrow(n, nullptr, 0, &offsets, &data));
        const auto* o = offsets.data_as<int32_t>();
        if (offsets.size() != (n + 1) * 4 || o[0] != 0 || o[n] != data.size()) {
          return Status::Invalid("bad offsets");
        }
        for (int64_t i = 0; i < n; ++i) {
          out->emplace_back(reinterpret_cast<const char*>(data.data()) + o[i], o[i + 1] - o[i]);
        }
      }
      return Status::OK();
    }
    case Type::kFixedLenByteArray: {
      auto& typed = static_cast<FixedLenByteArrayDecoder&>(decoder);
      const int width = typed.type_length();
      std::vector<char> bytes(static_cast<size_t>(n * width));
      QUIVER_RETURN_NOT_OK(typed.Decode(n, reinterpret_cast<uint8_t*>(bytes.data())));
      for (int64_t i = 0; i < n; ++i) out->emplace_back(bytes.data() + i * width, width);
      return Status::OK();
    }
  }
  return Status::Invalid("unknown type");
}

std::unique_ptr<Decoder> MakeFor(const Page& page) {
  auto decoder = MakeDecoder(page.type, page.encoding, page.type_length);
  decoder.status().Abort(page.Name());
  if (page.encoding == format::Encoding::kRleDictionary || page.encoding == format::Encoding::kPlainDictionary) {
    (*decoder)->SetDictionary(page.dictionary_size, page.dictionary.data(),
                              static_cast<int64_t>(page.dictionary.size()))
        .Abort(page.Name());
  }
  return *std::move(decoder);
}

// Exactly `size` bytes on the heap, so that ASan sees a read past them.
std::unique_ptr<uint8_t[]> ExactCopy(const Bytes& bytes, size_t size) {
  std::unique_ptr<uint8_t[]> copy(new uint8_t[size == 0 ? 1 : size]);
  if (size > 0) std::memcpy(copy.get(), bytes.data(), size);
  return copy;
}

// Reads the page through a fresh decoder in batches of `batch`, every third
// batch skipped if `skips`, checking values_left() as it goes.
void ReadAll(const Page& page, int64_t batch, bool skips, int mode) {
  SCOPED_TRACE(page.Name() + " batch " + std::to_string(batch) + (skips ? " skips" : "") +
               " mode " + std::to_string(mode));
  auto decoder = MakeFor(page);
  const auto n = static_cast<int64_t>(page.values.size());
  auto copy = ExactCopy(page.data, page.data.size());
  ASSERT_OK(decoder->SetData(n, copy.get(), static_cast<int64_t>(page.data.size())));
  int64_t i = 0;
  for (int step = 0; i < n; ++step) {
    const int64_t m = std::min(batch, n - i);
    if (skips && step % 3 == 1) {
      ASSERT_OK(decoder->Skip(m));
    } else {
      Values got;
      ASSERT_OK(Read(*decoder, m, mode, &got));
      for (int64_t j = 0; j < m; ++j) {
        ASSERT_EQ(got[j], page.values[i + j]) << "value " << i + j;
      }
    }
    i += m;
    ASSERT_EQ(decoder->values_left(), n - i);
  }
  Values more;
  EXPECT_TRUE(Read(*decoder, 1, mode, &more).IsInvalid());
  EXPECT_TRUE(decoder->Skip(1).IsInvalid());
}

TEST(DecoderTest, EveryTypeAndEncodingInBatchesAndSkips) {
  for (const Page& page : AllPages(1000, 1)) {
    for (int64_t batch : {int64_t{1}, int64_t{7}, int64_t{100}, int64_t{1000}}) {
      for (bool skips : {false, true}) {
        for (int mode : {0, 1}) ReadAll(page, batch, skips, mode);
      }
    }
  }
}

// DecodeRuns (the reader's masked reads) of every fixed-width page against
// decoding everything: random (skip, take) runs, then the rest decoded.
Status DecodeRuns(Decoder& decoder, const std::vector<ValueRun>& runs, int64_t taken,
                  Values* out) {
  const auto n = static_cast<int64_t>(runs.size());
  switch (decoder.physical_type()) {
#define QUIVER_RUNS_CASE(KIND, T)                                                              \
  case Type::KIND: {                                                                          \
    std::vector<T> values(static_cast<size_t>(taken));                                        \
    QUIVER_RETURN_NOT_OK(static_cast<TypedDecoder<T>&>(decoder).DecodeRuns(runs.data(), n,    \
                                                                          values.data()));   \
    for (const T& v : values) out->emplace_back(reinterpret_cast<const char*>(&v), sizeof(T)); \
    return Status::OK();                                                                      \
  }
    QUIVER_RUNS_CASE(kInt32, int32_t)
    QUIVER_RUNS_CASE(kInt64, int64_t)
    QUIVER_RUNS_CASE(kInt96, Int96)
    QUIVER_RUNS_CASE(kFloat, float)
    QUIVER_RUNS_CASE(kDouble, double)
#undef QUIVER_RUNS_CASE
    case Type::kFixedLenByteArray: {
      auto& typed = static_cast<FixedLenByteArrayDecoder&>(decoder);
      std::vector<char> bytes(static_cast<size_t>(taken * typed.type_length()));
      QUIVER_RETURN_NOT_OK(
          typed.DecodeRuns(runs.data(), n, reinterpret_cast<uint8_t*>(bytes.data())));
      for (int64_t i = 0; i < taken; ++i) {
        out->emplace_back(bytes.data() + i * typed.type_length(), typed.type_length());
      }
      return Status::OK();
    }
    default:
      return Status::Invalid("no DecodeRuns");
  }
}

TEST(DecoderTest, DecodeRunsEqualsDecodeSliced) {
  std::mt19937_64 rng(45);
  for (const Page& page : AllPages(3000, 77)) {
    if (page.type == Type::kBoolean || page.type == Type::kByteArray) continue;
    SCOPED_TRACE(page.Name());
    const auto n = static_cast<int64_t>(page.values.size());
    for (int round = 0; round < 4; ++round) {
      std::vector<ValueRun> runs;
      Values want;
      int64_t pos = 0;
      int64_t taken = 0;
      // Short runs (1-3 values) among skips of up to 60, or long ones.
      while (pos < n / 2) {
        const int64_t skip = static_cast<int64_t>(rng() % (round == 3 ? 3 : 60));
        const int64_t take = 1 + static_cast<int64_t>(rng() % (round == 3 ? 200 : 3));
        if (pos + skip + take > n) break;
        runs.push_back({skip, take});
        want.insert(want.end(), page.values.begin() + pos + skip,
                    page.values.begin() + pos + skip + take);
        pos += skip + take;
        taken += take;
      }
      auto decoder = MakeFor(page);
      ASSERT_OK(decoder->SetData(n, page.data.data(), static_cast<int64_t>(page.data.size())));
      Values got;
      ASSERT_OK(DecodeRuns(*decoder, runs, taken, &got));
      ASSERT_EQ(got, want);
      EXPECT_EQ(decoder->values_left(), n - pos);
      Values rest;
      ASSERT_OK(Read(*decoder, n - pos, 0, &rest));  // goes on where the runs ended
      ASSERT_TRUE(std::equal(rest.begin(), rest.end(), page.values.begin() + pos));
      // Runs past the page's values: Invalid.
      auto again = MakeFor(page);
      ASSERT_OK(again->SetData(n, page.data.data(), static_cast<int64_t>(page.data.size())));
      Values none;
      EXPECT_TRUE(DecodeRuns(*again, {{n, 1}}, 1, &none).IsInvalid());
    }
  }
}

TEST(DecoderTest, EmptyPages) {
  for (const Page& page : AllPages(0, 2)) {
    SCOPED_TRACE(page.Name());
    auto decoder = MakeFor(page);
    ASSERT_OK(decoder->SetData(0, page.data.data(), static_cast<int64_t>(page.data.size())));
    EXPECT_EQ(decoder->values_left(), 0);
    Values got;
    ASSERT_OK(Read(*decoder, 0, 0, &got));
    // No bytes at all is an empty page too.
    ASSERT_OK(decoder->SetData(0, nullptr, 0));
  }
}

TEST(DecoderTest, PagesInSequenceReuseTheDecoder) {
  for (const Page& page : AllPages(300, 3)) {
    SCOPED_TRACE(page.Name());
    auto decoder = MakeFor(page);
    for (int round = 0; round < 3; ++round) {
      ASSERT_OK(decoder->SetData(300, page.data.data(), static_cast<int64_t>(page.data.size())));
      Values got;
      ASSERT_OK(Read(*decoder, 300, round % 2, &got));
      ASSERT_EQ(got, page.values);
    }
  }
}

TEST(DecoderTest, SpacedFixedWidthsWithNulls) {
  std::mt19937_64 rng(4);
  const int64_t slots = 777;
  std::vector<uint8_t> validity(slots / 8 + 2, 0);
  std::vector<bool> valid(slots);
  int64_t num_valid = 0;
  for (int64_t i = 0; i < slots; ++i) {
    valid[i] = rng() % 4 != 0;
    if (valid[i]) {
      bit_util::SetBit(validity.data(), 1 + i);
      ++num_valid;
    }
  }
  {
    Page page = Encode(Type::kInt64, format::Encoding::kDeltaBinaryPacked, -1,
                       MakeValues(Type::kInt64, -1, num_valid, 5));
    auto decoder = MakeFor(page);
    ASSERT_OK(decoder->SetData(num_valid, page.data.data(),
                               static_cast<int64_t>(page.data.size())));
    std::vector<int64_t> out(slots, -1);
    ASSERT_OK(static_cast<Int64Decoder&>(*decoder).DecodeSpaced(slots, validity.data(), 1,
                                                                 out.data()));
    int64_t next = 0;
    for (int64_t i = 0; i < slots; ++i) {
      int64_t expected = 0;
      if (valid[i]) std::memcpy(&expected, page.values[next++].data(), 8);
      ASSERT_EQ(out[i], expected) << i;
    }
    EXPECT_EQ(decoder->values_left(), 0);
  }
}

// Binary values appended to Arrow offsets and data (32- and 64-bit
// offsets) with null slots: random (words of both kinds of slots), runs
// of 128 (words all valid, then all null) and of 150 (runs across words),
// none valid, all valid; after what the buffers hold already, from a validity bitmap
// at a bit offset.
template <typename Offset>
void AppendBinaryWithNulls() {
  std::mt19937_64 rng(4);
  const int64_t slots = 777;
  for (int pattern = 0; pattern < 5; ++pattern) {
    std::vector<uint8_t> validity(slots / 8 + 2, 0);
    std::vector<bool> valid(slots);
    int64_t num_valid = 0;
    for (int64_t i = 0; i < slots; ++i) {
      valid[i] = pattern == 0   ? rng() % 4 != 0
                 : pattern == 1 ? (i / 128) % 2 == 1
                 : pattern == 4 ? (i / 150) % 2 == 1
                                : pattern == 3;
      if (valid[i]) {
        bit_util::SetBit(validity.data(), 1 + i);
        ++num_valid;
      }
    }
    for (format::Encoding encoding : {format::Encoding::kPlain, format::Encoding::kRleDictionary,
                              format::Encoding::kDeltaLengthByteArray, format::Encoding::kDeltaByteArray}) {
      Page page =
          Encode(Type::kByteArray, encoding, -1, MakeValues(Type::kByteArray, -1, num_valid, 6));
      SCOPED_TRACE(testing::Message() << page.Name() << " pattern " << pattern << " offsets "
                                      << sizeof(Offset) * 8);
      auto decoder = MakeFor(page);
      ASSERT_OK(decoder->SetData(num_valid, page.data.data(),
                                 static_cast<int64_t>(page.data.size())));
      MutableBuffer offsets, data;
      ASSERT_OK(offsets.Append(Offset{0}));
      ASSERT_OK(offsets.Append(Offset{3}));
      ASSERT_OK(data.ExtendFromSlice("abc", 3));
      auto& typed = static_cast<ByteArrayDecoder&>(*decoder);
      if constexpr (sizeof(Offset) == 4) {
        ASSERT_OK(typed.DecodeArrow(slots, validity.data(), 1, &offsets, &data));
      } else {
        ASSERT_OK(typed.DecodeArrowLarge(slots, validity.data(), 1, &offsets, &data));
      }
      ASSERT_EQ(offsets.size(), (slots + 2) * static_cast<int64_t>(sizeof(Offset)));
      const auto* o = offsets.data_as<Offset>() + 1;
      int64_t next = 0;
      for (int64_t i = 0; i < slots; ++i) {
        ASSERT_LE(o[i], o[i + 1]) << i;
        const std::string got(reinterpret_cast<const char*>(data.data()) + o[i],
                              static_cast<size_t>(o[i + 1] - o[i]));
        ASSERT_EQ(got, valid[i] ? page.values[next++] : "") << i;
      }
      EXPECT_EQ(o[slots], data.size());
      EXPECT_EQ(decoder->values_left(), 0);
    }
  }
}

TEST(DecoderTest, ArrowBinaryWithNulls) {
  AppendBinaryWithNulls<int32_t>();
  AppendBinaryWithNulls<int64_t>();
}

// spaced_internal.h: values spaced out to their slots (any width),
// from a buffer of their own and from the tail of the output, for every word shape (all
// null, all valid, few valid, many valid), partial words and offsets, by the
// portable loops and (where the CPU has them) the AVX-512 kernels. The
// values' buffer has exactly `valid` values (ASan: nothing read past it).
void ExpandAtEveryDensityAndWidth() {
  std::mt19937_64 rng(11);
  for (int width : {1, 2, 3, 4, 8, 12, 16}) {  // 3, 12: run by run
    for (int64_t slots : {0, 1, 63, 64, 65, 1000}) {
      for (int per_mille : {0, 10, 100, 500, 900, 1000, -1}) {  // -1: runs of 70
        for (int64_t offset : {0, 3}) {
          SCOPED_TRACE(testing::Message() << width << " " << slots << " " << per_mille << " "
                                          << offset);
          std::vector<uint8_t> validity(static_cast<size_t>((slots + offset) / 8 + 1), 0);
          std::vector<bool> valid(static_cast<size_t>(slots));
          int64_t count = 0;
          for (int64_t i = 0; i < slots; ++i) {
            valid[i] = per_mille < 0 ? (i / 70) % 2 == 0
                                     : static_cast<int>(rng() % 1000) < per_mille;
            if (valid[i]) {
              bit_util::SetBit(validity.data(), offset + i);
              ++count;
            }
          }
          std::vector<uint8_t> values(static_cast<size_t>(count * width));
          for (auto& byte : values) byte = static_cast<uint8_t>(rng() | 1);  // never 0
          std::vector<uint8_t> expected(static_cast<size_t>(slots * width), 0);
          for (int64_t i = 0, j = 0; i < slots; ++i) {
            if (valid[i]) std::memcpy(&expected[i * width], &values[(j++) * width], width);
          }
          std::vector<uint8_t> out(static_cast<size_t>(slots * width), 0xCC);
          internal::ExpandSpaced(width, values.data(), count, validity.data(), offset, slots,
                                 out.data());
          EXPECT_EQ(out, expected);
          // In place: the values decoded at the end of the slots first.
          std::vector<uint8_t> in_place(static_cast<size_t>(slots * width), 0xCC);
          std::copy(values.begin(), values.end(), in_place.end() - count * width);
          internal::ExpandSpaced(width, in_place.data() + (slots - count) * width, count,
                                 validity.data(), offset, slots, in_place.data());
          EXPECT_EQ(in_place, expected);
        }
      }
    }
  }
}

TEST(SpacedTest, ExpandAtEveryDensityAndWidth) {
  for (bool simd : {false, true}) {
    SCOPED_TRACE(simd ? "AVX-512 kernels" : "portable loops");
    const bool was = internal::SetSpacedSimd(simd);
    if (simd && !internal::SpacedSimdEnabled(4)) {
      std::printf("(no AVX-512 here: the kernels are not run)\n");
    }
    ExpandAtEveryDensityAndWidth();
    internal::SetSpacedSimd(was);
  }
}

// Decodes every value of a page after SetData(num_values, data, size);
// the status of the first failure, or OK with the values in *got.
Status DecodeEverything(const Page& page, int64_t num_values, const uint8_t* data, int64_t size,
                        Values* got) {
  auto decoder = MakeFor(page);
  QUIVER_RETURN_NOT_OK(decoder->SetData(num_values, data, size));
  while (decoder->values_left() > 0) {
    QUIVER_RETURN_NOT_OK(Read(*decoder, std::min<int64_t>(7, decoder->values_left()), 0, got));
  }
  return Status::OK();
}

// Encodings whose page size alone shows a truncation.
bool TruncationAlwaysShows(const Page& page) {
  return page.encoding == format::Encoding::kPlain || page.encoding == format::Encoding::kRle ||
         page.encoding == format::Encoding::kByteStreamSplit;
}

TEST(DecoderTest, TruncatedPagesAtEveryLengthAreInvalid) {
  for (const Page& page : AllPages(40, 7)) {
    SCOPED_TRACE(page.Name());
    for (size_t len = 0; len < page.data.size(); ++len) {
      auto copy = ExactCopy(page.data, len);
      Values got;
      const Status st = DecodeEverything(page, 40, copy.get(), static_cast<int64_t>(len), &got);
      if (st.ok()) {
        // Only bytes no value needed (padding of the last bit-packed group
        // or miniblock) may go unnoticed; the values must still be right.
        ASSERT_FALSE(TruncationAlwaysShows(page)) << "length " << len;
        ASSERT_EQ(got, page.values) << "length " << len;
      } else {
        ASSERT_TRUE(st.IsInvalid()) << "length " << len << ": " << st.ToString();
      }
    }
    // The dictionary page too.
    for (size_t len = 0; len < page.dictionary.size(); ++len) {
      auto decoder = MakeDecoder(page.type, page.encoding, page.type_length);
      ASSERT_OK(decoder.status());
      auto copy = ExactCopy(page.dictionary, len);
      const Status st =
          (*decoder)->SetDictionary(page.dictionary_size, copy.get(), static_cast<int64_t>(len));
      ASSERT_TRUE(st.IsInvalid()) << "dictionary length " << len << ": " << st.ToString();
      EXPECT_TRUE((*decoder)->SetData(1, page.data.data(), 1).IsInvalid());
    }
  }
}

TEST(DecoderTest, HeaderCountsAboveTheValuesPresentAreInvalid) {
  for (const Page& page : AllPages(100, 8)) {
    SCOPED_TRACE(page.Name());
    const auto size = static_cast<int64_t>(page.data.size());
    // The last bit-packed group of an RLE/bit-packed run may hold up to 7
    // padding values, which nothing tells from real ones: 8 more is wrong
    // for every encoding, 1 more for those that count their values.
    const bool counted = page.encoding != format::Encoding::kRle &&
                         page.encoding != format::Encoding::kRleDictionary &&
                         page.encoding != format::Encoding::kPlainDictionary &&
                         !(page.encoding == format::Encoding::kPlain && page.type == Type::kBoolean);
    for (int64_t extra : {int64_t{1}, int64_t{8}}) {
      if (extra == 1 && !counted) continue;
      Values got;
      const Status st = DecodeEverything(page, 100 + extra, page.data.data(), size, &got);
      ASSERT_TRUE(st.IsInvalid()) << extra << ": " << st.ToString();
      if (counted) {
        EXPECT_NE(st.message().find("100"), std::string::npos) << st.ToString();
      }
    }
    // Asking for more than the header's count.
    auto decoder = MakeFor(page);
    ASSERT_OK(decoder->SetData(100, page.data.data(), size));
    Values got;
    const Status st = Read(*decoder, 101, 0, &got);
    ASSERT_TRUE(st.IsInvalid());
    EXPECT_NE(st.message().find("101 values wanted but only 100"), std::string::npos)
        << st.ToString();
    EXPECT_TRUE(decoder->Skip(-1).IsInvalid());
  }
}

TEST(DecoderTest, HugeValueCountsAllocateNothing) {
  const int64_t huge = int64_t{1} << 60;
  for (const Page& page : AllPages(50, 9)) {
    SCOPED_TRACE(page.Name());
    auto decoder = MakeFor(page);
    const Status st =
        decoder->SetData(huge, page.data.data(), static_cast<int64_t>(page.data.size()));
    if (!st.ok()) {
      ASSERT_TRUE(st.IsInvalid()) << st.ToString();
      EXPECT_EQ(decoder->values_left(), 0);
      continue;
    }
    // Runs may stand for any count: the data ends, scratch stays bounded.
    EXPECT_TRUE(page.encoding == format::Encoding::kRle || page.encoding == format::Encoding::kRleDictionary ||
                page.encoding == format::Encoding::kPlainDictionary);
    const Status skip = decoder->Skip(huge);
    ASSERT_TRUE(skip.IsInvalid()) << skip.ToString();
    EXPECT_NE(skip.message().find("ends after"), std::string::npos) << skip.ToString();
  }
  // Negative counts.
  for (const Page& page : AllPages(5, 10)) {
    auto decoder = MakeFor(page);
    EXPECT_TRUE(decoder->SetData(-1, page.data.data(), static_cast<int64_t>(page.data.size()))
                    .IsInvalid())
        << page.Name();
  }
  // A dictionary page claiming more values than its bytes hold.
  for (Type type : {Type::kInt32, Type::kByteArray, Type::kFixedLenByteArray}) {
    auto decoder = MakeDecoder(type, format::Encoding::kRleDictionary, 4);
    ASSERT_OK(decoder.status());
    const uint8_t bytes[8] = {};
    EXPECT_TRUE((*decoder)->SetDictionary(huge, bytes, 8).IsInvalid());
  }
}

// A dictionary of 5 values and 40 indices 0..7 at bit width 3 (7 in the
// first 16 of a batch of 40, then among the last 10). An index out of
// range is an error where it is decoded; a skip passes over it unchecked
// (a masked read skips the values of the rows it does not take).
TEST(DecoderTest, DictionaryIndexOutOfRange) {
  std::vector<int32_t> indices = {0, 1, 2, 3, 4, 4, 3, 7, 0, 1};
  indices.resize(40, 2);
  MutableBuffer page;
  ASSERT_OK(EncodeDictionaryIndices(indices.data(), 40, 3, &page).status());
  for (Type type : {Type::kInt32, Type::kDouble, Type::kInt96, Type::kByteArray,
                    Type::kFixedLenByteArray}) {
    SCOPED_TRACE(EnumName(type));
    Values dictionary = MakeValues(type, 6, 5, 11, 5);
    MutableBuffer dictionary_page;
    ASSERT_OK(PlainEncodeValues(type, 6, dictionary, &dictionary_page));
    auto decoder = MakeDecoder(type, format::Encoding::kRleDictionary, 6);
    ASSERT_OK(decoder.status());
    ASSERT_OK((*decoder)->SetDictionary(5, dictionary_page.data(), dictionary_page.size()));
    for (int path = 0; path < 5; ++path) {
      ASSERT_OK((*decoder)->SetData(40, page.data(), page.size()));
      Values got;
      Status st;
      if (path == 0) {
        st = Read(**decoder, 40, 0, &got);
      } else if (path == 1) {
        std::vector<int32_t> out(10);
        st = (*decoder)->DecodeIndices(10, out.data());
      } else if (path == 2) {
        ASSERT_OK(Read(**decoder, 5, 0, &got));  // the values before it are fine
        for (int64_t i = 0; i < 5; ++i) ASSERT_EQ(got[i], dictionary[indices[i]]);
        got.clear();
        ASSERT_OK((*decoder)->Skip(1));
        ASSERT_OK(Read(**decoder, 1, 0, &got));
        ASSERT_EQ(got[0], dictionary[indices[6]]);
        st = Read(**decoder, 3, 0, &got);  // decodes index 7
      } else if (path == 3) {
        // DecodeRuns: index 7 skipped, then decoded (named at its place).
        if (type == Type::kByteArray) continue;  // (fixed widths only)
        Values runs_got;
        ASSERT_OK(DecodeRuns(**decoder, {{2, 3}, {3, 2}}, 5, &runs_got));  // 2-4, 8-9
        for (int64_t i = 0; i < 3; ++i) ASSERT_EQ(runs_got[i], dictionary[indices[2 + i]]);
        EXPECT_EQ(runs_got[3], dictionary[indices[8]]);
        ASSERT_OK(DecodeRuns(**decoder, {{1, 2}, {20, 3}}, 5, &runs_got));  // 11-12, 33-35
        ASSERT_OK((*decoder)->SetData(40, page.data(), page.size()));
        st = DecodeRuns(**decoder, {{0, 2}, {3, 3}}, 5, &runs_got);  // 0-1, then 5-7
      } else {
        ASSERT_OK(Read(**decoder, 7, 0, &got));
        ASSERT_OK((*decoder)->Skip(3));  // over index 7: not checked
        got.clear();
        ASSERT_OK(Read(**decoder, 30, 0, &got));
        for (int64_t i = 0; i < 30; ++i) ASSERT_EQ(got[i], dictionary[indices[10 + i]]);
        EXPECT_EQ((*decoder)->values_left(), 0);
        continue;
      }
      ASSERT_TRUE(st.IsInvalid()) << st.ToString();
      EXPECT_NE(st.message().find("index 7 of value 7 is out of range for a dictionary of 5"),
                std::string::npos)
          << st.ToString();
    }
  }
}

TEST(DecoderTest, DictionaryIndicesAndMissingDictionary) {
  Page page = Encode(Type::kInt32, format::Encoding::kRleDictionary, -1,
                     MakeValues(Type::kInt32, -1, 200, 12));
  auto decoder = MakeFor(page);
  ASSERT_OK(decoder->SetData(200, page.data.data(), static_cast<int64_t>(page.data.size())));
  std::vector<int32_t> indices(200);
  ASSERT_OK(decoder->DecodeIndices(200, indices.data()));
  // The dictionary page lists values in first-seen order.
  for (int i = 0; i < 200; ++i) {
    int32_t expected;
    std::memcpy(&expected, page.dictionary.data() + 4 * indices[i], 4);
    int32_t value;
    std::memcpy(&value, page.values[i].data(), 4);
    ASSERT_EQ(value, expected) << i;
  }

  auto fresh = MakeDecoder(Type::kInt32, format::Encoding::kRleDictionary);
  ASSERT_OK(fresh.status());
  const Status st =
      (*fresh)->SetData(200, page.data.data(), static_cast<int64_t>(page.data.size()));
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("no dictionary page"), std::string::npos) << st.ToString();

  auto plain = MakeDecoder(Type::kInt32, format::Encoding::kPlain);
  ASSERT_OK(plain.status());
  EXPECT_TRUE((*plain)->SetDictionary(1, page.data.data(), 4).IsInvalid());
  EXPECT_TRUE((*plain)->DecodeIndices(0, indices.data()).IsInvalid());

  // A bit width byte above 32.
  const uint8_t wide[] = {33, 2, 0};
  EXPECT_TRUE(decoder->SetData(1, wide, 3).IsInvalid());
}

TEST(DecoderTest, ByteStreamSplitSizeNotAMultipleOfTheWidth) {
  for (const Page& page : AllPages(10, 13)) {
    if (page.encoding != format::Encoding::kByteStreamSplit) continue;
    SCOPED_TRACE(page.Name());
    auto decoder = MakeFor(page);
    const auto size = static_cast<int64_t>(page.data.size());
    if (page.type_length == 16 || page.type_length == 3 || page.type_length == 2 ||
        page.type_length < 0) {
      const Status st = decoder->SetData(9, page.data.data(), size - 1);
      ASSERT_TRUE(st.IsInvalid());
      EXPECT_NE(st.message().find("is not a whole number of"), std::string::npos)
          << st.ToString();
    }
    // More bytes than the count: the streams are as long as the page says.
    ASSERT_OK(decoder->SetData(9, page.data.data(), size));
    Values got;
    ASSERT_OK(Read(*decoder, 9, 0, &got));
    EXPECT_EQ(got, Values(page.values.begin(), page.values.begin() + 9));
  }
}

// DELTA_BINARY_PACKED with every miniblock of each block at bit width w:
// the deltas alternate between the ends of a range of 2^w values.
template <typename T>
void CheckEveryDeltaWidth() {
  using U = std::make_unsigned_t<T>;
  for (int w = 0; w <= static_cast<int>(8 * sizeof(T)); ++w) {
    SCOPED_TRACE(w);
    const U span = w == 0 ? 0 : static_cast<U>(~U{0} >> (8 * sizeof(T) - w));
    const U low = w == 0 ? 0 : static_cast<U>(U{0} - (U{1} << (w - 1)));
    Values values;
    U x = 12345;
    for (int i = 0; i < 700; ++i) {
      const T v = static_cast<T>(x);
      values.emplace_back(reinterpret_cast<const char*>(&v), sizeof(T));
      x += (i % 2 == 0) ? low : static_cast<U>(low + span);
    }
    Page page = Encode(PhysicalTypeOf<T>(), format::Encoding::kDeltaBinaryPacked, -1, values);
    // The first miniblock's width byte follows 4 header varints and the
    // block's min delta.
    size_t pos = 0;
    for (int varint = 0; varint < 5; ++varint) {
      while (page.data[pos] & 0x80) ++pos;
      ++pos;
    }
    ASSERT_EQ(page.data[pos], w);
    ReadAll(page, 100, true, 0);
    ReadAll(page, 700, false, 1);
  }
}

TEST(DecoderTest, DeltaBinaryPackedEveryMiniblockWidth) {
  CheckEveryDeltaWidth<int32_t>();
  CheckEveryDeltaWidth<int64_t>();
}

TEST(DecoderTest, DeltaBitWidthWiderThanTheTypeIsInvalid) {
  for (int type_bits : {32, 64}) {
    // Block of 128 values in 4 miniblocks, 40 values, first value 0; then
    // min delta 0 and the first miniblock's width one more than the type.
    Bytes bytes = {0x80, 0x01, 4, 40, 0, 0, static_cast<uint8_t>(type_bits + 1), 0, 0, 0};
    bytes.resize(bytes.size() + 4 * (type_bits + 1), 0xFF);
    auto decoder = MakeDecoder(type_bits == 32 ? Type::kInt32 : Type::kInt64,
                               format::Encoding::kDeltaBinaryPacked);
    ASSERT_OK(decoder.status());
    ASSERT_OK((*decoder)->SetData(40, bytes.data(), static_cast<int64_t>(bytes.size())));
    Values got;
    const Status st = Read(**decoder, 40, 0, &got);
    ASSERT_TRUE(st.IsInvalid());
    EXPECT_NE(st.message().find("bit width " + std::to_string(type_bits + 1)), std::string::npos)
        << st.ToString();
    EXPECT_NE(st.message().find("at byte"), std::string::npos) << st.ToString();
  }
}

TEST(DecoderTest, DeltaByteArrayForFixedLengthChecksTheLength) {
  DeltaByteArrayEncoder encoder;
  ASSERT_OK(encoder.Put("abcd"));
  ASSERT_OK(encoder.Put("abc"));
  MutableBuffer out;
  ASSERT_OK(encoder.Flush(&out).status());
  auto decoder = MakeTypedDecoder<FixedLenByteArrayDecoder>(format::Encoding::kDeltaByteArray, 4);
  ASSERT_OK(decoder.status());
  ASSERT_OK((*decoder)->SetData(2, out.data(), out.size()));
  uint8_t values[8];
  ASSERT_OK((*decoder)->Decode(1, values));
  EXPECT_EQ(std::memcmp(values, "abcd", 4), 0);
  const Status st = (*decoder)->Decode(1, values);
  ASSERT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("a value of 3 bytes where the type has 4"), std::string::npos)
      << st.ToString();
}

TEST(DecoderTest, FactoryRefusesPairsTheFormatDoesNotAllow) {
  struct Bad {
    Type type;
    format::Encoding encoding;
  };
  // Types by encoding, as Encodings.md allows them: not these.
  using E = format::Encoding;
  using T = Type;
  for (const Bad& bad : std::vector<Bad>{
           {T::kDouble, E::kDeltaBinaryPacked}, {T::kFloat, E::kDeltaBinaryPacked},
           {T::kInt96, E::kDeltaBinaryPacked}, {T::kBoolean, E::kDeltaBinaryPacked},
           {T::kByteArray, E::kByteStreamSplit}, {T::kBoolean, E::kByteStreamSplit},
           {T::kInt96, E::kByteStreamSplit}, {T::kInt32, E::kRle}, {T::kByteArray, E::kRle},
           {T::kInt64, E::kDeltaLengthByteArray}, {T::kFixedLenByteArray, E::kDeltaLengthByteArray},
           {T::kInt32, E::kDeltaByteArray}, {T::kInt32, E::kBitPacked},
           {T::kInt32, static_cast<E>(1)}, {T::kInt32, static_cast<E>(42)},
           {static_cast<T>(9), E::kPlain},
       }) {
    auto decoder = MakeDecoder(bad.type, bad.encoding, 4);
    ASSERT_TRUE(decoder.status().IsInvalid())
        << EnumName(bad.type) << "/" << EnumName(bad.encoding) << ": "
        << decoder.status().ToString();
  }
  EXPECT_TRUE(MakeDecoder(Type::kBoolean, format::Encoding::kRleDictionary).status().IsNotImplemented());
  EXPECT_TRUE(MakeDecoder(Type::kFixedLenByteArray, format::Encoding::kPlain, 0).status().IsInvalid());
  EXPECT_TRUE(MakeDecoder(Type::kFixedLenByteArray, format::Encoding::kPlain).status().IsInvalid());
  const Status st = MakeDecoder(Type::kDouble, format::Encoding::kDeltaBinaryPacked).status();
  EXPECT_EQ(st.message(), "encoding DELTA_BINARY_PACKED cannot encode DOUBLE values");

  auto typed = MakeTypedDecoder<DoubleDecoder>(format::Encoding::kByteStreamSplit);
  ASSERT_OK(typed.status());
  EXPECT_EQ((*typed)->physical_type(), Type::kDouble);
  EXPECT_EQ((*typed)->encoding(), format::Encoding::kByteStreamSplit);
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::parquet
