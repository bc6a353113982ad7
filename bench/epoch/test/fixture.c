// Test input for the epoch instrumenter: small, but with everything the
// rewriter must get right in a real clang module: imports (so function indices
// shift), indirect calls (element section), recursion, nested loops, SIMD
// (0xFD with memargs, lane indices, v128.const, shuffles), saturating float to
// int conversions and bulk memory (0xFC), a mutable stack-pointer global.
// Rebuild: ./build-fixture.sh (the .wasm is committed so the test needs only node).
#include <stdint.h>
#include <wasm_simd128.h>

__attribute__((import_module("env"), import_name("host_mix"))) int32_t host_mix(int32_t, int32_t);

static int8_t a8[1024], b8[1024];
static float f32[512];
static uint8_t scratch[4096];

__attribute__((noinline)) static int32_t dot_i8(const int8_t* a, const int8_t* b, int n) {
    v128_t acc = wasm_i32x4_splat(0);
    for (int i = 0; i < n; i += 16) {
        v128_t va = wasm_v128_load(a + i), vb = wasm_v128_load(b + i);
        acc = wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(wasm_i16x8_extend_low_i8x16(va), wasm_i16x8_extend_low_i8x16(vb)));
        acc = wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(wasm_i16x8_extend_high_i8x16(va), wasm_i16x8_extend_high_i8x16(vb)));
    }
    return wasm_i32x4_extract_lane(acc, 0) + wasm_i32x4_extract_lane(acc, 1) +
           wasm_i32x4_extract_lane(acc, 2) + wasm_i32x4_extract_lane(acc, 3);
}

__attribute__((noinline)) static int32_t quantize(const float* x, int n) {
    int32_t sum = 0;
    for (int i = 0; i < n; i += 4) {
        v128_t v = wasm_f32x4_mul(wasm_v128_load(x + i), wasm_f32x4_const(3.5f, 3.5f, 3.5f, 3.5f));
        v = wasm_f32x4_pmin(wasm_f32x4_splat(127.0f), wasm_f32x4_trunc(v));
        v128_t q = wasm_i32x4_trunc_sat_f32x4(v);
        v128_t s = wasm_i8x16_shuffle(q, q, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
        sum += wasm_i32x4_extract_lane(s, 0) ^ wasm_i32x4_extract_lane(q, 3);
        sum += (int32_t)(x[i] * 1000.0f);   // scalar saturating conversion
    }
    return sum;
}

__attribute__((noinline)) static int32_t fib(int32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) static int32_t op_add(int32_t a, int32_t b) { return a + b; }
__attribute__((noinline)) static int32_t op_xor(int32_t a, int32_t b) { return (a ^ b) * 31; }
static int32_t (*const ops[])(int32_t, int32_t) = {op_add, op_xor, host_mix};

__attribute__((noinline)) static int32_t matmul_trace(int n, int32_t seed) {
    int32_t m[16][16], r = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) m[i][j] = (seed + i * 7 + j * 3) % 17 - 8;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            int32_t s = 0;
            for (int j = 0; j < n; j++) s += m[i][j] * m[j][k];
            r += i == k ? s : 0;
        }
    return r;
}

__attribute__((export_name("run"))) int32_t run(int32_t seed) {
    uint32_t x = (uint32_t)seed * 2654435761u + 1;
    for (int i = 0; i < 1024; i++) { x = x * 1103515245u + 12345u; a8[i] = (int8_t)(x >> 16); b8[i] = (int8_t)(x >> 8); }
    for (int i = 0; i < 512; i++) { x = x * 1103515245u + 12345u; f32[i] = (float)(int32_t)(x >> 8) / 1048576.0f; }
    __builtin_memset(scratch, seed & 0xff, sizeof scratch);
    __builtin_memcpy(scratch + 100, a8, 512);
    int32_t h = dot_i8(a8, b8, 1024);
    h = h * 31 + quantize(f32, 512);
    h = h * 31 + fib(12 + (seed & 3));
    for (int i = 0; i < 9; i++) h = ops[(uint32_t)(h + i) % 3](h, i);
    h = h * 31 + matmul_trace(8 + (seed & 7), seed);
    h = h * 31 + scratch[seed & 1023] + scratch[200];
    return h;
}
