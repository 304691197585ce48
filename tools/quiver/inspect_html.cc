// `quiver inspect --html OUT.html FILE`: one self-contained page (inline
// CSS, SVG and a few lines of JavaScript; nothing fetched) picturing the
// file's layout:
// - a grid of row groups by columns; in each cell every page of that chunk
//   is a block whose width is proportional to its bytes in the file
//   (compressed, header included), dictionary pages striped and outlined,
//   data pages plain; the colour is the page's compression ratio
//   (uncompressed / compressed: red 1x, through yellow, to green at 16x or
//   more); a block's details (type, encoding, offset, sizes, values) are in
//   its title, shown on hover and in the box at the bottom;
// - per column, the spread of its data page sizes as a strip of ticks with
//   min / median / max: fixed-size pages cluster at the page size limit,
//   content-defined chunking (named only when the footer has the
//   "quiver.cdc" key the writer sets) spreads them between its bounds;
// - a table of the columns: name, type, codec, pages, bytes, ratio.
// Blocks beyond kMaxBlocks are not drawn (their cells say how many).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli_common.h"
#include "inspect_check.h"
#include "inspect_render.h"

namespace quiver::cli {

namespace {

constexpr int64_t kMaxBlocks = 50'000;
constexpr double kMaxBlockPixels = 150;  // the largest page's width

std::string Esc(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += ch;
    }
  }
  return out;
}
// Text from the file (names, keys) may be any bytes: escaped to valid UTF-8.
std::string EscName(std::string_view text) { return Esc(EscapeBytes(text)); }

std::string Thousands(int64_t n) {
  // The magnitude as unsigned: -INT64_MIN does not fit (a hostile footer's numbers).
  const uint64_t magnitude = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  std::string digits = std::to_string(magnitude), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

// Hue for a compression ratio: 0 (red) at 1x or less, 120 (green) at 16x.
int RatioHue(double ratio) {
  if (!(ratio > 1)) return 0;
  return static_cast<int>(std::lround(120 * std::min(1.0, std::log2(ratio) / 4)));
}

// a + b, held at the int64 limits (sizes from a hostile footer may overflow).
int64_t SatAdd(int64_t a, int64_t b) {
  int64_t sum;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? INT64_MAX : INT64_MIN;
}

double Ratio(int64_t uncompressed, int64_t compressed) {
  return compressed > 0 ? static_cast<double>(uncompressed) / static_cast<double>(compressed) : 1;
}

bool IsData(format::PageType t) {
  return t == format::PageType::kDataPage || t == format::PageType::kDataPageV2;
}

std::string PageEncoding(const format::PageHeader& h) {
  if (h.data_page_header) return EncodingName(h.data_page_header->encoding);
  if (h.data_page_header_v2) return EncodingName(h.data_page_header_v2->encoding);
  if (h.dictionary_page_header) return EncodingName(h.dictionary_page_header->encoding);
  return "-";
}

int64_t PageValues(const format::PageHeader& h) {
  if (h.data_page_header) return h.data_page_header->num_values;
  if (h.data_page_header_v2) return h.data_page_header_v2->num_values;
  if (h.dictionary_page_header) return h.dictionary_page_header->num_values;
  return 0;
}

struct ColumnSummary {
  std::string path;
  std::string type;
  std::string codec;
  int64_t pages = 0, dictionary_pages = 0;
  int64_t compressed = 0, uncompressed = 0;
  std::vector<int64_t> data_page_sizes;  // bytes in the file, header included
};

constexpr std::string_view kStyle = R"(
body{font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:16px;color:#222;background:#fff}
h1{font-size:18px;margin:0 0 4px}h2{font-size:15px;margin:22px 0 6px}
.meta{color:#444;margin:2px 0}.meta b{color:#111}
table{border-collapse:collapse}
.grid th,.grid td{border:1px solid #ccc;vertical-align:top;padding:3px}
.grid thead th{background:#f3f3f3;font-weight:600;text-align:left;max-width:160px;word-break:break-all}
.grid tbody th{background:#f8f8f8;text-align:left;font-weight:600;white-space:nowrap}
.grid small,.cols small{color:#666;font-weight:400}
.cell{display:flex;flex-wrap:wrap;gap:1px;width:160px;align-content:flex-start}
.pg{display:inline-block;height:16px;min-width:2px;box-sizing:border-box;border:1px solid rgba(0,0,0,.25)}
.pg.dict{border:2px solid #000;background-image:repeating-linear-gradient(45deg,rgba(255,255,255,.55) 0 3px,transparent 3px 6px)}
.pg:hover{outline:2px solid #06c}
.cap{color:#666;font-size:11px;margin-top:2px}
.legend span.pg{vertical-align:middle;margin:0 4px 0 10px}
.cols td,.cols th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:right}
.cols td:first-child,.cols th:first-child,.cols td.l{text-align:left}
#detail{position:fixed;left:0;right:0;bottom:0;background:#222;color:#fff;padding:6px 12px;font:12px monospace;min-height:16px}
.problem{color:#b00}
)";

constexpr std::string_view kScript = R"(
(function(){var d=document.getElementById('detail');
document.addEventListener('mouseover',function(e){var t=e.target.closest('[title]');
if(t)d.textContent=t.getAttribute('title');});})();
)";

class HtmlPage {
 public:
  explicit HtmlPage(const InspectedFile& file) : file_(file) {}

  std::string Render() {
    Summarize();
    out_ += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
    fmt::format_to(Out(), "<title>quiver inspect: {}</title>\n<style>{}</style></head><body>\n",
                   EscName(file_.path), kStyle);
    Header();
    Grid();
    Spread();
    Columns();
    Problems();
    fmt::format_to(Out(), "<div id=\"detail\">Hover over a page for its details.</div>\n"
                          "<script>{}</script>\n</body></html>\n",
                   kScript);
    return std::move(out_);
  }

 private:
  std::back_insert_iterator<std::string> Out() { return std::back_inserter(out_); }

  void Summarize() {
    for (const auto& group : file_.chunks) {
      for (const auto& c : group) {
        if (static_cast<size_t>(c.column) >= columns_.size()) columns_.resize(c.column + 1);
        ColumnSummary& s = columns_[static_cast<size_t>(c.column)];
        const auto& cc = file_.column_chunk(c);
        if (s.path.empty()) s.path = c.path;
        if (cc.meta_data) {
          s.type = TypeName(cc.meta_data->type);
          if (const auto* e = file_.leaf_element(c); e && e->logical_type) {
            s.type += " " + LogicalTypeString(*e->logical_type);
          }
          s.codec = CodecName(cc.meta_data->codec);
          s.compressed = SatAdd(s.compressed, cc.meta_data->total_compressed_size);
          s.uncompressed = SatAdd(s.uncompressed, cc.meta_data->total_uncompressed_size);
        }
        s.pages += static_cast<int64_t>(c.pages.size()) + c.pages_not_kept;
        for (const auto& p : c.pages) {
          const int64_t bytes = p.header_size + p.header.compressed_page_size;
          max_page_ = std::max(max_page_, bytes);
          if (p.header.type == format::PageType::kDictionaryPage) ++s.dictionary_pages;
          if (IsData(p.header.type)) s.data_page_sizes.push_back(bytes);
        }
      }
    }
    if (const auto& kv = file_.metadata.key_value_metadata) {
      for (const auto& p : *kv) {
        if (p.key == kCdcFooterKey) cdc_ = p.value.value_or("");
      }
    }
  }

  void Header() {
    const auto& m = file_.metadata;
    fmt::format_to(Out(), "<h1>{}</h1>\n", EscName(file_.path));
    fmt::format_to(Out(),
                   "<div class=\"meta\"><b>{}</b> bytes ({}), <b>{}</b> rows, <b>{}</b> row "
                   "groups, <b>{}</b> columns, footer {} bytes</div>\n",
                   Thousands(file_.file_size), Esc(HumanBytes(file_.file_size)),
                   Thousands(m.num_rows), m.row_groups.size(), file_.leaves.size(),
                   Thousands(file_.footer_length));
    fmt::format_to(Out(), "<div class=\"meta\">created by {}</div>\n",
                   m.created_by ? EscName(*m.created_by) : "(not recorded)");
    fmt::format_to(Out(), "<div class=\"meta\">content-defined chunking: {}</div>\n",
                   cdc_ ? "<b>yes</b> (" + Esc(std::string(kCdcFooterKey)) + " = " +
                              EscName(*cdc_) + ")"
                        : std::string("not recorded (no ") + std::string(kCdcFooterKey) +
                              " footer key)");
    out_ += "<div class=\"meta legend\">Each block is a page, its width proportional to its "
            "bytes in the file:"
            "<span class=\"pg\" style=\"width:24px;background:hsl(60,70%,55%)\"></span>data page"
            "<span class=\"pg dict\" style=\"width:24px;background:hsl(60,70%,55%)\"></span>"
            "dictionary page (striped, outlined); colour = compression ratio ";
    for (double r : {1.0, 2.0, 4.0, 8.0, 16.0}) {
      fmt::format_to(Out(),
                     "<span class=\"pg\" style=\"width:14px;margin-left:6px;"
                     "background:hsl({},70%,55%)\"></span>{}x",
                     RatioHue(r), r);
    }
    fmt::format_to(Out(), " or more. Widest block: {} bytes.</div>\n", Thousands(max_page_));
  }

  std::string PageBlock(const ChunkRecord& c, size_t index, const PageRecord& p) {
    const auto& h = p.header;
    const int64_t bytes = p.header_size + h.compressed_page_size;
    const double ratio = Ratio(h.uncompressed_page_size, h.compressed_page_size);
    const double width =
        max_page_ > 0 ? std::max(2.0, kMaxBlockPixels * static_cast<double>(bytes) /
                                          static_cast<double>(max_page_))
                      : 2.0;
    const bool dict = h.type == format::PageType::kDictionaryPage;
    const std::string title = fmt::format(
        "{} | row group {} | page {}: {} {} | offset {} | {} bytes in the file ({} header), {} "
        "uncompressed, ratio {:.2f}x | {} values",
        EscapeBytes(c.path), c.row_group, index, PageTypeName(h.type), PageEncoding(h),
        Thousands(p.offset), Thousands(bytes), p.header_size, Thousands(h.uncompressed_page_size),
        ratio, Thousands(PageValues(h)));
    return fmt::format("<span class=\"pg{}\" style=\"width:{:.1f}px;background:hsl({},70%,55%)\" "
                       "title=\"{}\"></span>",
                       dict ? " dict" : "", width, RatioHue(ratio), Esc(title));
  }

  void Grid() {
    out_ += "<h2>Row groups &times; columns</h2>\n<table class=\"grid\"><thead><tr><th>row group</th>";
    for (const auto& s : columns_) {
      fmt::format_to(Out(), "<th>{}<br><small>{} {}</small></th>", EscName(s.path), Esc(s.type),
                     Esc(s.codec));
    }
    out_ += "</tr></thead><tbody>\n";
    int64_t drawn = 0;
    for (size_t rg = 0; rg < file_.chunks.size(); ++rg) {
      const auto& g = file_.metadata.row_groups[rg];
      fmt::format_to(Out(), "<tr><th>{}<br><small>{} rows<br>{} bytes</small></th>", rg,
                     Thousands(g.num_rows), Thousands(g.total_compressed_size.value_or(g.total_byte_size)));
      for (const auto& c : file_.chunks[rg]) {
        const auto& cc = file_.column_chunk(c);
        out_ += "<td><div class=\"cell\">";
        int64_t skipped = c.pages_not_kept;
        for (size_t i = 0; i < c.pages.size(); ++i) {
          if (drawn >= kMaxBlocks) {
            skipped += static_cast<int64_t>(c.pages.size() - i);
            break;
          }
          out_ += PageBlock(c, i, c.pages[i]);
          ++drawn;
        }
        const int64_t n = static_cast<int64_t>(c.pages.size()) + c.pages_not_kept;
        fmt::format_to(Out(), "</div><div class=\"cap\">{} page{}, {} bytes{}</div></td>", n,
                       n == 1 ? "" : "s",
                       Thousands(cc.meta_data ? cc.meta_data->total_compressed_size : 0),
                       skipped > 0 ? fmt::format(" ({} not drawn)", skipped) : "");
      }
      out_ += "</tr>\n";
    }
    out_ += "</tbody></table>\n";
  }

  // One SVG strip per column: a tick per data page at its size.
  void Spread() {
    out_ += "<h2>Data page sizes by column</h2>\n<div class=\"meta\">Each tick is a data page at "
            "its size in the file (0 at the left, the column's largest page at the right). Fixed-size "
            "pages pile up at one size; content-defined chunking spreads them between its "
            "minimum and maximum.</div>\n<table class=\"cols\">";
    constexpr int kWidth = 420, kHeight = 18;
    for (const auto& s : columns_) {
      std::vector<int64_t> sizes = s.data_page_sizes;
      std::sort(sizes.begin(), sizes.end());
      const int64_t largest = sizes.empty() ? 1 : std::max<int64_t>(1, sizes.back());
      fmt::format_to(Out(), "<tr><td class=\"l\">{}</td><td><svg width=\"{}\" height=\"{}\">"
                            "<rect width=\"{}\" height=\"{}\" "
                            "fill=\"#f4f4f4\"/>",
                     EscName(s.path), kWidth, kHeight, kWidth, kHeight);
      // Ticks at distinct pixel positions only (a tick per pixel column).
      int last = -1;
      for (int64_t v : sizes) {
        const int x = static_cast<int>(std::lround((kWidth - 1) * static_cast<double>(v) /
                                                   static_cast<double>(largest)));
        if (x == last) continue;
        last = x;
        fmt::format_to(Out(), "<rect x=\"{}\" width=\"1\" height=\"{}\" fill=\"#1f5fa8\"/>", x,
                       kHeight);
      }
      out_ += "</svg></td>";
      if (sizes.empty()) {
        out_ += "<td colspan=\"3\">no data pages</td></tr>\n";
        continue;
      }
      fmt::format_to(Out(), "<td>min {}</td><td>median {}</td><td>max {}</td></tr>\n",
                     Thousands(sizes.front()), Thousands(sizes[sizes.size() / 2]),
                     Thousands(sizes.back()));
    }
    out_ += "</table>\n";
  }

  void Columns() {
    out_ += "<h2>Columns</h2>\n<table class=\"cols\" id=\"columns\"><thead><tr><th>column</th>"
            "<th>type</th><th>codec</th><th>pages</th><th>dictionary pages</th>"
            "<th>compressed bytes</th><th>uncompressed bytes</th><th>ratio</th></tr></thead>"
            "<tbody>\n";
    for (const auto& s : columns_) {
      fmt::format_to(Out(),
                     "<tr><td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td>"
                     "<td>{}</td><td>{}</td><td>{}</td><td>{:.2f}x</td></tr>\n",
                     EscName(s.path), Esc(s.type), Esc(s.codec), s.pages, s.dictionary_pages,
                     Thousands(s.compressed), Thousands(s.uncompressed),
                     Ratio(s.uncompressed, s.compressed));
    }
    out_ += "</tbody></table>\n";
  }

  void Problems() {
    const int64_t n = file_.num_problems();
    if (n == 0) return;
    fmt::format_to(Out(), "<h2 class=\"problem\">{} problem{} (see quiver inspect)</h2>"
                          "<div class=\"problem\">first: {}</div>\n",
                   n, n == 1 ? "" : "s", EscName(file_.first_problem()));
  }

  const InspectedFile& file_;
  std::string out_;
  std::vector<ColumnSummary> columns_;
  int64_t max_page_ = 0;
  std::optional<std::string> cdc_;
};

}  // namespace

std::string RenderHtml(const InspectedFile& file) { return HtmlPage(file).Render(); }

}  // namespace quiver::cli
