// libFuzzer entry point for the metadata layer: the input is a whole
// Parquet file. The footer is read (with a small tail, so that the "read
// the missing bytes" path runs too), then every column chunk's page headers
// are walked, and its page index and bloom filter read, as the reader does
// before it decodes anything. Nothing may crash, hang or read outside the
// input; every failure must be a Status. Excluded from the library by the
// *_fuzz.cc rule; built by the `fuzz` preset (make fuzz).
#include <cstddef>
#include <cstdint>

#include "quiver/io/memory.h"
#include "quiver/parquet/metadata/bloom_filter_reader_internal.h"
#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/footer_internal.h"
#include "quiver/parquet/metadata/page_index_internal.h"

namespace {

using namespace quiver::parquet;  // NOLINT

void WalkChunk(const quiver::io::RandomAccessFile& file, const format::ColumnChunk& chunk,
               int64_t data_end, const thrift::ThriftLimits& limits) {
  (void)ReadColumnIndex(file, chunk, data_end, limits);
  (void)ReadOffsetIndex(file, chunk, data_end, limits);
  if (!chunk.meta_data.has_value()) return;
  (void)ReadBloomFilter(file, *chunk.meta_data, data_end);
  auto range = ColumnChunkRange(*chunk.meta_data, data_end);
  if (!range.ok()) return;
  auto bytes = file.ReadAt(range->offset, range->length);
  if (!bytes.ok()) __builtin_trap();  // the range was checked against the file
  PageHeaderIterator pages((*bytes)->data(), (*bytes)->size(), range->offset, limits);
  PageInfo page;
  while (true) {
    auto next = pages.Next(&page);
    if (!next.ok() || !*next) break;
    if (page.offset + page.size() > range->end()) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  quiver::io::BufferReader file(quiver::Buffer::Wrap(data, static_cast<int64_t>(size)));
  FooterOptions options;
  options.tail_size = 256;
  options.limits.container_size_limit = 10'000;
  options.limits.string_size_limit = 1'000'000;
  auto footer = ReadFooter(file, options);
  if (!footer.ok()) return 0;
  // Bound the work on footers that list the same chunk many times.
  int64_t chunks = 0;
  for (const auto& rg : footer->metadata.row_groups) {
    for (const auto& chunk : rg.columns) {
      if (++chunks > 1000) return 0;
      WalkChunk(file, chunk, footer->footer_offset, options.limits);
    }
  }
  return 0;
}
