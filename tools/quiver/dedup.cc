// `quiver dedup FILE... [--json] [--bytes-only] [--by-column]`: how well Parquet files
// deduplicate in a content-addressed store (docs/cdc.md, "Measuring dedup").
// Files are taken in order, "B after A": each file after the first is
// compared against all the files before it, at page level (pages as stored,
// found through the footer) and at byte level (FastCDC chunks of the whole
// file, ~64 KiB average, 8 KiB min, 128 KiB max). A directory is one input:
// the files under it (recursively, sorted by path; names starting with '.'
// or '_' skipped, as pyarrow's datasets skip them) measured together as one
// upload, against the inputs before it (not against each other). The measuring is
// quiver::dedup's (src/quiver/dedup/dedup.h); this file only loads, orders
// and prints. Exit codes: 0 on success, 1 when a file cannot be read or is
// not Parquet (unless --bytes-only), 2 for usage errors.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli_common.h"
#include "json_writer.h"
#include "quiver/dedup/dedup.h"

namespace quiver::cli {

namespace {

constexpr std::string_view kCommand = "dedup";

struct DedupArgs {
  std::vector<std::string> files;
  bool json = false;
  bool bytes_only = false;
  bool by_column = false;
};

struct Row {
  dedup::FileDigest digest;
  // For a directory input: the number of files under it (0 for a file).
  int64_t directory_files = 0;
  // Against the files before it (none for the first file).
  std::optional<dedup::DedupReport> report;
};

std::string Percent(const dedup::SharedStats& stats) {
  return fmt::format("{:.1f}%", 100.0 * stats.shared_ratio());
}

void WriteStats(JsonWriter* json, const dedup::SharedStats& stats) {
  json->BeginObject();
  json->Member("count", stats.count);
  json->Member("shared_count", stats.shared_count);
  json->Member("bytes", stats.bytes);
  json->Member("shared_bytes", stats.shared_bytes);
  json->Member("new_bytes", stats.new_bytes());
  json->Member("shared_ratio", stats.shared_ratio());
  json->EndObject();
}

std::string RenderJson(const std::vector<Row>& rows, const dedup::DedupIndex& store,
                       const dedup::DedupOptions& options) {
  std::string out;
  JsonWriter json(&out);
  json.BeginObject();
  json.Member("page_level", options.page_level);
  json.Key("byte_chunker");
  json.BeginObject();
  json.Member("algorithm", "FastCDC gear hash, gear[b] = XXH64(b), top-bit masks");
  json.Member("min_size", options.chunker.min_size);
  json.Member("avg_size", options.chunker.avg_size);
  json.Member("max_size", options.chunker.max_size);
  json.Member("normalization", static_cast<int64_t>(options.chunker.normalization));
  json.EndObject();
  json.Member("content_hash", "XXH3-128 + length");
  json.Key("files");
  json.BeginArray();
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    json.BeginObject();
    json.Member("path", row.digest.name);
    json.Member("size", row.digest.file_size);
    if (row.directory_files > 0) json.Member("directory_files", row.directory_files);
    if (row.digest.has_pages) {
      json.Member("pages", static_cast<int64_t>(row.digest.pages.size()));
      json.Member("page_bytes", row.digest.page_bytes());
    }
    json.Member("chunks", static_cast<int64_t>(row.digest.chunks.size()));
    if (row.report.has_value()) {
      json.Key("against");
      json.BeginArray();
      for (size_t j = 0; j < i; ++j) json.String(rows[j].digest.name);
      json.EndArray();
      if (row.report->has_page_level) {
        json.Key("page_level");
        WriteStats(&json, row.report->pages);
        json.Key("page_columns");
        json.BeginArray();
        for (const dedup::ColumnShare& column : row.report->page_columns) {
          json.BeginObject();
          json.Member("column", column.column);
          json.Key("page_level");
          WriteStats(&json, column.pages);
          json.EndObject();
        }
        json.EndArray();
      }
      json.Key("byte_level");
      WriteStats(&json, row.report->chunks);
    }
    json.EndObject();
  }
  json.EndArray();
  json.Key("store");
  json.BeginObject();
  json.Member("files", store.num_files());
  json.Member("total_size", store.total_size());
  if (options.page_level) {
    json.Member("distinct_pages", store.distinct_pages());
    json.Member("distinct_page_bytes", store.distinct_page_bytes());
  }
  json.Member("distinct_chunks", store.distinct_chunks());
  json.Member("distinct_chunk_bytes", store.distinct_chunk_bytes());
  json.EndObject();
  json.EndObject();
  out += '\n';
  return out;
}

std::string RenderText(const std::vector<Row>& rows, const dedup::DedupIndex& store,
                       const dedup::DedupOptions& options, bool by_column) {
  size_t name_width = 4;
  // A directory input is shown as "DIR/ (N files)".
  auto label = [](const Row& row) {
    return row.directory_files == 0
               ? row.digest.name
               : fmt::format("{}/ ({} file{})", row.digest.name, row.directory_files,
                             row.directory_files == 1 ? "" : "s");
  };
  bool any_directory = false;
  for (const Row& row : rows) {
    name_width = std::max(name_width, label(row).size());
    any_directory = any_directory || row.directory_files > 0;
  }
  std::string out;
  out += fmt::format(
      "Each file against all files before it. Page level: pages as stored (header + "
      "compressed body).\nByte level: content-defined chunks of the whole file (FastCDC, "
      "{} KiB min / {} KiB avg / {} KiB max).\n\n",
      options.chunker.min_size / 1024, options.chunker.avg_size / 1024,
      options.chunker.max_size / 1024);
  out += fmt::format("{:<{}}  {:>10}  {:>15}  {:>10}  {:>7}  {:>15}  {:>10}  {:>7}\n", "file",
                     name_width, "size", "pages shared", "page new", "page %", "chunks shared",
                     "byte new", "byte %");
  for (const Row& row : rows) {
    const dedup::FileDigest& d = row.digest;
    std::string pages = "-", page_new = "-", page_pct = "-";
    std::string chunks, byte_new, byte_pct;
    if (!row.report.has_value()) {
      if (d.has_pages) pages = fmt::format("{} (base)", d.pages.size());
      chunks = fmt::format("{} (base)", d.chunks.size());
      byte_new = HumanBytes(d.file_size);
      byte_pct = "-";
      if (d.has_pages) page_new = HumanBytes(d.page_bytes());
    } else {
      const dedup::DedupReport& r = *row.report;
      if (r.has_page_level) {
        pages = fmt::format("{}/{}", r.pages.shared_count, r.pages.count);
        page_new = HumanBytes(r.pages.new_bytes());
        page_pct = Percent(r.pages);
      }
      chunks = fmt::format("{}/{}", r.chunks.shared_count, r.chunks.count);
      byte_new = HumanBytes(r.chunks.new_bytes());
      byte_pct = Percent(r.chunks);
    }
    out += fmt::format("{:<{}}  {:>10}  {:>15}  {:>10}  {:>7}  {:>15}  {:>10}  {:>7}\n", label(row),
                       name_width, HumanBytes(d.file_size), pages, page_new, page_pct, chunks,
                       byte_new, byte_pct);
  }
  if (by_column) {
    for (const Row& row : rows) {
      if (!row.report.has_value() || !row.report->has_page_level) continue;
      size_t column_width = 6;
      for (const auto& c : row.report->page_columns) {
        column_width = std::max(column_width, c.column.size());
      }
      out += fmt::format("\n{}: page level by column\n", row.digest.name);
      out += fmt::format("  {:<{}}  {:>15}  {:>10}  {:>10}  {:>7}\n", "column", column_width,
                         "pages shared", "page bytes", "new", "shared");
      for (const auto& c : row.report->page_columns) {
        out += fmt::format("  {:<{}}  {:>15}  {:>10}  {:>10}  {:>7}\n", c.column, column_width,
                           fmt::format("{}/{}", c.pages.shared_count, c.pages.count),
                           HumanBytes(c.pages.bytes), HumanBytes(c.pages.new_bytes()),
                           Percent(c.pages));
      }
    }
  }
  const char* noun = any_directory ? "input" : "file";
  out += fmt::format("\nA store holding {} ({} in total) keeps ",
                     store.num_files() == 1
                         ? fmt::format("the {}", noun)
                         : fmt::format("all {} {}s", store.num_files(), noun),
                     HumanBytes(store.total_size()));
  if (options.page_level) {
    out += fmt::format("{} of distinct pages or ", HumanBytes(store.distinct_page_bytes()));
  }
  out += fmt::format("{} of distinct chunks.\n", HumanBytes(store.distinct_chunk_bytes()));
  return out;
}

// The files a directory input stands for: regular files under it,
// recursively, sorted by path; a file or directory whose name starts with
// '.' or '_' (hidden files, _metadata, _SUCCESS) is skipped.
Result<std::vector<std::string>> DirectoryFiles(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec), end;
  if (ec) return Status::IOError("'", dir, "': cannot list the directory: ", ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return Status::IOError("'", dir, "': cannot list the directory: ", ec.message());
    const std::string name = it->path().filename().string();
    if (!name.empty() && (name[0] == '.' || name[0] == '_')) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  if (out.empty()) return Status::Invalid("'", dir, "': a directory holding no file");
  return out;
}

// One digest for several files (a directory's): their pages and chunks in
// order, page columns renumbered by path so the per-column report covers all.
dedup::FileDigest MergeDigests(const std::string& name, std::vector<dedup::FileDigest> parts) {
  dedup::FileDigest merged;
  merged.name = name;
  merged.has_pages = !parts.empty();
  std::map<std::string, int32_t> column_index;
  for (dedup::FileDigest& part : parts) {
    merged.file_size += part.file_size;
    merged.has_pages = merged.has_pages && part.has_pages;
    for (size_t i = 0; i < part.pages.size(); ++i) {
      merged.pages.push_back(part.pages[i]);
      if (i >= part.page_columns.size()) continue;
      const auto c = static_cast<size_t>(part.page_columns[i]);
      const std::string path =
          c < part.column_paths.size() ? part.column_paths[c] : "column " + std::to_string(c);
      auto [where, added] =
          column_index.emplace(path, static_cast<int32_t>(merged.column_paths.size()));
      if (added) merged.column_paths.push_back(path);
      merged.page_columns.push_back(where->second);
    }
    merged.chunks.insert(merged.chunks.end(), part.chunks.begin(), part.chunks.end());
  }
  if (merged.page_columns.size() != merged.pages.size()) merged.page_columns.clear();
  return merged;
}

// The digest of one file ('-' = standard input); false after printing the error.
bool Digest(const std::string& path, const dedup::DedupOptions& options,
            dedup::FileDigest* out) {
  const std::string name = path == "-" ? "<stdin>" : path;
  auto data = LoadInput(path);
  if (!data.ok()) {
    PrintError(kCommand, name + ": " + ErrorMessage(data.status()));
    return false;
  }
  auto digest =
      dedup::DigestFile(dedup::FileBytes{name, (*data)->data(), (*data)->size()}, options);
  if (!digest.ok()) {
    // The message already names the file.
    std::string message = ErrorMessage(digest.status());
    if (options.page_level) message += "\n(--bytes-only compares files that are not Parquet)";
    PrintError(kCommand, message);
    return false;
  }
  *out = std::move(*digest);
  return true;
}

int Run(const std::vector<std::string>& files, bool json, bool bytes_only, bool by_column) {
  if (files.empty()) {
    PrintError(kCommand, "no files given");
    return kExitUsage;
  }
  dedup::DedupOptions options;
  options.page_level = !bytes_only;
  dedup::DedupIndex store;
  std::vector<Row> rows;
  rows.reserve(files.size());
  for (const std::string& path : files) {
    Row row;
    std::error_code ec;
    if (path != "-" && std::filesystem::is_directory(path, ec)) {
      auto listed = DirectoryFiles(path);
      if (!listed.ok()) {
        PrintError(kCommand, ErrorMessage(listed.status()));
        return kExitFailure;
      }
      std::vector<dedup::FileDigest> parts(listed->size());
      for (size_t i = 0; i < listed->size(); ++i) {
        if (!Digest((*listed)[i], options, &parts[i])) return kExitFailure;
      }
      row.directory_files = static_cast<int64_t>(parts.size());
      row.digest = MergeDigests(path, std::move(parts));
    } else if (!Digest(path, options, &row.digest)) {
      return kExitFailure;
    }
    if (!rows.empty()) row.report = store.Compare(row.digest);
    store.Add(row.digest);
    rows.push_back(std::move(row));
  }
  const std::string report =
      json ? RenderJson(rows, store, options) : RenderText(rows, store, options, by_column);
  std::fwrite(report.data(), 1, report.size(), stdout);
  if (std::fflush(stdout) != 0) {
    PrintError(kCommand, "cannot write the report to standard output");
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

int RunDedup(const std::vector<std::string>& files, bool json) {
  return Run(files, json, /*bytes_only=*/false, /*by_column=*/false);
}

Runner AddDedupCommand(CLI::App* app) {
  auto args = std::make_shared<DedupArgs>();
  CLI::App* cmd = app->add_subcommand(
      "dedup", "Measure how Parquet files deduplicate, each against the files before it");
  cmd->add_option("FILE", args->files,
                  "Parquet files or directories of them, oldest first ('-' = standard input)")
      ->required();
  cmd->add_flag("--json", args->json, "Print one JSON document instead of the table");
  cmd->add_flag("--bytes-only", args->bytes_only,
                "Skip the page level (then any file, Parquet or not, is accepted)");
  cmd->add_flag("--by-column", args->by_column,
                "Also show the page level per leaf column (always in --json)");
  cmd->footer(
      "Page level: a page (header + compressed body) is shared when an identical page occurs "
      "in an earlier file. Byte level: each file is cut into content-defined chunks (FastCDC, "
      "8/64/128 KiB) as dedup storage backends do; a chunk is shared when an identical chunk "
      "occurs in an earlier file. A directory is one input: its files (recursively, names "
      "starting with '.' or '_' skipped) measured together against the inputs before it.\n"
      "Exit status: 0 on success, 1 if a file is unreadable or not Parquet, 2 for usage "
      "errors.\n");
  return [args] { return Run(args->files, args->json, args->bytes_only, args->by_column); };
}

}  // namespace quiver::cli
