// Where the Python writers put their bytes besides a path: a Python file
// object (PyFileSink, streamed row group by row group) and
// quiver.BufferOutputStream (one contiguous buffer in Quiver's memory).
#pragma once

#include <nanobind/nanobind.h>

#include <memory>

#include "common.h"
#include "quiver/io/interfaces.h"
#include "quiver/io/memory.h"

namespace quiver::python {

// A read-only memoryview of `bytes` (format "B", one dimension) whose
// exporter keeps the buffer alive: no copy, and valid as long as the view
// (or anything holding it) lives.
nb::object BufferView(std::shared_ptr<Buffer> bytes);

// The sink of a writer whose destination is a Python file object. Bytes are
// collected in an io::ChunkedOutputStream (page bodies of 256 KiB and more
// kept as they are, not copied) and handed to the object's write() at each
// Flush() (the Parquet writer flushes after every row group) and at
// Close(): memory holds about one row group, and write() sees the file grow
// as it is written. Each piece goes as a BufferView of memory the writer
// never writes again, so a file object may keep what it is given.
//
// Flush() takes the GIL (the writer runs without it; only the thread that
// called the writer writes to its sink, use_threads or not). An exception
// raised by write() is kept and the call fails with an IOError; the binding
// then raises the kept exception itself (RaiseIfFailed), unchanged. A
// write() that returns a count smaller than the bytes given is called
// again with the rest; one returning None is taken to have written all.
class PyFileSink final : public io::OutputStream {
 public:
  explicit PyFileSink(nb::handle file);
  ~PyFileSink() override;  // with the GIL held

  using io::OutputStream::Write;
  Status Write(const void* data, int64_t nbytes) override { return buffer_.Write(data, nbytes); }
  Status WriteShared(std::shared_ptr<Buffer> buffer) override {
    return buffer_.WriteShared(std::move(buffer));
  }
  int64_t MinAdoptedBytes() const override { return buffer_.MinAdoptedBytes(); }
  Result<uint8_t*> BeginInPlace(int64_t nbytes) override { return buffer_.BeginInPlace(nbytes); }
  Status CommitInPlace(int64_t nbytes) override { return buffer_.CommitInPlace(nbytes); }
  Status Flush() override;
  Result<int64_t> Tell() const override { return buffer_.Tell(); }
  // Flushes; the file object itself is left open (its owner closes it).
  Status Close() override;
  bool closed() const override { return closed_; }

  // Raises the exception a write() call raised, if one did (and forgets it).
  void RaiseIfFailed();
  // The Python objects the sink holds (for the cyclic GC's traversal).
  nb::handle write_method() const { return write_; }

 private:
  nb::object write_;
  // Chunks of at most 8 MiB: what the sink holds past a row group is its
  // current chunk (with 64 MiB ones, a 200 MB write to a file object grew
  // the process by 66 MiB whatever the row group size).
  io::ChunkedOutputStream buffer_{DefaultMemoryPool(), int64_t{8} << 20};
  std::unique_ptr<nb::python_error> error_;
  bool closed_ = false;
};

// quiver.BufferOutputStream: what it gives a writer, and what it holds.
// Its bytes are in an io::MappedOutputStream: one mapping grown by mremap,
// so getvalue() hands over one contiguous buffer without a copy, and the
// stream never re-copies as it grows. Measured on the writer matrix's
// string_dictionary group (1,048,576 rows, a 162 MB file, default variant,
// CPU time of one write, median of 7 interleaved): 169 ms, against 356 ms
// for a pool buffer grown by Reallocate (mimalloc copies at each doubling:
// 105,000 page faults a write, 2.4 times the file's pages), 241 ms for
// ChunkedOutputStream's chunks and one final copy, 445 ms for the mapping
// with MADV_HUGEPAGE (compaction), and 139 ms for the chunks handed to a
// Python object as memoryviews (no contiguous buffer; page bodies kept
// rather than copied); pyarrow's BufferOutputStream 974 ms.
struct PyBufferOutputStream {
  std::unique_ptr<io::MappedOutputStream> stream = std::make_unique<io::MappedOutputStream>();
  nb::object value;  // getvalue()'s object, once made
  bool in_use = false;  // a writer is writing into it
};

void BindOutput(nb::module_& m);

}  // namespace quiver::python
