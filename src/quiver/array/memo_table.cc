// Open-addressing memo tables hashed with XXH3. Design notes:
// memo_table.h.
#include "quiver/array/memo_table.h"

#include "quiver/memory/zero_size_area.h"

#include <algorithm>
#include <cmath>
#include <limits>

// Inline xxHash so that hashing a fixed-size scalar compiles to XXH3's short
// input path with a constant length (no call, no length dispatch).
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace quiver::internal {

namespace {

constexpr int64_t kMinCapacity = 32;

// Smallest power of two whose MaxFill is at least n.
int64_t CapacityFor(int64_t n) {
  int64_t capacity = kMinCapacity;
  while (MaxFill(capacity) < n) capacity *= 2;
  return capacity;
}

Status TooManyValues() {
  return Status::CapacityError("memo table: more than ", kMaxMemoTableSize,
                               " distinct values (int32 indices)");
}

}  // namespace

uint64_t HashBytes(const void* data, int64_t length) {
  return XXH3_64bits(data, static_cast<size_t>(length));
}

uint64_t HashBytesSampled(const void* data, int64_t length) {
  if (length <= 64) return HashBytes(data, length);
  const auto* p = static_cast<const uint8_t*>(data);
  uint8_t sample[48];
  std::memcpy(sample, p, 16);
  std::memcpy(sample + 16, p + length / 2 - 8, 16);
  std::memcpy(sample + 32, p + length - 16, 16);
  return XXH3_64bits_withSeed(sample, sizeof(sample), static_cast<uint64_t>(length));
}

// --- ScalarMemoTable ---------------------------------------------------------

template <typename T>
ScalarMemoTable<T>::ScalarMemoTable(MemoryPool* pool, int64_t expected_size)
    : pool_(pool),
      slots_(pool),
      values_(pool),
      initial_capacity_(CapacityFor(std::clamp<int64_t>(expected_size, 0, kMaxMemoTableSize))) {}

template <typename T>
int32_t ScalarMemoTable<T>::Get(T value) const {
  if (size_ == 0) return kKeyNotFound;
  uint64_t empty;
  return Find(slots_.data_as<uint32_t>(), values(), value, Hash(value), &empty);
}

template <typename T>
Result<int32_t> ScalarMemoTable<T>::InsertGrowing(T value, bool* inserted) {
  if (QUIVER_PREDICT_FALSE(capacity_ == 0)) QUIVER_RETURN_NOT_OK(Rehash(initial_capacity_));
  const int32_t found = Get(value);
  if (found != kKeyNotFound) {
    if (inserted != nullptr) *inserted = false;
    return found;
  }
  // A new value: make room first (so a failure leaves the table unchanged).
  if (QUIVER_PREDICT_FALSE(size_ >= kMaxMemoTableSize)) return TooManyValues();
  if (QUIVER_PREDICT_FALSE(size_ >= max_fill_)) QUIVER_RETURN_NOT_OK(Rehash(capacity_ * 2));
  return Probe(value, inserted);  // a new value, with room: inserted
}

template <typename T>
Status ScalarMemoTable<T>::Rehash(int64_t new_capacity) {
  // Room for MaxFill values first, so that Probe inserts without a check
  // of the values buffer (and a failure leaves the table unchanged).
  const int64_t max_fill = std::min(MaxFill(new_capacity), kMaxMemoTableSize);
  QUIVER_RETURN_NOT_OK(values_.Reserve(max_fill * static_cast<int64_t>(sizeof(T)) - values_.size()));
  MutableBuffer fresh(pool_);
  QUIVER_RETURN_NOT_OK(fresh.Resize(new_capacity * static_cast<int64_t>(sizeof(uint32_t)), 0));
  uint32_t* dest = fresh.data_as<uint32_t>();
  const uint64_t mask = static_cast<uint64_t>(new_capacity - 1);
  // index + 1 <= max_fill < new_capacity fits in log2(new_capacity) bits; a
  // table of 2^32 slots (the most kMaxMemoTableSize values need) has no tag.
  const int index_bits = std::countr_zero(static_cast<uint64_t>(new_capacity));
  const uint32_t tag_mask = index_bits >= 32 ? 0 : ~((uint32_t{1} << index_bits) - 1);
  // Re-inserted from the values in insertion order (read in sequence, every
  // one present: no compare), each destination slot prefetched a few values
  // ahead. Index i is the value's index.
  const T* v = values();
  constexpr int32_t kAhead = 8;
  for (int32_t i = 0; i < size_; ++i) {
    if (i + kAhead < size_) __builtin_prefetch(dest + (Hash(v[i + kAhead]) & mask));
    const uint64_t hash = Hash(v[i]);
    uint64_t pos = hash & mask;
    while (dest[pos] != 0) pos = (pos + 1) & mask;
    dest[pos] = MakeSlot(hash, i, tag_mask);
  }
  slots_ = std::move(fresh);
  capacity_ = new_capacity;
  max_fill_ = max_fill;
  tag_mask_ = tag_mask;
  return Status::OK();
}

template <typename T>
Status ScalarMemoTable<T>::Reserve(int64_t n) {
  if (n > kMaxMemoTableSize) return TooManyValues();
  const int64_t capacity = CapacityFor(n);
  if (capacity <= capacity_) return Status::OK();
  return Rehash(capacity);
}

template <typename T>
void ScalarMemoTable<T>::CopyValues(int32_t start, T* out) const {
  if (start < size_) {
    std::memcpy(out, values() + start, static_cast<size_t>(size_ - start) * sizeof(T));
  }
}

template <typename T>
void ScalarMemoTable<T>::Clear() {
  slots_ = MutableBuffer(pool_);
  values_ = MutableBuffer(pool_);
  capacity_ = 0;
  max_fill_ = 0;
  tag_mask_ = 0;
  size_ = 0;
}

template class ScalarMemoTable<int8_t>;
template class ScalarMemoTable<uint8_t>;
template class ScalarMemoTable<int16_t>;
template class ScalarMemoTable<uint16_t>;
template class ScalarMemoTable<int32_t>;
template class ScalarMemoTable<uint32_t>;
template class ScalarMemoTable<int64_t>;
template class ScalarMemoTable<uint64_t>;
template class ScalarMemoTable<float>;
template class ScalarMemoTable<double>;

// --- BinaryMemoTable ---------------------------------------------------------

BinaryMemoTable::BinaryMemoTable(MemoryPool* pool, int64_t expected_size, int64_t expected_bytes)
    : pool_(pool),
      slots_(pool),
      offsets_(pool),
      data_(pool),
      initial_capacity_(CapacityFor(std::clamp<int64_t>(expected_size, 0, kMaxMemoTableSize))),
      expected_bytes_(std::max<int64_t>(expected_bytes, 0)) {}

Status BinaryMemoTable::Init() {
  QUIVER_RETURN_NOT_OK(data_.Reserve(expected_bytes_));
  QUIVER_RETURN_NOT_OK(offsets_.Reserve(static_cast<int64_t>(sizeof(int64_t))));
  QUIVER_RETURN_NOT_OK(Rehash(initial_capacity_));
  offsets_.UnsafeAppend(int64_t{0});
  return Status::OK();
}

int32_t BinaryMemoTable::Get(const void* bytes, int64_t length) const {
  if (size_ == 0) return kKeyNotFound;
  if (bytes == nullptr) bytes = ZeroSizeArea();  // an empty value: memcmp needs an address
  const uint64_t hash = HashBytes(bytes, length) & hash_mask_;
  const Slot* slots = slots_.data_as<Slot>();
  const int64_t* o = offsets();
  const uint64_t mask = static_cast<uint64_t>(capacity_ - 1);
  for (uint64_t pos = hash & mask;; pos = (pos + 1) & mask) {
    const Slot& slot = slots[pos];
    if (slot.index == kKeyNotFound) return kKeyNotFound;
    if (slot.hash == hash) {
      const int64_t start = o[slot.index];
      if (o[slot.index + 1] - start == length &&
          BytesEqual(data_.data() + start, bytes, static_cast<size_t>(length))) {
        return slot.index;
      }
    }
  }
}

Result<int32_t> BinaryMemoTable::GetOrInsert(const void* bytes, int64_t length, bool* inserted) {
  if (QUIVER_PREDICT_FALSE(capacity_ == 0)) QUIVER_RETURN_NOT_OK(Init());
  if (bytes == nullptr) {
    if (length > 0) return Status::Invalid("memo table: null pointer to ", length, " bytes");
    bytes = ZeroSizeArea();  // an empty value: memcmp needs an address
  }
  const uint64_t hash = HashBytes(bytes, length) & hash_mask_;
  uint64_t mask = static_cast<uint64_t>(capacity_ - 1);
  Slot* slots = slots_.data_as<Slot>();
  const int64_t* o = offsets();
  uint64_t pos = hash & mask;
  for (;; pos = (pos + 1) & mask) {
    const Slot& slot = slots[pos];
    if (slot.index == kKeyNotFound) break;
    if (slot.hash == hash) {
      const int64_t start = o[slot.index];
      if (o[slot.index + 1] - start == length &&
          BytesEqual(data_.data() + start, bytes, static_cast<size_t>(length))) {
        if (inserted != nullptr) *inserted = false;
        return slot.index;
      }
    }
  }
  if (QUIVER_PREDICT_FALSE(size_ >= kMaxMemoTableSize)) return TooManyValues();
  QUIVER_RETURN_NOT_OK(data_.Reserve(length));
  QUIVER_RETURN_NOT_OK(offsets_.Reserve(static_cast<int64_t>(sizeof(int64_t))));
  if (QUIVER_PREDICT_FALSE(size_ >= MaxFill(capacity_))) {
    QUIVER_RETURN_NOT_OK(Rehash(capacity_ * 2));
    slots = slots_.data_as<Slot>();
    mask = static_cast<uint64_t>(capacity_ - 1);
    for (pos = hash & mask; slots[pos].index != kKeyNotFound; pos = (pos + 1) & mask) {
    }
  }
  const int32_t index = size_++;
  slots[pos].hash = hash;
  slots[pos].index = index;
  data_.UnsafeExtendFromSlice(bytes, length);
  offsets_.UnsafeAppend(data_.size());
  if (inserted != nullptr) *inserted = true;
  return index;
}

Status BinaryMemoTable::Rehash(int64_t new_capacity) {
  MutableBuffer fresh(pool_);
  QUIVER_RETURN_NOT_OK(fresh.Resize(new_capacity * static_cast<int64_t>(sizeof(Slot)), 0xFF));
  Slot* dest = fresh.data_as<Slot>();
  const uint64_t mask = static_cast<uint64_t>(new_capacity - 1);
  const Slot* old = slots_.data_as<Slot>();
  for (int64_t i = 0; i < capacity_; ++i) {
    if (old[i].index == kKeyNotFound) continue;
    uint64_t pos = old[i].hash & mask;  // the stored hash: no re-hashing of bytes
    while (dest[pos].index != kKeyNotFound) pos = (pos + 1) & mask;
    dest[pos] = old[i];
  }
  slots_ = std::move(fresh);
  capacity_ = new_capacity;
  return Status::OK();
}

void BinaryMemoTable::Clear() {
  slots_ = MutableBuffer(pool_);
  offsets_ = MutableBuffer(pool_);
  data_ = MutableBuffer(pool_);
  capacity_ = 0;
  size_ = 0;
}

template <typename Offset>
Result<int64_t> FindRepeatedValue(const Offset* offsets, const uint8_t* data,
                                  const uint64_t* hashes, int64_t length, MemoryPool* pool,
                                  int64_t max_collisions) {
  if (length < 2) return -1;
  if (length > kMaxMemoTableSize) return TooManyValues();
  struct Slot {
    uint32_t tag;   // the hash's high bits
    int32_t index;  // kKeyNotFound = empty
  };
  const int64_t capacity = CapacityFor(length);
  MutableBuffer buffer(pool);
  QUIVER_RETURN_NOT_OK(buffer.Resize(capacity * static_cast<int64_t>(sizeof(Slot)), 0xFF));
  Slot* slots = buffer.data_as<Slot>();
  const uint64_t mask = static_cast<uint64_t>(capacity - 1);
  const uint8_t* const base = data != nullptr ? data : ZeroSizeArea();
  int64_t collisions = 0;
  constexpr int64_t kAhead = 16;
  for (int64_t k = 0; k < std::min(kAhead, length); ++k) {
    __builtin_prefetch(slots + (hashes[k] & mask), 1);
  }
  for (int64_t k = 0; k < length; ++k) {
    if (k + kAhead < length) __builtin_prefetch(slots + (hashes[k + kAhead] & mask), 1);
    const uint64_t hash = hashes[k];
    const auto tag = static_cast<uint32_t>(hash >> 32);
    const uint8_t* value = base + offsets[k];
    const auto size = static_cast<size_t>(offsets[k + 1] - offsets[k]);
    uint64_t pos = hash & mask;
    for (;; pos = (pos + 1) & mask) {
      const Slot& slot = slots[pos];
      if (slot.index == kKeyNotFound) break;
      if (slot.tag == tag) {
        const int64_t other = slot.index;
        if (static_cast<size_t>(offsets[other + 1] - offsets[other]) == size &&
            BytesEqual(base + offsets[other], value, size)) {
          return k;
        }
        if (max_collisions >= 0 && collisions++ == max_collisions) return kTooManyCollisions;
      }
    }
    slots[pos] = Slot{tag, static_cast<int32_t>(k)};
  }
  return -1;
}

template Result<int64_t> FindRepeatedValue(const int32_t*, const uint8_t*, const uint64_t*, int64_t,
                                           MemoryPool*, int64_t);
template Result<int64_t> FindRepeatedValue(const int64_t*, const uint8_t*, const uint64_t*, int64_t,
                                           MemoryPool*, int64_t);

}  // namespace quiver::internal
