// Gather (selection_internal.h): the rows a Selection names, copied out of
// an array of any type. One pass per buffer: validity and boolean values
// 64 bits at a time, fixed-width values by the mask's words, runs or
// indices, binary and list offsets first (so that the data and the child's
// selection are sized exactly and 32-bit offsets are checked before any
// byte is copied), then the data or the child.
#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <string>

#include "quiver/compute/selection_internal.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::compute::internal {

// Where AVX-512 compress beats the scalar word loop on the CPUs it runs on
// (per value width 1, 2, 4, 8 bytes; see docs/design.md "Compute",
// filter). Compress is slow on AMD Zen 4 only in its memory-destination
// form, which is not used.
constexpr bool kUseAvx512Compress[4] = {true, true, true, true};

Result<MutableBuffer> AllocateExact(int64_t size, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(auto buffer, MutableBuffer::WithCapacity(size, pool));
  buffer.UnsafeSetSize(size);
  return buffer;
}

Result<MutableBuffer> AllocateBitmap(int64_t bits, MemoryPool* pool) {
  const int64_t bytes = bit_util::BytesForBits(bits);
  QUIVER_ASSIGN_OR_RAISE(auto buffer, AllocateExact(bytes, pool));
  if (bytes > 0) buffer.data()[bytes - 1] = 0;
  return buffer;
}

bool NeedsPositions(const DataType& type) {
  switch (type.id()) {
    case Type::kString:
    case Type::kBinary:
    case Type::kLargeString:
    case Type::kLargeBinary:
    case Type::kList:
    case Type::kLargeList:
    case Type::kMap:
    case Type::kFixedSizeList:
      return true;
    case Type::kStruct:
      for (const auto& f : type.fields()) {
        if (NeedsPositions(*f->type())) return true;
      }
      return false;
    default:
      return false;
  }
}

namespace {

template <int N>
struct Bytes {
  uint8_t b[N];
};

// --- Fixed width, bitmap form -----------------------------------------------

// polars-compute filter/scalar.rs's word loop: an empty word is skipped, a
// full one copied, a sparse one (<= 16 bits) visits its set bits, one with
// at most 8 holes copies the runs between them, any other writes every
// value and advances by its bit (branch-free; it stops at the last set bit
// so that it never writes past the output).
template <typename T>
T* FilterWords(const T* in, const uint8_t* bits, int64_t bits_offset, int64_t begin, int64_t n,
               T* out) {
  for (int64_t pos = begin; pos < n; pos += 64) {
    const int nbits = n - pos < 64 ? static_cast<int>(n - pos) : 64;
    uint64_t w = bitmap::LoadBits(bits, bits_offset + pos, nbits);
    if (w == 0) continue;
    if (w == bit_util::LeastSignificantBitMask(nbits)) {
      std::memcpy(out, in + pos, static_cast<size_t>(nbits) * sizeof(T));
      out += nbits;
      continue;
    }
    const int count = std::popcount(w);
    if (count <= 16) {
      do {
        *out++ = in[pos + std::countr_zero(w)];
        w &= w - 1;
      } while (w != 0);
    } else if (count >= nbits - 8) {
      // A few holes: copy the runs between them.
      uint64_t holes = ~w & bit_util::LeastSignificantBitMask(nbits);
      int start = 0;
      while (holes != 0) {
        const int hole = std::countr_zero(holes);
        std::memcpy(out, in + pos + start, static_cast<size_t>(hole - start) * sizeof(T));
        out += hole - start;
        start = hole + 1;
        holes &= holes - 1;
      }
      std::memcpy(out, in + pos + start, static_cast<size_t>(nbits - start) * sizeof(T));
      out += nbits - start;
    } else {
      const int last = 63 - std::countl_zero(w);
      for (int i = 0; i <= last; ++i) {
        *out = in[pos + i];
        out += (w >> i) & 1;
      }
    }
  }
  return out;
}

// Any width (fixed_size_binary): the set bits one at a time.
void FilterWordsAnyWidth(const uint8_t* in, int64_t width, const uint8_t* bits,
                         int64_t bits_offset, int64_t n, uint8_t* out) {
  if (width == 0) return;
  for (int64_t pos = 0; pos < n; pos += 64) {
    const int nbits = n - pos < 64 ? static_cast<int>(n - pos) : 64;
    uint64_t w = bitmap::LoadBits(bits, bits_offset + pos, nbits);
    while (w != 0) {
      std::memcpy(out, in + (pos + std::countr_zero(w)) * width, static_cast<size_t>(width));
      out += width;
      w &= w - 1;
    }
  }
}

template <typename T>
void FilterTyped(const uint8_t* in, const uint8_t* bits, int64_t bits_offset, int64_t begin,
                 int64_t n, uint8_t* out) {
  FilterWords(reinterpret_cast<const T*>(in), bits, bits_offset, begin, n,
              reinterpret_cast<T*>(out));
}

// --- Fixed width, indices --------------------------------------------------------

template <typename T>
void TakeTyped(const uint8_t* in_bytes, const int64_t* indices, int64_t n, uint8_t* out_bytes) {
  const T* in = reinterpret_cast<const T*>(in_bytes);
  T* out = reinterpret_cast<T*>(out_bytes);
  for (int64_t j = 0; j < n; ++j) out[j] = in[indices[j]];
}

void TakeAnyWidth(const uint8_t* in, int64_t width, const int64_t* indices, int64_t n,
                  uint8_t* out) {
  if (width == 0) return;
  for (int64_t j = 0; j < n; ++j) {
    std::memcpy(out + j * width, in + indices[j] * width, static_cast<size_t>(width));
  }
}

// --- Bitmaps -----------------------------------------------------------------------

// Returns the packed zeros.
int64_t FilterBitsScalar(const uint8_t* src, int64_t src_offset, const uint8_t* bits,
                         int64_t bits_offset, int64_t n, uint8_t* out) {
  bitmap::BitAppender appender(out, 0);
  int64_t zeros = 0;
  for (int64_t pos = 0; pos < n; pos += 64) {
    const int nbits = n - pos < 64 ? static_cast<int>(n - pos) : 64;
    uint64_t w = bitmap::LoadBits(bits, bits_offset + pos, nbits);
    if (w == 0) continue;
    const uint64_t s = bitmap::LoadBits(src, src_offset + pos, nbits);
    const int count = std::popcount(w);
    if (count == 64) {  // a run of full words: copied whole
      const int64_t end = FullWordsEnd(bits, bits_offset, pos, n);
      appender.AppendBitmap(src, src_offset + pos, end - pos);
      zeros += end - pos - bitmap::CountSetBits(src, src_offset + pos, end - pos);
      pos = end - 64;
      continue;
    }
    zeros += std::popcount(w & ~s);
    if (count == nbits) {
      appender.Append(s, nbits);
      continue;
    }
    uint64_t packed = 0;
    int k = 0;
    while (w != 0) {
      packed |= ((s >> std::countr_zero(w)) & 1) << k++;
      w &= w - 1;
    }
    appender.Append(packed, count);
  }
  appender.Finish();
  return zeros;
}

// The selected bits of src (from src_offset) into out (from bit 0),
// sel.length of them.
// m (0..63) bits of a bitmap from bit `at`, by one 8-byte load ending at
// the last byte that holds them (so it reads only bytes of the bitmap at
// or before that one), or LoadBits near the bitmap's first byte or when
// they span nine bytes.
inline uint64_t LoadBitsBackward(const uint8_t* src, int64_t at, int m) {
  if (m == 0) return 0;
  const int64_t first = ((at + m - 1) >> 3) - 7;
  // (Nine bytes when the bits start late in their first byte.)
  if (first < 0 || (at & 7) + m > 64) return bitmap::LoadBits(src, at, m);
  const uint64_t word = bit_util::FromLittleEndian(bit_util::SafeLoad<uint64_t>(src + first));
  return (word >> (at - 8 * first)) & bit_util::LeastSignificantBitMask(m);
}

// Runs of a bitmap's bits, appended one after the other into out (from
// bit 0). Every output word is stored once, whole: the words a run covers
// whole straight from the source (one 64-bit load each, at the same shift
// all along the run, so they do not wait on each other; an appender
// carrying its accumulator from word to word makes a chain of dependent
// steps), the words where runs meet through an accumulator. Returns how
// many of the bits are 1.
int64_t AppendRunsOfBits(const uint8_t* src, int64_t src_offset, const std::vector<Run>& runs,
                         uint8_t* out) {
  uint8_t* dst = out;  // the current output word
  uint64_t acc = 0;    // its first `fill` bits
  int fill = 0;
  int64_t ones = 0;
  for (const Run& r : runs) {
    int64_t at = src_offset + r.start;
    int64_t len = r.length;
    if (fill > 0) {
      const int m = len < 64 - fill ? static_cast<int>(len) : 64 - fill;
      acc |= LoadBitsBackward(src, at, m) << fill;
      fill += m;
      at += m;
      len -= m;
      if (fill < 64) continue;  // the run is used up
      ones += std::popcount(acc);
      bit_util::StoreLittleEndian(dst, acc);
      dst += 8;
      acc = 0;
      fill = 0;
    }
    const int64_t words = len >> 6;
    const uint8_t* b = src + (at >> 3);
    const int shift = static_cast<int>(at & 7);
    if (shift == 0) {
      std::memcpy(dst, b, static_cast<size_t>(words) * 8);
      ones += bitmap::CountSetBits(b, 0, words * 64);
    } else {
      for (int64_t k = 0; k < words; ++k) {
        const uint64_t lo = bit_util::FromLittleEndian(bit_util::SafeLoad<uint64_t>(b + 8 * k));
        const uint64_t hi = b[8 * k + 8];
        const uint64_t w = (lo >> shift) | (hi << (64 - shift));
        ones += std::popcount(w);
        bit_util::StoreLittleEndian(dst + 8 * k, w);
      }
    }
    dst += words * 8;
    at += words * 64;
    len -= words * 64;
    acc = LoadBitsBackward(src, at, static_cast<int>(len));
    fill = static_cast<int>(len);
  }
  ones += std::popcount(acc);
  bitmap::StoreBits(dst, 0, fill, acc);
  return ones;
}

// `zeros` (if given) gets the number of 0 bits written, or -1 when not
// counted.
SimdLevel GatherBits(const uint8_t* src, int64_t src_offset, const Selection& sel, uint8_t* out,
                     int64_t* zeros = nullptr) {
  if (zeros != nullptr) *zeros = -1;
  if (sel.bits != nullptr) {
    return FilterBits(src, src_offset, sel.bits, sel.bits_offset, sel.rows, out,
                      bit_util::BytesForBits(sel.length), zeros);
  }
  if (sel.runs != nullptr) {
    const int64_t ones = AppendRunsOfBits(src, src_offset, *sel.runs, out);
    if (zeros != nullptr) *zeros = sel.length - ones;
    return SimdLevel::kScalar;
  }
  bitmap::BitAppender appender(out, 0);
  {
    for (int64_t j = 0; j < sel.length; j += 64) {
      const int m = sel.length - j < 64 ? static_cast<int>(sel.length - j) : 64;
      uint64_t word = 0;
      for (int t = 0; t < m; ++t) {
        word |= static_cast<uint64_t>(bit_util::GetBit(src, src_offset + sel.indices[j + t])) << t;
      }
      appender.Append(word, m);
    }
  }
  appender.Finish();
  return SimdLevel::kScalar;
}

// The output's validity: the selected validity bits of the values (all
// set when they have no nulls) AND the selection's forced nulls; no buffer
// when nothing is null.
Status GatherValidity(const ArrayData& values, const Selection& sel, MemoryPool* pool,
                      ArrayData* out) {
  const uint8_t* validity = values.validity();
  const bool values_nulls = validity != nullptr && values.GetNullCount() > 0;
  if (!values_nulls && sel.forced_nulls == 0) {
    out->buffers.push_back(nullptr);
    out->null_count = 0;
    return Status::OK();
  }
  const int64_t n = sel.length;
  QUIVER_ASSIGN_OR_RAISE(auto bitmap_buffer, AllocateBitmap(n, pool));
  uint8_t* dst = bitmap_buffer.data();
  int64_t nulls = -1;  // counted by the bitmap filter when it can
  if (values_nulls) {
    GatherBits(validity, values.offset, sel, dst, &nulls);
  } else {
    bitmap::SetBitsTo(dst, 0, n, true);
  }
  if (sel.forced_nulls > 0) {
    bitmap::BitmapAnd(dst, 0, sel.valid_bits, sel.valid_offset, n, dst, 0);
    nulls = -1;
  }
  if (nulls < 0) nulls = n - bitmap::CountSetBits(dst, 0, n);
  out->null_count = nulls;
  out->buffers.push_back(nulls == 0 ? nullptr : bitmap_buffer.Freeze());
  return Status::OK();
}

// Fixed-width values (width bytes each; the values buffer is buffers[1]).
Status GatherFixedWidth(const ArrayData& values, int64_t width, const Selection& sel,
                        MemoryPool* pool, ArrayData* out) {
  const int64_t n = sel.length;
  QUIVER_ASSIGN_OR_RAISE(auto buffer, AllocateExact(n * width, pool));
  uint8_t* dst = buffer.data();
  const uint8_t* in = values.buffers[1] == nullptr || n == 0
                          ? nullptr
                          : values.buffers[1]->data() + values.offset * width;
  if (n > 0 && width > 0) {
    if (sel.bits != nullptr) {
      RecordSimdLevel(FilterFixedWidth(in, width, sel.bits, sel.bits_offset, sel.rows, dst));
    } else if (sel.runs != nullptr) {
      uint8_t* p = dst;
      for (const Run& r : *sel.runs) {
        std::memcpy(p, in + r.start * width, static_cast<size_t>(r.length * width));
        p += r.length * width;
      }
    } else {
      switch (width) {
        case 1: TakeTyped<uint8_t>(in, sel.indices, n, dst); break;
        case 2: TakeTyped<uint16_t>(in, sel.indices, n, dst); break;
        case 4: TakeTyped<uint32_t>(in, sel.indices, n, dst); break;
        case 8: TakeTyped<uint64_t>(in, sel.indices, n, dst); break;
        case 16: TakeTyped<Bytes<16>>(in, sel.indices, n, dst); break;
        case 32: TakeTyped<Bytes<32>>(in, sel.indices, n, dst); break;
        default: TakeAnyWidth(in, width, sel.indices, n, dst); break;
      }
    }
  }
  out->buffers.push_back(buffer.Freeze());
  return Status::OK();
}

Status GatherBoolValues(const ArrayData& values, const Selection& sel, MemoryPool* pool,
                        ArrayData* out) {
  const int64_t n = sel.length;
  QUIVER_ASSIGN_OR_RAISE(auto buffer, AllocateBitmap(n, pool));
  if (n > 0) RecordSimdLevel(GatherBits(values.buffers[1]->data(), values.offset, sel, buffer.data()));
  out->buffers.push_back(buffer.Freeze());
  return Status::OK();
}

Status OffsetOverflow(const char* what, const DataType& type, int64_t total) {
  return Status::CapacityError(what, ": the result of type ", type.ToString(), " would hold ",
                               total, " values or bytes, past its 32-bit offsets' range ",
                               "(use the large_ variant of the type)");
}

// Appends [start, start + length) to ascending runs, merged with the last
// one when adjacent; empty ranges are skipped.
void AppendRun(std::vector<Run>* runs, int64_t start, int64_t length) {
  if (length == 0) return;
  if (!runs->empty() && runs->back().start + runs->back().length == start) {
    runs->back().length += length;
  } else {
    runs->push_back({start, length});
  }
}

// The output offsets of a binary or list-like array: out[0] = 0, then the
// running sum of the selected slots' lengths (a forced-null slot of an
// index selection gets length 0). When `ranges` is given, the selected
// slots' ranges of the data or child (adjacent ones merged). Returns the
// total; CapacityError past the offset type's range.
template <typename O>
Result<int64_t> SelectOffsets(const O* off, const Selection& sel, const char* what,
                              const DataType& type, O* out, std::vector<Run>* ranges) {
  constexpr int64_t kMax = std::numeric_limits<O>::max();
  auto add_range = [ranges](int64_t start, int64_t length) {
    if (ranges != nullptr) AppendRun(ranges, start, length);
  };
  int64_t total = 0;
  out[0] = 0;
  if (sel.runs != nullptr) {
    O* o = out + 1;
    for (const Run& r : *sel.runs) {
      const int64_t base = off[r.start];
      const int64_t bytes = static_cast<int64_t>(off[r.start + r.length]) - base;
      if (bytes > kMax - total) return OffsetOverflow(what, type, total + bytes);
      const int64_t shift = total - base;
      for (int64_t i = 1; i <= r.length; ++i) {
        *o++ = static_cast<O>(static_cast<int64_t>(off[r.start + i]) + shift);
      }
      add_range(base, bytes);
      total += bytes;
    }
  } else {
    for (int64_t j = 0; j < sel.length; ++j) {
      const int64_t i = sel.indices[j];
      int64_t length = static_cast<int64_t>(off[i + 1]) - static_cast<int64_t>(off[i]);
      if (sel.forced_nulls > 0 && !bit_util::GetBit(sel.valid_bits, sel.valid_offset + j)) {
        length = 0;
      }
      if (length > kMax - total) return OffsetOverflow(what, type, total + length);
      add_range(off[i], length);
      total += length;
      out[j + 1] = static_cast<O>(total);
    }
  }
  return total;
}

struct SelectedOffsets {
  MutableBuffer offsets;
  int64_t total;
};

// The output's offsets buffer (SelectOffsets) and the data or child length.
template <typename O>
Result<SelectedOffsets> GatherOffsets(const ArrayData& values, const Selection& sel,
                                      const char* what, MemoryPool* pool,
                                      std::vector<Run>* ranges) {
  QUIVER_ASSIGN_OR_RAISE(
      auto offsets, AllocateExact((sel.length + 1) * static_cast<int64_t>(sizeof(O)), pool));
  QUIVER_ASSIGN_OR_RAISE(int64_t total, SelectOffsets<O>(values.GetValues<O>(1), sel, what,
                                                          *values.type, offsets.data_as<O>(),
                                                          ranges));
  return SelectedOffsets{std::move(offsets), total};
}

// Binary values by runs (filter with a dense mask): the offsets of each
// run shifted, then one memcpy per run.
template <typename O>
Status GatherBinaryRuns(const ArrayData& values, const Selection& sel, const char* what,
                        MemoryPool* pool, ArrayData* out) {
  const O* off = values.GetValues<O>(1);
  QUIVER_ASSIGN_OR_RAISE(auto selected, GatherOffsets<O>(values, sel, what, pool, nullptr));
  const int64_t total = selected.total;
  QUIVER_ASSIGN_OR_RAISE(auto data, AllocateExact(total, pool));
  if (total > 0) {
    const uint8_t* src = values.buffers[2]->data();
    uint8_t* dst = data.data();
    for (const Run& r : *sel.runs) {
      const int64_t start = off[r.start];
      const int64_t bytes = static_cast<int64_t>(off[r.start + r.length]) - start;
      std::memcpy(dst, src + start, static_cast<size_t>(bytes));
      dst += bytes;
    }
  }
  out->buffers.push_back(selected.offsets.Freeze());
  out->buffers.push_back(data.Freeze());
  return Status::OK();
}

// How many rows ahead the index gathers prefetch (random rows of an array
// past the L2 cache: its offsets, then its bytes).
constexpr int64_t kPrefetchAhead = 16;

// Pass 1 of GatherBinaryIndices: out[j + 1] the running sum of the slots'
// lengths, starts[j] the source start of slot j, 64 slots (one word of
// the output's validity `valid`, all set when it is null) at a time: a
// full word by a branch-free loop, any other by its set bits only (its
// lengths and starts zeroed first, then summed), so that a null slot (a
// null index, a forced null, a null value) reads nothing and gets length 0.
// Returns the total, or -1 past the offset type's range.
template <typename O>
int64_t IndexOffsets(const O* off, const int64_t* indices, const uint8_t* valid, int64_t n,
                     O* out, O* starts) {
  constexpr int64_t kMax = std::numeric_limits<O>::max();
  int64_t total = 0;
  out[0] = 0;
  for (int64_t j0 = 0; j0 < n; j0 += 64) {
    const int m = n - j0 < 64 ? static_cast<int>(n - j0) : 64;
    const int64_t* idx = indices + j0;
    O* o = out + j0 + 1;
    O* st = starts + j0;
    const uint64_t all = bit_util::LeastSignificantBitMask(m);
    uint64_t w = valid == nullptr ? all : bitmap::LoadBits(valid, j0, m);
    const int64_t before = total;
    if (w == all) {
      for (int t = 0; t < m; ++t) {
        if (j0 + t + kPrefetchAhead < n) __builtin_prefetch(off + idx[t + kPrefetchAhead]);
        const int64_t start = off[idx[t]];
        total += static_cast<int64_t>(off[idx[t] + 1]) - start;
        o[t] = static_cast<O>(total);
        st[t] = static_cast<O>(start);
      }
    } else {
      std::memset(o, 0, static_cast<size_t>(m) * sizeof(O));
      std::memset(st, 0, static_cast<size_t>(m) * sizeof(O));
      while (w != 0) {
        const int t = std::countr_zero(w);
        w &= w - 1;
        const int64_t start = off[idx[t]];
        o[t] = static_cast<O>(static_cast<int64_t>(off[idx[t] + 1]) - start);
        st[t] = static_cast<O>(start);
      }
      for (int t = 0; t < m; ++t) {
        total += o[t];
        o[t] = static_cast<O>(total);
      }
    }
    // The lengths are at most kMax each: 64 of them fit in int64 (the
    // 32-bit sums wrap in O only past kMax, which this test catches; a
    // 64-bit offset array this large cannot exist).
    if (total > kMax || total < before) return -1;
  }
  return total;
}

// Binary values by indices (take; filter with a sparse mask), in two passes
// as arrow-rs take_bytes: the output offsets with each slot's source start
// (IndexOffsets), then the bytes. Null output slots get no bytes (arrow-rs
// too; pyarrow keeps a null value's bytes: either is valid Arrow). Values
// of up to 32 bytes move by one 32-byte copy where both buffers have the
// room (the bytes past the value are overwritten by the next values,
// written later in increasing order; a memcpy call per value costs more
// than its bytes), longer ones by memcpy.
template <typename O>
Status GatherBinaryIndices(const ArrayData& values, const Selection& sel, const uint8_t* valid,
                           const char* what, MemoryPool* pool, ArrayData* out) {
  const int64_t n = sel.length;
  const O* off = values.GetValues<O>(1);
  QUIVER_ASSIGN_OR_RAISE(auto offsets,
                         AllocateExact((n + 1) * static_cast<int64_t>(sizeof(O)), pool));
  QUIVER_ASSIGN_OR_RAISE(auto starts_buffer,
                         AllocateExact(n * static_cast<int64_t>(sizeof(O)), pool));
  O* o = offsets.data_as<O>();
  O* starts = starts_buffer.data_as<O>();
  const int64_t total = IndexOffsets<O>(off, sel.indices, valid, n, o, starts);
  if (total < 0) {
    // Past the range: the sum that overflows, for the message.
    int64_t sum = 0;
    for (int64_t j = 0; j < n; ++j) {
      if (valid != nullptr && !bit_util::GetBit(valid, j)) continue;
      const int64_t i = sel.indices[j];
      sum += static_cast<int64_t>(off[i + 1]) - static_cast<int64_t>(off[i]);
      if (sum > std::numeric_limits<O>::max()) break;
    }
    return OffsetOverflow(what, *values.type, sum);
  }
  QUIVER_ASSIGN_OR_RAISE(auto data, AllocateExact(total, pool));
  if (total > 0) {
    const uint8_t* src = values.buffers[2]->data();
    const int64_t src_size = values.buffers[2]->size();
    uint8_t* dst = data.data();
    auto copy = [&](int64_t j) {
      const int64_t to = o[j];
      const int64_t length = static_cast<int64_t>(o[j + 1]) - to;
      const int64_t from = starts[j];
      if (length <= 32 && to + 32 <= total && from + 32 <= src_size) {
        std::memcpy(dst + to, src + from, 32);
      } else {
        std::memcpy(dst + to, src + from, static_cast<size_t>(length));
      }
    };
    for (int64_t j0 = 0; j0 < n; j0 += 64) {
      const int m = n - j0 < 64 ? static_cast<int>(n - j0) : 64;
      const uint64_t all = bit_util::LeastSignificantBitMask(m);
      uint64_t w = valid == nullptr ? all : bitmap::LoadBits(valid, j0, m);
      if (w == all) {
        for (int64_t j = j0; j < j0 + m; ++j) {
          if (j + kPrefetchAhead < n) __builtin_prefetch(src + starts[j + kPrefetchAhead]);
          copy(j);
        }
      } else {
        while (w != 0) {
          const int64_t j = j0 + std::countr_zero(w);
          w &= w - 1;
          if (j + kPrefetchAhead < n) __builtin_prefetch(src + starts[j + kPrefetchAhead]);
          copy(j);
        }
      }
    }
  }
  out->buffers.push_back(offsets.Freeze());
  out->buffers.push_back(data.Freeze());
  return Status::OK();
}

template <typename O>
Status GatherBinary(const ArrayData& values, const Selection& sel, const char* what,
                    MemoryPool* pool, ArrayData* out) {
  if (sel.runs != nullptr) return GatherBinaryRuns<O>(values, sel, what, pool, out);
  // The output's validity (GatherValidity ran first), at offset 0.
  const uint8_t* valid = out->buffers[0] == nullptr ? nullptr : out->buffers[0]->data();
  return GatherBinaryIndices<O>(values, sel, valid, what, pool, out);
}

template <typename O>
Status GatherList(const ArrayData& values, const Selection& sel, const char* what,
                  MemoryPool* pool, ArrayData* out) {
  std::vector<Run> child_runs;
  QUIVER_ASSIGN_OR_RAISE(auto selected, GatherOffsets<O>(values, sel, what, pool, &child_runs));
  Selection child_sel;
  child_sel.length = selected.total;
  child_sel.runs = &child_runs;
  QUIVER_ASSIGN_OR_RAISE(auto child, Gather(*values.children[0], child_sel, what, pool));
  out->buffers.push_back(selected.offsets.Freeze());
  out->children.push_back(std::move(child));
  return Status::OK();
}

Status GatherFixedSizeList(const ArrayData& values, const Selection& sel, const char* what,
                           MemoryPool* pool, ArrayData* out) {
  const int64_t size = TypeAs<ListType>(*values.type).list_size();
  std::vector<Run> child_runs;
  // The child is addressed with the parent's offset.
  if (sel.runs != nullptr) {
    for (const Run& r : *sel.runs) {
      AppendRun(&child_runs, (values.offset + r.start) * size, r.length * size);
    }
  } else {
    for (int64_t j = 0; j < sel.length; ++j) {
      AppendRun(&child_runs, (values.offset + sel.indices[j]) * size, size);
    }
  }
  Selection child_sel;
  child_sel.length = sel.length * size;
  child_sel.runs = &child_runs;
  QUIVER_ASSIGN_OR_RAISE(auto child, Gather(*values.children[0], child_sel, what, pool));
  out->children.push_back(std::move(child));
  return Status::OK();
}

Status GatherStruct(const ArrayData& values, const Selection& sel, const char* what,
                    MemoryPool* pool, ArrayData* out) {
  // Children see the parent's rows; the forced nulls are the parent's.
  Selection child_sel = sel;
  child_sel.valid_bits = nullptr;
  child_sel.valid_offset = 0;
  child_sel.forced_nulls = 0;
  for (const auto& child : values.children) {
    ArrayDataPtr rows = child->Slice(values.offset, values.length);
    QUIVER_ASSIGN_OR_RAISE(auto gathered, Gather(*rows, child_sel, what, pool));
    out->children.push_back(std::move(gathered));
  }
  return Status::OK();
}

}  // namespace

SimdLevel FilterFixedWidth(const uint8_t* in, int64_t width, const uint8_t* bits,
                           int64_t bits_offset, int64_t n, uint8_t* out) {
  int64_t begin = 0;
  SimdLevel level = SimdLevel::kScalar;
  const int width_index = width == 1 ? 0 : width == 2 ? 1 : width == 4 ? 2 : width == 8 ? 3 : -1;
  if (width_index >= 0 && n >= 64 && kUseAvx512Compress[width_index] &&
      ActiveSimdLevel() >= SimdLevel::kAvx512) {
    int64_t written = 0;
    begin = FilterFixedWidthAvx512(in, static_cast<int>(width), bits, bits_offset, n, out,
                                   &written);
    out += written * width;
    level = SimdLevel::kAvx512;
  }
  switch (width) {
    case 1: FilterTyped<uint8_t>(in, bits, bits_offset, begin, n, out); break;
    case 2: FilterTyped<uint16_t>(in, bits, bits_offset, begin, n, out); break;
    case 4: FilterTyped<uint32_t>(in, bits, bits_offset, begin, n, out); break;
    case 8: FilterTyped<uint64_t>(in, bits, bits_offset, begin, n, out); break;
    case 16: FilterTyped<Bytes<16>>(in, bits, bits_offset, begin, n, out); break;
    case 32: FilterTyped<Bytes<32>>(in, bits, bits_offset, begin, n, out); break;
    default: FilterWordsAnyWidth(in, width, bits, bits_offset, n, out); break;
  }
  return level;
}

SimdLevel FilterBits(const uint8_t* src, int64_t src_offset, const uint8_t* bits,
                     int64_t bits_offset, int64_t n, uint8_t* out, int64_t out_bytes,
                     int64_t* zeros) {
  int64_t z;
  SimdLevel level = SimdLevel::kScalar;
  if (ActiveSimdLevel() >= SimdLevel::kAvx2) {
    z = FilterBitsBmi2(src, src_offset, bits, bits_offset, n, out, out_bytes);
    level = SimdLevel::kAvx2;
  } else {
    z = FilterBitsScalar(src, src_offset, bits, bits_offset, n, out);
  }
  if (zeros != nullptr) *zeros = z;
  return level;
}

Result<ArrayDataPtr> Gather(const ArrayData& values, const Selection& sel, const char* what,
                            MemoryPool* pool) {
  const DataType& type = *values.type;
  auto out = std::make_shared<ArrayData>(values.type, sel.length,
                                         std::vector<std::shared_ptr<Buffer>>{});
  if (type.id() == Type::kNull) {
    out->null_count = sel.length;
    return out;
  }
  if (NeedsPositions(type) && !sel.has_positions()) {
    return Status::Invalid(what, ": internal error, no positions to gather ", type.ToString());
  }
  QUIVER_RETURN_NOT_OK(GatherValidity(values, sel, pool, out.get()));
  switch (type.id()) {
    case Type::kBool:
      QUIVER_RETURN_NOT_OK(GatherBoolValues(values, sel, pool, out.get()));
      break;
    case Type::kString:
    case Type::kBinary:
      QUIVER_RETURN_NOT_OK(GatherBinary<int32_t>(values, sel, what, pool, out.get()));
      break;
    case Type::kLargeString:
    case Type::kLargeBinary:
      QUIVER_RETURN_NOT_OK(GatherBinary<int64_t>(values, sel, what, pool, out.get()));
      break;
    case Type::kStringView:
    case Type::kBinaryView:
      // The views move; the data buffers they point into are shared.
      QUIVER_RETURN_NOT_OK(GatherFixedWidth(values, 16, sel, pool, out.get()));
      for (size_t b = 2; b < values.buffers.size(); ++b) out->buffers.push_back(values.buffers[b]);
      break;
    case Type::kList:
    case Type::kMap:
      QUIVER_RETURN_NOT_OK(GatherList<int32_t>(values, sel, what, pool, out.get()));
      break;
    case Type::kLargeList:
      QUIVER_RETURN_NOT_OK(GatherList<int64_t>(values, sel, what, pool, out.get()));
      break;
    case Type::kFixedSizeList:
      QUIVER_RETURN_NOT_OK(GatherFixedSizeList(values, sel, what, pool, out.get()));
      break;
    case Type::kStruct:
      QUIVER_RETURN_NOT_OK(GatherStruct(values, sel, what, pool, out.get()));
      break;
    case Type::kDictionary: {
      const int64_t width = FixedWidthBytes(*TypeAs<DictionaryType>(type).index_type());
      QUIVER_RETURN_NOT_OK(GatherFixedWidth(values, width, sel, pool, out.get()));
      out->dictionary = values.dictionary;
      break;
    }
    default: {
      const int64_t width = IsFixedWidth(type.id()) ? FixedWidthBytes(type) : -1;
      if (width < 0) {
        return Status::NotImplemented(what, ": no kernel for type ", type.ToString());
      }
      QUIVER_RETURN_NOT_OK(GatherFixedWidth(values, width, sel, pool, out.get()));
      break;
    }
  }
  return out;
}

}  // namespace quiver::compute::internal
