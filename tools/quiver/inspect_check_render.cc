// The outputs of `quiver inspect --check`: a text report per file (its
// findings with their fix flags, its notes, the whole rewrite command) and
// one JSON document for all files.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "cli_common.h"
#include "inspect_check.h"
#include "json_writer.h"

namespace quiver::cli {

namespace {

// A word as a POSIX shell reads it back: bare when it holds only safe
// characters, else in single quotes.
std::string ShellWord(const std::string& word) {
  bool safe = !word.empty();
  for (unsigned char ch : word) {
    if (!(std::isalnum(ch) || std::string_view("_-./=,:+@%").find(static_cast<char>(ch)) !=
                                  std::string_view::npos)) {
      safe = false;
      break;
    }
  }
  if (safe) return word;
  std::string out = "'";
  for (char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string JoinWords(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + ShellWord(w);
  return out;
}

// Splits argv tokens into flags with their value ("--cdc" alone, or
// "--compression" "zstd").
std::vector<std::vector<std::string>> Flags(const std::vector<std::string>& tokens) {
  std::vector<std::vector<std::string>> flags;
  for (const auto& t : tokens) {
    if (t.rfind("--", 0) == 0 || flags.empty()) {
      flags.push_back({t});
    } else {
      flags.back().push_back(t);
    }
  }
  return flags;
}

std::string OutputName(const std::string& path) {
  std::string base = path;
  if (base.size() > 8 && base.compare(base.size() - 8, 8, ".parquet") == 0) {
    base.resize(base.size() - 8);
  }
  return base + ".fixed.parquet";
}

std::string FixText(const Finding& f) {
  if (!f.rewrite_fixes) return "no rewrite flag fixes this";
  if (f.fix.empty()) return "any rewrite (no flag needed)";
  return JoinWords(f.fix);
}

}  // namespace

std::string FixCommand(const CheckResult& result) {
  std::vector<std::vector<std::string>> flags;
  bool any = false;
  for (const auto& f : result.findings) {
    // A file with problems may not be readable by a rewrite either.
    if (f.id == "invalid" || f.id == "unreadable") return {};
    if (!f.rewrite_fixes) continue;
    any = true;
    for (auto& flag : Flags(f.fix)) {
      if (std::find(flags.begin(), flags.end(), flag) == flags.end()) flags.push_back(flag);
    }
  }
  if (!any || !result.readable) return {};
  std::vector<std::string> words = {"quiver", "rewrite", result.path, OutputName(result.path)};
  // A fix overrides the keep flag it names (--compression per column; the
  // row group flags together, as either regroups the rows).
  auto key = [](const std::vector<std::string>& flag) {
    std::string k = flag[0];
    if (k == "--row-group-bytes") k = "--row-group-size";
    if (k == "--compression" && flag.size() > 1) {
      const size_t eq = flag[1].rfind('=');
      k += eq == std::string::npos ? std::string() : " " + flag[1].substr(0, eq);
    }
    return k;
  };
  for (const auto& flag : Flags(result.keep)) {
    const bool overridden = std::any_of(flags.begin(), flags.end(),
                                        [&](const auto& fix) { return key(fix) == key(flag); });
    if (!overridden) words.insert(words.end(), flag.begin(), flag.end());
  }
  for (const auto& flag : flags) words.insert(words.end(), flag.begin(), flag.end());
  return JoinWords(words);
}

std::string RenderCheckText(const std::vector<CheckResult>& results) {
  std::string out;
  int64_t findings = 0, files_with = 0;
  for (const auto& r : results) {
    const int64_t n = static_cast<int64_t>(r.findings.size());
    findings += n;
    files_with += n > 0;
    fmt::format_to(std::back_inserter(out), "{}: {}\n", EscapeBytes(r.path),
                   n == 0 ? std::string("no findings")
                          : fmt::format("{} finding{}", n, n == 1 ? "" : "s"));
    for (const auto& f : r.findings) {
      fmt::format_to(std::back_inserter(out), "  [{}] {}\n      fix: {}\n", f.id, f.message,
                     FixText(f));
    }
    for (const auto& note : r.notes) fmt::format_to(std::back_inserter(out), "  note: {}\n", note);
    if (const std::string command = FixCommand(r); !command.empty()) {
      fmt::format_to(std::back_inserter(out), "  rewrite: {}\n", command);
    }
  }
  if (results.size() > 1) {
    fmt::format_to(std::back_inserter(out), "{} files checked: {} finding{} in {} file{}\n",
                   results.size(), findings, findings == 1 ? "" : "s", files_with,
                   files_with == 1 ? "" : "s");
  }
  return out;
}

std::string RenderCheckJson(const std::vector<CheckResult>& results) {
  std::string out;
  JsonWriter w(&out);
  int64_t findings = 0;
  w.BeginObject();
  w.Key("files");
  w.BeginArray();
  for (const auto& r : results) {
    findings += static_cast<int64_t>(r.findings.size());
    w.BeginObject();
    w.Member("path", r.path);
    w.Member("readable", r.readable);
    w.Key("findings");
    w.BeginArray();
    for (const auto& f : r.findings) {
      w.BeginObject();
      w.Member("id", f.id);
      w.Member("message", f.message);
      w.Member("rewrite_fixes", f.rewrite_fixes);
      w.Key("fix");
      w.BeginArray();
      for (const auto& t : f.fix) w.String(t);
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.Key("notes");
    w.BeginArray();
    for (const auto& n : r.notes) w.String(n);
    w.EndArray();
    const std::string command = FixCommand(r);
    w.Key("rewrite");
    if (command.empty()) {
      w.Null();
    } else {
      w.String(command);
    }
    w.EndObject();
  }
  w.EndArray();
  w.Member("findings", findings);
  w.EndObject();
  out += '\n';
  return out;
}

}  // namespace quiver::cli
