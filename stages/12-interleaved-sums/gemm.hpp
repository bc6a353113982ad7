// The int8 matrix product in register tiles, with the activations stored
// widened to 16 bits once per row instead of widened in the inner loop for
// every tile that reads them. Every input row is quantised once, up front,
// then register tiles built on the wasm SIMD128 instruction i32x4.dot_i16x8_s
// (common/simd/simd128.hpp: the real intrinsics in wasm, SIMDe in native
// builds).
//
// Why it pays: dot_i16x8 wants 16-bit lanes. Widened in the loop, every 16
// int8 activations become two i16x8 halves (under V8 on x86 the high half
// costs two instructions) before each use, once per pair of output rows: for a
// 4x2 tile, 8 of the 12 widenings in a step, over a third of the step's vector
// instructions. Stored widened, they are two plain loads. The values are the
// same integers, so every product and sum is the same.
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

#include "common/model/model_view.hpp"
#include "common/simd/simd128.hpp"
#include "quantize.hpp"

namespace bx::stage {
namespace {

// The register tile: tokens (activation rows) x output rows (weight rows),
// and the k loop's unrolling, as compile-time parameters. The stage keeps the
// shape that was fastest on this machine in `make bench-sweep STAGE=11`; each
// other shape of that sweep is this file built with other values (SWEEP in
// CMakeLists.txt), checked against stage 00 and timed beside the stage.
//
// With the activations already 16-bit, a step's only widening is the weight
// rows': 4 x 1 widens one weight row and uses it for four tokens, with 4
// accumulators, 2 weight halves and the activation loads in registers. Wider
// tiles reuse each activation load more but hold more than x86-64's 16 SIMD
// registers, and what does not fit goes to the stack.
#ifndef BX_TILE_OUTPUTS
#define BX_TILE_OUTPUTS 1  // stage 10 had 2: `make bench-sweep STAGE=11`
#endif
#ifndef BX_GEMM_UNROLL
#define BX_GEMM_UNROLL 1  // the post unrolled the k loop twice for no gain
#endif
constexpr int kTileTokens = 4;
constexpr int kTileOutputs = BX_TILE_OUTPUTS;
constexpr int kUnroll = BX_GEMM_UNROLL;  // steps of k per trip round the loop

// Values of k consumed per step: one v128 of int8 weights. Every layer's k (384 or
// 1536) is a multiple of it; the model reader guarantees those shapes.
constexpr int kStepBytes = 16;

// Activation rows quantised to int8 (values in [-127, 127]) and stored as
// int16, each with its own scale s_in: what every product of a linear layer
// reads, already in the lane width dot_i16x8 multiplies.
struct QuantizedRows {
    std::vector<std::int16_t> q;  // rows x cols, row-major, each value an int8's
    std::vector<float> scale;     // one s_in per row
};

// Quantises rows x[0..rows) once, before any product, with the stage's SIMD
// quantiser (quantize.hpp, which gives quantize_row_scalar's bytes and scale),
// then widens each row's bytes to int16, sixteen at a time. Each row's values
// and scale depend on that row alone, so doing them all up front gives what
// stage 00 got one row at a time; widening keeps every value.
inline void quantize_rows(const float* x, int rows, int cols, QuantizedRows& out) {
    out.q.resize(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
    out.scale.resize(static_cast<std::size_t>(rows));
    std::vector<std::int8_t> bytes(static_cast<std::size_t>(cols));
    for (int t = 0; t < rows; ++t) {
        const std::size_t at = static_cast<std::size_t>(t) * static_cast<std::size_t>(cols);
        out.scale[static_cast<std::size_t>(t)] = quant::quantize_row(x + at, cols, bytes.data());
        std::int16_t* wide = out.q.data() + at;
        for (int c = 0; c < cols; c += kStepBytes) {  // cols is a multiple of 16
            const v128_t sixteen = wasm_v128_load(bytes.data() + c);
            wasm_v128_store(wide + c, wasm_i16x8_extend_low_i8x16(sixteen));
            wasm_v128_store(wide + c + 8, wasm_i16x8_extend_high_i8x16(sixteen));
        }
    }
}

// One step of k for an M x N tile: 16 values of every row. The activations
// are loaded as two i16x8 halves, ready; each weight row's 16 bytes are
// widened to two halves. dot_i16x8 multiplies 8 pairs and adds neighbouring
// products into 4 i32 lanes. Each activation vector is used N times, each
// weight vector M times.
template <int M, int N>
inline void tile_step(const std::int16_t* a, const std::int8_t* b, int k, int i, v128_t (&sum)[M][N]) {
    v128_t a_low[M], a_high[M];
    for (int r = 0; r < M; ++r) {
        a_low[r] = wasm_v128_load(a + r * k + i);
        a_high[r] = wasm_v128_load(a + r * k + i + 8);
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

// acc[r][c] = sum_i a[r][i] * b[c][i] for M activation rows `a` (int16) and
// N weight rows `b` (int8), both k apart, k a multiple of 16 x kUnroll. One trip round
// the loop advances M x N dot products by kUnroll steps; one horizontal sum
// per element, at the very end.
template <int M, int N>
inline void tile_dot(const std::int16_t* a, const std::int8_t* b, int k, std::int32_t (&acc)[M][N]) {
    v128_t sum[M][N];
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) sum[r][c] = wasm_i32x4_splat(0);

    for (int i = 0; i < k; i += kStepBytes * kUnroll) {
        // Left to itself, clang keeps this as a loop of kUnroll trips inside
        // the k loop (tile_step is large): an unrolled k loop must be asked for.
#pragma clang loop unroll(full)
        for (int u = 0; u < kUnroll; ++u) tile_step<M, N>(a, b, k, i + u * kStepBytes, sum);
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

// The outputs left over after the last whole tile (fewer than kTileOutputs;
// the classifier has 81): one block exactly that wide. N counts down from
// kTileOutputs - 1 to the width needed, at compile time.
template <int M, int N>
inline void gemm_output_tail(const LinearView& layer, const QuantizedRows& x, int t, int o, float* y) {
    if constexpr (N > 0) {
        if (layer.rows - o == N) gemm_block<M, N>(layer, x, t, o, y);
        else gemm_output_tail<M, N - 1>(layer, x, t, o, y);
    }
}

// M tokens (a whole tile, or the rows left at the end) against every output
// row: whole tiles of kTileOutputs, then the tail.
template <int M>
inline void gemm_tokens(const LinearView& layer, const QuantizedRows& x, int t, float* y) {
    int o = 0;
    for (; o + kTileOutputs <= layer.rows; o += kTileOutputs) gemm_block<M, kTileOutputs>(layer, x, t, o, y);
    gemm_output_tail<M, kTileOutputs - 1>(layer, x, t, o, y);
}

// The token rows left after the last whole tile (in the last layer rows =
// live, which can be any count): one tile exactly that tall.
template <int M>
inline void gemm_token_tail(const LinearView& layer, const QuantizedRows& x, int t, int rows, float* y) {
    if constexpr (M > 0) {
        if (rows - t == M) gemm_tokens<M>(layer, x, t, y);
        else gemm_token_tail<M - 1>(layer, x, t, rows, y);
    }
}

// y[t][o] for every token t < rows and output o: whole tiles, then the tail.
inline void gemm(const LinearView& layer, const QuantizedRows& x, int rows, float* y) {
    int t = 0;
    for (; t + kTileTokens <= rows; t += kTileTokens) gemm_tokens<kTileTokens>(layer, x, t, y);
    gemm_token_tail<kTileTokens - 1>(layer, x, t, rows, y);
}

}  // namespace
}  // namespace bx::stage
