// One filtered read, for callgrind A/B of late materialization against
// reading everything and filtering (bench/late_materialization.py runs the
// matrix; docs/design.md "Filtered reads" has the table):
//
//   quiver_late_materialization_callgrind FILE WHERE GAP COLUMN...
//
// reads COLUMNs of every row group of FILE where WHERE (the CLI's --where
// grammar) holds: GAP "readall" reads the columns plus the filter's and
// filters them (FilterByExpression: the filtered read before late
// materialization); a number reads through internal::ReadLate with that
// merge gap ("max": one run, every row decoded then filtered). No pruning
// (every row of every row group is the plan), so only the execution
// differs. Prints the matches and the read's values_decoded.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "quiver/compute/expression.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/late_materialization_internal.h"

int main(int argc, char** argv) {
  using namespace quiver;
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s FILE WHERE GAP COLUMN...\n", argv[0]);
    return 2;
  }
  auto reader = parquet::FileReader::Open(argv[1]);
  if (!reader.ok()) {
    std::fprintf(stderr, "%s\n", reader.status().ToString().c_str());
    return 1;
  }
  auto filter = compute::ParseWhere(argv[2]);
  if (!filter.ok()) {
    std::fprintf(stderr, "%s\n", filter.status().ToString().c_str());
    return 1;
  }
  const std::string gap_text = argv[3];
  std::vector<std::string> columns(argv + 4, argv + argc);
  if (gap_text == "readall") {
    std::vector<std::string> read = columns;
    for (const std::string& f : filter->FieldsReferenced()) {
      if (std::find(read.begin(), read.end(), f) == read.end()) read.push_back(f);
    }
    auto all = (*reader)->ReadTable(read);
    if (!all.ok()) {
      std::fprintf(stderr, "%s\n", all.status().ToString().c_str());
      return 1;
    }
    auto kept = compute::FilterByExpression(**all, *filter);
    if (!kept.ok()) {
      std::fprintf(stderr, "%s\n", kept.status().ToString().c_str());
      return 1;
    }
    std::printf("matches %lld values_decoded %lld\n",
                static_cast<long long>((*kept)->num_rows()),
                static_cast<long long>((*reader)->read_stats().values_decoded));
    return 0;
  }
  const int64_t gap = gap_text == "max" ? std::numeric_limits<int64_t>::max()
                                        : std::strtoll(gap_text.c_str(), nullptr, 10);
  std::vector<int> groups;
  std::vector<parquet::RowRanges> selections;
  auto metadata = (*reader)->metadata();
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    groups.push_back(g);
    selections.push_back(parquet::RowRanges::All(metadata->row_group(g).ValueOrDie().num_rows()));
  }
  auto table = parquet::internal::ReadLate(**reader, *filter, columns, groups, selections, gap);
  if (!table.ok()) {
    std::fprintf(stderr, "%s\n", table.status().ToString().c_str());
    return 1;
  }
  std::printf("matches %lld values_decoded %lld\n",
              static_cast<long long>((*table)->num_rows()),
              static_cast<long long>((*reader)->read_stats().values_decoded));
  return 0;
}
