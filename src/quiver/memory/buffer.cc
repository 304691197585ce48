#include "quiver/memory/buffer.h"


namespace quiver {

namespace {

// Owns `capacity` bytes from `pool`, returned when the buffer dies.
class PoolBuffer final : public Buffer {
 public:
  PoolBuffer(MemoryPool* pool, uint8_t* data, int64_t size, int64_t capacity)
      : Buffer(data, size) {
    data_ = data;  // keep the real address even if size is 0
    capacity_ = capacity;
    pool_ = pool;
  }
  ~PoolBuffer() override { pool_->Free(const_cast<uint8_t*>(data_), capacity_); }
};

class OwnerBuffer final : public Buffer {
 public:
  OwnerBuffer(const uint8_t* data, int64_t size, std::shared_ptr<const void> owner)
      : Buffer(data, size), owner_(std::move(owner)) {}

 private:
  std::shared_ptr<const void> owner_;
};

class VectorBuffer final : public Buffer {
 public:
  explicit VectorBuffer(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {
    data_ = bytes_.empty() ? ZeroSizeArea() : bytes_.data();
    size_ = capacity_ = static_cast<int64_t>(bytes_.size());
  }

 private:
  std::vector<uint8_t> bytes_;
};

class StringBuffer final : public Buffer {
 public:
  explicit StringBuffer(std::string bytes) : bytes_(std::move(bytes)) {
    data_ = bytes_.empty() ? ZeroSizeArea() : reinterpret_cast<const uint8_t*>(bytes_.data());
    size_ = capacity_ = static_cast<int64_t>(bytes_.size());
  }

 private:
  std::string bytes_;
};

}  // namespace

namespace internal {
std::shared_ptr<Buffer> MakePoolBuffer(MemoryPool* pool, uint8_t* data, int64_t size,
                                       int64_t capacity) {
  return std::make_shared<PoolBuffer>(pool, data, size, capacity);
}
}  // namespace internal

Buffer::Buffer(std::shared_ptr<Buffer> parent, int64_t offset, int64_t size) noexcept
    : data_(size == 0 ? ZeroSizeArea() : parent->data() + offset),
      size_(size),
      capacity_(size),
      parent_(std::move(parent)) {}

std::string Buffer::ToHexString() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(static_cast<size_t>(size_) * 2);
  for (int64_t i = 0; i < size_; ++i) {
    out.push_back(kDigits[data_[i] >> 4]);
    out.push_back(kDigits[data_[i] & 15]);
  }
  return out;
}

std::shared_ptr<Buffer> Buffer::Empty() {
  static const std::shared_ptr<Buffer> empty = std::make_shared<Buffer>();
  return empty;
}

std::shared_ptr<Buffer> Buffer::Wrap(const void* data, int64_t size) {
  return std::make_shared<Buffer>(static_cast<const uint8_t*>(data), size);
}

std::shared_ptr<Buffer> Buffer::WrapWithOwner(const void* data, int64_t size,
                                              std::shared_ptr<const void> owner) {
  return std::make_shared<OwnerBuffer>(static_cast<const uint8_t*>(data), size,
                                       std::move(owner));
}

std::shared_ptr<Buffer> Buffer::FromVector(std::vector<uint8_t> bytes) {
  return std::make_shared<VectorBuffer>(std::move(bytes));
}

std::shared_ptr<Buffer> Buffer::FromString(std::string bytes) {
  return std::make_shared<StringBuffer>(std::move(bytes));
}

Result<std::shared_ptr<Buffer>> Buffer::Copy(const void* data, int64_t size, MemoryPool* pool) {
  if (size < 0) return Status::Invalid("negative buffer size: ", size);
  if (size == 0) return std::make_shared<Buffer>();
  int64_t capacity = (size + 63) & ~int64_t{63};
  QUIVER_ASSIGN_OR_RAISE(uint8_t * bytes, pool->Allocate(capacity));
  std::memcpy(bytes, data, static_cast<size_t>(size));
  std::memset(bytes + size, 0, static_cast<size_t>(capacity - size));
  return internal::MakePoolBuffer(pool, bytes, size, capacity);
}

std::shared_ptr<Buffer> SliceBuffer(const std::shared_ptr<Buffer>& parent, int64_t offset,
                                    int64_t length) {
  QUIVER_DCHECK(offset >= 0 && length >= 0 && offset <= parent->size() - length,
                "slice [", offset, ", +", length, ") of a buffer of ", parent->size());
  return std::make_shared<Buffer>(parent, offset, length);
}

Result<std::shared_ptr<Buffer>> SliceBufferSafe(const std::shared_ptr<Buffer>& parent,
                                                int64_t offset, int64_t length) {
  if (offset < 0 || length < 0 || offset > parent->size() || length > parent->size() - offset) {
    return Status::IndexError("slice [", offset, ", ", offset, " + ", length,
                              ") is out of bounds of a buffer of ", parent->size(), " bytes");
  }
  return std::make_shared<Buffer>(parent, offset, length);
}

}  // namespace quiver
