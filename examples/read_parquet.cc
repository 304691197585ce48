// Reads a Parquet file with Quiver's reader: its schema, its metadata, then
// its rows batch by batch (about one batch and one page per column in
// memory) and as a whole table.
//
//   build/release/examples/read_parquet data.parquet [column...]
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "quiver/parquet/reader/file_reader.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE.parquet [column...]\n", argv[0]);
    return 2;
  }
  std::optional<std::vector<std::string>> columns;
  if (argc > 2) columns = std::vector<std::string>(argv + 2, argv + argc);

  auto reader = quiver::parquet::FileReader::Open(argv[1]);
  if (!reader.ok()) {
    std::fprintf(stderr, "%s\n", reader.status().ToString().c_str());
    return 1;
  }
  std::printf("%s\n%lld rows in %d row groups\n", (*reader)->schema()->ToString().c_str(),
              static_cast<long long>((*reader)->num_rows()), (*reader)->num_row_groups());

  auto batches = (*reader)->GetRecordBatchReader(columns, std::nullopt, 65536);
  if (!batches.ok()) {
    std::fprintf(stderr, "%s\n", batches.status().ToString().c_str());
    return 1;
  }
  int64_t rows = 0;
  while (true) {
    auto batch = (*batches)->Next();
    if (!batch.ok()) {
      std::fprintf(stderr, "%s\n", batch.status().ToString().c_str());
      return 1;
    }
    if (*batch == nullptr) break;
    rows += (*batch)->num_rows();
  }
  std::printf("read %lld rows in batches\n", static_cast<long long>(rows));

  auto table = (*reader)->ReadTable(columns);
  if (!table.ok()) {
    std::fprintf(stderr, "%s\n", table.status().ToString().c_str());
    return 1;
  }
  if ((*table)->num_columns() > 0 && (*table)->column(0)->num_chunks() > 0) {
    const auto& first = (*table)->column(0)->chunk(0);
    std::printf("first values of '%s': %s\n", (*table)->schema()->field(0)->name().c_str(),
                first->Slice(0, std::min<int64_t>(3, first->length()))->ToString().c_str());
  }
  return 0;
}
