// Streams over memory (see memory.h).
#include "quiver/io/memory.h"

#include <algorithm>
#include <cstring>

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
  next_chunk_ = std::min(next_chunk_ * 2, kMaxChunk);
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
