// Dictionary id assignment and the reader's dictionary memo (see
// dictionary_internal.h).
#include "quiver/ipc/dictionary_internal.h"

#include "quiver/array/concatenate.h"

namespace quiver::ipc::internal {

namespace {

std::string PathToString(const FieldPath& path) {
  std::string out = "[";
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(path[i]);
  }
  return out + "]";
}

Status AssignIds(const FieldVector& fields, FieldPath* path, int depth, int max_depth,
                 DictionaryFieldMapper* mapper) {
  if (fields.empty()) return Status::OK();
  if (depth > max_depth) {
    return Status::Invalid("schema nests deeper than the limit of ", max_depth, " levels");
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    path->push_back(static_cast<int>(i));
    const DataType* type = fields[i]->type().get();
    if (type->id() == Type::kDictionary) {
      QUIVER_RETURN_NOT_OK(mapper->AddField(mapper->num_fields(), *path));
      type = TypeAs<DictionaryType>(*type).value_type().get();
    }
    QUIVER_RETURN_NOT_OK(AssignIds(type->fields(), path, depth + 1, max_depth, mapper));
    path->pop_back();
  }
  return Status::OK();
}

}  // namespace

Result<DictionaryFieldMapper> DictionaryFieldMapper::FromSchema(const Schema& schema,
                                                                int max_depth) {
  DictionaryFieldMapper mapper;
  FieldPath path;
  QUIVER_RETURN_NOT_OK(AssignIds(schema.fields(), &path, 1, max_depth, &mapper));
  return mapper;
}

Status DictionaryFieldMapper::AddField(int64_t id, FieldPath path) {
  auto [it, inserted] = ids_.emplace(std::move(path), id);
  if (!inserted) {
    return Status::Invalid("field at path ", PathToString(it->first),
                           " has two dictionary ids");
  }
  return Status::OK();
}

Result<int64_t> DictionaryFieldMapper::GetFieldId(const FieldPath& path) const {
  auto it = ids_.find(path);
  if (it == ids_.end()) {
    return Status::KeyError("no dictionary id for the field at path ", PathToString(path));
  }
  return it->second;
}

Status DictionaryMemo::AddField(int64_t id, FieldPath path, const TypePtr& dictionary_type) {
  auto it = entries_.find(id);
  if (it != entries_.end()) {
    if (!it->second.dictionary_type->Equals(*dictionary_type)) {
      return Status::Invalid("dictionary id ", id, " is used by fields of different types: ",
                             it->second.dictionary_type->ToString(), " and ",
                             dictionary_type->ToString());
    }
  } else {
    entries_.emplace(id, Entry{dictionary_type, path, nullptr});
  }
  return mapper_.AddField(id, std::move(path));
}

Result<TypePtr> DictionaryMemo::GetValueType(int64_t id) const {
  auto it = entries_.find(id);
  if (it == entries_.end()) return Status::KeyError("unknown dictionary id ", id);
  return TypeAs<DictionaryType>(*it->second.dictionary_type).value_type();
}

Result<FieldPath> DictionaryMemo::GetPath(int64_t id) const {
  auto it = entries_.find(id);
  if (it == entries_.end()) return Status::KeyError("unknown dictionary id ", id);
  return it->second.path;
}

Result<ArrayDataPtr> DictionaryMemo::GetDictionary(int64_t id) const {
  auto it = entries_.find(id);
  if (it == entries_.end()) return Status::KeyError("unknown dictionary id ", id);
  return it->second.dictionary;
}

std::vector<int64_t> DictionaryMemo::ids() const {
  std::vector<int64_t> out;
  out.reserve(entries_.size());
  for (const auto& [id, entry] : entries_) out.push_back(id);
  return out;
}

Status DictionaryMemo::SetDictionary(int64_t id, ArrayDataPtr dictionary) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return Status::KeyError("unknown dictionary id ", id);
  it->second.dictionary = std::move(dictionary);
  return Status::OK();
}

Status DictionaryMemo::AppendDelta(int64_t id, const ArrayDataPtr& delta, MemoryPool* pool) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return Status::KeyError("unknown dictionary id ", id);
  if (it->second.dictionary == nullptr) {
    return Status::Invalid("delta for dictionary id ", id, " before its first dictionary");
  }
  QUIVER_ASSIGN_OR_RAISE(it->second.dictionary,
                         Concatenate({it->second.dictionary, delta}, pool));
  return Status::OK();
}

}  // namespace quiver::ipc::internal
