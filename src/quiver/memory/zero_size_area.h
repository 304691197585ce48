// The zero-size area: the address of every buffer that owns no memory.
//
// Why a real, mapped, aligned address instead of nullptr or a dangling
// pointer: on x86-64 with AVX-512 and glibc >= 2.35, memcmp/bcmp of zero bytes
// at an unmapped address costs ~100 ns instead of ~2 ns (the vector code does
// a masked load, and a masked load of nothing at an unmapped address still
// walks the page tables). Writing a million empty strings became 14x slower in
// a peer library because empty buffers pointed at 0x1-like addresses. A null
// pointer is worse still: memcpy/memcmp with null is undefined behaviour even
// for zero bytes. So every empty buffer points here: static storage, aligned
// to 256 bytes, never written, never freed.
//
// The area lives in .bss (anonymous memory), not .rodata: a file-backed
// read-only page that nothing reads can be reclaimed by the kernel (a DAMON
// pageout monitor runs on these machines), after which zero-length compares
// at it cost ~100x again until the page is touched. An anonymous page with
// no swap cannot be paged out; it is touched once at start-up so it is
// mapped (to the kernel's zero page) before the first compare.
#pragma once

#include <cstdint>

namespace quiver {

inline constexpr int64_t kZeroSizeAreaAlignment = 256;

namespace internal {
// Writable only so that it is placed in .bss; nothing ever writes it.
alignas(kZeroSizeAreaAlignment) extern uint8_t kZeroSizeArea[kZeroSizeAreaAlignment];
}  // namespace internal

// The shared empty address. Its bytes are zero and must never be written.
inline uint8_t* ZeroSizeArea() noexcept {
  return internal::kZeroSizeArea;
}

inline bool IsZeroSizeArea(const void* p) noexcept {
  return p == static_cast<const void*>(internal::kZeroSizeArea);
}

}  // namespace quiver
