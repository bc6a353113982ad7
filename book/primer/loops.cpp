// Two loops small enough to read whole: the book's primer on wasm SIMD shows each as a
// wasm module holds it and as V8 compiles it (make primer-listings). They are examples
// for a reader, in no stage and on no path of the service; main() only calls them once
// with small arrays, so that V8 compiles them and nothing is optimised away. Unrolling is
// turned off in both loops, so that one trip of the listed loop is one step of the source.
// n is a multiple of the step (4 floats, 16 bytes): examples, not kernels with tails.
#include <wasm_simd128.h>

#include <cstdint>
#include <cstdio>

// y[i] *= a, four floats per step: a load, a multiply, a store, and the loop's own
// bookkeeping (one pointer, one compare).
// snippet: primer-scale
__attribute__((noinline)) void scale(float* y, float a, int n) {
    const v128_t a4 = wasm_f32x4_splat(a);
    float* const end = y + n;
#pragma clang loop unroll(disable)
    for (float* p = y; p != end; p += 4) wasm_v128_store(p, wasm_f32x4_mul(wasm_v128_load(p), a4));
}
// end-snippet

// The sum of a[i] * b[i] over int8 values, sixteen per step. wasm has no int8 multiply
// that widens, so each half of the sixteen bytes is widened to 16-bit lanes first;
// i32x4.dot_i16x8_s then multiplies lane by lane and adds neighbouring pairs into four
// 32-bit sums. A product of two int8 values needs at most 15 bits, so the sums of any
// row a GEMM holds stay far from overflow.
// snippet: primer-dot
__attribute__((noinline)) int32_t dot_int8(const int8_t* a, const int8_t* b, int n) {
    v128_t sums = wasm_i32x4_splat(0);
#pragma clang loop unroll(disable)
    for (int i = 0; i < n; i += 16) {
        const v128_t a16 = wasm_v128_load(a + i);
        const v128_t b16 = wasm_v128_load(b + i);
        sums = wasm_i32x4_add(sums, wasm_i32x4_dot_i16x8(wasm_i16x8_extend_low_i8x16(a16),
                                                         wasm_i16x8_extend_low_i8x16(b16)));
        sums = wasm_i32x4_add(sums, wasm_i32x4_dot_i16x8(wasm_i16x8_extend_high_i8x16(a16),
                                                         wasm_i16x8_extend_high_i8x16(b16)));
    }
    return wasm_i32x4_extract_lane(sums, 0) + wasm_i32x4_extract_lane(sums, 1) +
           wasm_i32x4_extract_lane(sums, 2) + wasm_i32x4_extract_lane(sums, 3);
}
// end-snippet

int main() {
    alignas(16) static float y[64];
    alignas(16) static int8_t a[64], b[64];
    for (int i = 0; i < 64; ++i) {
        y[i] = static_cast<float>(i);
        a[i] = static_cast<int8_t>(i - 32);
        b[i] = static_cast<int8_t>(3 - i % 7);
    }
    scale(y, 0.5f, 64);
    std::printf("scale: y[63] = %g\ndot_int8: %d\n", static_cast<double>(y[63]), dot_int8(a, b, 64));
    return 0;
}
