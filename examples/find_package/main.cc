// Builds a small Arrow record batch (an int64 column and a nullable string
// column), writes it as Parquet into memory with quiver::parquet::FileWriter,
// and checks the bytes: they start and end with "PAR1", and the footer says
// 3 rows. Exit code 0 on success; the reason on stderr otherwise.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_primitive.h"
#include "quiver/array/record_batch.h"
#include "quiver/array/type.h"
#include "quiver/io/memory.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/util/result.h"
#include "quiver/util/status.h"

namespace {

quiver::Status Run() {
  quiver::Int64Builder ids;
  quiver::StringBuilder names;
  for (int64_t i = 1; i <= 3; ++i) QUIVER_RETURN_NOT_OK(ids.Append(i * 10));
  QUIVER_RETURN_NOT_OK(names.Append(std::string_view("one")));
  QUIVER_RETURN_NOT_OK(names.AppendNull());
  QUIVER_RETURN_NOT_OK(names.Append(std::string_view("three")));
  QUIVER_ASSIGN_OR_RAISE(auto id_data, ids.Finish());
  QUIVER_ASSIGN_OR_RAISE(auto name_data, names.Finish());
  auto schema = quiver::schema(
      {quiver::field("id", quiver::int64(), false), quiver::field("name", quiver::utf8())});
  QUIVER_ASSIGN_OR_RAISE(auto batch, quiver::RecordBatch::Make(schema, 3, {id_data, name_data}));

  quiver::io::BufferOutputStream sink;
  QUIVER_ASSIGN_OR_RAISE(auto writer, quiver::parquet::FileWriter::Open(&sink, schema));
  QUIVER_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
  QUIVER_RETURN_NOT_OK(writer->Close());
  QUIVER_ASSIGN_OR_RAISE(auto bytes, sink.Finish());

  const auto* data = bytes->data();
  const int64_t size = bytes->size();
  if (size < 12 || std::memcmp(data, "PAR1", 4) != 0 || std::memcmp(data + size - 4, "PAR1", 4) != 0) {
    return quiver::Status::Invalid("the output is not framed by PAR1 (", size, " bytes)");
  }
  QUIVER_ASSIGN_OR_RAISE(auto footer, writer->metadata());
  if (writer->num_rows() != 3 || footer->num_rows() != 3) {
    return quiver::Status::Invalid("expected 3 rows, the footer says ", footer->num_rows());
  }
  std::printf("wrote %lld bytes of Parquet (3 rows, 2 columns)\n", static_cast<long long>(size));
  return quiver::Status::OK();
}

}  // namespace

int main() {
  const quiver::Status status = Run();
  if (!status.ok()) {
    std::fprintf(stderr, "write_parquet: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
