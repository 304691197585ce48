"""quiver.compute: kernels over Arrow arrays with pyarrow.compute's names,
options and semantics (src/quiver/compute; docs/design.md "Compute")."""

from quiver._quiver import _compute


def simd_levels():
    """{'detected': level, 'active': level}: the SIMD level this CPU supports
    and the one the kernels use ('scalar', 'avx2' or 'avx512'; the
    QUIVER_SIMD_LEVEL environment variable caps it)."""
    return dict(_compute.simd_levels())


__all__ = ["simd_levels"]
