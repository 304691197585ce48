// IPC stream and file readers (see reader.h).
//
// ArrayLoader rebuilds arrays from a RecordBatch header and its body: it
// walks the schema's type tree in pre-order, taking one FieldNode per array
// and the buffers its layout needs (validity; values / offsets + data /
// views + variadic data buffers; none for null), exactly as the writer
// flattened them. Every buffer range is checked against the body and every
// buffer's size against what the node's length requires before the array
// is built; Array::Validate then checks the rest of the structure.
#include "quiver/ipc/reader.h"

#include <cstring>
#include <limits>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/io/memory.h"
#include "quiver/ipc/compression_internal.h"
#include "quiver/ipc/dictionary_internal.h"
#include "quiver/ipc/message_internal.h"
#include "quiver/ipc/metadata_internal.h"
#include "quiver/util/bit_util.h"

namespace quiver::ipc {

namespace {

using internal::DictionaryMemo;
using internal::FieldPath;
using internal::Message;
namespace fb = internal::fb;

constexpr uint8_t kZeroOffsets[8] = {};

// a * b, or an error if it does not fit in int64.
Result<int64_t> CheckedMultiply(int64_t a, int64_t b, const char* what) {
  int64_t out;
  if (__builtin_mul_overflow(a, b, &out)) {
    return Status::Invalid(what, ": ", a, " x ", b, " overflows");
  }
  return out;
}

Result<Compression> CompressionOf(const fb::RecordBatch& batch) {
  const fb::BodyCompression* compression = batch.compression();
  if (compression == nullptr) return Compression::kNone;
  if (compression->method() != fb::BodyCompressionMethod::BUFFER) {
    return Status::NotImplemented("IPC body compression method ",
                                  static_cast<int>(compression->method()));
  }
  switch (compression->codec()) {
    case fb::CompressionType::LZ4_FRAME: return Compression::kLz4Frame;
    case fb::CompressionType::ZSTD: return Compression::kZstd;
  }
  return Status::Invalid("unknown IPC compression codec ",
                         static_cast<int>(compression->codec()));
}

class ArrayLoader {
 public:
  ArrayLoader(const fb::RecordBatch& batch, std::shared_ptr<Buffer> body, Compression codec,
              const DictionaryMemo& memo, const IpcReadOptions& options)
      : batch_(batch), body_(std::move(body)), codec_(codec), memo_(memo), options_(options) {}

  Result<ArrayDataPtr> Load(const TypePtr& type, FieldPath* path, int depth) {
    if (depth > options_.max_recursion_depth) {
      return Status::Invalid("arrays nest deeper than the limit of ",
                             options_.max_recursion_depth, " levels");
    }
    const fb::FieldNode* node;
    QUIVER_ASSIGN_OR_RAISE(node, NextNode());
    const int64_t length = node->length();
    const int64_t null_count = node->null_count();
    if (length < 0 || null_count < 0 || null_count > length) {
      return Status::Invalid("field node ", node_index_ - 1, " has length ", length,
                             " and null count ", null_count);
    }
    const Type id = type->id();
    if (id == Type::kNull) return ArrayData::Make(type, length, {}, length);

    std::vector<std::shared_ptr<Buffer>> buffers;
    QUIVER_ASSIGN_OR_RAISE(auto validity, NextBuffer());
    if (null_count == 0) {
      validity = nullptr;
    } else {
      QUIVER_RETURN_NOT_OK(ExpectSize(*validity, bit_util::BytesForBits(length), "validity"));
    }
    buffers.push_back(std::move(validity));
    std::vector<ArrayDataPtr> children;
    ArrayDataPtr dictionary;

    switch (id) {
      case Type::kBool: {
        QUIVER_ASSIGN_OR_RAISE(auto bits, NextBuffer());
        QUIVER_RETURN_NOT_OK(ExpectSize(*bits, bit_util::BytesForBits(length), "boolean values"));
        buffers.push_back(std::move(bits));
        break;
      }
      case Type::kString:
      case Type::kBinary:
        QUIVER_RETURN_NOT_OK(LoadBinary<int32_t>(length, &buffers));
        break;
      case Type::kLargeString:
      case Type::kLargeBinary:
        QUIVER_RETURN_NOT_OK(LoadBinary<int64_t>(length, &buffers));
        break;
      case Type::kStringView:
      case Type::kBinaryView:
        QUIVER_RETURN_NOT_OK(LoadViews(length, &buffers));
        break;
      case Type::kList:
      case Type::kMap:
      case Type::kLargeList: {
        if (id == Type::kLargeList) {
          QUIVER_RETURN_NOT_OK(LoadOffsets<int64_t>(length, &buffers));
        } else {
          QUIVER_RETURN_NOT_OK(LoadOffsets<int32_t>(length, &buffers));
        }
        QUIVER_ASSIGN_OR_RAISE(auto child, LoadChild(*type, 0, path, depth));
        children.push_back(std::move(child));
        break;
      }
      case Type::kFixedSizeList: {
        QUIVER_ASSIGN_OR_RAISE(auto child, LoadChild(*type, 0, path, depth));
        QUIVER_ASSIGN_OR_RAISE(int64_t needed,
                               CheckedMultiply(length, TypeAs<ListType>(*type).list_size(),
                                               "fixed_size_list values"));
        if (child->length < needed) {
          return Status::Invalid("fixed_size_list of ", length, " lists needs ", needed,
                                 " values, its child has ", child->length);
        }
        children.push_back(std::move(child));
        break;
      }
      case Type::kStruct:
        for (int i = 0; i < type->num_fields(); ++i) {
          QUIVER_ASSIGN_OR_RAISE(auto child, LoadChild(*type, i, path, depth));
          if (child->length < length) {
            return Status::Invalid("struct of length ", length, " has a child of length ",
                                   child->length);
          }
          children.push_back(std::move(child));
        }
        break;
      case Type::kDictionary: {
        const auto& index_type = *TypeAs<DictionaryType>(*type).index_type();
        QUIVER_RETURN_NOT_OK(
            LoadFixedWidth(length, internal::FixedWidthBytes(index_type), &buffers));
        QUIVER_ASSIGN_OR_RAISE(int64_t dict_id, memo_.mapper().GetFieldId(*path));
        QUIVER_ASSIGN_OR_RAISE(dictionary, memo_.GetDictionary(dict_id));
        if (dictionary == nullptr) {
          return Status::Invalid("record batch uses dictionary id ", dict_id,
                                 " before any dictionary batch for it");
        }
        break;
      }
      default:
        if (!IsFixedWidth(id) || internal::FixedWidthBytes(*type) < 0) {
          return Status::NotImplemented("IPC: cannot read arrays of type ", type->ToString());
        }
        QUIVER_RETURN_NOT_OK(LoadFixedWidth(length, internal::FixedWidthBytes(*type), &buffers));
        break;
    }
    auto data = ArrayData::Make(type, length, std::move(buffers), std::move(children), null_count);
    data->dictionary = std::move(dictionary);
    return data;
  }

 private:
  Result<const fb::FieldNode*> NextNode() {
    const auto* nodes = batch_.nodes();
    if (nodes == nullptr || node_index_ >= static_cast<int64_t>(nodes->size())) {
      return Status::Invalid("record batch has ", nodes ? nodes->size() : 0,
                             " field nodes, the schema needs more");
    }
    return nodes->Get(static_cast<flatbuffers::uoffset_t>(node_index_++));
  }

  Result<std::shared_ptr<Buffer>> NextBuffer() {
    const auto* specs = batch_.buffers();
    if (specs == nullptr || buffer_index_ >= static_cast<int64_t>(specs->size())) {
      return Status::Invalid("record batch has ", specs ? specs->size() : 0,
                             " buffers, the schema needs more");
    }
    const int64_t index = buffer_index_++;
    const fb::Buffer* spec = specs->Get(static_cast<flatbuffers::uoffset_t>(index));
    const int64_t offset = spec->offset();
    const int64_t length = spec->length();
    if (offset < 0 || length < 0 || offset > body_->size() || length > body_->size() - offset) {
      return Status::Invalid("buffer ", index, " (offset ", offset, ", length ", length,
                             ") lies outside the ", body_->size(), "-byte message body");
    }
    std::shared_ptr<Buffer> buffer = SliceBuffer(body_, offset, length);
    if (codec_ != Compression::kNone) {
      auto decoded = internal::DecompressBodyBuffer(codec_, buffer,
                                                    options_.max_decompressed_buffer_size,
                                                    options_.pool);
      if (!decoded.ok()) return decoded.status().WithContext("buffer ", index, ": ");
      buffer = std::move(*decoded);
    }
    return internal::EnsureAligned(buffer, 8, options_.pool);
  }

  Status ExpectSize(const Buffer& buffer, int64_t needed, const char* what) const {
    if (buffer.size() < needed) {
      return Status::Invalid(what, " buffer ", buffer_index_ - 1, " has ", buffer.size(),
                             " bytes, ", needed, " needed");
    }
    return Status::OK();
  }

  Status LoadFixedWidth(int64_t length, int64_t width,
                        std::vector<std::shared_ptr<Buffer>>* buffers) {
    QUIVER_ASSIGN_OR_RAISE(auto values, NextBuffer());
    QUIVER_ASSIGN_OR_RAISE(int64_t needed, CheckedMultiply(length, width, "values"));
    QUIVER_RETURN_NOT_OK(ExpectSize(*values, needed, "values"));
    buffers->push_back(std::move(values));
    return Status::OK();
  }

  template <typename O>
  Status LoadOffsets(int64_t length, std::vector<std::shared_ptr<Buffer>>* buffers) {
    QUIVER_ASSIGN_OR_RAISE(auto offsets, NextBuffer());
    if (length == 0 && offsets->size() < static_cast<int64_t>(sizeof(O))) {
      // Writers may send no offsets at all for an empty array.
      offsets = Buffer::Wrap(kZeroOffsets, sizeof(O));
    }
    if (length == std::numeric_limits<int64_t>::max()) return Status::Invalid("length overflow");
    QUIVER_ASSIGN_OR_RAISE(int64_t needed, CheckedMultiply(length + 1, sizeof(O), "offsets"));
    QUIVER_RETURN_NOT_OK(ExpectSize(*offsets, needed, "offsets"));
    buffers->push_back(std::move(offsets));
    return Status::OK();
  }

  template <typename O>
  Status LoadBinary(int64_t length, std::vector<std::shared_ptr<Buffer>>* buffers) {
    QUIVER_RETURN_NOT_OK(LoadOffsets<O>(length, buffers));
    QUIVER_ASSIGN_OR_RAISE(auto data, NextBuffer());
    buffers->push_back(std::move(data));
    return Status::OK();
  }

  Status LoadViews(int64_t length, std::vector<std::shared_ptr<Buffer>>* buffers) {
    QUIVER_ASSIGN_OR_RAISE(auto views, NextBuffer());
    QUIVER_ASSIGN_OR_RAISE(int64_t needed, CheckedMultiply(length, 16, "views"));
    QUIVER_RETURN_NOT_OK(ExpectSize(*views, needed, "views"));
    buffers->push_back(std::move(views));
    const auto* counts = batch_.variadicBufferCounts();
    if (counts == nullptr || variadic_index_ >= static_cast<int64_t>(counts->size())) {
      return Status::Invalid("record batch lacks the variadic buffer count of a view field");
    }
    const int64_t count = counts->Get(static_cast<flatbuffers::uoffset_t>(variadic_index_++));
    const int64_t remaining =
        static_cast<int64_t>(batch_.buffers() ? batch_.buffers()->size() : 0) - buffer_index_;
    if (count < 0 || count > remaining) {
      return Status::Invalid("view field declares ", count, " data buffers, ", remaining,
                             " remain in the record batch");
    }
    for (int64_t i = 0; i < count; ++i) {
      QUIVER_ASSIGN_OR_RAISE(auto data, NextBuffer());
      buffers->push_back(std::move(data));
    }
    return Status::OK();
  }

  Result<ArrayDataPtr> LoadChild(const DataType& parent, int i, FieldPath* path, int depth) {
    path->push_back(i);
    auto child = Load(parent.field(i)->type(), path, depth + 1);
    path->pop_back();
    return child;
  }

  const fb::RecordBatch& batch_;
  std::shared_ptr<Buffer> body_;
  Compression codec_;
  const DictionaryMemo& memo_;
  const IpcReadOptions& options_;
  int64_t node_index_ = 0;
  int64_t buffer_index_ = 0;
  int64_t variadic_index_ = 0;
};

Status CheckBatchVectors(const fb::RecordBatch& batch) {
  QUIVER_RETURN_NOT_OK(internal::CheckVectorAlignment(batch.nodes(), "field node"));
  QUIVER_RETURN_NOT_OK(internal::CheckVectorAlignment(batch.buffers(), "buffer"));
  return internal::CheckVectorAlignment(batch.variadicBufferCounts(), "variadic buffer count");
}

Status ValidateArray(const ArrayDataPtr& data, const IpcReadOptions& options) {
  ArrayPtr array = MakeArray(data);
  QUIVER_RETURN_NOT_OK(array->Validate());
  if (options.validate_full) QUIVER_RETURN_NOT_OK(array->ValidateFull());
  return Status::OK();
}

// Shared by both readers: schema, dictionary memo, batch decoding.
class ReaderCore {
 public:
  explicit ReaderCore(IpcReadOptions options) : options_(std::move(options)) {
    if (options_.pool == nullptr) options_.pool = DefaultMemoryPool();
  }

  Status ReadSchema(const fb::Schema* schema) {
    if (schema == nullptr) return Status::Invalid("IPC input without a schema");
    if (schema->endianness() != fb::Endianness::Little) {
      return Status::NotImplemented("IPC data in big-endian byte order");
    }
    QUIVER_ASSIGN_OR_RAISE(schema_, internal::SchemaFromFlatbuffer(
                                        schema, options_.max_recursion_depth, &memo_));
    return Status::OK();
  }

  Result<RecordBatchPtr> ReadRecordBatch(const Message& message) {
    const fb::RecordBatch* batch = message.flatbuffer().header_as_RecordBatch();
    if (batch == nullptr) return Status::Invalid("record batch message without its header");
    auto result = LoadBatch(*batch, message.body());
    if (!result.ok()) return result.status().WithContext("IPC record batch: ");
    ++stats_.num_record_batches;
    return result;
  }

  // `allow_replacement`: streams may replace a dictionary, files may not.
  Status ReadDictionary(const Message& message, bool allow_replacement) {
    const fb::DictionaryBatch* batch = message.flatbuffer().header_as_DictionaryBatch();
    if (batch == nullptr) return Status::Invalid("dictionary message without its header");
    const int64_t id = batch->id();
    Status st = LoadDictionary(*batch, message.body(), allow_replacement);
    if (!st.ok()) return st.WithContext("IPC dictionary batch (id ", id, "): ");
    ++stats_.num_dictionary_batches;
    return Status::OK();
  }

  const SchemaPtr& schema() const { return schema_; }
  const IpcReadOptions& options() const { return options_; }
  const DictionaryMemo& memo() const { return memo_; }
  ReadStats& stats() { return stats_; }

 private:
  Result<RecordBatchPtr> LoadBatch(const fb::RecordBatch& batch,
                                   const std::shared_ptr<Buffer>& body) {
    QUIVER_ASSIGN_OR_RAISE(Compression codec, CompressionOf(batch));
    QUIVER_RETURN_NOT_OK(CheckBatchVectors(batch));
    const int64_t num_rows = batch.length();
    if (num_rows < 0) return Status::Invalid("negative row count ", num_rows);
    ArrayLoader loader(batch, body, codec, memo_, options_);
    std::vector<ArrayDataPtr> columns;
    columns.reserve(static_cast<size_t>(schema_->num_fields()));
    FieldPath path;
    for (int i = 0; i < schema_->num_fields(); ++i) {
      path.assign(1, i);
      auto column = loader.Load(schema_->field(i)->type(), &path, 1);
      if (!column.ok()) {
        return column.status().WithContext("column '", schema_->field(i)->name(), "': ");
      }
      if ((*column)->length != num_rows) {
        return Status::Invalid("column '", schema_->field(i)->name(), "' has ",
                               (*column)->length, " rows, the batch ", num_rows);
      }
      columns.push_back(std::move(*column));
    }
    QUIVER_ASSIGN_OR_RAISE(auto out, RecordBatch::Make(schema_, num_rows, std::move(columns)));
    QUIVER_RETURN_NOT_OK(out->Validate());
    if (options_.validate_full) QUIVER_RETURN_NOT_OK(out->ValidateFull());
    return out;
  }

  Status LoadDictionary(const fb::DictionaryBatch& batch, const std::shared_ptr<Buffer>& body,
                        bool allow_replacement) {
    const int64_t id = batch.id();
    if (!memo_.HasId(id)) return Status::Invalid("no field of the schema uses this id");
    const fb::RecordBatch* data = batch.data();
    if (data == nullptr) return Status::Invalid("dictionary batch without data");
    QUIVER_ASSIGN_OR_RAISE(Compression codec, CompressionOf(*data));
    QUIVER_RETURN_NOT_OK(CheckBatchVectors(*data));
    QUIVER_ASSIGN_OR_RAISE(TypePtr value_type, memo_.GetValueType(id));
    QUIVER_ASSIGN_OR_RAISE(FieldPath path, memo_.GetPath(id));
    ArrayLoader loader(*data, body, codec, memo_, options_);
    QUIVER_ASSIGN_OR_RAISE(auto values,
                           loader.Load(value_type, &path, static_cast<int>(path.size())));
    if (values->length != data->length()) {
      return Status::Invalid("dictionary has ", values->length, " values, its batch says ",
                             data->length());
    }
    QUIVER_RETURN_NOT_OK(ValidateArray(values, options_));
    QUIVER_ASSIGN_OR_RAISE(auto current, memo_.GetDictionary(id));
    if (batch.isDelta()) {
      if (current == nullptr) return Status::Invalid("delta before any dictionary");
      QUIVER_RETURN_NOT_OK(memo_.AppendDelta(id, values, options_.pool));
      ++stats_.num_dictionary_deltas;
      return Status::OK();
    }
    if (current != nullptr) {
      if (!allow_replacement) {
        return Status::Invalid("the IPC file format does not allow replacing a dictionary");
      }
      ++stats_.num_replaced_dictionaries;
    }
    return memo_.SetDictionary(id, std::move(values));
  }

  IpcReadOptions options_;
  SchemaPtr schema_;
  DictionaryMemo memo_;
  ReadStats stats_;
};

Status UnexpectedMessage(fb::MessageHeader type, const char* where) {
  if (type == fb::MessageHeader::Tensor || type == fb::MessageHeader::SparseTensor) {
    return Status::NotImplemented("IPC ", internal::MessageHeaderName(type),
                                  " messages are not supported");
  }
  return Status::Invalid("unexpected IPC ", internal::MessageHeaderName(type), " message ",
                         where);
}

}  // namespace

// --- Stream reader -----------------------------------------------------------------

class RecordBatchStreamReader::Impl {
 public:
  Impl(io::InputStream* stream, std::unique_ptr<io::InputStream> owned, const IpcReadOptions& options)
      : stream_(stream), owned_(std::move(owned)), core_(options) {}

  Status Open() {
    QUIVER_ASSIGN_OR_RAISE(auto message, NextMessage());
    if (message == nullptr) return Status::Invalid("empty IPC stream: no schema message");
    if (message->type() != fb::MessageHeader::Schema) {
      return Status::Invalid("IPC stream starts with a ",
                             internal::MessageHeaderName(message->type()),
                             " message instead of a schema");
    }
    return core_.ReadSchema(message->flatbuffer().header_as_Schema());
  }

  Result<RecordBatchPtr> Next() {
    while (!finished_) {
      QUIVER_ASSIGN_OR_RAISE(auto message, NextMessage());
      if (message == nullptr) {
        finished_ = true;
        break;
      }
      switch (message->type()) {
        case fb::MessageHeader::RecordBatch:
          return core_.ReadRecordBatch(*message);
        case fb::MessageHeader::DictionaryBatch:
          QUIVER_RETURN_NOT_OK(core_.ReadDictionary(*message, /*allow_replacement=*/true));
          break;
        default:
          return UnexpectedMessage(message->type(), "in a stream");
      }
    }
    return RecordBatchPtr();
  }

  ReaderCore& core() { return core_; }

 private:
  Result<std::unique_ptr<Message>> NextMessage() {
    auto message = internal::ReadMessage(stream_, core_.options().max_recursion_depth,
                                         core_.options().pool);
    if (message.ok() && *message != nullptr) ++core_.stats().num_messages;
    return message;
  }

  io::InputStream* stream_;
  std::unique_ptr<io::InputStream> owned_;
  ReaderCore core_;
  bool finished_ = false;
};

RecordBatchStreamReader::RecordBatchStreamReader(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
RecordBatchStreamReader::~RecordBatchStreamReader() = default;

Result<std::shared_ptr<RecordBatchStreamReader>> RecordBatchStreamReader::Open(
    io::InputStream* stream, const IpcReadOptions& options) {
  if (stream == nullptr) return Status::Invalid("no input stream");
  auto impl = std::make_unique<Impl>(stream, nullptr, options);
  QUIVER_RETURN_NOT_OK(impl->Open());
  return std::shared_ptr<RecordBatchStreamReader>(new RecordBatchStreamReader(std::move(impl)));
}

Result<std::shared_ptr<RecordBatchStreamReader>> RecordBatchStreamReader::Open(
    std::shared_ptr<Buffer> buffer, const IpcReadOptions& options) {
  if (buffer == nullptr) return Status::Invalid("no input buffer");
  auto reader = std::make_unique<io::BufferReader>(std::move(buffer));
  io::InputStream* stream = reader.get();
  auto impl = std::make_unique<Impl>(stream, std::move(reader), options);
  QUIVER_RETURN_NOT_OK(impl->Open());
  return std::shared_ptr<RecordBatchStreamReader>(new RecordBatchStreamReader(std::move(impl)));
}

SchemaPtr RecordBatchStreamReader::schema() const { return impl_->core().schema(); }
Result<RecordBatchPtr> RecordBatchStreamReader::Next() { return impl_->Next(); }
ReadStats RecordBatchStreamReader::stats() const { return impl_->core().stats(); }

// --- File reader -----------------------------------------------------------------------

class RecordBatchFileReader::Impl {
 public:
  Impl(std::shared_ptr<Buffer> file, const IpcReadOptions& options)
      : file_(std::move(file)), core_(options) {}

  Status Open() {
    static constexpr uint8_t kMagic[6] = {'A', 'R', 'R', 'O', 'W', '1'};
    const int64_t size = file_->size();
    // Magic, padding, footer length, magic, and at least a tiny footer.
    if (size < 8 + 8 + 4 + 6) {
      return Status::Invalid("IPC file of ", size, " bytes is too short");
    }
    const uint8_t* data = file_->data();
    if (std::memcmp(data, kMagic, 6) != 0) {
      return Status::Invalid("not an Arrow IPC file: missing the leading ARROW1 magic");
    }
    if (std::memcmp(data + size - 6, kMagic, 6) != 0) {
      return Status::Invalid("not an Arrow IPC file (or truncated): missing the trailing ARROW1");
    }
    const int32_t footer_length =
        bit_util::FromLittleEndian(bit_util::SafeLoad<int32_t>(data + size - 10));
    footer_start_ = size - 10 - footer_length;
    if (footer_length <= 0 || footer_start_ < 8) {
      return Status::Invalid("IPC file footer length ", footer_length, " does not fit in the ",
                             size, "-byte file");
    }
    QUIVER_ASSIGN_OR_RAISE(footer_buffer_,
                           internal::EnsureAligned(SliceBuffer(file_, footer_start_, footer_length),
                                                   8, core_.options().pool));
    QUIVER_ASSIGN_OR_RAISE(footer_, internal::VerifyFooter(footer_buffer_->data(),
                                                           footer_buffer_->size(),
                                                           core_.options().max_recursion_depth));
    if (footer_->version() < fb::MetadataVersion::V4 ||
        footer_->version() > fb::MetadataVersion::V5) {
      return Status::NotImplemented("IPC file metadata version ",
                                    static_cast<int>(footer_->version()));
    }
    QUIVER_RETURN_NOT_OK(core_.ReadSchema(footer_->schema()));
    metadata_ = internal::MetadataFromFlatbuffer(footer_->custom_metadata());
    QUIVER_RETURN_NOT_OK(internal::CheckVectorAlignment(footer_->recordBatches(), "block"));
    QUIVER_RETURN_NOT_OK(internal::CheckVectorAlignment(footer_->dictionaries(), "block"));
    if (const auto* blocks = footer_->recordBatches()) {
      for (const fb::Block* block : *blocks) batches_.push_back(*block);
    }
    if (const auto* blocks = footer_->dictionaries()) {
      for (const fb::Block* block : *blocks) dictionaries_.push_back(*block);
    }
    for (size_t i = 0; i < dictionaries_.size(); ++i) {
      QUIVER_ASSIGN_OR_RAISE(auto message, ReadBlock(dictionaries_[i]));
      if (message->type() != fb::MessageHeader::DictionaryBatch) {
        return UnexpectedMessage(message->type(), "in a dictionary block");
      }
      QUIVER_RETURN_NOT_OK(core_.ReadDictionary(*message, /*allow_replacement=*/false));
    }
    return Status::OK();
  }

  Result<RecordBatchPtr> ReadRecordBatch(int i) {
    if (i < 0 || i >= static_cast<int>(batches_.size())) {
      return Status::IndexError("record batch ", i, " out of range (the file has ",
                                batches_.size(), ")");
    }
    QUIVER_ASSIGN_OR_RAISE(auto message, ReadBlock(batches_[static_cast<size_t>(i)]));
    if (message->type() != fb::MessageHeader::RecordBatch) {
      return UnexpectedMessage(message->type(), "in a record batch block");
    }
    return core_.ReadRecordBatch(*message);
  }

  int num_record_batches() const { return static_cast<int>(batches_.size()); }
  int num_dictionaries() const { return core_.memo().num_dictionaries(); }
  const MetadataPtr& metadata() const { return metadata_; }
  ReaderCore& core() { return core_; }

 private:
  Result<std::unique_ptr<Message>> ReadBlock(const fb::Block& block) {
    if (block.offset() < 0 || block.offset() > footer_start_ ||
        block.metaDataLength() > footer_start_ - block.offset()) {
      return Status::Invalid("IPC file block at offset ", block.offset(),
                             " lies outside the data part of the file");
    }
    auto body_view = SliceBuffer(file_, 0, footer_start_);
    auto message = internal::ReadMessageAt(body_view, block.offset(), block.metaDataLength(),
                                           block.bodyLength(),
                                           core_.options().max_recursion_depth,
                                           core_.options().pool);
    if (message.ok()) ++core_.stats().num_messages;
    return message;
  }

  std::shared_ptr<Buffer> file_;
  ReaderCore core_;
  int64_t footer_start_ = 0;
  std::shared_ptr<Buffer> footer_buffer_;
  const fb::Footer* footer_ = nullptr;
  MetadataPtr metadata_;
  std::vector<fb::Block> batches_;
  std::vector<fb::Block> dictionaries_;
};

RecordBatchFileReader::RecordBatchFileReader(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
RecordBatchFileReader::~RecordBatchFileReader() = default;

Result<std::shared_ptr<RecordBatchFileReader>> RecordBatchFileReader::Open(
    std::shared_ptr<Buffer> file, const IpcReadOptions& options) {
  if (file == nullptr) return Status::Invalid("no input buffer");
  auto impl = std::make_unique<Impl>(std::move(file), options);
  QUIVER_RETURN_NOT_OK(impl->Open());
  return std::shared_ptr<RecordBatchFileReader>(new RecordBatchFileReader(std::move(impl)));
}

SchemaPtr RecordBatchFileReader::schema() const { return impl_->core().schema(); }
int RecordBatchFileReader::num_record_batches() const { return impl_->num_record_batches(); }
int RecordBatchFileReader::num_dictionaries() const { return impl_->num_dictionaries(); }
MetadataPtr RecordBatchFileReader::metadata() const { return impl_->metadata(); }
Result<RecordBatchPtr> RecordBatchFileReader::ReadRecordBatch(int i) {
  return impl_->ReadRecordBatch(i);
}
ReadStats RecordBatchFileReader::stats() const { return impl_->core().stats(); }

Result<TablePtr> RecordBatchFileReader::ReadTable() {
  std::vector<RecordBatchPtr> batches;
  for (int i = 0; i < num_record_batches(); ++i) {
    QUIVER_ASSIGN_OR_RAISE(auto batch, ReadRecordBatch(i));
    batches.push_back(std::move(batch));
  }
  return Table::FromRecordBatches(schema(), batches);
}

}  // namespace quiver::ipc
