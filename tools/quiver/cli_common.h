// Pieces shared by the subcommands of the `quiver` program: exit codes,
// error reporting, loading inputs, and interruption (Ctrl-C) handling.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "quiver/io/interfaces.h"
#include "quiver/memory/buffer.h"
#include "quiver/util/result.h"
#include "quiver/util/status.h"
#include "quiver/util/utf8.h"  // IsValidUtf8

namespace CLI {
class App;
}  // namespace CLI

namespace quiver::cli {

// Exit codes: 1 = the input/data/environment failed, 2 = the command line
// is wrong (as CLI11 parse errors), 128 + signal after Ctrl-C / SIGTERM.
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,
  kExitUsage = 2,
};

// What main() runs once the command line is parsed.
using Runner = std::function<int()>;

// Each subcommand adds itself (its flags and help) to `app` and returns the
// function that runs it.
Runner AddConvertCommand(CLI::App* app);
Runner AddInspectCommand(CLI::App* app);
Runner AddDedupCommand(CLI::App* app);
Runner AddCatCommand(CLI::App* app);
Runner AddSchemaCommand(CLI::App* app);
Runner AddRewriteCommand(CLI::App* app);
Runner AddAppendCommand(CLI::App* app);

// Prints "quiver <command>: <message>" on stderr (one line per message line).
void PrintError(std::string_view command, std::string_view message);
// The message of a Status for users: the message, with the status code
// spelled out when it is not the usual Invalid / IOError ("not implemented: ...").
std::string ErrorMessage(const Status& status);
// `status` with "NAME: " in front, unless its message names `name` first
// already (the Parquet reader names the file itself).
Status WithName(const Status& status, const std::string& name);

// The whole of `path` ("-" = standard input, read until its end): regular
// files are memory-mapped, anything else (pipes, devices) is read.
Result<std::shared_ptr<Buffer>> LoadInput(const std::string& path);

// SIGINT / SIGTERM set a flag instead of killing the process, so that a
// command can clean up (the writer removes its temporary file).
void InstallInterruptHandlers();
// The signal number received, or 0.
int InterruptSignal();

// Standard output as a buffered OutputStream (flushed at 64 KiB, by
// Flush() and by Close(), which leaves the descriptor open). SIGPIPE
// should be ignored (IgnoreSigpipe) so that a reader that went away
// (`quiver cat f | head -1`) shows as a failed write with broken_pipe()
// set: a quiet end, not an error.
class StdoutSink final : public io::OutputStream {
 public:
  StdoutSink() = default;
  ~StdoutSink() override;
  Status Write(const void* data, int64_t nbytes) override;
  Status Write(std::string_view text) { return Write(text.data(), static_cast<int64_t>(text.size())); }
  Status Flush();
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override;
  bool closed() const override { return closed_; }
  bool broken_pipe() const { return broken_pipe_; }

 private:
  Status WriteOut(const char* data, size_t size);
  std::string buffer_;
  int64_t position_ = 0;
  bool closed_ = false;
  bool broken_pipe_ = false;
};
void IgnoreSigpipe();

// The bytes with control characters, backslashes and (unless the whole is
// valid UTF-8) bytes >= 0x80 escaped as \xNN / \\: safe to print.
std::string EscapeBytes(std::string_view bytes);
// Lowercase hex.
std::string HexBytes(std::string_view bytes);

// "12.1 KiB" for 12345.
std::string HumanBytes(int64_t bytes);

}  // namespace quiver::cli
