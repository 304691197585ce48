"""created_by: "quiver version X.Y.Z (build HASH)", X.Y.Z being CMake's project(VERSION)
(also quiver.__version__, the package version pyproject.toml reads from CMakeLists.txt, and
`quiver --version`), HASH the git commit the library was built from (cmake/QuiverBuildInfo.cmake;
no "(build ...)" from a tree without git). Checked against the two parsers readers apply:
parquet-java's VersionParser regex and Arrow C++'s ApplicationVersion rules."""

import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import parquet_pages
import quiver
from test_golden import GOLDEN_CREATED_BY, with_golden_created_by

REPO = Path(__file__).resolve().parents[2]

# org.apache.parquet.VersionParser.FORMAT, matched whole (Java's matches()).
PARQUET_JAVA_FORMAT = r"(.*?)\s+version\s*(?:([^(]*?)\s*(?:\(\s*build\s*([^)]*?)\s*\))?)?"


def arrow_cpp_application_version(created_by):
    """(application, (major, minor, patch), build) as Arrow C++'s ApplicationVersionParser
    (parquet/metadata.cc) reads `created_by`; None where it gives up."""
    spaces = " \t\v\r\n\f"
    mark = created_by.find(" version ")
    app = (created_by if mark < 0 else created_by[:mark]).strip(spaces)
    if mark < 0:
        return app, None, None
    rest = created_by[mark + len(" version "):].lstrip(spaces)
    end = rest.find(" (")
    version = (rest if end < 0 else rest[:end]).rstrip(spaces)
    m = re.match(r"(\d+)\.(\d+)\.(\d+)", version)
    if not m:
        return app, None, None
    build = None
    b = created_by.find(" (build ", mark)
    if b >= 0 and ")" in created_by[b:]:
        build = created_by[b + len(" (build "):created_by.index(")", b)].strip(spaces)
    return app, tuple(int(x) for x in m.groups()), build


def cmake_project_version():
    text = (REPO / "CMakeLists.txt").read_text()
    return re.search(r"project\(quiver VERSION ([0-9]+\.[0-9]+\.[0-9]+)", text).group(1)


def test_version_is_cmakes():
    assert quiver.__version__ == cmake_project_version()
    pyproject = (REPO / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and "version = " not in pyproject.split("[tool")[0]
    # The regex pyproject.toml gives scikit-build-core finds the same version.
    regex = re.search(r"regex = '(.*)'", pyproject).group(1)
    assert re.search(regex, (REPO / "CMakeLists.txt").read_text()).group("value") == quiver.__version__


def test_created_by_of_written_files():
    sink = io.BytesIO()
    quiver.write_parquet(pa.table({"a": [1, 2]}), sink)
    created_by = pq.ParquetFile(pa.BufferReader(sink.getvalue())).metadata.created_by
    commit = quiver._quiver.build_commit
    assert commit == "" or re.fullmatch(r"[0-9a-f]{40}", commit), commit
    assert created_by == f"quiver version {quiver.__version__}" + (f" (build {commit})" if commit else "")
    m = re.fullmatch(PARQUET_JAVA_FORMAT, created_by)
    assert m is not None
    assert m.group(1) == "quiver" and m.group(2) == quiver.__version__ and (m.group(3) or "") == commit
    app, version, build = arrow_cpp_application_version(created_by)
    assert app == "quiver"
    assert version == tuple(int(x) for x in quiver.__version__.split("."))
    assert build == (commit or None)


def test_golden_normalisation_keeps_a_valid_file():
    """test_golden hashes files with created_by put back to GOLDEN_CREATED_BY: the result is
    still a file pyarrow reads, equal, with that created_by."""
    table = pa.table({"a": list(range(100)), "s": [str(i % 7) for i in range(100)]})
    sink = io.BytesIO()
    quiver.write_parquet(table, sink)
    data = with_golden_created_by(sink.getvalue())
    f = pq.ParquetFile(pa.BufferReader(data))
    assert f.metadata.created_by == GOLDEN_CREATED_BY
    assert f.read().equals(table)
    assert parquet_pages.read_structure(data).created_by == GOLDEN_CREATED_BY


def _run_build_info(source_dir, out):
    cmake = shutil.which("cmake")
    subprocess.run([cmake, f"-DSOURCE_DIR={source_dir}", "-DVERSION=9.8.7",
                    f"-DTEMPLATE={REPO / 'src/quiver/util/build_info.cc.in'}", f"-DOUTPUT={out}",
                    "-P", str(REPO / "cmake/QuiverBuildInfo.cmake")], check=True, capture_output=True)
    return out.read_text()


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_build_info_stamps_the_commit_and_rewrites_only_on_change(tmp_path):
    """The build-time script: the commit of the source tree (when it is the top of a git
    repository), the file left untouched when nothing changed (so a build recompiles
    nothing), and no commit for a tree without git."""
    out = tmp_path / "build_info.cc"
    text = _run_build_info(REPO, out)
    assert 'Version() { return "9.8.7"; }' in text
    head = None
    if shutil.which("git"):
        r = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True)
        top = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True)
        if r.returncode == 0 and Path(top.stdout.strip()).resolve() == REPO.resolve():
            head = r.stdout.strip()
    assert f'BuildCommit() {{ return "{head or ""}"; }}' in text
    os.utime(out, (1_000_000_000, 1_000_000_000))
    _run_build_info(REPO, out)
    assert out.stat().st_mtime == 1_000_000_000  # unchanged text: not rewritten
    # A tree without git (a source archive), here a folder inside no repository.
    bare = tmp_path / "archive"
    bare.mkdir()
    out2 = tmp_path / "bare.cc"
    assert 'BuildCommit() { return ""; }' in _run_build_info(bare, out2)
