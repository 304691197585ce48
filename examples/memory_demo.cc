// The memory layer at work: pools and their statistics, building a buffer
// without zeroing, freezing it without a copy, slices, and the zero-size area.
#include <cinttypes>
#include <cstdio>

#include "quiver/memory/buffer.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/memory/zero_size_area.h"

using quiver::Buffer;
using quiver::MemoryPool;
using quiver::MutableBuffer;

namespace {

void PrintStats(const char* when, const MemoryPool* pool) {
  std::printf("  %-28s bytes_allocated=%-9" PRId64 " max_memory=%-9" PRId64
              " total=%-9" PRId64 " allocations=%" PRId64 "\n",
              when, pool->bytes_allocated(), pool->max_memory(), pool->total_bytes_allocated(),
              pool->num_allocations());
}

quiver::Status Run() {
  MemoryPool* pool = quiver::DefaultMemoryPool();
  std::printf("Quiver memory layer\n");
  std::printf("  backends available: %s; default pool: %s%s\n",
              quiver::SupportedMemoryBackendNames().c_str(), pool->backend_name().c_str(),
              quiver::BuiltWithAddressSanitizer() ? " (AddressSanitizer build)" : "");
  std::printf("  zero-size area at %p (address mod 256 = %" PRIuPTR ")\n",
              static_cast<void*>(quiver::ZeroSizeArea()),
              reinterpret_cast<uintptr_t>(quiver::ZeroSizeArea()) % 256);

  PrintStats("start:", pool);
  std::shared_ptr<Buffer> squares;
  {
    MutableBuffer builder(pool);
    constexpr int64_t kCount = 1'000'000;
    QUIVER_RETURN_NOT_OK(builder.Reserve(kCount * sizeof(int64_t)));  // one allocation, not zeroed
    for (int64_t i = 0; i < kCount; ++i) builder.UnsafeAppend<int64_t>(i * i);
    std::printf("  built %" PRId64 " int64 values: size=%" PRId64 " capacity=%" PRId64 "\n",
                kCount, builder.size(), builder.capacity());
    PrintStats("after building:", pool);
    const uint8_t* before = builder.data();
    squares = builder.Freeze();
    std::printf("  frozen without a copy: %s; padding zeroed up to capacity %" PRId64 "\n",
                squares->data() == before ? "yes" : "NO", squares->capacity());
  }
  auto tail = quiver::SliceBuffer(squares, 999'990 * 8, 80);
  std::printf("  slice of the last 10 values: first = %" PRId64 ", last = %" PRId64 "\n",
              tail->data_as<int64_t>()[0], tail->data_as<int64_t>()[9]);
  squares.reset();
  PrintStats("parent dropped, slice alive:", pool);
  tail.reset();
  PrintStats("slice dropped:", pool);

  MutableBuffer empty(pool);
  auto frozen_empty = empty.Freeze();
  auto empty_slice = quiver::SliceBuffer(Buffer::FromString("abc"), 3, 0);
  std::printf("  empty buffers at the zero-size area: frozen=%s slice=%s vector=%s\n",
              quiver::IsZeroSizeArea(frozen_empty->data()) ? "yes" : "NO",
              quiver::IsZeroSizeArea(empty_slice->data()) ? "yes" : "NO",
              quiver::IsZeroSizeArea(Buffer::FromVector({})->data()) ? "yes" : "NO");

  quiver::CappedMemoryPool capped(pool, 1 << 20);
  MutableBuffer limited(&capped);
  quiver::Status refused = limited.Reserve(int64_t{1} << 30);
  std::printf("  capped pool (1 MiB) asked for 1 GiB: %s\n", refused.ToString().c_str());
  return quiver::Status::OK();
}

}  // namespace

int main() {
  quiver::Status st = Run();
  if (!st.ok()) {
    std::fprintf(stderr, "memory_demo: %s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}
