// `quiver convert INPUT OUTPUT.parquet [options]`: Arrow IPC -> Parquet.
//
// INPUT is an Arrow IPC file or stream ("-" = standard input, read to its
// end first); the two formats are told apart by the file format's leading
// magic "ARROW1" (Arrow columnar format, "IPC File Format"). Batches are
// read zero-copy from the mapped input, fully validated (the writer must
// never see offsets pointing outside their buffers), and handed one by one
// to parquet::FileWriter, which writes a temporary file next to OUTPUT and
// renames it only on a successful Close(). Every failure path calls
// Abort(), so an error or Ctrl-C never leaves OUTPUT or a temporary file.
//
// Exit codes: 0 ok, 1 bad input / write failure / unsupported option,
// 2 usage error (unknown flag, bad option value), 128+N on signal N.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli_common.h"
#include "convert_options.h"
#include "quiver/io/file.h"
#include "quiver/io/interfaces.h"
#include "quiver/ipc/reader.h"
#include "quiver/parquet/writer/file_writer.h"

namespace quiver::cli {

namespace {

constexpr std::string_view kCommand = "convert";
constexpr char kArrowFileMagic[] = "ARROW1";

struct ConvertArgs {
  std::string input;
  std::string output;
  WriterFlags writer;
  bool quiet = false;
  bool skip_input_validation = false;
};

// The record batches of an in-memory IPC file or stream, in order.
class BatchSource {
 public:
  static Result<std::unique_ptr<BatchSource>> Open(std::shared_ptr<Buffer> data,
                                                   const ipc::IpcReadOptions& options) {
    auto source = std::unique_ptr<BatchSource>(new BatchSource());
    const bool is_file = data->size() >= 6 && std::memcmp(data->data(), kArrowFileMagic, 6) == 0;
    if (is_file) {
      QUIVER_ASSIGN_OR_RAISE(source->file_, ipc::RecordBatchFileReader::Open(data, options));
      source->schema_ = source->file_->schema();
    } else {
      QUIVER_ASSIGN_OR_RAISE(source->stream_,
                             ipc::RecordBatchStreamReader::Open(std::move(data), options));
      source->schema_ = source->stream_->schema();
    }
    return source;
  }

  const SchemaPtr& schema() const { return schema_; }
  std::string_view format_name() const { return file_ ? "IPC file" : "IPC stream"; }

  // The next batch, or nullptr after the last.
  Result<RecordBatchPtr> Next() {
    if (stream_) return stream_->Next();
    if (next_index_ >= file_->num_record_batches()) return RecordBatchPtr{};
    const int i = next_index_++;
    auto batch = file_->ReadRecordBatch(i);
    if (!batch.ok()) return batch.status().WithContext("record batch ", i, ": ");
    return batch;
  }

 private:
  BatchSource() = default;
  std::shared_ptr<ipc::RecordBatchStreamReader> stream_;
  std::shared_ptr<ipc::RecordBatchFileReader> file_;
  SchemaPtr schema_;
  int next_index_ = 0;
};

int Fail(const std::string& message) {
  PrintError(kCommand, message);
  return kExitFailure;
}

int RunConvert(const ConvertArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  auto options = MakeWriterOptions(args.writer);
  if (!options.ok()) {
    PrintError(kCommand, options.status().message());
    return kExitUsage;
  }
  const std::string input_name = args.input == "-" ? "<stdin>" : args.input;
  const std::string output_name = args.output == "-" ? "<stdout>" : args.output;

  auto data = LoadInput(args.input);
  if (!data.ok()) return Fail(input_name + ": " + ErrorMessage(data.status()));

  ipc::IpcReadOptions read_options;
  read_options.validate_full = !args.skip_input_validation;
  auto source = BatchSource::Open(*data, read_options);
  if (!source.ok()) {
    return Fail(input_name + ": not a readable Arrow IPC file or stream: " +
                ErrorMessage(source.status()));
  }

  // From here on Ctrl-C must not kill us before the writer cleans up.
  InstallInterruptHandlers();
  std::unique_ptr<io::FileOutputStream> stdout_sink;
  if (args.output == "-") {
    stdout_sink = io::FileOutputStream::FromDescriptor(STDOUT_FILENO, /*owns_fd=*/false);
  }
  auto opened = stdout_sink
                    ? parquet::FileWriter::Open(stdout_sink.get(), (*source)->schema(), *options)
                    : parquet::FileWriter::Open(args.output, (*source)->schema(), *options);
  if (!opened.ok()) return Fail(output_name + ": " + ErrorMessage(opened.status()));
  std::unique_ptr<parquet::FileWriter> writer = opened.MoveValueUnsafe();

  int64_t num_batches = 0;
  while (true) {
    if (int signo = InterruptSignal(); signo != 0) {
      writer->Abort();
      PrintError(kCommand, fmt::format("interrupted ({}); nothing written", strsignal(signo)));
      return 128 + signo;
    }
    auto batch = (*source)->Next();
    if (!batch.ok()) {
      writer->Abort();
      return Fail(input_name + ": " + ErrorMessage(batch.status()));
    }
    if (*batch == nullptr) break;
    Status st = writer->WriteRecordBatch(**batch);
    if (!st.ok()) {
      writer->Abort();
      return Fail(output_name + ": " + ErrorMessage(st));
    }
    ++num_batches;
  }
  if (Status st = writer->Close(); !st.ok()) {
    return Fail(output_name + ": " + ErrorMessage(st));
  }

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
    const auto& meta = writer->metadata();
    // The summary goes to stderr when the Parquet bytes go to stdout.
    std::FILE* out = stdout_sink ? stderr : stdout;
    fmt::print(out, "{}: {} rows, {} row group{}, {} bytes ({}) from {} ({}, {} batch{}) in {:.3f} s\n",
               output_name, meta.num_rows, meta.row_groups.size(),
               meta.row_groups.size() == 1 ? "" : "s", bytes, HumanBytes(bytes), input_name,
               (*source)->format_name(), num_batches, num_batches == 1 ? "" : "es", seconds);
  }
  return kExitOk;
}

}  // namespace

Runner AddConvertCommand(CLI::App* app) {
  auto args = std::make_shared<ConvertArgs>();
  CLI::App* cmd = app->add_subcommand(
      "convert", "Convert an Arrow IPC file or stream to a Parquet file");
  cmd->add_option("INPUT", args->input, "Arrow IPC file or stream ('-' = standard input)")
      ->required();
  cmd->add_option("OUTPUT", args->output,
                  "Parquet file to write (replaced only on success; '-' = standard output)")
      ->required();
  cmd->add_flag("-q,--quiet", args->quiet, "Do not print the summary line");
  cmd->add_flag("--skip-input-validation", args->skip_input_validation,
                "Trust the input's offsets and UTF-8 (skip the full validation of each batch)");
  AddWriterFlags(cmd, &args->writer);
  cmd->footer(
      "Examples:\n"
      "  quiver convert data.arrow data.parquet --compression zstd --compression-level 3\n"
      "  some-producer | quiver convert - out.parquet --data-page-version 2.0 --no-dictionary\n"
      "  quiver convert in.arrows out.parquet --compression zstd --compression names=snappy\n");
  return [args] { return RunConvert(*args); };
}

}  // namespace quiver::cli
