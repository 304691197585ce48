#include "convert_csv.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli_common.h"
#include "quiver/csv/input.h"
#include "quiver/csv/reader.h"
#include "quiver/csv/schema_spec.h"
#include "quiver/io/file.h"
#include "quiver/util/cpu_count.h"
#include "quiver/util/thread_pool.h"

namespace quiver::cli {

namespace {

constexpr int64_t kSniffBytes = 64 * 1024;
constexpr int kSniffLines = 20;
constexpr int kRejectsShown = 5;

bool EndsWithCi(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) {
      return false;
    }
  }
  return true;
}

// Serves `prefix` first, then the rest of `rest` (standard input sniffed for
// its delimiter cannot be read twice).
class PrefixedStream final : public io::InputStream {
 public:
  PrefixedStream(std::string prefix, std::unique_ptr<io::InputStream> rest)
      : prefix_(std::move(prefix)), rest_(std::move(rest)) {}
  Result<std::shared_ptr<Buffer>> Read(int64_t nbytes) override {
    if (pos_ < prefix_.size()) {
      const size_t n = std::min(prefix_.size() - pos_, static_cast<size_t>(nbytes));
      auto out = Buffer::FromString(prefix_.substr(pos_, n));
      pos_ += n;
      position_ += static_cast<int64_t>(n);
      return out;
    }
    QUIVER_ASSIGN_OR_RAISE(auto b, rest_->Read(nbytes));
    position_ += b->size();
    return b;
  }
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override { return rest_->Close(); }
  bool closed() const override { return rest_->closed(); }

 private:
  std::string prefix_;
  size_t pos_ = 0;
  std::unique_ptr<io::InputStream> rest_;
  int64_t position_ = 0;
};

// The delimiter among , TAB ; | that splits the first lines into the same
// number (> 0) of fields, the most fields winning; ',' when none does.
// Quotes are honoured (a delimiter inside quotes does not count).
char DetectDelimiter(std::string_view head, bool complete, char quote) {
  const char candidates[] = {',', '\t', ';', '|'};
  std::vector<std::array<int, 4>> lines;
  std::array<int, 4> counts{};
  bool in_quotes = false;
  size_t i = 0;
  for (; i < head.size() && static_cast<int>(lines.size()) < kSniffLines; ++i) {
    const char c = head[i];
    if (c == quote) in_quotes = !in_quotes;
    if (in_quotes) continue;
    if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < head.size() && head[i + 1] == '\n') ++i;
      lines.push_back(counts);
      counts = {};
      continue;
    }
    for (int k = 0; k < 4; ++k) counts[k] += c == candidates[k];
  }
  if (complete && i >= head.size() && counts != std::array<int, 4>{}) lines.push_back(counts);
  char best = ',';
  int best_count = 0;
  for (int k = 0; k < 4; ++k) {
    if (lines.empty()) break;
    const int n = lines[0][k];
    bool same = n > 0;
    for (const auto& l : lines) same = same && l[k] == n;
    if (same && n > best_count) {
      best = candidates[k];
      best_count = n;
    }
  }
  return best;
}

Result<int64_t> ParseBytes(const std::string& text) {
  if (text.empty()) return Status::Invalid("empty size");
  size_t pos = 0;
  double v;
  try {
    v = std::stod(text, &pos);
  } catch (...) {
    return Status::Invalid("'", text, "' is not a size (bytes, or with K, M, G: 256M)");
  }
  std::string unit = text.substr(pos);
  std::transform(unit.begin(), unit.end(), unit.begin(), [](char c) { return std::toupper(c); });
  double mult = 1;
  if (unit == "K" || unit == "KB" || unit == "KIB") mult = 1024.0;
  else if (unit == "M" || unit == "MB" || unit == "MIB") mult = 1024.0 * 1024;
  else if (unit == "G" || unit == "GB" || unit == "GIB") mult = 1024.0 * 1024 * 1024;
  else if (!unit.empty() && unit != "B") {
    return Status::Invalid("'", text, "' is not a size (bytes, or with K, M, G: 256M)");
  }
  if (v <= 0) return Status::Invalid("'", text, "': the size must be positive");
  return static_cast<int64_t>(v * mult);
}

class CsvSource final : public BatchSource {
 public:
  std::unique_ptr<csv::StreamingReader> reader;
  std::unique_ptr<io::FileOutputStream> rejects_out;
  std::vector<std::string> shown;  // the first rejects, for stderr
  bool tsv = false;
  std::unique_ptr<ThreadPool> own_pool;  // --threads N > 1

  const SchemaPtr& schema() const override { return reader->schema(); }
  std::string_view format_name() const override { return tsv ? "TSV" : "CSV"; }
  Result<RecordBatchPtr> Next() override { return reader->Next(); }
  int64_t total_rows() const override { return -1; }
  int64_t bytes_done() const override { return reader->bytes_read(); }
  void set_name(std::string n) { name_ = std::move(n); }
  void set_total_bytes(int64_t n) { total_bytes_ = n; }
};

}  // namespace

void AddTextInputFlags(CLI::App* cmd, TextInputFlags* f) {
  const char* group = "CSV / TSV input";
  cmd->add_option("--input-format", f->input_format,
                  "csv, tsv, jsonl, parquet or arrow (default: from the extension: .csv .tsv "
                  ".jsonl, also .gz / .zst compressed; else Parquet or Arrow IPC by content)")
      ->group(group);
  cmd->add_option("--delimiter", f->delimiter,
                  "Field delimiter, one character or \\t (default: detected among , TAB ; | "
                  "from the first lines and printed; TAB for .tsv)")
      ->group(group);
  cmd->add_option("--quote", f->quote, "Quote character (default \")")->group(group);
  cmd->add_flag("--no-quoting", f->no_quoting, "Quotes are ordinary characters")->group(group);
  f->null_values_option =
      cmd->add_option("--null-values", f->null_values,
                      "A string read as null (repeat the flag; default: pyarrow's list: \"\", NA, "
                      "NULL, NaN, N/A, null, nan, #N/A, ...)")
          ->group(group);
  f->true_values_option =
      cmd->add_option("--true-values", f->true_values, "A string read as true (repeat; default "
                      "1 True TRUE true)")->group(group);
  f->false_values_option =
      cmd->add_option("--false-values", f->false_values, "A string read as false (repeat; "
                      "default 0 False FALSE false)")->group(group);
  cmd->add_flag("--strings-can-be-null", f->strings_can_be_null,
                "Null strings in string columns too (pyarrow's strings_can_be_null)")
      ->group(group);
  cmd->add_option("--skip-rows", f->skip_rows, "Rows skipped before the header")
      ->check(CLI::NonNegativeNumber)
      ->group(group);
  cmd->add_flag("--no-header", f->no_header, "The first row is data: columns are f0, f1, ...")
      ->group(group);
  cmd->add_option("--column-names", f->column_names,
                  "Column names (repeat); the first row is then data")
      ->group(group);
  cmd->add_option("--infer-rows", f->infer_rows,
                  "Rows type inference looks at: N, or all (two passes; files only). Default: "
                  "the first block (1 MiB), as pyarrow")
      ->group(group);
  cmd->add_option("--schema", f->schema,
                  "Column types, e.g. \"a:int32,b:timestamp[ms],c:string\" (others inferred)")
      ->group(group);
  cmd->add_option("--on-error", f->on_error,
                  "fail (default): the first bad row stops the conversion; skip: bad rows are "
                  "rejected, counted and reported (exit code 1 unless --allow-rejects)")
      ->check(CLI::IsMember({"fail", "skip"}))
      ->group(group);
  cmd->add_option("--rejects", f->rejects, "With --on-error skip: write rejected rows verbatim "
                  "to this file")->group(group);
  cmd->add_flag("--allow-rejects", f->allow_rejects, "Exit 0 even when rows were rejected")
      ->group(group);
  cmd->add_option("--encoding", f->encoding,
                  "Input encoding (as pyarrow's ReadOptions.encoding; any iconv name: latin1, "
                  "cp1252, utf-16, ...); default utf8")
      ->group(group);
  cmd->add_option("--threads", f->threads,
                  "Threads: 1 = everything on one thread; N > 1: the columns of each block "
                  "converted on N threads; 0 (default) = on the usable cores. Tokenizing runs "
                  "on one thread; Parquet encoding (N != 1) on the writer's pool of the usable "
                  "cores. The file is the same either way")
      ->check(CLI::NonNegativeNumber)
      ->group(group);
  cmd->add_option("--memory-limit", f->memory_limit,
                  "Cap on what the conversion holds (e.g. 256M): row groups close at a quarter "
                  "of it (row_group_bytes) and blocks are read at 1/16 of it at most")
      ->group(group);
  f->block_size_option =
      cmd->add_option("--block-size", f->block_size, "Bytes read and parsed at a time (1 MiB)")
          ->check(CLI::PositiveNumber)
          ->group(group);
}

Result<InputFormat> ResolveInputFormat(const std::string& path, const TextInputFlags& f) {
  if (!f.input_format.empty()) {
    std::string v = f.input_format;
    std::transform(v.begin(), v.end(), v.begin(), [](char c) { return std::tolower(c); });
    if (v == "csv") return InputFormat::kCsv;
    if (v == "tsv") return InputFormat::kTsv;
    if (v == "jsonl" || v == "ndjson") return InputFormat::kJsonl;
    if (v == "parquet") return InputFormat::kParquet;
    if (v == "arrow" || v == "ipc") return InputFormat::kArrow;
    return Status::Invalid("--input-format: '", f.input_format,
                           "' is not one of csv, tsv, jsonl, parquet, arrow");
  }
  const std::string_view base = csv::StripCompressionSuffix(path);
  if (EndsWithCi(base, ".csv")) return InputFormat::kCsv;
  if (EndsWithCi(base, ".tsv") || EndsWithCi(base, ".tab")) return InputFormat::kTsv;
  if (EndsWithCi(base, ".jsonl") || EndsWithCi(base, ".ndjson")) return InputFormat::kJsonl;
  return InputFormat::kAuto;
}

Status ApplyResourceFlags(const TextInputFlags& f, bool text_input,
                          parquet::WriterOptions* options, int64_t* block_size) {
  if (f.threads != 1) options->use_threads = true;
  if (f.memory_limit.empty()) return Status::OK();
  QUIVER_ASSIGN_OR_RAISE(int64_t limit, ParseBytes(f.memory_limit));
  constexpr int64_t kMin = 16 << 20;
  if (limit < kMin) {
    return Status::Invalid("--memory-limit ", f.memory_limit, " is below the 16 MiB needed to ",
                           "hold a block, a batch and a row group's pages");
  }
  const int64_t group_cap = limit / 4;
  if (options->row_group_bytes.has_value() && *options->row_group_bytes > group_cap) {
    return Status::Invalid("--row-group-bytes ", *options->row_group_bytes,
                           " does not fit --memory-limit ", f.memory_limit, " (at most ",
                           group_cap, ")");
  }
  if (!options->row_group_bytes.has_value()) options->row_group_bytes = group_cap;
  if (text_input) *block_size = std::min(*block_size, limit / 16);
  return Status::OK();
}

Result<std::unique_ptr<BatchSource>> OpenCsvSource(const std::string& path, bool tsv,
                                                   const TextInputFlags& f, int64_t block_size,
                                                   std::string* note) {
  const std::string name = path == "-" ? "<stdin>" : path;
  csv::ReadOptions read;
  read.block_size = block_size;
  read.skip_rows = f.skip_rows;
  read.autogenerate_column_names = f.no_header;
  read.column_names = f.column_names;
  if (f.no_header && !f.column_names.empty()) {
    return Status::Invalid("--no-header and --column-names do not go together");
  }
  csv::ParseOptions parse;
  if (f.quote.size() != 1) return Status::Invalid("--quote must be one character");
  parse.quote_char = f.quote[0];
  parse.quoting = !f.no_quoting;
  csv::ConvertOptions convert;
  if (f.null_values_option != nullptr && f.null_values_option->count() > 0) {
    convert.null_values = f.null_values;
  }
  if (f.true_values_option != nullptr && f.true_values_option->count() > 0) {
    convert.true_values = f.true_values;
  }
  if (f.false_values_option != nullptr && f.false_values_option->count() > 0) {
    convert.false_values = f.false_values;
  }
  convert.strings_can_be_null = f.strings_can_be_null;
  if (!f.schema.empty()) {
    QUIVER_ASSIGN_OR_RAISE(convert.column_types, csv::ParseSchemaSpec(f.schema));
  }
  if (f.infer_rows == "all") {
    if (path == "-") {
      return Status::Invalid("--infer-rows all reads the input twice: give a file, not stdin");
    }
    convert.infer_rows = csv::ConvertOptions::kInferAll;
  } else if (!f.infer_rows.empty()) {
    char* end = nullptr;
    const long long n = std::strtoll(f.infer_rows.c_str(), &end, 10);
    if (end == f.infer_rows.c_str() || *end != '\0' || n <= 0) {
      return Status::Invalid("--infer-rows: '", f.infer_rows, "' is not a positive number or all");
    }
    convert.infer_rows = n;
  }
  convert.on_error = f.on_error == "skip" ? csv::OnError::kSkip : csv::OnError::kFail;
  if (!f.rejects.empty() && convert.on_error != csv::OnError::kSkip) {
    return Status::Invalid("--rejects needs --on-error skip");
  }

  QUIVER_ASSIGN_OR_RAISE(auto input, csv::OpenInput(path, f.encoding));
  // The delimiter: given, TAB for TSV, or detected from the first bytes.
  if (!f.delimiter.empty()) {
    if (f.delimiter == "\\t" || f.delimiter == "tab") {
      parse.delimiter = '\t';
    } else if (f.delimiter.size() == 1) {
      parse.delimiter = f.delimiter[0];
    } else {
      return Status::Invalid("--delimiter must be one character (or \\t)");
    }
  } else if (tsv) {
    parse.delimiter = '\t';
  } else {
    std::string head;
    bool complete = false;
    while (static_cast<int64_t>(head.size()) < kSniffBytes) {
      QUIVER_ASSIGN_OR_RAISE(auto b, input->Read(kSniffBytes - static_cast<int64_t>(head.size())));
      if (b->size() == 0) {
        complete = true;
        break;
      }
      head.append(reinterpret_cast<const char*>(b->data()), static_cast<size_t>(b->size()));
    }
    parse.delimiter = DetectDelimiter(head, complete, parse.quote_char);
    *note = fmt::format("delimiter {} (detected from the first lines; --delimiter to choose)",
                        parse.delimiter == '\t' ? std::string("TAB")
                                                : "'" + std::string(1, parse.delimiter) + "'");
    input = std::make_unique<PrefixedStream>(std::move(head), std::move(input));
  }

  auto source = std::make_unique<CsvSource>();
  source->set_name(name);
  source->tsv = tsv;
  if (path != "-") {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && csv::CompressionFromName(path) == csv::Compression::kNone) {
      source->set_total_bytes(st.st_size);
    }
  }
  if (!f.rejects.empty()) {
    QUIVER_ASSIGN_OR_RAISE(source->rejects_out, io::FileOutputStream::Open(f.rejects));
  }
  CsvSource* raw = source.get();
  csv::RejectSink sink = [raw, name](const csv::RejectedRow& row) -> Status {
    if (static_cast<int>(raw->shown.size()) < kRejectsShown) {
      raw->shown.push_back(fmt::format("{}:{}: {}", name, row.line, row.reason));
    }
    if (raw->rejects_out) {
      QUIVER_RETURN_NOT_OK(raw->rejects_out->Write(row.bytes.data(),
                                                   static_cast<int64_t>(row.bytes.size())));
      QUIVER_RETURN_NOT_OK(raw->rejects_out->Write("\n", 1));
    }
    return Status::OK();
  };
  if (f.threads == 0) {
    read.thread_pool = ThreadPool::Cpu();
  } else if (f.threads > 1) {
    source->own_pool = std::make_unique<ThreadPool>(f.threads - 1);
    read.thread_pool = source->own_pool.get();
  }
  csv::Reopen reopen;
  if (path != "-") {
    const std::string encoding = f.encoding;
    reopen = [path, encoding]() { return csv::OpenInput(path, encoding); };
  }
  QUIVER_ASSIGN_OR_RAISE(source->reader,
                         csv::StreamingReader::Open(std::move(input), name, read, parse, convert,
                                                    std::move(reopen), std::move(sink)));
  return std::unique_ptr<BatchSource>(std::move(source));
}

int FinishTextSource(BatchSource* source, const TextInputFlags& f, bool quiet) {
  auto* csv_source = dynamic_cast<CsvSource*>(source);
  if (csv_source == nullptr) return kExitOk;
  if (csv_source->rejects_out) {
    Status st = csv_source->rejects_out->Close();
    if (!st.ok()) {
      PrintError("convert", f.rejects + ": " + st.message());
      return kExitFailure;
    }
  }
  const int64_t rejected = csv_source->reader->rows_rejected();
  if (rejected == 0) return kExitOk;
  for (const std::string& line : csv_source->shown) fmt::print(stderr, "  rejected {}\n", line);
  fmt::print(stderr, "quiver convert: {} row{} rejected{}{}\n", rejected, rejected == 1 ? "" : "s",
             rejected > kRejectsShown ? " (the first 5 shown)" : "",
             f.rejects.empty() ? "" : "; written to " + f.rejects);
  (void)quiet;
  return f.allow_rejects ? kExitOk : kExitFailure;
}

}  // namespace quiver::cli

namespace quiver::cli {

std::string FirstCsvOnlyFlag(const TextInputFlags& f) {
  const TextInputFlags d;
  if (f.delimiter != d.delimiter) return "--delimiter";
  if (f.quote != d.quote || f.no_quoting) return "--quote/--no-quoting";
  if (f.null_values_option && f.null_values_option->count() > 0) return "--null-values";
  if (f.true_values_option && f.true_values_option->count() > 0) return "--true-values";
  if (f.false_values_option && f.false_values_option->count() > 0) return "--false-values";
  if (f.strings_can_be_null) return "--strings-can-be-null";
  if (f.skip_rows != 0) return "--skip-rows";
  if (f.no_header) return "--no-header";
  if (!f.column_names.empty()) return "--column-names";
  if (f.on_error != d.on_error) return "--on-error";
  if (!f.rejects.empty()) return "--rejects";
  if (f.allow_rejects) return "--allow-rejects";
  return {};
}

Status CheckNoTextFlags(const TextInputFlags& f) {
  const TextInputFlags d;
  std::string flag = FirstCsvOnlyFlag(f);
  if (flag.empty()) {
    if (!f.infer_rows.empty()) flag = "--infer-rows";
    else if (!f.schema.empty()) flag = "--schema";
    else if (f.encoding != d.encoding) flag = "--encoding";
    else if (f.block_size_option && f.block_size_option->count() > 0) flag = "--block-size";
    else if (f.threads != 0) flag = "--threads";
  }
  if (flag.empty()) return Status::OK();
  return Status::Invalid(flag, " applies to CSV / TSV input only (this input is Parquet or ",
                         "Arrow IPC; --input-format csv if it is CSV)");
}

}  // namespace quiver::cli
