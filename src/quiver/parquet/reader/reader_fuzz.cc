// libFuzzer entry point for the Parquet reader: the input is a whole file.
// It is opened and every column of every row group is read in batches
// (of 7, 100 or 4096 rows, page checksums verified or not, invalid UTF-8
// an error or binary, as the input's last byte says: one pass an input
// keeps the rate up); every array
// returned must pass ValidateFull(). Nothing may crash, hang, leak or read
// outside the input; every failure must be a Status. Memory is capped
// (memory_limit), so a page or level count claiming gigabytes is an error,
// not an allocation. Built by the `fuzz` preset (make fuzz).
#include <cstddef>
#include <cstdint>

#include "quiver/io/memory.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/file_reader_internal.h"

namespace {

using namespace quiver;           // NOLINT
using namespace quiver::parquet;  // NOLINT

void ReadEverything(const std::shared_ptr<io::RandomAccessFile>& file, bool checksums,
                    bool invalid_utf8_as_binary, int64_t batch_size) {
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
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = std::make_shared<io::BufferReader>(Buffer::Wrap(data, static_cast<int64_t>(size)),
                                                 "fuzz.parquet");
  const uint8_t mode = size > 0 ? data[size - 1] : 0;
  static constexpr int64_t kBatchSizes[3] = {7, 100, 4096};
  ReadEverything(file, /*checksums=*/(mode & 4) != 0, /*invalid_utf8_as_binary=*/(mode & 8) != 0,
                 kBatchSizes[mode % 3]);
  return 0;
}
