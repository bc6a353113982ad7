# CTest registrations for the harness (included by tests/CMakeLists.txt): the
# bit-exactness checks that CI runs on every stage, in the shipped wasm build.
#
#   stage NN: eval          the eval corpus against assets/baselines/eval.bin
#   stage NN: equivalence   every live row of the equivalence corpus against
#                           stage 00's committed reference: the last stage on
#                           every text, stages 01 to the one before it on one
#                           part each (below); `make test-slow` runs every
#                           stage on every text
#   stage 00: native vs wasm   the native build against the wasm-made reference,
#                           on the first 25 texts (the full run is the slow
#                           node: stage00_crosscheck test)
#   check: mutant is caught  one flipped logit bit must make `check` fail
#   ... (wasmtime)          under wasmtime as Spin configures it (Cranelift,
#                           epoch interruption on; common/host/wasmtime-run.py):
#                           every stage's eval, the last stage's whole
#                           equivalence corpus and the mutant. The references
#                           are the V8 build's, so a pass means the same bits
#                           on both runtimes.
#
# The CLIs are run directly, not through make, so that parallel CTest jobs
# never start two builds in one build directory.

get_property(_bx_stages GLOBAL PROPERTY BX_STAGES)
set(_bx_wasi "${BX_NODE}" --single-threaded-gc "${BX_ROOT}/common/host/wasi-run.mjs")
set(_bx_wasmtime "${BX_WASMTIME_PY}" "${BX_ROOT}/common/host/wasmtime-run.py" --root)
set(_bx_equiv "assets/corpora/equivalence.jsonl")
set(_bx_equiv_ref "assets/baselines/equivalence.ref")
set(_bx_diff_dir "${CMAKE_BINARY_DIR}/harness-tests")
file(MAKE_DIRECTORY "${_bx_diff_dir}")

# A proof carries over: when a later stage's files for one check are an
# earlier proven stage's, byte for byte but for snippet markers (stage 08 keeps
# stage 07's GELU; stages 05 to 09 keep stage 04's tokenizer), CTest checks
# that they still are (same-code.cmake) instead of running the same proof on
# the same code again. Sets <out> to the proven stage, or records this stage
# as the one that proves these files and sets it empty. `files` are relative
# to the stage directory; their names count as well as their code.
include("${BX_ROOT}/common/cmake/code-hash.cmake")
function(bx_proven_elsewhere stage command files out)
  set(_hash "")
  foreach(_file ${files})
    bx_code_hash("${BX_ROOT}/stages/${stage}/${_file}" _h)
    string(APPEND _hash "${_h}")
  endforeach()
  string(SHA256 _hash "${command}${files}${_hash}")
  get_property(_proven GLOBAL PROPERTY BX_PROVEN_${_hash})
  if(NOT _proven)
    set_property(GLOBAL PROPERTY BX_PROVEN_${_hash} "${stage}")
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  set(_a "")
  set(_b "")
  foreach(_file ${files})
    list(APPEND _a "${BX_ROOT}/stages/${_proven}/${_file}")
    list(APPEND _b "${BX_ROOT}/stages/${stage}/${_file}")
  endforeach()
  list(LENGTH files _count)
  if(_count GREATER 2)
    set(_list "its ${_count} files")
  else()
    list(JOIN files ", " _list)
  endif()
  set(_name "stage ${stage}: ${command} carried over (${_list} are ${_proven}'s)")
  add_test(NAME "${_name}" COMMAND ${CMAKE_COMMAND} "-DA=${_a}" "-DB=${_b}" -P "${BX_ROOT}/common/cmake/same-code.cmake")
  set_tests_properties("${_name}" PROPERTIES LABELS "quick;check;${command}")
  set(${out} "${_proven}" PARENT_SCOPE)
endfunction()

# Why parts. Every window costs a stage a full forward pass (the pads are
# attended to, so all 256 rows go through every layer but the last), and the
# corpus has over a thousand windows: the whole corpus through every stage took
# longer than CI's whole budget on the two slow cores of some machines CI runs
# on (the early stages, 01 and 02, are slow on purpose). So CI deals the corpus
# round-robin into parts (`check --part K/N`: texts K, K+N, ...; every part has
# every kind of text, the corpus being written kind by kind) and gives stage 01
# part 0, stage 02 part 1, and so on round; the last stage, the one that is
# deployed, checks every text. The number of parts follows the number of
# stages: each text goes through at least BX_CI_CHECKS_PER_TEXT of the stages
# dealt parts (so a new stage shortens every stage's part instead of adding a
# part's worth of forward passes to CI), besides the last stage. Each CI run
# thus checks every text of the corpus in several stages, and each stage on
# one part of it (plus the whole eval corpus, under both runtimes). The
# whole-corpus check of every stage is the slow-labelled "equivalence, every
# text" test (`make test-slow`), and `make check-results` writes it to
# bench/results/check-NN.txt, which the book quotes.
set(BX_CI_CHECKS_PER_TEXT 3 CACHE STRING "stages (besides the last) that check each text of the equivalence corpus in CI")
list(LENGTH _bx_stages _bx_stage_count)
math(EXPR _bx_dealt_stages "${_bx_stage_count} - 2")  # neither stage 00 nor the last
math(EXPR BX_CI_EQUIVALENCE_PARTS "${_bx_dealt_stages} / ${BX_CI_CHECKS_PER_TEXT}")
if(BX_CI_EQUIVALENCE_PARTS LESS 1)
  set(BX_CI_EQUIVALENCE_PARTS 1)
endif()
list(GET _bx_stages -1 _bx_last_stage)
set(_bx_dealt 0)
foreach(_stage ${_bx_stages})
  set(_cli "${BX_WASM_BUILD_DIR}/stages/${_stage}/cli.wasm")
  add_test(NAME "stage ${_stage}: eval" COMMAND ${_bx_wasi} "${_cli}" eval --runs 1
           WORKING_DIRECTORY "${BX_ROOT}")
  set_tests_properties("stage ${_stage}: eval" PROPERTIES LABELS "wasm;check" TIMEOUT 600)
  add_test(NAME "stage ${_stage}: eval (wasmtime)" COMMAND ${_bx_wasmtime} "${_cli}" eval --runs 1
           WORKING_DIRECTORY "${BX_ROOT}")
  set_tests_properties("stage ${_stage}: eval (wasmtime)" PROPERTIES LABELS "wasm;check;wasmtime" TIMEOUT 600)
  if(_stage MATCHES "^00-")
    continue()
  endif()
  set(_check ${_bx_wasi} "${_cli}" check --corpus ${_bx_equiv} --ref ${_bx_equiv_ref}
             --diff-out "${_bx_diff_dir}/${_stage}.equivalence.diff")
  if(_stage STREQUAL _bx_last_stage)
    set(_name "stage ${_stage}: equivalence")
    add_test(NAME "${_name}" COMMAND ${_check} WORKING_DIRECTORY "${BX_ROOT}")
    # The deployed stage on every text under wasmtime too (its own diff file).
    add_test(NAME "stage ${_stage}: equivalence (wasmtime)"
             COMMAND ${_bx_wasmtime} "${_cli}" check --corpus ${_bx_equiv} --ref ${_bx_equiv_ref}
                     --diff-out "${_bx_diff_dir}/${_stage}.equivalence.wasmtime.diff"
             WORKING_DIRECTORY "${BX_ROOT}")
    set_tests_properties("stage ${_stage}: equivalence (wasmtime)" PROPERTIES LABELS "wasm;check;wasmtime"
                         TIMEOUT 2400 COST 900)
  else()
    math(EXPR _part "${_bx_dealt} % ${BX_CI_EQUIVALENCE_PARTS}")
    math(EXPR _bx_dealt "${_bx_dealt} + 1")
    set(_name "stage ${_stage}: equivalence, part ${_part}/${BX_CI_EQUIVALENCE_PARTS}")
    add_test(NAME "${_name}" COMMAND ${_check} --part ${_part}/${BX_CI_EQUIVALENCE_PARTS}
             WORKING_DIRECTORY "${BX_ROOT}")
    add_test(NAME "stage ${_stage}: equivalence, every text" COMMAND ${_check} WORKING_DIRECTORY "${BX_ROOT}")
    set_tests_properties("stage ${_stage}: equivalence, every text" PROPERTIES LABELS "wasm;check;slow"
                         TIMEOUT 2400 COST 1000)
  endif()
  # COST: the longest tests start first, so that with `ctest -j 2` two of them
  # always run side by side and the short tests fill the gaps, instead of one
  # core idling at the end.
  set_tests_properties("${_name}" PROPERTIES LABELS "wasm;check" TIMEOUT 2400 COST 1000)
endforeach()

# A cross-check (the full corpus is the slow node: stage00_crosscheck test):
# enough texts to show that the native build computes what the wasm one does.
if(TARGET stage_00_cli)
  add_test(NAME "stage 00: native vs wasm (first 25 texts)"
           COMMAND $<TARGET_FILE:stage_00_cli> check --corpus ${_bx_equiv} --ref ${_bx_equiv_ref} --limit 25
                   --diff-out "${_bx_diff_dir}/00-native.equivalence.diff"
           WORKING_DIRECTORY "${BX_ROOT}")
  set_tests_properties("stage 00: native vs wasm (first 25 texts)" PROPERTIES LABELS "check" TIMEOUT 1200)
endif()

# The check must be able to fail: flip one bit of one logit of text 0.
add_test(NAME "check: mutant is caught"
         COMMAND ${_bx_wasi} "${BX_WASM_BUILD_DIR}/stages/${_bx_last_stage}/cli.wasm" check
                 --corpus ${_bx_equiv} --ref ${_bx_equiv_ref} --limit 3 --mutate 0
                 --diff-out "${_bx_diff_dir}/mutant.diff"
         WORKING_DIRECTORY "${BX_ROOT}")
# Passes only if check names the planted difference (its exit status is 1 then).
set_tests_properties("check: mutant is caught" PROPERTIES LABELS "wasm;check;quick"
                     PASS_REGULAR_EXPRESSION "text 0 differs")
# The same mutant under wasmtime.
add_test(NAME "check: mutant wasmtime is caught"
         COMMAND ${_bx_wasmtime} "${BX_WASM_BUILD_DIR}/stages/${_bx_last_stage}/cli.wasm" check
                 --corpus ${_bx_equiv} --ref ${_bx_equiv_ref} --limit 3 --mutate 0
                 --diff-out "${_bx_diff_dir}/mutant.wasmtime.diff"
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties("check: mutant wasmtime is caught" PROPERTIES LABELS "wasm;check;quick;wasmtime"
                     PASS_REGULAR_EXPRESSION "text 0 differs")
# And on a part: text 5 is the second text of part 1/4, so a part check must
# compare it (and name it by its index in the whole corpus).
add_test(NAME "check: mutant part is caught"
         COMMAND ${_bx_wasi} "${BX_WASM_BUILD_DIR}/stages/${_bx_last_stage}/cli.wasm" check
                 --corpus ${_bx_equiv} --ref ${_bx_equiv_ref} --limit 8 --part 1/4 --mutate 5
                 --diff-out "${_bx_diff_dir}/mutant-part.diff"
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties("check: mutant part is caught" PROPERTIES LABELS "wasm;check;quick"
                     PASS_REGULAR_EXPRESSION "text 5 differs")

# The tokenizer of every stage against the reference's golden files (40,003
# texts), and the `>` -> `>=` tie-break mutant, which must fail it. These go
# through make (the mutant compiles one object), so they share a lock: two
# builds must never run in one build directory at once.
# The `>` -> `>=` mutant of each stage's own Viterbi (stage 04 has a new one)
# must fail check-tok. A stage whose tokenizer files (unigram*, tokenizer_*,
# vocab_blob*, build-time/*) are an earlier stage's code carries both over.
foreach(_stage ${_bx_stages})
  string(SUBSTRING "${_stage}" 0 2 _num)
  file(GLOB _tok_files RELATIVE "${BX_ROOT}/stages/${_stage}"
       "${BX_ROOT}/stages/${_stage}/unigram*" "${BX_ROOT}/stages/${_stage}/tokenizer_*"
       "${BX_ROOT}/stages/${_stage}/vocab_blob*" "${BX_ROOT}/stages/${_stage}/build-time/*")
  list(SORT _tok_files)
  bx_proven_elsewhere(${_stage} check-tok "${_tok_files}" _proven)
  if(_proven)
    continue()
  endif()
  add_test(NAME "stage ${_stage}: check-tok" COMMAND make check-tok STAGE=${_num}
           WORKING_DIRECTORY "${BX_ROOT}")
  set_tests_properties("stage ${_stage}: check-tok" PROPERTIES LABELS "wasm;check-tok" TIMEOUT 900
                       RESOURCE_LOCK bx_wasm_build)
  add_test(NAME "stage ${_stage}: check-tok mutant is caught" COMMAND make check-tok-mutant STAGE=${_num}
           WORKING_DIRECTORY "${BX_ROOT}")
  set_tests_properties("stage ${_stage}: check-tok mutant is caught" PROPERTIES LABELS "wasm;check-tok" TIMEOUT 900
                       RESOURCE_LOCK bx_wasm_build)
endforeach()

# Build-time data (bx_stage_data): the generator run twice more must write the
# bytes the build embedded. The mutant (one byte appended to a second run's
# output) must be caught, for the reason planted.
get_property(_bx_stage_data GLOBAL PROPERTY BX_STAGE_DATA)
foreach(_entry ${_bx_stage_data})
  string(REPLACE "|" ";" _parts "${_entry}")
  list(GET _parts 0 _stage)
  list(GET _parts 1 _tool)
  list(GET _parts 2 _input)
  list(GET _parts 3 _outputs)
  list(GET _parts 4 _name)  # a stage's second generator has a name, the first "-"
  set(_label "")
  set(_work "")
  if(NOT _name STREQUAL "-")
    set(_label " (${_name})")
    set(_work "-${_name}")
  endif()
  # The wasm build's generator and files: those are the bytes the shipped
  # components embed (this native build makes them only for the stages whose
  # native CLI is built).
  string(REPLACE "${CMAKE_BINARY_DIR}" "${BX_WASM_BUILD_DIR}" _outputs "${_outputs}")
  string(REPLACE "${CMAKE_BINARY_DIR}" "${BX_WASM_BUILD_DIR}" _tool "${_tool}")
  set(_run ${CMAKE_COMMAND} "-DTOOL=${_tool}" "-DINPUT=${_input}" "-DOUTPUTS=${_outputs}")
  set(_script -P "${BX_ROOT}/common/cmake/check-deterministic.cmake")
  add_test(NAME "stage ${_stage}: build-time data${_label} is deterministic"
           COMMAND ${_run} "-DWORK=${_bx_diff_dir}/${_stage}-data${_work}" ${_script})
  set_tests_properties("stage ${_stage}: build-time data${_label} is deterministic" PROPERTIES LABELS "quick;check")
  add_test(NAME "stage ${_stage}: build-time data${_label} mutant is caught"
           COMMAND ${_run} "-DWORK=${_bx_diff_dir}/${_stage}-data${_work}-mutant" -DMUTATE=1 ${_script})
  set_tests_properties("stage ${_stage}: build-time data${_label} mutant is caught" PROPERTIES LABELS "quick;check;mutant"
                       PASS_REGULAR_EXPRESSION "run[ \n]+2's[ \n]+[^ \n]+[ \n]+differs[ \n]+from[ \n]+the[ \n]+build's")
endforeach()

# Every kept variant (a failed idea, e.g. stage 03's d-lanes scores) must FAIL
# the check: it passes only if `check` names a differing text.
get_property(_bx_variants GLOBAL PROPERTY BX_STAGE_VARIANTS)
foreach(_entry ${_bx_variants})
  string(REPLACE ":" ";" _parts "${_entry}")
  list(GET _parts 0 _stage)
  list(GET _parts 1 _variant)
  add_test(NAME "stage ${_stage}: variant ${_variant} mutant is caught"
           COMMAND ${_bx_wasi} "${BX_WASM_BUILD_DIR}/stages/${_stage}/cli-${_variant}.wasm" check
                   --corpus ${_bx_equiv} --ref ${_bx_equiv_ref} --limit 20
                   --diff-out "${_bx_diff_dir}/${_stage}-${_variant}.equivalence.diff"
           WORKING_DIRECTORY "${BX_ROOT}")
  set_tests_properties("stage ${_stage}: variant ${_variant} mutant is caught" PROPERTIES
                       LABELS "wasm;check" PASS_REGULAR_EXPRESSION "text [0-9]+ differs")
endforeach()

# Every sweep variant (an exact alternative: another tile shape, another row
# count) must PASS: the eval corpus against stage 00's baseline, every logit bit.
get_property(_bx_sweep GLOBAL PROPERTY BX_STAGE_SWEEP)
foreach(_entry ${_bx_sweep})
  string(REPLACE ":" ";" _parts "${_entry}")
  list(GET _parts 0 _stage)
  list(GET _parts 1 _variant)
  add_test(NAME "stage ${_stage}: sweep ${_variant} is exact"
           COMMAND ${_bx_wasi} "${BX_WASM_BUILD_DIR}/stages/${_stage}/cli-${_variant}.wasm" eval --runs 1
           WORKING_DIRECTORY "${BX_ROOT}")
  set_tests_properties("stage ${_stage}: sweep ${_variant} is exact" PROPERTIES LABELS "wasm;check" TIMEOUT 600)
endforeach()

# Stage-specific harness commands (bx_stage HARNESS_COMMANDS): the exhaustive
# kernel checks. Each runs over all 2^32 f32 inputs
#   - in the wasm build, as two tests of half the range each (they run side by
#     side under ctest -j 2, one per core),
#   - natively, in one run (a cross-check, labelled slow: make test-slow),
# and each failed kernel kept buildable must fail it: those tests stop at the
# first difference (--first, visiting the blocks of inputs spread over the
# range: unary_check.hpp), which the command prints with the input, the
# kernel's result and the reference's.
#   check-gelu   stage 07's vector GELU vs gelu_scalar; catches `rereads` (VARIANTS)
#   check-quant  stage 09's vector quantiser vs quantize_row_scalar, plus 20,000
#             random rows (in half 0); catches every TRAPS variant
#   check-exp    stage 10's vector exp (softmax) vs bx_expf; catches every TRAPS
#             variant
function(bx_exhaustive_tests stage command pass_regex)
  set(_cli "${BX_WASM_BUILD_DIR}/stages/${stage}/cli.wasm")
  foreach(_half 0 1)
    math(EXPR _from "${_half} * 2147483648")
    math(EXPR _to "(${_half} + 1) * 2147483648")
    set(_name "stage ${stage}: ${command}, half ${_half} of 2^32 inputs")
    add_test(NAME "${_name}" COMMAND ${_bx_wasi} "${_cli}" ${command} --from ${_from} --to ${_to}
             WORKING_DIRECTORY "${BX_ROOT}")
    set_tests_properties("${_name}" PROPERTIES LABELS "wasm;check;${command}" TIMEOUT 1800 COST 900)
  endforeach()
  string(SUBSTRING "${stage}" 0 2 _num)
  if(TARGET stage_${_num}_cli)
    # The native run is a cross-check of the wasm proof above, so it is slow-
    # labelled (make test-slow). Its CLI is not in `all`: make test-slow builds
    # bx_slow_natives first.
    set_property(GLOBAL APPEND PROPERTY BX_SLOW_NATIVE_TARGETS stage_${_num}_cli)
    set(_name "stage ${stage}: ${command} (native), all inputs")
    add_test(NAME "${_name}" COMMAND $<TARGET_FILE:stage_${_num}_cli> ${command} WORKING_DIRECTORY "${BX_ROOT}")
    set_tests_properties("${_name}" PROPERTIES LABELS "check;slow;${command}" TIMEOUT 1800 COST 800)
  endif()
  foreach(_variant ${ARGN})
    set(_name "stage ${stage}: ${command} catches the ${_variant} variant")
    add_test(NAME "${_name}" COMMAND ${_bx_wasi} "${BX_WASM_BUILD_DIR}/stages/${stage}/cli-${_variant}.wasm" ${command} --first
             WORKING_DIRECTORY "${BX_ROOT}")
    set_tests_properties("${_name}" PROPERTIES LABELS "wasm;check;${command};mutant" PASS_REGULAR_EXPRESSION "${pass_regex}")
  endforeach()
endfunction()


# The carry-over check must be able to fail: a file with one subtraction
# turned round (erff.cpp's `ax - 1.0f`) is not the file it was. CMake wraps
# a FATAL_ERROR's text at spaces, where depends on how long the paths are,
# so these expressions take any run of spaces and newlines between words.
add_test(NAME "check: same-code mutant is caught"
         COMMAND ${CMAKE_COMMAND} -DMUTATE=1 "-DA=${BX_ROOT}/common/maths/erff.cpp" "-DB=${BX_ROOT}/common/maths/erff.cpp"
                 -P "${BX_ROOT}/common/cmake/same-code.cmake")
set_tests_properties("check: same-code mutant is caught" PROPERTIES LABELS "quick;check;mutant"
                     PASS_REGULAR_EXPRESSION "same-code:[ \n]+[^ \n]+[ \n]+is[ \n]+not")
# ... and one whose knob (a kept mistake's BX_VARIANT_ switch) is tested the
# other way round compiles the mistake into the shipped build: not the same code.
add_test(NAME "check: same-code mutant knob is caught"
         COMMAND ${CMAKE_COMMAND} -DMUTATE=knob "-DA=${BX_ROOT}/stages/07-simd-gelu/gelu.hpp"
                 "-DB=${BX_ROOT}/stages/07-simd-gelu/gelu.hpp" -P "${BX_ROOT}/common/cmake/same-code.cmake"
         WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
set_tests_properties("check: same-code mutant knob is caught" PROPERTIES LABELS "quick;check;mutant"
                     PASS_REGULAR_EXPRESSION "same-code:[ \n]+[^ \n]+[ \n]+is[ \n]+not")

# A stage's kernel check (bx_stage HARNESS_COMMANDS) on its kernel `files`,
# unless an earlier stage proved the same code: the exhaustive tests, and every
# failed idea the stage keeps (VARIANTS, TRAPS) must fail it, printing a line
# that matches `pass_regex` (the input, the kernel's result, the reference's).
function(bx_kernel_check stage command files pass_regex)
  bx_proven_elsewhere(${stage} ${command} "${files}" _proven)
  if(_proven)
    return()
  endif()
  bx_declared_variants(${stage} _catches)
  bx_exhaustive_tests(${stage} ${command} "${pass_regex}" ${_catches})
endfunction()

get_property(_bx_commands GLOBAL PROPERTY BX_STAGE_COMMANDS)
foreach(_entry ${_bx_commands})
  string(REPLACE ":" ";" _parts "${_entry}")
  list(GET _parts 0 _stage)
  list(GET _parts 1 _command)
  if(_command STREQUAL "check-gelu")
    bx_kernel_check(${_stage} check-gelu "gelu.hpp;gelu.cpp" "gives 0x[0-9a-f]+ .*gelu_scalar 0x[0-9a-f]+")
  elseif(_command STREQUAL "check-quant")
    bx_kernel_check(${_stage} check-quant "quantize.hpp;quantize.cpp" "gives -?[0-9]+, the reference -?[0-9]+")
  elseif(_command STREQUAL "check-exp")
    bx_kernel_check(${_stage} check-exp "softmax.hpp;softmax.cpp" "gives 0x[0-9a-f]+ .*bx_expf 0x[0-9a-f]+")
  endif()
endforeach()
