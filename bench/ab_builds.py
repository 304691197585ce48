#!/usr/bin/env python3
"""A/B of Quiver builds in the same run: the same-run before/after ratio a
writer change's commit message records (docs/benchmarks.md: ratios from one
run, interleaved).

Each build is a copy of a `build/release/python` tree (copy it aside before
the change: `cp -r build/release/python /tmp/before`). One
bench/peers/py_peer.py process per build (`--peer quiver`, PYTHONPATH set to
the build) loads the same Arrow IPC input, writes it three times untimed, then
the builds write in turn, the order reversed every round; medians and the
per-round ratios to the first build are printed.

  LD_PRELOAD=libjemalloc.so.2 MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1 \\
      .venv/bin/python bench/ab_builds.py INPUT.arrow VARIANT ROUNDS BUILD_A BUILD_B [...]

(VARIANT: one of writer_bench.ALL_VARIANTS. The input can be made with
writer_bench.build_group and pyarrow.ipc.new_file.)

Reading: VARIANT `read:CODEC` (CODEC one of read_bench.CODECS: none, zstd)
times each build's quiver.read_table of the file pyarrow writes from the
input with read_bench's settings (written once to /dev/shm, removed after),
the same rounds and report: a reader change's same-run before/after.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def call(proc, **cmd):
    proc.stdin.write(json.dumps(cmd) + "\n")
    proc.stdin.flush()
    reply = json.loads(proc.stdout.readline())
    if "error" in reply:
        sys.exit(f"ab_builds: {cmd['cmd']}: {reply['error']}")
    return reply


def pyarrow_file(inp, codec, build):
    """The file pyarrow writes from the Arrow IPC file `inp` (read_bench's
    settings and `codec`), on /dev/shm; its path. (read_bench imports
    quiver: the first build's.)"""
    import tempfile

    import pyarrow as pa

    sys.path[:0] = [build, os.path.join(ROOT, "bench")]
    import read_bench  # noqa: E402

    if codec not in read_bench.CODECS:
        sys.exit(f"ab_builds: read:{codec}: the codec is one of {', '.join(read_bench.CODECS)}")
    table = pa.ipc.open_file(pa.memory_map(inp)).read_all()
    fd, path = tempfile.mkstemp(prefix="ab_builds-", suffix=".parquet", dir="/dev/shm")
    with os.fdopen(fd, "wb") as f:
        f.write(read_bench.write_pyarrow(table, codec))
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], usage=__doc__)
    ap.add_argument("--sink", default="file", choices=("file", "mem"))
    ap.add_argument("input")
    ap.add_argument("variant")
    ap.add_argument("rounds", type=int)
    ap.add_argument("builds", nargs="+")
    args = ap.parse_args()
    if len(args.builds) < 2:
        ap.error("give two or more builds")
    inp, variant, rounds, builds = args.input, args.variant, args.rounds, args.builds
    work = tempfile.mkdtemp(prefix="ab_builds-", dir="/dev/shm")
    procs = []
    for b in builds:
        env = dict(os.environ, PYTHONPATH=b)
        p = subprocess.Popen([sys.executable, os.path.join(ROOT, "bench/peers/py_peer.py"),
                              "--peer", "quiver"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, env=env, cwd=ROOT)
        p.stdout.readline()  # hello
        procs.append(p)
    parquet = None
    if variant.startswith("read:"):
        parquet = pyarrow_file(inp, variant.split(":", 1)[1], builds[0])

        def once(p, reps):
            return call(p, cmd="read", file=parquet, reps=reps)["seconds"]
    else:
        def once(p, reps):
            path = os.path.join(work, f"{procs.index(p)}.parquet")
            return call(p, cmd="write", variant=variant, reps=reps, sink=args.sink, path=path,
                        out=None)["seconds"]
    try:
        for p in procs:
            if parquet is None:
                call(p, cmd="load", input=inp)
            once(p, 3)
        times = [[] for _ in procs]
        for r in range(rounds):
            order = list(range(len(procs)))
            if r % 2:
                order.reverse()
            for i in order:
                times[i].append(once(procs[i], 1)[0])
    finally:
        if parquet is not None:
            os.unlink(parquet)
        os.rmdir(work)
    meds = [statistics.median(t) for t in times]
    print(f"ab_builds: {variant}, {args.sink if parquet is None else 'read'}, {rounds} rounds")
    for b, m, t in zip(builds, meds, times):
        print(f"{m * 1e3:8.1f} ms  {b}  [{min(t) * 1e3:.1f}..{max(t) * 1e3:.1f}]")
    for i in range(1, len(procs)):
        per = sorted(b / a for a, b in zip(times[0], times[i]))
        print(f"B{i}/A median {meds[i] / meds[0]:.3f}  per-round "
              f"[{per[0]:.3f} .. {per[len(per) // 2]:.3f} .. {per[-1]:.3f}]")
    for p in procs:
        p.stdin.write('{"cmd": "quit"}\n')
        p.stdin.flush()
        p.wait()


if __name__ == "__main__":
    main()
