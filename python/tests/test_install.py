"""The installed C++ package: `cmake --install build/release` into a temporary
prefix, then a separate CMake project (examples/find_package) finds it with
find_package(quiver), links quiver::quiver, builds and runs: the program
writes a small table as Parquet into memory and checks the PAR1 framing.

Skipped when cmake is missing or the release tree (make release) is not
built. QUIVER_RELEASE_BUILD_DIR overrides the tree (default build/release).
"""

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("QUIVER_RELEASE_BUILD_DIR", ROOT / "build" / "release"))
CMAKE = shutil.which("cmake")

pytestmark = [
    pytest.mark.skipif(CMAKE is None, reason="cmake is not installed"),
    pytest.mark.skipif(not (BUILD / "cmake_install.cmake").exists(),
                       reason=f"{BUILD} is not configured with install rules (make release)"),
]


def run(*args, **kwargs):
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=300,
                          **kwargs)
    assert proc.returncode == 0, (
        f"{' '.join(map(str, args))} exited {proc.returncode}\n"
        f"stdout:\n{proc.stdout[-4000:]}\nstderr:\n{proc.stderr[-4000:]}")
    return proc


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    prefix = tmp_path_factory.mktemp("quiver-prefix")
    run(CMAKE, "--install", BUILD, "--prefix", prefix)
    return prefix


def test_installed_tree_layout(prefix):
    cmakedir = prefix / "lib" / "cmake" / "quiver"
    for name in ("quiverConfig.cmake", "quiverConfigVersion.cmake", "quiverTargets.cmake"):
        assert (cmakedir / name).is_file(), name
    assert (prefix / "lib" / "libquiver_util.a").is_file()
    assert (prefix / "lib" / "libquiver_parquet_writer.a").is_file()
    assert (prefix / "include" / "quiver" / "parquet" / "writer" / "file_writer.h").is_file()
    assert (prefix / "bin" / "quiver").is_file()
    headers = sorted(p.relative_to(prefix / "include").as_posix()
                     for p in (prefix / "include").rglob("*.h"))
    # Internal headers and test utilities stay private.
    private = [h for h in headers if "test_util" in h or h.endswith("_internal.h")]
    assert private == []
    # Every quiver header an installed header includes is installed too.
    installed = set(headers)
    missing = []
    for h in headers:
        for line in (prefix / "include" / h).read_text().splitlines():
            line = line.strip()
            if line.startswith("#include \"quiver/"):
                target = line.split('"')[1]
                if target not in installed:
                    missing.append(f"{h} includes {target}")
    assert missing == []


def test_find_package_builds_and_runs_a_program(prefix, tmp_path):
    build = tmp_path / "build"
    configure = [CMAKE, "-S", ROOT / "examples" / "find_package", "-B", build,
                 f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release"]
    if shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    run(*configure)
    run(CMAKE, "--build", build)
    out = run(build / "write_parquet")
    assert out.stdout.startswith("wrote ") and "3 rows, 2 columns" in out.stdout


def _includes(path, prefix, seen):
    """The quiver headers `path` includes, transitively."""
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("#include \"quiver/"):
            target = line.split('"')[1]
            if target not in seen:
                seen.add(target)
                _includes(prefix / "include" / target, prefix, seen)
    return seen


def test_every_installed_header_compiles_in_a_consumer(prefix, tmp_path):
    """One translation unit including every installed header, compiled against the
    installed tree alone (C++20, as quiver::quiver requires); and the metadata layer's
    public headers free of the generated Thrift types (their header is internal and not
    installed)."""
    cxx = shutil.which(os.environ.get("CXX", "c++")) or shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler")
    include = prefix / "include"
    headers = sorted(p.relative_to(include).as_posix() for p in include.rglob("*.h"))
    source = tmp_path / "all_headers.cc"
    source.write_text("".join(f'#include "{h}"\n' for h in headers) + "int main() { return 0; }\n")
    run(cxx, "-std=c++20", "-fsyntax-only", f"-I{include}", source)
    thrift = "quiver/parquet/thrift/parquet_types_internal.h"
    with_thrift = {h for h in headers if thrift in _includes(include / h, prefix, set())}
    with_thrift |= {thrift} if thrift in headers else set()
    assert with_thrift == set(), sorted(with_thrift)
    assert not any(h.startswith("quiver/parquet/thrift/parquet_types") for h in headers), headers
    # Nor does any installed header name a generated type (namespace parquet::format).
    naming = [h for h in headers if "format::" in (include / h).read_text()]
    assert naming == [], naming
    for h in ("quiver/parquet/metadata/statistics.h", "quiver/parquet/metadata/page_index.h",
              "quiver/parquet/metadata/file_metadata.h", "quiver/array/scalar.h",
              "quiver/parquet/types.h"):
        assert h in headers and h not in with_thrift, h
