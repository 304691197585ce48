// `quiver inspect --check FILE...`: a lint of what makes a Parquet file slow
// or costly to read or store. Findings are only the conditions below, each
// with its threshold and the `quiver rewrite` flags that fix it; anything
// else worth saying is a note, which leaves the exit code alone.
//
//   id                 condition (threshold)                                fix flags
//   unreadable         the footer cannot be read (not Parquet, cut off)    -
//   invalid            the file is readable but inconsistent (what         -
//                      `quiver inspect FILE` lists as problems)
//   no-page-index      a column chunk without an offset index, or without  --write-page-index
//                      a column index while its statistics have min/max
//                      (readers cannot skip pages)
//   no-statistics      a column chunk of a filterable column without       (none: a rewrite writes
//                      statistics                                          statistics by default)
//   no-min-max         statistics without min/max on a filterable column   (none: Quiver writes
//                      (not all-null, not all-NaN chunks)                  min/max for every
//                                                                          ordered column)
//   large-page         a page over 8 MiB uncompressed                       --data-page-size 1048576
//                      (a data page of a single value: no flag fixes it)   (dictionary pages:
//                                                                          --dictionary-pagesize-limit
//                                                                          1048576)
//   small-row-groups   a row group under 10,000 rows that is not the last  --row-group-size 1048576
//                      one (a file of fewer rows is one row group: fine)
//   large-row-group    a row group over 1 GiB of compressed column chunks  --row-group-bytes 536870912
//   large-footer       a footer (FileMetaData) over 10 MiB                 --row-group-size 1048576,
//                      (no flag when key/value pairs other than            --no-store-schema when
//                      ARROW:schema exceed 5 MiB: a rewrite keeps them)    ARROW:schema is most of it
//   dictionary-fallback a column whose every chunk fell back from the      --dictionary-columns
//                      dictionary (a dictionary page and non-dictionary    (the others) or
//                      data pages: the dictionary is dead weight)          --no-dictionary
//   long-statistics    a statistics value (chunk, page header or column    (none: Quiver cuts
//                      index min/max) over 64 KiB                          byte-array min/max
//                                                                          to 64 bytes)
//   no-cdc             with --for-dedup: no "quiver.cdc" footer key        --cdc
//   int96              an INT96 (deprecated timestamp) column              (none: Quiver writes
//                                                                          INT64 timestamps)
//   uncompressed       an UNCOMPRESSED column whose first 1 MiB of page     --compression COL=zstd
//                      bodies (whole pages; columns under 4 KiB are not
//                      checked) shrinks to half or less with zstd level 1
//
// A "filterable" column is a leaf whose type has an order: every physical
// type but INT96 (without the INT96 timestamp order), excluding the INTERVAL
// converted type and the UNKNOWN (null), VARIANT, GEOMETRY and GEOGRAPHY
// logical types. Legacy min/max (the deprecated fields) count only for types
// whose order is the signed one (BOOLEAN, signed INT32/INT64, FLOAT, DOUBLE):
// readers ignore them for byte arrays and unsigned integers.
//
// `quiver rewrite` writes with its own defaults (snappy, dictionary,
// statistics, page index, row groups of 1 Mi rows), so the full command
// printed for a file also carries the flags that keep what the file chose:
// its codecs and its CDC parameters.
#pragma once

#include <string>
#include <vector>

#include "inspect_model.h"
#include "quiver/memory/buffer.h"

namespace quiver::cli {

struct CheckOptions {
  bool for_dedup = false;
};

// Thresholds (see the table above).
inline constexpr int64_t kCheckMaxPageBytes = 8LL << 20;
inline constexpr int64_t kCheckMinRowGroupRows = 10'000;
inline constexpr int64_t kCheckMaxRowGroupBytes = 1LL << 30;
inline constexpr int64_t kCheckMaxFooterBytes = 10LL << 20;
inline constexpr int64_t kCheckMaxStatisticsValue = 64LL << 10;
inline constexpr int64_t kCheckCompressionSample = 1LL << 20;
inline constexpr double kCheckCompressionRatio = 0.5;
// The footer key the writer sets when it chunks pages by content.
inline constexpr std::string_view kCdcFooterKey = "quiver.cdc";

struct Finding {
  std::string id;       // from the table above
  std::string message;  // what and where, with the threshold
  // `quiver rewrite` flags that fix it; empty with `rewrite_fixes` = any
  // rewrite does; `rewrite_fixes` false = no rewrite fixes it.
  std::vector<std::string> fix;
  bool rewrite_fixes = true;
};

struct CheckResult {
  std::string path;
  bool readable = true;
  std::vector<Finding> findings;
  std::vector<std::string> notes;
  // Flags that keep the file's own choices in a rewrite (codecs, CDC).
  std::vector<std::string> keep;
};

// Checks an inspected file (`data` is the whole file: the sampled pages are
// read from it).
CheckResult CheckInspectedFile(const InspectedFile& file, const Buffer& data,
                               const CheckOptions& options);
// The result for a file that could not be read at all.
CheckResult UnreadableResult(std::string path, std::string message);

// The whole `quiver rewrite` command that fixes every finding a rewrite can
// fix (the output is FILE with ".fixed.parquet"); empty when none can, and
// for a file that is unreadable or invalid.
std::string FixCommand(const CheckResult& result);

std::string RenderCheckText(const std::vector<CheckResult>& results);
std::string RenderCheckJson(const std::vector<CheckResult>& results);

}  // namespace quiver::cli
