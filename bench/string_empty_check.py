#!/usr/bin/env python3
"""Issue 15's string_empty check: writing the writer matrix's string_empty
column (1,048,576 empty strings whose data buffer is empty, i.e. Arrow's
zero-size area) must take within 5% of the time of the same values with an
allocated data buffer. Interleaved, order swapped every round, 41 rounds,
3 warm-ups each, into memory (bench/sinks.py: write_parquet(table, None), one
buffer the caller owns); prints both medians and their ratio. Run under the
pinned allocator:

  PYTHONPATH=build/release/python LD_PRELOAD=libjemalloc.so.2 \\
      MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1 .venv/bin/python bench/string_empty_check.py
"""
import os
import statistics
import sys
import time

import numpy as np
import pyarrow as pa

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import quiver  # noqa: E402
import sinks  # noqa: E402
import writer_matrix as wm  # noqa: E402


def main():
    n = wm.FULL_ROWS
    offsets = pa.py_buffer(np.zeros(n + 1, dtype=np.int32))
    schema = pa.schema([pa.field("_1", pa.string(), False)])
    zero = pa.Array.from_buffers(pa.string(), n, [None, offsets, pa.py_buffer(b"")])
    allocated = pa.Array.from_buffers(pa.string(), n, [None, offsets, pa.allocate_buffer(64)])
    tables = {"zero-size": quiver.table(pa.Table.from_arrays([zero], schema=schema)),
              "allocated": quiver.table(pa.Table.from_arrays([allocated], schema=schema))}
    opts = wm.variant_options("default", pa.Table.from_arrays([zero], schema=schema))
    for t in tables.values():
        for _ in range(3):
            sinks.quiver_to_memory(t, **opts)
    times = {k: [] for k in tables}
    names = list(tables)
    for r in range(41):
        for name in (names if r % 2 == 0 else names[::-1]):
            t0 = time.perf_counter()
            out = sinks.quiver_to_memory(tables[name], **opts)
            times[name].append(time.perf_counter() - t0)
            del out
    med = {k: statistics.median(v) for k, v in times.items()}
    ratio = med["zero-size"] / med["allocated"]
    print(f"zero-size {med['zero-size'] * 1e3:.2f} ms, allocated {med['allocated'] * 1e3:.2f} ms, "
          f"ratio {ratio:.3f} ({'within' if abs(ratio - 1) <= 0.05 else 'NOT within'} 5%)")


if __name__ == "__main__":
    main()
