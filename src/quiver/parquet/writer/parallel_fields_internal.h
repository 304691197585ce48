// Writing a row group's fields on several threads (WriterOptions::use_threads).
//
// When threads pay. A parallel write costs a worker's wake-up and, for the
// fields a worker encodes, a copy of their small pages into a pipe; a
// write of little data is slower for them. So the fields' encoding work is
// estimated from the data (EncodeWork: bytes the encoder reads), and
// consecutive fields are grouped into tasks of at least kMinTaskWork
// (GroupFields); with fewer than two tasks the write is the
// single-threaded one, on the calling thread, with no pool at all.
//
// The pipeline (WriteTasksInOrder). One thread at a time writes to the sink,
// and with a file sink writing is a large share of the time (the kernel's
// copy into the page cache: for a string column, more than its encoding),
// so it is overlapped with the encoding rather than left to the end, and
// done by the thread that encoded the bytes, while they are in its cache.
// Tasks are taken in field order, by the pool's workers and by the calling
// thread. A worker encodes its task into a PagePipe, whose pieces (256 KiB
// and up) are published as they are complete. The calling thread places the
// tasks in order (the "frontier"): it writes the frontier task's published
// pieces, and then, if the sink may be called from any thread
// (OutputStream::CallableFromAnyThread: files and memory; not a Python file
// object, which is called on the calling thread only), hands the sink over
// to the worker, which writes the rest of its task itself; it places the
// task's chunks once the task is done. When there is nothing to write it
// takes the next task itself: the frontier task is then written straight
// to the sink (no pipe: exactly the single-threaded path), a later one into
// its own pipe. The
// file's bytes are the single-threaded ones (a column chunk's bytes do not
// depend on where its pages go), memory holds at most one row group's
// encoded pages (less: the frontier's pieces are written as they come), and
// if no worker ever starts (a busy machine, a call from inside the pool)
// the calling thread writes every task itself, straight to the sink.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/io/interfaces.h"
#include "quiver/parquet/writer/column_writer_internal.h"
#include "quiver/util/thread_pool.h"

namespace quiver::parquet::internal {

// Least estimated work of a task: about 0.3-1 ms of encoding, where a
// worker's wake-up and a pipe's copies are a few percent.
inline constexpr int64_t kMinTaskWork = int64_t{1} << 20;
// kMinTaskWork, or QUIVER_MIN_TASK_WORK (a whole number of bytes, read at
// each call): tests set 0, so that small tables take the parallel path.
int64_t MinTaskWork();

// Rough encoding work of an array, in bytes the encoder reads: a byte a
// slot for levels where nulls and values mix (a bit where they do not: runs
// are cheap), each non-null value's bytes, offsets, dictionary indices and
// the dictionary, children through their parent's offsets.
int64_t EncodeWork(const ArrayData& data);

// Consecutive fields [first, last) each of at least `min_work` (a smaller
// remainder joins the last group); one group when the total is smaller.
std::vector<std::pair<int, int>> GroupFields(const std::vector<int64_t>& work, int64_t min_work);

// An output stream written by one thread and drained by another: bytes go
// into blocks of kBlockBytes, published in pieces of at least kPublishBytes
// (and at Close()); a buffer of kAdoptBytes or more given to WriteShared is
// published as it is. Publishing takes `mutex` and wakes `published`;
// TakeLocked() (with `mutex` held) returns what is published so far.
class PagePipe final : public io::OutputStream {
 public:
  static constexpr int64_t kBlockBytes = int64_t{1} << 20;
  static constexpr int64_t kPublishBytes = int64_t{256} << 10;
  static constexpr int64_t kAdoptBytes = int64_t{256} << 10;

  PagePipe(std::mutex* mutex, std::condition_variable* published, MemoryPool* pool)
      : mutex_(mutex), published_cv_(published), pool_(pool) {}

  using OutputStream::Write;
  Status Write(const void* data, int64_t nbytes) override;
  Status WriteShared(std::shared_ptr<Buffer> buffer) override;
  int64_t MinAdoptedBytes() const override { return kAdoptBytes; }
  Result<uint8_t*> BeginInPlace(int64_t nbytes) override;
  Status CommitInPlace(int64_t nbytes) override;
  Result<int64_t> Tell() const override { return position_; }
  // Publishes what is left; further writes fail.
  Status Close() override;
  bool closed() const override { return closed_; }

  std::vector<std::shared_ptr<Buffer>> TakeLocked();
  // (With `mutex` held, nothing published left to take.) From now on the
  // writer's thread writes what it publishes to `sink` itself; a failure
  // of the sink is returned by the pipe's next call and by Close().
  void HandOverLocked(io::OutputStream* sink) { handed_to_ = sink; }

 private:
  // Publishes the block's unpublished bytes (if at least `least` of them)
  // and then `adopted` (if any).
  void Publish(int64_t least, std::shared_ptr<Buffer> adopted = nullptr);
  Status NewBlock(int64_t nbytes);

  std::mutex* mutex_;
  std::condition_variable* published_cv_;
  MemoryPool* pool_;
  std::vector<std::shared_ptr<Buffer>> published_;  // guarded by *mutex_
  io::OutputStream* handed_to_ = nullptr;           // guarded by *mutex_
  // The writer's side: the sink once it saw it handed over, and the sink's
  // first failure.
  io::OutputStream* direct_ = nullptr;
  Status direct_status_;
  // The writer's side: the current block, written up to block_used_, of
  // which [block_published_, block_used_) is not published yet.
  std::shared_ptr<Buffer> block_;
  uint8_t* block_data_ = nullptr;
  int64_t block_capacity_ = 0;
  int64_t block_used_ = 0;
  int64_t block_published_ = 0;
  int64_t position_ = 0;
  int64_t in_place_ = -1;
  bool closed_ = false;
};

// Encodes task `task` (its fields in order) with every byte written to
// `to` in order: its chunks' offsets are positions in `to`.
using EncodeTaskFn =
    std::function<Result<std::vector<ColumnChunkOutput>>(int64_t task, io::OutputStream* to)>;
// Adds a task's chunks to the row group, their offsets moved by `shift`
// (where the task's first byte is in the sink, for a task encoded into a
// pipe; 0 for one written straight to the sink).
using PlaceTaskFn = std::function<Status(std::vector<ColumnChunkOutput> chunks, int64_t shift)>;

// The pipeline above: tasks 0 .. n - 1 encoded on `pool`'s workers and the
// calling thread, written to `sink` and placed in order by the calling
// thread. Returns the error of the lowest failing task (a sink error
// counts as the frontier task's), the single-threaded write's error,
// whatever the timing; tasks after it are not placed.
Status WriteTasksInOrder(int64_t n, const EncodeTaskFn& encode, const PlaceTaskFn& place,
                         io::OutputStream* sink, ThreadPool* pool, MemoryPool* memory);

}  // namespace quiver::parquet::internal
