# tokcheck: the stage's tokenizer against the reference (Hugging Face
# tokenizers 0.22.2 via @anush008/tokenizers), in the shipped (wasm) build.
#
#   make tokcheck STAGE=NN [CORPUS=file.jsonl[.gz]]   identical or exit 1
#   make tokcheck-mutant STAGE=NN [CORPUS=...]        succeeds only if tokcheck
#                                                     FAILS on the mutant
#
# The expected encodings: for the default corpus, the golden file next to it
# when there is one; otherwise tokref.mjs runs the reference on the corpus.
# The reference's vocabulary scores always come from tokref.mjs (--scores).
# The mutant: the stage's source marked `// mutation-point: tiebreak` is
# copied under build/, the `>` on the line after the marker becomes `>=`, and
# that one object is compiled with the stage's own CMake flags and linked in
# front of the stage library (the stage directory itself is never touched).

TOKCHECK_DIR      := build/tokcheck/$(STAGE_NAME)
TOKCHECK_JSON     ?= assets/tokenizer/tokenizer.json
TOKCHECK_DEFAULT  := $(firstword $(wildcard assets/corpora/tokcheck.jsonl assets/corpora/tokcheck.jsonl.gz))
CORPUS            ?= $(TOKCHECK_DEFAULT)
TOKCHECK_GOLDEN   := $(if $(filter $(TOKCHECK_DEFAULT),$(CORPUS)),$(firstword $(wildcard assets/corpora/tokcheck.golden.jsonl.gz assets/corpora/tokcheck.golden.jsonl)))
TOKCHECK_CLI      := $(WASM_BUILD)/$(STAGE_DIR)/cli.wasm
TOKCHECK_WASI     := $(NODE) --disable-warning=ExperimentalWarning common/host/wasi-run.mjs
TOKCHECK_MUTANT   := $(TOKCHECK_DIR)/mutant

.PHONY: tokcheck tokcheck-mutant tokcheck-inputs tokcheck-cli

tokcheck-cli: require-stage $(WASM_BUILD)/CMakeCache.txt
	cmake --build $(WASM_BUILD) -j $(JOBS) --target stage_$(STAGE_NUM)_cli

# corpus.jsonl and expected.jsonl (scores line first) under build/tokcheck/.
tokcheck-inputs: require-stage
	@if [ -z "$(CORPUS)" ]; then echo "tokcheck: no corpus (give CORPUS=file.jsonl, or add assets/corpora/tokcheck.jsonl)"; exit 2; fi
	@mkdir -p $(TOKCHECK_DIR)
	@case "$(CORPUS)" in *.gz) gzip -dc "$(CORPUS)" ;; *) cat "$(CORPUS)" ;; esac > $(TOKCHECK_DIR)/corpus.jsonl
	@echo "tokcheck: reference scores$(if $(TOKCHECK_GOLDEN), + golden $(TOKCHECK_GOLDEN), + reference run on $(CORPUS))"
	@set -o pipefail; \
	if [ -n "$(TOKCHECK_GOLDEN)" ]; then \
	  printf '' > $(TOKCHECK_DIR)/empty.jsonl; \
	  $(NODE) common/harness/tokref.mjs $(TOKCHECK_JSON) $(TOKCHECK_DIR)/empty.jsonl --scores > $(TOKCHECK_DIR)/expected.jsonl; \
	  case "$(TOKCHECK_GOLDEN)" in *.gz) gzip -dc "$(TOKCHECK_GOLDEN)" ;; *) cat "$(TOKCHECK_GOLDEN)" ;; esac \
	    | grep -v '^{"scores"' >> $(TOKCHECK_DIR)/expected.jsonl; \
	else \
	  $(NODE) common/harness/tokref.mjs $(TOKCHECK_JSON) $(TOKCHECK_DIR)/corpus.jsonl --scores > $(TOKCHECK_DIR)/expected.jsonl; \
	fi

tokcheck: tokcheck-cli tokcheck-inputs
	$(TOKCHECK_WASI) $(TOKCHECK_CLI) tokcheck --corpus $(TOKCHECK_DIR)/corpus.jsonl --expected $(TOKCHECK_DIR)/expected.jsonl

tokcheck-mutant: tokcheck-cli tokcheck-inputs
	@set -e -o pipefail; \
	src=$$(grep -l 'mutation-point: tiebreak' $(STAGE_DIR)/*.cpp | head -n 1); \
	if [ -z "$$src" ]; then echo "tokcheck-mutant: no '// mutation-point: tiebreak' in $(STAGE_DIR)"; exit 2; fi; \
	base=$$(basename $$src); root=$$(pwd); mkdir -p $(TOKCHECK_MUTANT); \
	awk '{ if (mark && !done && sub(/ > /, " >= ")) done = 1; mark = /mutation-point: tiebreak/ } { print } \
	     END { exit done ? 0 : 1 }' $$src > $(TOKCHECK_MUTANT)/$$base \
	  || { echo "tokcheck-mutant: no ' > ' on the line after the marker in $$src"; exit 2; }; \
	echo "tokcheck-mutant: $$src, marked line mutated:"; diff $$src $(TOKCHECK_MUTANT)/$$base | sed 's/^/  /' || true; \
	obj=stages/$(STAGE_NAME)/CMakeFiles/stage_$(STAGE_NUM).dir/$$base.o; \
	compile=$$(cd $(WASM_BUILD) && make -s -n -B -f stages/$(STAGE_NAME)/CMakeFiles/stage_$(STAGE_NUM).dir/build.make $$obj \
	           | grep -- " -c $$root/$$src" | tail -n 1); \
	if [ -z "$$compile" ]; then echo "tokcheck-mutant: cannot find CMake's compile command for $$src"; exit 2; fi; \
	compile=$${compile//" -c $$root/$$src"/" -c $$root/$(TOKCHECK_MUTANT)/$$base"}; \
	compile=$${compile//" -o CMakeFiles/stage_$(STAGE_NUM).dir/$$base.o"/" -o $$root/$(TOKCHECK_MUTANT)/$$base.o"}; \
	compile=$$(echo "$$compile" | sed -e 's/ -MD -MT [^ ]* -MF [^ ]*//'); \
	echo "tokcheck-mutant: compiling the mutant"; (cd $(WASM_BUILD)/stages/$(STAGE_NAME) && eval "$$compile"); \
	link=$$(cat $(WASM_BUILD)/stages/$(STAGE_NAME)/CMakeFiles/stage_$(STAGE_NUM)_cli.dir/link.txt); \
	link=$${link/" libstage_$(STAGE_NUM).a"/" $$root/$(TOKCHECK_MUTANT)/$$base.o libstage_$(STAGE_NUM).a"}; \
	link=$${link/" -o cli.wasm"/" -o $$root/$(TOKCHECK_MUTANT)/cli.wasm"}; \
	link=$${link/" -o cli "/" -o $$root/$(TOKCHECK_MUTANT)/cli.wasm "}; \
	echo "tokcheck-mutant: linking the mutant CLI"; (cd $(WASM_BUILD)/stages/$(STAGE_NAME) && eval "$$link"); \
	test -f $(TOKCHECK_MUTANT)/cli.wasm; \
	echo "tokcheck-mutant: running tokcheck on the mutant (it must fail)"; \
	status=0; $(TOKCHECK_WASI) $(TOKCHECK_MUTANT)/cli.wasm tokcheck --corpus $(TOKCHECK_DIR)/corpus.jsonl \
	  --expected $(TOKCHECK_DIR)/expected.jsonl --show 3 || status=$$?; \
	if [ $$status -eq 1 ]; then echo "tokcheck-mutant: OK, tokcheck caught the mutant"; \
	else echo "tokcheck-mutant: FAILED, tokcheck exited $$status on the mutant (want 1)"; exit 1; fi
