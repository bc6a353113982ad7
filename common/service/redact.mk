# redact: what POST /redact answers, without HTTP, from a stage's CLI.
#
#   make redact STAGE=NN < file.txt            the text on stdin -> one JSON answer
#   make redact STAGE=NN CORPUS=file.jsonl     one JSON line per {"text": ...} line
#   make redact ... REDACT_RUN=native          the native CLI instead (a cross-check;
#                                              the wasm build is the shipped one)
#   make redact ... RUNTIME=wasmtime           the wasm CLI under wasmtime (default V8)
#
# The JSON goes to stdout (build output goes to stderr, so `> out.json` holds
# only the answer); the Server-Timing line goes to stderr. Exit status 1 when
# any answer was not 200.
#
# The corpus is passed on stdin (`--jsonl -`): the wasm CLI only sees the
# current directory and the repository, and CORPUS may be anywhere.
# CORPUS is read only when given on the command line or in the environment:
# other fragments give it a default of their own (check-tok's corpus), which
# must not turn a stdin run into a corpus run.

REDACT_RUN        ?= wasm
REDACT_CORPUS      = $(if $(filter command line environment,$(origin CORPUS)),$(CORPUS))
REDACT_WASM_CLI   := $(WASM_BUILD)/$(STAGE_DIR)/cli.wasm
REDACT_NATIVE_CLI := $(NATIVE_BUILD)/$(STAGE_DIR)/cli

.PHONY: redact redact-cli

## internals: build the stage's CLI for redact (the wasm one, or REDACT_RUN=native's)
redact-cli: require-stage $(if $(filter native,$(REDACT_RUN)),,$(RUNTIME_SETUP))
ifeq ($(REDACT_RUN),native)
	@$(MAKE) $(NATIVE_BUILD)/CMakeCache.txt >&2
	@cmake --build $(NATIVE_BUILD) -j $(JOBS) --target stage_$(STAGE_NUM)_cli >&2
else
	@$(MAKE) $(WASM_BUILD)/CMakeCache.txt >&2
	@cmake --build $(WASM_BUILD) -j $(JOBS) --target stage_$(STAGE_NUM)_cli >&2
endif

## everyday: [STAGE=NN] < file.txt, or CORPUS=f.jsonl [REDACT_RUN=native]: what POST /redact answers, as JSON, without HTTP
redact: redact-cli
	@$(if $(filter native,$(REDACT_RUN)),$(REDACT_NATIVE_CLI),\
	   $(RUNTIME_WASI) $(REDACT_WASM_CLI)) \
	   redact $(if $(REDACT_CORPUS),--jsonl - < $(REDACT_CORPUS))
