// Conversion between Quiver schemas and the IPC flatbuffers metadata
// (format/schema.fbs, message.fbs, file.fbs; Arrow columnar format,
// "Serialization and Interprocess Communication"), and the framing of
// encapsulated messages:
//
//   0xFFFFFFFF  int32 metadata length  flatbuffer Message  padding  body
//
// The metadata length counts the flatbuffer and its padding, chosen so that
// the 8-byte prefix plus the metadata is a multiple of the alignment (8), so
// the body starts aligned. Old writers (before Arrow 0.15) omit the
// continuation marker; readers accept both. A length of 0 marks the end of a
// stream.
//
// Every flatbuffer read here is first checked with flatbuffers::Verifier
// (bounded depth and table count) and then read defensively: unknown enum
// values, missing required parts and impossible parameters are Invalid,
// types Quiver does not have (unions, run-end encoded, list views) are
// NotImplemented.
#pragma once

#include <cstdint>
#include <memory>

#include "quiver/array/type.h"
#include "quiver/ipc/dictionary_internal.h"
#include "quiver/ipc/generated/file_generated.h"
#include "quiver/ipc/generated/message_generated.h"
#include "quiver/ipc/generated/schema_generated.h"
#include "quiver/memory/buffer.h"
#include "quiver/util/result.h"

namespace quiver::ipc::internal {

namespace fb = ::quiver::ipc::flatbuf;

// The continuation marker that starts every message since Arrow 0.15.
inline constexpr uint32_t kContinuation = 0xFFFFFFFFu;
// Default nesting limit for schemas (levels of fields).
inline constexpr int kDefaultMaxNestingDepth = 64;
// Largest flatbuffer accepted (flatbuffers' own limit is 2 GiB).
inline constexpr int64_t kMaxFlatbufferSize = (int64_t{1} << 31) - 1;

// Bytes per value of a fixed-width type (array/type.h).
using ::quiver::FixedWidthBytes;

// --- Verification ---------------------------------------------------------

// Verifies and returns the root Message of the flatbuffer at `data` (which
// must be 8-byte aligned). `max_nesting` is the schema nesting limit.
Result<const fb::Message*> VerifyMessage(const uint8_t* data, int64_t size, int max_nesting);
Result<const fb::Footer*> VerifyFooter(const uint8_t* data, int64_t size, int max_nesting);

// The verifier checks the alignment of a vector's length but not of its
// elements; vectors of 8-byte structs or integers (FieldNode, Buffer, Block,
// long) must be 8-aligned before they are read, or reading them is undefined
// behaviour. Writers always align them; a corrupt input may not.
template <typename T>
Status CheckVectorAlignment(const flatbuffers::Vector<T>* vector, const char* what) {
  // (An empty vector has nothing to read, and builders do not align it.)
  if (vector != nullptr && vector->size() > 0 &&
      reinterpret_cast<uintptr_t>(vector->Data()) % 8 != 0) {
    return Status::Invalid("misaligned ", what, " vector in IPC metadata");
  }
  return Status::OK();
}

// `buffer` itself when its data is `alignment`-aligned, else an aligned copy.
Result<std::shared_ptr<Buffer>> EnsureAligned(const std::shared_ptr<Buffer>& buffer,
                                              int64_t alignment, MemoryPool* pool);

// --- Schema ---------------------------------------------------------------

Result<flatbuffers::Offset<fb::Schema>> SchemaToFlatbuffer(flatbuffers::FlatBufferBuilder& fbb,
                                                           const Schema& schema,
                                                           const DictionaryFieldMapper& mapper);

// Decodes a schema. Dictionary-encoded fields are registered in `memo`
// (when not null) with their ids and paths. `unsupported_as_null`: see
// ipc::SchemaReadOptions.
Result<SchemaPtr> SchemaFromFlatbuffer(const fb::Schema* schema, int max_nesting,
                                       DictionaryMemo* memo, bool unsupported_as_null = false);

// Key/value pairs (nullptr when there are none).
MetadataPtr MetadataFromFlatbuffer(
    const flatbuffers::Vector<flatbuffers::Offset<fb::KeyValue>>* pairs);
flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::KeyValue>>> MetadataToFlatbuffer(
    flatbuffers::FlatBufferBuilder& fbb, const MetadataPtr& metadata);

// --- Messages -------------------------------------------------------------

// Finishes `fbb` with a V5 Message holding `header` and returns the framed
// metadata: continuation marker, length, flatbuffer, zero padding (a
// multiple of `alignment` bytes in all).
Result<std::shared_ptr<Buffer>> FinishMessage(flatbuffers::FlatBufferBuilder& fbb,
                                              fb::MessageHeader header_type,
                                              flatbuffers::Offset<void> header,
                                              int64_t body_length, int32_t alignment,
                                              MemoryPool* pool);

// A complete schema message (no body).
Result<std::shared_ptr<Buffer>> MakeSchemaMessage(const Schema& schema,
                                                  const DictionaryFieldMapper& mapper,
                                                  int32_t alignment, MemoryPool* pool);

std::string_view MessageHeaderName(fb::MessageHeader type);

}  // namespace quiver::ipc::internal
