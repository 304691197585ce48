"""quiver.compute.simd_levels: the level the CPU has and the one kernels use,
capped by QUIVER_SIMD_LEVEL for a whole process."""

import os
import subprocess
import sys

import quiver
import quiver.compute as qc

LEVELS = ["scalar", "avx2", "avx512"]


def test_levels_are_named_and_ordered():
    levels = qc.simd_levels()
    assert levels["detected"] in LEVELS
    assert levels["active"] in LEVELS
    assert LEVELS.index(levels["active"]) <= LEVELS.index(levels["detected"])
    assert quiver.compute is qc


def test_environment_caps_the_level():
    env = dict(os.environ, QUIVER_SIMD_LEVEL="scalar")
    out = subprocess.run(
        [sys.executable, "-c", "import quiver.compute as c; print(c.simd_levels()['active'])"],
        env=env, capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "scalar"
