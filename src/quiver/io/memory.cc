// Streams over memory (see memory.h).
#include "quiver/io/memory.h"

#include <algorithm>

namespace quiver::io {

Status BufferOutputStream::Write(const void* data, int64_t nbytes) {
  if (closed_) return Status::IOError("write to a closed BufferOutputStream");
  if (nbytes < 0) return Status::Invalid("negative write size ", nbytes);
  return buffer_.ExtendFromSlice(data, nbytes);
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
  const auto* p = static_cast<const uint8_t*>(data);
  while (nbytes > 0) {
    const int64_t room = current_.capacity() - current_.size();
    if (room == 0) {
      if (current_.size() > 0) done_.push_back(current_.Freeze());
      current_ = MutableBuffer(pool_);
      QUIVER_RETURN_NOT_OK(current_.Reserve(std::max(next_chunk_, nbytes)));
      next_chunk_ = std::min(next_chunk_ * 2, kMaxChunk);
      continue;
    }
    const int64_t take = std::min(room, nbytes);
    current_.UnsafeExtendFromSlice(p, take);
    p += take;
    nbytes -= take;
    position_ += take;
  }
  return Status::OK();
}

Status ChunkedOutputStream::Close() {
  closed_ = true;
  return Status::OK();
}

Result<std::vector<std::shared_ptr<Buffer>>> ChunkedOutputStream::Finish() {
  if (closed_) return Status::IOError("ChunkedOutputStream already finished or closed");
  closed_ = true;
  const int64_t size = current_.size();
  if (size > 0 && current_.capacity() - size > size) {
    // Mostly empty: Freeze would zero the unused rest; copying the used part
    // into a buffer of its size costs less.
    MutableBuffer last(pool_);
    QUIVER_RETURN_NOT_OK(last.ExtendFromSlice(current_.data(), size));
    current_ = std::move(last);
  }
  if (size > 0) done_.push_back(current_.Freeze());
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
