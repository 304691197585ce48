// LIKE patterns and literal searches of the string predicates
// (like_pattern_internal.h says what and why).
#include "quiver/compute/like_pattern_internal.h"

#include <bit>
#include <cstring>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "quiver/array/memo_table.h"  // BytesEqual
#include "quiver/compute/case_fold_internal.h"
#include "quiver/util/utf8.h"

namespace quiver::compute::internal {

namespace {

using quiver::internal::BytesEqual;

bool HasWildcard(std::string_view s) { return s.find_first_of("%_") != std::string_view::npos; }

// pyarrow's three shapes of a LIKE pattern it searches for without a
// regex (see the header); false for any other pattern.
bool RawShape(std::string_view p, MatchKind* kind, std::string_view* literal) {
  size_t lead = 0;
  while (lead < p.size() && p[lead] == '%') ++lead;
  if (lead == p.size()) {  // only '%'s: "%" is a prefix, "%%..." a substring
    if (p.empty()) return false;
    *kind = p.size() == 1 ? MatchKind::kPrefix : MatchKind::kSubstring;
    *literal = {};
    return true;
  }
  size_t trail = 0;
  while (p[p.size() - 1 - trail] == '%') ++trail;
  const std::string_view middle = p.substr(lead, p.size() - lead - trail);
  if (HasWildcard(middle)) return false;
  const bool ends_in_escape = middle.back() == '\\';
  if (lead > 0 && trail > 0 && !ends_in_escape) {
    *kind = MatchKind::kSubstring;
  } else if (lead == 0 && trail > 0 && !ends_in_escape) {
    *kind = MatchKind::kPrefix;
  } else if (lead > 0 && trail == 0) {
    *kind = MatchKind::kSuffix;
  } else {
    return false;
  }
  *literal = middle;
  return true;
}

std::string Fold(std::string_view s, bool utf8) {
  std::string out;
  if (utf8) {
    out.resize(static_cast<size_t>(FoldedUtf8Capacity(static_cast<int64_t>(s.size()))));
    out.resize(static_cast<size_t>(FoldUtf8(s, reinterpret_cast<uint8_t*>(out.data()))));
  } else {
    out.resize(s.size());
    FoldBinary(s, reinterpret_cast<uint8_t*>(out.data()));
  }
  return out;
}

// A value being matched: its bytes and how a character is delimited.
struct Text {
  const uint8_t* s;
  int64_t n;
  bool utf8;

  // The start of the character after the one at p.
  int64_t Next(int64_t p) const {
    ++p;
    if (utf8) {
      while (p < n && IsUtf8Continuation(s[p])) ++p;
    }
    return p;
  }
  // The start of the character before p (not before lo).
  int64_t Prev(int64_t p, int64_t lo) const {
    --p;
    if (utf8) {
      while (p > lo && IsUtf8Continuation(s[p])) --p;
    }
    return p;
  }
};

// Whether `seg` matches t from p, within [p, limit); its end in *end.
bool MatchAt(const LikeSegment& seg, const Text& t, int64_t p, int64_t limit, int64_t* end) {
  for (const LikePiece& piece : seg) {
    if (piece.any > 0) {
      for (int32_t k = 0; k < piece.any; ++k) {
        if (p >= limit) return false;
        p = t.Next(p);
      }
    } else {
      const auto m = static_cast<int64_t>(piece.literal.size());
      if (limit - p < m || !BytesEqual(t.s + p, piece.literal.data(), static_cast<size_t>(m))) {
        return false;
      }
      p += m;
    }
  }
  if (p > limit) return false;
  *end = p;
  return true;
}

// Whether `seg` matches t's end, starting at or after lo; its start in
// *start.
bool MatchBackward(const LikeSegment& seg, const Text& t, int64_t lo, int64_t* start) {
  int64_t p = t.n;
  for (auto it = seg.rbegin(); it != seg.rend(); ++it) {
    if (it->any > 0) {
      for (int32_t k = 0; k < it->any; ++k) {
        if (p <= lo) return false;
        p = t.Prev(p, lo);
      }
    } else {
      const auto m = static_cast<int64_t>(it->literal.size());
      if (p - lo < m || !BytesEqual(t.s + p - m, it->literal.data(), static_cast<size_t>(m))) {
        return false;
      }
      p -= m;
    }
  }
  *start = p;
  return true;
}

// The leftmost match of `seg` starting at or after `from` and ending by
// `limit`; its end in *end.
bool FindSegment(const LikeSegment& seg, const Text& t, int64_t from, int64_t limit, int64_t* end) {
  if (seg.empty()) {
    *end = from;
    return true;
  }
  if (seg[0].any == 0) {  // candidates: where its first literal occurs
    const std::string& first = seg[0].literal;
    for (int64_t p = from;;) {
      const int64_t q = FindBytes(
          {reinterpret_cast<const char*>(t.s) + p, static_cast<size_t>(limit - p)}, first);
      if (q < 0) return false;
      if (MatchAt(seg, t, p + q, limit, end)) return true;
      p += q + 1;
    }
  }
  for (int64_t p = from; p < limit; p = t.Next(p)) {
    if (MatchAt(seg, t, p, limit, end)) return true;
  }
  return false;
}

// Appends a literal byte or a '_' to a segment, merging runs.
void AddLiteral(LikeSegment* seg, char c) {
  if (seg->empty() || seg->back().any > 0) seg->emplace_back();
  seg->back().literal.push_back(c);
}
void AddAny(LikeSegment* seg) {
  if (seg->empty() || seg->back().any == 0) seg->push_back(LikePiece{{}, 0});
  ++seg->back().any;
}

}  // namespace

Pattern CompileLiteral(MatchKind kind, std::string_view literal, bool ignore_case, bool utf8) {
  Pattern p;
  p.kind = kind;
  p.utf8 = utf8;
  p.ignore_case = ignore_case;
  p.literal = ignore_case ? Fold(literal, utf8) : std::string(literal);
  return p;
}

Pattern CompileLike(std::string_view pattern, bool ignore_case, bool utf8) {
  MatchKind kind;
  std::string_view literal;
  if (!ignore_case && RawShape(pattern, &kind, &literal)) {
    return CompileLiteral(kind, literal, false, utf8);
  }
  // pyarrow's regex translation: segments between runs of '%'.
  Pattern p;
  p.kind = MatchKind::kLike;
  p.utf8 = utf8;
  p.ignore_case = ignore_case;
  p.segments.emplace_back();
  bool escaped = false;
  bool any = false;  // a '_' somewhere
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (!escaped && c == '%') {
      if (i == 0) p.leading_any = true;
      if (!p.segments.back().empty()) p.segments.emplace_back();
      p.trailing_any = true;
      continue;
    }
    if (!escaped && c == '\\') {
      escaped = true;  // a trailing lone '\' is dropped
      continue;
    }
    p.trailing_any = false;
    if (!escaped && c == '_') {
      AddAny(&p.segments.back());
      any = true;
    } else {
      AddLiteral(&p.segments.back(), c);
      escaped = false;
    }
  }
  if (p.trailing_any && p.segments.size() > 1 && p.segments.back().empty()) p.segments.pop_back();
  if (ignore_case) {
    for (LikeSegment& seg : p.segments) {
      for (LikePiece& piece : seg) piece.literal = Fold(piece.literal, utf8);
    }
  }
  // Without '_', one literal run around which '%'s sit is a plain search.
  if (!any && p.segments.size() == 1) {
    p.literal = p.segments[0].empty() ? std::string() : std::move(p.segments[0][0].literal);
    if (p.leading_any && p.trailing_any) {
      p.kind = MatchKind::kSubstring;
    } else if (p.trailing_any) {
      p.kind = MatchKind::kPrefix;
    } else if (p.leading_any) {
      p.kind = MatchKind::kSuffix;
    } else {
      p.kind = MatchKind::kEquals;
    }
    p.segments.clear();
  }
  return p;
}

bool MatchLikeGeneral(const Pattern& pattern, std::string_view value) {
  const Text t{reinterpret_cast<const uint8_t*>(value.data()), static_cast<int64_t>(value.size()),
               pattern.utf8};
  const std::vector<LikeSegment>& segs = pattern.segments;
  int64_t pos = 0;
  if (!pattern.leading_any && !pattern.trailing_any && segs.size() == 1) {
    return MatchAt(segs[0], t, 0, t.n, &pos) && pos == t.n;
  }
  size_t first = 0;
  size_t last = segs.size();
  if (!pattern.leading_any) {
    if (!MatchAt(segs[0], t, 0, t.n, &pos)) return false;
    first = 1;
  }
  int64_t limit = t.n;
  if (!pattern.trailing_any) {
    --last;
    if (!MatchBackward(segs[last], t, pos, &limit)) return false;
  }
  for (size_t i = first; i < last; ++i) {
    if (!FindSegment(segs[i], t, pos, limit, &pos)) return false;
  }
  return true;
}

int64_t FindBytes(std::string_view haystack, std::string_view needle, const char* readable_end) {
  const auto* h = reinterpret_cast<const uint8_t*>(haystack.data());
  const auto* nd = reinterpret_cast<const uint8_t*>(needle.data());
  const auto n = static_cast<int64_t>(haystack.size());
  const auto m = static_cast<int64_t>(needle.size());
  if (m == 0) return 0;
  if (m > n) return -1;
  const int64_t last = n - m;  // the last possible start
  const uint8_t first_byte = nd[0];
  const uint8_t last_byte = nd[m - 1];
  const auto inner = static_cast<size_t>(m > 2 ? m - 2 : 0);
  int64_t i = 0;
#if defined(__SSE2__)
  // Wojciech Mula's "SIMD-friendly algorithm for substring searching":
  // starts i..i+15 whose first and last bytes match. A step reads bytes
  // [i, i + 15 + m); past the haystack only within readable_end, the
  // starts beyond `last` masked off.
  const auto* limit = reinterpret_cast<const uint8_t*>(readable_end);
  const __m128i f = _mm_set1_epi8(static_cast<char>(first_byte));
  const __m128i l = _mm_set1_epi8(static_cast<char>(last_byte));
  for (; i <= last; i += 16) {
    const bool full = i + 15 <= last;
    if (!full && (limit == nullptr || limit - (h + i) < 15 + m)) break;
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + i + m - 1));
    auto mask = static_cast<uint32_t>(
        _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, f), _mm_cmpeq_epi8(b, l))));
    if (!full) mask &= (uint32_t{1} << (last - i + 1)) - 1;
    for (; mask != 0; mask &= mask - 1) {
      const int64_t k = i + std::countr_zero(mask);
      if (BytesEqual(h + k + 1, nd + 1, inner)) return k;
    }
  }
#endif
  for (; i <= last; ++i) {
    if (h[i] == first_byte && h[i + m - 1] == last_byte && BytesEqual(h + i + 1, nd + 1, inner)) {
      return i;
    }
  }
  return -1;
}

}  // namespace quiver::compute::internal
