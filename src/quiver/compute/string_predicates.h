// String predicates with pyarrow.compute's names and semantics:
//  - MatchLike (match_like): SQL LIKE; '%' matches any run of characters,
//    '_' exactly one (a UTF-8 code point of a string, a byte of a binary
//    value), '\' makes the next character literal (a trailing lone '\' is
//    dropped, as pyarrow's regex translation drops it). NOT LIKE is
//    Invert(MatchLike(...)).
//  - StartsWith, EndsWith, MatchSubstring: the pattern is a literal.
//  - ignore_case: Unicode simple case folding, as pyarrow's RE2 matching
//    ('K' matches 'k' and U+212A, 'ΣΑΣ' matches 'σας', 'ß' does not match
//    "ss", Turkish 'İ' and 'ı' match only themselves); in binary values
//    only ASCII letters fold (pyarrow's RE2 Latin-1 mode, as measured).
// Inputs: string, large_string, string_view, binary, large_binary,
// binary_view arrays (any offset) or scalars; another type is
// NotImplemented "Function 'match_like' has no kernel matching input types
// (int64)". The result is a boolean array (a boolean scalar for a scalar)
// whose validity is the input's; results are written 64 rows to a word.
// A pattern is compiled once per call (like_pattern_internal.h): equality,
// prefix and suffix compare bytes in place, substrings are found 16
// positions at a time, and other LIKE patterns run a linear-time segment
// matcher (no regex engine, never exponential).
#pragma once

#include <string>

#include "quiver/compute/datum.h"
#include "quiver/memory/memory_pool.h"
#include "quiver/util/result.h"

namespace quiver::compute {

struct MatchOptions {
  std::string pattern;
  bool ignore_case = false;
};

Result<Datum> MatchLike(const Datum& values, const MatchOptions& options,
                        MemoryPool* pool = DefaultMemoryPool());
Result<Datum> StartsWith(const Datum& values, const MatchOptions& options,
                         MemoryPool* pool = DefaultMemoryPool());
Result<Datum> EndsWith(const Datum& values, const MatchOptions& options,
                       MemoryPool* pool = DefaultMemoryPool());
Result<Datum> MatchSubstring(const Datum& values, const MatchOptions& options,
                             MemoryPool* pool = DefaultMemoryPool());

}  // namespace quiver::compute
