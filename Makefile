# Quiver's front door. Every target installs what it needs first (apt packages
# only when missing; Python packages into .venv from a pinned file).
#
#   make demo         the main job on built-in data
#   make test         every test: C++ (debug tree, ASan+UBSan) and pytest
#   make release      library, CLI and examples (build/release)
#   make bench-build  the benchmarks (release tree)
#   make bench        run them
SHELL := /bin/bash
.DEFAULT_GOAL := help
.PHONY: help deps deps-python release debug demo test test-cpp test-python bench-build bench clean

export CCACHE_DIR ?= $(CURDIR)/.cache/ccache
export CCACHE_MAXSIZE ?= 2G

help:
	@sed -n '2,9p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@scripts/install-deps.sh apt

deps-python:
	@scripts/install-deps.sh python

release: deps
	@cmake --preset release >/dev/null
	cmake --build --preset release

debug: deps
	@cmake --preset debug >/dev/null
	cmake --build --preset debug

demo: release
	build/release/examples/memory_demo

test: test-cpp test-python

test-cpp: debug
	ctest --preset debug

# pytest runs against the release build's Python extension, once python/tests exists.
test-python:
	@if [ -d python/tests ]; then \
	  $(MAKE) --no-print-directory deps-python release && \
	  .venv/bin/python -m pytest -q python/tests; \
	fi

bench-build: deps
	@cmake --preset release >/dev/null
	cmake --build --preset release --target benchmarks

bench: bench-build
	bench/run.sh

clean:
	rm -rf build
