// The int8 matrix product on a tile of eight tokens by eight outputs: each
// step's widened weights serve eight tokens' products.
//
// Each lane of a tile's accumulator is one output: a v128 of weights holds one
// pair of k for four output rows (packed at build time: packed_weights.hpp),
// and a token's pair of activations is repeated over the four lanes. A tile
// of 8 tokens x 8 outputs walks k, two pairs of k per trip round the loop,
// and at its end each of its sixteen accumulators holds four outputs' sums,
// dequantised four lanes at a time.
//
// Why eight tokens. Under wasmtime with epoch interruption (what Spin runs),
// the check at the loop's back-edge may call into the runtime, and that call
// sends every accumulator through the stack once per trip, whatever the
// tile's size: a load and a store per accumulator per trip. So the sixteen
// vector registers no longer bound the tile the way they do without the
// check. What a bigger tile changes is everything else: the two widening
// loads of weights per step are shared by 16 products instead of 8, and the
// accumulators' round trips through memory form sixteen independent chains
// per trip instead of eight, which the core overlaps with the products. The
// census of the loop (make cranelift-loop) has fewer instructions per
// vpmaddwd, with the same stack moves per vpmaddwd. Under V8, which keeps the
// accumulators in registers, sixteen are more than it has, and some spill.
//
// Each step reads the group's pairs for one pair of k with two 16-byte loads
// (four tokens each: [token 0: k, k+1][token 1: k, k+1]...[token 3]) and
// spreads each token's 32-bit pair over the four lanes with a shuffle.
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

// The tile, tokens x (4 x kBlockVectors) outputs, as compile-time
// parameters: 8 x 8 needs 16 accumulators, which wasmtime keeps in stack
// slots anyway (see above), and two weight vectors, two vectors of pairs and
// the spreads in registers.
constexpr int kTileTokens = 8;
constexpr int kBlockVectors = 2;
constexpr int kBlockOutputs = 4 * kBlockVectors;  // the packing's block (packed_weights.hpp)

// Values of k that quantize_rows() widens per step: one v128 of int8 values.
// Every layer's k (384 or 1536) is a multiple of it; the model reader
// guarantees those shapes.
constexpr int kStepBytes = 16;

// Pairs of k per trip round the walk's loop. Every k is a multiple of
// kStepBytes, that is of 8 pairs, so a trip of 1, 2, 4 or 8 pairs never
// crosses a row's end.
constexpr int kPairsPerTrip = 2;
static_assert((kStepBytes / 2) % kPairsPerTrip == 0, "a trip must end where a row's pairs end");

// Activation rows quantised to int8 (values in [-127, 127]) and stored as
// int16, each with its own scale s_in, packed for the tile: rows go in groups
// of kTileTokens, and a group stores its rows' values two at a time, row
// after row: [row 0: k 0, 1][row 1: k 0, 1]...[row 7: k 0, 1][row 0: k 2, 3]...
// So one step of the tile (a pair of k) finds the group's pairs side by
// side, 4 bytes each, four tokens to a v128. The last group is filled up with
// rows of zeros (scale 0), which no tile stores.
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

// Four tokens' pairs fill one v128, so a tile is a whole number of fours.
static_assert(kTileTokens % 4 == 0, "the tile's tokens come in fours, one v128 of pairs each");

constexpr int kFourStride = 8;  // int16 values: four tokens' pairs

// Token R's pair of k, from four tokens' pairs, repeated over the lanes.
template <int R>
inline v128_t spread_pair(v128_t pairs) {
    return wasm_i32x4_shuffle(pairs, pairs, R, R, R, R);
}

// One pair of k for the tile: for each four of tokens one 16-byte load of
// their pairs, each pair spread over the four lanes, times the block's
// weights for that pair, which are widened once for all eight tokens.
inline void tile_step(const std::int16_t* a, const std::int8_t* b, v128_t (&sum)[kTileTokens][kBlockVectors]) {
    v128_t w[kBlockVectors];
    for (int v = 0; v < kBlockVectors; ++v) w[v] = load_widened(b + 8 * v);
    for (int four = 0; four < kTileTokens / 4; ++four) {
        const v128_t pairs = wasm_v128_load(a + kFourStride * four);
        const v128_t spread[4] = {spread_pair<0>(pairs), spread_pair<1>(pairs), spread_pair<2>(pairs),
                                  spread_pair<3>(pairs)};
        for (int r = 0; r < 4; ++r)
            for (int v = 0; v < kBlockVectors; ++v)
                sum[4 * four + r][v] = wasm_i32x4_add(sum[4 * four + r][v], wasm_i32x4_dot_i16x8(spread[r], w[v]));
    }
}

// int16 values from one pair of the group's activations to the next: the
// group's kTileTokens tokens store their pairs side by side.
constexpr int kPairStride = 2 * kTileTokens;

constexpr int pair_offset(int p) {
    return p * kPairStride;
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
    // One trip: kPairsPerTrip pairs of k, written out by the compiler (unroll
    // full), so the back-edge and its epoch check come once per trip.
#pragma clang loop unroll(disable)
    for (const std::int8_t* const b_end = b + kBlockOutputs * k; b != b_end;
         a += kPairsPerTrip * kPairStride, b += kPairsPerTrip * 2 * kBlockOutputs) {
#pragma clang loop unroll(full)
        for (int p = 0; p < kPairsPerTrip; ++p) tile_step(a + pair_offset(p), b + p * 2 * kBlockOutputs, sum);
    }
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
