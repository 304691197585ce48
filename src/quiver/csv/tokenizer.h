// Stage 2 of the CSV tokenizer: the fields of each row of a buffer, as byte
// ranges. The vectorized path (scan_internal.h) gives the delimiters and
// line ends outside quotes; this walks them in order. A buffer whose quotes
// the scan cannot place (x"y, "a"b, an unterminated quote) is read by the
// scalar state machine below it, which implements pyarrow's rules: a quote
// opens a quoted value only at the start of a field, "" inside quotes is one
// quote, characters after the closing quote are kept as they are, a quote
// inside an unquoted value is an ordinary character.
//
// Line ends: LF, CRLF and a lone CR (as pyarrow). Empty lines are skipped
// when ParseOptions::ignore_empty_lines. A row whose field count is not the
// first row's is reported in bad_rows (with its bytes), not in the fields.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "quiver/csv/options.h"
#include "quiver/util/default_init_allocator.h"
#include "quiver/util/result.h"

namespace quiver::csv {

struct FieldRef {
  static constexpr uint32_t kQuoted = 1u << 31;   // the value was quoted
  static constexpr uint32_t kEscapes = 1u << 30;  // may hold "" (unescape when read)
  static constexpr uint32_t kOffsetMask = kEscapes - 1;
  uint32_t start;
  uint32_t end;  // with the flags above
};

struct BadRow {
  int64_t row_start;  // byte offset in the buffer tokenized
  int64_t row_end;    // without the line end
  int32_t num_fields;
};

struct TokenizedBlock {
  // The bytes fields point into: the buffer tokenized, or (after the scalar
  // state machine) `scratch`, holding unescaped values.
  const uint8_t* data = nullptr;
  std::vector<FieldRef, DefaultInitAllocator<FieldRef>> fields;  // row-major
  // Byte offset in the buffer of each row's start, and after the last its
  // end (the bytes consumed).
  std::vector<uint32_t, DefaultInitAllocator<uint32_t>> row_starts;
  // Byte offset of each row's end (its line end, or the buffer's end).
  std::vector<uint32_t, DefaultInitAllocator<uint32_t>> row_ends;
  std::vector<BadRow> bad_rows;
  std::vector<uint8_t> scratch;
  int32_t num_columns = -1;
  int64_t num_rows = 0;
  int64_t consumed = 0;
  bool used_scalar = false;  // for the tests

  const FieldRef& field(int64_t row, int32_t col) const {
    return fields[static_cast<size_t>(row * num_columns + col)];
  }
  // The value of a field, "" unescaped into *tmp when needed.
  std::string_view Value(int64_t row, int32_t col, uint8_t quote, std::string* tmp) const {
    return Value(field(row, col), quote, tmp);
  }
  std::string_view Value(const FieldRef& f, uint8_t quote, std::string* tmp) const {
    const uint32_t end = f.end & FieldRef::kOffsetMask;
    std::string_view v(reinterpret_cast<const char*>(data) + f.start, end - f.start);
    if (QUIVER_PREDICT_TRUE(!(f.end & FieldRef::kEscapes))) return v;
    return Unescape(v, quote, tmp);
  }

 private:
  static std::string_view Unescape(std::string_view v, uint8_t quote, std::string* tmp);
};

class Tokenizer {
 public:
  // num_columns < 0: taken from the first row.
  Tokenizer(const ParseOptions& options, int32_t num_columns);

  // Tokenizes the complete rows of data[0, size) (the last row, without a
  // line end, only when `final`), at most max_rows of them (< 0: no limit).
  // Fails when final and a quote is never closed, or when the buffer is
  // 1 GiB or more (then no row fits a block: the caller reports it).
  Status Tokenize(const uint8_t* data, int64_t size, bool final, int64_t max_rows,
                  TokenizedBlock* out);

  int32_t num_columns() const { return num_columns_; }
  // After a failed Tokenize: the byte offset of the row it failed in.
  int64_t error_offset() const { return error_offset_; }

  // Forces the scalar state machine (tests and fuzzing compare the paths).
  void set_force_scalar(bool v) { force_scalar_ = v; }

 private:
  bool TokenizeFast(const uint8_t* data, int64_t size, bool final, int64_t max_rows,
                    TokenizedBlock* out);
  Status TokenizeScalar(const uint8_t* data, int64_t size, bool final, int64_t max_rows,
                        TokenizedBlock* out);

  ParseOptions options_;
  int32_t num_columns_;
  bool force_scalar_ = false;
  int64_t error_offset_ = 0;
};

}  // namespace quiver::csv
