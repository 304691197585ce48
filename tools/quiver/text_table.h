// Aligned text tables for terminals (`quiver inspect`, `schema`, `cat`):
// columns padded to their widest cell (in code points, so that UTF-8 text
// lines up), two spaces between columns, trailing spaces trimmed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace quiver::cli {

class TextTable {
 public:
  // `align`: one letter a column, 'r' = right-aligned, anything else left.
  explicit TextTable(std::string align) : align_(std::move(align)) {}
  TextTable(std::vector<std::string> header, std::string align) : align_(std::move(align)) {
    Add(std::move(header));
  }
  void Add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // A row of dashes as wide as each column.
  void AddRule() {
    rules_.push_back(rows_.size());
    rows_.emplace_back();
  }
  // Columns are at least this wide (for tables printed in several parts).
  void SetMinWidths(std::vector<size_t> widths) { min_widths_ = std::move(widths); }
  // The width of each column: its widest cell, or its minimum width.
  std::vector<size_t> Widths() const;

  void Render(std::string* out, size_t indent) const;

 private:
  std::string align_;
  std::vector<size_t> min_widths_;
  std::vector<size_t> rules_;  // indices into rows_
  std::vector<std::vector<std::string>> rows_;
};

// Code points of UTF-8 text.
size_t DisplayWidth(std::string_view s);
// `s` cut to at most `width` code points, its end replaced by "…" when cut.
std::string TruncateDisplay(std::string_view s, size_t width);

}  // namespace quiver::cli
