// `quiver append FILE INPUT... [writer options]`: appends the rows of
// Parquet or Arrow IPC inputs to the Parquet file FILE without rewriting it
// (parquet/append/append.h): FILE's bytes before its footer stay where they
// are, the new rows go in new row groups after them, then one new footer;
// FILE is replaced atomically, and left as it was on any error (a schema
// that differs from FILE's, an input that does not read, Ctrl-C).
//
// The inputs are read batch by batch (batch_source.h), one after the other,
// into one append: memory stays bounded by about a batch plus the open row
// group. Exit codes: 0 ok, 1 data or I/O error, 2 usage, 128+N on signal N.
#include <sys/stat.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "batch_source.h"
#include "cli_common.h"
#include "convert_options.h"
#include "quiver/parquet/append/append.h"

namespace quiver::cli {

namespace {

constexpr std::string_view kCommand = "append";

struct AppendArgs {
  std::string file;
  std::vector<std::string> inputs;
  WriterFlags writer;
  bool quiet = false;
};

int64_t FileSize(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? static_cast<int64_t>(st.st_size) : 0;
}

int RunAppend(const AppendArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  auto options = MakeWriterOptions(args.writer);
  if (!options.ok()) {
    PrintError(kCommand, options.status().message());
    return kExitUsage;
  }
  std::vector<std::unique_ptr<BatchSource>> sources;
  for (const auto& input : args.inputs) {
    auto source = BatchSource::Open(input, SourceOptions{});
    if (!source.ok()) {
      PrintError(kCommand, ErrorMessage(source.status()));
      return kExitFailure;
    }
    sources.push_back(source.MoveValueUnsafe());
  }
  InstallInterruptHandlers();
  auto opened = parquet::Appender::Open(args.file, sources.front()->schema(), *options);
  if (!opened.ok()) {
    PrintError(kCommand, ErrorMessage(opened.status()));
    return kExitFailure;
  }
  std::unique_ptr<parquet::Appender> appender = opened.MoveValueUnsafe();
  auto fail = [&](const std::string& message) {
    appender->Abort();
    PrintError(kCommand, message + "; " + args.file + " is unchanged");
    return kExitFailure;
  };
  const int64_t old_rows = appender->num_rows();
  const int old_row_groups = appender->num_row_groups();
  for (auto& source : sources) {
    while (true) {
      if (int signo = InterruptSignal(); signo != 0) {
        fail(fmt::format("interrupted ({})", strsignal(signo)));
        return 128 + signo;
      }
      auto batch = source->Next();
      if (!batch.ok()) return fail(ErrorMessage(batch.status()));
      if (*batch == nullptr) break;
      Status st = appender->WriteRecordBatch(**batch);
      if (!st.ok()) return fail(source->name() + ": " + ErrorMessage(st));
    }
  }
  if (Status st = appender->Close(); !st.ok()) {
    PrintError(kCommand, args.file + ": " + ErrorMessage(st) + "; " + args.file + " is unchanged");
    return kExitFailure;
  }
  if (!args.quiet) {
    const auto meta = appender->metadata().ValueOrDie();
    const int64_t size = FileSize(args.file);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("{}: appended {} rows in {} row group{} from {} input{}; now {} rows, {} row groups, {} bytes "
               "({}; the first {} bytes kept in place){} in {:.3f} s\n",
               args.file, meta->num_rows() - old_rows, meta->num_row_groups() - old_row_groups,
               meta->num_row_groups() - old_row_groups == 1 ? "" : "s", sources.size(),
               sources.size() == 1 ? "" : "s", meta->num_rows(), meta->num_row_groups(), size,
               HumanBytes(size), appender->kept_bytes(),
               appender->keeps_sorting_columns() ? "; sorting columns kept" : "", seconds);
  }
  return kExitOk;
}

}  // namespace

Runner AddAppendCommand(CLI::App* app) {
  auto args = std::make_shared<AppendArgs>();
  CLI::App* cmd = app->add_subcommand(
      "append", "Append the rows of Parquet or Arrow IPC files to a Parquet file without rewriting it");
  cmd->add_option("FILE", args->file, "Parquet file to append to (replaced atomically on success)")
      ->required();
  cmd->add_option("INPUT", args->inputs,
                  "Parquet or Arrow IPC files whose rows are appended ('-' = stdin)")
      ->required();
  cmd->add_flag("-q,--quiet", args->quiet, "Do not print the summary line");
  AddWriterFlags(cmd, &args->writer);
  cmd->footer(
      "FILE's bytes before its footer stay at their offsets (a deduplicating store receives\n"
      "only the new row groups and footer); the inputs' schema must be FILE's; FILE's\n"
      "key/value metadata is kept, its sorting columns too when the new rows keep the order.\n"
      "Examples:\n"
      "  quiver append data.parquet more.parquet\n"
      "  quiver append data.parquet day1.arrow day2.arrow --compression zstd\n");
  return [args] { return RunAppend(*args); };
}

}  // namespace quiver::cli
