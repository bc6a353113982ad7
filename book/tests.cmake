# CTest registrations for the book (included by tests/CMakeLists.txt).
# `make test` installs pandoc, graphviz and chromium first (book-setup,
# book-test-setup), so these run on a fresh machine too.

# The preprocessor's own failure modes, on small fixtures.
add_test(NAME "book: selftest" COMMAND "${BX_NODE}" "${BX_ROOT}/book/tests/selftest.mjs"
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties("book: selftest" PROPERTIES LABELS "book;quick")

# Builds the whole book (a missing, duplicated or unused snippet or a missing
# result fails it), then opens every page in headless Chromium.
add_test(NAME "book: chromium"
         COMMAND "${BX_NODE}" "${BX_ROOT}/tests/integration/book_chromium.mjs" --build
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties("book: chromium" PROPERTIES LABELS book TIMEOUT 600)

# Deleting one snippet marker must make the book build fail, naming it.
add_test(NAME "book: mutant is caught" COMMAND make -f book/book.mk book-mutant
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties("book: mutant is caught" PROPERTIES LABELS book TIMEOUT 600)

# stages/README.md must be what `make stages-index` writes now (the stages, the
# chapters and the pinned bench runs it is made from may have moved since).
add_test(NAME "stages: index is fresh"
         COMMAND "${BX_NODE}" "${BX_ROOT}/book/tools/stages-index.mjs" --check "${BX_ROOT}/stages/README.md"
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties("stages: index is fresh" PROPERTIES LABELS "book;quick")

# Its mutant: a copy with one row changed must be called stale. The copy is
# planted by a fixture, so a failed plant fails the mutant instead of passing it;
# the pass regex (printed only on the failing path) requires the planted reason.
set(_bx_stale_index "${CMAKE_CURRENT_BINARY_DIR}/stages-README.stale.md")
add_test(NAME "stages: index, plant a stale one"
         COMMAND "${BX_NODE}" "${BX_ROOT}/book/tools/stages-index.mjs" --plant-stale "${_bx_stale_index}"
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties("stages: index, plant a stale one" PROPERTIES LABELS "book;quick;mutant" FIXTURES_SETUP stages-index-stale)
add_test(NAME "stages: index mutant stale is caught"
         COMMAND "${BX_NODE}" "${BX_ROOT}/book/tools/stages-index.mjs" --check "${_bx_stale_index}"
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties("stages: index mutant stale is caught" PROPERTIES LABELS "book;quick;mutant"
                     FIXTURES_REQUIRED stages-index-stale
                     PASS_REGULAR_EXPRESSION "stages-README\\.stale\\.md is stale: run make stages-index")

# book/rendered/ (the book as GitHub Markdown, committed) must be what the book
# build renders now: snippets, tables, diffs and figures all move with the code
# and the results.
# It compares the book that "book: chromium" builds into book/out (a fixture), so
# the book is built once per run.
add_test(NAME "book: rendered is fresh" COMMAND "${BX_NODE}" "${BX_ROOT}/book/tools/gfm.mjs" check --built book/out
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties("book: rendered is fresh" PROPERTIES LABELS book FIXTURES_REQUIRED book-built)
set_tests_properties("book: chromium" PROPERTIES FIXTURES_SETUP book-built)
# Its mutant: a copy of book/rendered/ with one line edited by hand is stale.
add_test(NAME "book: rendered mutant stale is caught" COMMAND "${BX_NODE}" "${BX_ROOT}/book/tools/gfm.mjs" mutant
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties("book: rendered mutant stale is caught" PROPERTIES LABELS "book;quick;mutant"
                     PASS_REGULAR_EXPRESSION "book/rendered/ is stale")

# A check run by Node from the repository root, and its deliberate break: the
# same command with --plant, which must fail.
function(bx_book_check name break_name)
  add_test(NAME "${name}" COMMAND "${BX_NODE}" ${ARGN} WORKING_DIRECTORY "${BX_ROOT}")
  add_test(NAME "${break_name}" COMMAND "${BX_NODE}" ${ARGN} --plant WORKING_DIRECTORY "${BX_ROOT}")
  set_tests_properties("${name}" PROPERTIES LABELS "book;quick")
  set_tests_properties("${break_name}" PROPERTIES LABELS "book;quick;mutant" WILL_FAIL TRUE)
endfunction()

# Every relative link and anchor in book/rendered/, README.md and
# stages/README.md resolves; the mutant adds a link to an anchor no chapter has.
bx_book_check("book: links resolve" "book: links mutant broken-anchor is caught" "${BX_ROOT}/book/tools/check-links.mjs")

# README.md's count of the stages beyond the post is the tree's; the mutant
# checks a copy with the count one short.
bx_book_check("stages: README count is fresh" "stages: README count mutant is caught"
              "${BX_ROOT}/book/tools/stages-index.mjs" --check-readme README.md)

# The rendered book leads with prose: at least half its words outside code,
# tables and folded evidence, and no chapter with more than 1,500 words of
# generated output left open; the mutant reads every <details> as open.
bx_book_check("book: prose leads" "book: prose leads mutant unfolded is caught" "${BX_ROOT}/book/tools/word-share.mjs")

# Every capture the book quotes (bench/results/check-*.txt, listing-*.txt) was
# made with the committed model from a clean tree at a commit of this history;
# the mutant reads one capture as if another model had made it.
bx_book_check("book: quoted captures are fresh" "book: captures mutant other-model is caught"
              "${BX_ROOT}/book/tools/captures-fresh.mjs")
