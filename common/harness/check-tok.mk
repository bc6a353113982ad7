# check-tok: the stage's tokenizer against the reference (Hugging Face's
# tokenizers wheel, TOKENIZERS_VERSION in the Makefile, in build/venv), in the
# shipped (wasm) build, through the CLI's check-tok subcommand.
#
#   make check-tok STAGE=NN [CORPUS=file.jsonl[.gz]]   identical or exit 1
#   make check-tok-mutant STAGE=NN [CORPUS=...]        succeeds only if check-tok
#                                                      FAILS on the mutant
#
# The expected encodings: tokref.py runs the reference on the corpus and also
# exports its scores (--scores). For the default corpus, the golden files next
# to it (assets/corpora/README.md: tokcheck.golden.jsonl.gz and the reference's
# score bits, tokcheck.scores.tsv.gz) must equal what the reference says now,
# byte for byte, or check-tok stops: a reference that moved is not a reference.
# The mutant: the stage's source marked `// mutation-point: tiebreak` is
# copied under build/, the `>` on the line after the marker becomes `>=`, and
# that one object is compiled with the stage's own CMake flags and linked in
# front of the stage library (the stage directory itself is never touched).

TOKCHECK_DIR      := build/tokcheck/$(STAGE_NAME)
TOKCHECK_JSON     ?= assets/tokenizer/tokenizer.json
TOKCHECK_DEFAULT  := $(firstword $(wildcard assets/corpora/tokcheck.jsonl assets/corpora/tokcheck.jsonl.gz))
CORPUS            ?= $(TOKCHECK_DEFAULT)
TOKCHECK_GOLDEN   := $(if $(filter $(TOKCHECK_DEFAULT),$(CORPUS)),$(firstword $(wildcard assets/corpora/tokcheck.golden.jsonl.gz assets/corpora/tokcheck.golden.jsonl)))
TOKCHECK_SCORES   := $(if $(TOKCHECK_GOLDEN),$(firstword $(wildcard assets/corpora/tokcheck.scores.tsv.gz assets/corpora/tokcheck.scores.tsv)))
TOKCHECK_ARGS      = --corpus $(TOKCHECK_DIR)/corpus.jsonl --expected $(TOKCHECK_DIR)/expected.jsonl \
                     $(if $(TOKCHECK_SCORES),--scores $(TOKCHECK_DIR)/scores.tsv)
TOKCHECK_CLI      := $(WASM_BUILD)/$(STAGE_DIR)/cli.wasm
# --single-threaded-gc: see harness.mk (Node 20 can crash at exit after wasm memory growth).
TOKCHECK_WASI     := $(NODE) --single-threaded-gc common/host/wasi-run.mjs
TOKCHECK_MUTANT   := $(TOKCHECK_DIR)/mutant

.PHONY: check-tok check-tok-mutant check-tok-inputs check-tok-cli

## internals: build the stage's wasm CLI for check-tok
check-tok-cli: require-stage $(WASM_BUILD)/CMakeCache.txt
	cmake --build $(WASM_BUILD) -j $(JOBS) --target stage_$(STAGE_NUM)_cli

# corpus.jsonl and expected.jsonl (scores line first) under build/tokcheck/.
## internals: check-tok's corpus and expected encodings (golden files or the reference's) under build/tokcheck/
check-tok-inputs: require-stage $(WASMTIME_STAMP)
	@if [ -z "$(CORPUS)" ]; then echo "check-tok: no corpus (give CORPUS=file.jsonl, or add assets/corpora/tokcheck.jsonl)"; exit 2; fi
	@mkdir -p $(TOKCHECK_DIR)
	@case "$(CORPUS)" in *.gz) gzip -dc "$(CORPUS)" ;; *) cat "$(CORPUS)" ;; esac > $(TOKCHECK_DIR)/corpus.jsonl
	@echo "check-tok: $(CORPUS) through the reference, tokenizers $(TOKENIZERS_VERSION)$(if $(TOKCHECK_GOLDEN), (checked against $(TOKCHECK_GOLDEN) and $(TOKCHECK_SCORES)))"
	@set -o pipefail; \
	$(WASMTIME_PY) common/harness/tokref.py $(TOKCHECK_JSON) $(TOKCHECK_DIR)/corpus.jsonl --scores \
	  $(if $(TOKCHECK_SCORES),--scores-tsv $(TOKCHECK_DIR)/scores.tsv) > $(TOKCHECK_DIR)/expected.jsonl
	@if [ -n "$(TOKCHECK_GOLDEN)" ]; then \
	  tail -n +2 $(TOKCHECK_DIR)/expected.jsonl | cmp -s - <(gzip -dcf "$(TOKCHECK_GOLDEN)") \
	    || { echo "check-tok: the reference's encodings differ from $(TOKCHECK_GOLDEN)"; exit 1; }; \
	  cmp -s $(TOKCHECK_DIR)/scores.tsv <(gzip -dcf "$(TOKCHECK_SCORES)") \
	    || { echo "check-tok: the reference's scores differ from $(TOKCHECK_SCORES)"; exit 1; }; \
	  echo "check-tok: the reference agrees with the golden files on every text and every score"; \
	fi

## deep dives: [STAGE=NN] [CORPUS=f.jsonl[.gz]]: the stage's tokenizer against Hugging Face tokenizers' output; exit 1 on any difference
check-tok: check-tok-cli check-tok-inputs
	$(TOKCHECK_WASI) $(TOKCHECK_CLI) check-tok $(TOKCHECK_ARGS)
## deep dives: [STAGE=NN]: succeeds only if check-tok fails on the tiebreak's `>` made `>=` (the stage itself untouched)
check-tok-mutant: check-tok-cli check-tok-inputs
	@set -e -o pipefail; \
	src=$$(grep -l 'mutation-point: tiebreak' $(STAGE_DIR)/*.cpp | head -n 1); \
	if [ -z "$$src" ]; then echo "check-tok-mutant: no '// mutation-point: tiebreak' in $(STAGE_DIR)"; exit 2; fi; \
	base=$$(basename $$src); root=$$(pwd); mkdir -p $(TOKCHECK_MUTANT); \
	awk '{ if (mark && !done && sub(/ > /, " >= ")) done = 1; mark = /mutation-point: tiebreak/ } { print } \
	     END { exit done ? 0 : 1 }' $$src > $(TOKCHECK_MUTANT)/$$base \
	  || { echo "check-tok-mutant: no ' > ' on the line after the marker in $$src"; exit 2; }; \
	echo "check-tok-mutant: $$src, marked line mutated:"; diff $$src $(TOKCHECK_MUTANT)/$$base | sed 's/^/  /' || true; \
	rules=stages/$(STAGE_NAME)/CMakeFiles/stage_$(STAGE_NUM).dir/build.make; \
	obj=$$(grep -o "^stages/$(STAGE_NAME)/CMakeFiles/stage_$(STAGE_NUM).dir/$$base\.[a-z]*:" $(WASM_BUILD)/$$rules | head -n 1); \
	obj=$${obj%:}; \
	compile=$$(cd $(WASM_BUILD) && make -s -n -B -f $$rules $$obj | grep -- " -c $$root/$$src" | tail -n 1); \
	if [ -z "$$obj" ] || [ -z "$$compile" ]; then echo "check-tok-mutant: cannot find CMake's compile command for $$src"; exit 2; fi; \
	compile=$${compile//" -c $$root/$$src"/" -c $$root/$(TOKCHECK_MUTANT)/$$base"}; \
	compile=$$(echo "$$compile" | sed -e 's/ -MD -MT [^ ]* -MF [^ ]*//' -e "s| -o [^ ]*/$$base\.[a-z]*| -o $$root/$(TOKCHECK_MUTANT)/$$base.o|"); \
	echo "check-tok-mutant: compiling the mutant"; (cd $(WASM_BUILD)/stages/$(STAGE_NAME) && eval "$$compile"); \
	link=$$(cat $(WASM_BUILD)/stages/$(STAGE_NAME)/CMakeFiles/stage_$(STAGE_NUM)_cli.dir/link.txt); \
	link=$${link/" libstage_$(STAGE_NUM).a"/" $$root/$(TOKCHECK_MUTANT)/$$base.o libstage_$(STAGE_NUM).a"}; \
	link=$${link/" -o cli.wasm"/" -o $$root/$(TOKCHECK_MUTANT)/cli.wasm"}; \
	link=$${link/" -o cli "/" -o $$root/$(TOKCHECK_MUTANT)/cli.wasm "}; \
	echo "check-tok-mutant: linking the mutant CLI"; (cd $(WASM_BUILD)/stages/$(STAGE_NAME) && eval "$$link"); \
	test -f $(TOKCHECK_MUTANT)/cli.wasm; \
	echo "check-tok-mutant: running check-tok on the mutant (it must fail)"; \
	status=0; $(TOKCHECK_WASI) $(TOKCHECK_MUTANT)/cli.wasm check-tok $(TOKCHECK_ARGS) --show 3 || status=$$?; \
	if [ $$status -eq 1 ]; then echo "check-tok-mutant: OK, check-tok caught the mutant"; \
	else echo "check-tok-mutant: FAILED, check-tok exited $$status on the mutant (want 1)"; exit 1; fi
