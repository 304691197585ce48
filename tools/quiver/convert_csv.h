// The text inputs of `quiver convert` (CSV, TSV; JSON Lines to come): the
// flags, the input format from --input-format or the file name, the
// delimiter detected when not given, and a BatchSource over
// csv::StreamingReader, whose rejected rows are counted, reported and
// written verbatim to --rejects.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "batch_source.h"
#include "quiver/parquet/writer/properties.h"
#include "quiver/util/result.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace quiver::cli {

struct TextInputFlags {
  std::string input_format;  // empty: from the extension
  std::string delimiter;     // empty: detected
  std::string quote = "\"";
  bool no_quoting = false;
  std::vector<std::string> null_values;
  std::vector<std::string> true_values;
  std::vector<std::string> false_values;
  int64_t skip_rows = 0;
  bool no_header = false;
  std::vector<std::string> column_names;
  std::string infer_rows;  // empty: the first block; N or "all"
  std::string schema;
  std::string on_error = "fail";
  std::string rejects;
  bool allow_rejects = false;
  std::string encoding = "utf8";
  int threads = 0;           // 0: the usable cores
  std::string memory_limit;  // bytes, or with K/M/G suffix
  int64_t block_size = 1 << 20;
  bool strings_can_be_null = false;

  CLI::Option* null_values_option = nullptr;
  CLI::Option* true_values_option = nullptr;
  CLI::Option* false_values_option = nullptr;
  CLI::Option* block_size_option = nullptr;
};

void AddTextInputFlags(CLI::App* command, TextInputFlags* flags);
// The first flag given that only CSV / TSV parsing reads (not JSON Lines
// either), or "" when none is.
std::string FirstCsvOnlyFlag(const TextInputFlags& flags);
// Invalid naming the first text-input flag given (for a Parquet / IPC input):
// those of FirstCsvOnlyFlag, then the ones JSON Lines reads too.
Status CheckNoTextFlags(const TextInputFlags& flags);

enum class InputFormat { kAuto, kCsv, kTsv, kJsonl, kParquet, kArrow };

// The input's format: --input-format, else the extension (.csv .tsv .jsonl
// .ndjson, also compressed: .csv.gz, .tsv.zst, ...), else kAuto (Parquet or
// Arrow IPC told by their magic). Invalid for an unknown --input-format.
Result<InputFormat> ResolveInputFormat(const std::string& path, const TextInputFlags& flags);

// Applies --memory-limit and --threads to the writer options (row groups
// closed at a quarter of the limit, reading blocks at most 1/16 of it;
// Invalid when the limit is too small to work in).
Status ApplyResourceFlags(const TextInputFlags& flags, bool text_input,
                          parquet::WriterOptions* options, int64_t* block_size);

// A CSV / TSV input as record batches. Messages for stderr (the delimiter
// detected) go to *note.
Result<std::unique_ptr<BatchSource>> OpenCsvSource(const std::string& path, bool tsv,
                                                   const TextInputFlags& flags,
                                                   int64_t block_size, std::string* note);

// For a source from OpenCsvSource: rows rejected, and the exit code they
// call for (1 unless --allow-rejects); prints the summary to stderr.
// Other sources: 0.
int FinishTextSource(BatchSource* source, const TextInputFlags& flags, bool quiet);

}  // namespace quiver::cli
