# The harness's make targets (included by the top Makefile, which defines
# STAGE_DIR, STAGE_NAME, STAGE_NUM, WASM_BUILD, NATIVE_BUILD, NODE, JOBS).
#
#   make eval STAGE=NN [RUNS=20] [NATIVE=1]
#       the eval corpus against assets/baselines/eval.bin + forward timing
#   make check STAGE=NN [CORPUS=file.jsonl] [NATIVE=1] [VARIANT=name] [MUTATE=i] [LIMIT=n] [PART=k/n] [HARNESS_EXPLAIN=0]
#       every live row's logit bits of stage NN vs stage 00's on a corpus
#       (default assets/corpora/equivalence.jsonl); exit 1 on ANY difference;
#       LIMIT=n checks only the first n texts (quick, partial); PART=k/n only
#       texts k, k+n, k+2n, ... (CI's share, common/harness/tests.cmake); HARNESS_EXPLAIN=0
#       skips stage 00's explanation of the differing texts (it reruns stage 00
#       on each, which takes long when most texts differ)
#   make baseline [CORPUS=file.jsonl] [NATIVE=1] [BASELINE_PARTS=n]
#       stage 00 writes assets/baselines/eval.bin and assets/baselines/<corpus>.ref
#       (n processes side by side, default one per core)
#   make check-mutant STAGE=NN [CORPUS=...]
#       succeeds only if `check` FAILS when one logit bit of one text is flipped
#   make check-contract
#       stage 00 vs the numpy reference of the contract, one window, bit for bit
#   make check-maths [NATIVE=1]
#       bx_expf / bx_erff vs the libc's expf / erff on all 2^32 inputs
#   make check-gelu STAGE=NN [VARIANT=name] [NATIVE=1] [CHECK_PARTS=2]
#       stages with their own GELU kernel (07 on): the kernel vs gelu_scalar on
#       all 2^32 inputs, split over CHECK_PARTS processes side by side
#   make check-quant STAGE=NN [VARIANT=name] [NATIVE=1] [CHECK_PARTS=2]
#       stages with their own quantiser (09 on): the kernel vs the scalar
#       reference on all 2^32 inputs (scale 1) and 20,000 random rows
#   make check-exp STAGE=NN [VARIANT=name] [NATIVE=1] [CHECK_PARTS=2]
#       stages with their own softmax exp (10 on): the kernel vs bx_expf on
#       all 2^32 inputs, split like check-gelu
#   make check-gelu-census STAGE=NN
#       where the eval corpus's real GELU inputs fall among erf's branches
#   Each make target runs the CLI subcommand of the same name (`cli check-gelu` ...).
#   make check-results
#       rewrite bench/results/check-*.txt (what the book quotes): every stage, the
#       native cross-check, the mutant and the kept variants (check-results.sh)
#   make recipe-agree, make recipe-agree-mutant
#       the recipe's int8 evaluation vs stage 00's eval baseline, label for label
#
# By default everything runs the shipped wasm build under Node (V8);
# RUNTIME=wasmtime runs it under wasmtime as Spin configures it (Cranelift,
# epoch interruption on; common/host/wasmtime-run.py); NATIVE=1 uses the
# native build (a cross-check, never the proof).
#
# check's reference: assets/baselines/<corpus>.ref when committed (stage 00's
# labels + logit-bit hashes per text), else stage 00 computes one into
# build/harness/ (kept until the corpus, the model or stage 00 changes).
# When texts differ, stage NN's logits for them go to a diff file and stage
# 00's `explain` reports which tokens differ and max/mean |dlogit|: a WASI
# program cannot start another, so make runs the two in turn.
#
# VARIANT=name: runs the executable `cli-name` (`cli-name.wasm`) from the
# stage's build directory instead of `cli`: a kept mistake, a trap or a sweep
# build that the stage's bx_stage() call declares (build/wasm/stages/NN-name/
# variants.json lists them). A name the stage does not declare stops make with
# the list of those it does; variants are built for wasm only, so NATIVE=1 with
# VARIANT stops too.

# Node: --single-threaded-gc because Node 20 intermittently segfaults (exit
# 139) at exit after a wasm module has grown its memory to tens of MB (the
# model alone is 23 MB) while V8's concurrent GC threads run; one GC thread
# avoids it (measured: 0 crashes in 24 runs vs about 1 in 3).
HARNESS_WASI    := $(RUNTIME_WASI)
HARNESS_FLAVOUR := $(if $(filter 1,$(NATIVE)),native,wasm)
HARNESS_BUILD   := $(if $(filter 1,$(NATIVE)),$(NATIVE_BUILD),$(WASM_BUILD))
STAGE00_DIR     := $(firstword $(wildcard stages/00-*))
STAGE00_NAME    := $(notdir $(STAGE00_DIR))

# The CLI of stage directory $(1), optionally a variant $(2), in the chosen flavour.
harness_exe = $(HARNESS_BUILD)/stages/$(1)/cli$(if $(2),-$(2))$(if $(filter wasm,$(HARNESS_FLAVOUR)),.wasm)
harness_cli = $(if $(filter wasm,$(HARNESS_FLAVOUR)),$(HARNESS_WASI) )$(call harness_exe,$(1),$(2))

# CORPUS is also check-tok's variable: take it only when given on the command
# line or in the environment, never another fragment's default.
# A corpus anywhere: the wasm CLIs see the whole file system and our working
# directory (common/host/wasi-run.mjs); one that does not exist stops make
# with its name.
HARNESS_CORPUS   := $(if $(filter command line environment,$(origin CORPUS)),$(CORPUS),assets/corpora/equivalence.jsonl)
ifneq ($(filter command line environment,$(origin CORPUS)),)
ifeq ($(wildcard $(CORPUS)),)
$(error CORPUS=$(CORPUS): no such file (give a readable .jsonl path; relative paths are from $(CURDIR)))
endif
endif
HARNESS_CNAME    := $(basename $(notdir $(HARNESS_CORPUS)))
HARNESS_DIR      := build/harness
HARNESS_REF_REPO := assets/baselines/$(HARNESS_CNAME).ref
HARNESS_REF_BUILD := $(HARNESS_DIR)/$(HARNESS_CNAME).$(HARNESS_FLAVOUR).ref
HARNESS_DIFF     := $(HARNESS_DIR)/$(STAGE_NAME).$(HARNESS_CNAME).$(HARNESS_FLAVOUR).diff
HARNESS_MODEL    := assets/model/model.bxm

.PHONY: eval check check-mutant baseline check-maths check-contract harness-cli harness-cli-00 \
        recipe-maths recipe-agree recipe-agree-mutant check-results

# The stage's CLI and stage 00's (its oracle).
## internals: build the stage's CLI (and VARIANT's) and stage 00's, in the flavour NATIVE=1 picks
harness-cli: require-stage $(HARNESS_BUILD)/CMakeCache.txt $(RUNTIME_SETUP)
ifneq ($(VARIANT),)
ifeq ($(NATIVE),1)
	@echo "VARIANT=$(VARIANT) with NATIVE=1: variants are built for wasm only (drop NATIVE=1)"; exit 2
endif
	@$(NODE) common/harness/require-variant.mjs $(WASM_BUILD)/stages/$(STAGE_NAME)/variants.json $(VARIANT)
endif
	cmake --build $(HARNESS_BUILD) -j $(JOBS) --target $(sort stage_$(STAGE_NUM)_cli stage_00_cli $(if $(VARIANT),stage_$(STAGE_NUM)_$(VARIANT)_cli))
## internals: build stage 00's CLI (the oracle), in the flavour NATIVE=1 picks
harness-cli-00: $(HARNESS_BUILD)/CMakeCache.txt $(RUNTIME_SETUP)
	cmake --build $(HARNESS_BUILD) -j $(JOBS) --target stage_00_cli

## everyday: [STAGE=NN] [RUNS=20] [NATIVE=1]: the eval corpus against stage 00's assets/baselines/eval.bin, and forward timing
eval: harness-cli
	$(call harness_cli,$(STAGE_NAME)) eval $(if $(RUNS),--runs $(RUNS))

# Stage 00's reference for a corpus with no committed one.
$(HARNESS_REF_BUILD): $(HARNESS_CORPUS) $(HARNESS_MODEL) $(call harness_exe,$(STAGE00_NAME)) | harness-cli-00
	@mkdir -p $(HARNESS_DIR)
	$(call harness_cli,$(STAGE00_NAME)) dump --corpus $(HARNESS_CORPUS) --out $@

# The reference check uses: the committed one if there is one.
HARNESS_REF := $(if $(wildcard $(HARNESS_REF_REPO)),$(HARNESS_REF_REPO),$(HARNESS_REF_BUILD))

# The check itself, then (exit 1 only) stage 00's explanation; keeps check's status.
define harness_check
	@mkdir -p $(HARNESS_DIR); rm -f $(HARNESS_DIFF); \
	echo "check: $(STAGE_NAME)$(if $(VARIANT), variant $(VARIANT)) ($(HARNESS_FLAVOUR)$(if $(filter wasm,$(HARNESS_FLAVOUR)), under $(RUNTIME))) vs $(HARNESS_REF) on $(HARNESS_CORPUS)$(if $(1), with a one-bit mutation in text $(1))"; \
	$(call harness_cli,$(STAGE_NAME),$(VARIANT)) check --corpus $(HARNESS_CORPUS) --ref $(HARNESS_REF) \
	  --diff-out $(HARNESS_DIFF) $(if $(1),--mutate $(1)) $(if $(LIMIT),--limit $(LIMIT)) $(if $(PART),--part $(PART)); rc=$$?; \
	if [ $$rc -eq 1 ] && [ -f $(HARNESS_DIFF) ] && [ "$(HARNESS_EXPLAIN)" != 0 ]; then \
	  $(call harness_cli,$(STAGE00_NAME)) explain --corpus $(HARNESS_CORPUS) --diff $(HARNESS_DIFF); \
	fi
endef

## everyday: [STAGE=NN] [CORPUS=f.jsonl] [NATIVE=1] [VARIANT=name] [LIMIT=n] [PART=k/n]: every logit bit vs stage 00's; exit 1 on any difference
check: harness-cli $(HARNESS_REF)
	$(call harness_check,$(MUTATE)); exit $$rc

# The check must be able to fail: flip the lowest bit of one logit of one
# text (MUTATE, default text 0) and expect exit status 1 from `check`.
## deep dives: [STAGE=NN] [MUTATE=i]: succeeds only if check fails on one flipped logit bit
check-mutant: harness-cli $(HARNESS_REF)
	$(call harness_check,$(or $(MUTATE),0)); \
	if [ $$rc -eq 1 ]; then echo "check-mutant: check failed on the one-bit mutation, as it must"; \
	else echo "check-mutant: check did NOT catch the one-bit mutation (exit $$rc)"; exit 1; fi

# The corpus's texts are dealt into BASELINE_PARTS parts dumped side by side, then
# merged (ref-parts.mjs): the same bytes as one dump, in half the time on 2 cores.
BASELINE_PARTS ?= $(JOBS)
HARNESS_PARTS  := $(HARNESS_DIR)/baseline-parts
## deep dives: [CORPUS=f.jsonl] [BASELINE_PARTS=n]: stage 00 rewrites assets/baselines/ (eval.bin, <corpus>.ref)
baseline: harness-cli-00
	$(call harness_cli,$(STAGE00_NAME)) eval --write-baseline
	$(NODE) common/harness/ref-parts.mjs split $(HARNESS_CORPUS) $(BASELINE_PARTS) $(HARNESS_PARTS)
	@pids=; for k in $$(seq 0 $$(($(BASELINE_PARTS) - 1))); do \
	  $(call harness_cli,$(STAGE00_NAME)) dump --corpus $(HARNESS_PARTS)/part-$$k.jsonl \
	    --out $(HARNESS_PARTS)/part-$$k.ref & pids="$$pids $$!"; \
	done; status=0; for p in $$pids; do wait $$p || status=1; done; exit $$status
	$(NODE) common/harness/ref-parts.mjs merge $(HARNESS_CORPUS) $(BASELINE_PARTS) $(HARNESS_PARTS) $(HARNESS_REF_REPO)

## deep dives: [NATIVE=1]: bx_expf / bx_erff against the libc's expf / erff on all 2^32 inputs
check-maths: harness-cli-00
	$(call harness_cli,$(STAGE00_NAME)) check-maths
-include common/harness/check-tok.mk

# Stage 00 against the numpy reference of the contract (bxm.py, exact mode,
# with our exp/erf through a shared library): all 256 x 81 logits of one
# window must have the same bits. Native only; needs /usr/bin/python3 + numpy.
CONTRACT_IDS := 0,5,1000,2345,77,30999,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,2
$(HARNESS_DIR)/libbxmaths.so: common/harness/contract/maths_capi.cpp $(wildcard common/maths/*.cpp common/maths/*.hpp)
	@mkdir -p $(HARNESS_DIR)
	clang++-19 -O2 -ffp-contract=off -std=c++20 -fPIC -shared -I. common/harness/contract/maths_capi.cpp \
	  common/maths/expf.cpp common/maths/erff.cpp -o $@

## deep dives: stage 00 (native) against the contract's numpy reference (bxm.py): one window's logits, bit for bit
check-contract: $(HARNESS_DIR)/libbxmaths.so
	$(MAKE) harness-cli-00 NATIVE=1
	$(NATIVE_BUILD)/stages/$(STAGE00_NAME)/cli logits --ids $(CONTRACT_IDS) --out $(HARNESS_DIR)/contract.logits
	/usr/bin/python3 common/harness/contract/contract_check.py $(HARNESS_MODEL) $(HARNESS_DIR)/contract.logits \
	  $(HARNESS_DIR)/libbxmaths.so $(CONTRACT_IDS)
## internals: build/harness/libbxmaths.so, our expf/erff as a shared library for the Python recipe
recipe-maths: $(HARNESS_DIR)/libbxmaths.so

# The recipe's int8 evaluation (bxm.py exact mode + our expf/erff, what evaluate.py scores
# with) against stage 00's eval baseline, label for label; then, for information only, bxm's
# fast mode. Writes bench/results/recipe-agree.txt; fails if the exact mode differs anywhere.
RECIPE_AGREE := /usr/bin/python3 assets/recipe/train/agree.py --maths $(HARNESS_DIR)/libbxmaths.so
## the model: the recipe's int8 evaluation against stage 00's eval baseline, label for label
recipe-agree: $(HARNESS_DIR)/libbxmaths.so
	@set -o pipefail; { $(RECIPE_AGREE) && { $(RECIPE_AGREE) --fast || true; }; } | tee bench/results/recipe-agree.txt

# The check must be able to fail: per-matrix instead of per-row activation scales.
## the model: succeeds only if recipe-agree fails with per-matrix activation scales
recipe-agree-mutant: $(HARNESS_DIR)/libbxmaths.so
	@if $(RECIPE_AGREE) --mutate; then echo "recipe-agree-mutant: the mutation was NOT caught"; exit 1; \
	else echo "recipe-agree-mutant: the per-matrix-scale mutation fails the check, as it must"; fi

## deep dives: [CHECK_RESULTS_STAGES="NN ..."]: rerun the checks the book quotes into bench/results/check-*.txt
check-results: build
	common/harness/check-results.sh

# check-gelu (stages whose bx_stage() lists the CLI's check-gelu, 07 on): the
# stage's vector GELU against gelu_scalar on all 2^32 inputs, split over
# CHECK_PARTS processes (one per core). VARIANT=rereads runs the post's first
# bug, which must fail.
CHECK_PARTS ?= $(JOBS)
.PHONY: check-gelu check-gelu-census
## deep dives: [STAGE=NN] [VARIANT=name] [NATIVE=1] [CHECK_PARTS=2]: the stage's GELU kernel vs gelu_scalar, all 2^32 inputs (07 on)
check-gelu: harness-cli
	common/harness/range-parts.sh $(CHECK_PARTS) check-gelu $(call harness_cli,$(STAGE_NAME),$(VARIANT))
# check-quant (the CLI's check-quant, 09 on): the stage's quantiser vs the scalar
# reference, all 2^32 inputs (split like check-gelu) and random rows.
# VARIANT=nearest or VARIANT=pmin-swapped must fail.
.PHONY: check-quant
## deep dives: [STAGE=NN] [VARIANT=name] [NATIVE=1] [CHECK_PARTS=2]: the stage's quantiser vs the scalar one, all 2^32 inputs (09 on)
check-quant: harness-cli
	common/harness/range-parts.sh $(CHECK_PARTS) check-quant $(call harness_cli,$(STAGE_NAME),$(VARIANT))
# check-exp (the CLI's check-exp, 10 on): the stage's vector exp (its softmax's)
# vs bx_expf on all 2^32 inputs, split like check-gelu.
# VARIANT=no-fallback must fail.
.PHONY: check-exp
## deep dives: [STAGE=NN] [VARIANT=name] [NATIVE=1] [CHECK_PARTS=2]: the stage's softmax exp vs bx_expf, all 2^32 inputs (10 on)
check-exp: harness-cli
	common/harness/range-parts.sh $(CHECK_PARTS) check-exp $(call harness_cli,$(STAGE_NAME),$(VARIANT))
# Where the GELU inputs of the eval corpus fall (the vector range's share).
## deep dives: [STAGE=NN] [VARIANT=name]: where the eval corpus's real GELU inputs fall among erf's branches
check-gelu-census: harness-cli
	$(call harness_cli,$(STAGE_NAME),$(VARIANT)) check-gelu-census
