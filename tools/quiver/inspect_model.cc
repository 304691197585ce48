#include "inspect_model.h"

#include <cstring>

#include <fmt/format.h>

#include "cli_common.h"
#include "inspect_values.h"
#include "quiver/io/memory.h"
#include "quiver/parquet/metadata/column_chunk_internal.h"
#include "quiver/parquet/metadata/footer_internal.h"
#include "quiver/parquet/metadata/page_index_internal.h"
#include "quiver/util/crc32.h"

namespace quiver::cli {

namespace {

namespace format = parquet::format;

using parquet::kParquetMagicSize;
using parquet::RangeWithin;
// Deeper schemas are reported as a problem and not shown: every node's path
// repeats its ancestors', so a hostile chain would cost depth^2 memory.
constexpr size_t kMaxSchemaDepth = 100;

class Inspector {
 public:
  Inspector(const Buffer& data, const InspectOptions& options, InspectedFile* out)
      : data_(data.data()), file_(Buffer::Wrap(data.data(), data.size())), options_(options),
        out_(out) {}

  Status Run(int64_t size) {
    QUIVER_RETURN_NOT_OK(ReadFooter(size));
    BuildSchema();
    CheckRowGroups();
    for (size_t rg = 0; rg < out_->metadata.row_groups.size(); ++rg) {
      const auto& row_group = out_->metadata.row_groups[rg];
      auto& records = out_->chunks.emplace_back();
      records.reserve(row_group.columns.size());
      for (size_t col = 0; col < row_group.columns.size(); ++col) {
        ChunkRecord& record = records.emplace_back();
        record.row_group = static_cast<int>(rg);
        record.column = static_cast<int>(col);
        InspectChunk(row_group.columns[col], &record);
      }
    }
    return Status::OK();
  }

 private:
  Status ReadFooter(int64_t size) {
    out_->file_size = size;
    parquet::FooterOptions footer_options;
    footer_options.limits = options_.limits;
    QUIVER_ASSIGN_OR_RAISE(parquet::ParquetFooter footer,
                           parquet::ReadFooter(file_, footer_options));
    out_->footer_offset = footer.footer_offset;
    out_->footer_length = footer.footer_length;
    out_->metadata = std::move(footer.metadata);
    data_end_ = footer.footer_offset;
    return Status::OK();
  }

  // The flattened depth-first schema tree, walked without recursion (the
  // depth is as large as the footer says).
  void BuildSchema() {
    const auto& elements = out_->metadata.schema;
    if (elements.empty()) {
      out_->problems.push_back("the schema is empty (no root element)");
      return;
    }
    struct Open {
      int64_t remaining;
      size_t path_size;  // length of the path prefix of this group
    };
    std::vector<Open> open;
    std::string path;
    out_->schema.push_back(SchemaNode{0, 0, "", false});
    const auto& root = elements[0];
    if (!root.num_children.has_value() || *root.num_children < 0) {
      out_->problems.push_back("the schema root has no (or a negative) num_children");
      return;
    }
    open.push_back({*root.num_children, 0});
    for (size_t i = 1; i < elements.size(); ++i) {
      while (!open.empty() && open.back().remaining == 0) {
        path.resize(open.back().path_size);
        open.pop_back();
      }
      if (open.empty()) {
        out_->problems.push_back(fmt::format(
            "the schema has {} element(s) beyond the root's children", elements.size() - i));
        return;
      }
      if (open.size() > kMaxSchemaDepth) {
        out_->problems.push_back(fmt::format(
            "the schema nests deeper than {} levels; not shown beyond that", kMaxSchemaDepth));
        return;
      }
      --open.back().remaining;
      const auto& e = elements[i];
      SchemaNode node;
      node.element = static_cast<int>(i);
      node.depth = static_cast<int>(open.size());
      const size_t parent_size = path.size();
      node.path = path.empty() ? e.name : path + "." + e.name;
      const int32_t children = e.num_children.value_or(0);
      if (children < 0) {
        out_->problems.push_back(
            fmt::format("schema element {} ('{}') has num_children {}", i, e.name, children));
        return;
      }
      const bool is_group = children > 0 || (e.num_children.has_value() && !e.type.has_value());
      node.is_leaf = !is_group;
      if (node.is_leaf) {
        if (!e.type.has_value()) {
          out_->problems.push_back(
              fmt::format("schema leaf '{}' has no physical type", node.path));
        }
        out_->leaves.push_back(static_cast<int>(out_->schema.size()));
      }
      out_->schema.push_back(node);
      if (is_group) {
        path = node.path;
        open.push_back({children, parent_size});
      }
    }
    for (const auto& o : open) {
      if (o.remaining > 0) {
        out_->problems.push_back(
            fmt::format("the schema ends with {} child element(s) missing", o.remaining));
        break;
      }
    }
  }

  void CheckRowGroups() {
    const auto& meta = out_->metadata;
    int64_t rows = 0;
    bool overflow = false;
    for (size_t rg = 0; rg < meta.row_groups.size(); ++rg) {
      const auto& g = meta.row_groups[rg];
      if (g.num_rows < 0) {
        out_->problems.push_back(fmt::format("row group {} has {} rows", rg, g.num_rows));
      }
      if (__builtin_add_overflow(rows, g.num_rows, &rows)) overflow = true;
      if (g.columns.size() != out_->leaves.size()) {
        out_->problems.push_back(fmt::format("row group {} has {} column chunks; the schema has {} leaves",
                                             rg, g.columns.size(), out_->leaves.size()));
      }
    }
    if (overflow || rows != meta.num_rows) {
      out_->problems.push_back(fmt::format(
          "num_rows is {} but the row groups hold {} rows", meta.num_rows,
          overflow ? std::string("more than 2^63") : std::to_string(rows)));
    }
  }

  void Problem(ChunkRecord* record, std::string text) { record->problems.push_back(std::move(text)); }

  void InspectChunk(const format::ColumnChunk& chunk, ChunkRecord* record) {
    if (static_cast<size_t>(record->column) < out_->leaves.size()) record->leaf = record->column;
    if (!chunk.meta_data.has_value()) {
      Problem(record, chunk.crypto_metadata.has_value()
                          ? "the column metadata is encrypted; not inspected"
                          : "the column chunk has no metadata");
      return;
    }
    const auto& m = *chunk.meta_data;
    for (const auto& part : m.path_in_schema) {
      record->path += record->path.empty() ? part : "." + part;
    }
    if (const auto* leaf = out_->leaf_element(*record)) {
      const auto& node = out_->schema[static_cast<size_t>(out_->leaves[record->leaf])];
      if (node.path != record->path) {
        Problem(record, fmt::format("path_in_schema '{}' does not match the schema leaf '{}'",
                                    record->path, node.path));
      }
      if (leaf->type.has_value() && *leaf->type != m.type) {
        Problem(record, fmt::format("physical type {} differs from the schema's {}",
                                    TypeName(m.type), TypeName(*leaf->type)));
      }
    }
    if (chunk.file_path.has_value()) {
      Problem(record, fmt::format("the chunk is in another file ('{}'); pages not inspected",
                                  *chunk.file_path));
      return;
    }
    if (options_.walk_pages) WalkPages(m, record);
    if (options_.read_page_index) ReadPageIndex(chunk, record);
    if (m.bloom_filter_offset.has_value()) {
      const int64_t length = m.bloom_filter_length.value_or(0);
      if (!RangeWithin(*m.bloom_filter_offset, length, kParquetMagicSize, data_end_)) {
        Problem(record, fmt::format("bloom filter [{}, +{}) lies outside the data region [4, {})",
                                    *m.bloom_filter_offset, length, data_end_));
      }
    }
  }

  void WalkPages(const format::ColumnMetaData& m, ChunkRecord* record) {
    auto range = parquet::ColumnChunkRange(m, data_end_);
    if (!range.ok()) {
      Problem(record, range.status().message());
      return;
    }
    if (range->length > data_end_ - walked_bytes_) {
      Problem(record, "the column chunks overlap (together they are longer than the file); "
                      "pages not inspected");
      return;
    }
    walked_bytes_ += range->length;
    record->pages_walked = true;
    parquet::PageHeaderIterator pages(data_ + range->offset, range->length, range->offset,
                                      options_.limits);
    parquet::PageInfo info;
    int64_t data_values = 0;
    while (true) {
      auto next = pages.Next(&info);
      if (!next.ok()) {
        Problem(record, next.status().message());
        return;
      }
      if (!*next) break;
      PageRecord page;
      page.offset = info.offset;
      page.header_size = info.header_size;
      page.header = std::move(info.header);
      const auto& h = page.header;
      if (h.crc.has_value() && options_.verify_checksums) {
        page.crc_ok = Crc32(data_ + info.body_offset(), h.compressed_page_size) ==
                      static_cast<uint32_t>(*h.crc);
        if (!*page.crc_ok) {
          Problem(record, fmt::format("page {} at offset {}: CRC-32 mismatch", info.index,
                                      info.offset));
        }
      }
      CheckPageHeader(h, info.index, info.offset, m, record, &data_values);
      if (static_cast<int64_t>(page_records_) < options_.max_pages) {
        record->pages.push_back(std::move(page));
        ++page_records_;
      } else {
        ++record->pages_not_kept;
      }
    }
    if (data_values != m.num_values) {
      Problem(record, fmt::format("the data pages hold {} values; the column metadata says {}",
                                  data_values, m.num_values));
    }
  }

  // The page's own fields (parquet::CheckPageFields, as the reader checks
  // them; a v2 page's nulls also at most its values); the data pages'
  // values are summed.
  void CheckPageHeader(const format::PageHeader& h, int64_t index, int64_t pos,
                       const format::ColumnMetaData& m, ChunkRecord* record,
                       int64_t* data_values) {
    auto where = [&] { return fmt::format("page {} at offset {}: ", index, pos); };
    if (Status st = parquet::CheckPageFields(h, index); !st.ok()) {
      Problem(record, where() + st.message());
      return;
    }
    switch (h.type) {
      case format::PageType::kDataPage:
        *data_values += h.data_page_header->num_values;
        return;
      case format::PageType::kDataPageV2: {
        const auto& v2 = *h.data_page_header_v2;
        if (v2.num_nulls > v2.num_values) {
          Problem(record, where() + fmt::format("{} nulls among {} values", v2.num_nulls, v2.num_values));
        }
        *data_values += v2.num_values;
        return;
      }
      case format::PageType::kDictionaryPage:
      case format::PageType::kIndexPage:
        return;
    }
    Problem(record, where() + fmt::format("unknown page type {}", static_cast<int32_t>(h.type)));
  }

  // The struct, or nullopt after recording why it could not be read.
  template <typename T>
  std::optional<T> Recorded(Result<std::optional<T>> read, ChunkRecord* record) {
    if (!read.ok()) {
      Problem(record, read.status().message());
      return std::nullopt;
    }
    return std::move(*read);
  }

  void ReadPageIndex(const format::ColumnChunk& chunk, ChunkRecord* record) {
    record->column_index =
        Recorded(parquet::ReadColumnIndex(file_, chunk, data_end_, options_.limits), record);
    record->offset_index =
        Recorded(parquet::ReadOffsetIndex(file_, chunk, data_end_, options_.limits), record);
    if (record->column_index.has_value()) {
      const auto& ci = *record->column_index;
      const size_t n = ci.null_pages.size();
      if (ci.min_values.size() != n || ci.max_values.size() != n ||
          (ci.null_counts.has_value() && ci.null_counts->size() != n)) {
        Problem(record, "column index: its lists have different lengths");
      }
    }
    if (!record->offset_index.has_value()) return;
    const auto& locations = record->offset_index->page_locations;
    if (record->column_index.has_value() &&
        record->column_index->null_pages.size() != locations.size()) {
      Problem(record, fmt::format("column index has {} pages; offset index has {}",
                                  record->column_index->null_pages.size(), locations.size()));
    }
    // Compare with the data pages found by the walk (when all were kept).
    if (!record->pages_walked || record->pages_not_kept > 0 || !record->problems.empty()) return;
    std::vector<const PageRecord*> data_pages;
    for (const auto& p : record->pages) {
      if (p.header.type == format::PageType::kDataPage ||
          p.header.type == format::PageType::kDataPageV2) {
        data_pages.push_back(&p);
      }
    }
    if (data_pages.size() != locations.size()) {
      Problem(record, fmt::format("offset index lists {} pages; the chunk has {} data pages",
                                  locations.size(), data_pages.size()));
      return;
    }
    for (size_t i = 0; i < locations.size(); ++i) {
      const auto& loc = locations[i];
      const auto& page = *data_pages[i];
      const int64_t size = page.header_size + page.header.compressed_page_size;
      if (loc.offset != page.offset || loc.compressed_page_size != size) {
        Problem(record, fmt::format("offset index entry {} says [{}, +{}); the page is at [{}, +{})",
                                    i, loc.offset, loc.compressed_page_size, page.offset, size));
        return;
      }
    }
  }

  const uint8_t* data_;
  io::BufferReader file_;  // the same bytes, for the metadata layer
  const InspectOptions& options_;
  InspectedFile* out_;
  int64_t data_end_ = 0;      // the footer's offset
  int64_t walked_bytes_ = 0;  // total length of the chunks walked
  size_t page_records_ = 0;
};

}  // namespace

int64_t InspectedFile::num_problems() const {
  int64_t n = static_cast<int64_t>(problems.size());
  for (const auto& group : chunks) {
    for (const auto& c : group) n += static_cast<int64_t>(c.problems.size());
  }
  return n;
}

std::string InspectedFile::first_problem() const {
  if (!problems.empty()) return problems.front();
  for (const auto& group : chunks) {
    for (const auto& c : group) {
      if (!c.problems.empty()) {
        return fmt::format("row group {}, column {} ('{}'): {}", c.row_group, c.column,
                           c.path, c.problems.front());
      }
    }
  }
  return {};
}

Result<InspectedFile> InspectFile(const Buffer& data, std::string path,
                                  const InspectOptions& options) {
  InspectedFile file;
  file.path = std::move(path);
  Inspector inspector(data, options, &file);
  QUIVER_RETURN_NOT_OK(inspector.Run(data.size()));
  return file;
}

}  // namespace quiver::cli
