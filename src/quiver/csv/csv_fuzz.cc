// libFuzzer target for the CSV reader: the input is tokenized by the
// vectorized path and by the scalar state machine (which must agree on every
// buffer the vectorized path accepts), then read whole by the streaming
// reader with inference and with small blocks (rows, quotes and CRLF cut at
// block ends). Any crash, sanitizer report or disagreement is a bug; keep
// failing inputs as cases in tokenizer_test.cc.
//
// Not part of the library (the module glob skips *_fuzz.cc): built by the
// fuzz preset and run by `make fuzz` over fuzz/corpus/quiver_csv_fuzz/.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "quiver/csv/reader.h"
#include "quiver/csv/tokenizer.h"
#include "quiver/io/memory.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace quiver;       // NOLINT
  using namespace quiver::csv;  // NOLINT
  if (size > (1 << 20)) return 0;
  ParseOptions parse;
  if (size > 0 && (data[0] == ';' || data[0] == '\t' || data[0] == '|')) {
    parse.delimiter = static_cast<char>(data[0]);
  }
  // The two tokenizer paths agree (values compared after unescaping).
  {
    Tokenizer fast(parse, -1), scalar(parse, -1);
    scalar.set_force_scalar(true);
    TokenizedBlock a, b;
    const bool final = size % 2 == 0;
    Status sa = fast.Tokenize(data, static_cast<int64_t>(size), final, -1, &a);
    Status sb = scalar.Tokenize(data, static_cast<int64_t>(size), final, -1, &b);
    if (sa.ok() != sb.ok()) std::abort();
    if (sa.ok()) {
      if (a.num_rows != b.num_rows || a.consumed != b.consumed ||
          a.bad_rows.size() != b.bad_rows.size()) {
        std::abort();
      }
      std::string ta, tb;
      for (int64_t r = 0; r < a.num_rows; ++r) {
        for (int32_t c = 0; c < a.num_columns; ++c) {
          if (a.Value(r, c, '"', &ta) != b.Value(r, c, '"', &tb)) std::abort();
        }
      }
    }
  }
  // The streaming reader, skipping bad rows, in 1 MiB and in 7-byte blocks.
  for (int64_t block : {int64_t{1} << 20, int64_t{7}}) {
    ReadOptions read;
    read.block_size = block;
    ConvertOptions convert;
    convert.on_error = OnError::kSkip;
    auto buffer = Buffer::Wrap(data, static_cast<int64_t>(size));
    auto reader = StreamingReader::Open(std::make_unique<io::BufferReader>(buffer), "fuzz", read,
                                        parse, convert);
    if (!reader.ok()) continue;
    for (int i = 0; i < 100000; ++i) {
      auto batch = (*reader)->Next();
      if (!batch.ok() || *batch == nullptr) break;
      if (Status st = (*batch)->ValidateFull(); !st.ok()) {
        std::fprintf(stderr, "invalid batch: %s\n", st.ToString().c_str());
        std::abort();
      }
    }
  }
  return 0;
}
