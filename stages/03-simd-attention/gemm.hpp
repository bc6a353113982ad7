// The int8 matrix product: every input row quantised once, up front,
// then register tiles of 4 tokens x 2 output rows built on the wasm SIMD128
// instruction i32x4.dot_i16x8_s (common/simd/simd128.hpp: the real intrinsics
// in wasm, SIMDe in native builds).
//
// Why no bit can change: the products and their sums are integers, and integer
// addition is exact and associative, so however the tile groups them into
// lanes, pairs and partial sums, `acc` is the integer stage 00 computes. The
// only float step, dequantisation, keeps the reference order.
//
// Everything here is in an unnamed namespace: each file that includes this
// header gets its own copy, so a unit test can include several stages'
// kernels into one binary without their names clashing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/maths/quantize.hpp"
#include "common/model/model_view.hpp"
#include "common/simd/simd128.hpp"

namespace bx::stage {
namespace {

// The register tile: tokens (activation rows) x output rows (weight rows).
// The post tried many shapes and kept 4 x 2. At its peak a step holds eight
// accumulators, eight widened activation halves and two widened weight
// halves: 18 vectors, two more than x86-64's 16 SIMD registers, so a few
// live on the stack (stage 05 counts them: make tile-code).
constexpr int kTileTokens = 4;
constexpr int kTileOutputs = 2;

// Bytes of k consumed per step: one v128 of int8. Every layer's k (384 or
// 1536) is a multiple of it; the model reader guarantees those shapes.
constexpr int kStepBytes = 16;

// Activation rows in int8, each with its own scale s_in: what every product of
// a linear layer reads. A tile needs several quantised rows at once.
struct QuantizedRows {
    std::vector<std::int8_t> q;  // rows x cols, row-major
    std::vector<float> scale;    // one s_in per row
};

// Quantises rows x[0..rows) once, before any product, with the reference
// quantiser. Each row's int8 values and scale depend on that row alone, so
// quantising them all up front gives what stage 00 got one row at a time.
inline void quantize_rows(const float* x, int rows, int cols, QuantizedRows& out) {
    out.q.resize(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
    out.scale.resize(static_cast<std::size_t>(rows));
    for (int t = 0; t < rows; ++t) {
        const std::size_t at = static_cast<std::size_t>(t) * static_cast<std::size_t>(cols);
        out.scale[static_cast<std::size_t>(t)] = quantize_row_scalar(x + at, cols, out.q.data() + at);
    }
}

// acc[r][c] = sum_i a[r][i] * b[c][i] for M activation rows `a` and N weight
// rows `b` (both int8, k apart, k a multiple of 16). Per 16 bytes of k, each
// row is widened to two i16x8 halves; dot_i16x8 multiplies 8 pairs and adds
// neighbouring products into 4 i32 lanes. Each activation vector is used N
// times, each weight vector M times, and one trip round the loop advances
// M x N dot products. One horizontal sum per element, at the very end.
template <int M, int N>
inline void tile_dot(const std::int8_t* a, const std::int8_t* b, int k, std::int32_t (&acc)[M][N]) {
    v128_t sum[M][N];
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) sum[r][c] = wasm_i32x4_splat(0);

    for (int i = 0; i < k; i += kStepBytes) {
        v128_t a_low[M], a_high[M];
        for (int r = 0; r < M; ++r) {
            const v128_t bytes = wasm_v128_load(a + r * k + i);
            a_low[r] = wasm_i16x8_extend_low_i8x16(bytes);
            a_high[r] = wasm_i16x8_extend_high_i8x16(bytes);
        }
        for (int c = 0; c < N; ++c) {
            const v128_t bytes = wasm_v128_load(b + c * k + i);
            const v128_t b_low = wasm_i16x8_extend_low_i8x16(bytes);
            const v128_t b_high = wasm_i16x8_extend_high_i8x16(bytes);
            for (int r = 0; r < M; ++r)
                sum[r][c] = wasm_i32x4_add(sum[r][c], wasm_i32x4_add(wasm_i32x4_dot_i16x8(a_low[r], b_low),
                                                                     wasm_i32x4_dot_i16x8(a_high[r], b_high)));
        }
    }

    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c)
            acc[r][c] = (wasm_i32x4_extract_lane(sum[r][c], 0) + wasm_i32x4_extract_lane(sum[r][c], 1)) +
                        (wasm_i32x4_extract_lane(sum[r][c], 2) + wasm_i32x4_extract_lane(sum[r][c], 3));
}

// The one float step, in the reference order: bias + (float(acc) * s_in) * s_w.
inline float dequantise(std::int32_t acc, float s_in, float bias, float s_w) {
    return bias + (static_cast<float>(acc) * s_in) * s_w;
}

// One M x N block of outputs: tokens t..t+M-1 against output rows o..o+N-1.
template <int M, int N>
inline void gemm_block(const LinearView& layer, const QuantizedRows& x, int t, int o, float* y) {
    const std::size_t k = static_cast<std::size_t>(layer.cols);
    std::int32_t acc[M][N];
    tile_dot<M, N>(x.q.data() + static_cast<std::size_t>(t) * k, layer.w + static_cast<std::size_t>(o) * k,
                   layer.cols, acc);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c)
            y[static_cast<std::size_t>(t + r) * static_cast<std::size_t>(layer.rows) + static_cast<std::size_t>(o + c)] =
                dequantise(acc[r][c], x.scale[static_cast<std::size_t>(t + r)], layer.bias[o + c], layer.scale[o + c]);
}

// M tokens (4, or the 1 to 3 left at the end) against every output row: in
// pairs, then the last one alone when their number is odd (the classifier
// has 81 outputs).
template <int M>
inline void gemm_tokens(const LinearView& layer, const QuantizedRows& x, int t, float* y) {
    int o = 0;
    for (; o + kTileOutputs <= layer.rows; o += kTileOutputs) gemm_block<M, kTileOutputs>(layer, x, t, o, y);
    if (o < layer.rows) gemm_block<M, 1>(layer, x, t, o, y);
}

// y[t][o] for every token t < rows and output o: blocks of 4 tokens, then the
// 1 to 3 left over (in the last layer rows = live, which can be any count).
inline void gemm(const LinearView& layer, const QuantizedRows& x, int rows, float* y) {
    int t = 0;
    for (; t + kTileTokens <= rows; t += kTileTokens) gemm_tokens<kTileTokens>(layer, x, t, y);
    switch (rows - t) {
        case 3: gemm_tokens<3>(layer, x, t, y); break;
        case 2: gemm_tokens<2>(layer, x, t, y); break;
        case 1: gemm_tokens<1>(layer, x, t, y); break;
        default: break;
    }
}

}  // namespace
}  // namespace bx::stage
