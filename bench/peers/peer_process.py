"""Peer processes of the peer harness (bench/peers/PROTOCOL.md): one
long-running process per peer speaking one JSON line each way, grouped in
sessions (sets of processes holding the same input) that fit in memory, and
the start-up check that each peer's allocator pin refuses an override."""

import datetime
import json
import os
import queue
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
import allocators  # noqa: E402

MAIN, CONTROL = "quiver", "control"
PY_PEERS = ("quiver", "pyarrow", "pyarrow-mt", "duckdb", "duckdb-mt", "polars", "polars-mt")
NATIVE_PEERS = {
    "arrow-rs": ("QUIVER_PEER_ARROW_RS", "build/peers/arrow-rs/release/quiver-peer-arrow-rs"),
    "arrow-rs-native": ("QUIVER_PEER_ARROW_RS_NATIVE",
                        "build/peers/arrow-rs-native/release/quiver-peer-arrow-rs"),
    "arrow-go": ("QUIVER_PEER_ARROW_GO", "build/peers/arrow-go/quiver-peer-arrow-go"),
}
# The build scripts of the native peers (arrow-rs-native is arrow-rs's second build).
BUILD_SCRIPT = {"arrow-rs": "arrow-rs", "arrow-rs-native": "arrow-rs", "arrow-go": "arrow-go"}
# Peak resident memory of a peer process as a multiple of its input's size
# (decay off, so a process keeps its peak; Session.close records each
# process's VmHWM in the report's JSON, "_peak_rss"). TPC-H SF1 (1.0 GB in
# Arrow): Quiver 2.5, pyarrow 1.7, duckdb 6 (duckdb-mt was OOM-killed at
# 6.4), polars killed at 4.2 on a loaded machine. The string group (326 MB),
# after its default variant: polars-mt 8.9, polars 8.4, arrow-rs 6.7, pyarrow
# 5.7 (2026-12-04); with both sinks, Quiver (and its control) 9.2, polars 8.6,
# arrow-rs 4.6 (2026-12-06, Quiver's memory sink through a stand-in that
# copies the file into a BytesIO). duckdb was OOM-killed at 8. The factors are
# those peaks with a margin; pyarrow-mt (reads only: no input loaded) the file
# and its decoded table, with a margin. Others: 6. Scaled by --mem-factor.
MEM_FACTOR = {"quiver": 6.0, "control": 5.5, "pyarrow": 6.5, "pyarrow-mt": 3.0,
              "duckdb": 12.0, "duckdb-mt": 13.0,
              "polars": 9.5, "polars-mt": 10.0, "arrow-rs": 7.5, "arrow-rs-native": 7.5,
              "arrow-go": 6.0}
# A peak an earlier run measured for a process with the same input (run.py
# passes the reference run's) stands for its factor, with this margin.
PEAK_MARGIN = 1.25
# Quiver's arms in the memory sink too (the peers' factors were measured
# with their memory sinks already).
MEM_SINK_EXTRA = {"quiver": 3.5, "control": 4.0}
# Seconds a peer may take to answer one command (per rep): past it the peer is
# killed and the case reports it (a stuck or thrashing peer must not stall the run).
REPLY_TIMEOUT = 600
# Times a peer that died is started again within one session.
MAX_RESTARTS = 2


def log(*a):
    print(*a, flush=True)


class PeerDied(Exception):
    pass


def peer_env(mode):
    """The environment of a peer process under allocator `mode`: shipped
    processes get none of the variables that change an allocator."""
    env = dict(os.environ)
    if mode == "shipped":
        for var in allocators.SHIPPED_REFUSED:
            env.pop(var, None)
        env.pop("QUIVER_WRITER_BENCH_CHILD", None)
    env[allocators.MODE_VAR] = mode
    return env


class Peer:
    """One peer process (PROTOCOL.md): hello line, then a reply per command."""

    def __init__(self, name, argv, log_dir, mode="pinned"):
        self.name, self.argv, self.mode = name, argv, mode
        os.makedirs(log_dir, exist_ok=True)
        self.log_path = os.path.join(log_dir, f"{name}.{mode}.log")
        self.log = open(self.log_path, "a")
        self.log.write(f"\n=== {datetime.datetime.now().isoformat()} {' '.join(argv)}\n")
        self.log.flush()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, text=True, bufsize=1, cwd=ROOT,
                                     env=peer_env(mode))
        self.hello = None
        # Replies are read by a thread into a queue, so that a reply is waited
        # for with a deadline and a peer that dies (an OOM kill leaves a zombie
        # whose pipe may stay open) is noticed by polling its status.
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _reply(self, what, timeout):
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=1.0)
            except queue.Empty:
                line = ""
                if self.proc.poll() is None:
                    if time.monotonic() < deadline:
                        continue
                    self.proc.kill()
                    self.proc.wait()
                    raise PeerDied(f"{self.name}: no reply to {what} in {timeout:.0f} s: "
                                   f"killed; {self.tail()}")
            if not line:
                rc = self.proc.wait()
                raise PeerDied(f"{self.name} exited with status {rc} on {what}"
                               + (" (allocator pin refused)" if rc == 2 else "")
                               + (" (killed: out of memory?)" if rc == -9 else "")
                               + f"; see {self.log_path}: {self.tail()}")
            return json.loads(line)

    def wait_hello(self):
        self.hello = self._reply("start-up (before its hello line)", REPLY_TIMEOUT)

    def tail(self, n=5):
        try:
            with open(self.log_path) as f:
                return " | ".join(f.read().strip().splitlines()[-n:])
        except OSError:
            return ""

    def call(self, _timeout=None, **cmd):
        """One command and its reply; `_timeout` seconds (default
        REPLY_TIMEOUT a rep) before the peer is killed as stuck."""
        try:
            self.proc.stdin.write(json.dumps(cmd) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise PeerDied(f"{self.name}: {e}; {self.tail()}") from None
        return self._reply(cmd.get("cmd"),
                           _timeout or REPLY_TIMEOUT * max(1, cmd.get("reps", 1)))

    def quit(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=60)
            except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def peer_argv(name, bins):
    """The command line of a peer process (`control` is a second quiver)."""
    base = MAIN if name == CONTROL else name
    if base in PY_PEERS:
        return [sys.executable, os.path.join(HERE, "py_peer.py"), "--peer", base]
    return [bins[base]]


def native_binaries(peer_bin, names=tuple(NATIVE_PEERS)):
    """{name: path} of the Rust/Go peers `names` that exist (--peer-bin
    NAME=PATH, then the environment, then the build tree); says loudly which
    do not."""
    found = {}
    overrides = dict(item.split("=", 1) for item in peer_bin)
    for name in names:
        env, default = NATIVE_PEERS[name]
        path = overrides.get(name) or os.environ.get(env) or os.path.join(ROOT, default)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            found[name] = path
        else:
            log(f"\n!!! peer {name}: no binary at {path} -- running WITHOUT {name} "
                f"(build it with bench/peers/{BUILD_SCRIPT[name]}/build.sh, or give "
                f"--peer-bin {name}=PATH or {env}=PATH)\n")
    return found


# The start-up check of docs/benchmarks.md ("test it"): with its allocator
# override set, every pinned peer must refuse to run (exit status 2) before
# its hello line. Go has no allocator to pin; its peer refuses GOGC=off.
PIN_OVERRIDES = {
    "quiver": {"MALLOC_CONF": "dirty_decay_ms:1000"},
    "pyarrow": {"MALLOC_CONF": "dirty_decay_ms:1000"},
    "duckdb": {"DUCKDB_JE_MALLOC_CONF": "dirty_decay_ms:1000"},
    "polars": {"_RJEM_MALLOC_CONF": "dirty_decay_ms:1000"},
    "arrow-rs": {"_RJEM_MALLOC_CONF": "dirty_decay_ms:1000"},
    "arrow-rs-native": {"_RJEM_MALLOC_CONF": "dirty_decay_ms:1000"},
    "arrow-go": {"GOGC": "off"},
}


def pin_selftest(procs, bins, argv_of=None, overrides=None):
    """[(peer, override, outcome)]; raises RuntimeError if a peer ran anyway.
    `argv_of(name, bins)` and `overrides` ({peer: environment}) for another
    harness's processes (default: this one's, peer_argv and PIN_OVERRIDES)."""
    argv_of, overrides = argv_of or peer_argv, overrides or PIN_OVERRIDES
    out, bad = [], []
    for name in procs:
        base = name[:-3] if name.endswith("-mt") else name
        override = overrides.get(MAIN if base == CONTROL else base)
        if override is None or any(o[0] == base for o in out):
            continue
        env = dict(peer_env("pinned"), **override)
        env.pop("QUIVER_WRITER_BENCH_CHILD", None)
        try:
            p = subprocess.run(argv_of(base, bins), input='{"cmd": "quit"}\n', env=env,
                               capture_output=True, text=True, cwd=ROOT, timeout=300)
        except subprocess.TimeoutExpired:
            bad.append(f"{base}: no exit in 300 s with {override}")
            continue
        text = f"exit status {p.returncode}" + (" before its hello line" if not p.stdout else "")
        out.append((base, override, text))
        if p.returncode != 2 or p.stdout:
            bad.append(f"{base} with {override}: {text} (expected a refusal, exit status 2)")
    if bad:
        raise RuntimeError("allocator pin self-test failed: " + "; ".join(bad))
    return out


class Session:
    """A set of peer processes holding one input, under one allocator mode
    (`argv_of(name, bins)`: their command lines, peer_argv by default)."""

    def __init__(self, procs, bins, log_dir, registry, mode="pinned", argv_of=None):
        self.peers = {}
        self.bins, self.log_dir, self.registry, self.mode = bins, log_dir, registry, mode
        self.argv_of = argv_of or peer_argv
        self.wanted = list(procs)
        self.restarts = {}
        self.cannot_load = set()
        self.path = None
        # Started together (start-up is imports: seconds each), then each hello read.
        started = {name: self._spawn(name) for name in procs}
        for name, p in started.items():
            self._hello(name, p)

    def _spawn(self, name):
        return Peer(name, self.argv_of(name, self.bins), self.log_dir, self.mode)

    def _hello(self, name, p):
        try:
            p.wait_hello()
        except PeerDied as e:
            log(f"!!! {e}")
            self.registry.setdefault("_dead", {})[f"{name} ({self.mode})"] = str(e)
            p.quit()
            return False
        self.peers[name] = p
        key = MAIN if name == CONTROL else name
        self.registry.setdefault(self.mode, {}).setdefault(key, p.hello)
        return True

    def _load(self, name, p, path):
        try:
            r = p.call(cmd="load", input=path)
        except PeerDied as e:
            log(f"!!! {e}")
            del self.peers[name]
            return
        if "error" in r:
            # (A peer that cannot load the input is not started again for it.)
            log(f"!!! {name}: load {path}: {r['error']}")
            self.cannot_load.add(name)
            p.quit()
            del self.peers[name]

    def load(self, path):
        self.path = path
        for name, p in list(self.peers.items()):
            self._load(name, p, path)

    def revive(self):
        """Starts again (and loads the input into) each peer that died during a
        case, at most MAX_RESTARTS times each: the next cases still have it."""
        dead = self.registry.get("_dead", {})
        for name in self.wanted:
            p = self.peers.get(name)
            if p is not None and p.proc.poll() is None:
                continue
            if p is not None:
                p.quit()
                del self.peers[name]
            if self.restarts.get(name, 0) >= MAX_RESTARTS or name in self.cannot_load or \
                    f"{name} ({self.mode})" in dead:
                continue
            self.restarts[name] = self.restarts.get(name, 0) + 1
            log(f"  restarting {name} (restart {self.restarts[name]} of {MAX_RESTARTS})")
            p = self._spawn(name)
            if self._hello(name, p) and self.path is not None:
                self._load(name, p, self.path)

    def settings(self, variants, sinks, store):
        for name, p in self.peers.items():
            if name == CONTROL:
                continue
            for v in variants:
                for s in sinks:
                    key = f"{name}|{v}|{s}"
                    if key in store:
                        continue
                    try:
                        store[key] = p.call(cmd="settings", variant=v, sink=s)
                    except PeerDied:
                        pass

    def close(self, input_bytes=None):
        """Quits every process, after noting its peak resident memory (the
        figures MEM_FACTOR is set from) when the input's size is given."""
        for name, p in self.peers.items():
            peak = peak_rss(p.proc.pid)
            if peak and input_bytes:
                self.registry.setdefault("_peak_rss", []).append(
                    {"peer": name, "mode": self.mode, "input": self.path,
                     "peak_bytes": peak, "factor": round(peak / input_bytes, 2)})
            p.quit()
        self.peers = {}


def plan_parts(units, input_bytes, mem_factor, sinks=("file",), peaks=None, available=None,
               quiet=False):
    """Splits the peer units (lists of processes that must share a session: a
    peer and its multi-threaded arm) into sessions that fit in memory beside
    Quiver and the control: every process holds the whole input and what it
    writes, and with decay off keeps its peak (MEM_FACTOR, or `peaks`: bytes
    an earlier run measured for a process with this input, times
    PEAK_MARGIN). The units go largest first into the first session they fit
    in (first fit decreasing: fewer sessions, and each session repeats
    Quiver's and the control's rounds); each session keeps the units' order.
    `available`: bytes of memory (default MemAvailable)."""
    extra = MEM_SINK_EXTRA if "mem" in sinks else {}
    peaks = peaks or {}

    def need(procs):
        return mem_factor * sum(PEAK_MARGIN * peaks[p] if p in peaks else
                                input_bytes * (MEM_FACTOR.get(p, 6.0) + extra.get(p, 0.0))
                                for p in procs)
    budget = 0.8 * (available or mem_available())
    base = need([MAIN, CONTROL])
    parts = []
    for u in sorted(units, key=need, reverse=True):
        fit = next((part for part in parts if base + need(part + u) <= budget), None)
        if fit is None:
            parts.append(list(u))
        else:
            fit += u
    rank = {p: i for i, p in enumerate(p for u in units for p in u)}
    parts = sorted((sorted(part, key=rank.get) for part in parts), key=lambda q: rank[q[0]])
    if len(parts) > 1 and not quiet:
        log(f"  memory: {budget / 2**30:.1f} GiB available, about "
            f"{need([MAIN, CONTROL] + [p for u in units for p in u]) / 2**30:.1f} GiB needed"
            f"{' (peaks measured by an earlier run)' if peaks else ''}: the peers run in "
            f"{len(parts)} sets of processes, each with its own Quiver and control: "
            f"{' | '.join(','.join(p) for p in parts)}")
    return parts


def peak_rss(pid):
    """VmHWM of a live process, in bytes (None if it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def mem_available():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 1 << 40
