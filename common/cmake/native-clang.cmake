# Toolchain file: the host build (Catch2 unit tests, Google Benchmark, the
# native CLI) with the same compiler family as the wasm build.
#
#   cmake -S . -B build/native -DCMAKE_TOOLCHAIN_FILE=common/cmake/native-clang.cmake
#
# -ffp-contract=off: x86 has FMA and clang may fuse a*b+c into one rounding;
# wasm cannot, and stage 00 defines the arithmetic without fusing. Native
# results are only comparable to wasm ones with contraction off.
set(CMAKE_C_COMPILER clang-19)
set(CMAKE_CXX_COMPILER clang++-19)
set(CMAKE_C_FLAGS_INIT "-ffp-contract=off")
set(CMAKE_CXX_FLAGS_INIT "-ffp-contract=off")
set(CMAKE_C_FLAGS_RELEASE_INIT "-O2")
set(CMAKE_CXX_FLAGS_RELEASE_INIT "-O2")
# lld resolves symbols regardless of library order (as wasm-ld does), so the
# stage <-> common cycle (redact.cpp calls the stage, the stage uses common)
# links the same way in both builds.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld")

# BX_SANITIZE=ON (build/sanitize, `make test-sanitize`): AddressSanitizer and
# UndefinedBehaviorSanitizer on everything, stopping at the first report, with
# frame pointers for readable stacks. The service takes untrusted text from the
# network and parses JSON, UTF-8, a tokenizer configuration and a model file in
# hand-written C++; this build runs the same tests with every such read checked.
# -O1 -gline-tables-only: what ASan's documentation suggests, and half the
# compile time of -O2 -g.
if(BX_SANITIZE)
  # fuzzer-no-link: libFuzzer's coverage and comparison hooks in every object,
  # so the fuzz targets (tests/fuzz) see inside common/ and the stages; in the
  # other programs the sanitizer runtime's empty hooks answer them.
  set(_bx_sanitize "-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer")
  set(CMAKE_C_FLAGS_RELEASE_INIT "-O1 -gline-tables-only")
  set(CMAKE_CXX_FLAGS_RELEASE_INIT "-O1 -gline-tables-only")
  string(APPEND CMAKE_C_FLAGS_INIT " ${_bx_sanitize}")
  string(APPEND CMAKE_CXX_FLAGS_INIT " ${_bx_sanitize}")
  string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " -fsanitize=address,undefined")
endif()
