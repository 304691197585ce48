// `quiver inspect FILE [--json]`: shows a Parquet file's footer, schema,
// row groups, column chunks (with statistics) and every page header.
// Exit codes: 0 when everything checked out, 1 when the file is unreadable
// or any problem was found (the report is still printed, listing them),
// 2 for usage errors. See inspect_model.h for what is checked.
//
// `quiver inspect --check FILE... [--json] [--for-dedup]`: the lint of
// inspect_check.h; exit 0 when no file has a finding, 1 otherwise.
// `quiver inspect --html OUT.html FILE`: the layout page of inspect_html.cc.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli_common.h"
#include "inspect_check.h"
#include "inspect_model.h"
#include "inspect_render.h"
#include "quiver/io/atomic_file.h"

namespace quiver::cli {

namespace {

constexpr std::string_view kCommand = "inspect";

struct InspectArgs {
  std::vector<std::string> paths;
  bool check = false;
  bool for_dedup = false;
  std::string html;
  bool json = false;
  bool no_pages = false;
  bool no_checksums = false;
  int64_t max_pages = InspectOptions{}.max_pages;
};

std::string DisplayName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

int WriteStdout(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (std::fflush(stdout) != 0) {
    PrintError(kCommand, "cannot write the report to standard output");
    return kExitFailure;
  }
  return kExitOk;
}

int RunCheck(const InspectArgs& args) {
  CheckOptions options;
  options.for_dedup = args.for_dedup;
  std::vector<CheckResult> results;
  for (const auto& path : args.paths) {
    const std::string name = DisplayName(path);
    auto data = LoadInput(path);
    if (!data.ok()) {
      results.push_back(UnreadableResult(name, ErrorMessage(data.status())));
      continue;
    }
    InspectOptions inspect;
    inspect.max_pages = args.max_pages;
    inspect.verify_checksums = !args.no_checksums;
    auto file = InspectFile(**data, name, inspect);
    if (!file.ok()) {
      results.push_back(UnreadableResult(name, ErrorMessage(file.status())));
      continue;
    }
    results.push_back(CheckInspectedFile(*file, **data, options));
  }
  const std::string report = args.json ? RenderCheckJson(results) : RenderCheckText(results);
  if (WriteStdout(report) != kExitOk) return kExitFailure;
  for (const auto& r : results) {
    if (!r.findings.empty()) return kExitFailure;
  }
  return kExitOk;
}

int RunHtml(const InspectArgs& args) {
  const std::string& path = args.paths.front();
  const std::string name = DisplayName(path);
  auto data = LoadInput(path);
  if (!data.ok()) {
    PrintError(kCommand, name + ": " + ErrorMessage(data.status()));
    return kExitFailure;
  }
  InspectOptions options;
  options.max_pages = args.max_pages;
  options.verify_checksums = !args.no_checksums;
  auto file = InspectFile(**data, name, options);
  if (!file.ok()) {
    PrintError(kCommand, name + ": " + ErrorMessage(file.status()));
    return kExitFailure;
  }
  const std::string page = RenderHtml(*file);
  // Written whole or not at all (a temporary file renamed on success).
  Status st = [&]() -> Status {
    QUIVER_ASSIGN_OR_RAISE(auto out, io::AtomicFileOutputStream::Open(args.html, /*fsync=*/false));
    QUIVER_RETURN_NOT_OK(out->Write(page.data(), static_cast<int64_t>(page.size())));
    return out->Close();
  }();
  if (!st.ok()) {
    PrintError(kCommand, args.html + ": " + ErrorMessage(st));
    return kExitFailure;
  }
  if (const int64_t n = file->num_problems(); n > 0) {
    PrintError(kCommand, fmt::format("{}: {} problem{} found; the first: {}", name, n,
                                      n == 1 ? "" : "s", file->first_problem()));
    return kExitFailure;
  }
  return kExitOk;
}

int RunInspect(const InspectArgs& args) {
  if (args.check) return RunCheck(args);
  if (args.paths.size() != 1) {
    fmt::print(stderr, "quiver {}: give one FILE (several files need --check)\n"
                       "Run 'quiver {} --help' for usage.\n", kCommand, kCommand);
    return kExitUsage;
  }
  if (!args.html.empty()) return RunHtml(args);
  const std::string& path = args.paths.front();
  const std::string name = DisplayName(path);
  auto data = LoadInput(path);
  if (!data.ok()) {
    PrintError(kCommand, name + ": " + ErrorMessage(data.status()));
    return kExitFailure;
  }
  InspectOptions options;
  options.walk_pages = !args.no_pages;
  options.verify_checksums = !args.no_checksums;
  options.max_pages = args.max_pages;
  auto file = InspectFile(**data, name, options);
  if (!file.ok()) {
    PrintError(kCommand, name + ": " + ErrorMessage(file.status()));
    return kExitFailure;
  }
  RenderOptions render;
  render.show_pages = !args.no_pages;
  const std::string report = args.json ? RenderJson(*file, render) : RenderText(*file, render);
  if (WriteStdout(report) != kExitOk) return kExitFailure;
  if (const int64_t n = file->num_problems(); n > 0) {
    PrintError(kCommand, fmt::format("{}: {} problem{} found; the first: {}", name, n,
                                      n == 1 ? "" : "s", file->first_problem()));
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

Runner AddInspectCommand(CLI::App* app) {
  auto args = std::make_shared<InspectArgs>();
  CLI::App* cmd = app->add_subcommand(
      "inspect", "Show a Parquet file's metadata, column chunks and page headers");
  cmd->add_option("FILE", args->paths,
                  "Parquet file ('-' = standard input); several with --check")
      ->required();
  auto* check = cmd->add_flag(
      "--check", args->check,
      "Lint the files: list what makes them slow or costly to read or store (findings, each "
      "with the `quiver rewrite` flags that fix it) and notes");
  cmd->add_flag("--for-dedup", args->for_dedup,
                "With --check: the files go to a deduplicating store (no CDC is a finding)")
      ->needs(check);
  auto* html = cmd->add_option("--html", args->html,
                               "Write a self-contained HTML page picturing the file's layout")
                   ->type_name("OUT.html")
                   ->excludes(check);
  auto* json = cmd->add_flag("--json", args->json, "Print one JSON document instead of the text report");
  html->excludes(json);
  auto* no_pages = cmd->add_flag("--no-pages", args->no_pages, "Do not walk (or show) the pages");
  no_pages->excludes(check)->excludes(html);
  cmd->add_flag("--no-checksums", args->no_checksums, "Do not verify page CRC-32 checksums");
  cmd->add_option("--max-pages", args->max_pages,
                  "Page headers kept for the report (all pages are still checked)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->footer(
      "Exit status: 0 if the file checked out, 1 if it is unreadable or has problems "
      "(listed in the report), 2 for usage errors. With --check: 0 when no file has a "
      "finding, 1 when one has (an unreadable file is a finding), 2 for usage errors.\n"
      "Findings of --check and their thresholds: no page index; no statistics, or no "
      "min/max, on a column with an order; pages over 8 MiB uncompressed; row groups under "
      "10,000 rows (but the last) or over 1 GiB compressed; a footer over 10 MiB; "
      "dictionary fallback in every chunk of a column; statistics values over 64 KiB; "
      "INT96 timestamps; an uncompressed column whose first 1 MiB of pages zstd halves; "
      "with --for-dedup, no content-defined chunking (the quiver.cdc footer key).\n");
  return [args] { return RunInspect(*args); };
}

}  // namespace quiver::cli
