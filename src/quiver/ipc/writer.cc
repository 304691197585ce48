// IPC stream and file writers (see writer.h).
//
// A record batch body is laid out as the format prescribes (Arrow columnar
// format, "Record Batch Message"): a pre-order walk of the columns emits one
// FieldNode {length, null_count} per array and that array's buffers in
// layout order (validity first; none at all for null arrays); view types
// add their data-buffer count to variadicBufferCounts. Buffer offsets are
// relative to the body start and padded to the alignment.
#include "quiver/ipc/writer.h"

#include <cstring>
#include <limits>
#include <map>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/io/memory.h"
#include "quiver/ipc/compression_internal.h"
#include "quiver/ipc/dictionary_internal.h"
#include "quiver/ipc/metadata_internal.h"
#include "quiver/memory/mutable_buffer.h"
#include "quiver/util/bit_util.h"
#include "quiver/util/bitmap.h"

namespace quiver::ipc {

namespace {

using internal::DictionaryFieldMapper;
using internal::FieldPath;
namespace fb = internal::fb;

constexpr uint8_t kFileMagic[8] = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};
constexpr uint8_t kZeros[64] = {};

// --- Body assembly -------------------------------------------------------------

// The flattened nodes and buffers of one record batch (or dictionary batch).
class BodyAssembler {
 public:
  explicit BodyAssembler(const IpcWriteOptions& options) : options_(options) {}

  Status AddArray(const ArrayData& data, int depth) {
    if (depth > options_.max_recursion_depth) {
      return Status::Invalid("array nests deeper than the limit of ",
                             options_.max_recursion_depth, " levels");
    }
    const int64_t length = data.length;
    const int64_t offset = data.offset;
    if (length < 0 || offset < 0) {
      return Status::Invalid("array with negative length or offset");
    }
    const Type id = data.type->id();
    if (id == Type::kNull) {
      nodes_.emplace_back(length, length);
      return Status::OK();
    }
    const int64_t null_count = data.GetNullCount();
    nodes_.emplace_back(length, null_count);
    // Validity: omitted (empty) when there are no nulls.
    if (null_count == 0 || data.validity() == nullptr) {
      buffers_.push_back(Buffer::Empty());
    } else {
      QUIVER_ASSIGN_OR_RAISE(auto bitmap, BitmapRange(data.buffers[0], offset, length));
      buffers_.push_back(std::move(bitmap));
    }
    switch (id) {
      case Type::kBool: {
        QUIVER_RETURN_NOT_OK(CheckBuffers(data, 2));
        QUIVER_ASSIGN_OR_RAISE(auto bits, BitmapRange(data.buffers[1], offset, length));
        buffers_.push_back(std::move(bits));
        return Status::OK();
      }
      case Type::kString:
      case Type::kBinary:
        return AddBinary<int32_t>(data);
      case Type::kLargeString:
      case Type::kLargeBinary:
        return AddBinary<int64_t>(data);
      case Type::kStringView:
      case Type::kBinaryView:
        return AddViews(data);
      case Type::kList:
      case Type::kMap:
        return AddList<int32_t>(data, depth);
      case Type::kLargeList:
        return AddList<int64_t>(data, depth);
      case Type::kFixedSizeList: {
        if (data.children.size() != 1) return Status::Invalid("fixed_size_list without child");
        const int64_t size = TypeAs<ListType>(*data.type).list_size();
        const auto& child = data.children[0];
        if (child->length < (offset + length) * size) {
          return Status::Invalid("fixed_size_list child has ", child->length,
                                 " values, the list needs ", (offset + length) * size);
        }
        return AddArray(*child->Slice(offset * size, length * size), depth + 1);
      }
      case Type::kStruct: {
        if (static_cast<int>(data.children.size()) != data.type->num_fields()) {
          return Status::Invalid("struct array has ", data.children.size(),
                                 " children, its type ", data.type->num_fields());
        }
        for (const auto& child : data.children) {
          if (child->length < offset + length) {
            return Status::Invalid("struct child has ", child->length, " values, the struct needs ",
                                   offset + length);
          }
          if (offset == 0 && child->length == length) {
            QUIVER_RETURN_NOT_OK(AddArray(*child, depth + 1));
          } else {
            QUIVER_RETURN_NOT_OK(AddArray(*child->Slice(offset, length), depth + 1));
          }
        }
        return Status::OK();
      }
      case Type::kDictionary: {
        const auto& index_type = *TypeAs<DictionaryType>(*data.type).index_type();
        return AddFixedWidth(data, internal::FixedWidthBytes(index_type));
      }
      default:
        if (!IsFixedWidth(id) || internal::FixedWidthBytes(*data.type) < 0) {
          return Status::NotImplemented("IPC: cannot write arrays of type ",
                                        data.type->ToString());
        }
        return AddFixedWidth(data, internal::FixedWidthBytes(*data.type));
    }
  }

  // Compresses (if asked) and lays out the buffers; builds the RecordBatch
  // table. `body` receives the buffers to write, in order.
  Result<flatbuffers::Offset<fb::RecordBatch>> Finish(flatbuffers::FlatBufferBuilder& fbb,
                                                      int64_t length,
                                                      std::vector<std::shared_ptr<Buffer>>* body,
                                                      int64_t* body_length, WriteStats* stats) {
    std::vector<fb::Buffer> specs;
    specs.reserve(buffers_.size());
    int64_t position = 0;
    for (auto& buffer : buffers_) {
      stats->total_raw_body_size += buffer->size();
      if (options_.compression != Compression::kNone && buffer->size() > 0) {
        int level = options_.compression_level.value_or(
            options_.compression == Compression::kZstd ? 1 : 0);
        QUIVER_ASSIGN_OR_RAISE(buffer,
                               internal::CompressBodyBuffer(options_.compression, level,
                                                            buffer->data(), buffer->size(),
                                                            options_.pool));
      }
      specs.emplace_back(position, buffer->size());
      position += bit_util::RoundUp(buffer->size(), options_.alignment);
      body->push_back(buffer);
    }
    *body_length = position;
    stats->total_serialized_body_size += position;
    auto nodes = fbb.CreateVectorOfStructs(nodes_);
    auto buffers = fbb.CreateVectorOfStructs(specs);
    flatbuffers::Offset<fb::BodyCompression> compression;
    if (options_.compression == Compression::kLz4Frame) {
      compression = fb::CreateBodyCompression(fbb, fb::CompressionType::LZ4_FRAME);
    } else if (options_.compression == Compression::kZstd) {
      compression = fb::CreateBodyCompression(fbb, fb::CompressionType::ZSTD);
    }
    flatbuffers::Offset<flatbuffers::Vector<int64_t>> variadic;
    if (!variadic_counts_.empty()) variadic = fbb.CreateVector(variadic_counts_);
    return fb::CreateRecordBatch(fbb, length, nodes, buffers, compression, variadic);
  }

 private:
  static Status CheckBuffers(const ArrayData& data, size_t n) {
    if (data.buffers.size() < n) {
      return Status::Invalid(data.type->ToString(), " array has ", data.buffers.size(),
                             " buffers, expected ", n);
    }
    for (size_t i = 1; i < n; ++i) {
      if (data.buffers[i] == nullptr) {
        return Status::Invalid(data.type->ToString(), " array has no buffer ", i);
      }
    }
    return Status::OK();
  }

  // Bits [offset, offset + length) of a bitmap, starting at bit 0.
  Result<std::shared_ptr<Buffer>> BitmapRange(const std::shared_ptr<Buffer>& bitmap,
                                              int64_t offset, int64_t length) const {
    const int64_t nbytes = bit_util::BytesForBits(length);
    if (length == 0) return Buffer::Empty();
    if (bitmap == nullptr || bitmap->size() < bit_util::BytesForBits(offset + length)) {
      return Status::Invalid("bitmap too short for ", offset + length, " bits");
    }
    if (offset % 8 == 0) return SliceBuffer(bitmap, offset / 8, nbytes);
    MutableBuffer out(options_.pool);
    QUIVER_RETURN_NOT_OK(out.Resize(nbytes, 0));
    bitmap::CopyBitmap(bitmap->data(), offset, length, out.data(), 0);
    return out.Freeze();
  }

  Status AddFixedWidth(const ArrayData& data, int64_t width) {
    QUIVER_RETURN_NOT_OK(CheckBuffers(data, 2));
    const auto& values = data.buffers[1];
    if (values->size() < (data.offset + data.length) * width) {
      return Status::Invalid(data.type->ToString(), " values buffer has ", values->size(),
                             " bytes, ", (data.offset + data.length) * width, " needed");
    }
    buffers_.push_back(SliceBuffer(values, data.offset * width, data.length * width));
    return Status::OK();
  }

  // Offsets of [offset, offset + length] re-based to start at 0; returns
  // the range of values they cover.
  template <typename O>
  Result<std::pair<int64_t, int64_t>> AddOffsets(const ArrayData& data) {
    const int64_t length = data.length;
    if (length == 0) {
      // One zero offset, so that every reader finds offsets[0].
      buffers_.push_back(Buffer::Wrap(kZeros, sizeof(O)));
      return std::make_pair(int64_t{0}, int64_t{0});
    }
    const auto& offsets = data.buffers[1];
    const int64_t needed = (data.offset + length + 1) * static_cast<int64_t>(sizeof(O));
    if (offsets->size() < needed) {
      return Status::Invalid(data.type->ToString(), " offsets buffer has ", offsets->size(),
                             " bytes, ", needed, " needed");
    }
    const O* src = offsets->data_as<O>() + data.offset;
    const int64_t start = src[0];
    const int64_t end = src[length];
    if (start < 0 || end < start) {
      return Status::Invalid(data.type->ToString(), " offsets out of order: ", start, " .. ", end);
    }
    if (start == 0) {
      buffers_.push_back(SliceBuffer(offsets, data.offset * static_cast<int64_t>(sizeof(O)),
                                     (length + 1) * static_cast<int64_t>(sizeof(O))));
    } else {
      MutableBuffer out(options_.pool);
      QUIVER_RETURN_NOT_OK(out.Reserve((length + 1) * static_cast<int64_t>(sizeof(O))));
      for (int64_t i = 0; i <= length; ++i) out.UnsafeAppend(static_cast<O>(src[i] - start));
      buffers_.push_back(out.Freeze());
    }
    return std::make_pair(start, end - start);
  }

  template <typename O>
  Status AddBinary(const ArrayData& data) {
    QUIVER_RETURN_NOT_OK(CheckBuffers(data, 3));
    QUIVER_ASSIGN_OR_RAISE(auto range, AddOffsets<O>(data));
    const auto& values = data.buffers[2];
    if (range.first + range.second > values->size()) {
      return Status::Invalid(data.type->ToString(), " offsets reach byte ",
                             range.first + range.second, " of a ", values->size(),
                             "-byte data buffer");
    }
    buffers_.push_back(SliceBuffer(values, range.first, range.second));
    return Status::OK();
  }

  template <typename O>
  Status AddList(const ArrayData& data, int depth) {
    QUIVER_RETURN_NOT_OK(CheckBuffers(data, 2));
    if (data.children.size() != 1) {
      return Status::Invalid(data.type->ToString(), " array without its child array");
    }
    QUIVER_ASSIGN_OR_RAISE(auto range, AddOffsets<O>(data));
    const auto& child = data.children[0];
    if (range.first + range.second > child->length) {
      return Status::Invalid(data.type->ToString(), " offsets reach value ",
                             range.first + range.second, " of a child of length ", child->length);
    }
    if (range.first == 0 && range.second == child->length) {
      return AddArray(*child, depth + 1);
    }
    return AddArray(*child->Slice(range.first, range.second), depth + 1);
  }

  Status AddViews(const ArrayData& data) {
    if (data.buffers.size() < 2 || data.buffers[1] == nullptr) {
      return Status::Invalid(data.type->ToString(), " array without its views buffer");
    }
    const auto& views = data.buffers[1];
    if (views->size() < (data.offset + data.length) * 16) {
      return Status::Invalid(data.type->ToString(), " views buffer has ", views->size(),
                             " bytes, ", (data.offset + data.length) * 16, " needed");
    }
    buffers_.push_back(SliceBuffer(views, data.offset * 16, data.length * 16));
    int64_t count = 0;
    for (size_t i = 2; i < data.buffers.size(); ++i) {
      buffers_.push_back(data.buffers[i] ? data.buffers[i] : Buffer::Empty());
      ++count;
    }
    variadic_counts_.push_back(count);
    return Status::OK();
  }

  const IpcWriteOptions& options_;
  std::vector<fb::FieldNode> nodes_;
  std::vector<std::shared_ptr<Buffer>> buffers_;
  std::vector<int64_t> variadic_counts_;
};

// One message ready to write.
struct Payload {
  std::shared_ptr<Buffer> metadata;  // framed: prefix, flatbuffer, padding
  std::vector<std::shared_ptr<Buffer>> body;
  int64_t body_length = 0;
};

Result<Payload> MakeRecordBatchPayload(const std::vector<ArrayDataPtr>& columns, int64_t length,
                                       const IpcWriteOptions& options, WriteStats* stats) {
  BodyAssembler assembler(options);
  for (const auto& column : columns) QUIVER_RETURN_NOT_OK(assembler.AddArray(*column, 1));
  Payload payload;
  flatbuffers::FlatBufferBuilder fbb;
  QUIVER_ASSIGN_OR_RAISE(auto batch,
                         assembler.Finish(fbb, length, &payload.body, &payload.body_length, stats));
  QUIVER_ASSIGN_OR_RAISE(payload.metadata,
                         internal::FinishMessage(fbb, fb::MessageHeader::RecordBatch, batch.Union(),
                                                 payload.body_length, options.alignment,
                                                 options.pool));
  return payload;
}

Result<Payload> MakeDictionaryPayload(int64_t id, const ArrayDataPtr& dictionary, bool is_delta,
                                      const IpcWriteOptions& options, WriteStats* stats) {
  BodyAssembler assembler(options);
  QUIVER_RETURN_NOT_OK(assembler.AddArray(*dictionary, 1));
  Payload payload;
  flatbuffers::FlatBufferBuilder fbb;
  QUIVER_ASSIGN_OR_RAISE(auto batch, assembler.Finish(fbb, dictionary->length, &payload.body,
                                                      &payload.body_length, stats));
  auto dict_batch = fb::CreateDictionaryBatch(fbb, id, batch, is_delta);
  QUIVER_ASSIGN_OR_RAISE(payload.metadata,
                         internal::FinishMessage(fbb, fb::MessageHeader::DictionaryBatch,
                                                 dict_batch.Union(), payload.body_length,
                                                 options.alignment, options.pool));
  return payload;
}

// --- Writer ----------------------------------------------------------------------

class IpcWriter final : public RecordBatchWriter {
 public:
  IpcWriter(io::OutputStream* sink, SchemaPtr schema, IpcWriteOptions options, bool file_format)
      : sink_(sink), schema_(std::move(schema)), options_(std::move(options)),
        file_format_(file_format) {}

  Status Start() {
    if (sink_ == nullptr) return Status::Invalid("IPC writer without a sink");
    if (schema_ == nullptr) return Status::Invalid("IPC writer without a schema");
    if (options_.alignment < 8 || !bit_util::IsPowerOf2(int64_t{options_.alignment}) ||
        options_.alignment > 64) {
      return Status::Invalid("IPC alignment must be a power of two from 8 to 64, got ",
                             options_.alignment);
    }
    if (options_.pool == nullptr) options_.pool = DefaultMemoryPool();
    QUIVER_ASSIGN_OR_RAISE(
        mapper_, DictionaryFieldMapper::FromSchema(*schema_, options_.max_recursion_depth));
    if (file_format_) QUIVER_RETURN_NOT_OK(WriteBytes(kFileMagic, sizeof(kFileMagic)));
    QUIVER_ASSIGN_OR_RAISE(auto message, internal::MakeSchemaMessage(*schema_, mapper_,
                                                                     options_.alignment,
                                                                     options_.pool));
    QUIVER_RETURN_NOT_OK(WriteBytes(message->data(), message->size()));
    ++stats_.num_messages;
    return Status::OK();
  }

  Status WriteRecordBatch(const RecordBatch& batch) override {
    if (closed_) return Status::Invalid("IPC writer is closed");
    if (!batch.schema()->Equals(*schema_)) {
      return Status::Invalid("record batch schema does not match the writer's:\n",
                             batch.schema()->ToString(), "\nvs\n", schema_->ToString());
    }
    for (int i = 0; i < batch.num_columns(); ++i) {
      if (batch.column_data(i)->length != batch.num_rows()) {
        return Status::Invalid("column ", i, " has ", batch.column_data(i)->length,
                               " rows, the batch ", batch.num_rows());
      }
    }
    QUIVER_RETURN_NOT_OK(WriteDictionaries(batch));
    QUIVER_ASSIGN_OR_RAISE(Payload payload, MakeRecordBatchPayload(batch.columns_data(),
                                                                   batch.num_rows(), options_,
                                                                   &stats_));
    QUIVER_ASSIGN_OR_RAISE(auto block, WritePayload(payload));
    record_batch_blocks_.push_back(block);
    ++stats_.num_record_batches;
    return Status::OK();
  }

  Status Close() override {
    if (closed_) return Status::OK();
    closed_ = true;
    // End-of-stream marker (also in files, for sequential readers).
    const uint32_t eos[2] = {bit_util::ToLittleEndian(internal::kContinuation), 0};
    QUIVER_RETURN_NOT_OK(WriteBytes(eos, sizeof(eos)));
    if (!file_format_) return Status::OK();
    flatbuffers::FlatBufferBuilder fbb;
    QUIVER_ASSIGN_OR_RAISE(auto schema, internal::SchemaToFlatbuffer(fbb, *schema_, mapper_));
    auto dictionaries = fbb.CreateVectorOfStructs(dictionary_blocks_);
    auto batches = fbb.CreateVectorOfStructs(record_batch_blocks_);
    auto metadata = internal::MetadataToFlatbuffer(fbb, options_.footer_metadata);
    fbb.Finish(fb::CreateFooter(fbb, fb::MetadataVersion::V5, schema, dictionaries, batches,
                                metadata));
    const int64_t footer_size = fbb.GetSize();
    if (footer_size > std::numeric_limits<int32_t>::max()) {
      return Status::CapacityError("IPC file footer exceeds 2 GiB");
    }
    QUIVER_RETURN_NOT_OK(WriteBytes(fbb.GetBufferPointer(), footer_size));
    const int32_t footer_length = bit_util::ToLittleEndian(static_cast<int32_t>(footer_size));
    QUIVER_RETURN_NOT_OK(WriteBytes(&footer_length, 4));
    return WriteBytes(kFileMagic, 6);
  }

  WriteStats stats() const override { return stats_; }

 private:
  Status WriteBytes(const void* data, int64_t size) {
    QUIVER_RETURN_NOT_OK(sink_->Write(data, size));
    position_ += size;
    return Status::OK();
  }

  Result<fb::Block> WritePayload(const Payload& payload) {
    const int64_t offset = position_;
    QUIVER_RETURN_NOT_OK(WriteBytes(payload.metadata->data(), payload.metadata->size()));
    for (const auto& buffer : payload.body) {
      QUIVER_RETURN_NOT_OK(WriteBytes(buffer->data(), buffer->size()));
      const int64_t padding =
          bit_util::RoundUp(buffer->size(), options_.alignment) - buffer->size();
      QUIVER_RETURN_NOT_OK(WriteBytes(kZeros, padding));
    }
    ++stats_.num_messages;
    return fb::Block(offset, static_cast<int32_t>(payload.metadata->size()), payload.body_length);
  }

  // Finds the dictionaries of dictionary-encoded arrays (nested ones first)
  // with their ids.
  Status CollectDictionaries(const ArrayData& data, FieldPath* path, int depth,
                             std::vector<std::pair<int64_t, ArrayDataPtr>>* out) {
    if (depth > options_.max_recursion_depth) {
      return Status::Invalid("array nests deeper than the limit of ",
                             options_.max_recursion_depth, " levels");
    }
    const ArrayData* values = &data;
    if (data.type->id() == Type::kDictionary) {
      if (data.dictionary == nullptr) {
        return Status::Invalid("dictionary array without its dictionary");
      }
      values = data.dictionary.get();
    }
    for (size_t i = 0; i < values->children.size(); ++i) {
      path->push_back(static_cast<int>(i));
      QUIVER_RETURN_NOT_OK(CollectDictionaries(*values->children[i], path, depth + 1, out));
      path->pop_back();
    }
    if (data.type->id() == Type::kDictionary) {
      QUIVER_ASSIGN_OR_RAISE(int64_t id, mapper_.GetFieldId(*path));
      out->emplace_back(id, data.dictionary);
    }
    return Status::OK();
  }

  Status WriteDictionaries(const RecordBatch& batch) {
    if (mapper_.num_fields() == 0) return Status::OK();
    std::vector<std::pair<int64_t, ArrayDataPtr>> dictionaries;
    FieldPath path;
    for (int i = 0; i < batch.num_columns(); ++i) {
      path.assign(1, i);
      QUIVER_RETURN_NOT_OK(CollectDictionaries(*batch.column_data(i), &path, 1, &dictionaries));
    }
    for (const auto& [id, dictionary] : dictionaries) {
      auto it = last_dictionaries_.find(id);
      bool is_delta = false;
      ArrayDataPtr to_write = dictionary;
      if (it != last_dictionaries_.end()) {
        const ArrayDataPtr& previous = it->second;
        if (previous == dictionary) continue;
        ArrayPtr now = MakeArray(dictionary);
        ArrayPtr before = MakeArray(previous);
        if (now->Equals(*before)) continue;
        if (options_.emit_dictionary_deltas && now->length() > before->length() &&
            now->RangeEquals(*before, 0, before->length(), 0)) {
          is_delta = true;
          to_write = dictionary->Slice(before->length(), now->length() - before->length());
        } else if (file_format_) {
          return Status::Invalid(
              "dictionary replacement for id ", id,
              " in the IPC file format (files allow one dictionary per field, plus deltas with "
              "emit_dictionary_deltas)");
        } else {
          ++stats_.num_replaced_dictionaries;
        }
      }
      QUIVER_ASSIGN_OR_RAISE(Payload payload,
                             MakeDictionaryPayload(id, to_write, is_delta, options_, &stats_));
      QUIVER_ASSIGN_OR_RAISE(auto block, WritePayload(payload));
      dictionary_blocks_.push_back(block);
      ++stats_.num_dictionary_batches;
      if (is_delta) ++stats_.num_dictionary_deltas;
      last_dictionaries_[id] = dictionary;
    }
    return Status::OK();
  }

  io::OutputStream* sink_;
  SchemaPtr schema_;
  IpcWriteOptions options_;
  bool file_format_;
  bool closed_ = false;
  int64_t position_ = 0;
  DictionaryFieldMapper mapper_;
  std::map<int64_t, ArrayDataPtr> last_dictionaries_;
  std::vector<fb::Block> dictionary_blocks_;
  std::vector<fb::Block> record_batch_blocks_;
  WriteStats stats_;
};

Result<std::shared_ptr<RecordBatchWriter>> MakeWriter(io::OutputStream* sink, SchemaPtr schema,
                                                      const IpcWriteOptions& options, bool file) {
  auto writer = std::make_shared<IpcWriter>(sink, std::move(schema), options, file);
  QUIVER_RETURN_NOT_OK(writer->Start());
  return writer;
}

Result<std::shared_ptr<Buffer>> SerializeTable(const Table& table, const IpcWriteOptions& options,
                                               bool file) {
  io::BufferOutputStream sink(options.pool ? options.pool : DefaultMemoryPool());
  QUIVER_ASSIGN_OR_RAISE(auto writer, MakeWriter(&sink, table.schema(), options, file));
  QUIVER_RETURN_NOT_OK(writer->WriteTable(table));
  QUIVER_RETURN_NOT_OK(writer->Close());
  return sink.Finish();
}

}  // namespace

Status RecordBatchWriter::WriteTable(const Table& table) {
  QUIVER_ASSIGN_OR_RAISE(auto batches, table.ToRecordBatches());
  for (const auto& batch : batches) QUIVER_RETURN_NOT_OK(WriteRecordBatch(*batch));
  return Status::OK();
}

Result<std::shared_ptr<RecordBatchWriter>> MakeStreamWriter(io::OutputStream* sink, SchemaPtr schema,
                                                            const IpcWriteOptions& options) {
  return MakeWriter(sink, std::move(schema), options, false);
}

Result<std::shared_ptr<RecordBatchWriter>> MakeFileWriter(io::OutputStream* sink, SchemaPtr schema,
                                                          const IpcWriteOptions& options) {
  return MakeWriter(sink, std::move(schema), options, true);
}

Result<std::shared_ptr<Buffer>> SerializeTableToStream(const Table& table,
                                                       const IpcWriteOptions& options) {
  return SerializeTable(table, options, false);
}

Result<std::shared_ptr<Buffer>> SerializeTableToFile(const Table& table,
                                                     const IpcWriteOptions& options) {
  return SerializeTable(table, options, true);
}

}  // namespace quiver::ipc
