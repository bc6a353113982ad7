# Fuzzing (tests/fuzz, README.md there). The targets live in the sanitizer build.
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS=json,request] [FUZZ_JOBS=2] [FUZZ_RECORD=1]
#       every target (or those named) for FUZZ_SECONDS each, two at a time,
#       from the committed seeds and build/fuzz/corpus/; FUZZ_RECORD=1 writes
#       bench/results/<date>-fuzz.json (executions, speed, coverage, findings)
#   make fuzz-mutants   every target's mutant twin must be caught
#   make fuzz-seeds     rewrite tests/fuzz/seeds/ (each target makes its own)
#   make fuzz-check-tok  what the tokenizer targets' corpora hold, through the
#                       Hugging Face reference (check-tok) for stage 00 and the last
#                       stage (bench/results/check-fuzz-check-tok-NN.txt)
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 2
FUZZ_RUN := $(NODE) tests/fuzz/fuzz.mjs --build $(SANITIZE_BUILD) --seconds $(FUZZ_SECONDS) --jobs $(FUZZ_JOBS) \
            $(if $(FUZZ_TARGETS),--targets $(FUZZ_TARGETS))
FUZZ_TARGET_NAMES := $(patsubst tests/fuzz/fuzz_%.cpp,%,$(filter-out tests/fuzz/fuzz_support.cpp,$(wildcard tests/fuzz/fuzz_*.cpp)))

.PHONY: fuzz fuzz-mutants fuzz-seeds fuzz-check-tok

## deep dives: [FUZZ_SECONDS=60] [FUZZ_TARGETS=a,b] [FUZZ_RECORD=1]: the libFuzzer targets (tests/fuzz), two at a time
fuzz: build-sanitize
	$(FUZZ_RUN) $(if $(FUZZ_RECORD),--record bench/results/$$(date -u +%Y-%m-%dT%H%M)-fuzz.json)

## deep dives: every fuzz target's mutant twin must be caught
fuzz-mutants: build-sanitize
	$(FUZZ_RUN) --mutant

## deep dives: rewrite tests/fuzz/seeds/ (each target makes its own)
fuzz-seeds: build-sanitize
	@for t in $(FUZZ_TARGET_NAMES); do \
	  rm -rf tests/fuzz/seeds/$$t && \
	  BX_FUZZ_WRITE_SEEDS=tests/fuzz/seeds/$$t $(SANITIZE_BUILD)/tests/fuzz/fuzz_$$t || exit $$?; \
	done

# A sample of the texts the fuzzer kept (valid UTF-8 only) as a JSONL corpus,
# then check-tok on it: the reference is the judge of what the fuzzer invented.
FUZZ_TOKCHECK_CORPUS := build/fuzz/tokcheck.jsonl
## deep dives: the texts the tokenizer fuzz targets kept, through check-tok for stage 00 and the last stage
fuzz-check-tok:
	$(NODE) tests/fuzz/corpus-to-jsonl.mjs --from build/fuzz/corpus/tokenizer,build/fuzz/corpus/unigram_diff \
	  --max $(or $(FUZZ_TOKCHECK_MAX),3000) -o $(FUZZ_TOKCHECK_CORPUS)
	@set -o pipefail; for s in 00 $(LAST_STAGE_NUM); do \
	  $(MAKE) check-tok STAGE=$$s CORPUS=$(FUZZ_TOKCHECK_CORPUS) 2>&1 | tee bench/results/check-fuzz-check-tok-$$s.txt || exit $$?; \
	done
