#include "quiver/compute/simd_level.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace quiver::compute {

namespace {

thread_local std::optional<SimdLevel> forced_level;
thread_local SimdLevel last_level = SimdLevel::kScalar;

SimdLevel Detect() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") &&
                    __builtin_cpu_supports("popcnt");
  if (!avx2) return SimdLevel::kScalar;
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512vl") &&
                      __builtin_cpu_supports("avx512vbmi2");
  return avx512 ? SimdLevel::kAvx512 : SimdLevel::kAvx2;
#else
  return SimdLevel::kScalar;
#endif
}

// The detected level capped by QUIVER_SIMD_LEVEL (an unknown name caps
// nothing).
SimdLevel ProcessLevel() {
  static const SimdLevel level = [] {
    SimdLevel detected = Detect();
    if (const char* env = std::getenv("QUIVER_SIMD_LEVEL"); env != nullptr) {
      auto cap = ParseSimdLevel(env);
      if (cap.ok()) detected = std::min(detected, *cap);
    }
    return detected;
  }();
  return level;
}

}  // namespace

std::string_view SimdLevelName(SimdLevel level) {
  switch (level) {
    case SimdLevel::kScalar: return "scalar";
    case SimdLevel::kAvx2: return "avx2";
    case SimdLevel::kAvx512: return "avx512";
  }
  return "unknown";
}

Result<SimdLevel> ParseSimdLevel(std::string_view name) {
  for (SimdLevel level : {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    if (name == SimdLevelName(level)) return level;
  }
  return Status::Invalid("unknown SIMD level '", std::string(name),
                         "' (scalar, avx2 or avx512)");
}

SimdLevel DetectedSimdLevel() {
  static const SimdLevel level = Detect();
  return level;
}

SimdLevel ActiveSimdLevel() {
  return forced_level.has_value() ? *forced_level : ProcessLevel();
}

Result<ScopedSimdLevel> ScopedSimdLevel::Make(SimdLevel level) {
  if (level > DetectedSimdLevel()) {
    return Status::Invalid("this CPU lacks SIMD level ", std::string(SimdLevelName(level)),
                           " (it has ", std::string(SimdLevelName(DetectedSimdLevel())), ")");
  }
  std::optional<SimdLevel> previous = forced_level;
  forced_level = level;
  return ScopedSimdLevel(previous);
}

ScopedSimdLevel::ScopedSimdLevel(ScopedSimdLevel&& other) noexcept
    : previous_(other.previous_), active_(other.active_) {
  other.active_ = false;
}

ScopedSimdLevel::~ScopedSimdLevel() {
  if (active_) forced_level = previous_;
}

void RecordSimdLevel(SimdLevel level) { last_level = level; }
SimdLevel LastSimdLevel() { return last_level; }

}  // namespace quiver::compute
