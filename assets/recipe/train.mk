# assets/recipe/train.mk: the training half of the model recipe (train, export, evaluate).
# Included by the top Makefile; the data half (corpus, tokenizer, tokdata) is data.mk.
#
#   make model-random   random-weight model of the final format -> build/model/random.bxm
#                       (and assets/model/model.bxm when no model is there yet)
#   make train          train (resumable: run it again to continue from assets/work/ckpt/last.pt)
#                       TRAIN_MINUTES is the total budget over all resumed runs
#   make model          the whole recipe: tokdata -> train -> export -> assets/model/model.bxm
#   make model-eval     int8 + float evaluation, and the service's (service-eval) -> assets/model/report.json, REPORT.md
#   make service-eval   POST /redact on held-out prose, eval and hand-written texts -> assets/model/service-eval.json
#   make model-report   service-eval folded into the existing report (decoding changed, model not) -> REPORT.md
#   make hf-export      float model in Hugging Face layout -> build/hf/
#   make hf-convert     build/hf/ -> build/model/from_hf.bxm, compared with a fresh export
#   make fragment-starts eval entities that start inside a word -> assets/model/fragment-starts.txt
#
# Training runs on the CPU with Debian's python3-torch (/usr/bin/python3). Install
# libopenblas0-openmp (or -pthread) first: with Debian's reference BLAS torch is ~10x slower.

RECIPE_PY      ?= /usr/bin/python3
RECIPE_WORK    ?= assets/work
TRAIN_DIR      := assets/recipe/train
TRAIN_MINUTES  ?= 85
TRAIN_ARGS     ?=
TRAIN_NICE     ?= nice -n 10
TRAIN_CKPT     := $(RECIPE_WORK)/ckpt/last.pt
MODEL_BXM      := assets/model/model.bxm
HF_DIR         ?= build/hf

.PHONY: model-random train model model-export model-eval model-report service-eval hf-export hf-convert

## the model: a random-weight model -> build/model/random.bxm (and assets/model/model.bxm when none is there)
model-random:
	$(RECIPE_PY) $(TRAIN_DIR)/export_bxm.py --random --out build/model/random.bxm
	@test -e $(MODEL_BXM) || cp build/model/random.bxm $(MODEL_BXM)

## the model: [TRAIN_MINUTES=85] train, resumable: again continues from assets/work/ckpt/last.pt
train: tokdata
	$(TRAIN_NICE) $(RECIPE_PY) $(TRAIN_DIR)/train.py --data $(RECIPE_WORK)/data \
		--ckpt-dir $(RECIPE_WORK)/ckpt --log $(RECIPE_WORK)/train.log --minutes $(TRAIN_MINUTES) $(TRAIN_ARGS)

## the model: the last checkpoint -> assets/model/model.bxm
model-export:
	$(RECIPE_PY) $(TRAIN_DIR)/export_bxm.py --ckpt $(TRAIN_CKPT) --out $(MODEL_BXM)

## the model: the whole recipe: tokdata -> train -> export -> assets/model/model.bxm
model: train
	$(MAKE) model-export

# Int8 numbers with stage 00's arithmetic: our expf/erff as a shared library (harness.mk builds it).
# Then the service's view (service_eval.mjs, POST /redact of the last stage): held-out prose,
# the eval corpus, the hand-written texts, the minimum-score study; evaluate.py folds it in.
SERVICE_EVAL := assets/model/service-eval.json
## the model: int8 + float evaluation and service-eval -> assets/model/report.json, REPORT.md
model-eval: build/harness/libbxmaths.so service-eval
	$(RECIPE_PY) $(TRAIN_DIR)/evaluate.py --model $(MODEL_BXM) --ckpt $(TRAIN_CKPT) \
		--maths build/harness/libbxmaths.so --test $(RECIPE_WORK)/data/test.tok.jsonl --out assets/model \
		--service-eval $(SERVICE_EVAL)

# When only the decoding (common/service) changed, not the model: the service's view again, folded
# into the existing report.json and REPORT.md without the 24-minute int8 evaluation.
## the model: service-eval folded into the existing report (decoding changed, model not) -> REPORT.md
model-report: service-eval
	$(RECIPE_PY) $(TRAIN_DIR)/evaluate.py --render-only --out assets/model --service-eval $(SERVICE_EVAL)

## the model: POST /redact on held-out prose, eval and hand-written texts -> assets/model/service-eval.json
service-eval: $(RECIPE_WORK)/corpus/prose.jsonl
	$(MAKE) build-wasm
	$(NODE) $(TRAIN_DIR)/service_eval.mjs --heldout $(RECIPE_WORK)/corpus/heldout.jsonl --out $(SERVICE_EVAL)

## the model: the float model in Hugging Face layout -> build/hf/
hf-export:
	$(RECIPE_PY) $(TRAIN_DIR)/export_hf.py --ckpt $(TRAIN_CKPT) --out $(HF_DIR)

## the model: build/hf/ -> build/model/from_hf.bxm, compared with a fresh export
hf-convert: hf-export
	$(RECIPE_PY) $(TRAIN_DIR)/convert_hf.py $(HF_DIR) --out build/model/from_hf.bxm --compare-ckpt $(TRAIN_CKPT)

# Diagnostic: eval-corpus entities (argmax of stage 00's committed logits) that start inside
# a word, with the label of that word's first piece -> assets/model/fragment-starts.txt
.PHONY: fragment-starts
## the model: eval entities that start inside a word -> assets/model/fragment-starts.txt
fragment-starts:
	$(RECIPE_PY) $(TRAIN_DIR)/fragment_starts.py | tee assets/model/fragment-starts.txt
