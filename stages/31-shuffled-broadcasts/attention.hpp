// The attention kernels, R query rows at a time, with the weighted sum of
// values done in passes whose accumulators fit the vector registers. Each v128
// of K (four keys at one dimension) and of V (four dimensions of one key) is
// loaded once and used by all R rows. Wasm SIMD128 (common/simd/simd128.hpp),
// in the directions that contain no reordered sum: a score's lanes go across
// keys, each lane summing over d in stage 00's order; P.V's lanes go across d,
// each summing over keys in order.
//
// What this stage changes is how a row's number reaches four lanes. Every
// step of both loops multiplies a vector by one number of a row, the same in
// every lane: a query value q_r[d] in the scores, a weight p_r[j] in P.V.
// Written as a splat of a float read from memory, clang emits
// v128.load32_splat, and Cranelift makes three x86 instructions of it: a
// scalar load into a general register, a move into a vector register, a
// broadcast. Here the four consecutive numbers a trip needs come in one
// v128.load per row, and each step broadcasts its lane with a shuffle that
// repeats it (broadcast_lane), which Cranelift and V8 both emit as one
// pshufd. A load and a shuffle move bits and compute nothing, so every lane
// holds the float it held before, and every product and sum is unchanged.
//
// Four numbers per load make four steps per trip round both loops, so under
// wasmtime with epoch interruption the check at each back-edge, and the trip
// of the accumulators through stack slots that its call forces, come once per
// four steps. Within a trip, step d + 1 still adds into the same accumulator
// after step d: each sum is the same chain of roundings as stage 00's.
//
// wasm has no fused multiply-add: f32x4.mul then f32x4.add rounds twice, like
// the scalar `acc + a * b` of stage 00 (native builds: -ffp-contract=off).
//
// Everything here is in an unnamed namespace: each file that includes this
// header gets its own copy, so unit tests can include it next to other
// stages' kernels.
#pragma once

#include <cstddef>

#include "common/model/model_view.hpp"
#include "common/simd/simd128.hpp"

namespace bx::stage {
namespace {

// Keys scored per step: two f32x4, a key per lane.
constexpr int kKeysPerStep = 8;


// kt[h][d][j] = k[j][32h + d], for `keys` key rows of kHidden floats. In k, key
// j's dimension d and key j+1's are a whole row apart; in kt the keys of one
// (head, dimension) pair are adjacent, so four of them are one v128 load.
//
// Four keys by four dimensions at a time: four v128 loads (keys j..j+3, each
// at dimensions c..c+3), two rounds of shuffles, four v128 stores (dimensions
// c..c+3, each for keys j..j+3). The first round pairs keys j and j+1, and
// j+2 and j+3, dimension by dimension; the second joins the pairs. Under V8
// each shuffle is one unpack instruction. A transpose moves values and
// computes none, so no bit can change; keys past the last multiple of four
// (none in a 256-key window) go one by one.
inline void transpose_keys(const float* k, int keys, float* kt) {
    const std::size_t n = static_cast<std::size_t>(keys);
    std::size_t j = 0;
    for (; j + 4 <= n; j += 4)
        for (std::size_t c = 0; c < kHidden; c += 4) {
            const float* src = k + j * kHidden + c;
            const v128_t key0 = wasm_v128_load(src), key1 = wasm_v128_load(src + kHidden);
            const v128_t key2 = wasm_v128_load(src + 2 * kHidden), key3 = wasm_v128_load(src + 3 * kHidden);
            // [k0 c, k1 c, k0 c+1, k1 c+1] and [k0 c+2, k1 c+2, k0 c+3, k1 c+3]; the same for keys 2, 3
            const v128_t k01_low = wasm_i32x4_shuffle(key0, key1, 0, 4, 1, 5);
            const v128_t k01_high = wasm_i32x4_shuffle(key0, key1, 2, 6, 3, 7);
            const v128_t k23_low = wasm_i32x4_shuffle(key2, key3, 0, 4, 1, 5);
            const v128_t k23_high = wasm_i32x4_shuffle(key2, key3, 2, 6, 3, 7);
            float* dst = kt + c * n + j;
            wasm_v128_store(dst, wasm_i32x4_shuffle(k01_low, k23_low, 0, 1, 4, 5));           // dimension c
            wasm_v128_store(dst + n, wasm_i32x4_shuffle(k01_low, k23_low, 2, 3, 6, 7));       // c + 1
            wasm_v128_store(dst + 2 * n, wasm_i32x4_shuffle(k01_high, k23_high, 0, 1, 4, 5));  // c + 2
            wasm_v128_store(dst + 3 * n, wasm_i32x4_shuffle(k01_high, k23_high, 2, 3, 6, 7));  // c + 3
        }
    for (; j < n; ++j)
        for (std::size_t c = 0; c < kHidden; ++c) kt[c * n + j] = k[j * kHidden + c];
}

// The number of query rows handled per pass over the keys and values, a
// compile-time parameter: the count that the sweep over query rows found
// fastest here (`make bench-sweep STAGE=06`).
constexpr int kQueryRows = 4;

// Lane L of `four` in all four lanes: one pshufd.
template <int L>
inline v128_t broadcast_lane(v128_t four) {
    return wasm_i32x4_shuffle(four, four, L, L, L, L);
}

// The dot products of R query rows (q_r = q + r * kHidden, one head's 32
// values each) with V x 4 keys from j on, one key per lane: acc[r][v] holds
// keys j + 4v .. j + 4v + 3. Each lane starts at 0.0f and adds q_r[d] *
// k[key][d] for d = 0, 1, ..., 31 in that order: stage 00's sum for that row
// and key.
//
// Eight keys (V = 2) give 8 independent chains, enough to keep the adder busy
// while each addition's result arrives. A trip covers four values of d, whose
// query values are one load per row (q4[r] = q_r[d .. d+3]).
template <int R, int V, int L>
inline void dot_step(const v128_t (&q4)[R], const float* kt_d, std::size_t keys, v128_t (&acc)[R][V]) {
    v128_t keys_at_d[V];
    for (int v = 0; v < V; ++v) keys_at_d[v] = wasm_v128_load(kt_d + L * keys + 4 * v);
    for (int r = 0; r < R; ++r) {
        const v128_t q_rd = broadcast_lane<L>(q4[r]);
        for (int v = 0; v < V; ++v) acc[r][v] = wasm_f32x4_add(acc[r][v], wasm_f32x4_mul(q_rd, keys_at_d[v]));
    }
}
template <int R, int V>
inline void dot_keys(const float* q, const float* kt_j, std::size_t keys, v128_t (&acc)[R][V]) {
    static_assert(kHeadDim % 4 == 0, "a trip takes four dimensions");
    for (auto& row : acc)
        for (v128_t& a : row) a = wasm_f32x4_splat(0.0f);
    // snippet: scores-four-per-load
    // Rolled: written out whole, clang hoists all 32 query loads per row out
    // of the caller's walk over the keys, more values than there are registers.
#pragma clang loop unroll(disable)
    for (std::size_t d = 0; d < kHeadDim; d += 4) {
        v128_t q4[R];
        for (int r = 0; r < R; ++r) q4[r] = wasm_v128_load(q + r * kHidden + d);
        const float* kt_d = kt_j + d * keys;
        dot_step<R, V, 0>(q4, kt_d, keys, acc);
        dot_step<R, V, 1>(q4, kt_d, keys, acc);
        dot_step<R, V, 2>(q4, kt_d, keys, acc);
        dot_step<R, V, 3>(q4, kt_d, keys, acc);
    }
    // end-snippet
}

// scores[r * keys + j] = (q_r . k_j) * scale for R rows and every key j <
// keys (a multiple of 4), reading one head's block of kt (kt_head[d * keys +
// j]): eight keys per step, then four if four are left.
template <int V, int R>
inline void score_step(const float* q, const float* kt_head, std::size_t n, std::size_t j, v128_t scale4,
                       float* scores) {
    v128_t dot[R][V];
    dot_keys<R, V>(q, kt_head + j, n, dot);
    for (int r = 0; r < R; ++r)
        for (int v = 0; v < V; ++v) wasm_v128_store(scores + r * n + j + 4 * v, wasm_f32x4_mul(dot[r][v], scale4));
}
template <int R>
inline void score_rows(const float* q, const float* kt_head, int keys, float scale, float* scores) {
    const std::size_t n = static_cast<std::size_t>(keys);
    const v128_t scale4 = wasm_f32x4_splat(scale);
    std::size_t j = 0;
    for (; j + kKeysPerStep <= n; j += kKeysPerStep) score_step<2, R>(q, kt_head, n, j, scale4, scores);
    if (j < n) score_step<1, R>(q, kt_head, n, j, scale4, scores);
}

// How many 4-wide blocks of a head's 32 dimensions one pass over the keys
// accumulates, a compile-time parameter (BX_VALUE_BLOCKS; SWEEP in
// CMakeLists.txt builds 1 and 4 beside 2). A pass holds R x kValueBlocks
// accumulators, R vectors of four weights, a value block and a broadcast
// weight: with R = 4 and two blocks, 8 + 4 + 2 + 1 + 1 (the product) = 16, all
// that x86-64 has, and the weights of a trip are read once per pass, so more
// blocks read them fewer times.
#ifndef BX_VALUE_BLOCKS
#define BX_VALUE_BLOCKS 2
#endif
constexpr int kValueBlocks = BX_VALUE_BLOCKS;

// A mistake kept buildable (VARIANT=four-key-sums, which the logit check must
// fail): with four keys' weights in one register, a trip looks like a
// four-term dot product, and adding its four products in a pair tree before
// they meet the accumulator cuts the chain of dependent additions by four.
// It adds the same terms in another order, so most sums round differently.
#ifndef BX_VARIANT_FOUR_KEY_SUMS
#define BX_VARIANT_FOUR_KEY_SUMS 0
#endif

// out_r[d] = sum_j p_r[j] * v_j[d] for R rows (p_r = p + r * keys, out_r =
// out + r * kHidden) of one head (v_head[j * kHidden + d]), d < 32, in passes
// over the keys: each pass accumulates kValueBlocks f32x4 blocks of d for the
// R rows, each lane summing over the keys j = 0, 1, ... in order, from 0.0f,
// as stage 00 does per d. A lane's sum never meets another pass's: splitting
// d into passes changes when a sum is computed, not what it adds or in which
// order. Four keys per trip, their weights one load per row; keys past the
// last multiple of four (none in a 256-key window) one at a time.
template <int R, int L>
inline void weighted_step(const v128_t (&p4)[R], const float* vj, v128_t (&acc)[R][kValueBlocks]) {
    for (int b = 0; b < kValueBlocks; ++b) {
        const v128_t vb = wasm_v128_load(vj + L * kHidden + 4 * b);
        for (int r = 0; r < R; ++r) acc[r][b] = wasm_f32x4_add(acc[r][b], wasm_f32x4_mul(broadcast_lane<L>(p4[r]), vb));
    }
}
#if BX_VARIANT_FOUR_KEY_SUMS
template <int R>
inline void weighted_trip_summed(const v128_t (&p4)[R], const float* vj, v128_t (&acc)[R][kValueBlocks]) {
    for (int b = 0; b < kValueBlocks; ++b) {
        const v128_t v0 = wasm_v128_load(vj + 4 * b), v1 = wasm_v128_load(vj + kHidden + 4 * b);
        const v128_t v2 = wasm_v128_load(vj + 2 * kHidden + 4 * b), v3 = wasm_v128_load(vj + 3 * kHidden + 4 * b);
        for (int r = 0; r < R; ++r) {
            const v128_t first = wasm_f32x4_add(wasm_f32x4_mul(broadcast_lane<0>(p4[r]), v0), wasm_f32x4_mul(broadcast_lane<1>(p4[r]), v1));
            const v128_t second = wasm_f32x4_add(wasm_f32x4_mul(broadcast_lane<2>(p4[r]), v2), wasm_f32x4_mul(broadcast_lane<3>(p4[r]), v3));
            acc[r][b] = wasm_f32x4_add(acc[r][b], wasm_f32x4_add(first, second));
        }
    }
}
#endif
template <int R>
inline void weighted_values_rows(const float* p, const float* v_head, int keys, float* out) {
    constexpr int kBlocks = kHeadDim / 4;
    static_assert(kBlocks % kValueBlocks == 0, "the passes must cover the head's 32 dimensions");
    for (int b0 = 0; b0 < kBlocks; b0 += kValueBlocks) {
        v128_t acc[R][kValueBlocks];
        for (auto& row : acc)
            for (v128_t& block : row) block = wasm_f32x4_splat(0.0f);
        int j = 0;
        // snippet: values-four-per-load
        // Rolled: each trip is already four steps (and the back-edge's check with them).
#pragma clang loop unroll(disable)
        for (; j + 4 <= keys; j += 4) {
            v128_t p4[R];
            for (int r = 0; r < R; ++r) p4[r] = wasm_v128_load(p + r * keys + j);
            const float* vj = v_head + static_cast<std::size_t>(j) * kHidden + 4 * b0;
#if BX_VARIANT_FOUR_KEY_SUMS
            weighted_trip_summed<R>(p4, vj, acc);
            continue;
#endif
            weighted_step<R, 0>(p4, vj, acc);
            weighted_step<R, 1>(p4, vj, acc);
            weighted_step<R, 2>(p4, vj, acc);
            weighted_step<R, 3>(p4, vj, acc);
        }
        // end-snippet
        for (; j < keys; ++j) {
            const float* vj = v_head + static_cast<std::size_t>(j) * kHidden + 4 * b0;
            for (int b = 0; b < kValueBlocks; ++b) {
                const v128_t vb = wasm_v128_load(vj + 4 * b);
                for (int r = 0; r < R; ++r)
                    acc[r][b] = wasm_f32x4_add(acc[r][b], wasm_f32x4_mul(wasm_f32x4_splat(p[r * keys + j]), vb));
            }
        }
        for (int r = 0; r < R; ++r)
            for (int b = 0; b < kValueBlocks; ++b) wasm_v128_store(out + r * kHidden + 4 * (b0 + b), acc[r][b]);
    }
}

}  // namespace
}  // namespace bx::stage
