// Test-only C Data Interface producers: ArrowSchema / ArrowArray /
// ArrowArrayStream structs built by hand (as a foreign library would), whose
// release callbacks count how often they run. Tests corrupt the public
// fields after building (format = NULL, n_buffers = 3, ...); release only
// reads private_data, so it still frees everything exactly once.
// Not installed; not for use outside tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "quiver/c_data/abi.h"

namespace quiver::testutil {

// --- ArrowSchema ------------------------------------------------------------

struct HandSchemaPrivate {
  int* release_count = nullptr;
  std::string format;
  std::string name;
  std::string metadata;
  bool has_metadata = false;
  std::vector<std::unique_ptr<ArrowSchema>> children;
  std::vector<ArrowSchema*> child_pointers;
  std::unique_ptr<ArrowSchema> dictionary;
};

inline void ReleaseHandSchema(ArrowSchema* schema) {
  auto* p = static_cast<HandSchemaPrivate*>(schema->private_data);
  // Mark released first: a test may make a node its own child (a cycle).
  schema->release = nullptr;
  for (auto& child : p->children) {
    if (child->release != nullptr) child->release(child.get());
  }
  if (p->dictionary && p->dictionary->release != nullptr) {
    p->dictionary->release(p->dictionary.get());
  }
  if (p->release_count != nullptr) ++*p->release_count;
  delete p;
}

inline ArrowSchema HandSchema(int* release_count, std::string format, std::string name = "",
                              int64_t flags = ARROW_FLAG_NULLABLE,
                              std::vector<ArrowSchema> children = {},
                              const ArrowSchema* dictionary = nullptr) {
  auto* p = new HandSchemaPrivate;
  p->release_count = release_count;
  p->format = std::move(format);
  p->name = std::move(name);
  for (ArrowSchema& child : children) {
    p->children.push_back(std::make_unique<ArrowSchema>(child));
    p->child_pointers.push_back(p->children.back().get());
  }
  if (dictionary != nullptr) p->dictionary = std::make_unique<ArrowSchema>(*dictionary);
  ArrowSchema out{};
  out.format = p->format.c_str();
  out.name = p->name.c_str();
  out.metadata = nullptr;
  out.flags = flags;
  out.n_children = static_cast<int64_t>(p->children.size());
  out.children = p->children.empty() ? nullptr : p->child_pointers.data();
  out.dictionary = p->dictionary.get();
  out.release = &ReleaseHandSchema;
  out.private_data = p;
  return out;
}

// Gives `schema` these raw metadata bytes (kept alive by its private data).
inline void SetHandMetadata(ArrowSchema* schema, std::string bytes) {
  auto* p = static_cast<HandSchemaPrivate*>(schema->private_data);
  p->metadata = std::move(bytes);
  schema->metadata = p->metadata.data();
}

// The spec's metadata encoding, for building expectations.
inline std::string EncodeTestMetadata(
    const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out;
  auto put = [&out](int32_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(static_cast<int32_t>(pairs.size()));
  for (const auto& [k, v] : pairs) {
    put(static_cast<int32_t>(k.size()));
    out += k;
    put(static_cast<int32_t>(v.size()));
    out += v;
  }
  return out;
}

// --- ArrowArray ---------------------------------------------------------------

struct HandArrayPrivate {
  int* release_count = nullptr;
  std::vector<const void*> buffers;
  std::vector<std::unique_ptr<ArrowArray>> children;
  std::vector<ArrowArray*> child_pointers;
  std::unique_ptr<ArrowArray> dictionary;
  // Bytes the buffers point into, when the producer owns them.
  std::vector<std::vector<uint8_t>> owned;
};

inline void ReleaseHandArray(ArrowArray* array) {
  auto* p = static_cast<HandArrayPrivate*>(array->private_data);
  array->release = nullptr;
  for (auto& child : p->children) {
    if (child->release != nullptr) child->release(child.get());
  }
  if (p->dictionary && p->dictionary->release != nullptr) {
    p->dictionary->release(p->dictionary.get());
  }
  if (p->release_count != nullptr) ++*p->release_count;
  delete p;
}

// An ArrowArray over `buffers` (borrowed unless given to OwnBytes) whose
// release, and its children's, bump `release_count`.
inline ArrowArray HandArray(int* release_count, int64_t length, int64_t null_count,
                            int64_t offset, std::vector<const void*> buffers,
                            std::vector<ArrowArray> children = {},
                            const ArrowArray* dictionary = nullptr) {
  auto* p = new HandArrayPrivate;
  p->release_count = release_count;
  p->buffers = std::move(buffers);
  for (ArrowArray& child : children) {
    p->children.push_back(std::make_unique<ArrowArray>(child));
    p->child_pointers.push_back(p->children.back().get());
  }
  if (dictionary != nullptr) p->dictionary = std::make_unique<ArrowArray>(*dictionary);
  ArrowArray out{};
  out.length = length;
  out.null_count = null_count;
  out.offset = offset;
  out.n_buffers = static_cast<int64_t>(p->buffers.size());
  out.n_children = static_cast<int64_t>(p->children.size());
  out.buffers = p->buffers.empty() ? nullptr : p->buffers.data();
  out.children = p->children.empty() ? nullptr : p->child_pointers.data();
  out.dictionary = p->dictionary.get();
  out.release = &ReleaseHandArray;
  out.private_data = p;
  return out;
}

// Copies `bytes` into the array's private data and returns their address
// (stable: the vector is never resized afterwards).
template <typename T>
const void* OwnBytes(ArrowArray* array, const std::vector<T>& values) {
  auto* p = static_cast<HandArrayPrivate*>(array->private_data);
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  p->owned.push_back(std::move(bytes));
  return p->owned.back().data();
}

inline void SetHandBuffer(ArrowArray* array, int64_t i, const void* pointer) {
  auto* p = static_cast<HandArrayPrivate*>(array->private_data);
  p->buffers[static_cast<size_t>(i)] = pointer;
}

inline ArrowArray* HandChild(ArrowArray* array, int64_t i) {
  auto* p = static_cast<HandArrayPrivate*>(array->private_data);
  return p->children[static_cast<size_t>(i)].get();
}

}  // namespace quiver::testutil
