# bench/: timing targets (included by the top Makefile). See bench/README.md.
#
#   make bench STAGE=NN    check, then time stage NN's CLI under wasmtime (epoch on) and V8
#   make bench-all         every built stage in one run (ratios measured side by side, with
#                          intervals): wasmtime with and without epoch checks, and V8; the run is
#                          then named in bench/results/book-runs.json (what the book's tables read)
#   make bench-instructions [STAGES=00,09] [RUNTIME=..]   instructions per forward pass (valgrind),
#                          per stage and runtime (bench/instructions.mjs); REPEAT=1 counts again
#   make bench-sweep STAGE=NN [BESIDE=MM]   the stage and its SWEEP variants (bx_stage), each
#                          checked, then timed interleaved in BENCH_SWEEP_ROUNDS (3) rounds, plain
#                          and epoch; BESIDE=MM times stage MM (as built) in the same rounds
#   make bench-tiles       bench-sweep of the tile-shapes stage (stages/*-tile-shapes)
#   make tile-code [STAGE=11] [EPOCH=1]   the tile stage's (or stage 11's) inner GEMM loop per build, in
#                          wasm and in V8's x86 code (bench/tile-code.mjs -> bench/results/check-NN-tile-code.txt;
#                          installs wabt); EPOCH=1: the builds instrumented with the epoch checks (-epoch.txt)
#   make cranelift-loop STAGE=NN   the stage's hottest GEMM loop per build (stage and sweep) as
#                          wasmtime's Cranelift compiles it, epoch checks on and off: instructions,
#                          vpmaddwd, xmm<->stack moves (bench/cranelift-loop.py -> check-NN-cranelift-loop.txt)
#   make hot-blocks STAGE=NN   wasmtime's own profiler (`wasmtime hot-blocks`): the hottest basic blocks
#                          of the stage on the eval corpus, epoch on, machine code beside its wasm, samples per
#                          line (bench/hot-blocks.mjs -> check-NN-hot-blocks.txt). It answers "which block is hot"
#                          by measurement; cranelift-loop stays for counts across builds with the checks on and
#                          off, profile for V8's per-function shares, which hot-blocks cannot give
#   make float-loops STAGE=NN   forward()'s float loops in V8's x86 code for stage NN and the one
#                          before: instructions and xmm<->stack moves (bench/float-loops.mjs ->
#                          bench/results/check-NN-float-loops.txt; installs wabt)
#   make simd-listings     four of our inner loops in wasm and in V8's x86 code, for the chapters that
#                          argue from them (bench/simd-listing.mjs -> bench/results/listing-NN-simd-*.txt; installs wabt)
#   make primer-listings   the SIMD primer's own two loops (book/primer/loops.cpp, built on its own)
#                          in wasm and in V8's x86 code (-> bench/results/listing-primer-*.txt)
#   make bench-serve STAGES=00,04,09,30   the whole request through `make serve`'s host, stages side by
#                          side: Server-Timing medians and component sizes (bench/e2e/serve.mjs)
#   make limits [STAGES=00,12]   every stage's component against Akamai Functions' limits: size,
#                          peak linear memory, time of the largest accepted request (bench/limits.mjs)
#   make bench-remote URL=https://... [STAGE=NN]   a deployed service timed the post's way (20
#                          requests per text, Server-Timing medians + client time), bench/remote.mjs
#   make page-screenshot   bench/results/service-page.png (+ .json): the last stage's page after one
#                          request, from its Chromium test (the deploy chapter's figure)
#   make load [STAGE=NN] [LOAD_SECONDS=60] [LOAD_CLIENTS=4]   a bounded load test behind make serve:
#                          a mix of valid and invalid requests, answers compared with lone ones (bench/load.mjs)
#   make bench-report      redraw bench/results/forward.svg and table.md from the results files
#   make bench-peer [STAGE=NN]   the stage beside ONNX Runtime (web: wasm SIMD, node: native), one
#                          thread each, on the same windows, rounds interleaved (bench/peer/peer.mjs);
#                          installs Debian's python3-onnx and bench/peer's npm packages when missing
#   make bench-micro       Google Benchmark microbenchmarks (native build), then bench-ladders
#   make bench-ladders     the kernel ladders: every version of the GEMM, GELU, exp, quantiser, attention and LayerNorm,
#                          checked, then timed natively and under each runtime (bench/micro/ladder/)
#   make bench-selftest    the epoch instrumenter's self-test (with its mutant)
#
# Knobs: BENCH_RUNS (4 per round) BENCH_WARMUP (1) BENCH_ROUNDS (5; 10 for bench-all)
#        BENCH_CONFIGS (runtime:mode list; RUNTIME=wasmtime|v8 picks one runtime)
#        BENCH_CORPUS BENCH_REF BENCH_TIERING (turbofan|dynamic) BENCH_ARGS (anything else)
# Times taken while other work loads the machine are noisy; the results file
# records the load average before and after, and the table prints it.

BENCH_RUNS    ?= 4
BENCH_WARMUP  ?= 1
BENCH_ROUNDS  ?= 5
# wasmtime:epoch is what Spin runs; wasmtime:plain shows what its epoch checks
# cost; v8:plain is what a browser runs. RUNTIME=... on the command line keeps one.
BENCH_CONFIGS_ALL := wasmtime:epoch,wasmtime:plain,v8:plain
BENCH_CONFIGS_WASMTIME := wasmtime:epoch,wasmtime:plain
BENCH_CONFIGS ?= $(if $(filter file,$(origin RUNTIME)),$(BENCH_CONFIGS_ALL),$(if $(filter wasmtime,$(RUNTIME)),$(BENCH_CONFIGS_WASMTIME),v8:plain))
BENCH_CORPUS  ?= assets/corpora/eval.jsonl
# Stage 00's reference for the corpus: the committed one, else one stage 00
# computes into build/bench/ (remade when the corpus, the model or stage 00 changes).
BENCH_STAGE00   := $(notdir $(firstword $(wildcard stages/00-*)))
BENCH_REF_BUILD := build/bench/$(basename $(notdir $(BENCH_CORPUS))).ref
BENCH_REF     ?= $(or $(wildcard assets/baselines/$(basename $(notdir $(BENCH_CORPUS))).ref),$(BENCH_REF_BUILD))
BENCH_TIERING ?= turbofan
BENCH_ARGS    ?=

BENCH_CMD = $(NODE) bench/e2e/bench.mjs --build $(WASM_BUILD) --runs $(BENCH_RUNS) --warmup $(BENCH_WARMUP) \
            --rounds $(BENCH_ROUNDS) --configs $(BENCH_CONFIGS) --corpus $(BENCH_CORPUS) --ref $(BENCH_REF) \
            --tiering $(BENCH_TIERING) $(BENCH_ARGS)

.PHONY: hot-blocks cranelift-loop bench-instructions load limits page-screenshot bench-remote bench bench-all bench-peer bench-peer-setup bench-report simd-listings bench-micro bench-ladders bench-floor readme-chart bench-selftest bench-serve bench-sweep bench-tiles tile-code float-loops profile primer-listings

$(BENCH_REF_BUILD): $(BENCH_CORPUS) assets/model/model.bxm $(WASM_BUILD)/stages/$(BENCH_STAGE00)/cli.wasm
	@mkdir -p $(dir $@)
	$(NODE) --single-threaded-gc --disable-warning=ExperimentalWarning bench/e2e/wasi-host.mjs \
	  $(WASM_BUILD)/stages/$(BENCH_STAGE00)/cli.wasm dump --corpus $(BENCH_CORPUS) --out $@

# A failed check still redraws the report (the stage shows as failed), then fails.
## everyday: [STAGE=NN] [RUNTIME=wasmtime|v8]: check, then time the stage under wasmtime (epoch on, off) and V8
bench: require-stage build-wasm setup-wasmtime
	@$(MAKE) $(BENCH_REF)
	@status=0; $(BENCH_CMD) --stage $(STAGE_NAME) || status=$$?; \
	$(MAKE) bench-report; exit $$status

# Ten interleaved rounds: every ratio the book prints gets a bootstrap interval
# over them. A run that passed every check is named in bench/results/book-runs.json
# (bench/pin.mjs), which is what the book's tables read: commit it to choose it.
bench-all: BENCH_ROUNDS = 10
## everyday: [RUNTIME=wasmtime|v8]: every stage, 10 interleaved rounds; a run that passes is named in bench/results/book-runs.json
bench-all: build-wasm setup-wasmtime
	@$(MAKE) $(BENCH_REF)
	@set -o pipefail; status=0; out=$$($(BENCH_CMD) --all | tee /dev/stderr) || status=$$?; \
	if [ $$status -eq 0 ]; then $(NODE) bench/pin.mjs forward "$$(head -1 <<< "$$out")"; fi; \
	$(MAKE) bench-report; exit $$status

BENCH_INSTR_ARGS = $(if $(STAGES),--stages $(STAGES)) $(if $(filter file,$(origin RUNTIME)),,--runtimes $(RUNTIME)) \
                   $(if $(REPEAT),--repeat)
## deep dives: [STAGES=00,09] [RUNTIME=wasmtime|v8] [REPEAT=1]: x86 instructions per forward pass (valgrind), per stage and runtime
bench-instructions: build-wasm setup-wasmtime
	@command -v valgrind >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends valgrind; }
	@set -o pipefail; status=0; out=$$($(NODE) bench/instructions.mjs --build $(WASM_BUILD) $(BENCH_INSTR_ARGS) | tee /dev/stderr) || status=$$?; \
	if [ $$status -eq 0 ] && [ -z "$(STAGES)" ]; then $(NODE) bench/pin.mjs instructions "$$(head -1 <<< "$$out")"; fi; exit $$status

BENCH_SWEEP_ROUNDS ?= 5
bench_comma := ,
## deep dives: STAGE=NN [BESIDE=MM]: the stage and its SWEEP variants, each checked, then timed in interleaved rounds
bench-sweep: require-stage build-wasm
	@$(MAKE) $(BENCH_REF)
	$(NODE) bench/e2e/bench.mjs --build $(WASM_BUILD) --runs $(BENCH_RUNS) --warmup $(BENCH_WARMUP) \
	  --rounds $(BENCH_SWEEP_ROUNDS) --configs $(BENCH_CONFIGS) --corpus $(BENCH_CORPUS) --ref $(BENCH_REF) \
	  --tiering $(BENCH_TIERING) $(BENCH_ARGS) --stage $(if $(BESIDE),$(BESIDE)$(bench_comma))$(STAGE_NUM) --sweep

BENCH_TILES_STAGE := $(firstword $(subst -, ,$(notdir $(firstword $(wildcard stages/*-tile-shapes)))))
## deep dives: bench-sweep of the tile-shapes stage (stages/*-tile-shapes)
bench-tiles:
	@if [ -z "$(BENCH_TILES_STAGE)" ]; then echo "bench-tiles: no stages/NN-tile-shapes"; exit 2; fi
	$(MAKE) bench-sweep STAGE=$(BENCH_TILES_STAGE)

# wasm-objdump comes from Debian's wabt, installed here only when missing.
# STAGE=11: stage 11's sweep (widened activations), whose GEMM is its own function.
TILE_CODE_STAGE := $(if $(filter command line environment,$(origin STAGE)),$(STAGE_NUM),$(BENCH_TILES_STAGE))
# (a variable: an unbalanced parenthesis inside $(if ...) would end the call early)
TILE_CODE_GEMM := '::gemm\('
## deep dives: [STAGE=11] [EPOCH=1]: the tile stage's inner GEMM loop per build, in wasm and in V8's x86 code
tile-code: build-wasm
	@if [ -z "$(TILE_CODE_STAGE)" ]; then echo "tile-code: no stages/NN-tile-shapes"; exit 2; fi
	@command -v wasm-objdump >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends wabt; }
	$(NODE) bench/tile-code.mjs --stage $(TILE_CODE_STAGE) --lines 24 \
	  $(if $(filter $(BENCH_TILES_STAGE),$(TILE_CODE_STAGE)),--excerpt t4x4,--excerpt t4x2 --function $(TILE_CODE_GEMM)) \
	  $(if $(EPOCH),--epoch) -o bench/results/check-$(TILE_CODE_STAGE)-tile-code$(if $(EPOCH),-epoch).txt

# The loops each stage's capture shows: the GEMM's by default; the attention
# stages' two float loops (so that make check-results rewrites their captures
# with the loops their chapters argue from).
CRANELIFT_LOOP_ATTENTION := --function '::forward\(' --count vmulps --loops 2
CRANELIFT_LOOP_ARGS_27 := $(CRANELIFT_LOOP_ATTENTION)
CRANELIFT_LOOP_ARGS_30 := $(CRANELIFT_LOOP_ATTENTION)
CRANELIFT_LOOP_ARGS_31 := $(CRANELIFT_LOOP_ATTENTION)
CRANELIFT_LOOP_ARGS ?= $(CRANELIFT_LOOP_ARGS_$(STAGE_NUM))
## deep dives: STAGE=NN: the stage's hottest GEMM loop (attention's, for its stages) per build as Cranelift compiles it, epoch checks on and off
cranelift-loop: require-stage build-wasm setup-wasmtime
	$(WASMTIME_PY) bench/cranelift-loop.py --stage $(STAGE_NUM) $(CRANELIFT_LOOP_ARGS) \
	  -o bench/results/check-$(STAGE_NUM)-cranelift-loop.txt

# The hottest basic blocks under wasmtime (epoch on, as Spin runs it), from
# wasmtime's own profiler: bench/results/check-NN-hot-blocks.txt.
HOT_BLOCKS_PERCENT ?= 50
## deep dives: STAGE=NN [HOT_BLOCKS_PERCENT=50]: wasmtime hot-blocks: the hottest blocks as Cranelift compiled them, epoch on
hot-blocks: require-stage build-wasm setup-wasmtime
	@command -v perf >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends linux-perf; }
	$(NODE) bench/hot-blocks.mjs --stage $(STAGE_NUM) --percent $(HOT_BLOCKS_PERCENT) \
	  -o bench/results/check-$(STAGE_NUM)-hot-blocks.txt

# Where the time goes, function by function (Linux perf), in STAGE and the
# stage before it: bench/results/check-NN-profile.txt.
## deep dives: STAGE=NN: each wasm function's share of the CPU (Linux perf), the stage and the one before
profile: require-stage build-wasm
	@command -v perf >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends linux-perf; }
	$(NODE) bench/profile.mjs --stage $(STAGE_NUM) -o bench/results/check-$(STAGE_NUM)-profile.txt

## deep dives: STAGE=NN: forward()'s float loops in V8's x86 code, the stage and the one before
float-loops: require-stage build-wasm
	@command -v wasm-objdump >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends wabt; }
	$(NODE) bench/float-loops.mjs --stage $(STAGE_NUM) -o bench/results/check-$(STAGE_NUM)-float-loops.txt

# The listings name their stages by what they show: the first stage with each kernel as it is now.
SIMD_LISTING = $(NODE) bench/simd-listing.mjs
## deep dives: four of the stages' inner loops in wasm and in V8's x86 code (bench/results/listing-NN-simd-*.txt)
simd-listings: build-wasm
	@command -v wasm-objdump >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends wabt; }
	$(SIMD_LISTING) --stage 11 --function '::gemm\(' --marker '^i32x4\.dot_i16x8_s$$' --x86-marker 'pmaddwd' \
	  --title "The int8 GEMM's inner loop (4x1 tile, widened activations)" --lines 30 -o bench/results/listing-11-simd-gemm.txt
	$(SIMD_LISTING) --stage 06 --function 'bx::stage::forward\(' --marker '^f32x4\.mul$$' --x86-marker 'vmulps' \
	  --title "Attention scores: four keys by four query rows per step" --lines 24 -o bench/results/listing-06-simd-scores.txt
	$(SIMD_LISTING) --stage 09 --function 'bx::stage::quantize_row\(' --marker 'trunc_sat' --x86-marker 'cvttps2dq' \
	  --run 'check-quant --only random --rows 50' --title "The quantiser's element step" --lines 30 -o bench/results/listing-09-simd-quantise.txt
	$(SIMD_LISTING) --stage 10 --function 'bx::stage::exp_in_place' --marker '^f64x2\.mul$$' --x86-marker 'vmulpd' \
	  --run 'check-exp --from 0 --to 65536' --outer --title "exp on four lanes (two f64x2 halves)" --lines 30 -o bench/results/listing-10-simd-exp.txt

# The primer's loops: a CMake project of their own (book/primer), with the stages' wasm toolchain.
PRIMER_BUILD := build/primer
PRIMER_WASM  := $(PRIMER_BUILD)/primer-loops.wasm
## deep dives: the SIMD primer's own two loops in wasm and in V8's x86 code (bench/results/listing-primer-*.txt)
primer-listings: setup
	@command -v wasm-objdump >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends wabt; }
	cmake -S book/primer -B $(PRIMER_BUILD) -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/common/cmake/wasm32-wasi.cmake -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(PRIMER_BUILD)
	$(SIMD_LISTING) --module $(PRIMER_WASM) --function '^scale\(' --marker '^f32x4\.mul$$' --x86-marker 'vmulps' \
	  --title "Scaling floats in place, four per trip" --lines 40 -o bench/results/listing-primer-scale.txt
	$(SIMD_LISTING) --module $(PRIMER_WASM) --function '^dot_int8\(' --marker '^i32x4\.dot_i16x8_s$$' --x86-marker 'vpmaddwd' \
	  --title "An int8 dot product, sixteen bytes per trip" --lines 40 -o bench/results/listing-primer-dot.txt

BENCH_SERVE_REPEATS ?= 20
# The hosts bench-serve puts side by side (bench/e2e/serve.mjs --hosts).
SERVE_HOSTS_BENCH ?= wasmtime,jco
## deep dives: URL=https://... [STAGE=NN]: a deployed service timed the post's way (Server-Timing medians, client time)
bench-remote:
	@if [ -z "$(URL)" ]; then echo "bench-remote: give URL=https://<your app> (make deploy prints it)"; exit 2; fi
	$(NODE) bench/remote.mjs $(URL) $(if $(STAGE),--stage $(STAGE)) $(if $(BENCH_REMOTE_REPEATS),--repeats $(BENCH_REMOTE_REPEATS))

## deep dives: bench/results/service-page.png: the last stage's page after one request (Chromium)
page-screenshot: build-wasm book-test-setup
	BX_PAGE_SCREENSHOT=$(CURDIR)/bench/results/service-page.png $(NODE) tests/integration/page_chromium.test.mjs

## deep dives: [STAGE=NN] [LOAD_SECONDS=60] [LOAD_CLIENTS=4] [HOST=jco]: a bounded load test behind make serve's host (wasmtime serve)
load: build-wasm
	$(NODE) bench/load.mjs $(if $(STAGE),--stage $(STAGE)) --seconds $(or $(LOAD_SECONDS),60) --clients $(or $(LOAD_CLIENTS),4) --with $(SERVE_HOST)

## deep dives: [STAGES=00,12] [HOST=jco]: each stage's component under wasmtime serve against Akamai Functions' limits (size, memory, largest request)
limits: build-wasm
	$(NODE) bench/limits.mjs $(if $(STAGES),--stages $(STAGES)) $(if $(LIMITS_REPEATS),--repeats $(LIMITS_REPEATS)) --with $(SERVE_HOST)

## deep dives: STAGES=NN,MM [SERVE_HOSTS_BENCH=wasmtime,jco]: the whole request, each stage under wasmtime serve and jco serve side by side
bench-serve: build-wasm
	@if [ -z "$(STAGES)" ]; then echo "bench-serve: give STAGES=NN,MM (e.g. STAGES=00,04,09,30)"; exit 2; fi
	$(NODE) bench/e2e/serve.mjs --stages $(STAGES) --repeats $(BENCH_SERVE_REPEATS) --hosts $(SERVE_HOSTS_BENCH)

# The peer's inputs: our model as ONNX (Debian's python3, which has python3-onnx,
# not whatever python3 comes first on PATH), and the corpus's windows with
# stage 00's labels and logits (`cli windows`).
PEER_BUILD   := build/peer
PEER_PYTHON  ?= /usr/bin/python3
PEER_ONNX    := $(PEER_BUILD)/model-int8.onnx
PEER_WINDOWS := $(PEER_BUILD)/$(basename $(notdir $(BENCH_CORPUS)))-windows.json
PEER_ROUNDS  ?= 10

## internals: Debian's python3-onnx and bench/peer's npm packages, when missing
bench-peer-setup:
	@dpkg-query -W -f='$${Status}\n' python3-onnx 2>/dev/null | grep -q '^install ok installed' || { \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-onnx; }
	@[ bench/peer/node_modules/.package-lock.json -nt bench/peer/package-lock.json ] || \
	  { cd bench/peer && npm ci --ignore-scripts --no-audit --no-fund && touch node_modules/.package-lock.json; }

$(PEER_ONNX): assets/model/model.bxm bench/peer/export_onnx.py
	@mkdir -p $(dir $@)
	$(PEER_PYTHON) bench/peer/export_onnx.py $< $@

$(PEER_WINDOWS): $(BENCH_CORPUS) assets/model/model.bxm $(WASM_BUILD)/stages/$(BENCH_STAGE00)/cli.wasm
	@mkdir -p $(dir $@)
	$(NODE) --single-threaded-gc --disable-warning=ExperimentalWarning bench/e2e/wasi-host.mjs \
	  $(WASM_BUILD)/stages/$(BENCH_STAGE00)/cli.wasm windows --corpus $(BENCH_CORPUS) --out $@

## deep dives: [STAGE=NN]: the stage beside ONNX Runtime (web: wasm SIMD; node: native), one thread each, same windows
bench-peer: build-wasm bench-peer-setup
	@$(MAKE) $(BENCH_REF) $(PEER_ONNX) $(PEER_WINDOWS)
	@set -o pipefail; status=0; out=$$($(NODE) bench/peer/peer.mjs --onnx $(PEER_ONNX) --windows $(PEER_WINDOWS) --runs $(BENCH_RUNS) \
	  --warmup $(BENCH_WARMUP) --rounds $(PEER_ROUNDS) --corpus $(BENCH_CORPUS) --ref $(BENCH_REF) \
	  $(if $(STAGE),--stage $(STAGE)) | tee /dev/stderr) || status=$$?; \
	if [ $$status -eq 0 ] && [ -z "$(STAGE)" ]; then $(NODE) bench/pin.mjs peer "$$(head -1 <<< "$$out")"; fi; exit $$status

## deep dives: redraw bench/results/forward.svg and table.md from the results files
bench-report:
	$(NODE) bench/plot.mjs -o bench/results/forward.svg
	$(NODE) bench/table.mjs -o bench/results/table.md

## deep dives: Google Benchmark microbenchmarks (native build), then the kernel ladders (bench-ladders)
bench-micro: build-native
	cmake --build $(NATIVE_BUILD) -j $(JOBS) --target bench_micro
	$(NATIVE_BUILD)/bench/bench_micro_maths
	@for b in $(NATIVE_BUILD)/bench/bench_micro_[0-9][0-9]; do echo "== $$b"; $$b || exit $$?; done
	@$(MAKE) bench-ladders

# Every stage's version of the GEMM, GELU, exp, quantiser, attention and LayerNorm side by side
# (bench/micro/ladder): each rung checked bit for bit against stage 00's
# arithmetic, then timed under wasmtime (epoch on, off), V8 and natively.
## deep dives: [LADDER_ARGS=...] the kernel ladders: every version of six kernels, checked, then timed; writes bench/results/*-ladders.json and ladders.md
bench-ladders: build-wasm build-native setup-wasmtime
	cmake --build $(NATIVE_BUILD) -j $(JOBS) --target bench_ladders
	cmake --build $(WASM_BUILD) -j $(JOBS) --target bench_ladders
	$(NODE) bench/micro/ladder/run.mjs $(LADDER_ARGS)

# The GEMM's floor (bench/floor): one window's dot products and nothing else,
# in wasm written by hand (kernels.mjs), under wasmtime (epoch on, off), V8 and
# natively, rounds interleaved; pinned as
# the book's floor table (node bench/table.mjs floor), which also sets every
# stage's matmul phase beside it.
## deep dives: [FLOOR_ARGS="--rounds 10"]: the GEMM's floor under each runtime and natively; pins bench/results/*-floor.json
bench-floor: build-native setup-wasmtime
	cmake --build $(NATIVE_BUILD) -j $(JOBS) --target bench_floor_native
	@out=$$($(NODE) bench/floor/run.mjs $(FLOOR_ARGS)); status=$$?; echo "$$out"; \
	if [ $$status -eq 0 ]; then $(NODE) bench/pin.mjs floor "$$(head -1 <<< "$$out")"; fi; exit $$status

# The README's overview chart: every stage's forward pass under wasmtime (epoch
# on) and V8 from the pinned run, with ONNX Runtime's (the pinned peer run)
# beside them. CTest's readme: chart is fresh fails when the committed one is stale.
## the book: bench/results/overview.svg, the README's chart, from the pinned runs
readme-chart:
	$(NODE) bench/plot.mjs --peers -o bench/results/overview.svg

## deep dives: the epoch instrumenter's self-test (with its mutant)
bench-selftest:
	$(NODE) bench/epoch/test/selftest.mjs
