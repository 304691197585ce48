// libFuzzer entry point for the Parquet reader: the input is a whole file.
// It is opened and every column of every row group is read in batches
// (of 7, 100 or 4096 rows, page checksums verified or not, invalid UTF-8
// an error or binary, as the input's last byte says: one pass an input
// keeps the rate up); every array
// returned must pass ValidateFull(). Nothing may crash, hang, leak or read
// outside the input; every failure must be a Status. Memory is capped
// (memory_limit), so a page or level count claiming gigabytes is an error,
// not an allocation. Then a selection of rows derived from the input's bytes
// is read from each row group (FileReader::ReadRowGroups): skipping by
// levels only, it must equal the row group read whole with those rows taken
// (whenever that read succeeds); skipping pages by the offset index (which
// the reader trusts, as Arrow C++ and arrow-rs do, so a lying index may
// change the rows), it must pass ValidateFull() with the selected row count.
// Built by the `fuzz` preset (make fuzz).
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "quiver/io/memory.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/file_reader_internal.h"

namespace {

using namespace quiver;           // NOLINT
using namespace quiver::parquet;  // NOLINT

// Runs of selected and skipped rows of a row group of `rows` rows.
RowRanges SelectionOf(std::minstd_rand& rng, int64_t rows) {
  std::vector<RowRange> ranges;
  int64_t i = 0;
  const int64_t max_run = 1 + static_cast<int64_t>(rng() % 200);
  while (i < rows) {
    const int64_t run = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(max_run));
    const int64_t end = std::min(rows, i + run);
    if (rng() % 2 == 0) ranges.push_back({i, end});
    i = end;
  }
  auto made = RowRanges::Make(std::move(ranges));
  if (!made.ok()) __builtin_trap();
  return *made;
}

void ReadSelections(FileReader& reader, uint32_t seed) {
  std::minstd_rand rng(seed);
  for (int g = 0; g < reader.num_row_groups(); ++g) {
    auto metadata = reader.metadata()->row_group(g);
    if (!metadata.ok()) return;
    const int64_t rows = metadata->num_rows();
    if (rows > (int64_t{1} << 20)) continue;
    const RowRanges selection = SelectionOf(rng, rows);
    // Levels only: the rows taken from the whole row group.
    SetSkipPagesByOffsetIndex(reader, false);
    auto some = reader.ReadRowGroups({g}, {selection});
    if (some.ok()) {
      if (!(*some)->ValidateFull().ok() || (*some)->num_rows() != selection.row_count()) {
        __builtin_trap();
      }
      auto whole = reader.ReadRowGroup(g);
      // (invalid_utf8='binary' decides per read: the two may type a leaf
      // differently.)
      if (whole.ok() && (*whole)->schema()->Equals(*(*some)->schema())) {
        EqualOptions equal;
        equal.nans_equal = true;
        for (int c = 0; c < (*whole)->num_columns(); ++c) {
          std::vector<ArrayPtr> pieces;
          for (const RowRange& r : selection.ranges()) {
            int64_t base = 0;  // (the whole read may be in chunks)
            for (const ArrayPtr& chunk : (*whole)->column(c)->chunks()) {
              const int64_t lo = std::max(r.begin, base);
              const int64_t hi = std::min(r.end, base + chunk->length());
              if (lo < hi) pieces.push_back(MakeArray(chunk->data()->Slice(lo - base, hi - lo)));
              base += chunk->length();
            }
          }
          ChunkedArray want(std::move(pieces), (*whole)->column(c)->type());
          if (!(*some)->column(c)->Equals(want, equal)) __builtin_trap();
        }
      }
    }
    // By the offset index: valid arrays of the selected rows.
    SetSkipPagesByOffsetIndex(reader, true);
    auto skipped = reader.ReadRowGroups({g}, {selection});
    if (skipped.ok() && (!(*skipped)->ValidateFull().ok() ||
                         (*skipped)->num_rows() != selection.row_count())) {
      __builtin_trap();
    }
  }
}

void ReadEverything(const std::shared_ptr<io::RandomAccessFile>& file, bool checksums,
                    bool invalid_utf8_as_binary, int64_t batch_size, uint32_t seed) {
  ReaderOptions options;
  if (invalid_utf8_as_binary) options.invalid_utf8 = ReaderOptions::InvalidUtf8::kBinary;
  options.memory_limit = 256 << 20;
  options.page_checksum_verification = checksums;
  options.thrift_limits.container_size_limit = 10'000;
  options.thrift_limits.string_size_limit = 1'000'000;
  auto reader = FileReader::Open(file, options);
  if (!reader.ok()) return;
  // Bound the work on footers that claim many row groups or columns.
  if ((*reader)->num_row_groups() > 64 || ParquetSchemaOf(**reader).num_columns() > 256) return;
  auto batches = (*reader)->GetRecordBatchReader(std::nullopt, std::nullopt, batch_size);
  if (!batches.ok()) return;
  for (int i = 0; i < 10'000; ++i) {
    auto batch = (*batches)->Next();
    if (!batch.ok() || *batch == nullptr) break;
    if (!(*batch)->ValidateFull().ok()) __builtin_trap();
  }
  ReadSelections(**reader, seed);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = std::make_shared<io::BufferReader>(Buffer::Wrap(data, static_cast<int64_t>(size)),
                                                 "fuzz.parquet");
  const uint8_t mode = size > 0 ? data[size - 1] : 0;
  static constexpr int64_t kBatchSizes[3] = {7, 100, 4096};
  // The selections' seed: a hash (FNV-1a) of the input's first bytes.
  uint32_t seed = 2166136261u;
  for (size_t i = 0; i < std::min<size_t>(size, 64); ++i) seed = (seed ^ data[i]) * 16777619u;
  ReadEverything(file, /*checksums=*/(mode & 4) != 0, /*invalid_utf8_as_binary=*/(mode & 8) != 0,
                 kBatchSizes[mode % 3], seed ^ static_cast<uint32_t>(size));
  return 0;
}
