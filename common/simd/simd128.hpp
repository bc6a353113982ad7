// One spelling of 128-bit SIMD for every build: the wasm SIMD128 intrinsics.
//
// In the wasm build they are the real thing (<wasm_simd128.h>, -msimd128). In
// the native build (tests, benchmarks, fuzzers) SIMDe implements the same
// intrinsics with SSE/AVX, so kernels are written once. The shipped artefact
// is the wasm build; a native result is a cross-check, never the proof.
#pragma once

// snippet: simd-header
#if defined(__wasm__)
#include <wasm_simd128.h>
#else
#ifndef SIMDE_ENABLE_NATIVE_ALIASES
#define SIMDE_ENABLE_NATIVE_ALIASES  // lets native code say wasm_i32x4_add, v128_t, ...
#endif
#include <simde/wasm/simd128.h>
#endif
// end-snippet
