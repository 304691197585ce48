// libFuzzer target for the IPC readers: the input is read as a stream and as
// a file, with full validation, and every returned batch is printed. Any
// crash, sanitizer report or unbounded allocation is a bug; keep crashing
// inputs as regression cases in malformed_test.cc.
//
// Not part of the library (the module glob skips *_fuzz.cc): built by the
// fuzz preset (clang, libFuzzer, ASan+UBSan) and run by `make fuzz` over
// fuzz/corpus/quiver_ipc_fuzz/.
#include <cstddef>
#include <cstdint>

#include "quiver/ipc/reader.h"
#include "quiver/ipc/schema.h"
#include "quiver/memory/memory_pool.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace quiver;        // NOLINT
  using namespace quiver::ipc;   // NOLINT
  static CappedMemoryPool pool(DefaultMemoryPool(), int64_t{256} << 20);
  IpcReadOptions options;
  options.pool = &pool;
  options.validate_full = true;
  auto buffer = Buffer::Wrap(data, static_cast<int64_t>(size));
  (void)ReadSchemaMessage(data, static_cast<int64_t>(size));
  if (auto stream = RecordBatchStreamReader::Open(buffer, options); stream.ok()) {
    for (int i = 0; i < 1000; ++i) {
      auto batch = (*stream)->Next();
      if (!batch.ok() || *batch == nullptr) break;
      (void)(*batch)->ToString();
    }
  }
  if (auto file = RecordBatchFileReader::Open(buffer, options); file.ok()) {
    for (int i = 0; i < (*file)->num_record_batches() && i < 1000; ++i) {
      auto batch = (*file)->ReadRecordBatch(i);
      if (batch.ok()) (void)(*batch)->ToString();
    }
  }
  return 0;
}
