// Dictionary ids in IPC (Arrow columnar format, "Dictionary Messages").
//
// A dictionary-encoded field is identified by its path in the schema: the
// child indices from the top-level field down (a dictionary inside the value
// type of another dictionary continues the path through that value type's
// children). The writer assigns ids as Arrow C++ does, so that our schemas
// are byte-compatible with its output: a pre-order walk of the fields in
// order, numbering dictionary-encoded fields 0, 1, 2, ... (a dictionary
// field gets its id before the dictionaries nested in its value type). The
// reader takes the ids from the schema's DictionaryEncoding tables instead,
// and keeps the current dictionary of each id (DictionaryMemo).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "quiver/array/array_data.h"
#include "quiver/array/type.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::ipc::internal {

using FieldPath = std::vector<int>;

class DictionaryFieldMapper {
 public:
  DictionaryFieldMapper() = default;

  // Assigns ids to every dictionary-encoded field of `schema`; Invalid when
  // the types nest deeper than `max_depth`.
  static Result<DictionaryFieldMapper> FromSchema(const Schema& schema, int max_depth);

  Status AddField(int64_t id, FieldPath path);
  Result<int64_t> GetFieldId(const FieldPath& path) const;
  int num_fields() const { return static_cast<int>(ids_.size()); }
  const std::map<FieldPath, int64_t>& ids() const { return ids_; }

 private:
  std::map<FieldPath, int64_t> ids_;
};

// The reader's view of a stream's dictionaries: the type behind each id
// (from the schema) and the current dictionary values.
class DictionaryMemo {
 public:
  // Registers the dictionary-encoded field at `path` with `id`. Several
  // fields may share an id if their dictionary types agree.
  Status AddField(int64_t id, FieldPath path, const TypePtr& dictionary_type);

  const DictionaryFieldMapper& mapper() const { return mapper_; }
  bool HasId(int64_t id) const { return entries_.count(id) != 0; }
  // Value type of the dictionary `id`.
  Result<TypePtr> GetValueType(int64_t id) const;
  // Path of the first field using `id` (where nested dictionaries hang).
  Result<FieldPath> GetPath(int64_t id) const;
  // The current dictionary, or nullptr if none was read yet.
  Result<ArrayDataPtr> GetDictionary(int64_t id) const;
  int num_dictionaries() const { return static_cast<int>(entries_.size()); }
  std::vector<int64_t> ids() const;

  // Installs a dictionary (a first one, or a replacement).
  Status SetDictionary(int64_t id, ArrayDataPtr dictionary);
  // Appends a delta to the current dictionary (which must exist).
  Status AppendDelta(int64_t id, const ArrayDataPtr& delta, MemoryPool* pool);

 private:
  struct Entry {
    TypePtr dictionary_type;  // the DictionaryType of the field(s)
    FieldPath path;
    ArrayDataPtr dictionary;
  };
  std::map<int64_t, Entry> entries_;
  DictionaryFieldMapper mapper_;
};

}  // namespace quiver::ipc::internal
