# CTest registrations for bench/, to be included from tests/CMakeLists.txt:
#   include("${PROJECT_SOURCE_DIR}/bench/tests.cmake" OPTIONAL)
# Needs only Node: the instrumenter's self-test runs on committed fixtures.

# The instrumenter: checks inserted, results unchanged; the run includes the
# mutant (no loop checks) and fails unless the mutant is caught.
add_test(NAME "bench: epoch selftest"
         COMMAND "${BX_NODE}" "${BX_ROOT}/bench/epoch/test/selftest.mjs")
# The mutant alone must fail (a test that cannot fail proves nothing).
add_test(NAME "bench: epoch mutant is caught"
         COMMAND "${BX_NODE}" "${BX_ROOT}/bench/epoch/test/selftest.mjs" --mutant)
set_tests_properties("bench: epoch mutant is caught" PROPERTIES WILL_FAIL TRUE)
# Plot and table render a sample results file.
add_test(NAME "bench: report"
         COMMAND "${BX_NODE}" "${BX_ROOT}/bench/test/report.test.mjs")
# ... and its trust warnings can fail: a copy whose load check is loosened must fail it.
add_test(NAME "bench: report mutant is caught"
         COMMAND "${BX_NODE}" "${BX_ROOT}/bench/test/report-mutant.mjs")
# The floor kernels issue the products their constants claim (the floor table
# and bench-peer's bound divide by them), and a pass's product counts add up;
# one mutant drops a product, the other forgets the live rows: both must fail.
add_test(NAME "bench: floor kernels"
         COMMAND "${BX_NODE}" "${BX_ROOT}/bench/floor/test/kernels.test.mjs")
add_test(NAME "bench: floor kernels mutant is caught"
         COMMAND "${BX_NODE}" "${BX_ROOT}/bench/floor/test/kernels.test.mjs" --mutant)
add_test(NAME "bench: floor kernels mutant rows is caught"
         COMMAND "${BX_NODE}" "${BX_ROOT}/bench/floor/test/kernels.test.mjs" --mutant=rows)
set_tests_properties("bench: floor kernels mutant is caught" "bench: floor kernels mutant rows is caught" PROPERTIES WILL_FAIL TRUE)
set_tests_properties("bench: epoch selftest" "bench: epoch mutant is caught" "bench: report" "bench: report mutant is caught"
                     "bench: floor kernels" "bench: floor kernels mutant is caught" "bench: floor kernels mutant rows is caught" PROPERTIES LABELS quick)

# The real stage CLIs (when the wasm build has them): instrumented, they
# validate and carry one check per function and loop. Skipped (77) otherwise.
if(DEFINED BX_WASM_BUILD_DIR)
  set(_bench_wasm_build "${BX_WASM_BUILD_DIR}")
else()
  set(_bench_wasm_build "${BX_ROOT}/build/wasm")
endif()
add_test(NAME "bench: epoch stages"
         COMMAND "${BX_NODE}" "${BX_ROOT}/bench/epoch/test/selftest.mjs" --stages "${_bench_wasm_build}/stages")
set_tests_properties("bench: epoch stages" PROPERTIES LABELS wasm SKIP_RETURN_CODE 77)

# The kernel ladders (bench/micro/ladder): every rung of each, natively, gives
# stage 00's bits on the ladder's inputs (nothing is timed: the filter matches
# no benchmark); the mutant (stage 17's GELU rung with its kept mistake) fails.
if(TARGET bench_ladder_gemm)
  foreach(_kernel gemm gelu exp quantise attention layernorm)
    add_test(NAME "bench: the ${_kernel} ladder's rungs are bit-exact"
             COMMAND bench_ladder_${_kernel} --benchmark_filter=^$)
    set_tests_properties("bench: the ${_kernel} ladder's rungs are bit-exact" PROPERTIES LABELS quick
                         FAIL_REGULAR_EXPRESSION "FAILED its check")
  endforeach()
  add_test(NAME "bench: ladder mutant inexact-rung is caught"
           COMMAND bench_ladder_gelu_mutant --benchmark_filter=^$)
  set_tests_properties("bench: ladder mutant inexact-rung is caught" PROPERTIES
                       LABELS "quick;mutant" WILL_FAIL TRUE)
endif()

# bench/results/ladders.md is about today's code: the pinned ladders run has
# exactly the rungs today's stages make (first stage, stages, code hash); the
# mutant plants a changed kernel in today's list and must be reported.
add_test(NAME "bench: ladders are fresh" COMMAND "${BX_NODE}" "${BX_ROOT}/bench/micro/ladder/fresh.mjs" "${CMAKE_BINARY_DIR}")
add_test(NAME "bench: ladders mutant changed-kernel is caught"
         COMMAND "${BX_NODE}" "${BX_ROOT}/bench/micro/ladder/fresh.mjs" "${CMAKE_BINARY_DIR}" --plant)
set_tests_properties("bench: ladders are fresh" PROPERTIES LABELS "quick;book")
set_tests_properties("bench: ladders mutant changed-kernel is caught" PROPERTIES LABELS "quick;book;mutant" WILL_FAIL TRUE)

# The README's chart (bench/results/overview.svg) must be what `make readme-chart`
# draws from the pinned runs now; its mutant, a copy with one label changed, must
# be called stale.
add_test(NAME "readme: chart is fresh"
         COMMAND "${BX_NODE}" "${BX_ROOT}/bench/plot.mjs" --peers --check "${BX_ROOT}/bench/results/overview.svg"
         WORKING_DIRECTORY "${BX_ROOT}")
set(_bench_stale_chart "${CMAKE_CURRENT_BINARY_DIR}/overview.stale.svg")
add_test(NAME "readme: chart, plant a stale one"
         COMMAND "${BX_NODE}" "${BX_ROOT}/bench/plot.mjs" --peers --plant-stale "${_bench_stale_chart}"
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties("readme: chart, plant a stale one" PROPERTIES FIXTURES_SETUP readme-chart-stale)
add_test(NAME "readme: chart mutant stale is caught"
         COMMAND "${BX_NODE}" "${BX_ROOT}/bench/plot.mjs" --peers --check "${_bench_stale_chart}"
         WORKING_DIRECTORY "${BX_ROOT}")
set_tests_properties("readme: chart mutant stale is caught" PROPERTIES FIXTURES_REQUIRED readme-chart-stale
                     PASS_REGULAR_EXPRESSION "overview\\.stale\\.svg is stale")
set_tests_properties("readme: chart is fresh" "readme: chart, plant a stale one" "readme: chart mutant stale is caught" PROPERTIES LABELS "quick;book")
set_tests_properties("readme: chart mutant stale is caught" PROPERTIES LABELS "quick;book;mutant")
