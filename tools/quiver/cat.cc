// `quiver cat FILE [--columns a,b] [--head N] [--row-groups 0,2]
// [--where EXPR] [--stats] [--format table|csv|jsonl|arrow]`: the rows of a Parquet
// file (or an Arrow IPC file or stream) on standard output.
//
//   table  aligned columns for a terminal: a header (names, types, a rule),
//          then the rows; cells longer than --max-width code points are cut
//          ("…"), control characters escaped, nulls shown as "null".
//          Column widths come from the first batch (at most 1024 rows);
//          later cells wider than that are cut too.
//   csv    RFC 4180: a header of names, then one line per row; nulls are
//          empty fields, empty strings "" (quoted), fields with a comma,
//          quote, CR or LF quoted; values in full (cat_values.h).
//   jsonl  one JSON object per row, keyed by the top-level column names.
//   arrow  an Arrow IPC stream.
//
// The input is read batch by batch (batch_source.h); with --head N the
// batches hold at most N rows and reading stops once N rows are out, so no
// more pages are decoded than those rows need. A reader that goes away
// (`quiver cat f | head -1`) ends the command quietly with exit 0: SIGPIPE
// is ignored and EPIPE on standard output ends the output.
//
// --where EXPR (compute::ParseWhere's grammar, docs/interfaces.md): only
// the matching rows, filtered in the reader (row groups and pages that
// cannot match are not read); a syntax error exits 2 naming the column of
// the text; a column the file lacks or a literal it cannot be compared
// with exits 1 with pyarrow's message. --head N --where stops reading once
// N rows matched.
//
// --stats: once the rows are out, what the read did, on standard error as
// `key: value` lines with read_stats' keys (docs/interfaces.md:
// row_groups_pruned_statistics ... values_decoded), the counters of
// parquet::FileReader::read_stats() for the batches this command read
// (with --head, those up to the N-th row); an IPC input, which has no read
// stats, prints `read_stats: none`. Printed too when the reader of
// standard output went away (a quiet end), not after an error.
//
// Exit codes: 0 ok, 1 unreadable input / unknown column or row group /
// write error, 2 usage.
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "batch_source.h"
#include "cat_values.h"
#include "cli_common.h"
#include "json_writer.h"
#include "progress.h"
#include "quiver/ipc/writer.h"
#include "quiver/parquet/reader/file_reader.h"
#include "text_table.h"

namespace quiver::cli {

namespace {

constexpr std::string_view kCommand = "cat";
constexpr int64_t kTableBatchRows = 1024;

struct CatArgs {
  std::string path;
  std::vector<std::string> columns;
  std::vector<int> row_groups;
  int64_t head = -1;
  std::string where;
  std::string format = "table";
  size_t max_width = 40;
  bool quiet = false;
  bool stats = false;
};

// Writes batches in one format to standard output.
class RowWriter {
 public:
  virtual ~RowWriter() = default;
  virtual Status Begin(const Schema& schema) = 0;
  virtual Status Write(const RecordBatch& batch) = 0;
  virtual Status End() { return sink_->Close(); }

 protected:
  explicit RowWriter(StdoutSink* sink) : sink_(sink) {}
  StdoutSink* sink_;
};

// RFC 4180 field quoting (also for the empty string, which would otherwise
// read as a null).
void AppendCsvField(std::string_view text, std::string* out) {
  const bool quote = text.empty() || text.find_first_of(",\"\r\n") != std::string_view::npos;
  if (!quote) {
    out->append(text);
    return;
  }
  *out += '"';
  for (char c : text) {
    if (c == '"') *out += '"';
    *out += c;
  }
  *out += '"';
}

class CsvWriter final : public RowWriter {
 public:
  explicit CsvWriter(StdoutSink* sink) : RowWriter(sink) {}
  Status Begin(const Schema& schema) override {
    std::string line;
    for (int c = 0; c < schema.num_fields(); ++c) {
      if (c > 0) line += ',';
      AppendCsvField(schema.field(c)->name(), &line);
    }
    line += '\n';
    return sink_->Write(line);
  }
  Status Write(const RecordBatch& batch) override {
    std::string text, cell;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      for (int c = 0; c < batch.num_columns(); ++c) {
        if (c > 0) text += ',';
        const ArrayData& column = *batch.column_data(c);
        if (column.IsNull(r)) continue;
        cell.clear();
        QUIVER_RETURN_NOT_OK(AppendCell(column, r, CellFormat::kText, &cell));
        AppendCsvField(cell, &text);
      }
      text += '\n';
      if (text.size() >= (size_t{1} << 16)) {
        QUIVER_RETURN_NOT_OK(sink_->Write(text));
        text.clear();
      }
    }
    return sink_->Write(text);
  }
};

class JsonLinesWriter final : public RowWriter {
 public:
  explicit JsonLinesWriter(StdoutSink* sink) : RowWriter(sink) {}
  Status Begin(const Schema& schema) override {
    for (int c = 0; c < schema.num_fields(); ++c) {
      std::string key;
      JsonWriter::AppendQuoted(schema.field(c)->name(), &key);
      keys_.push_back(std::move(key) + ":");
    }
    return Status::OK();
  }
  Status Write(const RecordBatch& batch) override {
    std::string text;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      text += '{';
      for (int c = 0; c < batch.num_columns(); ++c) {
        if (c > 0) text += ',';
        text += keys_[static_cast<size_t>(c)];
        QUIVER_RETURN_NOT_OK(AppendCell(*batch.column_data(c), r, CellFormat::kJson, &text));
      }
      text += "}\n";
      if (text.size() >= (size_t{1} << 16)) {
        QUIVER_RETURN_NOT_OK(sink_->Write(text));
        text.clear();
      }
    }
    return sink_->Write(text);
  }

 private:
  std::vector<std::string> keys_;
};

class ArrowStreamWriter final : public RowWriter {
 public:
  explicit ArrowStreamWriter(StdoutSink* sink) : RowWriter(sink) {}
  Status Begin(const Schema& schema) override {
    QUIVER_ASSIGN_OR_RAISE(writer_, ipc::MakeStreamWriter(
                                        sink_, std::make_shared<Schema>(schema)));
    return Status::OK();
  }
  Status Write(const RecordBatch& batch) override { return writer_->WriteRecordBatch(batch); }
  Status End() override {
    QUIVER_RETURN_NOT_OK(writer_->Close());
    return sink_->Close();
  }

 private:
  std::shared_ptr<ipc::RecordBatchWriter> writer_;
};

class TableWriter final : public RowWriter {
 public:
  TableWriter(StdoutSink* sink, size_t max_width) : RowWriter(sink), max_width_(max_width) {}
  Status Begin(const Schema& schema) override {
    for (int c = 0; c < schema.num_fields(); ++c) {
      const auto& field = schema.field(c);
      names_.push_back(Cut(field->name()));
      types_.push_back(Cut(field->type()->ToString()));
      const Type id = field->type()->id();
      const Type value_id = id == Type::kDictionary
                                ? TypeAs<DictionaryType>(*field->type()).value_type()->id()
                                : id;
      align_ += IsInteger(value_id) || IsFloating(value_id) || IsDecimal(value_id) ? 'r' : 'l';
    }
    return Status::OK();
  }
  Status Write(const RecordBatch& batch) override {
    const bool first = !header_written_;
    TextTable table(align_);
    if (first) {
      table.Add(names_);
      table.Add(types_);
      table.AddRule();
    } else {
      table.SetMinWidths(widths_);
    }
    std::string cell;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      std::vector<std::string> row;
      row.reserve(static_cast<size_t>(batch.num_columns()));
      for (int c = 0; c < batch.num_columns(); ++c) {
        const ArrayData& column = *batch.column_data(c);
        cell.clear();
        if (column.IsNull(r)) {
          cell = "null";
        } else {
          QUIVER_RETURN_NOT_OK(AppendCell(column, r, CellFormat::kText, &cell));
        }
        const size_t width = first ? max_width_ : widths_[static_cast<size_t>(c)];
        row.push_back(TruncateDisplay(EscapeBytes(cell), width));
      }
      table.Add(std::move(row));
    }
    if (first) {
      widths_ = table.Widths();
      header_written_ = true;
    }
    std::string text;
    table.Render(&text, 0);
    return sink_->Write(text);
  }
  Status End() override {
    if (!header_written_) {  // no rows: the header alone
      TextTable table(align_);
      table.Add(names_);
      table.Add(types_);
      table.AddRule();
      std::string text;
      table.Render(&text, 0);
      QUIVER_RETURN_NOT_OK(sink_->Write(text));
    }
    return sink_->Close();
  }

 private:
  std::string Cut(const std::string& text) const {
    return TruncateDisplay(EscapeBytes(text), max_width_);
  }

  size_t max_width_;
  std::string align_;
  std::vector<std::string> names_, types_;
  bool header_written_ = false;
  std::vector<size_t> widths_;
};

std::unique_ptr<RowWriter> MakeRowWriter(const CatArgs& args, StdoutSink* sink) {
  if (args.format == "csv") return std::make_unique<CsvWriter>(sink);
  if (args.format == "jsonl") return std::make_unique<JsonLinesWriter>(sink);
  if (args.format == "arrow") return std::make_unique<ArrowStreamWriter>(sink);
  return std::make_unique<TableWriter>(sink, args.max_width);
}

// --stats: the source's read_stats on stderr, one `key: value` line per
// counter, keyed as docs/interfaces.md names them.
void PrintReadStats(BatchSource& source) {
  const parquet::FileReader* reader = source.parquet_reader();
  if (reader == nullptr) {
    std::fputs("read_stats: none\n", stderr);
    return;
  }
  const parquet::ReadStats s = reader->read_stats();
  for (const auto& [key, value] : s.Counters()) {
    std::fprintf(stderr, "%s: %" PRId64 "\n", key, value);
  }
}

int RunCat(const CatArgs& args) {
  IgnoreSigpipe();
  SourceOptions options;
  if (!args.columns.empty()) options.columns = args.columns;
  if (!args.row_groups.empty()) options.row_groups = args.row_groups;
  if (!args.where.empty()) {
    auto filter = compute::ParseWhere(args.where);
    if (!filter.ok()) {  // a usage error, naming the column of the text
      PrintError(kCommand, filter.status().message());
      return kExitUsage;
    }
    options.filter = std::move(filter).MoveValueUnsafe();
  }
  int64_t batch_rows = args.format == "table" ? kTableBatchRows : 0;
  if (args.head >= 0) {
    const int64_t head = std::max<int64_t>(args.head, 1);
    batch_rows = batch_rows > 0 ? std::min(batch_rows, head) : std::min<int64_t>(head, 65536);
  }
  options.batch_size = batch_rows;
  auto opened = BatchSource::Open(args.path, options);
  if (!opened.ok()) {
    PrintError(kCommand, ErrorMessage(opened.status()));
    return kExitFailure;
  }
  std::unique_ptr<BatchSource> source = opened.MoveValueUnsafe();

  StdoutSink sink;
  std::unique_ptr<RowWriter> writer = MakeRowWriter(args, &sink);
  int64_t total_rows = source->total_rows();
  if (args.head >= 0 && total_rows >= 0) total_rows = std::min(total_rows, args.head);
  // The progress line would break a table on the same terminal.
  Progress progress(!args.quiet && ::isatty(STDOUT_FILENO) != 1, total_rows,
                    source->total_bytes());
  auto fail = [&](const Status& st) {
    progress.Finish();
    if (sink.broken_pipe()) {  // the reader went away: a quiet end
      if (args.stats) PrintReadStats(*source);
      return static_cast<int>(kExitOk);
    }
    PrintError(kCommand, ErrorMessage(st));
    return static_cast<int>(kExitFailure);
  };

  if (Status st = writer->Begin(*source->schema()); !st.ok()) return fail(st);
  int64_t rows = 0;
  while (args.head < 0 || rows < args.head) {
    auto batch = source->Next();
    if (!batch.ok()) return fail(batch.status());
    if (*batch == nullptr) break;
    RecordBatchPtr out = *batch;
    if (args.head >= 0 && out->num_rows() > args.head - rows) out = out->Slice(0, args.head - rows);
    if (Status st = writer->Write(*out); !st.ok()) {
      return fail(st.WithContext(source->name(), ": row ", rows, ": "));
    }
    rows += out->num_rows();
    progress.Update(rows, source->bytes_done());
  }
  if (Status st = writer->End(); !st.ok()) return fail(st);
  progress.Finish();
  if (args.stats) PrintReadStats(*source);
  return kExitOk;
}

}  // namespace

Runner AddCatCommand(CLI::App* app) {
  auto args = std::make_shared<CatArgs>();
  CLI::App* cmd = app->add_subcommand(
      "cat", "Print the rows of a Parquet file (or an Arrow IPC file or stream)");
  cmd->add_option("FILE", args->path, "Parquet file ('-' = standard input)")->required();
  cmd->add_option("--columns", args->columns,
                  "Only these columns: top-level names or dotted leaf paths (comma-separated)")
      ->delimiter(',')
      ->type_name("COL,...");
  cmd->add_option("--head", args->head, "Only the first N rows (reading no further)")
      ->check(CLI::NonNegativeNumber)
      ->type_name("N");
  cmd->add_option("--where", args->where,
                  "Only the rows where EXPR is true, e.g. \"x >= 5 and name == 'a'\" (row groups and "
                  "pages that cannot match are not read; with --head, reading stops at N matches)")
      ->type_name("EXPR");
  cmd->add_option("--row-groups", args->row_groups, "Only these row groups (comma-separated)")
      ->delimiter(',')
      ->check(CLI::NonNegativeNumber)
      ->type_name("I,...");
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"table", "csv", "jsonl", "arrow"}))
      ->capture_default_str();
  cmd->add_option("--max-width", args->max_width, "table: cells cut to this many characters")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--stats", args->stats,
                "After the rows, print what the read did on stderr as `key: value` lines "
                "(read_stats: row groups pruned, pages skipped and decompressed, bytes read, "
                "values decoded; `read_stats: none` for Arrow IPC input)");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress line");
  cmd->footer(
      "Values: table cuts long cells; csv and jsonl print values in full (binary as hex in\n"
      "csv, base64 in jsonl; nested values as JSON); arrow writes an Arrow IPC stream.\n"
      "Examples:\n"
      "  quiver cat data.parquet --head 20\n"
      "  quiver cat data.parquet --columns id,user.name --format csv > out.csv\n"
      "  quiver cat data.parquet --where \"id >= 100 and id < 200\" --columns name\n"
      "  quiver cat data.parquet --where \"id >= 100 and id < 200\" --stats > /dev/null\n"
      "  quiver cat data.parquet --row-groups 0 --format arrow | some-arrow-consumer\n");
  return [args] { return RunCat(*args); };
}

}  // namespace quiver::cli
