// Encapsulated IPC messages (Arrow columnar format, "Encapsulated message
// format"): reading the prefix, the verified flatbuffer Message and its body
// from a stream or from a position in a buffer. Every length is checked
// against what the input actually holds before anything is allocated or
// sliced.
#pragma once

#include <cstdint>
#include <memory>

#include "quiver/io/interfaces.h"
#include "quiver/ipc/metadata_internal.h"
#include "quiver/memory/buffer.h"
#include "quiver/util/result.h"

namespace quiver::ipc::internal {

class Message {
 public:
  // Verifies the flatbuffer in `metadata` (copied first if misaligned) and
  // checks the version and that the body has the declared length.
  static Result<std::unique_ptr<Message>> Open(std::shared_ptr<Buffer> metadata,
                                               std::shared_ptr<Buffer> body, int max_nesting,
                                               MemoryPool* pool);
  // The same for a flatbuffer already verified (`message` points into the
  // aligned `metadata`).
  static Result<std::unique_ptr<Message>> FromVerified(std::shared_ptr<Buffer> metadata,
                                                       const fb::Message* message,
                                                       std::shared_ptr<Buffer> body);

  fb::MessageHeader type() const { return message_->header_type(); }
  const fb::Message& flatbuffer() const { return *message_; }
  const std::shared_ptr<Buffer>& body() const { return body_; }
  const std::shared_ptr<Buffer>& metadata() const { return metadata_; }

 private:
  Message(std::shared_ptr<Buffer> metadata, const fb::Message* message,
          std::shared_ptr<Buffer> body)
      : metadata_(std::move(metadata)), message_(message), body_(std::move(body)) {}

  std::shared_ptr<Buffer> metadata_;
  const fb::Message* message_;
  std::shared_ptr<Buffer> body_;
};

// The prefix of a message at `data` (with `available` bytes there):
// where the flatbuffer starts and how long the metadata is.
struct MessagePrefix {
  int64_t prefix_size = 0;      // 8, or 4 for the legacy format
  int64_t metadata_length = 0;  // flatbuffer + padding; 0 at end of stream
};
Result<MessagePrefix> DecodeMessagePrefix(const uint8_t* data, int64_t available);

// Reads the next message; nullptr at the end of the stream (an end-of-stream
// marker, or the input ending cleanly between messages).
Result<std::unique_ptr<Message>> ReadMessage(io::InputStream* stream, int max_nesting,
                                             MemoryPool* pool);

// Reads the message of a file Block: `metadata_length` bytes of prefix and
// metadata at `offset` of `file`, then `body_length` bytes of body.
Result<std::unique_ptr<Message>> ReadMessageAt(const std::shared_ptr<Buffer>& file, int64_t offset,
                                               int64_t metadata_length, int64_t body_length,
                                               int max_nesting, MemoryPool* pool);

}  // namespace quiver::ipc::internal
