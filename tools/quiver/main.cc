// The `quiver` command-line program: `quiver convert` (Arrow IPC or
// Parquet -> Parquet), `rewrite` (Parquet -> Parquet with other writer
// options), `cat` (rows), `schema`, `inspect` (a Parquet file's metadata and
// pages), `dedup` and `append` (rows added to a Parquet file in place).
// Each subcommand lives in its own file and registers itself on the CLI11
// app; main() parses, turns CLI11's parse errors into
// "quiver <command>: <message>" with exit code 2, and runs the chosen
// subcommand. CLI11 reports errors with exceptions; none escapes main().
#include <cstdio>
#include <exception>
#include <map>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli_common.h"
#include "quiver/util/version.h"

namespace {

using quiver::cli::kExitFailure;
using quiver::cli::kExitOk;
using quiver::cli::kExitUsage;

// The name used in error messages: the deepest subcommand parsed so far.
std::string CommandName(const CLI::App& app) {
  const CLI::App* current = &app;
  while (true) {
    auto subs = current->get_subcommands();
    if (subs.empty()) break;
    current = subs.front();
  }
  return current == &app ? std::string() : current->get_name();
}

int Main(int argc, char** argv) {
  CLI::App app{"Quiver: Arrow columnar data and Apache Parquet", "quiver"};
  // "quiver X.Y.Z (build HASH)": the version written files' created_by carries.
  std::string version = "quiver " + std::string(quiver::Version());
  if (!quiver::BuildCommit().empty()) version += " (build " + std::string(quiver::BuildCommit()) + ")";
  app.set_version_flag("--version", version);
  app.require_subcommand(1);
  app.fallthrough(false);
  app.footer("Run 'quiver COMMAND --help' for the options of a command.\n");

  std::map<const CLI::App*, quiver::cli::Runner> runners;
  auto add = [&](quiver::cli::Runner runner, const std::string& name) {
    runners[app.get_subcommand(name)] = std::move(runner);
  };
  add(quiver::cli::AddConvertCommand(&app), "convert");
  add(quiver::cli::AddInspectCommand(&app), "inspect");
  add(quiver::cli::AddDedupCommand(&app), "dedup");
  add(quiver::cli::AddCatCommand(&app), "cat");
  add(quiver::cli::AddSchemaCommand(&app), "schema");
  add(quiver::cli::AddRewriteCommand(&app), "rewrite");
  add(quiver::cli::AddAppendCommand(&app), "append");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      app.exit(e);  // --help, --version
      return kExitOk;
    }
    const std::string command = CommandName(app);
    const std::string prefix = command.empty() ? "quiver" : "quiver " + command;
    fmt::print(stderr, "{}: {}\nRun '{} --help' for usage.\n", prefix, e.what(), prefix);
    return kExitUsage;
  }
  const auto subs = app.get_subcommands();
  auto it = subs.empty() ? runners.end() : runners.find(subs.front());
  if (it == runners.end()) {
    fmt::print(stderr, "quiver: no command given\nRun 'quiver --help' for usage.\n");
    return kExitUsage;
  }
  return it->second();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("quiver: out of memory\n", stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "quiver: internal error: %s\n", e.what());
  }
  return kExitFailure;
}
