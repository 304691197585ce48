// libFuzzer entry point for the Parquet reader: the input is a whole file.
// It is opened and every column of every row group is read in batches
// (of 7, 100 or 4096 rows, page checksums verified or not, invalid UTF-8
// an error or binary, as the input's last byte says: one pass an input
// keeps the rate up); every array
// returned must pass ValidateFull(). Nothing may crash, hang, leak or read
// outside the input; every failure must be a Status. Memory is capped
// (memory_limit), so a page or level count claiming gigabytes is an error,
// not an allocation. Then a selection of rows derived from the input's bytes
// is read from each row group (FileReader::ReadRowGroups): skipping by
// levels only, it must equal the row group read whole with those rows taken
// (whenever that read succeeds); skipping pages by the offset index (which
// the reader trusts, as Arrow C++ and arrow-rs do, so a lying index may
// change the rows), it must pass ValidateFull() with the selected row count.
// Last, a filter derived from the input's bytes (a top-level field, an op, a
// literal from the bytes; FilterOf) is read with pushdown
// (FileReader::ReadTable(filter)) and compared with reading everything and
// filtering (FilterByExpression): every row pushdown returns must be one the
// oracle keeps, in the oracle's order (pruning only drops rows); when the
// read pruned nothing (read_stats: no row group pruned, no page skipped) the
// two must be equal; when both fail, with errors of the same kind. (Pruning
// trusts statistics, page indexes, bloom filters and encoding stats, as
// every reader does, so a mutated input whose metadata lies may lose rows
// the oracle keeps, never add any; a read that fails only with pushdown,
// or with an error of another kind than the oracle's, must fail on what
// pushdown reads first: a page index or bloom filter, or (the latter case)
// the filter's columns, read alone with that kind of error.)
// Built by the `fuzz` preset (make fuzz).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "quiver/array/concatenate.h"
#include "quiver/compute/expression.h"
#include "quiver/io/memory.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/file_reader_internal.h"

namespace {

using namespace quiver;           // NOLINT
using namespace quiver::parquet;  // NOLINT

// Runs of selected and skipped rows of a row group of `rows` rows.
RowRanges SelectionOf(std::minstd_rand& rng, int64_t rows) {
  std::vector<RowRange> ranges;
  int64_t i = 0;
  const int64_t max_run = 1 + static_cast<int64_t>(rng() % 200);
  while (i < rows) {
    const int64_t run = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(max_run));
    const int64_t end = std::min(rows, i + run);
    if (rng() % 2 == 0) ranges.push_back({i, end});
    i = end;
  }
  auto made = RowRanges::Make(std::move(ranges));
  if (!made.ok()) __builtin_trap();
  return *made;
}

void ReadSelections(FileReader& reader, uint32_t seed) {
  std::minstd_rand rng(seed);
  for (int g = 0; g < reader.num_row_groups(); ++g) {
    auto metadata = reader.metadata()->row_group(g);
    if (!metadata.ok()) return;
    const int64_t rows = metadata->num_rows();
    if (rows > (int64_t{1} << 20)) continue;
    const RowRanges selection = SelectionOf(rng, rows);
    // Levels only: the rows taken from the whole row group.
    SetSkipPagesByOffsetIndex(reader, false);
    auto some = reader.ReadRowGroups({g}, {selection});
    if (some.ok()) {
      if (!(*some)->ValidateFull().ok() || (*some)->num_rows() != selection.row_count()) {
        __builtin_trap();
      }
      auto whole = reader.ReadRowGroup(g);
      // (invalid_utf8='binary' decides per read: the two may type a leaf
      // differently.)
      if (whole.ok() && (*whole)->schema()->Equals(*(*some)->schema())) {
        EqualOptions equal;
        equal.nans_equal = true;
        for (int c = 0; c < (*whole)->num_columns(); ++c) {
          std::vector<ArrayPtr> pieces;
          for (const RowRange& r : selection.ranges()) {
            int64_t base = 0;  // (the whole read may be in chunks)
            for (const ArrayPtr& chunk : (*whole)->column(c)->chunks()) {
              const int64_t lo = std::max(r.begin, base);
              const int64_t hi = std::min(r.end, base + chunk->length());
              if (lo < hi) pieces.push_back(MakeArray(chunk->data()->Slice(lo - base, hi - lo)));
              base += chunk->length();
            }
          }
          ChunkedArray want(std::move(pieces), (*whole)->column(c)->type());
          if (!(*some)->column(c)->Equals(want, equal)) __builtin_trap();
        }
      }
    }
    // By the offset index: valid arrays of the selected rows.
    SetSkipPagesByOffsetIndex(reader, true);
    auto skipped = reader.ReadRowGroups({g}, {selection});
    if (skipped.ok() && (!(*skipped)->ValidateFull().ok() ||
                         (*skipped)->num_rows() != selection.row_count())) {
      __builtin_trap();
    }
  }
}

// A filter of field `name` of type `type` from the bytes in `rng`'s seed.
compute::Expression FilterOf(std::minstd_rand& rng, const std::string& name,
                             const TypePtr& type, const uint8_t* data, size_t size) {
  namespace cp = compute;
  auto byte = [&](size_t i) -> uint8_t { return size == 0 ? 0 : data[(rng() + i) % size]; };
  int64_t bits = 0;
  for (size_t i = 0; i < 8; ++i) bits = (bits << 8) | byte(i);
  Scalar literal = Scalar::MakeInt64(rng() % 4 == 0 ? bits : bits % 1000);
  switch (type->id()) {
    case Type::kFloat:
    case Type::kDouble:
    case Type::kHalfFloat:
      literal = Scalar::MakeDouble(rng() % 8 == 0 ? std::nan("")
                                                  : static_cast<double>(bits % 2000) / 4.0);
      break;
    case Type::kString:
    case Type::kLargeString:
    case Type::kStringView: {
      std::string text;
      const size_t n = rng() % 6;
      for (size_t i = 0; i < n; ++i) text.push_back(static_cast<char>('0' + byte(i) % 75));
      literal = Scalar::MakeString(std::move(text));
      break;
    }
    case Type::kBinary:
    case Type::kLargeBinary:
    case Type::kBinaryView:
    case Type::kFixedSizeBinary: {
      std::string bytes;
      const size_t n = rng() % 6;
      for (size_t i = 0; i < n; ++i) bytes.push_back(static_cast<char>(byte(i)));
      literal = Scalar::MakeBinary(std::move(bytes));
      break;
    }
    case Type::kBool: literal = Scalar::MakeBool(bits % 2 == 0); break;
    default: break;
  }
  const cp::Expression f = cp::field(name);
  const cp::Expression v = cp::literal(literal);
  switch (rng() % 9) {
    case 0: return cp::equal(f, v);
    case 1: return cp::not_equal(f, v);
    case 2: return cp::less(f, v);
    case 3: return cp::less_equal(f, v);
    case 4: return cp::greater(f, v);
    case 5: return cp::greater_equal(f, v);
    case 6: return cp::is_null(f, rng() % 2 == 0);
    case 7: return cp::or_kleene(cp::equal(f, v), cp::is_valid(f));
    default: return cp::and_kleene(cp::greater_equal(f, v), cp::invert(cp::equal(f, v)));
  }
}

// Each column of `table` as one array.
std::vector<ArrayDataPtr> Flat(const Table& table) {
  std::vector<ArrayDataPtr> out;
  for (const auto& column : table.columns()) {
    std::vector<ArrayDataPtr> chunks;
    for (const ArrayPtr& chunk : column->chunks()) chunks.push_back(chunk->data());
    if (chunks.empty()) {  // (no rows: never compared)
      out.push_back(nullptr);
      continue;
    }
    auto one = chunks.size() == 1 ? Result<ArrayDataPtr>(chunks[0]) : Concatenate(chunks);
    if (!one.ok()) __builtin_trap();
    out.push_back(*one);
  }
  return out;
}

bool RowsEqual(const std::vector<ArrayDataPtr>& a, int64_t i, const std::vector<ArrayDataPtr>& b,
               int64_t j) {
  EqualOptions equal;
  equal.nans_equal = true;
  for (size_t c = 0; c < a.size(); ++c) {
    ChunkedArray x({MakeArray(a[c]->Slice(i, 1))}, a[c]->type);
    ChunkedArray y({MakeArray(b[c]->Slice(j, 1))}, b[c]->type);
    if (!x.Equals(y, equal)) return false;
  }
  return true;
}

void ReadFiltered(FileReader& reader, uint32_t seed, const uint8_t* data, size_t size) {
  std::minstd_rand rng(seed);
  const SchemaPtr& schema = reader.schema();
  if (schema->num_fields() == 0 || reader.num_rows() > (int64_t{1} << 20)) return;
  const auto& field = schema->field(static_cast<int>(rng() % schema->num_fields()));
  TypePtr type = field->type();
  if (type->id() == Type::kDictionary) type = TypeAs<DictionaryType>(*type).value_type();
  const compute::Expression filter = FilterOf(rng, field->name(), type, data, size);
  SetSkipPagesByOffsetIndex(reader, true);
  // Binding alone (no row group read): a filter the schema cannot take
  // fails both reads alike, whatever the data.
  auto bound = reader.ReadTable(filter, std::vector<std::string>{}, std::vector<int>{});
  auto got = reader.ReadTable(filter);
  if (!bound.ok()) {
    if (got.ok() || got.status().code() != bound.status().code()) __builtin_trap();
    return;
  }
  const ReadStats stats = reader.read_stats();
  const bool pruned = stats.row_groups_pruned_statistics + stats.row_groups_pruned_bloom +
                          stats.row_groups_pruned_dictionary + stats.pages_skipped >
                      0;
  Result<TablePtr> want = Status::Invalid("not read");
  auto all = reader.ReadTable();
  if (all.ok()) {
    want = compute::FilterByExpression(**all, filter);
  } else {
    want = all.status();
  }
  if (!got.ok()) {
    // Pushdown reads a page index or bloom filter before any page: an
    // error there is its own, whether or not the plain read fails later.
    const std::string& message = got.status().message();
    const bool pushdown_first =
        message.find("index") != std::string::npos || message.find("bloom") != std::string::npos;
    if (!want.ok()) {
      if (!pruned && !pushdown_first && got.status().code() != want.status().code()) {
        // Pushdown reads the filter's columns first; the plain read fails
        // at its first bad unit in file order: with two bad columns the
        // errors may differ, and pushdown's is then the filter columns'.
        auto first = reader.ReadTable(filter.FieldsReferenced());
        if (first.ok() || first.status().code() != got.status().code()) __builtin_trap();
      }
      return;
    }
    if (!pushdown_first) __builtin_trap();
    return;
  }
  if (!(*got)->ValidateFull().ok()) __builtin_trap();
  if (!want.ok()) return;  // pruning may spare a read the bytes it could not decode
  // (invalid_utf8='binary' decides per read: the two may type a leaf
  // differently.)
  if (!(*got)->schema()->Equals(*(*want)->schema())) return;
  if ((*got)->num_rows() > (*want)->num_rows()) __builtin_trap();
  if (!pruned && (*got)->num_rows() != (*want)->num_rows()) __builtin_trap();
  const auto a = Flat(**got);
  const auto b = Flat(**want);
  int64_t j = 0;
  for (int64_t i = 0; i < (*got)->num_rows(); ++i, ++j) {
    while (j < (*want)->num_rows() && !RowsEqual(a, i, b, j)) {
      if (!pruned) __builtin_trap();
      ++j;
    }
    if (j == (*want)->num_rows()) __builtin_trap();
  }
}

void ReadEverything(const std::shared_ptr<io::RandomAccessFile>& file, bool checksums,
                    bool invalid_utf8_as_binary, int64_t batch_size, uint32_t seed,
                    const uint8_t* data, size_t size) {
  ReaderOptions options;
  if (invalid_utf8_as_binary) options.invalid_utf8 = ReaderOptions::InvalidUtf8::kBinary;
  options.memory_limit = 256 << 20;
  options.page_checksum_verification = checksums;
  options.thrift_limits.container_size_limit = 10'000;
  options.thrift_limits.string_size_limit = 1'000'000;
  auto reader = FileReader::Open(file, options);
  if (!reader.ok()) return;
  // Bound the work on footers that claim many row groups or columns.
  if ((*reader)->num_row_groups() > 64 || ParquetSchemaOf(**reader).num_columns() > 256) return;
  auto batches = (*reader)->GetRecordBatchReader(std::nullopt, std::nullopt, batch_size);
  if (!batches.ok()) return;
  for (int i = 0; i < 10'000; ++i) {
    auto batch = (*batches)->Next();
    if (!batch.ok() || *batch == nullptr) break;
    if (!(*batch)->ValidateFull().ok()) __builtin_trap();
  }
  ReadSelections(**reader, seed);
  ReadFiltered(**reader, seed, data, size);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = std::make_shared<io::BufferReader>(Buffer::Wrap(data, static_cast<int64_t>(size)),
                                                 "fuzz.parquet");
  const uint8_t mode = size > 0 ? data[size - 1] : 0;
  static constexpr int64_t kBatchSizes[3] = {7, 100, 4096};
  // The selections' seed: a hash (FNV-1a) of the input's first bytes.
  uint32_t seed = 2166136261u;
  for (size_t i = 0; i < std::min<size_t>(size, 64); ++i) seed = (seed ^ data[i]) * 16777619u;
  ReadEverything(file, /*checksums=*/(mode & 4) != 0, /*invalid_utf8_as_binary=*/(mode & 8) != 0,
                 kBatchSizes[mode % 3], seed ^ static_cast<uint32_t>(size), data, size);
  return 0;
}
