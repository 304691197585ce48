// Schema messages (see schema.h); the conversion itself is in
// metadata_internal.cc.
#include "quiver/ipc/schema.h"

#include "quiver/ipc/message_internal.h"
#include "quiver/ipc/metadata_internal.h"

namespace quiver::ipc {

Result<std::shared_ptr<Buffer>> SerializeSchema(const Schema& schema, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RAISE(auto mapper, internal::DictionaryFieldMapper::FromSchema(
                                          schema, internal::kDefaultMaxNestingDepth));
  return internal::MakeSchemaMessage(schema, mapper, 8, pool);
}

namespace {

Result<SchemaPtr> SchemaFromMessage(const std::shared_ptr<Buffer>& metadata,
                                    const SchemaReadOptions& options) {
  QUIVER_ASSIGN_OR_RAISE(auto message,
                         internal::Message::Open(metadata, Buffer::Empty(),
                                                 internal::kDefaultMaxNestingDepth,
                                                 DefaultMemoryPool()));
  if (message->type() != internal::fb::MessageHeader::Schema) {
    return Status::Invalid("expected a schema message, found ",
                           internal::MessageHeaderName(message->type()));
  }
  internal::DictionaryMemo memo;  // validates dictionary ids and types
  return internal::SchemaFromFlatbuffer(message->flatbuffer().header_as_Schema(),
                                        internal::kDefaultMaxNestingDepth, &memo,
                                        options.unsupported_types_as_null);
}

Result<SchemaPtr> ReadFramedSchema(const uint8_t* data, int64_t size,
                                   const SchemaReadOptions& options) {
  QUIVER_ASSIGN_OR_RAISE(internal::MessagePrefix prefix,
                         internal::DecodeMessagePrefix(data, size));
  if (prefix.metadata_length == 0) {
    return Status::Invalid("expected a schema message, found an end-of-stream marker");
  }
  if (prefix.metadata_length > size - prefix.prefix_size) {
    return Status::Invalid("schema message declares ", prefix.metadata_length,
                           " bytes of metadata, only ", size - prefix.prefix_size,
                           " are present");
  }
  // A non-owning view: everything decoded is copied out of it.
  return SchemaFromMessage(Buffer::Wrap(data + prefix.prefix_size, prefix.metadata_length),
                           options);
}

}  // namespace

Result<SchemaPtr> ReadSchemaMessage(const uint8_t* data, int64_t size,
                                    const SchemaReadOptions& options) {
  if (data == nullptr || size < 0) return Status::Invalid("no schema message bytes");
  auto framed = ReadFramedSchema(data, size, options);
  if (framed.ok() || size < 8) return framed;
  // Some writers store the bare flatbuffer Message without any prefix; the
  // verifier makes trying that safe. The framed error is the one reported.
  auto bare = SchemaFromMessage(Buffer::Wrap(data, size), options);
  if (bare.ok()) return bare;
  return framed;
}

Result<SchemaPtr> ReadSchemaMessage(const Buffer& message, const SchemaReadOptions& options) {
  return ReadSchemaMessage(message.data(), message.size(), options);
}

}  // namespace quiver::ipc
