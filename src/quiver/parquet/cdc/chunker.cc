#include "quiver/parquet/cdc/chunker.h"

#include <cstring>

#include "quiver/parquet/cdc/gear_table.h"
#include "quiver/util/bit_util.h"

namespace quiver::parquet::cdc {

namespace {

// The bytes of leaf slot i, for each Arrow layout (docs/cdc.md, "What is fed
// to the hash").
struct SlotBytes {
  const ArrayData* d;
  Type id;
  int width = 0;  // fixed-width storage bytes
  uint8_t bool_byte = 0;

  explicit SlotBytes(const ArrayData* data) : d(data) {
    id = d->type->id();
    if (id == Type::kDictionary) {
      width = TypeAs<DictionaryType>(*d->type).index_type()->byte_width();
    } else if (id != Type::kBool) {
      width = d->type->byte_width();
    }
  }

  // Sets *p and returns the length.
  int64_t Get(int64_t i, const uint8_t** p) {
    switch (id) {
      case Type::kNull:
        *p = nullptr;
        return 0;
      case Type::kBool:
        bool_byte = bit_util::GetBit(d->buffers[1]->data(), d->offset + i) ? 1 : 0;
        *p = &bool_byte;
        return 1;
      case Type::kString:
      case Type::kBinary: {
        const int32_t* o = d->GetValues<int32_t>(1);
        *p = d->buffers[2]->data() + o[i];
        return o[i + 1] - o[i];
      }
      case Type::kLargeString:
      case Type::kLargeBinary: {
        const int64_t* o = d->GetValues<int64_t>(1);
        *p = d->buffers[2]->data() + o[i];
        return o[i + 1] - o[i];
      }
      case Type::kStringView:
      case Type::kBinaryView: {
        const uint8_t* view = d->buffers[1]->data() + (d->offset + i) * 16;
        int32_t len;
        std::memcpy(&len, view, 4);
        if (len <= 12) {
          *p = view + 4;
        } else {
          int32_t buf, off;
          std::memcpy(&buf, view + 8, 4);
          std::memcpy(&off, view + 12, 4);
          *p = d->buffers[static_cast<size_t>(2 + buf)]->data() + off;
        }
        return len;
      }
      default:
        *p = d->buffers[1]->data() + (d->offset + i) * width;
        return width;
    }
  }
};

}  // namespace

const uint64_t* Chunker::kTableFor(int run) { return kGearTable[run]; }

Chunker::Chunker(const ChunkerOptions& options) : options_(options) {
  if (options_.state == nullptr) options_.state = std::make_shared<ChunkerState>();
  hash_ = options_.state->hash;
  matched_ = options_.state->matched;
  run_ = options_.state->run;
  size_ = options_.state->size;
}

void Chunker::Save() const {
  options_.state->hash = hash_;
  options_.state->matched = matched_;
  options_.state->run = run_;
  options_.state->size = size_;
}

Status Chunker::FindCuts(const LeafLevels& levels, std::vector<int64_t>* cuts) {
  Status st = FindCutsImpl(levels, cuts);
  Save();
  return st;
}

template <typename ValueBytes>
void Chunker::FlatRequired(int64_t first_slot, int64_t n, ValueBytes&& value,
                           std::vector<int64_t>* cuts) {
  for (int64_t k = 0; k < n; ++k) {
    const uint8_t* p;
    const int64_t len = value(first_slot + k, &p);
    Roll(p, len);
    if (NeedCut()) cuts->push_back(k);
  }
}

Status Chunker::FindCutsImpl(const LeafLevels& levels, std::vector<int64_t>* cuts) {
  cuts->clear();
  SlotBytes bytes(levels.leaf.get());
  const int64_t n = levels.num_levels;
  const bool has_def = levels.max_def > 0;
  const bool has_rep = levels.max_rep > 0;

  if (!has_def && !has_rep) {
    // Required, not nested: one contiguous leaf range.
    const int64_t first = levels.ranges.empty() ? 0 : levels.ranges[0].first;
    const int w = bytes.width;
    if (w > 0 && bytes.id != Type::kBool && bytes.id != Type::kDictionary &&
        IsFixedWidth(bytes.id)) {
      // Fixed width: skip the min-size window arithmetically (no hashing,
      // no possible cut there), then hash value by value.
      const uint8_t* base = levels.leaf->buffers[1]->data() + (levels.leaf->offset + first) * w;
      int64_t k = 0;
      while (k < n) {
        if (size_ + w < options_.min_chunk_size) {
          int64_t skip = (options_.min_chunk_size - size_ - 1) / w;
          if (skip > n - k) skip = n - k;
          size_ += skip * w;
          k += skip;
          continue;
        }
        Roll(base + k * w, w);
        if (NeedCut()) cuts->push_back(k);
        ++k;
      }
      return Status::OK();
    }
    FlatRequired(first, n, [&](int64_t i, const uint8_t** p) { return bytes.Get(i, p); }, cuts);
    return Status::OK();
  }

  const int16_t* def = has_def ? levels.def_levels.data() : nullptr;
  const int16_t* rep = has_rep ? levels.rep_levels.data() : nullptr;
  const int16_t slot_def = static_cast<int16_t>(levels.max_def - (levels.leaf_nullable ? 1 : 0));
  // Walk leaf slots through the ranges as levels consume them.
  size_t range = 0;
  int64_t slot = levels.ranges.empty() ? 0 : levels.ranges[0].first;
  for (int64_t i = 0; i < n; ++i) {
    const int16_t d = def != nullptr ? def[i] : levels.max_def;
    RollLevel(d);
    if (rep != nullptr) RollLevel(rep[i]);
    const bool consumes = d >= slot_def;
    if (consumes) {
      if (d == levels.max_def) {
        const uint8_t* p;
        const int64_t len = bytes.Get(slot, &p);
        Roll(p, len);
      }
      ++slot;
      if (range < levels.ranges.size() && slot == levels.ranges[range].second &&
          range + 1 < levels.ranges.size()) {
        ++range;
        slot = levels.ranges[range].first;
      }
    }
    if (rep == nullptr) {
      if (NeedCut()) cuts->push_back(i);
    } else if (rep[i] == 0) {
      if (NeedCut() && i > 0) cuts->push_back(i);
    }
  }
  return Status::OK();
}

}  // namespace quiver::parquet::cdc
