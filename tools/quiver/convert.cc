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
// Exit codes: 0 ok, 1 bad input / write failure / unsupported option,
// 2 usage error (unknown flag, bad option value, OUT naming IN without
// --in-place), 128+N on signal N.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "batch_source.h"
#include "cli_common.h"
#include "convert_csv.h"
#include "convert_json.h"
#include "convert_options.h"
#include "progress.h"
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
  while (true) {
    if (int signo = InterruptSignal(); signo != 0) {
      fail(fmt::format("interrupted ({}); nothing written", strsignal(signo)));
      return 128 + signo;
    }
    auto batch = source->Next();
    if (!batch.ok()) return fail(ErrorMessage(batch.status()));
    if (*batch == nullptr) break;
    Status st = writer->WriteRecordBatch(**batch);
    if (!st.ok()) return fail(output_name + ": " + ErrorMessage(st));
    ++num_batches;
    num_rows += (*batch)->num_rows();
    progress.Update(num_rows, source->bytes_done());
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
       "Examples:\n"
       "  quiver rewrite in.parquet out.parquet --cdc --compression zstd\n"
       "  quiver rewrite data.parquet --in-place --row-group-size 100000\n"},
      /*rewrite=*/true);
  return [args] { return RunRewrite(*args); };
}

}  // namespace quiver::cli
