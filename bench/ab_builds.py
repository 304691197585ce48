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
"""
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def call(proc, **cmd):
    proc.stdin.write(json.dumps(cmd) + "\n")
    proc.stdin.flush()
    reply = json.loads(proc.stdout.readline())
    if "error" in reply:
        sys.exit(f"ab_builds: {cmd['cmd']}: {reply['error']}")
    return reply


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    inp, variant, rounds, builds = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    procs = []
    for b in builds:
        env = dict(os.environ, PYTHONPATH=b)
        p = subprocess.Popen([sys.executable, os.path.join(ROOT, "bench/peers/py_peer.py"),
                              "--peer", "quiver"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, env=env, cwd=ROOT)
        p.stdout.readline()  # hello
        procs.append(p)
    for p in procs:
        call(p, cmd="load", input=inp)
        call(p, cmd="write", variant=variant, reps=3, out=None)
    times = [[] for _ in procs]
    for r in range(rounds):
        order = list(range(len(procs)))
        if r % 2:
            order.reverse()
        for i in order:
            times[i].append(call(procs[i], cmd="write", variant=variant, reps=1,
                                 out=None)["seconds"][0])
    meds = [statistics.median(t) for t in times]
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
