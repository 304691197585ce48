// C Stream Interface: RecordBatchReader <-> ArrowArrayStream.
//
// Source: apache/arrow docs/source/format/CStreamInterface.rst ("Structure
// definition", "Result lifetimes", "Stream lifetime", "Error handling").
//
// Export: the stream's private_data owns the reader and the last error
// message. get_next marks `out` released at the end of the stream; a failure
// returns an errno code (EINVAL for Invalid, ENOMEM for OutOfMemory, ENOSYS for
// NotImplemented, EIO otherwise) and keeps the Status message for
// get_last_error. After an error the stream stays in that error state (the
// spec leaves further calls undefined; repeating the error is the safe choice).
//
// Import: the foreign stream is moved into the reader, which fetches the
// schema once, imports each array with ImportRecordBatch, stops calling
// get_next after the end or an error, and releases the stream when destroyed.
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "quiver/c_data/bridge.h"

namespace quiver {

namespace {

// --- Export -----------------------------------------------------------------

struct StreamExport {
  RecordBatchReaderPtr reader;
  int error_code = 0;
  std::string last_error;
};

StreamExport* PrivateOf(ArrowArrayStream* stream) {
  return static_cast<StreamExport*>(stream->private_data);
}

int ErrnoOf(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOK: return 0;
    case StatusCode::kInvalid:
    case StatusCode::kTypeError:
    case StatusCode::kKeyError:
    case StatusCode::kIndexError: return EINVAL;
    case StatusCode::kOutOfMemory: return ENOMEM;
    case StatusCode::kNotImplemented: return ENOSYS;
    case StatusCode::kCancelled: return ECANCELED;
    default: return EIO;
  }
}

int Fail(StreamExport* exported, const Status& status) {
  exported->error_code = ErrnoOf(status);
  exported->last_error = status.ToString();
  return exported->error_code;
}

int StreamGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  StreamExport* exported = PrivateOf(stream);
  if (exported->error_code != 0) return exported->error_code;
  SchemaPtr schema = exported->reader->schema();
  if (schema == nullptr) return Fail(exported, Status::Invalid("the reader has no schema"));
  Status st = ExportSchema(*schema, out);
  return st.ok() ? 0 : Fail(exported, st);
}

int StreamGetNext(ArrowArrayStream* stream, ArrowArray* out) {
  StreamExport* exported = PrivateOf(stream);
  if (exported->error_code != 0) return exported->error_code;
  Result<RecordBatchPtr> batch = exported->reader->Next();
  if (!batch.ok()) return Fail(exported, batch.status());
  if (*batch == nullptr) {  // end of stream: a released array
    *out = ArrowArray{};
    return 0;
  }
  Status st = ExportRecordBatch(**batch, out);
  return st.ok() ? 0 : Fail(exported, st);
}

const char* StreamGetLastError(ArrowArrayStream* stream) {
  StreamExport* exported = PrivateOf(stream);
  return exported->error_code == 0 ? nullptr : exported->last_error.c_str();
}

void StreamRelease(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete PrivateOf(stream);
  stream->release = nullptr;
  stream->private_data = nullptr;
}

// --- Import -----------------------------------------------------------------

class ImportedStreamReader final : public RecordBatchReader {
 public:
  explicit ImportedStreamReader(ArrowArrayStream* source) : stream_(*source) {
    source->release = nullptr;  // moved
  }
  ~ImportedStreamReader() override {
    if (stream_.release != nullptr) stream_.release(&stream_);
  }

  Status Init() {
    if (stream_.get_schema == nullptr || stream_.get_next == nullptr) {
      return Status::Invalid("ArrowArrayStream has a NULL get_schema or get_next callback");
    }
    ArrowSchema schema{};
    int code = stream_.get_schema(&stream_, &schema);
    if (code != 0) {
      if (schema.release != nullptr) schema.release(&schema);
      return StreamError("get_schema", code);
    }
    QUIVER_ASSIGN_OR_RAISE(schema_, ImportSchema(&schema));
    return Status::OK();
  }

  SchemaPtr schema() const override { return schema_; }

  Result<RecordBatchPtr> Next() override {
    if (!error_.ok()) return error_;
    if (finished_) return RecordBatchPtr();
    ArrowArray array{};
    int code = stream_.get_next(&stream_, &array);
    if (code != 0) {
      // A producer should not hand out an array with an error; if it did,
      // it is still ours to release.
      if (array.release != nullptr) array.release(&array);
      error_ = StreamError("get_next", code);
      return error_;
    }
    if (array.release == nullptr) {
      finished_ = true;
      return RecordBatchPtr();
    }
    Result<RecordBatchPtr> batch = ImportRecordBatch(&array, schema_);
    if (!batch.ok()) error_ = batch.status();
    return batch;
  }

 private:
  Status StreamError(const char* callback, int code) {
    std::string detail;
    if (stream_.get_last_error != nullptr) {
      const char* message = stream_.get_last_error(&stream_);
      if (message != nullptr) detail = message;  // copied: only valid until the next call
    }
    std::string text = std::string("ArrowArrayStream ") + callback + " failed with error code " +
                       std::to_string(code) + " (" + std::strerror(code) + ")" +
                       (detail.empty() ? std::string() : ": " + detail);
    switch (code) {
      case EINVAL: return Status::Invalid(text);
      case ENOMEM: return Status::OutOfMemory(text);
      case ENOSYS: return Status::NotImplemented(text);
      default: return Status::IOError(text);
    }
  }

  ArrowArrayStream stream_;
  SchemaPtr schema_;
  Status error_;
  bool finished_ = false;
};

}  // namespace

Status ExportRecordBatchReader(RecordBatchReaderPtr reader, ArrowArrayStream* out) {
  if (out == nullptr) return Status::Invalid("ExportRecordBatchReader: output stream is null");
  if (reader == nullptr) return Status::Invalid("ExportRecordBatchReader: the reader is null");
  auto exported = std::make_unique<StreamExport>();
  exported->reader = std::move(reader);
  out->get_schema = &StreamGetSchema;
  out->get_next = &StreamGetNext;
  out->get_last_error = &StreamGetLastError;
  out->release = &StreamRelease;
  out->private_data = exported.release();
  return Status::OK();
}

Result<RecordBatchReaderPtr> ImportRecordBatchReader(ArrowArrayStream* stream) {
  if (stream == nullptr) return Status::Invalid("ArrowArrayStream pointer is null");
  if (stream->release == nullptr) {
    return Status::Invalid("cannot import a released ArrowArrayStream (release is NULL)");
  }
  auto reader = std::make_shared<ImportedStreamReader>(stream);
  QUIVER_RETURN_NOT_OK(reader->Init());
  return RecordBatchReaderPtr(std::move(reader));
}

}  // namespace quiver
