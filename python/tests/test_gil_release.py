"""Long calls release the GIL: while one runs in a thread, the main thread
keeps running Python (with the GIL held it could not run at all until the
call returned)."""

import pickle
import threading
import time

import numpy as np
import pyarrow as pa
import pytest

import quiver
import quiver.compute as qc


@pytest.fixture(scope="module")
def big():
    rng = np.random.default_rng(1)
    n = 8_000_000
    words = pa.array([f"w{i}" for i in range(50)])
    table = pa.table({"a": rng.integers(0, 1000, n), "b": rng.random(n),
                      "s": words.take(pa.array(rng.integers(0, 50, n)))})
    return quiver.table(table), bytes(quiver.write_parquet(table, None, compression="zstd"))


def _longest_stall(call):
    """(longest time this thread could not run Python while `call` ran in another
    thread, the call's duration)."""
    done = threading.Event()
    took = []

    def run():
        t0 = time.perf_counter()
        try:
            call()
        finally:
            took.append(time.perf_counter() - t0)
            done.set()

    t = threading.Thread(target=run)
    last = time.perf_counter()
    longest = 0.0
    t.start()
    while not done.is_set():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    t.join()
    return longest, took[0]


def _to_pylist(table):
    return table.column("a").slice(0, 2_000_000).to_pylist()


def test_the_check_catches_a_call_holding_the_gil(big):
    # to_pylist builds Python objects: it holds the GIL for its whole run.
    stall, seconds = _longest_stall(lambda: _to_pylist(big[0]))
    assert seconds > 0.05 and stall > 0.5 * seconds, (stall, seconds)


@pytest.mark.parametrize("name", ["write_parquet", "read_table", "filter", "add", "pickle"])
def test_long_calls_release_the_gil(big, name):
    table, data = big
    mask = qc.greater(table.column("a"), 500)
    calls = {
        "write_parquet": lambda: quiver.write_parquet(table, None, compression="zstd"),
        "read_table": lambda: quiver.read_table(data, use_threads=False),
        "filter": lambda: table.filter(mask),
        "add": lambda: qc.add(table.column("b"), table.column("b")),
        "pickle": lambda: pickle.loads(pickle.dumps(table)),
    }
    stall, seconds = _longest_stall(calls[name])
    # Held for the whole call, the GIL would stall this thread about as long
    # as the call took (see the test above); released, only for Python's
    # switch interval (5 ms) now and then.
    if seconds < 0.02:
        pytest.skip(f"{name} took {seconds:.3f} s: too short to judge")
    assert stall < 0.5 * seconds, (name, stall, seconds)
