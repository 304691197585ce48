"""`quiver inspect --html OUT.html FILE`: the self-contained layout page,
opened as a user would, in headless Chromium (Debian's chromium package,
installed by scripts/install-deps.sh): the screenshot is not blank and the
page's text (the DOM after its script ran) names every column with its page
count, the page counts judged by parquet_pages (an independent reader of
page headers) on a file written by pyarrow and one written by Quiver with CDC.

The binary is $QUIVER_CLI, by default build/release/quiver.
"""

import html.parser
import os
import re
import shutil
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from parquet_pages import read_structure

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("QUIVER_CLI", str(REPO / "build" / "release" / "quiver")))
CHROMIUM = shutil.which("chromium")

pytestmark = pytest.mark.skipif(
    not (CLI.is_file() and os.access(CLI, os.X_OK)),
    reason=f"the quiver CLI is not built at {CLI} (run `make release` or set QUIVER_CLI)",
)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (scripts/install-deps.sh apt)")

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"]


def run(*args):
    return subprocess.run([str(CLI), *map(str, args)], capture_output=True, timeout=120)


def chromium(tmp_path, *args):
    profile = tmp_path / "chromium-profile"
    profile.mkdir(exist_ok=True)  # empty: no state from earlier runs
    return subprocess.run([CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, timeout=120, cwd=tmp_path)


def table(n=60_000):
    return pa.table({
        "id": pa.array(range(n), pa.int64()),
        "city": pa.array([f"city-{i % 41}" for i in range(n)]),
        "note": pa.array([f"note {i * 7919 % 100_003} of many" for i in range(n)]),
        "price": pa.array([(i * 37 % 1000) / 4 for i in range(n)], pa.float64()),
    })


class ColumnsTable(html.parser.HTMLParser):
    """The rows of <table id="columns"> as lists of cell texts."""

    def __init__(self):
        super().__init__()
        self.rows, self.inside, self.cell = [], False, None

    def handle_starttag(self, tag, attrs):
        if tag == "table" and dict(attrs).get("id") == "columns":
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def expected_pages(path):
    s = read_structure(Path(path).read_bytes())
    counts = {}
    for chunk in s.chunks():
        name = ".".join(chunk.path)
        counts[name] = counts.get(name, 0) + len(chunk.pages)
    return counts


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    import quiver
    d = tmp_path_factory.mktemp("inspect_html")
    pq.write_table(table(), d / "pyarrow.parquet", row_group_size=25_000, data_page_size=64 << 10)
    quiver.write_parquet(table(), str(d / "cdc.parquet"), row_group_size=30_000,
                         use_content_defined_chunking={"min_chunk_size": 16 << 10,
                                                       "max_chunk_size": 64 << 10})
    return d


@pytest.mark.parametrize("name", ["pyarrow", "cdc"])
def test_page_is_self_contained(files, tmp_path, name):
    out = tmp_path / f"{name}.html"
    r = run("inspect", "--html", out, files / f"{name}.parquet")
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout == b""
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>")
    # Nothing fetched: no external resources of any kind.
    assert not re.search(r"\b(src|href)\s*=|url\(|@import|https?://", text)
    # Each page a block with its details on hover.
    blocks = re.findall(r'<span class="pg( dict)?" style="width:[0-9.]+px;background:hsl\(\d+,'
                        r'70%,55%\)" title="[^"]+"></span>', text)
    assert len(blocks) == sum(expected_pages(files / f"{name}.parquet").values())
    assert any(b == " dict" for b in blocks) and any(b == "" for b in blocks)
    if name == "cdc":
        assert "content-defined chunking: <b>yes</b> (quiver.cdc = " in text
    else:
        assert "content-defined chunking: not recorded" in text


@needs_chromium
@pytest.mark.parametrize("name", ["pyarrow", "cdc"])
def test_chromium_renders_it(files, tmp_path, name):
    from PIL import Image
    page = tmp_path / f"{name}.html"
    assert run("inspect", "--html", page, files / f"{name}.parquet").returncode == 0
    shot = tmp_path / "shot.png"
    r = chromium(tmp_path, f"--screenshot={shot}", "--window-size=1200,900",
                 page.as_uri())
    assert shot.is_file(), r.stderr.decode()[-2000:]
    with Image.open(shot) as im:
        colours = im.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is None or len(colours) > 50, "the screenshot is (nearly) blank"
    dom = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr.decode()[-2000:]
    parser = ColumnsTable()
    parser.feed(dom.stdout.decode())
    header, *rows = parser.rows
    assert header[:4] == ["column", "type", "codec", "pages"]
    shown = {row[0]: int(row[3]) for row in rows}
    assert shown == expected_pages(files / f"{name}.parquet")
    assert set(shown) == set(pq.read_schema(files / f"{name}.parquet").names)
    # The script ran: the detail box is there, with its prompt.
    assert "Hover over a page for its details." in dom.stdout.decode()


def test_errors(files, tmp_path):
    (tmp_path / "bad.parquet").write_bytes(b"not parquet at all")
    r = run("inspect", "--html", tmp_path / "out.html", tmp_path / "bad.parquet")
    assert r.returncode == 1 and b"bad.parquet" in r.stderr
    assert not (tmp_path / "out.html").exists()  # no partial output
    r = run("inspect", "--html", tmp_path / "no-such-dir" / "out.html", files / "cdc.parquet")
    assert r.returncode == 1 and b"out.html" in r.stderr
    assert run("inspect", "--html", tmp_path / "o.html", "--json",
               files / "cdc.parquet").returncode == 2
