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
