// libFuzzer entry point for the Thrift decoder: the input is read as a
// FileMetaData and as a PageHeader (the two structures a Parquet reader
// decodes from untrusted bytes first). Whatever decodes must re-encode, and
// the re-encoding must decode and encode to the same bytes. Excluded from
// the library by the *_fuzz.cc rule; built by the fuzz preset and run by
// `make fuzz` over fuzz/corpus/quiver_parquet_thrift_fuzz/.
#include <cstddef>
#include <cstdint>
#include <string>

#include "quiver/parquet/thrift/compact_protocol_internal.h"
#include "quiver/parquet/thrift/parquet_types_internal.h"

namespace {

template <typename T>
void FuzzOne(const uint8_t* data, size_t size) {
  using quiver::parquet::thrift::DeserializeThrift;
  using quiver::parquet::thrift::SerializeThrift;
  auto value = DeserializeThrift<T>(data, static_cast<int64_t>(size));
  if (!value.ok()) return;
  std::string once;
  if (!SerializeThrift(*value, &once).ok()) __builtin_trap();
  auto again = DeserializeThrift<T>(reinterpret_cast<const uint8_t*>(once.data()),
                                    static_cast<int64_t>(once.size()));
  if (!again.ok()) __builtin_trap();
  std::string twice;
  if (!SerializeThrift(*again, &twice).ok() || twice != once) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzOne<quiver::parquet::format::FileMetaData>(data, size);
  FuzzOne<quiver::parquet::format::PageHeader>(data, size);
  return 0;
}
