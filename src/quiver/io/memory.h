// Streams over memory: BufferOutputStream collects writes in a pool
// buffer; ChunkedOutputStream in a list of them (no copy as it grows);
// BufferReader reads a Buffer sequentially or by range, handing out
// zero-copy slices (which is what makes IPC and Parquet reading from memory
// zero-copy: the slices keep the buffer alive).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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
  Result<uint8_t*> BeginInPlace(int64_t nbytes) override;
  Status CommitInPlace(int64_t nbytes) override;
  Result<int64_t> Tell() const override { return buffer_.size(); }
  Status Close() override;
  bool closed() const override { return closed_; }
  bool CallableFromAnyThread() const override { return true; }

  // Closes the stream and returns everything written (no copy).
  Result<std::shared_ptr<Buffer>> Finish();

 private:
  MutableBuffer buffer_;
  int64_t in_place_ = -1;  // the room BeginInPlace gave (-1: none open)
  bool closed_ = false;
};

// Writes into one anonymous memory mapping that grows with mremap: the
// page tables move, the bytes are never copied again as the stream grows
// (a pool buffer grown by Reallocate is copied at each doubling by the
// system and mimalloc pools, and by jemalloc unless it can extend in place:
// about as many bytes again as the output, and twice its page faults).
// Finish() hands the bytes over as one contiguous Buffer that owns the
// mapping. Its memory is not any MemoryPool's (nor counted by one). The
// in-memory output of Python's quiver.BufferOutputStream.
class MappedOutputStream final : public OutputStream {
 public:
  MappedOutputStream() = default;
  ~MappedOutputStream() override;

  using OutputStream::Write;
  Status Write(const void* data, int64_t nbytes) override;
  Result<uint8_t*> BeginInPlace(int64_t nbytes) override;
  Status CommitInPlace(int64_t nbytes) override;
  Result<int64_t> Tell() const override { return size_; }
  Status Close() override;
  bool closed() const override { return closed_; }
  bool CallableFromAnyThread() const override { return true; }

  // Closes the stream and returns everything written (no copy).
  Result<std::shared_ptr<Buffer>> Finish();

 private:
  Status Reserve(int64_t additional);

  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;   // bytes mapped
  int64_t in_place_ = -1;  // the room BeginInPlace gave (-1: none open)
  bool closed_ = false;
};

// Writes into a list of pool buffers ("chunks") that double in size from
// kFirstChunk up to kMaxChunk: unlike one growing buffer, what is written is
// copied once (into its chunk) and never again as the stream grows, and no
// chunk is reallocated (Quiver's Python file-object path: the file is handed
// over chunk by chunk at the end). A write larger than the room left fills the
// current chunk and goes on in a new one of at least the rest's size. A
// buffer of at least kAdoptBytes given to WriteShared is kept as it is (the
// bytes written to the current chunk before it become a slice of that chunk,
// and the chunk takes the writes after it): a page body is not copied.
class ChunkedOutputStream final : public OutputStream {
 public:
  static constexpr int64_t kFirstChunk = int64_t{64} << 10;
  static constexpr int64_t kMaxChunk = int64_t{64} << 20;
  // Below this a buffer is copied: each piece costs the reader of Finish()'s
  // list a call (a Python write()), which a copy of this size outweighs.
  static constexpr int64_t kAdoptBytes = int64_t{256} << 10;
  // A write of at least this many bytes is copied with non-temporal stores
  // (CopyNonTemporal): the stream's chunks are not read until the whole is
  // written, and such a write (a page body not adopted: CDC's) then costs
  // no read of the chunk's lines from memory (CDC write of a 64 MiB string
  // column about 0.95 of the time; docs/design.md, "Issue 15, eighth round").
  static constexpr int64_t kNonTemporalBytes = int64_t{64} << 10;

  // max_chunk: the largest chunk (a stream passed on as it is written keeps
  // its current chunk, so it bounds what the stream holds beyond that).
  explicit ChunkedOutputStream(MemoryPool* pool = DefaultMemoryPool(), int64_t max_chunk = kMaxChunk)
      : pool_(pool), max_chunk_(std::max(max_chunk, kFirstChunk)) {}

  using OutputStream::Write;
  Status Write(const void* data, int64_t nbytes) override;
  Status WriteShared(std::shared_ptr<Buffer> buffer) override;
  int64_t MinAdoptedBytes() const override { return kAdoptBytes; }
  // Room in the current chunk, or in a new one of at least `nbytes` if it
  // has less left (the old chunk's tail then goes unused).
  Result<uint8_t*> BeginInPlace(int64_t nbytes) override;
  Status CommitInPlace(int64_t nbytes) override;
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override;
  bool closed() const override { return closed_; }
  bool CallableFromAnyThread() const override { return true; }

  // Closes the stream and returns the pieces in order (no copy; none is
  // empty; their bytes end to end are everything written since the last
  // Take()).
  Result<std::vector<std::shared_ptr<Buffer>>> Finish();
  // The pieces written since the last Take() (or the start), in order, and
  // the stream stays open: a stream passed on as it is written. The current
  // chunk goes on taking writes after the bytes handed out, which are never
  // written again.
  std::vector<std::shared_ptr<Buffer>> Take();

 private:
  // The current chunk's bytes written since its last slice, as a slice.
  void SliceOff();
  // Slices off the current chunk and starts a new one of at least `nbytes`.
  Status NewChunk(int64_t nbytes);

  MemoryPool* pool_;
  std::vector<std::shared_ptr<Buffer>> done_;
  // The current chunk: a whole allocation (frozen unzeroed: only its
  // slices are handed out), written at chunk_data_ up to chunk_used_;
  // [chunk_sliced_, chunk_used_) is not in done_ yet.
  std::shared_ptr<Buffer> chunk_;
  uint8_t* chunk_data_ = nullptr;
  int64_t chunk_capacity_ = 0;
  int64_t chunk_used_ = 0;
  int64_t chunk_sliced_ = 0;
  int64_t max_chunk_;
  int64_t next_chunk_ = kFirstChunk;
  int64_t position_ = 0;
  int64_t in_place_ = -1;  // the room BeginInPlace gave (-1: none open)
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
