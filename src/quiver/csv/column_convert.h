// Columns of a tokenized block to Arrow arrays: type inference as
// pyarrow.csv's (arrow/csv/inference_internal.h: the kinds below are tried
// in this order and a column takes the first that every value fits), and
// conversion to an inferred or a given type. Values that do not convert are
// reported by row, so the reader can fail with a located error or reject
// the rows (--on-error skip).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/csv/options.h"
#include "quiver/csv/tokenizer.h"
#include "quiver/csv/value_parse.h"
#include "quiver/memory/memory_pool.h"

namespace quiver::csv {

enum class InferKind : uint8_t {
  kNull,
  kInt64,
  kBool,
  kDate32,
  kTime32,
  kTimestampS,
  kTimestampNs,
  kTimestampSUtc,
  kTimestampNsUtc,
  kDouble,
  kString,
  kBinary,
};
TypePtr InferKindType(InferKind kind);

// What conversion needs of ConvertOptions, prepared once.
struct ConvertContext {
  explicit ConvertContext(const ConvertOptions& options, uint8_t quote_char);
  StringMatcher nulls, trues, falses;
  bool strings_can_be_null;
  bool quoted_strings_can_be_null;
  bool check_utf8;
  char decimal_point;
  uint8_t quote;

  bool IsNull(std::string_view v, bool quoted, bool string_type) const {
    if (string_type && !strings_can_be_null) return false;
    if (quoted && !quoted_strings_can_be_null) return false;
    return nulls.Matches(v);
  }
  // Whether `v` (not null) is a value of `kind`.
  bool Fits(InferKind kind, std::string_view v) const;
};

// One column's inference state: the kinds every value so far fits.
class ColumnInference {
 public:
  void Feed(const ConvertContext& ctx, std::string_view v, bool quoted);
  void FeedBlock(const ConvertContext& ctx, const TokenizedBlock& block, int32_t col,
                 int64_t max_rows);
  InferKind kind() const;

 private:
  uint32_t candidates_ = (1u << (static_cast<int>(InferKind::kBinary) + 1)) - 1;
  std::string tmp_;
};

// Whether `type` is one the reader converts to (else NotImplemented,
// naming it).
Status CheckConvertible(const TypePtr& type);

// The column `col` of `block` as an array of `type`. Rows whose value does
// not convert are appended to *failed_rows (with a null in their slot).
Result<ArrayDataPtr> ConvertColumn(const TokenizedBlock& block, int32_t col, const TypePtr& type,
                                   const ConvertContext& ctx, std::vector<int64_t>* failed_rows,
                                   MemoryPool* pool = DefaultMemoryPool());

}  // namespace quiver::csv
