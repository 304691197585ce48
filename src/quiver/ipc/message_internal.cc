// Encapsulated message reading (see message_internal.h).
#include "quiver/ipc/message_internal.h"

#include "quiver/util/bit_util.h"

namespace quiver::ipc::internal {

Result<std::unique_ptr<Message>> Message::Open(std::shared_ptr<Buffer> metadata,
                                               std::shared_ptr<Buffer> body, int max_nesting,
                                               MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(metadata, EnsureAligned(metadata, 8, pool));
  QUIVER_ASSIGN_OR_RAISE(const fb::Message* message,
                         VerifyMessage(metadata->data(), metadata->size(), max_nesting));
  return FromVerified(std::move(metadata), message, std::move(body));
}

Result<std::unique_ptr<Message>> Message::FromVerified(std::shared_ptr<Buffer> metadata,
                                                       const fb::Message* message,
                                                       std::shared_ptr<Buffer> body) {
  const auto version = message->version();
  if (version < fb::MetadataVersion::V4) {
    return Status::NotImplemented("IPC metadata version ", fb::EnumNameMetadataVersion(version),
                                  " (Arrow before 0.8) is not supported");
  }
  if (version > fb::MetadataVersion::V5) {
    return Status::NotImplemented("IPC metadata version ", static_cast<int>(version),
                                  " is newer than this reader (V5)");
  }
  if (message->header() == nullptr) {
    return Status::Invalid("IPC message without a header (type ",
                           MessageHeaderName(message->header_type()), ")");
  }
  if (message->bodyLength() != body->size()) {
    return Status::Invalid("IPC message declares a body of ", message->bodyLength(),
                           " bytes, ", body->size(), " are present");
  }
  return std::unique_ptr<Message>(new Message(std::move(metadata), message, std::move(body)));
}

Result<MessagePrefix> DecodeMessagePrefix(const uint8_t* data, int64_t available) {
  if (available < 4) {
    return Status::Invalid("truncated IPC message prefix (", available, " bytes)");
  }
  MessagePrefix prefix;
  uint32_t first = bit_util::FromLittleEndian(bit_util::SafeLoad<uint32_t>(data));
  int32_t length;
  if (first == kContinuation) {
    if (available < 8) {
      return Status::Invalid("truncated IPC message prefix (", available, " bytes)");
    }
    length = bit_util::FromLittleEndian(bit_util::SafeLoad<int32_t>(data + 4));
    prefix.prefix_size = 8;
  } else {
    length = static_cast<int32_t>(first);  // legacy: no continuation marker
    prefix.prefix_size = 4;
  }
  if (length < 0) return Status::Invalid("negative IPC message metadata length ", length);
  prefix.metadata_length = length;
  return prefix;
}

Result<std::unique_ptr<Message>> ReadMessage(io::InputStream* stream, int max_nesting,
                                             MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(auto head, stream->Read(4));
  if (head->size() == 0) return nullptr;  // clean end between messages
  if (head->size() < 4) {
    return Status::Invalid("IPC stream ends inside a message prefix (", head->size(), " bytes)");
  }
  uint32_t first = bit_util::FromLittleEndian(bit_util::SafeLoad<uint32_t>(head->data()));
  int32_t length;
  if (first == kContinuation) {
    QUIVER_ASSIGN_OR_RAISE(auto len_buf, stream->Read(4));
    if (len_buf->size() < 4) {
      return Status::Invalid("IPC stream ends inside a message prefix");
    }
    length = bit_util::FromLittleEndian(bit_util::SafeLoad<int32_t>(len_buf->data()));
  } else {
    length = static_cast<int32_t>(first);
  }
  if (length == 0) return nullptr;  // end-of-stream marker
  if (length < 0) return Status::Invalid("negative IPC message metadata length ", length);
  QUIVER_ASSIGN_OR_RAISE(auto metadata, stream->Read(length));
  if (metadata->size() < length) {
    return Status::Invalid("IPC stream ends inside message metadata: expected ", length,
                           " bytes, got ", metadata->size());
  }
  // Verify before trusting bodyLength.
  QUIVER_ASSIGN_OR_RAISE(metadata, EnsureAligned(metadata, 8, pool));
  QUIVER_ASSIGN_OR_RAISE(const fb::Message* message,
                         VerifyMessage(metadata->data(), metadata->size(), max_nesting));
  const int64_t body_length = message->bodyLength();
  if (body_length < 0) {
    return Status::Invalid("negative IPC message body length ", body_length);
  }
  QUIVER_ASSIGN_OR_RAISE(auto body, stream->Read(body_length));
  if (body->size() < body_length) {
    return Status::Invalid("IPC stream ends inside a message body: expected ", body_length,
                           " bytes, got ", body->size());
  }
  return Message::FromVerified(std::move(metadata), message, std::move(body));
}

Result<std::unique_ptr<Message>> ReadMessageAt(const std::shared_ptr<Buffer>& file, int64_t offset,
                                               int64_t metadata_length, int64_t body_length,
                                               int max_nesting, MemoryPool* pool) {
  const int64_t size = file->size();
  if (offset < 0 || metadata_length <= 0 || body_length < 0 || offset > size ||
      metadata_length > size - offset || body_length > size - offset - metadata_length) {
    return Status::Invalid("IPC block (offset ", offset, ", metadata ", metadata_length,
                           " bytes, body ", body_length, " bytes) lies outside the ", size,
                           "-byte input");
  }
  QUIVER_ASSIGN_OR_RAISE(MessagePrefix prefix,
                         DecodeMessagePrefix(file->data() + offset, metadata_length));
  if (prefix.metadata_length == 0) {
    return Status::Invalid("IPC block at offset ", offset, " points at an end-of-stream marker");
  }
  if (prefix.metadata_length > metadata_length - prefix.prefix_size) {
    return Status::Invalid("IPC message at offset ", offset, " declares ",
                           prefix.metadata_length, " bytes of metadata, its block holds ",
                           metadata_length - prefix.prefix_size);
  }
  auto metadata = SliceBuffer(file, offset + prefix.prefix_size, prefix.metadata_length);
  auto body = SliceBuffer(file, offset + metadata_length, body_length);
  return Message::Open(std::move(metadata), std::move(body), max_nesting, pool);
}

}  // namespace quiver::ipc::internal
