// Patterns of the string predicates (string_predicates.h), compiled once
// per call: what pyarrow does with a pattern, without a regex engine.
//
// Classification (Arrow C++ scalar_string_ascii.cc, MatchLike): a LIKE
// pattern without ignore_case is first tried against three shapes, on its
// raw bytes:
//   %+ L %+   (L: no '%' or '_', not ending in '\'; may be empty)  substring L
//   L %+      (the same L)                                          prefix L
//   %+ L'     (L': no '%' or '_')                                   suffix L'
// and L / L' are then taken literally, backslashes included (pyarrow's
// 'a\b%' matches "a\b..."). Any other pattern, and every pattern under
// ignore_case, is read as pyarrow's regex translation reads it: '%' any
// run of characters (newlines too), '_' one character (one UTF-8 code
// point for strings, one byte for binary), '\' makes the next byte a
// literal, a trailing lone '\' is dropped. The result is then classified
// again (no '_': equality, prefix, suffix or substring of the unescaped
// literal) so that only patterns with '_' or several literal runs take the
// general matcher.
//
// The general matcher: the pattern is a list of segments (literal bytes and
// '_' runs) between '%'s. The first segment is anchored at the start, the
// last at the end (matched backwards), and every middle one is matched at
// its leftmost position after the previous one; leftmost is always right
// for LIKE (a segment's match ends no later when it starts earlier), so
// there is no backtracking: O(n * m) at worst for a value of n bytes and a
// pattern of m, never exponential.
//
// ignore_case: the pattern's literals are case folded here, and the kernels
// fold each value before matching (case_fold_internal.h). Not installed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace quiver::compute::internal {

enum class MatchKind : uint8_t { kEquals, kPrefix, kSuffix, kSubstring, kLike };

struct LikePiece {
  std::string literal;  // bytes to match, or
  int32_t any = 0;      // a run of this many '_' (literal empty)
};
using LikeSegment = std::vector<LikePiece>;

struct Pattern {
  MatchKind kind = MatchKind::kEquals;
  bool utf8 = true;          // '_' is a UTF-8 code point (else a byte)
  bool ignore_case = false;  // values must be folded before matching
  std::string literal;       // kEquals .. kSubstring (folded under ignore_case)
  // kLike: the segments between '%'s (some may be empty), the first
  // anchored at the start unless `leading_any`, the last at the end
  // unless `trailing_any`.
  std::vector<LikeSegment> segments;
  bool leading_any = false;
  bool trailing_any = false;
};

// A SQL LIKE pattern, as the top of this file says.
Pattern CompileLike(std::string_view pattern, bool ignore_case, bool utf8);
// A literal for starts_with (kPrefix), ends_with (kSuffix) or
// match_substring (kSubstring).
Pattern CompileLiteral(MatchKind kind, std::string_view literal, bool ignore_case, bool utf8);

// Whether `value` (folded if the pattern ignores case) matches a kLike
// pattern.
bool MatchLikeGeneral(const Pattern& pattern, std::string_view value);

// The first position of `needle` in `haystack`, or -1 (0 for an empty
// needle): candidates found 16 at a time by comparing the needle's first
// and last bytes (SSE2), each checked in full. `readable_end` (optional)
// is the end of the memory around the haystack that may be read (the
// array's data buffer), so that a short haystack takes one 16-position
// step instead of a byte loop.
int64_t FindBytes(std::string_view haystack, std::string_view needle,
                  const char* readable_end = nullptr);

}  // namespace quiver::compute::internal
