// ColumnSummary builders (column_summary.h).
#include "quiver/parquet/pruning/column_summary.h"

#include <cmath>
#include <utility>

#include "quiver/parquet/metadata/file_metadata_internal.h"

namespace quiver::parquet {

namespace {

// A bound worth keeping: a valid value that is not NaN.
std::optional<Scalar> Bound(const Scalar& s) {
  if (!s.is_valid()) return std::nullopt;
  const Type id = s.type()->id();
  if ((id == Type::kFloat || id == Type::kDouble || id == Type::kHalfFloat) &&
      std::isnan(s.double_value())) {
    return std::nullopt;
  }
  return s;
}

bool IsByteArrayBound(const TypePtr& type) {
  if (type == nullptr) return true;
  const Type id = type->id();
  return IsBinaryLike(id) || IsLargeBinaryLike(id) || id == Type::kFixedSizeBinary;
}

}  // namespace

bool ColumnSummary::MayHaveNulls() const {
  return num_values > 0 && null_count.value_or(1) != 0;
}

bool ColumnSummary::MayHaveNaN() const {
  if (num_values <= 0 || nan_count == 0) return false;
  return !(null_count.has_value() && *null_count >= num_values);
}

bool ColumnSummary::MayHaveValues() const {
  if (num_values <= 0) return false;
  if (!null_count.has_value()) return true;
  const int64_t non_null = num_values - *null_count;
  if (non_null <= 0) return false;
  return !(nan_count.has_value() && *nan_count >= non_null);
}

ColumnSummary ColumnSummary::Unknown(int64_t num_values, bool required) {
  ColumnSummary s;
  s.num_values = num_values;
  if (required) s.null_count = 0;
  return s;
}

ColumnSummary ColumnSummary::FromStatistics(const Statistics* stats, int64_t num_values,
                                            bool required, bool use_bounds) {
  ColumnSummary s = Unknown(num_values, required);
  if (stats == nullptr) return s;
  if (!required) s.null_count = stats->null_count();
  s.nan_count = stats->nan_count();
  if (use_bounds && stats->has_min_max()) {
    s.min = Bound(stats->min());
    s.max = Bound(stats->max());
    s.min_exact = s.min.has_value() && stats->is_min_value_exact().value_or(false);
    s.max_exact = s.max.has_value() && stats->is_max_value_exact().value_or(false);
  }
  return s;
}

ColumnSummary ColumnSummary::FromColumnIndexPage(const ColumnIndex& index, int64_t page,
                                                 int64_t num_values, bool required) {
  ColumnSummary s = Unknown(num_values, required);
  if (page < 0 || page >= index.num_pages()) return s;
  const auto i = static_cast<size_t>(page);
  if (!required) {
    if (index.null_pages()[i]) {
      s.null_count = num_values;
    } else if (index.null_counts().has_value()) {
      s.null_count = (*index.null_counts())[i];
    }
  }
  if (index.nan_counts().has_value()) s.nan_count = (*index.nan_counts())[i];
  if (!index.null_pages()[i]) {
    s.min = Bound(index.min_values()[i]);
    s.max = Bound(index.max_values()[i]);
    const bool exact = !IsByteArrayBound(index.value_type());
    s.min_exact = s.min.has_value() && exact;
    s.max_exact = s.max.has_value() && exact;
  }
  return s;
}

bool StatisticsBoundsUsable(const FileMetaData& metadata, int column) {
  const format::FileMetaData& thrift = ThriftOf(metadata);
  if (thrift.column_orders.has_value()) return true;
  const Result<SchemaDescriptor>& schema = SchemaOf(metadata);
  if (!schema.ok() || column < 0 || column >= schema->num_columns()) return false;
  const format::Type physical = schema->column(column).physical_type;
  return physical != format::Type::kByteArray && physical != format::Type::kFixedLenByteArray;
}

bool IsFullyDictionaryEncoded(const ColumnChunkMetaData& chunk) {
  const auto stats = chunk.encoding_stats();
  if (!stats.has_value()) return false;
  bool dictionary_page = false;
  for (const auto& e : *stats) {
    if (e.page_type == PageType::kDictionaryPage) {
      dictionary_page = dictionary_page || e.count > 0;
    } else if (e.page_type == PageType::kDataPage || e.page_type == PageType::kDataPageV2) {
      if (e.count > 0 && e.encoding != Encoding::kPlainDictionary &&
          e.encoding != Encoding::kRleDictionary) {
        return false;
      }
    }
  }
  return dictionary_page;
}

}  // namespace quiver::parquet
