// Streams over memory (see memory.h).
#include "quiver/io/memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cstring>
#include <utility>

#include "quiver/io/mapping_internal.h"
#include "quiver/util/copy.h"

namespace quiver::io {

Status BufferOutputStream::Write(const void* data, int64_t nbytes) {
  if (closed_) return Status::IOError("write to a closed BufferOutputStream");
  if (nbytes < 0) return Status::Invalid("negative write size ", nbytes);
  in_place_ = -1;
  return buffer_.ExtendFromSlice(data, nbytes);
}

Result<uint8_t*> BufferOutputStream::BeginInPlace(int64_t nbytes) {
  if (closed_) return Status::IOError("write to a closed BufferOutputStream");
  if (nbytes < 0) return Status::Invalid("negative write size ", nbytes);
  QUIVER_RETURN_NOT_OK(buffer_.Reserve(nbytes));
  in_place_ = nbytes;
  return buffer_.data() + buffer_.size();
}

Status BufferOutputStream::CommitInPlace(int64_t nbytes) {
  if (nbytes < 0 || nbytes > in_place_) {
    return Status::Invalid("CommitInPlace of ", nbytes, " bytes, room for ", in_place_);
  }
  buffer_.UnsafeSetSize(buffer_.size() + nbytes);
  in_place_ = -1;
  return Status::OK();
}

Status BufferOutputStream::Close() {
  closed_ = true;
  return Status::OK();
}

Result<std::shared_ptr<Buffer>> BufferOutputStream::Finish() {
  if (closed_) return Status::IOError("BufferOutputStream already finished or closed");
  closed_ = true;
  return buffer_.Freeze();
}

namespace {

constexpr int64_t kHugePage = int64_t{1} << 21;

int64_t RoundUpToPage(int64_t n) {
  static const int64_t page = ::sysconf(_SC_PAGESIZE);
  return (n + page - 1) / page * page;
}

}  // namespace

MappedOutputStream::~MappedOutputStream() {
  if (data_ != nullptr) ::munmap(data_, static_cast<size_t>(capacity_));
}

Status MappedOutputStream::Reserve(int64_t additional) {
  if (closed_) return Status::IOError("write to a closed MappedOutputStream");
  if (additional < 0) return Status::Invalid("negative write size ", additional);
  if (additional <= capacity_ - size_) return Status::OK();
  if (additional > INT64_MAX / 2 - size_) return Status::OutOfMemory("a MappedOutputStream of more than 2^62 bytes");
  // Doubling (at least 1 MiB): each growth moves page tables, not bytes.
  const int64_t want = RoundUpToPage(std::max({size_ + additional, 2 * capacity_, int64_t{1} << 20}));
  void* p = data_ == nullptr
                ? ::mmap(nullptr, static_cast<size_t>(want), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                : ::mremap(data_, static_cast<size_t>(capacity_), static_cast<size_t>(want), MREMAP_MAYMOVE);
  if (p == MAP_FAILED) {
    return Status::OutOfMemory("cannot map ", want, " bytes for a MappedOutputStream: ", std::strerror(errno));
  }
  data_ = static_cast<uint8_t*>(p);
  capacity_ = want;
#ifdef MADV_HUGEPAGE
  // Transparent huge pages where the system allows them on request: a
  // 2 MiB page is one fault where 4 KiB pages are 512 (a large output's
  // page faults cost more than its bytes; a file's pages, filled by
  // write(), never fault). Advice only: refused or unsupported, it changes
  // nothing.
  if (want >= kHugePage) (void)::madvise(data_, static_cast<size_t>(want), MADV_HUGEPAGE);
#endif
  return Status::OK();
}

Status MappedOutputStream::Write(const void* data, int64_t nbytes) {
  QUIVER_RETURN_NOT_OK(Reserve(nbytes));
  in_place_ = -1;
  if (nbytes > 0) std::memcpy(data_ + size_, data, static_cast<size_t>(nbytes));
  size_ += nbytes;
  return Status::OK();
}

Result<uint8_t*> MappedOutputStream::BeginInPlace(int64_t nbytes) {
  QUIVER_RETURN_NOT_OK(Reserve(nbytes));
  in_place_ = nbytes;
  return data_ + size_;
}

Status MappedOutputStream::CommitInPlace(int64_t nbytes) {
  if (nbytes < 0 || nbytes > in_place_) {
    return Status::Invalid("CommitInPlace of ", nbytes, " bytes, room for ", in_place_);
  }
  size_ += nbytes;
  in_place_ = -1;
  return Status::OK();
}

Status MappedOutputStream::Close() {
  closed_ = true;
  return Status::OK();
}

Result<std::shared_ptr<Buffer>> MappedOutputStream::Finish() {
  if (closed_) return Status::IOError("MappedOutputStream already finished or closed");
  closed_ = true;
  if (size_ == 0) return Buffer::Empty();
  // The pages past the last byte are given back (shrinking never moves).
  const int64_t keep = RoundUpToPage(size_);
  if (keep < capacity_ && ::mremap(data_, static_cast<size_t>(capacity_), static_cast<size_t>(keep), 0) != MAP_FAILED) {
    capacity_ = keep;
  }
  auto mapping = std::make_shared<internal::Mapping>();
  mapping->address = data_;
  mapping->length = static_cast<size_t>(capacity_);
  const uint8_t* const data = data_;
  const int64_t size = size_;
  data_ = nullptr;
  size_ = capacity_ = 0;
  return Buffer::WrapWithOwner(data, size, std::move(mapping));
}

Status ChunkedOutputStream::Write(const void* data, int64_t nbytes) {
  if (closed_) return Status::IOError("write to a closed ChunkedOutputStream");
  if (nbytes < 0) return Status::Invalid("negative write size ", nbytes);
  in_place_ = -1;
  const auto* p = static_cast<const uint8_t*>(data);
  while (nbytes > 0) {
    const int64_t room = chunk_capacity_ - chunk_used_;
    if (room == 0) {
      QUIVER_RETURN_NOT_OK(NewChunk(nbytes));
      continue;
    }
    const int64_t take = std::min(room, nbytes);
    if (take >= kNonTemporalBytes) {
      CopyNonTemporal(chunk_data_ + chunk_used_, p, take);
    } else {
      std::memcpy(chunk_data_ + chunk_used_, p, static_cast<size_t>(take));
    }
    chunk_used_ += take;
    p += take;
    nbytes -= take;
    position_ += take;
  }
  return Status::OK();
}

Status ChunkedOutputStream::NewChunk(int64_t nbytes) {
  SliceOff();
  MutableBuffer fresh(pool_);
  QUIVER_RETURN_NOT_OK(fresh.Reserve(std::max(next_chunk_, nbytes)));
  chunk_data_ = fresh.data();
  chunk_capacity_ = fresh.capacity();
  fresh.UnsafeSetSize(chunk_capacity_);  // whole: Freeze zeroes nothing
  chunk_ = fresh.Freeze();
  chunk_used_ = chunk_sliced_ = 0;
  next_chunk_ = std::min(next_chunk_ * 2, max_chunk_);
  return Status::OK();
}

Result<uint8_t*> ChunkedOutputStream::BeginInPlace(int64_t nbytes) {
  if (closed_) return Status::IOError("write to a closed ChunkedOutputStream");
  if (nbytes < 0) return Status::Invalid("negative write size ", nbytes);
  if (chunk_data_ == nullptr || chunk_capacity_ - chunk_used_ < nbytes) {
    QUIVER_RETURN_NOT_OK(NewChunk(nbytes));
  }
  in_place_ = nbytes;
  return chunk_data_ + chunk_used_;
}

Status ChunkedOutputStream::CommitInPlace(int64_t nbytes) {
  if (nbytes < 0 || nbytes > in_place_) {
    return Status::Invalid("CommitInPlace of ", nbytes, " bytes, room for ", in_place_);
  }
  chunk_used_ += nbytes;
  position_ += nbytes;
  in_place_ = -1;
  return Status::OK();
}

Status ChunkedOutputStream::WriteShared(std::shared_ptr<Buffer> buffer) {
  if (buffer->size() < kAdoptBytes) return Write(*buffer);
  if (closed_) return Status::IOError("write to a closed ChunkedOutputStream");
  in_place_ = -1;
  SliceOff();
  position_ += buffer->size();
  done_.push_back(std::move(buffer));
  return Status::OK();
}

void ChunkedOutputStream::SliceOff() {
  if (chunk_used_ > chunk_sliced_) {
    done_.push_back(SliceBuffer(chunk_, chunk_sliced_, chunk_used_ - chunk_sliced_));
    chunk_sliced_ = chunk_used_;
  }
}

Status ChunkedOutputStream::Close() {
  closed_ = true;
  return Status::OK();
}

std::vector<std::shared_ptr<Buffer>> ChunkedOutputStream::Take() {
  SliceOff();
  return std::exchange(done_, {});
}

Result<std::vector<std::shared_ptr<Buffer>>> ChunkedOutputStream::Finish() {
  if (closed_) return Status::IOError("ChunkedOutputStream already finished or closed");
  closed_ = true;
  const int64_t tail = chunk_used_ - chunk_sliced_;
  if (chunk_sliced_ == 0 && tail > 0 && chunk_capacity_ - tail > tail) {
    // A mostly empty chunk of which nothing is handed out yet: its bytes
    // copied into a buffer of their size, so that the chunk is freed.
    MutableBuffer last(pool_);
    QUIVER_RETURN_NOT_OK(last.ExtendFromSlice(chunk_data_, tail));
    done_.push_back(last.Freeze());
  } else {
    SliceOff();
  }
  chunk_.reset();
  chunk_data_ = nullptr;
  chunk_capacity_ = chunk_used_ = chunk_sliced_ = 0;
  return std::move(done_);
}

Result<std::shared_ptr<Buffer>> BufferReader::ReadAt(int64_t offset, int64_t length) const {
  if (closed_) return Status::IOError("read from a closed BufferReader ('", name_, "')");
  QUIVER_RETURN_NOT_OK(CheckReadRange(offset, length));
  return SliceBuffer(buffer_, offset, length);
}

Result<std::shared_ptr<Buffer>> BufferReader::Read(int64_t nbytes) {
  if (closed_) return Status::IOError("read from a closed BufferReader ('", name_, "')");
  if (nbytes < 0) return Status::Invalid("negative read size ", nbytes);
  const int64_t n = std::min(nbytes, buffer_->size() - position_);
  auto out = SliceBuffer(buffer_, position_, n);
  position_ += n;
  return out;
}

Status BufferReader::Seek(int64_t position) {
  if (closed_) return Status::IOError("seek in a closed BufferReader ('", name_, "')");
  if (position < 0 || position > buffer_->size()) {
    return Status::IOError("seek to ", position, " outside a ", buffer_->size(), "-byte buffer");
  }
  position_ = position;
  return Status::OK();
}

Status BufferReader::Close() {
  closed_ = true;
  return Status::OK();
}

}  // namespace quiver::io
