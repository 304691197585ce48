// A filtered read with Quiver's C++ API: the rows of a Parquet file where a
// predicate holds, read with the filter pushed into the reader (row groups
// pruned by statistics, pages skipped through the page index, the other
// columns decoded only at the matches), then what the read did
// (FileReader::read_stats()).
//
//   build/release/examples/filtered_read --make demo.parquet
//   build/release/examples/filtered_read FILE [--where EXPR] [--columns a,b]
//                                             [--output OUT.parquet]
//
// --make FILE writes the demo file first (MakeDemoFile below), then reads
// it. Without --where the filter is the demo's, built with the expression
// API (DemoFilter); --where takes the CLI's grammar (compute::ParseWhere,
// docs/interfaces.md). --columns: the columns returned (default: all; the
// filter's columns need not be among them). --output writes the matching
// rows to a Parquet file.
//
// Output (stdout): the filter as pyarrow prints it, the matching rows'
// count, then one `key: value` line per read_stats counter.
// Exit codes: 0 ok, 1 the file cannot be written or read (or the filter
// names a missing column), 2 usage (bad arguments, a --where syntax error).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quiver/array/builder_binary.h"
#include "quiver/array/builder_primitive.h"
#include "quiver/compute/expression.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/writer/file_writer.h"

namespace {

using quiver::Result;
using quiver::Scalar;
using quiver::Status;
namespace qc = quiver::compute;
namespace parquet = quiver::parquet;

// The demo file: 1,000,000 rows sorted by id, 4 row groups of 250,000 rows,
// pages of 10,000 rows (25 per column chunk), zstd, statistics and page
// index on (the writer's defaults). Columns:
//   id        int64   0, 1, 2, ... (sorted: each page covers a narrow range)
//   category  string  "c0" .. "c7", id % 8 (dictionary-encoded)
//   value     double  a hash of id scaled to [0, 1000)
//   quantity  int32   id % 100
// id and value are distinct per row, so they are written PLAIN (no
// dictionary): a dictionary of unique values only costs a dictionary page.
constexpr int64_t kDemoRows = 1'000'000;
constexpr int64_t kDemoRowGroupRows = 250'000;
constexpr int64_t kDemoPageRows = 10'000;
constexpr int64_t kDemoBatchRows = 65'536;

Result<quiver::RecordBatchPtr> DemoBatch(const quiver::SchemaPtr& schema, int64_t first,
                                         int64_t rows) {
  quiver::Int64Builder id;
  quiver::StringBuilder category;
  quiver::DoubleBuilder value;
  quiver::Int32Builder quantity;
  QUIVER_RETURN_NOT_OK(id.Reserve(rows));
  QUIVER_RETURN_NOT_OK(category.Reserve(rows));
  QUIVER_RETURN_NOT_OK(category.ReserveData(rows * 2));
  QUIVER_RETURN_NOT_OK(value.Reserve(rows));
  QUIVER_RETURN_NOT_OK(quantity.Reserve(rows));
  const std::string names[8] = {"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"};
  for (int64_t i = first; i < first + rows; ++i) {
    id.UnsafeAppend(i);
    category.UnsafeAppend(names[i % 8]);
    // Knuth's multiplicative hash (exact in uint64), in thousandths.
    const uint64_t hash = static_cast<uint64_t>(i) * 2654435761u % 1'000'000u;
    value.UnsafeAppend(static_cast<double>(hash) / 1000.0);
    quantity.UnsafeAppend(static_cast<int32_t>(i % 100));
  }
  std::vector<quiver::ArrayDataPtr> columns(4);
  QUIVER_ASSIGN_OR_RAISE(columns[0], id.Finish());
  QUIVER_ASSIGN_OR_RAISE(columns[1], category.Finish());
  QUIVER_ASSIGN_OR_RAISE(columns[2], value.Finish());
  QUIVER_ASSIGN_OR_RAISE(columns[3], quantity.Finish());
  return quiver::RecordBatch::Make(schema, rows, std::move(columns));
}

Status MakeDemoFile(const std::string& path) {
  auto schema = quiver::schema({quiver::field("id", quiver::int64()),
                                quiver::field("category", quiver::utf8()),
                                quiver::field("value", quiver::float64()),
                                quiver::field("quantity", quiver::int32())});
  parquet::WriterOptions options;
  options.compression.default_value = quiver::compression::CompressionCodec::ZSTD;
  options.row_group_size = kDemoRowGroupRows;
  options.max_rows_per_page = kDemoPageRows;
  options.use_dictionary.by_column["id"] = false;
  options.use_dictionary.by_column["value"] = false;
  options.write_page_index = true;
  QUIVER_ASSIGN_OR_RAISE(auto writer, parquet::FileWriter::Open(path, schema, options));
  for (int64_t first = 0; first < kDemoRows; first += kDemoBatchRows) {
    const int64_t rows = std::min(kDemoBatchRows, kDemoRows - first);
    QUIVER_ASSIGN_OR_RAISE(auto batch, DemoBatch(schema, first, rows));
    QUIVER_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
  }
  return writer->Close();
}

// id >= 400000 and id < 405000 and category == 'c3' (the --where text that
// parses to the same expression): 5,000 ids in one page of row group 1, of
// which every eighth is in category c3.
qc::Expression DemoFilter() {
  return qc::and_kleene(
      qc::and_kleene(qc::greater_equal(qc::field("id"), qc::literal(Scalar::MakeInt64(400000))),
                     qc::less(qc::field("id"), qc::literal(Scalar::MakeInt64(405000)))),
      qc::equal(qc::field("category"), qc::literal(Scalar::MakeString("c3"))));
}

// The counters, with the names docs/interfaces.md gives read_stats' keys.
void PrintReadStats(const parquet::ReadStats& s) {
  for (const auto& [name, value] : s.Counters()) std::printf("%s: %" PRId64 "\n", name, value);
}

std::vector<std::string> SplitCommas(std::string_view text) {
  std::vector<std::string> out;
  while (true) {
    const size_t comma = text.find(',');
    out.emplace_back(text.substr(0, comma));
    if (comma == std::string_view::npos) return out;
    text.remove_prefix(comma + 1);
  }
}

struct Args {
  std::string path;
  bool make = false;
  std::optional<std::string> where;
  std::optional<std::vector<std::string>> columns;
  std::optional<std::string> output;
};

constexpr char kUsage[] =
    "usage: filtered_read --make FILE [--where EXPR] [--columns A,B] [--output OUT.parquet]\n"
    "       filtered_read FILE [--where EXPR] [--columns A,B] [--output OUT.parquet]\n";

// Nullopt (after printing why) for a bad command line.
std::optional<Args> ParseArgs(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool takes_value = arg == "--make" || arg == "--where" || arg == "--columns" ||
                             arg == "--output";
    if (takes_value && i + 1 >= argc) {
      std::fprintf(stderr, "filtered_read: %s needs a value\n%s", argv[i], kUsage);
      return std::nullopt;
    }
    if (arg == "--make" || !arg.starts_with("-")) {
      const char* path = arg == "--make" ? argv[++i] : argv[i];
      if (!args.path.empty()) {
        std::fprintf(stderr, "filtered_read: one file only (got %s and %s)\n%s",
                     args.path.c_str(), path, kUsage);
        return std::nullopt;
      }
      args.make = args.make || arg == "--make";
      args.path = path;
    } else if (arg == "--where") {
      args.where = argv[++i];
    } else if (arg == "--columns") {
      args.columns = SplitCommas(argv[++i]);
    } else if (arg == "--output") {
      args.output = argv[++i];
    } else {
      std::fprintf(stderr, "filtered_read: unknown option %s\n%s", argv[i], kUsage);
      return std::nullopt;
    }
  }
  if (args.path.empty()) {
    std::fprintf(stderr, "filtered_read: no file given\n%s", kUsage);
    return std::nullopt;
  }
  return args;
}

int Fail(const Status& status) {
  std::fprintf(stderr, "filtered_read: %s\n", status.ToString().c_str());
  return 1;
}

// The reader's errors name the file in most cases; this names it in all.
int FailReading(const Status& status, const std::string& path) {
  if (status.message().find(path) != std::string::npos) return Fail(status);
  return Fail(status.WithContext(path, ": "));
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Args> args = ParseArgs(argc, argv);
  if (!args.has_value()) return 2;

  qc::Expression filter = DemoFilter();
  if (args->where.has_value()) {
    auto parsed = qc::ParseWhere(*args->where);
    if (!parsed.ok()) {
      std::fprintf(stderr, "filtered_read: %s\n", parsed.status().message().c_str());
      return 2;
    }
    filter = *parsed;
  }
  if (args->make) {
    if (Status st = MakeDemoFile(args->path); !st.ok()) {
      return Fail(st.WithContext("writing ", args->path, ": "));
    }
    std::printf("wrote %s\n", args->path.c_str());
  }

  // The filtered read: only row groups and pages that may hold a match are
  // read; the filter's columns decode first, the others at the matches.
  auto reader = parquet::FileReader::Open(args->path);
  if (!reader.ok()) return FailReading(reader.status(), args->path);
  auto table = (*reader)->ReadTable(filter, args->columns);
  if (!table.ok()) return FailReading(table.status(), args->path);
  const parquet::ReadStats stats = (*reader)->read_stats();

  std::printf("filter: %s\n", filter.ToString().c_str());
  std::printf("rows: %" PRId64 " of %" PRId64 "\n", (*table)->num_rows(), (*reader)->num_rows());
  PrintReadStats(stats);

  if (args->output.has_value()) {
    parquet::WriterOptions options;
    options.fsync = false;
    if (Status st = parquet::WriteTable(**table, *args->output, options); !st.ok()) {
      return Fail(st.WithContext("writing ", *args->output, ": "));
    }
  }
  return 0;
}
