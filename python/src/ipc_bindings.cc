// quiver.write_ipc / quiver.read_ipc: Arrow IPC files and streams.
#include "ipc_bindings.h"

#include <nanobind/stl/string.h>

#include <cstring>
#include <string>

#include "common.h"
#include "quiver/io/atomic_file.h"
#include "quiver/io/file.h"
#include "quiver/io/interfaces.h"
#include "quiver/ipc/reader.h"
#include "quiver/ipc/writer.h"

namespace nb = nanobind;

namespace quiver::python {

namespace {

ipc::Compression ParseIpcCompression(nb::handle h) {
  if (h.is_none()) return ipc::Compression::kNone;
  std::string name = nb::cast<std::string>(h);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name == "none" || name == "uncompressed") return ipc::Compression::kNone;
  if (name == "lz4" || name == "lz4_frame") return ipc::Compression::kLz4Frame;
  if (name == "zstd") return ipc::Compression::kZstd;
  Raise(Status::Invalid("option compression: expected None, 'lz4' or 'zstd', got '", name, "'"));
}

}  // namespace

void BindIpc(nb::module_& m) {
  m.def(
      "write_ipc",
      [](nb::handle data, const std::string& path, bool stream, nb::handle compression, bool fsync) {
        TablePtr table = TableFromPy(data);
        ipc::IpcWriteOptions options;
        options.compression = ParseIpcCompression(compression);
        Status st;
        {
          nb::gil_scoped_release release;
          st = [&]() -> Status {
            // A temporary file renamed over `path` when complete (nothing
            // partial at the path), fsynced unless fsync=False.
            QUIVER_ASSIGN_OR_RAISE(auto sink, io::AtomicFileOutputStream::Open(path, fsync));
            QUIVER_ASSIGN_OR_RAISE(auto writer, stream ? ipc::MakeStreamWriter(sink.get(), table->schema(), options)
                                                       : ipc::MakeFileWriter(sink.get(), table->schema(), options));
            QUIVER_RETURN_NOT_OK(writer->WriteTable(*table));
            QUIVER_RETURN_NOT_OK(writer->Close());
            return sink->Close();
          }();
        }
        Check(st);
      },
      nb::arg("data"), nb::arg("path"), nb::arg("stream") = false, nb::arg("compression") = nb::none(),
      nb::arg("fsync") = true,
      "Writes an Arrow IPC file (or stream) with optional LZ4_FRAME / ZSTD body compression,\n"
      "through a temporary file renamed over path when complete (fsync=False: without\n"
      "fsyncing the file and its folder)");

  m.def(
      "read_ipc",
      [](const std::string& path) {
        Result<TablePtr> result = [&]() -> Result<TablePtr> {
          nb::gil_scoped_release release;
          QUIVER_ASSIGN_OR_RAISE(auto buffer, io::ReadFileToBuffer(path));
          if (buffer->size() >= 6 && std::memcmp(buffer->data(), "ARROW1", 6) == 0) {
            QUIVER_ASSIGN_OR_RAISE(auto reader, ipc::RecordBatchFileReader::Open(buffer));
            return reader->ReadTable();
          }
          QUIVER_ASSIGN_OR_RAISE(auto reader, ipc::RecordBatchStreamReader::Open(buffer));
          return reader->ToTable();
        }();
        return WrapTable(Unwrap(std::move(result)));
      },
      nb::arg("path"), "Reads an Arrow IPC file or stream into a quiver.Table");
}

}  // namespace quiver::python
