#include "quiver/parquet/writer/parallel_fields_internal.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "quiver/array/type.h"
#include "quiver/memory/mutable_buffer.h"

namespace quiver::parquet::internal {

// --- When threads pay ---------------------------------------------------------

namespace {

template <typename Offset>
std::pair<int64_t, int64_t> OffsetRange(const ArrayData& d) {
  if (d.buffers.size() < 2 || d.buffers[1] == nullptr) return {0, 0};
  const Offset* o = d.GetValues<Offset>(1);
  return {static_cast<int64_t>(o[0]), static_cast<int64_t>(o[d.length])};
}

int64_t ChildWork(const ArrayData& d, int64_t begin, int64_t end) {
  if (d.children.empty() || d.children[0] == nullptr || end <= begin) return 0;
  return EncodeWork(*d.children[0]->Slice(begin, end - begin));
}

}  // namespace

int64_t EncodeWork(const ArrayData& d) {
  const int64_t n = d.length;
  if (n == 0) return 0;
  const Type id = d.type->id();
  if (id == Type::kNull) return n / 8 + 1;
  const int64_t nulls = d.GetNullCount();
  const int64_t present = n - nulls;
  const int64_t slots = nulls > 0 && present > 0 ? n : n / 8 + 1;
  switch (id) {
    case Type::kBool:
      return slots + present / 8;
    case Type::kString:
    case Type::kBinary: {
      auto [lo, hi] = OffsetRange<int32_t>(d);
      return slots + present * 4 + (hi - lo);
    }
    case Type::kLargeString:
    case Type::kLargeBinary: {
      auto [lo, hi] = OffsetRange<int64_t>(d);
      return slots + present * 8 + (hi - lo);
    }
    case Type::kStringView:
    case Type::kBinaryView: {
      int64_t data = 0;  // (the whole data buffers: an upper bound for a slice)
      for (size_t b = 2; b < d.buffers.size(); ++b) data += d.buffers[b] != nullptr ? d.buffers[b]->size() : 0;
      return slots + present * 16 + data;
    }
    case Type::kDictionary: {
      const auto& dict_type = static_cast<const DictionaryType&>(*d.type);
      const int64_t dictionary = d.dictionary != nullptr ? EncodeWork(*d.dictionary) : 0;
      return slots + present * std::max(1, dict_type.index_type()->byte_width()) + dictionary;
    }
    case Type::kList:
    case Type::kMap: {
      auto [lo, hi] = OffsetRange<int32_t>(d);
      return slots + n * 4 + ChildWork(d, lo, hi);
    }
    case Type::kLargeList: {
      auto [lo, hi] = OffsetRange<int64_t>(d);
      return slots + n * 8 + ChildWork(d, lo, hi);
    }
    case Type::kFixedSizeList: {
      const int64_t size = static_cast<const ListType&>(*d.type).list_size();
      return slots + ChildWork(d, d.offset * size, (d.offset + n) * size);
    }
    case Type::kStruct: {
      int64_t work = slots;
      for (const auto& child : d.children) {
        if (child != nullptr) work += EncodeWork(*child->Slice(d.offset, n));
      }
      return work;
    }
    default: {
      const int bits = d.type->bit_width();
      if (bits > 0) return slots + present * bits / 8;
      int64_t bytes = 0;  // a type without a rule: its buffers
      for (const auto& b : d.buffers) bytes += b != nullptr ? b->size() : 0;
      return slots + bytes;
    }
  }
}

int64_t MinTaskWork() {
  const char* env = std::getenv("QUIVER_MIN_TASK_WORK");
  if (env == nullptr || *env == '\0') return kMinTaskWork;
  char* end = nullptr;
  const long long v = std::strtoll(env, &end, 10);
  return *end == '\0' && v >= 0 ? static_cast<int64_t>(v) : kMinTaskWork;
}

std::vector<std::pair<int, int>> GroupFields(const std::vector<int64_t>& work, int64_t min_work) {
  std::vector<std::pair<int, int>> groups;
  const int n = static_cast<int>(work.size());
  int first = 0;
  int64_t sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += work[static_cast<size_t>(i)];
    if (sum >= min_work) {
      groups.emplace_back(first, i + 1);
      first = i + 1;
      sum = 0;
    }
  }
  if (first < n) {
    if (groups.empty()) {
      groups.emplace_back(first, n);
    } else {
      groups.back().second = n;
    }
  }
  return groups;
}

// --- PagePipe -------------------------------------------------------------------

Status PagePipe::NewBlock(int64_t nbytes) {
  Publish(1);
  MutableBuffer fresh(pool_);
  QUIVER_RETURN_NOT_OK(fresh.Reserve(std::max(kBlockBytes, nbytes)));
  block_data_ = fresh.data();
  block_capacity_ = fresh.capacity();
  fresh.UnsafeSetSize(block_capacity_);  // whole: Freeze zeroes nothing; only slices are handed out
  block_ = fresh.Freeze();
  block_used_ = block_published_ = 0;
  return Status::OK();
}

void PagePipe::Publish(int64_t least, std::shared_ptr<Buffer> adopted) {
  const int64_t pending = block_used_ - block_published_;
  std::shared_ptr<Buffer> piece;
  if (pending > 0 && pending >= least) {
    piece = SliceBuffer(block_, block_published_, pending);
    block_published_ = block_used_;
  }
  if (piece == nullptr && adopted == nullptr) return;
  if (direct_ == nullptr) {
    std::lock_guard<std::mutex> lock(*mutex_);
    if (handed_to_ == nullptr) {
      if (piece != nullptr) published_.push_back(std::move(piece));
      if (adopted != nullptr) published_.push_back(std::move(adopted));
    } else {
      direct_ = handed_to_;
    }
  }
  if (direct_ == nullptr) {
    published_cv_->notify_one();
    return;
  }
  // The sink is this thread's until the task is done.
  if (direct_status_.ok() && piece != nullptr) direct_status_ = direct_->WriteShared(std::move(piece));
  if (direct_status_.ok() && adopted != nullptr) direct_status_ = direct_->WriteShared(std::move(adopted));
}

Status PagePipe::Write(const void* data, int64_t nbytes) {
  if (closed_) return Status::IOError("write to a closed PagePipe");
  QUIVER_RETURN_NOT_OK(direct_status_);
  if (nbytes < 0) return Status::Invalid("negative write size ", nbytes);
  in_place_ = -1;
  const auto* p = static_cast<const uint8_t*>(data);
  while (nbytes > 0) {
    const int64_t room = block_capacity_ - block_used_;
    if (room == 0) {
      QUIVER_RETURN_NOT_OK(NewBlock(nbytes));
      continue;
    }
    const int64_t take = std::min(room, nbytes);
    std::memcpy(block_data_ + block_used_, p, static_cast<size_t>(take));
    block_used_ += take;
    p += take;
    nbytes -= take;
    position_ += take;
  }
  Publish(kPublishBytes);
  return direct_status_;
}

Status PagePipe::WriteShared(std::shared_ptr<Buffer> buffer) {
  if (buffer->size() < kAdoptBytes) return Write(*buffer);
  if (closed_) return Status::IOError("write to a closed PagePipe");
  QUIVER_RETURN_NOT_OK(direct_status_);
  in_place_ = -1;
  position_ += buffer->size();
  Publish(1, std::move(buffer));
  return direct_status_;
}

Result<uint8_t*> PagePipe::BeginInPlace(int64_t nbytes) {
  if (closed_) return Status::IOError("write to a closed PagePipe");
  QUIVER_RETURN_NOT_OK(direct_status_);
  if (nbytes < 0) return Status::Invalid("negative write size ", nbytes);
  if (block_data_ == nullptr || block_capacity_ - block_used_ < nbytes) {
    QUIVER_RETURN_NOT_OK(NewBlock(nbytes));
  }
  in_place_ = nbytes;
  return block_data_ + block_used_;
}

Status PagePipe::CommitInPlace(int64_t nbytes) {
  if (nbytes < 0 || nbytes > in_place_) {
    return Status::Invalid("CommitInPlace of ", nbytes, " bytes, room for ", in_place_);
  }
  block_used_ += nbytes;
  position_ += nbytes;
  in_place_ = -1;
  Publish(kPublishBytes);
  return direct_status_;
}

Status PagePipe::Close() {
  if (closed_) return direct_status_;
  Publish(1);
  closed_ = true;
  block_.reset();
  block_data_ = nullptr;
  block_capacity_ = block_used_ = block_published_ = 0;
  return direct_status_;
}

std::vector<std::shared_ptr<Buffer>> PagePipe::TakeLocked() {
  std::vector<std::shared_ptr<Buffer>> taken;
  taken.swap(published_);
  return taken;
}

// --- The pipeline ---------------------------------------------------------------

namespace {

struct TaskSlot {
  std::unique_ptr<PagePipe> pipe;  // set when a thread takes the task into a pipe
  bool handed_over = false;        // the pipe's writer writes to the sink itself
  bool done = false;
  Status status;
  std::vector<ColumnChunkOutput> chunks;
};

}  // namespace

Status WriteTasksInOrder(int64_t n, const EncodeTaskFn& encode, const PlaceTaskFn& place,
                         io::OutputStream* sink, ThreadPool* pool, MemoryPool* memory) {
  std::mutex mutex;
  std::condition_variable changed;  // a piece published, a task done
  std::vector<TaskSlot> slots(static_cast<size_t>(n));
  int64_t next = 0;   // the next task to take
  bool stop = false;  // a task failed, or the caller is done: take no more

  // Takes the next task into a pipe (with `mutex` held); -1 if none.
  auto take_into_pipe = [&]() -> int64_t {
    if (stop || next >= n) return -1;
    const int64_t t = next++;
    slots[static_cast<size_t>(t)].pipe = std::make_unique<PagePipe>(&mutex, &changed, memory);
    return t;
  };
  auto encode_into_pipe = [&](int64_t t) {
    TaskSlot& slot = slots[static_cast<size_t>(t)];
    auto chunks = encode(t, slot.pipe.get());
    Status closed = slot.pipe->Close();  // (a sink's failure, once handed over)
    if (chunks.ok() && !closed.ok()) chunks = closed;
    {
      std::lock_guard<std::mutex> lock(mutex);
      slot.done = true;
      if (chunks.ok()) {
        slot.chunks = std::move(chunks).MoveValueUnsafe();
      } else {
        slot.status = chunks.status();
        stop = true;
      }
    }
    changed.notify_one();
  };

  TaskGroup workers;
  workers.Spawn(pool, std::min<int64_t>(n - 1, pool == nullptr ? 0 : pool->workers()), [&] {
    while (true) {
      int64_t t;
      {
        std::lock_guard<std::mutex> lock(mutex);
        t = take_into_pipe();
      }
      if (t < 0) return;
      encode_into_pipe(t);
    }
  });

  const bool hand_over = sink->CallableFromAnyThread();
  Status error;
  int64_t frontier = 0;
  int64_t shift = -1;  // where the frontier task's pipe starts in the sink
  while (frontier < n && error.ok()) {
    TaskSlot& slot = slots[static_cast<size_t>(frontier)];
    std::vector<std::shared_ptr<Buffer>> pieces;
    bool done = false;
    int64_t mine = -1;  // a task this thread takes
    if (shift < 0) {
      // Where the frontier task starts (needed before the sink is handed
      // over; unused when the task is written straight to the sink).
      auto at = sink->Tell();
      if (!at.ok()) {
        error = at.status();
        break;
      }
      shift = *at;
    }
    {
      std::unique_lock<std::mutex> lock(mutex);
      while (true) {
        if (slot.pipe != nullptr) {
          if (!slot.handed_over) pieces = slot.pipe->TakeLocked();
          done = slot.done;
          if (!pieces.empty() || done) break;
          if (hand_over && !slot.handed_over) {
            // Everything published is written: the sink is the worker's
            // until its task is done.
            slot.pipe->HandOverLocked(sink);
            slot.handed_over = true;
          }
        } else if (next == frontier) {  // (untaken: only if nothing failed)
          if (stop) break;
          mine = next++;
          break;
        }
        if ((mine = take_into_pipe()) >= 0) break;
        changed.wait(lock);
      }
    }
    if (mine == frontier) {
      // Straight to the sink: the single-threaded path.
      auto chunks = encode(frontier, sink);
      error = chunks.ok() ? place(std::move(chunks).MoveValueUnsafe(), 0) : chunks.status();
      shift = -1;
      ++frontier;
      continue;
    }
    if (mine > frontier) {
      encode_into_pipe(mine);
      continue;
    }
    if (slot.pipe == nullptr) {
      // (Stopped with the frontier untaken: no task before it failed, so
      // nothing did; cannot happen.)
      error = Status::UnknownError("internal error: the parallel write stopped before task ", frontier);
      break;
    }
    for (auto& piece : pieces) {
      error = sink->WriteShared(std::move(piece));
      if (!error.ok()) break;
    }
    if (!error.ok() || !done) continue;
    // (done: the task's last piece was published before it was marked done)
    if (!slot.status.ok()) {
      error = slot.status;
      break;
    }
    error = place(std::move(slot.chunks), shift);
    shift = -1;
    ++frontier;
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  workers.Join();
  return error;
}

}  // namespace quiver::parquet::internal
