// The int8 matrix product (activations quantised, widened and packed
// for the register tile; weights widened as they load) with the end of each
// whole tile in SIMD: the four rows' lane sums of an output are totalled into
// one v128 by two rounds of shuffles and additions, and dequantised four
// lanes at a time, instead of sixteen lane extractions, twelve additions and
// four scalar dequantisations.
//
// Why it might pay: a tile's walk over k = 384 is only 24 steps, so the
// work a tile does once, at its end, is not small beside it, and five of a
// layer's six products have k = 384.
//
// Why no bit can change: the totals are integer sums, which any grouping
// gives exactly; each lane's float work is the scalar dequantise(): the same
// conversion (to nearest), the same two multiplications and one addition in
// the same order. The tiles of fewer than four rows keep the scalar end.
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
// int16, each with its own scale s_in, packed for the tile: rows go in groups
// of kTileTokens, and a group stores its rows' values 16 at a time, row after
// row: [row 0: k 0..15][row 1: k 0..15]...[row 0: k 16..31]... So a tile's
// step reads one stretch of memory at fixed offsets. The last group is filled
// up with rows of zeros (scale 0), which no tile stores.
struct QuantizedRows {
    std::vector<std::int16_t> q;  // groups x (cols / 16) x kTileTokens x 16
    std::vector<float> scale;     // one s_in per row (0 for the filling rows)
};

inline std::size_t group_count(int rows) { return static_cast<std::size_t>((rows + kTileTokens - 1) / kTileTokens); }

// Quantises rows x[0..rows) once, before any product, with the stage's SIMD
// quantiser (quantize.hpp, which gives quantize_row_scalar's bytes and scale),
// and widens each row's bytes to int16 into its place in its group. Each
// row's values and scale depend on that row alone, as in stage 00.
inline void quantize_rows(const float* x, int rows, int cols, QuantizedRows& out) {
    out.q.assign(group_count(rows) * kTileTokens * static_cast<std::size_t>(cols), 0);
    out.scale.assign(group_count(rows) * kTileTokens, 0.0f);
    std::vector<std::int8_t> bytes(static_cast<std::size_t>(cols));
    for (int t = 0; t < rows; ++t) {
        out.scale[static_cast<std::size_t>(t)] =
            quant::quantize_row(x + static_cast<std::size_t>(t) * static_cast<std::size_t>(cols), cols, bytes.data());
        std::int16_t* wide = out.q.data() + static_cast<std::size_t>(t / kTileTokens) * kTileTokens * cols +
                             static_cast<std::size_t>(t % kTileTokens) * kStepBytes;
        for (int c = 0; c < cols; c += kStepBytes, wide += kTileTokens * kStepBytes) {
            const v128_t sixteen = wasm_v128_load(bytes.data() + c);
            wasm_v128_store(wide, wasm_i16x8_extend_low_i8x16(sixteen));
            wasm_v128_store(wide + 8, wasm_i16x8_extend_high_i8x16(sixteen));
        }
    }
}

// Eight int8 weights at p, sign-extended to eight int16 lanes by the load
// itself (one x86 vpmovsxbw with a memory operand under V8).
inline v128_t load_widened(const std::int8_t* p) {
    return wasm_i16x8_load8x8(p);
}

// One step of k for an M x N tile (M <= kTileTokens): 16 values of every
// row, all in the group's one stretch at `a`; each weight row's 16 bytes (at
// b, b + k, ...) arrive as two halves already widened to int16.
template <int M, int N>
inline void tile_step(const std::int16_t* a, const std::int8_t* b, int k, v128_t (&sum)[M][N]) {
    v128_t a_low[M], a_high[M];
    for (int r = 0; r < M; ++r) {
        a_low[r] = wasm_v128_load(a + r * kStepBytes);
        a_high[r] = wasm_v128_load(a + r * kStepBytes + 8);
    }
    for (int c = 0; c < N; ++c) {
        const v128_t b_low = load_widened(b + c * k);       // bytes 0..7 as int16
        const v128_t b_high = load_widened(b + c * k + 8);  // bytes 8..15
        for (int r = 0; r < M; ++r)
            sum[r][c] = wasm_i32x4_add(sum[r][c], wasm_i32x4_add(wasm_i32x4_dot_i16x8(a_low[r], b_low),
                                                                 wasm_i32x4_dot_i16x8(a_high[r], b_high)));
    }
}

// sum[r][c]: four int32 lanes whose total is sum_i a[r][i] * b[c][i], for
// the first M rows of the group at `a` (packed, int16) and N weight rows `b`
// (int8, k apart), k a multiple of 16 x kUnroll. Two pointers walk k, the
// group's and the first weight row's, so every load is a pointer plus a
// constant.
template <int M, int N>
inline void tile_walk(const std::int16_t* a, const std::int8_t* b, int k, v128_t (&sum)[M][N]) {
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) sum[r][c] = wasm_i32x4_splat(0);

    const std::int8_t* const b_end = b + k;
    while (b != b_end) {
        // Left to itself, clang keeps this as a loop of kUnroll trips inside
        // the k loop (tile_step is large): an unrolled k loop must be asked for.
#pragma clang loop unroll(full)
        for (int u = 0; u < kUnroll; ++u) {
            tile_step<M, N>(a, b, k, sum);
            a += kTileTokens * kStepBytes;
            b += kStepBytes;
        }
    }
}

// acc[r][c] = sum_i a[r][i] * b[c][i]: the walk, then one horizontal sum per
// element. The tiles of fewer than kTileTokens rows (the last layer's tail)
// end this way.
template <int M, int N>
inline void tile_dot(const std::int16_t* a, const std::int8_t* b, int k, std::int32_t (&acc)[M][N]) {
    v128_t sum[M][N];
    tile_walk<M, N>(a, b, k, sum);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c)
            acc[r][c] = (wasm_i32x4_extract_lane(sum[r][c], 0) + wasm_i32x4_extract_lane(sum[r][c], 1)) +
                        (wasm_i32x4_extract_lane(sum[r][c], 2) + wasm_i32x4_extract_lane(sum[r][c], 3));
}

// The one float step, in the reference order: bias + (float(acc) * s_in) * s_w.
inline float dequantise(std::int32_t acc, float s_in, float bias, float s_w) {
    return bias + (static_cast<float>(acc) * s_in) * s_w;
}

// The totals of four rows' lane sums of one output, s_r (four int32 lanes
// each), as one v128 [total 0, total 1, total 2, total 3]: lanes interleaved
// pairwise and added, twice. These are integer additions, so any grouping
// gives the totals that tile_dot's (l0 + l1) + (l2 + l3) gives.
inline v128_t row_totals(v128_t s0, v128_t s1, v128_t s2, v128_t s3) {
    // [s0 l0+l2, s1 l0+l2, s0 l1+l3, s1 l1+l3], and the same for rows 2 and 3
    const v128_t s01 = wasm_i32x4_add(wasm_i32x4_shuffle(s0, s1, 0, 4, 1, 5), wasm_i32x4_shuffle(s0, s1, 2, 6, 3, 7));
    const v128_t s23 = wasm_i32x4_add(wasm_i32x4_shuffle(s2, s3, 0, 4, 1, 5), wasm_i32x4_shuffle(s2, s3, 2, 6, 3, 7));
    return wasm_i32x4_add(wasm_i32x4_shuffle(s01, s23, 0, 1, 4, 5), wasm_i32x4_shuffle(s01, s23, 2, 3, 6, 7));
}

// dequantise() for four rows of one output, lane r for row r: each lane is
// bias + (float(acc) * s_in) * s_w with the scalar operations in the scalar
// order. f32x4.convert_i32x4_s rounds each lane to nearest, as the scalar
// conversion does.
inline v128_t dequantise4(v128_t acc, v128_t s_in, float bias, float s_w) {
    const v128_t value = wasm_f32x4_convert_i32x4(acc);
    return wasm_f32x4_add(wasm_f32x4_splat(bias), wasm_f32x4_mul(wasm_f32x4_mul(value, s_in), wasm_f32x4_splat(s_w)));
}

// One M x N block of outputs: tokens t..t+M-1 against output rows o..o+N-1.
// A whole tile (M = 4) totals and dequantises each output's four rows in one
// v128 and stores its lanes a row apart; a tile of fewer rows goes element by
// element.
template <int M, int N>
inline void gemm_block(const LinearView& layer, const QuantizedRows& x, int t, int o, float* y) {
    const std::size_t k = static_cast<std::size_t>(layer.cols);
    const std::size_t stride = static_cast<std::size_t>(layer.rows);
    const std::int16_t* a = x.q.data() + static_cast<std::size_t>(t) * k;  // t is a multiple of kTileTokens:
    const std::int8_t* b = layer.w + static_cast<std::size_t>(o) * k;      // its group starts at t * k
    if constexpr (M == 4) {
        v128_t sum[M][N];
        tile_walk<M, N>(a, b, layer.cols, sum);
        const v128_t s_in = wasm_v128_load(x.scale.data() + t);  // the four rows' scales
        for (int c = 0; c < N; ++c) {
            const v128_t out = dequantise4(row_totals(sum[0][c], sum[1][c], sum[2][c], sum[3][c]), s_in,
                                           layer.bias[o + c], layer.scale[o + c]);
            float* column = y + static_cast<std::size_t>(t) * stride + static_cast<std::size_t>(o + c);
            wasm_v128_store32_lane(column, out, 0);
            wasm_v128_store32_lane(column + stride, out, 1);
            wasm_v128_store32_lane(column + 2 * stride, out, 2);
            wasm_v128_store32_lane(column + 3 * stride, out, 3);
        }
    } else {
        std::int32_t acc[M][N];
        tile_dot<M, N>(a, b, layer.cols, acc);
        for (int r = 0; r < M; ++r)
            for (int c = 0; c < N; ++c)
                y[static_cast<std::size_t>(t + r) * stride + static_cast<std::size_t>(o + c)] =
                    dequantise(acc[r][c], x.scale[static_cast<std::size_t>(t + r)], layer.bias[o + c], layer.scale[o + c]);
    }
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
