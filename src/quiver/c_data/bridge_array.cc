// C Data Interface: arrays and record batches (ArrowArray) both ways.
//
// Source: apache/arrow docs/source/format/CDataInterface.rst, sections "The
// ArrowArray structure", "Memory management" (release callbacks, moving
// child arrays), and the buffer layouts of docs/source/format/Columnar.rst.
//
// Export hands out pointers to Quiver's buffers. Each ArrowArray node owns an
// ArrayExport holding its ArrayData (so the buffers outlive the consumer's
// use), the buffer pointer table, and the child/dictionary structs; releasing
// a node releases the children the consumer did not move out, so each child
// can also be moved out and released on its own.
//
// Import never copies: the top-level ArrowArray is moved into an
// ImportedArray guard shared by every Buffer built over the producer's
// memory (Buffer::WrapWithOwner); the producer's release runs when the last
// of those buffers dies, or at once if import fails. The C Data Interface
// carries no buffer sizes, so each size is derived from the type, offset and
// length as Arrow C++ does; the only buffer contents read are the last
// offset of binary/string arrays (to size their data buffer) and the variadic
// buffer sizes of binary views, both at positions the struct itself vouches
// for. ValidateArray (Array::Validate's structural checks) then checks the
// rest (offsets against data/child lengths etc.) before the data is handed out.
#include <cstring>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "quiver/array/array.h"
#include "quiver/array/validate.h"
#include "quiver/c_data/bridge.h"
#include "quiver/c_data/bridge_internal.h"
#include "quiver/memory/zero_size_area.h"

namespace quiver {

namespace {

// Where a node sits in the exported or imported tree ("<root>.children[1].dictionary"),
// rendered only when an error message needs it.
struct NodePath {
  const NodePath* parent = nullptr;
  const char* member = nullptr;  // "children" or "dictionary"; nullptr for the root
  int64_t index = -1;            // for "children"
};

std::ostream& operator<<(std::ostream& os, const NodePath& path) {
  if (path.parent == nullptr) return os << "<root>";
  os << *path.parent << "." << path.member;
  if (path.index >= 0) os << "[" << path.index << "]";
  return os;
}

// --- Export -----------------------------------------------------------------

struct ArrayExport {
  ArrayDataPtr data;
  std::vector<const void*> buffers;
  std::vector<int64_t> variadic_sizes;  // binary views: the extra last buffer
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
  ArrowArray dictionary{};

  ~ArrayExport() {
    // Children the consumer moved out are marked released and skipped.
    for (ArrowArray& child : children) {
      if (child.release != nullptr) child.release(&child);
    }
    if (dictionary.release != nullptr) dictionary.release(&dictionary);
  }
};

void ReleaseExportedArray(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  delete static_cast<ArrayExport*>(array->private_data);
  array->release = nullptr;
  array->private_data = nullptr;
}

// Fills `out` on success; on failure nothing is left to release.
Status ExportNode(const ArrayDataPtr& data, ArrowArray* out, const NodePath& path) {
  if (data == nullptr) return Status::Invalid("ExportArray: ArrayData ", path, " is null");
  if (data->type == nullptr) {
    return Status::Invalid("ExportArray: ArrayData ", path, " has no type");
  }
  const DataType& type = *data->type;
  const Type id = type.id();
  if (data->length < 0 || data->offset < 0) {
    return Status::Invalid("ExportArray: ArrayData ", path, " has negative length or offset");
  }

  auto exported = std::make_unique<ArrayExport>();
  exported->data = data;
  const auto& buffers = data->buffers;
  auto bad_buffers = [&](std::string_view expected) {
    return Status::Invalid("ExportArray: ArrayData ", path, " of type ", type.ToString(), " has ",
                           buffers.size(), " buffers, expected ", expected);
  };
  if (id == Type::kNull) {
    // The format defines no buffers for null arrays; tolerate a lone null slot.
    if (buffers.size() > 1 || (buffers.size() == 1 && buffers[0] != nullptr)) {
      return bad_buffers("none");
    }
  } else if (IsBinaryView(id)) {
    if (buffers.size() < 2) return bad_buffers("at least 2 (validity, views)");
    for (const auto& b : buffers) exported->buffers.push_back(b ? b->data() : nullptr);
    for (size_t i = 2; i < buffers.size(); ++i) {
      exported->variadic_sizes.push_back(buffers[i] ? buffers[i]->size() : 0);
    }
    // The spec's extra last buffer: the byte size of each variadic buffer.
    exported->buffers.push_back(exported->variadic_sizes.empty()
                                    ? static_cast<const void*>(ZeroSizeArea())
                                    : exported->variadic_sizes.data());
  } else {
    const size_t expected = static_cast<size_t>(NumFixedBuffers(id));
    if (buffers.size() != expected) return bad_buffers(std::to_string(expected));
    for (const auto& b : buffers) exported->buffers.push_back(b ? b->data() : nullptr);
  }
  for (size_t i = 1; i < buffers.size(); ++i) {
    if (buffers[i] == nullptr) {
      return Status::Invalid("ExportArray: ArrayData ", path, " of type ", type.ToString(),
                             ": buffer ", i, " is null (only the validity buffer may be)");
    }
  }

  const size_t n_children = id == Type::kDictionary ? 0 : static_cast<size_t>(type.num_fields());
  if (data->children.size() != n_children) {
    return Status::Invalid("ExportArray: ArrayData ", path, " of type ", type.ToString(), " has ",
                           data->children.size(), " children, expected ", n_children);
  }
  exported->children.assign(n_children, ArrowArray{});
  exported->child_pointers.resize(n_children);
  for (size_t i = 0; i < n_children; ++i) {
    exported->child_pointers[i] = &exported->children[i];
    // On failure, the children exported so far are released by ~ArrayExport.
    const NodePath child_path{&path, "children", static_cast<int64_t>(i)};
    QUIVER_RETURN_NOT_OK(ExportNode(data->children[i], &exported->children[i], child_path));
  }
  if (id == Type::kDictionary) {
    if (data->dictionary == nullptr) {
      return Status::Invalid("ExportArray: dictionary ArrayData ", path, " has no dictionary");
    }
    const NodePath dictionary_path{&path, "dictionary"};
    QUIVER_RETURN_NOT_OK(ExportNode(data->dictionary, &exported->dictionary, dictionary_path));
  }

  out->length = data->length;
  if (id == Type::kNull) {
    out->null_count = data->length;
  } else {
    out->null_count = data->validity() == nullptr ? 0 : data->null_count;  // may be -1
  }
  out->offset = data->offset;
  out->n_buffers = static_cast<int64_t>(exported->buffers.size());
  out->n_children = static_cast<int64_t>(n_children);
  out->buffers = exported->buffers.empty() ? nullptr : exported->buffers.data();
  out->children = n_children == 0 ? nullptr : exported->child_pointers.data();
  out->dictionary = exported->dictionary.release != nullptr ? &exported->dictionary : nullptr;
  out->release = &ReleaseExportedArray;
  out->private_data = exported.release();
  return Status::OK();
}

// --- Import -----------------------------------------------------------------

// The moved top-level ArrowArray; released (with all its children and its
// dictionary, as the spec says) when the last imported buffer lets go.
struct ImportedArray {
  ArrowArray array{};
  ~ImportedArray() {
    if (array.release != nullptr) array.release(&array);
  }
};

void ReleaseInput(ArrowArray* array) {
  if (array != nullptr && array->release != nullptr) {
    array->release(array);
    array->release = nullptr;
  }
}

Result<int64_t> CheckedMul(int64_t a, int64_t b, const NodePath& path) {
  int64_t out;
  if (__builtin_mul_overflow(a, b, &out)) {
    return Status::Invalid("ArrowArray ", path, ": buffer size ", a, " * ", b,
                           " overflows 64 bits (impossible length/offset)");
  }
  return out;
}

class ArrayImporter {
 public:
  explicit ArrayImporter(std::shared_ptr<ImportedArray> owner) : owner_(std::move(owner)) {}

  Result<ArrayDataPtr> Import(const ArrowArray* a, const TypePtr& type, const NodePath& path,
                              int depth) {
    if (depth > internal::kMaxImportDepth) {
      return Status::Invalid("ArrowArray ", path, ": nesting deeper than ",
                             internal::kMaxImportDepth, " levels");
    }
    if (a == nullptr) return Status::Invalid("ArrowArray ", path, " is a null pointer");
    if (a->release == nullptr) {
      return Status::Invalid("ArrowArray ", path, " is released (release is NULL)");
    }
    QUIVER_RETURN_NOT_OK(CheckShape(a, *type, path));

    auto data = std::make_shared<ArrayData>();
    data->type = type;
    data->length = a->length;
    data->offset = a->offset;
    data->null_count = a->null_count;
    const Type id = type->id();
    const int64_t end = a->offset + a->length;  // no overflow: checked by CheckShape

    if (id == Type::kNull) {
      data->null_count = a->length;
    } else {
      data->buffers.resize(static_cast<size_t>(NumFixedBuffers(id)));
      QUIVER_RETURN_NOT_OK(ImportValidity(a, data.get(), path));
    }

    switch (id) {
      case Type::kNull:
      case Type::kStruct:
      case Type::kFixedSizeList:
        break;
      case Type::kBool: {
        QUIVER_ASSIGN_OR_RAISE(data->buffers[1],
                               Wrap(a, 1, bit_util::BytesForBits(end), path, "values"));
        break;
      }
      case Type::kString:
      case Type::kBinary:
        QUIVER_RETURN_NOT_OK(ImportBinaryLike<int32_t>(a, data.get(), path));
        break;
      case Type::kLargeString:
      case Type::kLargeBinary:
        QUIVER_RETURN_NOT_OK(ImportBinaryLike<int64_t>(a, data.get(), path));
        break;
      case Type::kStringView:
      case Type::kBinaryView:
        QUIVER_RETURN_NOT_OK(ImportViews(a, data.get(), path));
        break;
      case Type::kList:
      case Type::kMap: {
        QUIVER_ASSIGN_OR_RAISE(data->buffers[1], ImportOffsets<int32_t>(a, path));
        break;
      }
      case Type::kLargeList: {
        QUIVER_ASSIGN_OR_RAISE(data->buffers[1], ImportOffsets<int64_t>(a, path));
        break;
      }
      case Type::kDictionary: {
        const auto& dict = TypeAs<DictionaryType>(*type);
        QUIVER_ASSIGN_OR_RAISE(int64_t size,
                               CheckedMul(end, dict.index_type()->byte_width(), path));
        QUIVER_ASSIGN_OR_RAISE(data->buffers[1], Wrap(a, 1, size, path, "indices"));
        const NodePath dictionary_path{&path, "dictionary"};
        QUIVER_ASSIGN_OR_RAISE(data->dictionary, Import(a->dictionary, dict.value_type(),
                                                        dictionary_path, depth + 1));
        break;
      }
      default: {  // fixed width: ints, floats, decimals, temporal, fixed_size_binary
        const int64_t width = id == Type::kFixedSizeBinary
                                  ? TypeAs<FixedSizeBinaryType>(*type).fixed_byte_width()
                                  : type->byte_width();
        if (width < 0) {
          return Status::NotImplemented("C Data Interface import of type ", type->ToString());
        }
        QUIVER_ASSIGN_OR_RAISE(int64_t size, CheckedMul(end, width, path));
        QUIVER_ASSIGN_OR_RAISE(data->buffers[1], Wrap(a, 1, size, path, "values"));
        break;
      }
    }

    if (id != Type::kDictionary) {
      for (int i = 0; i < type->num_fields(); ++i) {
        const NodePath child_path{&path, "children", i};
        QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr child, Import(a->children[i], type->field(i)->type(),
                                                          child_path, depth + 1));
        data->children.push_back(std::move(child));
      }
    }
    return data;
  }

 private:
  // Counts, pointers and integers of this node, before any buffer is touched.
  static Status CheckShape(const ArrowArray* a, const DataType& type, const NodePath& path) {
    if (a->length < 0) return Status::Invalid("ArrowArray ", path, ": negative length ", a->length);
    if (a->offset < 0) return Status::Invalid("ArrowArray ", path, ": negative offset ", a->offset);
    if (a->length > std::numeric_limits<int64_t>::max() - a->offset) {
      return Status::Invalid("ArrowArray ", path, ": offset ", a->offset, " + length ", a->length,
                             " overflows 64 bits");
    }
    if (a->null_count < -1) {
      return Status::Invalid("ArrowArray ", path, ": negative null_count ", a->null_count,
                             " (only -1, 'unknown', is allowed)");
    }
    if (a->null_count > a->length) {
      return Status::Invalid("ArrowArray ", path, ": null_count ", a->null_count,
                             " exceeds the length ", a->length);
    }
    const Type id = type.id();
    if (IsBinaryView(id)) {
      if (a->n_buffers < 3 || a->n_buffers > std::numeric_limits<int32_t>::max()) {
        return Status::Invalid("ArrowArray ", path, " of type ", type.ToString(), ": n_buffers is ",
                               a->n_buffers, ", expected 3 or more (validity, views, variadic "
                               "data buffers..., variadic buffer sizes)");
      }
    } else if (a->n_buffers != NumFixedBuffers(id)) {
      return Status::Invalid("ArrowArray ", path, " of type ", type.ToString(), ": n_buffers is ",
                             a->n_buffers, ", expected ", NumFixedBuffers(id));
    }
    if (a->n_buffers > 0 && a->buffers == nullptr) {
      return Status::Invalid("ArrowArray ", path, ": buffers is NULL but n_buffers is ",
                             a->n_buffers);
    }
    const int64_t n_children = id == Type::kDictionary ? 0 : type.num_fields();
    if (a->n_children != n_children) {
      return Status::Invalid("ArrowArray ", path, " of type ", type.ToString(),
                             ": n_children is ", a->n_children, ", expected ", n_children);
    }
    if (n_children > 0 && a->children == nullptr) {
      return Status::Invalid("ArrowArray ", path, ": children is NULL but n_children is ",
                             n_children);
    }
    if (id == Type::kDictionary && a->dictionary == nullptr) {
      return Status::Invalid("ArrowArray ", path, " of type ", type.ToString(),
                             ": dictionary is NULL");
    }
    if (id != Type::kDictionary && a->dictionary != nullptr) {
      return Status::Invalid("ArrowArray ", path, " of non-dictionary type ", type.ToString(),
                             " has a dictionary");
    }
    return Status::OK();
  }

  // A buffer over `size` bytes of the producer's buffer `i`. A NULL pointer
  // is only acceptable where nothing is needed; an empty buffer (NULL or not)
  // is Buffer::Empty(), at the zero-size area.
  Result<std::shared_ptr<Buffer>> Wrap(const ArrowArray* a, int64_t i, int64_t size,
                                       const NodePath& path, const char* what) {
    const void* pointer = a->buffers[i];
    if (pointer == nullptr && size > 0) {
      return Status::Invalid("ArrowArray ", path, ": buffer ", i, " (", what,
                             ") is NULL but the array needs ", size, " bytes there (length ",
                             a->length, ", offset ", a->offset, ")");
    }
    // Nothing needed: no reason to keep the producer's memory alive for it.
    if (size == 0) return Buffer::Empty();
    return Buffer::WrapWithOwner(pointer, size, owner_);
  }

  Status ImportValidity(const ArrowArray* a, ArrayData* data, const NodePath& path) {
    if (a->buffers[0] == nullptr) {
      if (a->null_count > 0) {
        return Status::Invalid("ArrowArray ", path, ": null_count is ", a->null_count,
                               " but the validity buffer is NULL");
      }
      data->null_count = 0;
      return Status::OK();
    }
    QUIVER_ASSIGN_OR_RAISE(data->buffers[0],
                           Wrap(a, 0, bit_util::BytesForBits(a->offset + a->length), path,
                                "validity"));
    return Status::OK();
  }

  // offset + length + 1 offsets, or none for an empty array (the spec lets
  // producers pass NULL there).
  template <typename OffsetT>
  Result<std::shared_ptr<Buffer>> ImportOffsets(const ArrowArray* a, const NodePath& path) {
    if (a->length == 0) return Wrap(a, 1, 0, path, "offsets");
    const int64_t end = a->offset + a->length;
    if (end == std::numeric_limits<int64_t>::max()) {
      return Status::Invalid("ArrowArray ", path, ": offset + length + 1 overflows 64 bits");
    }
    QUIVER_ASSIGN_OR_RAISE(int64_t size,
                           CheckedMul(end + 1, static_cast<int64_t>(sizeof(OffsetT)), path));
    return Wrap(a, 1, size, path, "offsets");
  }

  template <typename OffsetT>
  Status ImportBinaryLike(const ArrowArray* a, ArrayData* data, const NodePath& path) {
    QUIVER_ASSIGN_OR_RAISE(data->buffers[1], ImportOffsets<OffsetT>(a, path));
    int64_t data_size = 0;
    if (a->length > 0) {
      // The offsets buffer is non-null here (Wrap checked it): its last
      // entry, offsets[offset + length], is the data buffer's extent.
      OffsetT last;
      std::memcpy(&last, data->buffers[1]->data() + (a->offset + a->length) * sizeof(OffsetT),
                  sizeof last);
      if (last < 0) {
        return Status::Invalid("ArrowArray ", path, ": last offset (at index ",
                               a->offset + a->length, ") is negative: ",
                               static_cast<int64_t>(last));
      }
      data_size = static_cast<int64_t>(last);
    }
    QUIVER_ASSIGN_OR_RAISE(data->buffers[2], Wrap(a, 2, data_size, path, "data"));
    return Status::OK();
  }

  Status ImportViews(const ArrowArray* a, ArrayData* data, const NodePath& path) {
    QUIVER_ASSIGN_OR_RAISE(int64_t views_size, CheckedMul(a->offset + a->length, 16, path));
    QUIVER_ASSIGN_OR_RAISE(data->buffers[1], Wrap(a, 1, views_size, path, "views"));
    const int64_t n_variadic = a->n_buffers - 3;
    const void* sizes = a->buffers[a->n_buffers - 1];
    if (n_variadic > 0 && sizes == nullptr) {
      return Status::Invalid("ArrowArray ", path, ": the variadic buffer sizes buffer (buffer ",
                             a->n_buffers - 1, ") is NULL but there are ", n_variadic,
                             " data buffers");
    }
    for (int64_t k = 0; k < n_variadic; ++k) {
      int64_t size;
      std::memcpy(&size, static_cast<const uint8_t*>(sizes) + k * 8, sizeof size);
      if (size < 0) {
        return Status::Invalid("ArrowArray ", path, ": variadic data buffer ", k,
                               " has a negative size ", size);
      }
      QUIVER_ASSIGN_OR_RAISE(auto buffer, Wrap(a, 2 + k, size, path, "variadic data"));
      data->buffers.push_back(std::move(buffer));
    }
    return Status::OK();
  }

  std::shared_ptr<ImportedArray> owner_;
};

}  // namespace

// --- Public API ---------------------------------------------------------------

Status ExportArray(const ArrayDataPtr& data, ArrowArray* out, ArrowSchema* out_schema) {
  if (out == nullptr) return Status::Invalid("ExportArray: output ArrowArray is null");
  if (data == nullptr || data->type == nullptr) {
    return Status::Invalid("ExportArray: ArrayData or its type is null");
  }
  if (out_schema != nullptr) QUIVER_RETURN_NOT_OK(ExportType(*data->type, out_schema));
  Status st = ExportNode(data, out, NodePath{});
  if (!st.ok() && out_schema != nullptr) out_schema->release(out_schema);
  return st;
}

Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out, ArrowSchema* out_schema) {
  if (out == nullptr) return Status::Invalid("ExportRecordBatch: output ArrowArray is null");
  if (batch.schema() == nullptr) {
    return Status::Invalid("ExportRecordBatch: the batch has no schema");
  }
  auto data = ArrayData::Make(struct_(batch.schema()->fields()), batch.num_rows(), {nullptr},
                              batch.columns_data(), /*null_count=*/0, /*offset=*/0);
  if (out_schema != nullptr) QUIVER_RETURN_NOT_OK(ExportSchema(*batch.schema(), out_schema));
  Status st = ExportNode(data, out, NodePath{});
  if (!st.ok() && out_schema != nullptr) out_schema->release(out_schema);
  return st;
}

Result<ArrayDataPtr> ImportArray(ArrowArray* array, const TypePtr& type) {
  if (array == nullptr) return Status::Invalid("ArrowArray pointer is null");
  if (array->release == nullptr) {
    return Status::Invalid("cannot import a released ArrowArray (release is NULL)");
  }
  auto owner = std::make_shared<ImportedArray>();
  owner->array = *array;
  array->release = nullptr;  // moved
  if (type == nullptr) return Status::Invalid("ImportArray: the type is null");
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr data,
                         ArrayImporter(owner).Import(&owner->array, type, NodePath{}, 0));
  // Array::Validate's structural checks, run on the ArrayData directly (no
  // typed view is built over data that has not been validated yet).
  QUIVER_RETURN_NOT_OK(ValidateArray(*data).WithContext("imported ArrowArray of type ",
                                                        type->ToString(), " is invalid: "));
  return data;
}

Result<ArrayDataPtr> ImportArray(ArrowArray* array, ArrowSchema* schema) {
  auto type = ImportType(schema);
  if (!type.ok()) {
    ReleaseInput(array);
    return type.status();
  }
  return ImportArray(array, *type);
}

Result<RecordBatchPtr> ImportRecordBatch(ArrowArray* array, const SchemaPtr& schema) {
  if (schema == nullptr) {
    ReleaseInput(array);
    return Status::Invalid("ImportRecordBatch: the schema is null");
  }
  QUIVER_ASSIGN_OR_RAISE(ArrayDataPtr data, ImportArray(array, struct_(schema->fields())));
  if (data->GetNullCount() != 0) {
    return Status::Invalid("ImportRecordBatch: the struct ArrowArray has ", data->GetNullCount(),
                           " null rows; a record batch cannot have null rows");
  }
  std::vector<ArrayDataPtr> columns;
  columns.reserve(data->children.size());
  for (const ArrayDataPtr& child : data->children) {
    columns.push_back(data->offset == 0 && child->length == data->length
                          ? child
                          : child->Slice(data->offset, data->length));
  }
  return RecordBatch::Make(schema, data->length, std::move(columns));
}

Result<RecordBatchPtr> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema) {
  auto imported = ImportSchema(schema);
  if (!imported.ok()) {
    ReleaseInput(array);
    return imported.status();
  }
  return ImportRecordBatch(array, *imported);
}

}  // namespace quiver
