// `quiver inspect FILE [--json]`: shows a Parquet file's footer, schema,
// row groups, column chunks (with statistics) and every page header.
// Exit codes: 0 when everything checked out, 1 when the file is unreadable
// or any problem was found (the report is still printed, listing them),
// 2 for usage errors. See inspect_model.h for what is checked.
#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli_common.h"
#include "inspect_model.h"
#include "inspect_render.h"

namespace quiver::cli {

namespace {

constexpr std::string_view kCommand = "inspect";

struct InspectArgs {
  std::string path;
  bool json = false;
  bool no_pages = false;
  bool no_checksums = false;
  int64_t max_pages = InspectOptions{}.max_pages;
};

int RunInspect(const InspectArgs& args) {
  const std::string name = args.path == "-" ? "<stdin>" : args.path;
  auto data = LoadInput(args.path);
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
  std::fwrite(report.data(), 1, report.size(), stdout);
  if (std::fflush(stdout) != 0) {
    PrintError(kCommand, "cannot write the report to standard output");
    return kExitFailure;
  }
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
  cmd->add_option("FILE", args->path, "Parquet file ('-' = standard input)")->required();
  cmd->add_flag("--json", args->json, "Print one JSON document instead of the text report");
  cmd->add_flag("--no-pages", args->no_pages, "Do not walk (or show) the pages");
  cmd->add_flag("--no-checksums", args->no_checksums, "Do not verify page CRC-32 checksums");
  cmd->add_option("--max-pages", args->max_pages,
                  "Page headers kept for the report (all pages are still checked)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->footer(
      "Exit status: 0 if the file checked out, 1 if it is unreadable or has problems "
      "(listed in the report), 2 for usage errors.\n");
  return [args] { return RunInspect(*args); };
}

}  // namespace quiver::cli
