# The book: `make book` builds book/out/html/ (one page per chapter) and
# book/out/bitexact.epub from book/chapters/*.md, the snippets marked in the
# sources, the Graphviz figures in book/figures/ and the results under bench/results/.
#
# Included by the top-level Makefile (`include book/book.mk`); it also works on
# its own from the repository root: `make -f book/book.mk book`.
#
#   make book                      the book; fails naming every missing, duplicated,
#                                  unused or unterminated snippet and every missing result
#   make book BOOK_ALLOW_MISSING=1 a draft: missing snippets, stages and results become
#                                  visible placeholders, and every such page says so
#   make book-test                 opens every page in headless Chromium (figures,
#                                  tables, links) and saves book/out/screenshot.png
#   make book-mutant               deletes one snippet marker in a copy of the tree and
#                                  succeeds only if the book build then fails naming it
#   make book-selftest             the preprocessor's own failure modes, on small fixtures
#   make stages-index              writes stages/README.md, the one-page index of the stages
#   make book-rendered-check       fails when the committed book/rendered/ (GitHub Markdown) is stale
#
# See book/README.md for the directive and marker syntax.

BOOK_NODE ?= node
BOOK_ALLOW_MISSING ?=
BOOK_OUT ?= book/out
BOOK_NICE ?= nice -n 5
# 0: build the book without copying its GitHub Markdown to book/rendered/ (the
# tests build it so, and compare instead).
BOOK_SYNC_RENDERED ?= 1

.PHONY: book book-setup book-expand book-render book-test book-test-setup book-mutant \
        book-selftest book-clean stages-index book-rendered-check

# Idempotent: installs only what is absent (Debian packages; needs root, as here).
## the book: pandoc and graphviz, installed when missing
book-setup:
	@if command -v pandoc >/dev/null 2>&1 && command -v dot >/dev/null 2>&1; then :; else \
	  echo "book-setup: installing pandoc and graphviz"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(BOOK_NICE) apt-get install -y \
	    -o DPkg::Lock::Timeout=600 --no-install-recommends pandoc graphviz; fi

## the book: chromium, installed when missing (for book-test)
book-test-setup:
	@if command -v chromium >/dev/null 2>&1; then :; else \
	  echo "book-test-setup: installing chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(BOOK_NICE) apt-get install -y \
	    -o DPkg::Lock::Timeout=600 --no-install-recommends chromium; fi

## the book: [BOOK_ALLOW_MISSING=1]: the chapters with their snippets, stages and results expanded -> book/out/md/
book-expand: book-setup
	BOOK_OUT=$(BOOK_OUT) $(BOOK_NODE) book/tools/snippets.mjs build $(if $(filter 1,$(BOOK_ALLOW_MISSING)),--allow-missing)

## the book: book/out/md/ -> book/out/html/ and book/out/bitexact.epub
book-render: book-expand
	BOOK_OUT=$(BOOK_OUT) $(BOOK_NODE) book/tools/render.mjs

## the book: [BOOK_ALLOW_MISSING=1]: the book (HTML, EPUB, and book/rendered/ as GitHub Markdown); fails naming every missing snippet or result
book: book-render
	$(if $(filter 1,$(BOOK_ALLOW_MISSING)),@echo "book: a draft: book/rendered/ left as it was",$(if $(filter 0,$(BOOK_SYNC_RENDERED)),@echo "book: book/rendered/ left as it was (BOOK_SYNC_RENDERED=0)",BOOK_OUT=$(BOOK_OUT) $(BOOK_NODE) book/tools/gfm.mjs sync))

## the book: build the book in a temporary directory and fail if the committed book/rendered/ differs
book-rendered-check: book-setup
	$(BOOK_NODE) book/tools/gfm.mjs check

## the book: every page in headless Chromium (figures, tables, links); book/out/screenshot.png
book-test: book book-test-setup
	$(BOOK_NICE) $(BOOK_NODE) tests/integration/book_chromium.mjs $(if $(filter 1,$(BOOK_ALLOW_MISSING)),--allow-draft)

## the book: succeeds only if the book build fails naming a snippet marker deleted in a copy of the tree
book-mutant: book-setup
	$(BOOK_NODE) book/tools/mutant.mjs

## the book: the preprocessor's own failure modes, on small fixtures
book-selftest:
	$(BOOK_NODE) book/tests/selftest.mjs

# The stages' index (kernel, idea, chapter, verdicts); CTest's stages: index is fresh checks it.
## the book: write stages/README.md, the one-page index of the stages
stages-index:
	$(BOOK_NODE) book/tools/stages-index.mjs -o stages/README.md

## the book: remove book/out/
book-clean:
	rm -rf $(BOOK_OUT)

# Included before the top-level Makefile's first target, this file must not make
# one of its own targets the default goal.
ifeq ($(.DEFAULT_GOAL),book-setup)
.DEFAULT_GOAL :=
endif
