// An allocator whose value-initialisation is default-initialisation: a
// std::vector<T, DefaultInitAllocator<T>> of a trivial T leaves the elements
// that resize() adds uninitialised instead of zeroing them. For vectors that
// are grown and then filled by hand (the Parquet levels: a list<list<int32>>
// write zeroed 29 MB of levels about to be overwritten). resize(n, value),
// insert and push_back still write what they are given. (libstdc++ copies
// and fills such a vector element by element, not by memmove: copy hot
// ones with resize and memcpy.)
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace quiver {

template <typename T>
class DefaultInitAllocator : public std::allocator<T> {
 public:
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() noexcept = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>& other) noexcept : std::allocator<T>(other) {}

  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    std::allocator_traits<std::allocator<T>>::construct(static_cast<std::allocator<T>&>(*this), p,
                                                        std::forward<Args>(args)...);
  }
};

}  // namespace quiver
