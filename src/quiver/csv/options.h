// The options of the CSV reader, named and defaulted as pyarrow.csv's
// ReadOptions, ParseOptions and ConvertOptions (the Python layer maps them
// one to one; an option pyarrow has and Quiver lacks is refused there).
// Differences, on purpose: newlines inside quoted values are accepted by
// default (pyarrow: ParseOptions.newlines_in_values=False), and inference
// covers `infer_rows` rows (default: the first block, as pyarrow).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "quiver/array/type.h"
#include "quiver/util/thread_pool.h"

namespace quiver::csv {

struct ReadOptions {
  // Bytes read and tokenized at a time (pyarrow: 1 MiB); a row longer than a
  // block makes that block longer.
  int64_t block_size = 1 << 20;
  // Rows skipped before the header (pyarrow's skip_rows, counted as rows:
  // a quoted newline does not end one).
  int64_t skip_rows = 0;
  // Column names; empty: from the header row (or f0, f1, ... when
  // autogenerate_column_names).
  std::vector<std::string> column_names;
  bool autogenerate_column_names = false;
  // Input encoding as pyarrow's; only UTF-8 here (else NotImplemented): the
  // CLI transcodes other encodings before the reader (input.h, iconv), Python
  // with its codecs.
  std::string encoding = "utf8";
  // Columns of a block are converted on this pool's workers and the calling
  // thread (util/thread_pool.h); null: on the calling thread. The batches
  // are the same either way. (pyarrow's use_threads=True is
  // ThreadPool::Cpu().)
  ThreadPool* thread_pool = nullptr;
};

struct ParseOptions {
  char delimiter = ',';
  bool quoting = true;
  char quote_char = '"';
  bool double_quote = true;  // "" inside a quoted value is one "
  bool ignore_empty_lines = true;
  // Newlines inside quoted values are read whatever this says: pyarrow reads
  // them too within a block, its option only makes its parallel block
  // splitting safe, which Quiver's (quote state carried by the scan) always
  // is. Kept for pyarrow's option set.
  bool newlines_in_values = true;
};

enum class OnError : uint8_t { kFail, kSkip };

struct ConvertOptions {
  // Types by column name (the rest inferred), as pyarrow's column_types.
  std::map<std::string, TypePtr> column_types;
  std::vector<std::string> null_values = {"",     "#N/A", "#N/A N/A", "#NA", "-1.#IND",
                                          "-1.#QNAN", "-NaN", "-nan",  "1.#IND", "1.#QNAN",
                                          "N/A",  "NA",   "NULL",     "NaN", "n/a",
                                          "nan",  "null"};
  std::vector<std::string> true_values = {"1", "True", "TRUE", "true"};
  std::vector<std::string> false_values = {"0", "False", "FALSE", "false"};
  bool strings_can_be_null = false;
  bool quoted_strings_can_be_null = true;
  bool check_utf8 = true;
  char decimal_point = '.';
  // Columns kept, in this order (pyarrow's include_columns); empty: all.
  std::vector<std::string> include_columns;
  // Rows inference looks at: <= 0 the first block (pyarrow's behaviour);
  // kInferAll the whole input (two passes; the reader needs a way to reopen).
  int64_t infer_rows = 0;
  static constexpr int64_t kInferAll = INT64_MAX;
  // A row that does not tokenize (column count) or convert: an error, or
  // skipped and counted (the reader's rejects()).
  OnError on_error = OnError::kFail;
};

}  // namespace quiver::csv
