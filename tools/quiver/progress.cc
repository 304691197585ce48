#include "progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "cli_common.h"

namespace quiver::cli {

namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

// 1234567 -> "1,234,567".
std::string Grouped(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string Duration(double seconds) {
  const auto s = static_cast<int64_t>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

Progress::Progress(bool enabled, int64_t total_rows, int64_t total_bytes)
    : enabled_(enabled && ::isatty(STDERR_FILENO) == 1),
      total_rows_(total_rows),
      total_bytes_(total_bytes),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

Progress::~Progress() { Finish(); }

void Progress::Update(int64_t rows, int64_t bytes) {
  rows_ = rows;
  bytes_ = bytes;
  if (!enabled_ || finished_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  Draw();
}

void Progress::Finish() {
  if (!enabled_ || finished_) return;
  finished_ = true;
  Draw();
  std::fputc('\n', stderr);
  std::fflush(stderr);
}

void Progress::Draw() {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // "\r" back to the line's start, ESC [ K erases what a longer line left.
  fmt::print(stderr, "\r{}\x1b[K",
             Line(rows_, total_rows_, bytes_, total_bytes_, seconds));
  std::fflush(stderr);
}

std::string Progress::Line(int64_t rows, int64_t total_rows, int64_t bytes, int64_t total_bytes,
                           double seconds) {
  std::string line = Grouped(rows);
  double fraction = -1;
  if (total_rows >= 0) {
    fraction = total_rows == 0 ? 1.0 : static_cast<double>(rows) / static_cast<double>(total_rows);
    line += fmt::format(" / {} rows ({}%)", Grouped(total_rows),
                        static_cast<int>(std::min(fraction, 1.0) * 100));
  } else {
    line += " rows";
    if (total_bytes > 0) fraction = static_cast<double>(bytes) / static_cast<double>(total_bytes);
  }
  line += ", " + HumanBytes(bytes);
  if (seconds > 0) {
    line += fmt::format(", {:.1f} MB/s", static_cast<double>(bytes) / 1e6 / seconds);
  }
  if (fraction > 0 && fraction < 1 && seconds > 0) {
    line += ", ETA " + Duration(seconds * (1 - fraction) / fraction);
  } else if (fraction >= 1) {
    line += ", " + Duration(seconds);
  }
  return line;
}

}  // namespace quiver::cli
