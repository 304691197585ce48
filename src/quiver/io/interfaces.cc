#include "quiver/io/interfaces.h"

namespace quiver::io {

Result<uint8_t*> OutputStream::BeginInPlace(int64_t) { return nullptr; }

Status OutputStream::CommitInPlace(int64_t) {
  return Status::Invalid("CommitInPlace on a stream that writes nothing in place");
}

Status RandomAccessFile::CheckReadRange(int64_t offset, int64_t length) const {
  if (offset < 0 || length < 0) {
    return Status::Invalid("invalid read range of '", name(), "': offset ", offset, ", length ",
                           length);
  }
  const int64_t size = Size();
  if (offset > size || length > size - offset) {
    return Status::IOError("read past the end of '", name(), "': ", length, " bytes at offset ",
                           offset, " of a ", size, "-byte file");
  }
  return Status::OK();
}

}  // namespace quiver::io
