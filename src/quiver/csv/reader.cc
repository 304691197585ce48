#include "quiver/csv/reader.h"

#include <algorithm>
#include <cstring>

#include "quiver/compute/filter.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/thread_pool.h"

namespace quiver::csv {

struct StreamingReader::Block {
  std::vector<uint8_t> bytes;
  TokenizedBlock tok;
  int64_t first_line = 1;
};

namespace {

std::string Shorten(std::string_view v, size_t max = 100) {
  if (v.size() <= max) return std::string(v);
  return std::string(v.substr(0, max)) + "...";
}

Status CheckOptions(const ReadOptions& read, const ParseOptions& parse,
                    const ConvertOptions& convert) {
  if (read.block_size <= 0) return Status::Invalid("block_size must be positive");
  if (read.skip_rows < 0) return Status::Invalid("skip_rows must be >= 0");
  std::string enc = read.encoding;
  std::transform(enc.begin(), enc.end(), enc.begin(), [](char c) { return std::tolower(c); });
  if (enc != "utf8" && enc != "utf-8" && enc != "utf_8") {
    return Status::NotImplemented("encoding '", read.encoding,
                                  "': the CSV reader reads UTF-8 (transcode first)");
  }
  for (char c : {parse.delimiter, parse.quote_char}) {
    if (c == '\n' || c == '\r') {
      return Status::Invalid("the delimiter and the quote character cannot be a line end");
    }
  }
  if (parse.quoting && parse.delimiter == parse.quote_char) {
    return Status::Invalid("the delimiter and the quote character must differ");
  }
  (void)convert;
  return Status::OK();
}

}  // namespace

StreamingReader::~StreamingReader() = default;

Result<std::unique_ptr<StreamingReader>> StreamingReader::Open(
    std::unique_ptr<io::InputStream> input, std::string name, const ReadOptions& read,
    const ParseOptions& parse, const ConvertOptions& convert, Reopen reopen,
    RejectSink reject_sink, MemoryPool* pool) {
  QUIVER_RETURN_NOT_OK(CheckOptions(read, parse, convert));
  if (convert.infer_rows == ConvertOptions::kInferAll && !reopen) {
    return Status::Invalid(name, ": inference over all rows reads the input twice; ",
                           "it needs a file, not a stream");
  }
  std::unique_ptr<StreamingReader> r(new StreamingReader());
  r->name_ = std::move(name);
  r->read_ = read;
  r->parse_ = parse;
  r->convert_ = convert;
  r->reopen_ = std::move(reopen);
  r->reject_sink_ = std::move(reject_sink);
  r->pool_ = pool;
  r->ctx_ = std::make_unique<ConvertContext>(convert, static_cast<uint8_t>(parse.quote_char));
  QUIVER_RETURN_NOT_OK(r->Start(std::move(input)));
  QUIVER_RETURN_NOT_OK(r->InferTypes());
  return r;
}

Status StreamingReader::Fill(int64_t want) {
  QUIVER_ASSIGN_OR_RAISE(auto chunk, input_->Read(want));
  if (chunk->size() == 0) {
    eof_ = true;
  } else {
    buf_.insert(buf_.end(), chunk->data(), chunk->data() + chunk->size());
  }
  return Status::OK();
}

Status StreamingReader::Start(std::unique_ptr<io::InputStream> input) {
  input_ = std::move(input);
  buf_.clear();
  eof_ = false;
  line_ = 1;
  bytes_read_ = 0;
  pending_.clear();
  while (!eof_ && buf_.size() < 3) QUIVER_RETURN_NOT_OK(Fill(read_.block_size));
  if (buf_.size() >= 3 && buf_[0] == 0xEF && buf_[1] == 0xBB && buf_[2] == 0xBF) {
    buf_.erase(buf_.begin(), buf_.begin() + 3);
    bytes_read_ = 3;
  }
  auto consume = [&](int64_t n) {
    line_ += std::count(buf_.begin(), buf_.begin() + n, '\n');
    bytes_read_ += n;
    buf_.erase(buf_.begin(), buf_.begin() + n);
  };
  // One row (or none at the end), tokenized on its own.
  auto one_row = [&](TokenizedBlock* tok) -> Status {
    while (true) {
      Tokenizer t(parse_, -1);
      if (buf_.empty() && !eof_) QUIVER_RETURN_NOT_OK(Fill(read_.block_size));
      Status st = t.Tokenize(buf_.data(), static_cast<int64_t>(buf_.size()), eof_, 1, tok);
      if (!st.ok()) return Status::Invalid(name_, ":", line_, ": ", st.message());
      if (tok->num_rows == 1 || eof_) return Status::OK();
      QUIVER_RETURN_NOT_OK(Fill(read_.block_size));
    }
  };
  TokenizedBlock tok;
  for (int64_t i = 0; i < read_.skip_rows; ++i) {
    QUIVER_RETURN_NOT_OK(one_row(&tok));
    if (tok.num_rows == 0) break;
    consume(tok.consumed);
  }
  if (read_.column_names.empty()) {
    QUIVER_RETURN_NOT_OK(one_row(&tok));
    if (tok.num_rows == 0) return Status::Invalid(name_, ": empty CSV file (no header row)");
    std::string tmp;
    names_.clear();
    for (int32_t c = 0; c < tok.num_columns; ++c) {
      names_.push_back(read_.autogenerate_column_names
                           ? "f" + std::to_string(c)
                           : std::string(tok.Value(0, c, static_cast<uint8_t>(parse_.quote_char),
                                                   &tmp)));
    }
    if (!read_.autogenerate_column_names) consume(tok.consumed);
  } else {
    names_ = read_.column_names;
  }
  tokenizer_ = std::make_unique<Tokenizer>(parse_, static_cast<int32_t>(names_.size()));
  // The output columns and their given types.
  selected_.clear();
  types_.clear();
  inferred_.clear();
  if (convert_.include_columns.empty()) {
    for (size_t i = 0; i < names_.size(); ++i) selected_.push_back(static_cast<int32_t>(i));
  } else {
    for (const std::string& want : convert_.include_columns) {
      auto it = std::find(names_.begin(), names_.end(), want);
      if (it == names_.end()) {
        return Status::KeyError(name_, ": column '", want,
                                "' in include_columns does not exist in the CSV file");
      }
      selected_.push_back(static_cast<int32_t>(it - names_.begin()));
    }
  }
  for (int32_t c : selected_) {
    auto it = convert_.column_types.find(names_[static_cast<size_t>(c)]);
    if (it != convert_.column_types.end()) {
      QUIVER_RETURN_NOT_OK(CheckConvertible(it->second));
      types_.push_back(it->second);
      inferred_.push_back(false);
    } else {
      types_.push_back(nullptr);
      inferred_.push_back(true);
    }
  }
  return Status::OK();
}

Result<bool> StreamingReader::NextBlock(Block* block) {
  while (true) {
    if (!eof_ && static_cast<int64_t>(buf_.size()) < read_.block_size) {
      QUIVER_RETURN_NOT_OK(Fill(read_.block_size - static_cast<int64_t>(buf_.size())));
    }
    if (buf_.empty() && eof_) return false;
    Status st = tokenizer_->Tokenize(buf_.data(), static_cast<int64_t>(buf_.size()), eof_, -1,
                                     &block->tok);
    if (!st.ok()) {
      const int64_t at = std::min<int64_t>(tokenizer_->error_offset(),
                                           static_cast<int64_t>(buf_.size()));
      return Status::Invalid(name_, ":", line_ + std::count(buf_.begin(), buf_.begin() + at, '\n'),
                             ": ", st.message());
    }
    if (block->tok.consumed == 0 && !eof_) {
      QUIVER_RETURN_NOT_OK(Fill(read_.block_size));  // a row longer than the buffer: read more
      continue;
    }
    const int64_t consumed = block->tok.consumed;
    block->first_line = line_;
    line_ += std::count(buf_.begin(), buf_.begin() + consumed, '\n');
    bytes_read_ += consumed;
    std::vector<uint8_t> rest = std::move(spare_bytes_);
    rest.clear();
    rest.reserve(static_cast<size_t>(read_.block_size) + (buf_.size() - consumed));
    rest.insert(rest.end(), buf_.begin() + consumed, buf_.end());
    spare_bytes_ = std::move(block->bytes);
    block->bytes = std::move(buf_);  // tok.data stays valid: the heap buffer moves
    buf_ = std::move(rest);
    return true;
  }
}

Status StreamingReader::InferTypes() {
  const bool any = std::find(inferred_.begin(), inferred_.end(), true) != inferred_.end();
  std::vector<ColumnInference> inference(selected_.size());
  auto feed = [&](const Block& b, int64_t max_rows) {
    for (size_t i = 0; i < selected_.size(); ++i) {
      if (inferred_[i]) inference[i].FeedBlock(*ctx_, b.tok, selected_[i], max_rows);
    }
  };
  if (any && convert_.infer_rows == ConvertOptions::kInferAll) {
    Block b;
    while (true) {
      QUIVER_ASSIGN_OR_RAISE(bool more, NextBlock(&b));
      if (!more) break;
      feed(b, b.tok.num_rows);
    }
    QUIVER_ASSIGN_OR_RAISE(auto again, reopen_());
    const auto names = names_;
    QUIVER_RETURN_NOT_OK(Start(std::move(again)));
    if (names_ != names) return Status::IOError(name_, ": the input changed between two reads");
  } else if (any) {
    const int64_t want = std::max<int64_t>(convert_.infer_rows, 1);
    int64_t seen = 0;
    bool first_block_done = false;
    while (seen < want || (convert_.infer_rows <= 0 && !first_block_done)) {
      auto b = std::make_unique<Block>();
      QUIVER_ASSIGN_OR_RAISE(bool more, NextBlock(b.get()));
      if (!more) break;
      const int64_t rows = convert_.infer_rows <= 0 ? b->tok.num_rows : want - seen;
      feed(*b, rows);
      seen += b->tok.num_rows;
      first_block_done = first_block_done || b->tok.num_rows > 0;
      pending_.push_back(std::move(b));
    }
    infer_rows_seen_ = seen;
  }
  FieldVector fields;
  for (size_t i = 0; i < selected_.size(); ++i) {
    if (inferred_[i]) types_[i] = InferKindType(inference[i].kind());
    fields.push_back(quiver::field(names_[static_cast<size_t>(selected_[i])], types_[i]));
  }
  schema_ = quiver::schema(std::move(fields));
  return Status::OK();
}

int64_t StreamingReader::LineOf(const Block& block, int64_t offset) const {
  return block.first_line + std::count(block.bytes.begin(), block.bytes.begin() + offset, '\n');
}

std::string StreamingReader::Where(const Block& block, int64_t offset) const {
  return name_ + ":" + std::to_string(LineOf(block, offset));
}

Status StreamingReader::Reject(const Block& block, int64_t row_start, int64_t row_end,
                               std::string reason) {
  ++rows_rejected_;
  if (!reject_sink_) return Status::OK();
  RejectedRow row{LineOf(block, row_start),
                  std::string_view(reinterpret_cast<const char*>(block.bytes.data()) + row_start,
                                   static_cast<size_t>(row_end - row_start)),
                  std::move(reason)};
  return reject_sink_(row);
}

Result<RecordBatchPtr> StreamingReader::ConvertBlock(Block* block) {
  const TokenizedBlock& tok = block->tok;
  const bool skip = convert_.on_error == OnError::kSkip;
  struct PendingReject {
    int64_t start, end;
    std::string reason;
  };
  std::vector<PendingReject> rejects;
  // Without skip, the first bad row in the block fails unless a value
  // before it does not convert (checked below, before this error is given).
  Status first_bad_row;
  int64_t first_bad_row_start = INT64_MAX;
  for (const BadRow& bad : tok.bad_rows) {
    std::string text(reinterpret_cast<const char*>(block->bytes.data()) + bad.row_start,
                     static_cast<size_t>(bad.row_end - bad.row_start));
    std::string reason = "expected " + std::to_string(names_.size()) + " columns, got " +
                         std::to_string(bad.num_fields);
    if (!skip) {
      first_bad_row_start = bad.row_start;
      first_bad_row =
          Status::Invalid(Where(*block, bad.row_start), ": ", reason, ": ", Shorten(text),
                          " (--on-error skip rejects such rows)");
      break;
    }
    rejects.push_back({bad.row_start, bad.row_end, std::move(reason)});
  }
  const int64_t n = tok.num_rows;
  std::vector<ArrayDataPtr> columns;
  std::vector<uint8_t> row_failed;
  std::string tmp;
  auto row_end = [&](int64_t r) { return int64_t{tok.row_ends[static_cast<size_t>(r)]}; };
  int64_t first_fail_row = -1;  // without skip: the first value that does not convert
  size_t first_fail_col = 0;
  const size_t k = selected_.size();
  std::vector<ArrayDataPtr> converted(k);
  std::vector<std::vector<int64_t>> failed_by_column(k);
  QUIVER_RETURN_NOT_OK(ParallelFor(
      static_cast<int64_t>(k),
      [&](int64_t i) -> Status {
        const size_t c = static_cast<size_t>(i);
        QUIVER_ASSIGN_OR_RAISE(converted[c], ConvertColumn(tok, selected_[c], types_[c], *ctx_,
                                                           &failed_by_column[c], pool_));
        return Status::OK();
      },
      k > 1 ? read_.thread_pool : nullptr));
  for (size_t i = 0; i < k; ++i) {
    ArrayDataPtr col = std::move(converted[i]);
    const std::vector<int64_t>& failed = failed_by_column[i];
    if (!failed.empty()) {
      const std::string& col_name = names_[static_cast<size_t>(selected_[i])];
      if (!skip) {
        if (first_fail_row < 0 || failed.front() < first_fail_row) {
          first_fail_row = failed.front();
          first_fail_col = i;
        }
        columns.push_back(std::move(col));
        continue;
      }
      if (row_failed.empty()) row_failed.assign(static_cast<size_t>(n), 0);
      for (int64_t r : failed) {
        if (row_failed[static_cast<size_t>(r)]) continue;
        row_failed[static_cast<size_t>(r)] = 1;
        rejects.push_back({tok.row_starts[static_cast<size_t>(r)], row_end(r),
                           "column '" + col_name + "': '" +
                               Shorten(tok.Value(r, selected_[i], ctx_->quote, &tmp)) +
                               "' is not a valid " + types_[i]->ToString()});
      }
    }
    columns.push_back(std::move(col));
  }
  if (first_fail_row >= 0 &&
      tok.row_starts[static_cast<size_t>(first_fail_row)] < first_bad_row_start) {
    const int64_t r = first_fail_row;
    const size_t i = first_fail_col;
    const std::string& col_name = names_[static_cast<size_t>(selected_[i])];
    const std::string value(tok.Value(r, selected_[i], ctx_->quote, &tmp));
    std::string why;
    if (inferred_[i]) {
      why = " (the type inferred from the first " + std::to_string(infer_rows_seen_) +
            " rows; infer from every row with --infer-rows all, or give the type with "
            "--schema '" + col_name + ":string')";
    } else {
      why = " (the type given for the column)";
    }
    return Status::Invalid(Where(*block, tok.row_starts[static_cast<size_t>(r)]), ": column '",
                           col_name, "' (number ", selected_[i] + 1, "): '", Shorten(value),
                           "' is not a valid ", types_[i]->ToString(), why);
  }
  if (!first_bad_row.ok()) return first_bad_row;
  std::sort(rejects.begin(), rejects.end(),
            [](const PendingReject& a, const PendingReject& b) { return a.start < b.start; });
  for (auto& rj : rejects) QUIVER_RETURN_NOT_OK(Reject(*block, rj.start, rj.end, std::move(rj.reason)));
  auto batch = std::make_shared<RecordBatch>(schema_, n, std::move(columns));
  if (!row_failed.empty()) {
    MutableBuffer mask(pool_);
    QUIVER_RETURN_NOT_OK(mask.Resize(bit_util::BytesForBits(n), 0));
    for (int64_t r = 0; r < n; ++r) {
      if (!row_failed[static_cast<size_t>(r)]) bit_util::SetBit(mask.data(), r);
    }
    auto mask_data = ArrayData::Make(boolean(), n, {nullptr, mask.Freeze()}, 0);
    QUIVER_ASSIGN_OR_RAISE(batch, compute::Filter(*batch, mask_data, {}, pool_));
  }
  rows_read_ += batch->num_rows();
  return batch;
}

Result<RecordBatchPtr> StreamingReader::Next() {
  while (true) {
    std::unique_ptr<Block> block;
    if (!pending_.empty()) {
      block = std::move(pending_.front());
      pending_.pop_front();
    } else {
      block = spare_block_ ? std::move(spare_block_) : std::make_unique<Block>();
      QUIVER_ASSIGN_OR_RAISE(bool more, NextBlock(block.get()));
      if (!more) return nullptr;
    }
    QUIVER_ASSIGN_OR_RAISE(auto batch, ConvertBlock(block.get()));
    spare_block_ = std::move(block);
    if (batch->num_rows() > 0) return batch;
  }
}

Result<std::vector<RecordBatchPtr>> ReadAll(StreamingReader* reader) {
  std::vector<RecordBatchPtr> batches;
  while (true) {
    QUIVER_ASSIGN_OR_RAISE(auto batch, reader->Next());
    if (batch == nullptr) break;
    batches.push_back(std::move(batch));
  }
  return batches;
}

}  // namespace quiver::csv
