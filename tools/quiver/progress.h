// The progress line of `quiver convert`, `rewrite` and `cat` on stderr:
//
//   1,234,567 / 10,000,000 rows (12%), 45.6 MiB, 38.2 MB/s, ETA 0:21
//
// drawn only when stderr is a terminal (and the command was not told to be
// quiet), redrawn in place ("\r" + erase to the end of the line) at most
// ten times a second, and finished with a newline by Finish() (which draws
// the final counts once, however short the run). The ETA needs a known
// total: the rows (a Parquet footer's num_rows) or else the bytes (an input
// file's size). Bytes are the input's bytes, as the caller counts them.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace quiver::cli {

class Progress {
 public:
  // Enabled when `enabled` and stderr is a terminal. Totals < 0: unknown.
  Progress(bool enabled, int64_t total_rows, int64_t total_bytes);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool enabled() const { return enabled_; }
  // The counts so far (not increments); draws if 100 ms have passed.
  void Update(int64_t rows, int64_t bytes);
  // Draws the last counts and ends the line (once; the destructor calls it).
  void Finish();

  // The text of the line (no "\r", no newline), for the counts at `seconds`.
  static std::string Line(int64_t rows, int64_t total_rows, int64_t bytes, int64_t total_bytes,
                          double seconds);

 private:
  void Draw();

  bool enabled_;
  bool finished_ = false;
  int64_t total_rows_;
  int64_t total_bytes_;
  int64_t rows_ = 0;
  int64_t bytes_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace quiver::cli
