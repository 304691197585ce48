#include "quiver/csv/tokenizer.h"

#include <cstring>

#include "quiver/csv/scan_internal.h"

namespace quiver::csv {

namespace {
constexpr int64_t kMaxBuffer = int64_t{1} << 30;  // offsets keep two flag bits
constexpr int64_t kChunksPerGroup = 64;           // 4 KiB scanned, then walked
}  // namespace

std::string_view TokenizedBlock::Unescape(std::string_view v, uint8_t quote, std::string* tmp) {
  if (v.find(static_cast<char>(quote)) == std::string_view::npos) return v;
  tmp->clear();
  for (size_t i = 0; i < v.size(); ++i) {
    tmp->push_back(v[i]);
    if (v[i] == static_cast<char>(quote)) ++i;  // "" -> " (the scan checked the pairing)
  }
  return *tmp;
}

Tokenizer::Tokenizer(const ParseOptions& options, int32_t num_columns)
    : options_(options), num_columns_(num_columns) {}

Status Tokenizer::Tokenize(const uint8_t* data, int64_t size, bool final, int64_t max_rows,
                           TokenizedBlock* out) {
  if (size >= kMaxBuffer) {
    return Status::Invalid("a CSV row spans 1 GiB or more (an unclosed quote?)");
  }
  out->fields.clear();
  out->row_starts.clear();
  out->row_ends.clear();
  out->bad_rows.clear();
  out->num_rows = 0;
  out->consumed = 0;
  out->used_scalar = false;
  const int32_t columns_before = num_columns_;
  if (!force_scalar_ && TokenizeFast(data, size, final, max_rows, out)) {
    out->num_columns = num_columns_;
    return Status::OK();
  }
  num_columns_ = columns_before;
  out->fields.clear();
  out->row_starts.clear();
  out->row_ends.clear();
  out->bad_rows.clear();
  out->num_rows = 0;
  out->used_scalar = true;
  QUIVER_RETURN_NOT_OK(TokenizeScalar(data, size, final, max_rows, out));
  out->num_columns = num_columns_;
  return Status::OK();
}

// The vectorized path. Returns false when the scan met a quote it cannot
// place (or the input ends inside quotes): the caller then runs the scalar
// state machine over the whole buffer.
bool Tokenizer::TokenizeFast(const uint8_t* data, int64_t size, bool final, int64_t max_rows,
                             TokenizedBlock* out) {
  const internal::ScanParams params{static_cast<uint8_t>(options_.delimiter),
                                    static_cast<uint8_t>(options_.quote_char), options_.quoting};
  const uint8_t quote = static_cast<uint8_t>(options_.quote_char);
  const bool quoting = options_.quoting;
  const bool skip_empty = options_.ignore_empty_lines;
  const uint8_t delim = static_cast<uint8_t>(options_.delimiter);
  internal::ScanState state;
  uint64_t structural[kChunksPerGroup];
  alignas(32) uint8_t tail[64];

  auto& fields = out->fields;
  auto& row_starts = out->row_starts;
  size_t nf = 0;
  size_t row_first_field = 0;
  uint32_t field_start = 0;
  uint32_t row_start = 0;
  int64_t skip_lf = -1;  // the LF of a CRLF
  int64_t rows = 0;
  int64_t consumed = 0;
  bool done = false;

  auto emit = [&](uint32_t s, uint32_t e) {
    uint32_t flags = 0;
    if (quoting && e > s && data[s] == quote) {
      ++s;
      --e;
      flags = FieldRef::kQuoted | FieldRef::kEscapes;
    }
    fields[nf++] = FieldRef{s, e | flags};
  };
  // Ends the row at `end` (its line end); false when max_rows is reached.
  auto end_row = [&](uint32_t end, uint32_t next) {
    const size_t row_fields = nf - row_first_field;
    if (row_fields == 1 && skip_empty && end == row_start) {
      nf = row_first_field;  // an empty line
    } else if (static_cast<int32_t>(row_fields) == num_columns_ || num_columns_ < 0) {
      num_columns_ = static_cast<int32_t>(row_fields);
      row_starts.push_back(row_start);
      out->row_ends.push_back(end);
      ++rows;
    } else {
      out->bad_rows.push_back(BadRow{row_start, end, static_cast<int32_t>(row_fields)});
      nf = row_first_field;
    }
    row_first_field = nf;
    row_start = next;
    field_start = next;
    consumed = next;
    return max_rows < 0 || rows < max_rows;
  };

  const int64_t total_chunks = (size + 63) / 64;
  for (int64_t group = 0; group < total_chunks && !done; group += kChunksPerGroup) {
    const int64_t n = std::min(kChunksPerGroup, total_chunks - group);
    const int64_t base = group * 64;
    const int64_t group_bytes = std::min<int64_t>(n * 64, size - base);
    const int last_valid = static_cast<int>(group_bytes - (n - 1) * 64);
    if (last_valid == 64) {
      internal::ScanChunks(data + base, n, 64, params, &state, structural);
    } else {
      if (n > 1) internal::ScanChunks(data + base, n - 1, 64, params, &state, structural);
      std::memset(tail, 0, sizeof(tail));
      std::memcpy(tail, data + base + (n - 1) * 64, static_cast<size_t>(last_valid));
      internal::ScanChunks(tail, 1, last_valid, params, &state, structural + n - 1);
    }
    if (state.anomaly) return false;
    // At most one field per byte of the group, plus the final one.
    if (fields.size() < nf + static_cast<size_t>(group_bytes) + 1) {
      fields.resize(std::max(fields.size() * 2, nf + static_cast<size_t>(group_bytes) + 1));
    }
    for (int64_t c = 0; c < n && !done; ++c) {
      uint64_t mask = structural[c];
      const uint32_t chunk_base = static_cast<uint32_t>(base + c * 64);
      while (mask != 0) {
        const uint32_t pos = chunk_base + static_cast<uint32_t>(__builtin_ctzll(mask));
        mask &= mask - 1;
        const uint8_t ch = data[pos];
        if (ch == delim) {
          emit(field_start, pos);
          field_start = pos + 1;
          continue;
        }
        if (ch == '\n' && static_cast<int64_t>(pos) == skip_lf) {
          row_start = field_start = pos + 1;
          consumed = pos + 1;
          continue;
        }
        if (ch == '\r') {
          if (static_cast<int64_t>(pos) + 1 == size && !final) {
            done = true;  // the LF may follow in the next buffer
            break;
          }
          skip_lf = pos + 1;
        }
        emit(field_start, pos);
        if (!end_row(pos, pos + 1)) {
          if (ch == '\r' && pos + 1 < size && data[pos + 1] == '\n') consumed = pos + 2;
          done = true;
          break;
        }
      }
    }
  }
  if (!done && final) {
    if (state.in_quote) return false;  // the scalar path reports where
    if (field_start < size || nf > row_first_field) {
      emit(field_start, static_cast<uint32_t>(size));
      end_row(static_cast<uint32_t>(size), static_cast<uint32_t>(size));
    }
    consumed = size;
  }
  fields.resize(nf);
  row_starts.push_back(static_cast<uint32_t>(consumed));
  out->data = data;
  out->num_rows = rows;
  out->consumed = consumed;
  return true;
}

// pyarrow's state machine, byte by byte, values copied (unescaped) into
// out->scratch. Used when the fast path cannot place the quotes.
Status Tokenizer::TokenizeScalar(const uint8_t* data, int64_t size, bool final, int64_t max_rows,
                                 TokenizedBlock* out) {
  const uint8_t quote = static_cast<uint8_t>(options_.quote_char);
  const uint8_t delim = static_cast<uint8_t>(options_.delimiter);
  auto& scratch = out->scratch;
  scratch.clear();
  scratch.reserve(static_cast<size_t>(size));
  auto& fields = out->fields;
  std::vector<FieldRef> row;
  int64_t pos = 0;
  int64_t consumed = 0;
  int64_t rows = 0;
  while (pos < size && (max_rows < 0 || rows < max_rows)) {
    const int64_t row_start = pos;
    if (options_.ignore_empty_lines && (data[pos] == '\n' || data[pos] == '\r')) {
      if (data[pos] == '\r' && pos + 1 == size && !final) break;
      pos += (data[pos] == '\r' && pos + 1 < size && data[pos + 1] == '\n') ? 2 : 1;
      consumed = pos;
      continue;
    }
    const size_t scratch_mark = scratch.size();
    row.clear();
    bool row_done = false, incomplete = false;
    int64_t row_end = 0;
    while (!row_done) {
      const uint32_t start = static_cast<uint32_t>(scratch.size());
      uint32_t flags = 0;
      if (options_.quoting && pos < size && data[pos] == quote) {
        flags = FieldRef::kQuoted;
        ++pos;
        while (true) {
          if (pos >= size) {
            if (!final) {
              incomplete = true;
              break;
            }
            error_offset_ = row_start;
            return Status::Invalid("a quoted value in this row is never closed (no matching ",
                                   std::string(1, static_cast<char>(quote)), ")");
          }
          const uint8_t c = data[pos];
          if (c == quote) {
            if (pos + 1 >= size && !final) {
              incomplete = true;
              break;
            }
            if (options_.double_quote && pos + 1 < size && data[pos + 1] == quote) {
              scratch.push_back(quote);
              pos += 2;
              continue;
            }
            ++pos;
            break;
          }
          scratch.push_back(c);
          ++pos;
        }
        if (incomplete) break;
      }
      // Unquoted bytes (or what follows a closing quote) up to the field's end.
      while (true) {
        if (pos >= size) {
          if (!final) {
            incomplete = true;
          } else {
            row_done = true;
            row_end = pos;
          }
          break;
        }
        const uint8_t c = data[pos];
        if (c == delim) {
          ++pos;
          break;
        }
        if (c == '\n' || c == '\r') {
          row_end = pos;
          if (c == '\r' && pos + 1 == size && !final) {
            incomplete = true;
            break;
          }
          pos += (c == '\r' && pos + 1 < size && data[pos + 1] == '\n') ? 2 : 1;
          row_done = true;
          break;
        }
        scratch.push_back(c);
        ++pos;
      }
      if (incomplete) break;
      row.push_back(FieldRef{start, static_cast<uint32_t>(scratch.size()) | flags});
      if (!row_done && pos >= size && final) {
        // "a,b," at the very end: the last (empty) field.
        row.push_back(FieldRef{static_cast<uint32_t>(scratch.size()),
                               static_cast<uint32_t>(scratch.size())});
        row_done = true;
        row_end = pos;
      }
    }
    if (incomplete) {
      scratch.resize(scratch_mark);
      break;
    }
    const int32_t n = static_cast<int32_t>(row.size());
    if (n == num_columns_ || num_columns_ < 0) {
      num_columns_ = n;
      out->row_starts.push_back(static_cast<uint32_t>(row_start));
      out->row_ends.push_back(static_cast<uint32_t>(row_end));
      fields.insert(fields.end(), row.begin(), row.end());
      ++rows;
    } else {
      out->bad_rows.push_back(BadRow{row_start, row_end, n});
      scratch.resize(scratch_mark);
    }
    consumed = pos;
  }
  out->row_starts.push_back(static_cast<uint32_t>(consumed));
  out->data = scratch.data();
  out->num_rows = rows;
  out->consumed = consumed;
  return Status::OK();
}

}  // namespace quiver::csv
