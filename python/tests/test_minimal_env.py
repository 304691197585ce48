"""quiver without pyarrow, pandas or numpy: a second, minimal venv (made
here with the standard library's venv module, without pip: Quiver needs no
Python package at run time) imports, builds, writes, reads, filters and
computes; only to_pyarrow() / to_pandas() ask for pyarrow, by name."""

import os
import subprocess
import sys
import textwrap
import venv

import quiver

SCRIPT = textwrap.dedent(r'''
    import datetime, decimal, importlib.util, pickle, sys
    for name in ("pyarrow", "pandas", "numpy", "polars"):
        assert importlib.util.find_spec(name) is None, f"{name} is importable here"

    import quiver
    import quiver.compute as qc

    t = quiver.Table.from_pydict({
        "i": [1, None, 3, 4], "f": [0.5, 1.5, None, 3.0],
        "s": ["a", "b", None, "dd"], "b": [True, False, None, True],
    })
    assert t.num_rows == 4 and t.column_names == ["i", "f", "s", "b"]
    assert t.schema.names == ["i", "f", "s", "b"]
    assert [str(x) for x in t.schema.types] == ["int64", "double", "string", "bool"]
    path = sys.argv[1]
    quiver.write_parquet(t, path, compression="zstd")
    back = quiver.read_table(path)
    assert back == t, back
    assert back.to_pydict() == t.to_pydict()
    assert back.to_pylist()[0] == {"i": 1, "f": 0.5, "s": "a", "b": True}

    # Filters: DNF tuples and expressions, pushed into the read and on a table.
    got = quiver.read_table(path, filters=[("i", ">", 1)])
    assert got.to_pydict()["i"] == [3, 4], got.to_pydict()
    got = quiver.read_table(path, filters=qc.field("s") == "dd", columns=["f"])
    assert got.to_pydict() == {"f": [3.0]}
    assert t.filter(qc.field("b")).to_pydict()["i"] == [1, 4]
    assert t.filter([True, False, None, True]).column("i").to_pylist() == [1, 4]
    assert t.take([3, 0]).column("i").to_pylist() == [4, 1]

    # Compute.
    i = t.column("i")
    assert qc.sum(i).as_py() == 8
    assert qc.add(i, 1).to_pylist() == [2, None, 4, 5]
    assert qc.greater(t.column("f"), 1).to_pylist() == [False, True, None, True]
    assert qc.min_max(i).as_py() == {"min": 1, "max": 4}

    # Objects.
    assert t.slice(1, 2).to_pydict()["s"] == ["b", None]
    assert t.select(["s"]).column_names == ["s"]
    assert t["s"][3].as_py() == "dd"
    assert "quiver.Table" in repr(t) and "i: [[1,null,3,4]]" in repr(t)
    assert pickle.loads(pickle.dumps(t)) == t
    assert pickle.loads(pickle.dumps(t.schema)) == t.schema
    md = quiver.ParquetFile(path).metadata
    assert pickle.loads(pickle.dumps(md)) == md and md.num_rows == 4
    assert quiver.concat_tables([t, t]).num_rows == 8
    data = quiver.write_parquet(t, None)
    assert quiver.read_table(bytes(data)) == t

    # Types by name, without pyarrow.
    schema = quiver.schema([quiver.field("a", "int16", nullable=False), ("s", "large_string")])
    typed = quiver.Table.from_pydict({"a": [1, 2], "s": ["x", None]}, schema=schema)
    assert [str(t) for t in typed.schema.types] == ["int16", "large_string"]
    assert typed.schema.field("a").nullable is False
    assert quiver.type_for_alias("timestamp[ms, tz=UTC]").tz == "UTC"
    quiver.write_parquet(typed, path)
    assert quiver.read_table(path).schema == schema

    # Datasets: hive keys are plain int32 / string without pyarrow (its
    # dictionary encoding needs pyarrow to build).
    import os
    root = os.path.join(os.path.dirname(path), "ds")
    quiver.write_to_dataset(t, root, partition_cols=["b"], basename_template="p-{i}.parquet")
    assert sorted(os.listdir(root)) == ["b=__HIVE_DEFAULT_PARTITION__", "b=false", "b=true"]
    ds = quiver.read_table(root, filters=[("b", "=", "true"), ("i", ">", 1)])
    assert ds.to_pydict() == {"i": [4], "f": [3.0], "s": ["dd"], "b": ["true"]}, ds.to_pydict()
    assert str(ds.schema.field("b").type) == "string"
    assert quiver.ParquetDataset(root).read(columns=["i"]).num_rows == 4

    # Only pyarrow's own conversions need pyarrow, and say so.
    for call in (t.to_pyarrow, t.to_pandas, t.schema.to_pyarrow):
        try:
            call()
        except ImportError as e:
            assert "pyarrow" in str(e), e
        else:
            raise AssertionError(f"{call} worked without pyarrow")
    try:
        quiver.Table.from_pydict({"d": [datetime.date(2020, 1, 1)]})
    except TypeError as e:
        assert "pyarrow" in str(e) and "date" in str(e), e
    else:
        raise AssertionError("a date converted without pyarrow")
    print("minimal env ok")
''')


def test_quiver_works_without_pyarrow_pandas_numpy(tmp_path):
    env_dir = tmp_path / "venv-minimal"
    venv.EnvBuilder(with_pip=False, system_site_packages=False).create(env_dir)
    python = env_dir / "bin" / "python"
    script = tmp_path / "minimal.py"
    script.write_text(SCRIPT)
    package_root = os.path.dirname(os.path.dirname(quiver.__file__))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONPATH"] = package_root
    proc = subprocess.run([str(python), "-s", str(script),
                           str(tmp_path / "t.parquet")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "minimal env ok" in proc.stdout
    assert sys.prefix != str(env_dir)
