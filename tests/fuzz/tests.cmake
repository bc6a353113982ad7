# CTest runs of the fuzz targets (built in the sanitizer build, tests/fuzz),
# inside `make test`: each target replays its committed seeds and fuzzes for a
# few seconds from an empty working corpus; each mutant twin must be caught,
# for the reason planted. `make fuzz` runs them for longer.
file(GLOB _bx_fuzz_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/fuzz_*.cpp")
list(FILTER _bx_fuzz_sources EXCLUDE REGEX "fuzz_support\\.cpp$")
# What each mutant must be caught by (tests/fuzz/CMakeLists.txt plants them).
set(_bx_fuzz_caught_json "AddressSanitizer: heap-buffer-overflow")
set(_bx_fuzz_caught_bxm "AddressSanitizer: use-after-poison")
set(_bx_fuzz_caught_request "property broken: entity")
set(_bx_fuzz_caught_tokenizer "property broken: an offset")
# The tie-break mutant can surface in the step on the whole input or only in
# one pre-token of the full encode, whichever input the fuzzer meets first.
set(_bx_fuzz_caught_unigram_diff "property broken: the (Unigram steps|encodings) disagree")
set(_bx_fuzz_caught_vocab_blob "AddressSanitizer: heap-buffer-overflow")
# Further mutants of a target (fuzz_<name>_mutant_<variant>) and what catches each.
set(_bx_fuzz_mutants_request words)
set(_bx_fuzz_caught_request_words "property broken: an entity starts or ends inside a word")
set(_bx_fuzz_mutants_tokenizer kept-range)
set(_bx_fuzz_caught_tokenizer_kept-range "property broken: the offset oracle")
set(_bx_fuzz_runner "${BX_NODE_EXE}" "${CMAKE_CURRENT_LIST_DIR}/fuzz.mjs" --build "${BX_SANITIZE_BUILD_DIR}")
foreach(_source ${_bx_fuzz_sources})
  get_filename_component(_name "${_source}" NAME_WE)
  string(REGEX REPLACE "^fuzz_" "" _name "${_name}")
  if(NOT DEFINED _bx_fuzz_caught_${_name})
    message(FATAL_ERROR "tests/fuzz/tests.cmake: say what catches fuzz_${_name}'s mutant (_bx_fuzz_caught_${_name})")
  endif()
  add_test(NAME "fuzz: ${_name}, seeds and 5 s"
           COMMAND ${_bx_fuzz_runner} --targets ${_name} --seconds 5 --fresh "${PROJECT_BINARY_DIR}/fuzz-ctest"
           WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
  add_test(NAME "fuzz: ${_name} mutant is caught"
           COMMAND ${_bx_fuzz_runner} --targets ${_name} --mutant --seconds 60 --fresh "${PROJECT_BINARY_DIR}/fuzz-ctest-mutant"
           WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
  set_tests_properties("fuzz: ${_name} mutant is caught" PROPERTIES PASS_REGULAR_EXPRESSION "${_bx_fuzz_caught_${_name}}")
  set_tests_properties("fuzz: ${_name}, seeds and 5 s" "fuzz: ${_name} mutant is caught" PROPERTIES
                       LABELS "fuzz;sanitize;quick" TIMEOUT 300)
  foreach(_variant ${_bx_fuzz_mutants_${_name}})
    set(_test "fuzz: ${_name} mutant ${_variant} is caught")
    add_test(NAME "${_test}"
             COMMAND ${_bx_fuzz_runner} --targets ${_name}/${_variant} --mutant --seconds 60 --fresh "${PROJECT_BINARY_DIR}/fuzz-ctest-mutant"
             WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
    set_tests_properties("${_test}" PROPERTIES PASS_REGULAR_EXPRESSION "${_bx_fuzz_caught_${_name}_${_variant}}"
                         LABELS "fuzz;sanitize;quick" TIMEOUT 300)
  endforeach()
endforeach()
