# Toolchain file: C++20 to wasm32-wasi with SIMD128.
#
#   cmake -S . -B build/wasm -DCMAKE_TOOLCHAIN_FILE=common/cmake/wasm32-wasi.cmake
#
# Two ways to get a compiler and a sysroot:
#   * WASI_SDK_PATH set (environment or -D): a real wasi-sdk, its clang and
#     its share/wasi-sysroot.
#   * otherwise Debian's parts: clang-19, lld-19, wasi-libc, libc++-19-dev-wasm32,
#     libc++abi-19-dev-wasm32, libclang-rt-19-dev-wasm32 (installed by make setup).
#
# Debian's clang driver adds the host's /usr/include as a last-resort include
# directory for wasm targets, so a missing wasm header would silently pick up a
# glibc one. We avoid that by giving clang a sysroot of our own, made of two
# symbolic links in the build directory, laid out like wasi-sdk's sysroot:
#   <build>/wasi-sysroot/include/wasm32-wasi -> /usr/include/wasm32-wasi
#   <build>/wasi-sysroot/lib/wasm32-wasi     -> /usr/lib/wasm32-wasi
# With --sysroot the driver searches only there (plus clang's own headers).

set(CMAKE_SYSTEM_NAME WASI)
set(CMAKE_SYSTEM_VERSION 1)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}")  # Platform/WASI.cmake

if(NOT DEFINED WASI_SDK_PATH AND DEFINED ENV{WASI_SDK_PATH})
  set(WASI_SDK_PATH "$ENV{WASI_SDK_PATH}")
endif()
# try_compile projects re-read this file: pass our choices on to them.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES WASI_SDK_PATH)

if(WASI_SDK_PATH)
  set(_bx_bin "${WASI_SDK_PATH}/bin")
  set(CMAKE_C_COMPILER "${_bx_bin}/clang")
  set(CMAKE_CXX_COMPILER "${_bx_bin}/clang++")
  set(CMAKE_AR "${_bx_bin}/llvm-ar" CACHE FILEPATH "archiver")
  set(CMAKE_RANLIB "${_bx_bin}/llvm-ranlib" CACHE FILEPATH "ranlib")
  set(_bx_sysroot "${WASI_SDK_PATH}/share/wasi-sysroot")
  # Newer wasi-sdks name the target wasm32-wasip1; older ones wasm32-wasi.
  if(EXISTS "${_bx_sysroot}/lib/wasm32-wasip1")
    set(_bx_triple wasm32-wasip1)
  else()
    set(_bx_triple wasm32-wasi)
  endif()
else()
  set(CMAKE_C_COMPILER clang-19)
  set(CMAKE_CXX_COMPILER clang++-19)
  # No CMAKE_AR: wasm-ld 19 reads archives without a symbol index, so
  # whichever `ar` CMake finds (llvm-ar or binutils' ar) will do.
  set(_bx_triple wasm32-wasi)
  set(_bx_sysroot "${CMAKE_BINARY_DIR}/wasi-sysroot")
  foreach(_bx_part include lib)
    if(NOT EXISTS "/usr/${_bx_part}/wasm32-wasi")
      message(FATAL_ERROR "/usr/${_bx_part}/wasm32-wasi is missing: run `make setup` "
                          "(or set WASI_SDK_PATH to a wasi-sdk)")
    endif()
    if(NOT EXISTS "${_bx_sysroot}/${_bx_part}/wasm32-wasi")
      file(MAKE_DIRECTORY "${_bx_sysroot}/${_bx_part}")
      file(CREATE_LINK "/usr/${_bx_part}/wasm32-wasi" "${_bx_sysroot}/${_bx_part}/wasm32-wasi" SYMBOLIC)
    endif()
  endforeach()
endif()

set(CMAKE_C_COMPILER_TARGET ${_bx_triple})
set(CMAKE_CXX_COMPILER_TARGET ${_bx_triple})
set(CMAKE_SYSROOT "${_bx_sysroot}")

# Flags every wasm object gets. -fno-exceptions: wasm32-wasi libc++abi has no
# unwinder (a throw fails to link on __cxa_throw). No -ffp-contract needed:
# wasm has no fused multiply-add to contract into.
# snippet: simd-flags
set(CMAKE_C_FLAGS_INIT "-msimd128")
set(CMAKE_CXX_FLAGS_INIT "-msimd128 -fno-exceptions")
# end-snippet
set(CMAKE_C_FLAGS_RELEASE_INIT "-O2")
set(CMAKE_CXX_FLAGS_RELEASE_INIT "-O2")

set(CMAKE_FIND_ROOT_PATH "${_bx_sysroot}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Compiler checks link a test program; a static library avoids needing a
# runtime for them.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
