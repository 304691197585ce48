"""The two sinks every published writer number uses (docs/benchmarks.md
section 1; issue 43 section 1), for Quiver and pyarrow from Python:

  file  the writer creates a file at a path (on /dev/shm in the benchmarks)
        with its normal API and defaults: pq.write_table(table, path) and
        quiver.write_parquet(table, path) (a temporary file beside the
        destination, fsynced and renamed into place: Quiver's default,
        fsync=True; the peers do not fsync). The caller removes the file,
        outside the timing.
  mem   the writer ends with one contiguous buffer that the caller owns:
        pyarrow's BufferOutputStream + getvalue() (a pyarrow.Buffer), Quiver's
        write_parquet(table, None) (one buffer-protocol object). Timed until
        the caller holds that buffer.

No sink keeps references to a writer's internal chunks (the old harness's
KeepBytes did, and DiscardingFile let Quiver skip the copy pyarrow makes).
"""

import pyarrow as pa
import pyarrow.parquet as pq

import quiver

SINKS = ("file", "mem")

MEMORY_OUTPUT_MISSING = (
    "quiver.write_parquet(table, None) is not in this build of Quiver (the io-writer change "
    "adds it: the file as one contiguous buffer the caller owns); no memory-sink arm for Quiver")


class Unavailable(Exception):
    """The build cannot do what the sink needs (said in the message)."""


def quiver_to_memory(table, **opts):
    """The file as one buffer-protocol object the caller owns."""
    try:
        out = quiver.write_parquet(table, None, **opts)
    except TypeError as e:
        if "NoneType" in str(e) or "None" in str(e):
            raise Unavailable(MEMORY_OUTPUT_MISSING) from None
        raise
    if out is None:
        raise Unavailable(MEMORY_OUTPUT_MISSING + " (write_parquet(table, None) returned None)")
    return out


def quiver_to_file(table, path, **opts):
    quiver.write_parquet(table, path, **opts)


def pyarrow_to_memory(table, **opts):
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, **opts)
    return sink.getvalue()


def pyarrow_to_file(table, path, **opts):
    pq.write_table(table, path, **opts)


def nbytes(buf):
    """Size of a buffer the mem sink returned (pyarrow.Buffer or any
    buffer-protocol object)."""
    if isinstance(buf, pa.Buffer):
        return buf.size
    return memoryview(buf).nbytes


def quiver_memory_output():
    """None if this build has write_parquet(table, None), else why not."""
    try:
        quiver_to_memory(pa.table({"x": [1]}))
    except Unavailable as e:
        return str(e)
    return None
