#include "text_table.h"

#include <algorithm>
#include <cstdint>

namespace quiver::cli {

size_t DisplayWidth(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<uint8_t>(c) & 0xC0) != 0x80;
  return n;
}

std::string TruncateDisplay(std::string_view s, size_t width) {
  if (DisplayWidth(s) <= width) return std::string(s);
  if (width == 0) return {};
  // Keep width - 1 code points, then the ellipsis.
  size_t kept = 0;
  size_t end = 0;
  for (; end < s.size(); ++end) {
    if ((static_cast<uint8_t>(s[end]) & 0xC0) != 0x80) {
      if (kept == width - 1) break;
      ++kept;
    }
  }
  return std::string(s.substr(0, end)) + "\u2026";
}

std::vector<size_t> TextTable::Widths() const {
  size_t columns = min_widths_.size();
  for (const auto& row : rows_) columns = std::max(columns, row.size());
  std::vector<size_t> width(columns, 0);
  for (size_t i = 0; i < min_widths_.size(); ++i) width[i] = min_widths_[i];
  for (const auto& row : rows_) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], DisplayWidth(row[i]));
  }
  return width;
}

void TextTable::Render(std::string* out, size_t indent) const {
  const std::vector<size_t> width = Widths();
  size_t next_rule = 0;
  for (size_t r = 0; r < rows_.size(); ++r) {
    const auto& row = rows_[r];
    std::string line(indent, ' ');
    if (next_rule < rules_.size() && rules_[next_rule] == r) {
      ++next_rule;
      for (size_t i = 0; i < width.size(); ++i) {
        line.append(width[i], '-');
        if (i + 1 < width.size()) line += "  ";
      }
      *out += line;
      *out += '\n';
      continue;
    }
    for (size_t i = 0; i < width.size(); ++i) {
      const std::string_view cell = i < row.size() ? std::string_view(row[i]) : std::string_view();
      const size_t pad = width[i] - DisplayWidth(cell);
      const bool right = i < align_.size() && align_[i] == 'r';
      if (right) line.append(pad, ' ');
      line += cell;
      if (!right && i + 1 < width.size()) line.append(pad, ' ');
      if (i + 1 < width.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    *out += line;
    *out += '\n';
  }
}

}  // namespace quiver::cli
