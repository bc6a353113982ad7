# assets/recipe/data.mk: the data half of the model recipe (corpus, tokenizer, tokenised data).
# Included by the top Makefile; also usable alone: make -f assets/recipe/data.mk tokdata
#
#   make setup-recipe   apt packages for the recipe (Python trainer deps, OpenBLAS for torch, word lists, fortunes)
#   make corpus         synthetic labelled corpus   -> $(RECIPE_WORK)/corpus/{train,dev,test}.jsonl
#   make tokenizer      train SentencePiece Unigram -> $(RECIPE_WORK)/tokenizer/tokenizer.json (+ check
#                       against sentencepiece); the committed assets/tokenizer/tokenizer.json is a copy
#                       of one such run: `make tokenizer-install` replaces it (do not, once a model exists)
#   make tokdata        tokenise the corpus with the reference tokenizer -> $(RECIPE_WORK)/data/*.tok.jsonl
#                       (+ o_text.*.tok.jsonl: fortune cookies without PII, all O;
#                        + prose.tok.jsonl: real prose from Debian packages, see prose.mjs;
#                        + messages.tok.jsonl, prose-greetings.tok.jsonl: names after greetings, see prose.mjs;
#                        + records.tok.jsonl: names in a record's sentence, see prose.mjs)
#   make prose          real prose -> $(RECIPE_WORK)/corpus/prose.jsonl, prose-greetings.jsonl, messages.jsonl (training),
#                       heldout.jsonl (never trained on)
#   make numbers        number-heavy real prose (LibreOffice help, Debian Administrator's Handbook), halved by
#                       document -> $(RECIPE_WORK)/corpus/numbers.jsonl (training) and numbers-heldout.jsonl
#   make help-pages     help pages without numbers (the same manuals' training half) -> $(RECIPE_WORK)/corpus/help.jsonl
#   make noisy          short labelled texts with a run of hostile characters -> $(RECIPE_WORK)/corpus/noisy.jsonl
#   make upper          upper-cased copies of a share of the labelled texts (upper.mjs) -> $(RECIPE_WORK)/data/upper-*.tok.jsonl
#   make negatives      the training half's texts on which the committed model reports an entity (every one
#                       is spurious) -> $(RECIPE_WORK)/corpus/negatives.jsonl, hard negatives for the trainer

NODE_TOOLS ?= common/node
NODE ?= node
RECIPE_PY ?= /usr/bin/python3
RECIPE_WORK ?= assets/work
RECIPE_DIR := assets/recipe
TOKENIZER_JSON ?= assets/tokenizer/tokenizer.json
CORPUS_SIZES ?= --train 40000 --dev 2000 --test 2000
RECIPE_NICE ?= nice -n 5

# Real prose in our six languages (prose.mjs). gnome-user-docs is the held-out source: never trained on.
RECIPE_PROSE_APT := manpages manpages-de manpages-fr manpages-es manpages-it manpages-nl \
	debian-reference-en debian-reference-de debian-reference-fr debian-reference-es debian-reference-it \
	maint-guide maint-guide-de maint-guide-fr maint-guide-es maint-guide-it gnome-user-docs
RECIPE_APT := python3-torch libopenblas0-openmp python3-sentencepiece python3-numpy python3-protobuf sentencepiece \
	wamerican wfrench wngerman wspanish witalian wdutch fortunes fortunes-de fortunes-it fortunes-es \
	$(RECIPE_PROSE_APT)

.PHONY: setup-recipe corpus prose numbers help-pages noisy upper negatives tokenizer tokenizer-install tokdata

## the model: the recipe's Debian packages (torch, sentencepiece, word lists, fortunes, prose) and npm tools
setup-recipe:
	apt-get install -y --no-install-recommends $(RECIPE_APT)
	test -d $(NODE_TOOLS)/node_modules/@faker-js/faker || (cd $(NODE_TOOLS) && npm ci)

$(NODE_TOOLS)/node_modules/@faker-js/faker/package.json:
	cd $(NODE_TOOLS) && npm ci

## the model: the synthetic labelled corpus -> assets/work/corpus/{train,dev,test}.jsonl
corpus: $(RECIPE_WORK)/corpus/train.jsonl
$(RECIPE_WORK)/corpus/train.jsonl: $(RECIPE_DIR)/corpus/generate.mjs $(RECIPE_DIR)/corpus/values.mjs \
		$(RECIPE_DIR)/corpus/templates.mjs $(NODE_TOOLS)/node_modules/@faker-js/faker/package.json
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/corpus/generate.mjs --out $(RECIPE_WORK)/corpus $(CORPUS_SIZES)

## the model: train the SentencePiece Unigram tokenizer -> assets/work/tokenizer/tokenizer.json
tokenizer: $(RECIPE_WORK)/tokenizer/tokenizer.json
$(RECIPE_WORK)/tokenizer/tokenizer.json: $(RECIPE_WORK)/corpus/train.jsonl $(RECIPE_DIR)/tokenizer/train_spm.py $(RECIPE_DIR)/tokenizer/to_hf.py
	$(RECIPE_NICE) $(RECIPE_PY) $(RECIPE_DIR)/tokenizer/train_spm.py --corpus $(RECIPE_WORK)/corpus/train.jsonl --out $(RECIPE_WORK)/tokenizer
	$(RECIPE_PY) $(RECIPE_DIR)/tokenizer/to_hf.py $(RECIPE_WORK)/tokenizer/spm.model $@.tmp
	head -n 3000 $(RECIPE_WORK)/corpus/dev.jsonl > $(RECIPE_WORK)/tokenizer/sample.jsonl
	$(RECIPE_PY) $(RECIPE_DIR)/tokenizer/spm_ids.py $(RECIPE_WORK)/tokenizer/spm.model $(RECIPE_WORK)/tokenizer/sample.jsonl $(RECIPE_WORK)/tokenizer/sample.ids.jsonl
	NODE_TOOLS=$(NODE_TOOLS) $(NODE) $(RECIPE_DIR)/tokenizer/verify.mjs $@.tmp $(RECIPE_WORK)/tokenizer/sample.ids.jsonl
	mv $@.tmp $@

## the model: copy the trained tokenizer over assets/tokenizer/tokenizer.json (not once a model exists)
tokenizer-install: $(RECIPE_WORK)/tokenizer/tokenizer.json
	cp $< $(TOKENIZER_JSON)

## the model: the corpora tokenised by the reference tokenizer -> assets/work/data/*.tok.jsonl
tokdata: $(RECIPE_WORK)/data/train.tok.jsonl $(RECIPE_WORK)/data/o_text.train.tok.jsonl $(RECIPE_WORK)/data/prose.tok.jsonl \
	$(RECIPE_WORK)/data/messages.tok.jsonl $(RECIPE_WORK)/data/prose-greetings.tok.jsonl $(RECIPE_WORK)/data/numbers.tok.jsonl \
	$(RECIPE_WORK)/data/records.tok.jsonl
$(RECIPE_WORK)/data/train.tok.jsonl: $(RECIPE_WORK)/corpus/train.jsonl $(TOKENIZER_JSON) $(RECIPE_DIR)/tokenizer/tokdata.mjs
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/tokenizer/tokdata.mjs --tokenizer $(TOKENIZER_JSON) \
		--corpus $(RECIPE_WORK)/corpus --out $(RECIPE_WORK)/data
## the model: real prose from Debian packages -> assets/work/corpus/prose.jsonl (+ greetings, messages), heldout.jsonl
prose: $(RECIPE_WORK)/corpus/prose.jsonl
$(RECIPE_WORK)/corpus/prose.jsonl: $(RECIPE_DIR)/corpus/prose.mjs $(RECIPE_DIR)/corpus/generate.mjs $(RECIPE_DIR)/corpus/values.mjs \
		$(RECIPE_DIR)/corpus/templates.mjs $(NODE_TOOLS)/node_modules/@faker-js/faker/package.json
	@test -d /usr/share/help/C/gnome-help || { echo "prose: the prose packages are missing: make setup-recipe" >&2; exit 1; }
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/corpus/prose.mjs --out $(RECIPE_WORK)/corpus
$(RECIPE_WORK)/data/prose.tok.jsonl: $(RECIPE_WORK)/corpus/prose.jsonl $(TOKENIZER_JSON) $(RECIPE_DIR)/tokenizer/tokdata.mjs
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/tokenizer/tokdata.mjs --tokenizer $(TOKENIZER_JSON) \
		--corpus $(RECIPE_WORK)/corpus --out $(RECIPE_WORK)/data --splits prose
# prose.mjs writes the short greeting messages (messages.jsonl), the record sentences (records.jsonl)
# and the greeting texts of prose.jsonl again (prose-greetings.jsonl) in the same run.
$(RECIPE_WORK)/corpus/messages.jsonl $(RECIPE_WORK)/corpus/prose-greetings.jsonl $(RECIPE_WORK)/corpus/records.jsonl: $(RECIPE_WORK)/corpus/prose.jsonl
$(RECIPE_WORK)/data/messages.tok.jsonl $(RECIPE_WORK)/data/prose-greetings.tok.jsonl $(RECIPE_WORK)/data/records.tok.jsonl: $(RECIPE_WORK)/data/%.tok.jsonl: \
		$(RECIPE_WORK)/corpus/%.jsonl $(TOKENIZER_JSON) $(RECIPE_DIR)/tokenizer/tokdata.mjs
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/tokenizer/tokdata.mjs --tokenizer $(TOKENIZER_JSON) \
		--corpus $(RECIPE_WORK)/corpus --out $(RECIPE_WORK)/data --splits $*
# Number-heavy prose (numbers.mjs): the packages are downloaded and unpacked under the work tree, not
# installed (LibreOffice's help would pull LibreOffice in). Pinned to Debian 12's versions by apt.
NUMBERS_DEBS := libreoffice-help-en-us libreoffice-help-de libreoffice-help-fr libreoffice-help-es \
	libreoffice-help-it libreoffice-help-nl debian-handbook
## the model: number-heavy prose (LibreOffice help, Debian handbook) -> assets/work/corpus/numbers.jsonl
numbers: $(RECIPE_WORK)/corpus/numbers.jsonl
$(RECIPE_WORK)/debs/root/usr/share/libreoffice/help:
	rm -rf $(RECIPE_WORK)/debs && mkdir -p $(RECIPE_WORK)/debs/root
	cd $(RECIPE_WORK)/debs && apt-get download $(NUMBERS_DEBS)
	for f in $(RECIPE_WORK)/debs/*.deb; do dpkg-deb -x $$f $(RECIPE_WORK)/debs/root; done
$(RECIPE_WORK)/corpus/numbers.jsonl: $(RECIPE_DIR)/corpus/numbers.mjs $(RECIPE_DIR)/corpus/prose.mjs \
		$(NODE_TOOLS)/node_modules/@faker-js/faker/package.json | $(RECIPE_WORK)/debs/root/usr/share/libreoffice/help
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/corpus/numbers.mjs --root $(RECIPE_WORK)/debs/root --out $(RECIPE_WORK)/corpus
$(RECIPE_WORK)/data/numbers.tok.jsonl: $(RECIPE_WORK)/corpus/numbers.jsonl $(TOKENIZER_JSON) $(RECIPE_DIR)/tokenizer/tokdata.mjs
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/tokenizer/tokdata.mjs --tokenizer $(TOKENIZER_JSON) \
		--corpus $(RECIPE_WORK)/corpus --out $(RECIPE_WORK)/data --splits numbers
# Help pages without numbers (help.mjs): the other paragraphs of the same two manuals' training half.
## the model: help pages without numbers (the manuals' training half) -> assets/work/corpus/help.jsonl
help-pages: $(RECIPE_WORK)/data/help.tok.jsonl
$(RECIPE_WORK)/corpus/help.jsonl: $(RECIPE_DIR)/corpus/help.mjs $(RECIPE_DIR)/corpus/numbers.mjs $(RECIPE_DIR)/corpus/prose.mjs \
		$(NODE_TOOLS)/node_modules/@faker-js/faker/package.json | $(RECIPE_WORK)/debs/root/usr/share/libreoffice/help
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/corpus/help.mjs --root $(RECIPE_WORK)/debs/root --out $(RECIPE_WORK)/corpus
$(RECIPE_WORK)/data/help.tok.jsonl: $(RECIPE_WORK)/corpus/help.jsonl $(TOKENIZER_JSON) $(RECIPE_DIR)/tokenizer/tokdata.mjs
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/tokenizer/tokdata.mjs --tokenizer $(TOKENIZER_JSON) \
		--corpus $(RECIPE_WORK)/corpus --out $(RECIPE_WORK)/data --splits help
# Labelled texts with a run of hostile characters between sentences (noisy.mjs): the names of the
# short texts (records, messages, greetings) beside control, format and odd space characters.
## the model: labelled short texts with hostile character runs -> assets/work/corpus/noisy.jsonl
noisy: $(RECIPE_WORK)/data/noisy.tok.jsonl
$(RECIPE_WORK)/corpus/noisy.jsonl: $(RECIPE_DIR)/corpus/noisy.mjs $(RECIPE_WORK)/corpus/prose.jsonl
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/corpus/noisy.mjs --count 4000 --out $@ \
		--in $(RECIPE_WORK)/corpus/records.jsonl,$(RECIPE_WORK)/corpus/messages.jsonl,$(RECIPE_WORK)/corpus/prose-greetings.jsonl
$(RECIPE_WORK)/data/noisy.tok.jsonl: $(RECIPE_WORK)/corpus/noisy.jsonl $(TOKENIZER_JSON) $(RECIPE_DIR)/tokenizer/tokdata.mjs
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/tokenizer/tokdata.mjs --tokenizer $(TOKENIZER_JSON) \
		--corpus $(RECIPE_WORK)/corpus --out $(RECIPE_WORK)/data --splits noisy
# Upper-cased copies (upper.mjs): a quarter of the synthetic corpus, 30% of the prose, help pages and
# number-heavy prose, half of the short texts (messages, greetings, records), picked by a hash of the
# text; each span carried over to the upper-cased text.
UPPER_SETS := upper-train upper-prose upper-short
## the model: upper-cased copies of a share of the labelled texts -> assets/work/data/upper-*.tok.jsonl
upper: $(UPPER_SETS:%=$(RECIPE_WORK)/data/%.tok.jsonl)
$(RECIPE_WORK)/corpus/upper-train.jsonl: $(RECIPE_WORK)/corpus/train.jsonl $(RECIPE_DIR)/corpus/upper.mjs
	$(NODE) $(RECIPE_DIR)/corpus/upper.mjs --in $< --out $@ --share 0.25
$(RECIPE_WORK)/corpus/upper-prose.jsonl: $(RECIPE_WORK)/corpus/prose.jsonl $(RECIPE_WORK)/corpus/help.jsonl \
		$(RECIPE_WORK)/corpus/numbers.jsonl $(RECIPE_DIR)/corpus/upper.mjs
	$(NODE) $(RECIPE_DIR)/corpus/upper.mjs --in $(RECIPE_WORK)/corpus/prose.jsonl,$(RECIPE_WORK)/corpus/help.jsonl,$(RECIPE_WORK)/corpus/numbers.jsonl \
		--out $@ --share 0.3
$(RECIPE_WORK)/corpus/upper-short.jsonl: $(RECIPE_WORK)/corpus/prose.jsonl $(RECIPE_DIR)/corpus/upper.mjs
	$(NODE) $(RECIPE_DIR)/corpus/upper.mjs --in $(RECIPE_WORK)/corpus/messages.jsonl,$(RECIPE_WORK)/corpus/prose-greetings.jsonl,$(RECIPE_WORK)/corpus/records.jsonl \
		--out $@ --share 0.5
$(UPPER_SETS:%=$(RECIPE_WORK)/data/%.tok.jsonl): $(RECIPE_WORK)/data/%.tok.jsonl: $(RECIPE_WORK)/corpus/%.jsonl $(TOKENIZER_JSON) $(RECIPE_DIR)/tokenizer/tokdata.mjs
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/tokenizer/tokdata.mjs --tokenizer $(TOKENIZER_JSON) \
		--corpus $(RECIPE_WORK)/corpus --out $(RECIPE_WORK)/data --splits $*

# Hard negatives: what the model in assets/model marks in the training half's plain texts (mine_negatives.mjs
# asks the last stage's service). Mined once, before training; the trainer reads negatives.tok.jsonl.
## the model: hard negatives, what the committed model marks in training texts -> assets/work/data/negatives.tok.jsonl
negatives: $(RECIPE_WORK)/data/negatives.tok.jsonl
$(RECIPE_WORK)/corpus/negatives.jsonl: $(RECIPE_WORK)/corpus/numbers.jsonl $(RECIPE_DIR)/train/mine_negatives.mjs
	$(MAKE) build-wasm
	$(NODE) $(RECIPE_DIR)/train/mine_negatives.mjs --in $(RECIPE_WORK)/corpus/numbers.jsonl --out $@
$(RECIPE_WORK)/data/negatives.tok.jsonl: $(RECIPE_WORK)/corpus/negatives.jsonl $(TOKENIZER_JSON) $(RECIPE_DIR)/tokenizer/tokdata.mjs
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/tokenizer/tokdata.mjs --tokenizer $(TOKENIZER_JSON) \
		--corpus $(RECIPE_WORK)/corpus --out $(RECIPE_WORK)/data --splits negatives

# Ordinary text without PII (fortune cookies, all O): trained on, and its dev part scored for false positives.
$(RECIPE_WORK)/data/o_text.train.tok.jsonl: $(TOKENIZER_JSON) $(RECIPE_DIR)/train/o_text.py
	@mkdir -p $(RECIPE_WORK)/data
	$(RECIPE_PY) $(RECIPE_DIR)/train/o_text.py --tokenizer $(TOKENIZER_JSON) --out $(RECIPE_WORK)/data

# ---- corpora (assets/corpora/) -------------------------------------------------------------
#   make corpora            regenerate equivalence.jsonl (deterministic; the committed file must not change)
#   make check-tok-golden    regenerate assets/corpora/tokcheck.* (texts, the reference's ids/tokens/offsets,
#                           the vocabulary scores as the reference reads them); deterministic bytes
.PHONY: corpora check-tok-golden
## the model: regenerate assets/corpora/equivalence.jsonl (deterministic: the committed file must not change)
corpora:
	NODE_TOOLS=$(NODE_TOOLS) $(NODE) $(RECIPE_DIR)/corpora/make_equivalence.mjs --out assets/corpora/equivalence.jsonl

## the model: regenerate assets/corpora/tokcheck.* (texts, the reference's encodings and scores); deterministic
check-tok-golden:
	NODE_TOOLS=$(NODE_TOOLS) $(RECIPE_NICE) $(NODE) $(RECIPE_DIR)/corpora/make_tokcheck.mjs \
		--tokenizer $(TOKENIZER_JSON) --out assets/corpora
