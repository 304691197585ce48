# Quiver's front door. Every target installs what it needs first (apt packages
# only when missing; Python packages into .venv from a pinned file).
#
#   make demo         the main job on built-in data
#   make test         every test: C++ (debug tree, ASan+UBSan) and pytest
#   make release      library, CLI and examples (build/release)
#   make bench-build  the benchmarks (release tree)
#   make bench        run them
#   make bench-peers-build  the Rust and Go peers, once (a stamp; ~40 min cold)
#   make bench-peers  Quiver vs arrow-rs, arrow-go, pyarrow, duckdb, polars
#   make bench-compute  compute kernels vs arrow-rs and pyarrow.compute
#   make bench-filter  filtered reads vs arrow-rs, pyarrow, duckdb, polars
#   make fuzz         the libFuzzer targets (fuzz tree, clang), fixed runs and seed
#   make test-tsan    the thread-pool and use_threads tests (writer and reader) under ThreadSanitizer
SHELL := /bin/bash
.DEFAULT_GOAL := help
.PHONY: help deps deps-python release debug demo test test-cpp test-python bench-build bench bench-peers-build bench-peers bench-compute bench-filter fuzz test-tsan clean

export CCACHE_DIR ?= $(CURDIR)/.cache/ccache
export CCACHE_MAXSIZE ?= 2G

help:
	@sed -n '1,14p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@scripts/install-deps.sh apt

deps-python:
	@scripts/install-deps.sh python

release: deps
	@scripts/install-deps.sh python-build
	@cmake --preset release >/dev/null
	cmake --build --preset release

debug: deps
	@cmake --preset debug >/dev/null
	cmake --build --preset debug

# python/quiver/demo.py: write and read timings against pyarrow, CDC dedup over
# four edits, and pyarrow, duckdb and polars checking every file (under a minute).
demo: release deps-python
	PYTHONPATH=$(CURDIR)/build/release/python .venv/bin/python -m quiver.demo

test: test-cpp test-python

test-cpp: debug
	ctest --preset debug

# pytest runs against the release tree's Python extension (build/release/python),
# with the peer harness's scheduling rules (bench/peers/schedule_test.py: no peers run).
# Two pytest-xdist workers; --dist loadfile runs each file whole on one worker, so
# a module's fixtures (a moto S3 server, generated files) start once; Dask's and
# Ray's files run one after the other (python/tests/conftest.py).
# Serially: the same command without `-n 2 --dist loadfile`.
test-python: deps-python release
	PYTHONPATH=$(CURDIR)/build/release/python .venv/bin/python -m pytest -q -n 2 --dist loadfile python/tests bench/peers/schedule_test.py bench/peers/dataset_test.py

# Every bench target prints its wall time when it ends (its recipe is one
# shell, so the clock covers all of it, installs and builds included).
bench_clock = start=$$(date +%s); trap 'echo "make $@: wall time $$(( ($$(date +%s) - start) / 60 )) min $$(( ($$(date +%s) - start) % 60 )) s"' EXIT; set -e

# The same release tree, with the benchmarks turned on (they need Google
# Benchmark, which only this target installs).
bench-build:
	@$(bench_clock); \
	scripts/install-deps.sh bench; \
	scripts/install-deps.sh python-build; \
	cmake --preset release -DQUIVER_BUILD_BENCHMARKS=ON >/dev/null; \
	cmake --build --preset release --target benchmarks

bench: bench-build
	@$(bench_clock); bench/run.sh

# The Rust and Go peers (bench/peers/build_peers.sh: arrow-rs twice, default
# target and native, and arrow-go), built once outside any timed run: a stamp
# (sources, toolchain, CPU) makes a second call a no-op. A missing cargo or go
# is announced and that peer left out.
bench-peers-build: deps
	@$(bench_clock); bench/peers/build_peers.sh >/dev/null

# Quiver's writer and reader against the other implementations, each a peer
# process (bench/peers/PROTOCOL.md), with the peers bench-peers-build built;
# the time budget starts after the builds. Results:
# bench/results/peers_<date>_<commit>.{md,json.gz,png}. ARGS passes options to
# bench/peers/run.py (e.g. ARGS=--quick). Then the dataset section
# (bench/peers/run_dataset.sh: ParquetDataset and write_to_dataset against
# pyarrow.dataset, duckdb, polars, locally and on a moto S3 server; its own
# budget, 15 minutes; --quick when ARGS has it; DATASET_ARGS passes options to
# bench/peers/dataset_run.py, DATASET_ARGS=--skip leaves it out). Results:
# bench/results/dataset_<date>_<commit>.{md,json.gz}.
bench-peers: deps bench-peers-build
	@$(bench_clock); \
	scripts/install-deps.sh python-bench; \
	scripts/install-deps.sh python-build; \
	rc=0; bench/peers/run.sh $(if $(filter --skip,$(DATASET_ARGS)),,--budget-minutes 42) $(ARGS) || rc=$$?; \
	if [[ "$(DATASET_ARGS)" != "--skip" ]]; then \
	  SKIP_BUILD=1 bench/peers/run_dataset.sh $(if $(findstring --quick,$(ARGS)),--quick) \
	    $(DATASET_ARGS) || rc=$$?; \
	fi; \
	exit $$rc

# Quiver's compute kernels (C++ and quiver.compute) against arrow-rs (two
# builds) and pyarrow.compute (one thread), each a peer process speaking the
# `kernel` command (bench/peers/PROTOCOL.md): the ARROW-11045 table and each
# kernel at 65,536 and 1,048,576 rows. Results:
# bench/results/compute_<date>_<commit>.{md,json.gz,png}. ARGS passes options
# to bench/peers/compute_run.py (e.g. ARGS=--quick).
bench-compute: deps bench-peers-build
	@$(bench_clock); \
	scripts/install-deps.sh python-bench; \
	scripts/install-deps.sh python-build; \
	bench/peers/run_compute.sh $(ARGS)

# Filtered reads (read_table(filters=)) against arrow-rs (RowFilter plus the
# statistics and page-index pruning done in the peer), pyarrow, duckdb and
# polars, one thread and multi-threaded, on TPC-H lineitem SF1 and a
# ClickBench-like table (bench/peers/filter_run.py). Results:
# bench/results/filter_<date>_<commit>.{md,json.gz}; ARGS passes options to
# filter_run.py (e.g. ARGS=--quick; ARGS="--resume PREV.json.gz" continues a
# run that ran out of budget). Ends within 45 minutes (builds apart).
bench-filter: deps bench-peers-build
	@$(bench_clock); \
	scripts/install-deps.sh python-bench; \
	scripts/install-deps.sh python-build; \
	bench/peers/run_filter.sh $(ARGS)

# libFuzzer targets (build/fuzz/fuzzers), each run over its committed seed
# corpus (fuzz/corpus/<target>) for a fixed number of runs with a fixed seed.
fuzz:
	@scripts/install-deps.sh fuzz
	@cmake --preset fuzz >/dev/null
	cmake --build --preset fuzz
	fuzz/run.sh

# ThreadSanitizer (tsan tree): the thread pool, the writer's use_threads
# (byte-identical files over every type and option set) and the reader's
# (the tables, stats and errors of one thread). Not in `make test`: a
# second full build of the library.
test-tsan: deps
	@cmake --preset tsan >/dev/null
	cmake --build --preset tsan --target quiver_util_test quiver_parquet_writer_test quiver_parquet_reader_test
	TSAN_OPTIONS=halt_on_error=1 build/tsan/src/quiver/util/quiver_util_test --gtest_filter='ParallelFor*:TaskGroup*:ThreadPool*:CpuCount*'
	TSAN_OPTIONS=halt_on_error=1 build/tsan/src/quiver/parquet/writer/quiver_parquet_writer_test --gtest_filter='FileWriterThreads*:WriteTasksInOrder*:PagePipe*'
	TSAN_OPTIONS=halt_on_error=1 QUIVER_NUM_THREADS=4 build/tsan/src/quiver/parquet/writer/quiver_parquet_writer_test --gtest_filter='FileWriterThreads*'
	TSAN_OPTIONS=halt_on_error=1 build/tsan/src/quiver/parquet/reader/quiver_parquet_reader_test --gtest_filter='ReadThreads*'
	TSAN_OPTIONS=halt_on_error=1 QUIVER_NUM_THREADS=4 build/tsan/src/quiver/parquet/reader/quiver_parquet_reader_test --gtest_filter='ReadThreads*'

clean:
	rm -rf build
