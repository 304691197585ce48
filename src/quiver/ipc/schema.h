// Arrow IPC schema messages: a Schema as one complete encapsulated IPC
// message (Arrow columnar format, "Encapsulated message format"; the
// flatbuffers tables of format/schema.fbs and message.fbs).
//
// This is what the Parquet writer base64-encodes into the `ARROW:schema`
// key of the file footer, and what pyarrow and Arrow C++ expect there:
//   0xFFFFFFFF, int32 LE metadata length, flatbuffer Message (version V5,
//   header Schema, bodyLength 0), zero padding to a multiple of 8 bytes.
// Dictionary-encoded fields get ids 0, 1, 2, ... in a depth-first walk of
// the fields (as Arrow C++ numbers them).
#pragma once

#include <cstdint>
#include <memory>

#include "quiver/array/type.h"
#include "quiver/memory/buffer.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::ipc {

// The schema as an encapsulated IPC message (no body).
Result<std::shared_ptr<Buffer>> SerializeSchema(const Schema& schema,
                                                MemoryPool* pool = DefaultMemoryPool());

// Reads a schema message as SerializeSchema writes it, also in the legacy
// framing without the continuation marker (Arrow < 0.15) and as a bare
// flatbuffer Message without any prefix. Bytes after the message are
// ignored. Corrupt or hostile input gives an error Status:
// the flatbuffer is verified before use, nesting is limited to 64 levels.
struct SchemaReadOptions {
  // A field of a type Quiver does not have (list views, unions, run-end
  // encoded) is read as a null-typed field whose metadata key
  // "quiver:unsupported_type" names the type, instead of failing (for
  // readers that only take hints from a schema, as the Parquet reader takes
  // ARROW:schema).
  bool unsupported_types_as_null = false;
};
Result<SchemaPtr> ReadSchemaMessage(const uint8_t* data, int64_t size,
                                    const SchemaReadOptions& options = {});
Result<SchemaPtr> ReadSchemaMessage(const Buffer& message, const SchemaReadOptions& options = {});

// The metadata key of a placeholder for an unsupported type.
inline constexpr const char* kUnsupportedTypeKey = "quiver:unsupported_type";

}  // namespace quiver::ipc
