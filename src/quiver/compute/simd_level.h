// Which instruction set the compute kernels use. Each kernel with vector
// paths picks the best level the CPU has at its call (ActiveSimdLevel());
// tests force each level in turn (ScopedSimdLevel) and check the level that
// actually ran (LastSimdLevel), so every path is exercised on the same
// inputs; a forced level the CPU lacks is refused (the test reports it as
// skipped). QUIVER_SIMD_LEVEL=scalar|avx2|avx512 in the environment caps the
// level for a whole process (benchmarks, bug reports).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "quiver/util/result.h"

namespace quiver::compute {

enum class SimdLevel : uint8_t {
  kScalar = 0,
  // AVX2 + BMI2 + POPCNT.
  kAvx2 = 1,
  // AVX-512 F, BW, VL, VBMI2 (compress/expand of bytes and words) + the above.
  kAvx512 = 2,
};

std::string_view SimdLevelName(SimdLevel level);
Result<SimdLevel> ParseSimdLevel(std::string_view name);

// The best level this CPU supports.
SimdLevel DetectedSimdLevel();
// What kernels use now: the detected level, capped by QUIVER_SIMD_LEVEL and
// by a ScopedSimdLevel in force on this thread.
SimdLevel ActiveSimdLevel();

// Forces kernels on this thread to `level` while alive. Invalid (from
// Make) when the CPU lacks it.
class ScopedSimdLevel {
 public:
  static Result<ScopedSimdLevel> Make(SimdLevel level);
  ScopedSimdLevel(ScopedSimdLevel&& other) noexcept;
  ScopedSimdLevel& operator=(ScopedSimdLevel&&) = delete;
  ScopedSimdLevel(const ScopedSimdLevel&) = delete;
  ~ScopedSimdLevel();

 private:
  explicit ScopedSimdLevel(std::optional<SimdLevel> previous) : previous_(previous) {}
  std::optional<SimdLevel> previous_;
  bool active_ = true;
};

// Kernels record the level their last call on this thread ran at (scalar
// when a kernel has no vector path or the input was too short for one).
void RecordSimdLevel(SimdLevel level);
SimdLevel LastSimdLevel();

}  // namespace quiver::compute
