// Micro-benchmarks of the encodings' hot loops: RLE/bit-packed levels and
// dictionary indices, DELTA_BINARY_PACKED, and raw bit unpacking
// (src/quiver/parquet/encoding/); and, in pairs, a page decoded by a decoder
// called directly and through the decoder interface (decoder_internal.h), in batches
// of the argument's size, to show what the interface costs. Built with the
// other benchmarks (make bench-build); main() is bench_main.cc's, which pins
// the allocator. Compare a pair in one run, interleaved:
//   quiver_encoding_benchmark --benchmark_filter=Page --benchmark_repetitions=5
//     --benchmark_enable_random_interleaving=true
#include <benchmark/benchmark.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "quiver/memory/mutable_buffer.h"
#include "quiver/parquet/encoding/bit_packing_internal.h"
#include "quiver/parquet/encoding/byte_stream_split.h"
#include "quiver/parquet/encoding/decoder_internal.h"
#include "quiver/parquet/encoding/delta_binary_packed.h"
#include "quiver/parquet/encoding/dictionary_indices.h"
#include "quiver/parquet/encoding/plain.h"
#include "quiver/parquet/encoding/rle_bit_packed.h"

namespace quiver::parquet {
namespace {

constexpr int64_t kValues = 1 << 20;

// Definition levels of a column with ~10% nulls (width 1), or dictionary
// indices (random, width from the argument).
std::vector<int32_t> MakeValues(int bit_width, bool levels) {
  std::mt19937_64 rng(1);
  std::vector<int32_t> v(kValues);
  for (auto& x : v) {
    x = levels ? (rng() % 10 != 0) : static_cast<int32_t>(rng() & ((1u << bit_width) - 1));
  }
  return v;
}

void BM_RleEncode(benchmark::State& state) {
  const int w = static_cast<int>(state.range(0));
  const auto values = MakeValues(w, w == 1);
  MutableBuffer out;
  for (auto _ : state) {
    out.Clear();
    RleBitPackedEncoder encoder(w, &out);
    if (!encoder.PutBatch(values.data(), kValues).ok()) state.SkipWithError("put");
    benchmark::DoNotOptimize(encoder.Flush());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_RleEncode)->Arg(1)->Arg(8)->Arg(17);

void BM_RleDecode(benchmark::State& state) {
  const int w = static_cast<int>(state.range(0));
  const auto values = MakeValues(w, w == 1);
  MutableBuffer out;
  RleBitPackedEncoder encoder(w, &out);
  if (!encoder.PutBatch(values.data(), kValues).ok() || !encoder.Flush().ok()) return;
  std::vector<int32_t> back(kValues);
  for (auto _ : state) {
    RleBitPackedDecoder decoder(out.data(), out.size(), w);
    benchmark::DoNotOptimize(decoder.GetBatch(back.data(), kValues));
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_RleDecode)->Arg(1)->Arg(8)->Arg(17);

void BM_Unpack32(benchmark::State& state) {
  const int w = static_cast<int>(state.range(0));
  std::vector<uint8_t> packed(static_cast<size_t>(kValues / 32 * 4 * w), 0x5A);
  std::vector<uint32_t> out(kValues);
  for (auto _ : state) {
    for (int64_t b = 0; b < kValues / 32; ++b) {
      internal::Unpack32(packed.data() + b * 4 * w, w, out.data() + b * 32);
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_Unpack32)->Arg(1)->Arg(7)->Arg(16)->Arg(32);

void BM_DeltaRoundTrip(benchmark::State& state) {
  std::vector<int64_t> values(kValues);
  std::mt19937_64 rng(2);
  int64_t x = 0;
  for (auto& v : values) v = (x += static_cast<int64_t>(rng() % 1000));
  std::vector<int64_t> back(kValues);
  MutableBuffer out;
  for (auto _ : state) {
    out.Clear();
    DeltaBinaryPackedEncoder<int64_t> encoder;
    if (!encoder.Put(values.data(), kValues).ok() || !encoder.Flush(&out).ok()) return;
    DeltaBinaryPackedDecoder<int64_t> decoder;
    if (!decoder.Init(out.data(), out.size()).ok()) return;
    benchmark::DoNotOptimize(decoder.GetBatch(back.data(), kValues));
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DeltaRoundTrip);

// ---------------------------------------------------------------------------
// Direct decoders vs the decoder interface, one page of kValues values

using format::Type;

template <typename T>
std::vector<T> PageValues() {
  std::vector<T> values(kValues);
  std::mt19937_64 rng(3);
  T x = 0;
  for (auto& v : values) v = (x += static_cast<T>(rng() % 1000));
  return values;
}

// The direct path: start() gives a decoder over the page (or nullopt),
// decode(decoder, i, m) decodes values [i, i + m) of it (false on an error).
template <typename Start, typename DecodeBatch>
void DirectLoop(benchmark::State& state, Start&& start, DecodeBatch&& decode) {
  const int64_t batch = state.range(0);
  for (auto _ : state) {
    auto decoder = start();
    if (!decoder) return state.SkipWithError("start");
    for (int64_t i = 0; i < kValues; i += batch) {
      if (!decode(*decoder, i, std::min(batch, kValues - i))) return state.SkipWithError("decode");
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}

// The interface's path for every pair: SetData, then Decode in batches.
template <typename D, typename Out>
void InterfaceLoop(benchmark::State& state, format::Encoding encoding, const MutableBuffer& page,
                   Out* out, const MutableBuffer* dictionary = nullptr,
                   int64_t dictionary_size = 0) {
  auto made = MakeTypedDecoder<D>(encoding);
  if (!made.ok()) return state.SkipWithError("make");
  D& decoder = **made;
  if (dictionary != nullptr &&
      !decoder.SetDictionary(dictionary_size, dictionary->data(), dictionary->size()).ok()) {
    return state.SkipWithError("dictionary");
  }
  const auto start = [&]() -> D* {
    return decoder.SetData(kValues, page.data(), page.size()).ok() ? &decoder : nullptr;
  };
  DirectLoop(state, start, [&](D& d, int64_t i, int64_t m) { return d.Decode(m, out + i).ok(); });
}

MutableBuffer PlainInt32Page() {
  MutableBuffer page;
  if (!PlainEncode<int32_t>(PageValues<int32_t>(), nullptr, 0, &page).ok()) page.Clear();
  return page;
}
void BM_PagePlainInt32Direct(benchmark::State& state) {
  const MutableBuffer page = PlainInt32Page();
  std::vector<int32_t> out(kValues);
  DirectLoop(
      state, [&] { return std::optional(PlainFixedWidthDecoder(page.data(), page.size(), 4)); },
      [&](auto& d, int64_t i, int64_t m) { return d.Decode(m, out.data() + i).ok(); });
}

// A decoder of this module after Init(args...), or nullopt.
template <typename D, typename... Args>
std::optional<D> Initialised(Args... args) {
  std::optional<D> decoder(std::in_place);
  if (!decoder->Init(args...).ok()) decoder.reset();
  return decoder;
}

// The page `encoder` writes of `values`.
template <typename E, typename T>
MutableBuffer Flushed(E encoder, const std::vector<T>& values) {
  MutableBuffer page;
  if (!encoder.Put(values.data(), kValues).ok() || !encoder.Flush(&page).ok()) page.Clear();
  return page;
}

MutableBuffer DeltaPage() {
  return Flushed(DeltaBinaryPackedEncoder<int64_t>(), PageValues<int64_t>());
}
void BM_PageDeltaInt64Direct(benchmark::State& state) {
  const MutableBuffer page = DeltaPage();
  std::vector<int64_t> out(kValues);
  using D = DeltaBinaryPackedDecoder<int64_t>;
  DirectLoop(
      state, [&] { return Initialised<D>(page.data(), page.size()); },
      [&](auto& d, int64_t i, int64_t m) { return d.GetBatch(out.data() + i, m).ok(); });
}

MutableBuffer SplitPage() {
  const auto values = PageValues<int64_t>();
  return Flushed(ByteStreamSplitEncoder(8), std::vector<double>(values.begin(), values.end()));
}
void BM_PageSplitDoubleDirect(benchmark::State& state) {
  const MutableBuffer page = SplitPage();
  std::vector<double> out(kValues);
  DirectLoop(
      state, [&] { return Initialised<ByteStreamSplitDecoder>(page.data(), page.size(), 8); },
      [&](auto& d, int64_t i, int64_t m) { return d.GetBatch(out.data() + i, m) == m; });
}

// Short strings (0..15 bytes), as PLAIN BYTE_ARRAY.
MutableBuffer BinaryPage() {
  std::mt19937_64 rng(4);
  MutableBuffer page;
  std::string value;
  for (int64_t i = 0; i < kValues; ++i) {
    value.assign(rng() % 16, static_cast<char>('a' + i % 26));
    if (!PlainEncodeByteArray(value, &page).ok()) page.Clear();
  }
  return page;
}
void BM_PagePlainBinaryDirect(benchmark::State& state) {
  const MutableBuffer page = BinaryPage();
  std::vector<std::string_view> out(kValues);
  DirectLoop(
      state, [&] { return std::optional(PlainByteArrayDecoder(page.data(), page.size())); },
      [&](auto& d, int64_t i, int64_t m) { return d.Decode(m, out.data() + i).ok(); });
}

// INT32 dictionary of 1000 values at bit width 10. Direct: the index
// decoder and an unchecked gather; the interface also checks every index
// against the dictionary size.
struct DictionaryPage {
  MutableBuffer dictionary;
  MutableBuffer indices;
};
DictionaryPage MakeDictionaryPage() {
  DictionaryPage page;
  std::vector<int32_t> dictionary(1000);
  for (int i = 0; i < 1000; ++i) dictionary[i] = i * 7919;
  auto indices = MakeValues(10, false);
  for (auto& i : indices) i %= 1000;
  if (!PlainEncode<int32_t>(dictionary, nullptr, 0, &page.dictionary).ok() ||
      !EncodeDictionaryIndices(indices.data(), kValues, 10, &page.indices).ok()) {
    page.indices.Clear();
  }
  return page;
}
void BM_PageDictInt32Direct(benchmark::State& state) {
  const DictionaryPage page = MakeDictionaryPage();
  const auto* dictionary = page.dictionary.data_as<int32_t>();
  std::vector<int32_t> out(kValues);
  std::vector<uint32_t> indices(static_cast<size_t>(state.range(0)));
  DirectLoop(
      state,
      [&] {
        auto d = MakeDictionaryIndexDecoder(page.indices.data(), page.indices.size());
        return d.ok() ? std::optional(*std::move(d)) : std::nullopt;
      },
      [&](auto& d, int64_t i, int64_t m) {
        if (d.GetBatch(indices.data(), m) != m) return false;
        for (int64_t j = 0; j < m; ++j) out[i + j] = dictionary[indices[j]];
        return true;
      });
}

// Each pair registered together: the direct path, then the interface's.
template <typename D, typename Out>
void Interface(benchmark::State& state, format::Encoding encoding, const MutableBuffer& page) {
  std::vector<Out> out(kValues);
  InterfaceLoop<D>(state, encoding, page, out.data());
}
void DictInterface(benchmark::State& state) {
  const DictionaryPage page = MakeDictionaryPage();
  std::vector<int32_t> out(kValues);
  InterfaceLoop<Int32Decoder>(state, format::Encoding::kRleDictionary, page.indices, out.data(),
                              &page.dictionary, 1000);
}
const bool kPairsRegistered = [] {
  auto pair = [](const std::string& name, void (*direct)(benchmark::State&), auto interface) {
    benchmark::RegisterBenchmark(("BM_Page" + name + "Direct").c_str(), direct)
        ->Arg(128)
        ->Arg(1024);
    benchmark::RegisterBenchmark(("BM_Page" + name + "Interface").c_str(), interface)
        ->Arg(128)
        ->Arg(1024);
  };
  pair("PlainInt32", BM_PagePlainInt32Direct, [](benchmark::State& state) {
    Interface<Int32Decoder, int32_t>(state, format::Encoding::kPlain, PlainInt32Page());
  });
  pair("DeltaInt64", BM_PageDeltaInt64Direct, [](benchmark::State& state) {
    Interface<Int64Decoder, int64_t>(state, format::Encoding::kDeltaBinaryPacked, DeltaPage());
  });
  pair("SplitDouble", BM_PageSplitDoubleDirect, [](benchmark::State& state) {
    Interface<DoubleDecoder, double>(state, format::Encoding::kByteStreamSplit, SplitPage());
  });
  pair("PlainBinary", BM_PagePlainBinaryDirect, [](benchmark::State& state) {
    Interface<ByteArrayDecoder, std::string_view>(state, format::Encoding::kPlain, BinaryPage());
  });
  pair("DictInt32", BM_PageDictInt32Direct, DictInterface);
  return true;
}();

}  // namespace
}  // namespace quiver::parquet
