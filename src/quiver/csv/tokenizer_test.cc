// Tokenizer edge cases: every case tokenized by the vectorized path (AVX2
// and portable scans), the scalar state machine, and streamed through the
// reader in buffers of every small size, must give the same rows.
#include "quiver/csv/tokenizer.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "quiver/array/concatenate.h"
#include "quiver/compute/simd_level.h"
#include "quiver/csv/reader.h"
#include "quiver/csv/scan_internal.h"
#include "quiver/io/memory.h"

namespace quiver::csv {
namespace {
namespace QUIVER_UNITY_ID {

using Rows = std::vector<std::vector<std::string>>;

struct Tokens {
  Rows rows;
  std::vector<int32_t> bad_fields;  // field counts of the rows reported bad
  int64_t consumed = 0;
  bool scalar = false;
};

Tokens Tokenize(const std::string& text, bool final = true, bool force_scalar = false,
                const ParseOptions& options = {}, int32_t columns = -1) {
  Tokenizer t(options, columns);
  t.set_force_scalar(force_scalar);
  TokenizedBlock block;
  Status st = t.Tokenize(reinterpret_cast<const uint8_t*>(text.data()),
                         static_cast<int64_t>(text.size()), final, -1, &block);
  EXPECT_TRUE(st.ok()) << st;
  Tokens out;
  std::string tmp;
  for (int64_t r = 0; r < block.num_rows; ++r) {
    std::vector<std::string> row;
    for (int32_t c = 0; c < block.num_columns; ++c) {
      row.emplace_back(block.Value(r, c, static_cast<uint8_t>(options.quote_char), &tmp));
    }
    out.rows.push_back(std::move(row));
  }
  for (const BadRow& b : block.bad_rows) out.bad_fields.push_back(b.num_fields);
  out.consumed = block.consumed;
  out.scalar = block.used_scalar;
  return out;
}

// Every path agrees, and says `expected`.
void ExpectRows(const std::string& text, const Rows& expected, bool expect_scalar = false) {
  SCOPED_TRACE(text);
  const Tokens fast = Tokenize(text);
  EXPECT_EQ(fast.rows, expected);
  EXPECT_EQ(fast.scalar, expect_scalar);
  EXPECT_EQ(Tokenize(text, true, /*force_scalar=*/true).rows, expected);
  auto scoped = compute::ScopedSimdLevel::Make(compute::SimdLevel::kScalar);
  ASSERT_TRUE(scoped.ok());
  EXPECT_EQ(Tokenize(text).rows, expected);
}

TEST(CsvTokenizer, Rfc4180Basics) {
  ExpectRows("a,b\n1,2\n", {{"a", "b"}, {"1", "2"}});
  ExpectRows("a,b\r\n1,2\r\n", {{"a", "b"}, {"1", "2"}});
  ExpectRows("a,b\r1,2\r", {{"a", "b"}, {"1", "2"}});
  ExpectRows("a,b\n1,2", {{"a", "b"}, {"1", "2"}});  // no final line end
  ExpectRows("a,b\n1,\n", {{"a", "b"}, {"1", ""}});
  ExpectRows("a,b\n1,", {{"a", "b"}, {"1", ""}});
  ExpectRows("\"a,b\",\"c\"\"d\"\n", {{"a,b", "c\"d"}});
  ExpectRows("\"line\nbreak\",x\n", {{"line\nbreak", "x"}});
  ExpectRows("\"cr\r\nlf\",x\r\n", {{"cr\r\nlf", "x"}});
  ExpectRows("\"\",\"\"\"\"\n", {{"", "\""}});
}

TEST(CsvTokenizer, EmptyLinesAreSkipped) {
  ExpectRows("a\n\n1\n\r\n2\n\n", {{"a"}, {"1"}, {"2"}});
  ParseOptions keep;
  keep.ignore_empty_lines = false;
  EXPECT_EQ(Tokenize("a\n\n1\n", true, false, keep).rows, (Rows{{"a"}, {""}, {"1"}}));
  EXPECT_EQ(Tokenize("a\n\n1\n", true, true, keep).rows, (Rows{{"a"}, {""}, {"1"}}));
}

TEST(CsvTokenizer, QuotesPyarrowPlacesOutsideRfc4180) {
  // A quote inside an unquoted value is a character; text after a closing
  // quote is kept: the scalar state machine reads these.
  ExpectRows("x\"y,b\n", {{"x\"y", "b"}}, /*expect_scalar=*/true);
  ExpectRows("\"x\"y,b\n", {{"xy", "b"}}, true);
  ExpectRows("a,\"b\"c\"d\"\n", {{"a", "bc\"d\""}}, true);
}

TEST(CsvTokenizer, RaggedRowsAreReportedNotKept) {
  const Tokens t = Tokenize("a,b\n1\n2,3\n4,5,6\n");
  EXPECT_EQ(t.rows, (Rows{{"a", "b"}, {"2", "3"}}));
  EXPECT_EQ(t.bad_fields, (std::vector<int32_t>{1, 3}));
}

TEST(CsvTokenizer, UnterminatedQuoteFails) {
  Tokenizer t(ParseOptions{}, -1);
  TokenizedBlock block;
  const std::string text = "a\n\"open,1\n2\n";
  Status st = t.Tokenize(reinterpret_cast<const uint8_t*>(text.data()),
                         static_cast<int64_t>(text.size()), true, -1, &block);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("never closed"), std::string::npos) << st;
  EXPECT_EQ(t.error_offset(), 2);
}

TEST(CsvTokenizer, StreamingStopsAtTheLastCompleteRow) {
  const Tokens t = Tokenize("a,b\n1,2\n3,", /*final=*/false);
  EXPECT_EQ(t.rows, (Rows{{"a", "b"}, {"1", "2"}}));
  EXPECT_EQ(t.consumed, 8);
  // A CR at the end may be half of a CRLF: not consumed yet.
  EXPECT_EQ(Tokenize("a\r\n1\r", false).consumed, 3);
  // Inside quotes nothing ends a row.
  EXPECT_EQ(Tokenize("a\n\"1\n2", false).consumed, 2);
}

// The reader over the same text in buffers of 1..97 bytes (quotes, CRLF and
// delimiters split at every position) gives the same table.
std::vector<RecordBatchPtr> ReadWithBlock(const std::string& text, int64_t block_size,
                                          ConvertOptions convert = {}) {
  ReadOptions read;
  read.block_size = block_size;
  auto input = std::make_unique<io::BufferReader>(Buffer::FromString(text));
  auto reader = StreamingReader::Open(std::move(input), "t.csv", read, ParseOptions{}, convert);
  EXPECT_TRUE(reader.ok()) << reader.status();
  auto batches = ReadAll(reader->get());
  EXPECT_TRUE(batches.ok()) << batches.status();
  return *batches;
}

// The columns' values, whatever the batches' boundaries.
std::string Concat(const std::vector<RecordBatchPtr>& batches) {
  std::string out;
  if (batches.empty()) return out;
  for (int c = 0; c < batches[0]->num_columns(); ++c) {
    std::vector<ArrayDataPtr> chunks;
    for (const auto& b : batches) chunks.push_back(b->column_data(c));
    auto whole = Concatenate(chunks);
    EXPECT_TRUE(whole.ok()) << whole.status();
    out += MakeArray(*whole)->ToString() + "\n";
  }
  return out;
}

std::string RandomCsv(std::mt19937_64* rng, int rows, int cols) {
  const char* pieces[] = {"a", "b,c", "\"", "\r\n", "\n", "x y", "1", "", "\"\"", "\xC3\xA9"};
  std::string out;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      if (c) out += ',';
      std::string v;
      const int n = static_cast<int>((*rng)() % 4);
      for (int k = 0; k < n; ++k) v += pieces[(*rng)() % 10];
      if (v.find_first_of(",\"\r\n") != std::string::npos || (*rng)() % 3 == 0) {
        std::string q = "\"";
        for (char ch : v) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        v = q + "\"";
      }
      out += v;
    }
    out += (*rng)() % 2 ? "\r\n" : "\n";
  }
  return out;
}

TEST(CsvReader, BlockBoundariesDoNotMatter) {
  std::mt19937_64 rng(47);
  for (int trial = 0; trial < 8; ++trial) {
    const std::string text = "h1,h2,h3\n" + RandomCsv(&rng, 40, 3);
    ConvertOptions all_strings;
    for (const char* n : {"h1", "h2", "h3"}) all_strings.column_types[n] = utf8();
    const std::string whole = Concat(ReadWithBlock(text, 1 << 20, all_strings));
    for (int64_t block : {1, 2, 3, 7, 63, 64, 65, 97}) {
      SCOPED_TRACE(block);
      EXPECT_EQ(Concat(ReadWithBlock(text, block, all_strings)), whole) << text;
    }
  }
}

TEST(CsvReader, BomHeaderAndLocatedErrors) {
  const std::string text = "\xEF\xBB\xBF" "a,b\n1,x\n2,y\n";
  auto batches = ReadWithBlock(text, 4);
  ASSERT_FALSE(batches.empty());
  EXPECT_EQ(batches[0]->schema()->field(0)->name(), "a");
  EXPECT_EQ(batches[0]->schema()->field(0)->type()->ToString(), "int64");

  auto input = std::make_unique<io::BufferReader>(Buffer::FromString("a,b\n1,2\n3\n"));
  auto reader = StreamingReader::Open(std::move(input), "r.csv", {}, {}, {});
  ASSERT_TRUE(reader.ok());
  auto all = ReadAll(reader->get());
  ASSERT_FALSE(all.ok());
  EXPECT_EQ(all.status().message(),
            "r.csv:3: expected 2 columns, got 1: 3 (--on-error skip rejects such rows)");
}

TEST(CsvReader, LaterValueThatDoesNotFitNamesTheWayOut) {
  std::string text = "n\n";
  for (int i = 0; i < 100; ++i) text += std::to_string(i) + "\n";
  text += "oops\n";
  ConvertOptions convert;
  convert.infer_rows = 10;
  auto input = std::make_unique<io::BufferReader>(Buffer::FromString(text));
  ReadOptions read;
  read.block_size = 64;
  auto reader = StreamingReader::Open(std::move(input), "big.csv", read, {}, convert);
  ASSERT_TRUE(reader.ok());
  auto all = ReadAll(reader->get());
  ASSERT_FALSE(all.ok());
  const std::string& m = all.status().message();
  EXPECT_NE(m.find("big.csv:102: column 'n' (number 1): 'oops' is not a valid int64"),
            std::string::npos) << m;
  EXPECT_NE(m.find("--infer-rows all"), std::string::npos) << m;
  EXPECT_NE(m.find("--schema 'n:string'"), std::string::npos) << m;
}

TEST(CsvReader, SkipRejectsAndCounts) {
  std::vector<std::string> rejected;
  auto input = std::make_unique<io::BufferReader>(
      Buffer::FromString("a,b\n1,2\nx,3\n4\n5,6\n"));
  ConvertOptions convert;
  convert.column_types["a"] = int64();
  convert.on_error = OnError::kSkip;
  auto reader = StreamingReader::Open(
      std::move(input), "s.csv", {}, {}, convert, {}, [&](const RejectedRow& row) {
        rejected.push_back(std::to_string(row.line) + ":" + std::string(row.bytes));
        return Status::OK();
      });
  ASSERT_TRUE(reader.ok());
  auto all = ReadAll(reader->get());
  ASSERT_TRUE(all.ok()) << all.status();
  int64_t rows = 0;
  for (const auto& b : *all) rows += b->num_rows();
  EXPECT_EQ(rows, 2);
  EXPECT_EQ((*reader)->rows_rejected(), 2);
  EXPECT_EQ(rejected, (std::vector<std::string>{"3:x,3", "4:4"}));
}

TEST(CsvScan, Avx2AndPortableAgree) {
  if (!internal::ScanAvx2Supported()) GTEST_SKIP() << "no AVX2";
  std::mt19937_64 rng(7);
  const char alphabet[] = "ab,\"\r\n";
  for (int trial = 0; trial < 200; ++trial) {
    std::string data(64 * 5, ' ');
    for (char& c : data) c = alphabet[rng() % 6];
    const int last_valid = 1 + static_cast<int>(rng() % 64);
    internal::ScanParams params{',', '"', true};
    internal::ScanState a, b;
    uint64_t sa[5], sb[5];
    internal::ScanChunksScalar(reinterpret_cast<const uint8_t*>(data.data()), 5, last_valid,
                               params, &a, sa);
    internal::ScanChunksAvx2(reinterpret_cast<const uint8_t*>(data.data()), 5, last_valid,
                             params, &b, sb);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(sa[i], sb[i]);
    EXPECT_EQ(a.anomaly, b.anomaly);
    EXPECT_EQ(a.in_quote, b.in_quote);
  }
}

}  // namespace QUIVER_UNITY_ID
}  // namespace
}  // namespace quiver::csv
