// `quiver convert INPUT OUTPUT.parquet [options]`: Arrow IPC or Parquet ->
// Parquet, and `quiver rewrite IN.parquet OUT.parquet [options]`: the same
// for a Parquet input, with guards against overwriting the input and an
// --in-place mode. Both are one loop (Transcode below).
//
// The input is read by BatchSource (batch_source.h): an Arrow IPC file or
// stream is read zero-copy from the mapped input and fully validated (the
// writer must never see offsets pointing outside their buffers); a Parquet
// input (leading "PAR1") is decoded batch by batch, so memory stays bounded
// by about a batch plus the writer's open row group. Its key/value metadata
// (pandas, huggingface, ...) is carried over; ARROW:schema is regenerated
// by the writer from the schema read. Row groups of the output follow the
// writer options, not the input's.
//
// Batches go one by one to parquet::FileWriter, which writes a temporary
// file next to OUTPUT and renames it only on a successful Close(). Every
// failure path calls Abort(), so an error or Ctrl-C never leaves OUTPUT or
// a temporary file; `rewrite --in-place` therefore replaces IN only once
// the new file is complete.
//
// `rewrite --where EXPR` keeps the matching rows only (the reader's
// filters, as `cat --where`: row groups and pages that cannot match are not
// read). `rewrite --sort-by COL[:asc|:desc][:nulls_first|:nulls_last]`
// (repeatable, or a comma list; first key first) reads every (matching)
// row into memory, sorts them with compute::SortIndices (stable, pyarrow's
// order: NaN after numbers, nulls last unless :nulls_first), writes them in
// that order a slice at a time (compute::Take of 64Ki indices), and sets
// every row group's sorting_columns to the keys (leaf index, descending,
// nulls_first). Memory: the decoded input (after --where) once, plus the
// sort's keys and row numbers (sort.h: up to about 64 bytes a row while
// sorting, more for string keys, and 8 a row for each key), plus one
// 64Ki-row slice of output; there is no external sort.
//
// Exit codes: 0 ok, 1 bad input / write failure / unsupported option /
// a --where or --sort-by column the file lacks, 2 usage error (unknown
// flag, bad option value, OUT naming IN without --in-place, a --where
// syntax error), 128+N on signal N.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "batch_source.h"
#include "cli_common.h"
#include "convert_csv.h"
#include "convert_json.h"
#include "convert_options.h"
#include "progress.h"
#include "quiver/array/concatenate.h"
#include "quiver/compute/expression.h"
#include "quiver/compute/sort.h"
#include "quiver/compute/take.h"
#include "quiver/io/file.h"
#include "quiver/io/interfaces.h"
#include "quiver/parquet/writer/file_writer.h"

namespace quiver::cli {

namespace {

struct TranscodeArgs {
  std::string input;
  std::string output;
  WriterFlags writer;
  bool quiet = false;
  bool skip_input_validation = false;
  bool in_place = false;  // rewrite only
  std::string where;                 // rewrite only
  std::vector<std::string> sort_by;  // rewrite only
  TextInputFlags text;    // convert only
};

// Fails when OUTPUT would replace INPUT: the same path, or (hard links,
// symlinks, "./x" vs "x") the same file.
Status CheckNotInput(const std::string& input, const std::string& output) {
  if (input == "-" || output == "-") return Status::OK();
  struct stat in_st, out_st;
  const bool same = input == output ||
                    (::stat(input.c_str(), &in_st) == 0 && ::stat(output.c_str(), &out_st) == 0 &&
                     in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino);
  if (!same) return Status::OK();
  return Status::Invalid("'", output, "' is the input file; use --in-place to rewrite it");
}

// Leaves of a type in the Parquet schema (a struct's, list's or map's
// children's; any other type is one leaf).
int CountLeaves(const DataType& type) {
  if (type.id() == Type::kDictionary || type.num_fields() == 0) return 1;
  int leaves = 0;
  for (const auto& child : type.fields()) leaves += CountLeaves(*child->type());
  return leaves;
}

// The sort keys of --sort-by against the input's schema, and the
// sorting_columns they declare (leaf indices). A column the schema lacks
// or of a nested type is Invalid naming it.
Status ResolveSortBy(const Schema& schema, const std::vector<SortByKey>& sort_by,
                     std::vector<compute::SortKey>* keys,
                     std::vector<parquet::SortingColumn>* sorting) {
  for (const auto& key : sort_by) {
    int leaf = 0;
    int found = -1;
    for (int c = 0; c < schema.num_fields(); ++c) {
      if (schema.field(c)->name() == key.column) {
        found = c;
        break;
      }
      leaf += CountLeaves(*schema.field(c)->type());
    }
    if (found < 0) {
      std::string names;
      for (int c = 0; c < schema.num_fields(); ++c) {
        names += (c > 0 ? ", " : "") + schema.field(c)->name();
      }
      return Status::Invalid("--sort-by: no column named '", key.column, "' (columns: ", names,
                             ")");
    }
    const TypePtr& type = schema.field(found)->type();
    if (IsNested(type->id())) {
      return Status::Invalid("--sort-by: column '", key.column, "' is ", type->ToString(),
                             ", which cannot be sorted (only columns of one leaf)");
    }
    keys->push_back({key.column,
                     key.descending ? compute::SortOrder::kDescending : compute::SortOrder::kAscending,
                     key.nulls_first ? compute::NullPlacement::kAtStart
                                     : compute::NullPlacement::kAtEnd});
    sorting->push_back({leaf, key.descending, key.nulls_first});
  }
  return Status::OK();
}

// The batches as one (each column's chunks concatenated), sorted by the
// keys, handed to the writer a slice of rows at a time.
constexpr int64_t kSortedSliceRows = 65536;
Status WriteSorted(const SchemaPtr& schema, std::vector<RecordBatchPtr>* batches,
                   const std::vector<compute::SortKey>& keys, parquet::FileWriter* writer) {
  if (batches->empty()) return Status::OK();
  int64_t rows = 0;
  for (const auto& b : *batches) rows += b->num_rows();
  std::vector<ArrayDataPtr> columns;
  for (int c = 0; c < schema->num_fields(); ++c) {
    std::vector<ArrayDataPtr> chunks;
    for (const auto& b : *batches) chunks.push_back(b->column_data(c));
    if (chunks.size() == 1) {
      columns.push_back(chunks[0]);
    } else {
      QUIVER_ASSIGN_OR_RAISE(auto combined, Concatenate(chunks));
      columns.push_back(std::move(combined));
    }
  }
  batches->clear();  // the combined columns hold the rows now
  RecordBatch all(schema, rows, std::move(columns));
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr indices, compute::SortIndices(all, keys));
  for (int64_t offset = 0; offset < rows; offset += kSortedSliceRows) {
    if (InterruptSignal() != 0) return Status::OK();  // the caller reports it
    const int64_t length = std::min(kSortedSliceRows, rows - offset);
    QUIVER_ASSIGN_OR_RAISE(RecordBatchPtr slice,
                           compute::Take(all, indices->Slice(offset, length)));
    QUIVER_RETURN_NOT_OK(writer->WriteRecordBatch(*slice));
  }
  return Status::OK();
}

int Transcode(std::string_view command, const TranscodeArgs& args, bool parquet_only) {
  const auto start = std::chrono::steady_clock::now();
  auto options = MakeWriterOptions(args.writer);
  if (!options.ok()) {
    PrintError(command, options.status().message());
    return kExitUsage;
  }
  const std::string output_name = args.output == "-" ? "<stdout>" : args.output;

  InputFormat format = InputFormat::kAuto;
  if (!parquet_only) {
    auto resolved = ResolveInputFormat(args.input, args.text);
    if (!resolved.ok()) {
      PrintError(command, resolved.status().message());
      return kExitUsage;
    }
    format = *resolved;
  }
  const bool text_input = format == InputFormat::kCsv || format == InputFormat::kTsv;
  int64_t block_size = args.text.block_size;
  if (!parquet_only && !text_input && format != InputFormat::kJsonl) {
    if (Status st = CheckNoTextFlags(args.text); !st.ok()) {
      PrintError(command, st.message());
      return kExitUsage;
    }
  }
  if (!parquet_only) {
    if (Status st = ApplyResourceFlags(args.text, text_input || format == InputFormat::kJsonl, &*options,
                                        &block_size); !st.ok()) {
      PrintError(command, st.message());
      return kExitUsage;
    }
  }
  std::unique_ptr<BatchSource> source;
  if (format == InputFormat::kJsonl) {
    auto opened_source = OpenJsonSource(args.input, args.text, block_size);
    if (!opened_source.ok()) {
      PrintError(command, ErrorMessage(opened_source.status()));
      return kExitFailure;
    }
    source = opened_source.MoveValueUnsafe();
  } else if (text_input) {
    std::string note;
    auto opened_source =
        OpenCsvSource(args.input, format == InputFormat::kTsv, args.text, block_size, &note);
    if (!opened_source.ok()) {
      PrintError(command, ErrorMessage(opened_source.status()));
      return kExitFailure;
    }
    if (!note.empty() && !args.quiet) PrintError(command, note);
    source = opened_source.MoveValueUnsafe();
  } else {
    SourceOptions source_options;
    source_options.validate_ipc = !args.skip_input_validation;
    if (!args.where.empty()) {
      auto filter = compute::ParseWhere(args.where);
      if (!filter.ok()) {  // a usage error, naming the column of the text
        PrintError(command, filter.status().message());
        return kExitUsage;
      }
      source_options.filter = std::move(filter).MoveValueUnsafe();
    }
    auto opened_source = BatchSource::Open(args.input, source_options);
    if (!opened_source.ok()) {
      PrintError(command, ErrorMessage(opened_source.status()));
      return kExitFailure;
    }
    source = opened_source.MoveValueUnsafe();
  }
  if (parquet_only && source->parquet_reader() == nullptr) {
    PrintError(command, source->name() + ": not a Parquet file (no leading \"PAR1\"); " +
                            "'quiver convert' reads Arrow IPC");
    return kExitFailure;
  }
  if (format == InputFormat::kParquet && source->parquet_reader() == nullptr) {
    PrintError(command, source->name() + ": --input-format parquet, but not a Parquet file");
    return kExitFailure;
  }
  if (format == InputFormat::kArrow && source->parquet_reader() != nullptr) {
    PrintError(command, source->name() + ": --input-format arrow, but a Parquet file");
    return kExitFailure;
  }

  std::vector<compute::SortKey> sort_keys;
  if (!args.sort_by.empty()) {
    auto sort_by = ParseSortBy(args.sort_by);
    if (!sort_by.ok()) {
      PrintError(command, sort_by.status().message());
      return kExitUsage;
    }
    if (!options->sorting_columns.empty()) {
      PrintError(command, "--sort-by sets sorting_columns itself: give no --sorting-column with it");
      return kExitUsage;
    }
    if (Status st = ResolveSortBy(*source->schema(), *sort_by, &sort_keys,
                                  &options->sorting_columns);
        !st.ok()) {
      PrintError(command, source->name() + ": " + st.message());
      return kExitFailure;
    }
  }

  // From here on Ctrl-C must not kill us before the writer cleans up.
  InstallInterruptHandlers();
  std::unique_ptr<io::FileOutputStream> stdout_sink;
  if (args.output == "-") {
    stdout_sink = io::FileOutputStream::FromDescriptor(STDOUT_FILENO, /*owns_fd=*/false);
  }
  auto opened = stdout_sink
                    ? parquet::FileWriter::Open(stdout_sink.get(), source->schema(), *options)
                    : parquet::FileWriter::Open(args.output, source->schema(), *options);
  if (!opened.ok()) {
    PrintError(command, output_name + ": " + ErrorMessage(opened.status()));
    return kExitFailure;
  }
  std::unique_ptr<parquet::FileWriter> writer = opened.MoveValueUnsafe();

  Progress progress(!args.quiet, source->total_rows(), source->total_bytes());
  auto fail = [&](const std::string& message) {
    writer->Abort();
    progress.Finish();
    PrintError(command, message);
    return kExitFailure;
  };
  int64_t num_batches = 0;
  int64_t num_rows = 0;
  std::vector<RecordBatchPtr> sorted_input;  // --sort-by: every batch, sorted at the end
  while (true) {
    if (int signo = InterruptSignal(); signo != 0) {
      fail(fmt::format("interrupted ({}); nothing written", strsignal(signo)));
      return 128 + signo;
    }
    auto batch = source->Next();
    if (!batch.ok()) return fail(ErrorMessage(batch.status()));
    if (*batch == nullptr) break;
    ++num_batches;
    num_rows += (*batch)->num_rows();
    if (!sort_keys.empty()) {
      sorted_input.push_back(*batch);
    } else if (Status st = writer->WriteRecordBatch(**batch); !st.ok()) {
      return fail(output_name + ": " + ErrorMessage(st));
    }
    progress.Update(num_rows, source->bytes_done());
  }
  if (!sort_keys.empty()) {
    if (Status st = WriteSorted(source->schema(), &sorted_input, sort_keys, writer.get());
        !st.ok()) {
      return fail(output_name + ": " + ErrorMessage(st));
    }
    if (int signo = InterruptSignal(); signo != 0) {
      fail(fmt::format("interrupted ({}); nothing written", strsignal(signo)));
      return 128 + signo;
    }
  }
  if (Status st = writer->Close(); !st.ok()) {
    progress.Finish();
    PrintError(command, output_name + ": " + ErrorMessage(st));
    return kExitFailure;
  }
  progress.Finish();
  const int text_exit = FinishTextSource(source.get(), args.text, args.quiet);

  int64_t bytes = 0;
  if (stdout_sink) {
    bytes = stdout_sink->Tell().ValueOr(0);
  } else {
    struct stat st;
    if (::stat(args.output.c_str(), &st) == 0) bytes = st.st_size;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!args.quiet) {
    // Close() succeeded above, so the footer is known.
    const auto meta = writer->metadata().ValueOrDie();
    // The summary goes to stderr when the Parquet bytes go to stdout.
    std::FILE* out = stdout_sink ? stderr : stdout;
    fmt::print(out, "{}: {} rows, {} row group{}, {} bytes ({}) from {} ({}, {} batch{}) in {:.3f} s\n",
               output_name, meta->num_rows(), meta->num_row_groups(),
               meta->num_row_groups() == 1 ? "" : "s", bytes, HumanBytes(bytes), source->name(),
               source->format_name(), num_batches, num_batches == 1 ? "" : "es", seconds);
  }
  return text_exit;
}

int RunRewrite(TranscodeArgs args) {
  constexpr std::string_view kCommand = "rewrite";
  if (args.input == "-") {
    PrintError(kCommand, "the input must be a file (standard input cannot be rewritten)");
    return kExitUsage;
  }
  if (args.in_place) {
    if (!args.output.empty() && CheckNotInput(args.input, args.output).ok()) {
      PrintError(kCommand, "--in-place rewrites IN itself: give no OUT (or OUT = IN)");
      return kExitUsage;
    }
    args.output = args.input;
  } else if (args.output.empty()) {
    PrintError(kCommand, "OUT is required (or --in-place to replace IN)");
    return kExitUsage;
  } else if (Status st = CheckNotInput(args.input, args.output); !st.ok()) {
    PrintError(kCommand, st.message());
    return kExitUsage;
  }
  return Transcode(kCommand, args, /*parquet_only=*/true);
}

// The command line of convert and rewrite: INPUT, OUTPUT (optional for
// rewrite --in-place), the one flag each has alone, and the writer flags.
struct CommandText {
  const char* name;
  const char* description;
  const char* input_help;
  const char* output_help;
  const char* footer;
};

std::shared_ptr<TranscodeArgs> AddTranscodeCommand(CLI::App* app, const CommandText& text,
                                                   bool rewrite) {
  auto args = std::make_shared<TranscodeArgs>();
  CLI::App* cmd = app->add_subcommand(text.name, text.description);
  cmd->add_option(rewrite ? "IN" : "INPUT", args->input, text.input_help)->required();
  auto* output = cmd->add_option(rewrite ? "OUT" : "OUTPUT", args->output, text.output_help);
  if (rewrite) {
    cmd->add_flag("--in-place", args->in_place,
                  "Replace IN (through a temporary file next to it, renamed over IN on success)");
    cmd->add_option("--where", args->where,
                    "Write only the rows where EXPR is true, e.g. \"x >= 5 and name == 'a'\" "
                    "(the grammar of 'quiver cat --where'; row groups and pages that cannot "
                    "match are not read)")
        ->type_name("EXPR");
    cmd->add_option("--sort-by", args->sort_by,
                    "Write the rows sorted by these top-level columns, first key first "
                    "(repeatable, or comma-separated; default ascending, nulls last; NaN after "
                    "numbers) and declare them as every row group's sorting_columns. Reads "
                    "all (matching) rows into memory: see below")
        ->delimiter(',')
        ->type_name("COL[:asc|:desc][:nulls_first|:nulls_last]");
  } else {
    output->required();
    cmd->add_flag("--skip-input-validation", args->skip_input_validation,
                  "Trust an IPC input's offsets and UTF-8 (skip the full validation of each "
                  "batch)");
  }
  cmd->add_flag("-q,--quiet", args->quiet, "Do not print the summary line or the progress line");
  AddWriterFlags(cmd, &args->writer);
  if (!rewrite) AddTextInputFlags(cmd, &args->text);
  cmd->footer(text.footer);
  return args;
}

}  // namespace

Runner AddConvertCommand(CLI::App* app) {
  auto args = AddTranscodeCommand(
      app,
      {"convert", "Convert CSV / TSV, Arrow IPC or Parquet to a Parquet file",
       "CSV or TSV (also .gz / .zst), Arrow IPC file or stream, or Parquet file ('-' = "
       "standard input)",
       "Parquet file to write (replaced only on success; '-' = standard output)",
       "Examples:\n"
       "  quiver convert data.csv data.parquet\n"
       "  quiver convert logs.tsv.zst out.parquet --schema 'ts:timestamp[ms],code:int32'\n"
       "  quiver convert dirty.csv out.parquet --on-error skip --rejects bad_rows.csv\n"
       "  quiver convert data.arrow data.parquet --compression zstd --compression-level 3\n"
       "  some-producer | quiver convert - out.parquet --data-page-version 2.0 --no-dictionary\n"
       "  quiver convert in.arrows out.parquet --compression zstd --compression names=snappy\n"},
      /*rewrite=*/false);
  return [args] {
    if (Status st = CheckNotInput(args->input, args->output); !st.ok()) {
      PrintError("convert", st.message() + std::string(" (see 'quiver rewrite')"));
      return static_cast<int>(kExitUsage);
    }
    return Transcode("convert", *args, /*parquet_only=*/false);
  };
}

Runner AddRewriteCommand(CLI::App* app) {
  auto args = AddTranscodeCommand(
      app,
      {"rewrite", "Re-encode a Parquet file with other writer options (streaming, atomic)",
       "Parquet file to read", "Parquet file to write (replaced only on success; may not be IN)",
       "Key/value metadata of IN is kept; ARROW:schema is written anew; row groups follow\n"
       "the writer options.\n"
       "Without --sort-by the rewrite streams (about a batch and a row group in memory).\n"
       "--sort-by holds every row that is written in memory, decoded (after --where),\n"
       "plus up to about 64 bytes a row while sorting (more for string keys) and 8 a\n"
       "row for each key; there is no external sort: the filtered rows must fit in memory.\n"
       "Examples:\n"
       "  quiver rewrite in.parquet out.parquet --cdc --compression zstd\n"
       "  quiver rewrite data.parquet --in-place --row-group-size 100000\n"
       "  quiver rewrite in.parquet out.parquet --where \"year >= 2020 and country = 'NL'\"\n"
       "  quiver rewrite in.parquet out.parquet --sort-by country,ts:desc\n"},
      /*rewrite=*/true);
  return [args] { return RunRewrite(*args); };
}

}  // namespace quiver::cli
