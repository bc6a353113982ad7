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
