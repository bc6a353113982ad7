// The int8 matrix product, its walk over k taken two pairs of k per trip
// round the loop, so that the runtime's check at the loop's back-edge runs
// half as often.
//
// Each lane of a tile's accumulator is one output: a v128 of weights holds one
// pair of k for four output rows (packed at build time: packed_weights.hpp),
// and a token's pair of activations is repeated over the four lanes by one
// 32-bit load. A tile of 4 tokens x 8 outputs walks k, and at its end each
// accumulator holds four outputs' sums, dequantised four lanes at a time.
//
// Why the walk is unrolled. Spin runs the component on wasmtime with epoch
// interruption on: Cranelift compiles a check of the engine's epoch into every
// loop back-edge, and the check's slow path is a call. A call may overwrite
// every vector register, so Cranelift keeps values that live across the
// back-edge (the tile's eight accumulators) in stack slots: it reloads all
// eight at the top of every trip and stores them at the bottom. With one pair
// per trip that is sixteen memory moves beside eight pmaddwd. Two pairs per
// trip pay the same sixteen for sixteen pmaddwd; the accumulators stay in
// registers between the two pairs. Under V8 the longer body gains nothing
// and is slower (the chapter times both runtimes).
//
// Why no bit can change: the integer products are stage 00's and their sums
// are added in another order, which integers allow (no sum comes near 2^31:
// 1536 x 127 x 127 < 2^25); each lane's float work is the scalar
// dequantise(): the same conversion, two multiplications and one addition in
// the same order.
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

// The register tile, tokens x (4 x kBlockVectors) outputs, as compile-time
// parameters. 4 x 8 needs 8 accumulators, 2 weight vectors, a token's pair
// and a product: at least 12 of the 15 vector registers V8 allocates on
// x86-64.
constexpr int kTileTokens = 4;
constexpr int kBlockVectors = 2;
constexpr int kBlockOutputs = 4 * kBlockVectors;  // the packing's block (packed_weights.hpp)

// Values of k that quantize_rows() widens per step: one v128 of int8 values.
// Every layer's k (384 or 1536) is a multiple of it; the model reader
// guarantees those shapes.
constexpr int kStepBytes = 16;

// Pairs of k per trip round the walk's loop. Every k is a multiple of
// kStepBytes, that is of 8 pairs, so a trip of 1, 2, 4 or 8 pairs never
// crosses a row's end; SWEEP in CMakeLists.txt builds 1, 4 and 8.
#ifndef BX_PAIRS_PER_TRIP
#define BX_PAIRS_PER_TRIP 2
#endif
constexpr int kPairsPerTrip = BX_PAIRS_PER_TRIP;
static_assert((kStepBytes / 2) % kPairsPerTrip == 0, "a trip must end where a row's pairs end");

// Activation rows quantised to int8 (values in [-127, 127]) and stored as
// int16, each with its own scale s_in, packed for the tile: rows go in groups
// of kTileTokens, and a group stores its rows' values two at a time, row
// after row: [row 0: k 0, 1][row 1: k 0, 1]...[row 3: k 0, 1][row 0: k 2, 3]...
// So one step of the tile (a pair of k) finds the group's pairs side by
// side, 4 bytes each, at fixed offsets. The last group is filled up with rows of zeros
// (scale 0), which no tile stores.
struct QuantizedRows {
    std::vector<std::int16_t> q;  // groups x (cols / 2) x kTileTokens x 2
    std::vector<float> scale;     // one s_in per row (0 for the filling rows)
};

inline std::size_t group_count(int rows) { return static_cast<std::size_t>((rows + kTileTokens - 1) / kTileTokens); }

// Quantises rows x[0..rows) once, before any product, with the stage's SIMD
// quantiser (quantize.hpp, which gives quantize_row_scalar's bytes and scale),
// and widens each row's bytes to int16 into its place in its group, a pair
// (one 32-bit lane) at a time. Each row's values and scale depend on that row
// alone, as in stage 00.
inline void quantize_rows(const float* x, int rows, int cols, QuantizedRows& out) {
    out.q.assign(group_count(rows) * kTileTokens * static_cast<std::size_t>(cols), 0);
    out.scale.assign(group_count(rows) * kTileTokens, 0.0f);
    std::vector<std::int8_t> bytes(static_cast<std::size_t>(cols));
    for (int t = 0; t < rows; ++t) {
        out.scale[static_cast<std::size_t>(t)] =
            quant::quantize_row(x + static_cast<std::size_t>(t) * static_cast<std::size_t>(cols), cols, bytes.data());
        std::int16_t* wide = out.q.data() + static_cast<std::size_t>(t / kTileTokens) * kTileTokens * cols +
                             static_cast<std::size_t>(t % kTileTokens) * 2;
        for (int c = 0; c < cols; c += kStepBytes, wide += 8 * kTileTokens * 2) {  // 8 pairs per 16 values
            const v128_t sixteen = wasm_v128_load(bytes.data() + c);
            const v128_t low = wasm_i16x8_extend_low_i8x16(sixteen), high = wasm_i16x8_extend_high_i8x16(sixteen);
            wasm_v128_store32_lane(wide + 0 * kTileTokens * 2, low, 0);
            wasm_v128_store32_lane(wide + 1 * kTileTokens * 2, low, 1);
            wasm_v128_store32_lane(wide + 2 * kTileTokens * 2, low, 2);
            wasm_v128_store32_lane(wide + 3 * kTileTokens * 2, low, 3);
            wasm_v128_store32_lane(wide + 4 * kTileTokens * 2, high, 0);
            wasm_v128_store32_lane(wide + 5 * kTileTokens * 2, high, 1);
            wasm_v128_store32_lane(wide + 6 * kTileTokens * 2, high, 2);
            wasm_v128_store32_lane(wide + 7 * kTileTokens * 2, high, 3);
        }
    }
}

// Eight int8 weights at p, sign-extended to eight int16 lanes by the load
// itself (one x86 vpmovsxbw with a memory operand under V8).
inline v128_t load_widened(const std::int8_t* p) {
    return wasm_i16x8_load8x8(p);
}

// One pair of k for the tile: each token's pair (one 32-bit load, repeated
// over the four lanes) times the block's weights for that pair, four
// outputs per widening load.
inline void tile_step(const std::int16_t* a, const std::int8_t* b, v128_t (&sum)[kTileTokens][kBlockVectors]) {
    v128_t w[kBlockVectors];
    for (int v = 0; v < kBlockVectors; ++v) w[v] = load_widened(b + 8 * v);
    for (int r = 0; r < kTileTokens; ++r) {
        const v128_t pair = wasm_v128_load32_splat(a + 2 * r);
        for (int v = 0; v < kBlockVectors; ++v)
            sum[r][v] = wasm_i32x4_add(sum[r][v], wasm_i32x4_dot_i16x8(pair, w[v]));
    }
}

// int16 values from one pair of the group's activations to the next: the
// group's kTileTokens tokens store their pairs side by side.
constexpr int kPairStride = 2 * kTileTokens;

// A mistake kept buildable (VARIANT=pair-stride-of-one-token, which the logit
// check must fail): the trip's p-th pair looked for 2p values on, as if the
// activations were one token's alone; from the second pair of each trip on,
// the tile multiplies another token's pair, or another pair of k.
#ifndef BX_VARIANT_PAIR_STRIDE_OF_ONE_TOKEN
#define BX_VARIANT_PAIR_STRIDE_OF_ONE_TOKEN 0
#endif
constexpr int pair_offset(int p) {
#if BX_VARIANT_PAIR_STRIDE_OF_ONE_TOKEN
    return 2 * p;
#else
    return p * kPairStride;
#endif
}

// The one float step, in the reference order: bias + (float(acc) * s_in) * s_w.
inline float dequantise(std::int32_t acc, float s_in, float bias, float s_w) {
    return bias + (static_cast<float>(acc) * s_in) * s_w;
}

// dequantise() for four outputs of one token, lane j for output o + j.
inline v128_t dequantise4(v128_t acc, float s_in, v128_t bias, v128_t s_w) {
    const v128_t value = wasm_f32x4_convert_i32x4(acc);
    return wasm_f32x4_add(bias, wasm_f32x4_mul(wasm_f32x4_mul(value, wasm_f32x4_splat(s_in)), s_w));
}

// A whole group of tokens from t (rows past `rows` are the group's zero
// filling: computed, not stored) against the block of outputs from o. A
// block past the last output (the classifier's 81 = 10 x 8 + 1) is filled
// with zero weights; its lanes past the end are not stored.
inline void gemm_block(const LinearView& layer, const std::int8_t* packed, const QuantizedRows& x, int t, int o,
                       int rows, float* y) {
    const std::size_t k = static_cast<std::size_t>(layer.cols);
    const std::size_t stride = static_cast<std::size_t>(layer.rows);
    const std::int16_t* a = x.q.data() + static_cast<std::size_t>(t) * k;
    const std::int8_t* b = packed + static_cast<std::size_t>(o) * k;
    v128_t sum[kTileTokens][kBlockVectors];
    for (auto& row : sum)
        for (v128_t& s : row) s = wasm_i32x4_splat(0);
    // snippet: unrolled-walk
    // One trip: kPairsPerTrip pairs of k, written out by the compiler (unroll
    // full), so the back-edge and its epoch check come once per trip.
#pragma clang loop unroll(disable)
    for (const std::int8_t* const b_end = b + kBlockOutputs * k; b != b_end;
         a += kPairsPerTrip * kPairStride, b += kPairsPerTrip * 2 * kBlockOutputs) {
#pragma clang loop unroll(full)
        for (int p = 0; p < kPairsPerTrip; ++p) tile_step(a + pair_offset(p), b + p * 2 * kBlockOutputs, sum);
    }
    // end-snippet
    const int outputs = layer.rows - o < kBlockOutputs ? layer.rows - o : kBlockOutputs;
    for (int r = 0; r < kTileTokens && t + r < rows; ++r) {
        const float s_in = x.scale[static_cast<std::size_t>(t + r)];
        float* out = y + static_cast<std::size_t>(t + r) * stride + static_cast<std::size_t>(o);
        if (outputs == kBlockOutputs) {
            for (int h = 0; h < kBlockVectors; ++h)
                wasm_v128_store(out + 4 * h, dequantise4(sum[r][h], s_in, wasm_v128_load(layer.bias + o + 4 * h),
                                                          wasm_v128_load(layer.scale + o + 4 * h)));
        } else {
            std::int32_t acc[kBlockOutputs];
            for (int h = 0; h < kBlockVectors; ++h) wasm_v128_store(acc + 4 * h, sum[r][h]);
            for (int j = 0; j < outputs; ++j) out[j] = dequantise(acc[j], s_in, layer.bias[o + j], layer.scale[o + j]);
        }
    }
}

// y[t][o] for every token t < rows and output o.
inline void gemm(const LinearView& layer, const std::int8_t* packed, const QuantizedRows& x, int rows, float* y) {
    for (int t = 0; t < rows; t += kTileTokens)
        for (int o = 0; o < layer.rows; o += kBlockOutputs) gemm_block(layer, packed, x, t, o, rows, y);
}

}  // namespace
}  // namespace bx::stage
