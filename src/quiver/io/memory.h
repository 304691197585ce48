// Streams over memory: BufferOutputStream collects writes in a pool
// buffer; BufferReader reads a Buffer sequentially or by range, handing out
// zero-copy slices (which is what makes IPC and Parquet reading from memory
// zero-copy: the slices keep the buffer alive).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "quiver/io/interfaces.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/memory/mutable_buffer.h"

namespace quiver::io {

// Writes into a growable pool buffer; Finish() hands the bytes over.
class BufferOutputStream final : public OutputStream {
 public:
  explicit BufferOutputStream(MemoryPool* pool = DefaultMemoryPool()) : buffer_(pool) {}

  using OutputStream::Write;
  Status Write(const void* data, int64_t nbytes) override;
  Result<int64_t> Tell() const override { return buffer_.size(); }
  Status Close() override;
  bool closed() const override { return closed_; }

  // Closes the stream and returns everything written (no copy).
  Result<std::shared_ptr<Buffer>> Finish();

 private:
  MutableBuffer buffer_;
  bool closed_ = false;
};

// Reads a Buffer; every read is a zero-copy slice of it.
class BufferReader final : public InputStream, public RandomAccessFile {
 public:
  explicit BufferReader(std::shared_ptr<Buffer> buffer, std::string name = "<buffer>")
      : buffer_(std::move(buffer)), name_(std::move(name)) {}

  // InputStream.
  Result<std::shared_ptr<Buffer>> Read(int64_t nbytes) override;
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override;
  bool closed() const override { return closed_; }
  Status Seek(int64_t position);

  // RandomAccessFile (exact ranges; independent of the stream position).
  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length) const override;
  int64_t Size() const override { return buffer_->size(); }
  const std::string& name() const override { return name_; }

  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }

 private:
  std::shared_ptr<Buffer> buffer_;
  std::string name_;
  int64_t position_ = 0;
  bool closed_ = false;
};

}  // namespace quiver::io
