# CTest registrations for the book (included by tests/CMakeLists.txt).
# `make test` installs pandoc, graphviz and chromium first (book-setup,
# book-test-setup), so these run on a fresh machine too.

# The preprocessor's own failure modes, on small fixtures.
add_test(NAME book.selftest COMMAND "${BX_NODE}" "${BX_ROOT}/book/tests/selftest.mjs"
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties(book.selftest PROPERTIES LABELS "book;quick")

# Builds the whole book (a missing, duplicated or unused snippet or a missing
# result fails it), then opens every page in headless Chromium.
add_test(NAME book.chromium
         COMMAND "${BX_NODE}" "${BX_ROOT}/tests/integration/book_chromium.mjs" --build
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties(book.chromium PROPERTIES LABELS book TIMEOUT 600)

# Deleting one snippet marker must make the book build fail, naming it.
add_test(NAME book.mutant COMMAND make -f book/book.mk book-mutant
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties(book.mutant PROPERTIES LABELS book TIMEOUT 600)
