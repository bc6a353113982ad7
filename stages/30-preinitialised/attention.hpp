// The attention kernels, R query rows at a time, with the weighted sum of
// values done in passes whose accumulators fit the vector registers. Each v128
// of K (four keys at one dimension) and of V (four dimensions of one key) is
// loaded once and used by all R rows. Wasm SIMD128 (common/simd/simd128.hpp),
// in the directions that contain no reordered sum: a score's lanes go across
// keys, each lane summing over d in stage 00's order; P.V's lanes go across d,
// each summing over keys in order.
//
// Why the passes pay: a P.V that keeps all R x 8 accumulators (32 for four
// rows) for the whole walk over the keys needs twice the vector registers
// x86-64 has, so V8 keeps most of them on the stack and every step of j loads
// and stores them. A pass over two blocks of d keeps its 8 in registers; four
// passes walk the keys four times, and each step only loads the values and
// weights it needs.
//
// wasm has no fused multiply-add: f32x4.mul then f32x4.add rounds twice, like
// the scalar `acc + a * b` of stage 00 (native builds: -ffp-contract=off).
//
// Two steps per trip round both inner loops, the score's walk over d and
// P.V's walk over the keys (unroll_count: the compiler writes each step out
// twice and keeps a remainder for an odd count). Under wasmtime with epoch
// interruption each loop's back-edge carries a check whose slow path is a
// call, and a call may overwrite every vector register, so Cranelift keeps the
// eight accumulators of either loop in stack slots: loaded at the top of every
// trip, stored at the bottom. Two steps per trip pay that once for two steps.
// Unrolling reorders nothing: step d + 1 still adds into the same accumulator
// after step d, and clang may not reassociate float additions unless told to
// (we never pass -ffast-math), so every lane's sum is the same chain as before.
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

// Steps of d (scores) and of j (P.V) per trip round their loops; SWEEP in
// CMakeLists.txt builds 1 (the loops rolled) and 4.
constexpr int kStepsPerTrip = 2;

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

// The dot products of R query rows (q_r = q + r * kHidden, one head's 32
// values each) with V x 4 keys from j on, one key per lane: acc[r][v] holds
// keys j + 4v .. j + 4v + 3. Each lane starts at 0.0f and adds q_r[d] *
// k[key][d] for d = 0, 1, ..., 31 in that order: stage 00's sum for that row
// and key.
//
// Why eight keys (V = 2) and a rolled d loop: a lane's sum is a chain of 32
// additions, each waiting for the one before. Four keys would give R = 4
// chains, too few to keep the adder busy while each addition's result
// arrives, and an unrolled d loop lets clang hoist all 4 x 32 query values
// out of the key loop, more than V8 has registers for, so they are reloaded
// from the stack. Eight keys give 8 chains; the rolled loop reads each step's
// four query values where it uses them, and everything else (8 accumulators,
// 2 key vectors, a splatted query value) stays in registers.
template <int R, int V>
inline void dot_keys(const float* q, const float* kt_j, std::size_t keys, v128_t (&acc)[R][V]) {
    for (auto& row : acc)
        for (v128_t& a : row) a = wasm_f32x4_splat(0.0f);
#pragma clang loop unroll_count(kStepsPerTrip)
    for (std::size_t d = 0; d < kHeadDim; ++d) {
        v128_t keys_at_d[V];
        for (int v = 0; v < V; ++v) keys_at_d[v] = wasm_v128_load(kt_j + d * keys + 4 * v);
        for (int r = 0; r < R; ++r) {
            const v128_t q_rd = wasm_f32x4_splat(q[r * kHidden + d]);
            for (int v = 0; v < V; ++v) acc[r][v] = wasm_f32x4_add(acc[r][v], wasm_f32x4_mul(q_rd, keys_at_d[v]));
        }
    }
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
// accumulates, a compile-time parameter. R rows x kValueBlocks accumulators, R splatted weights, the value
// blocks and one product must fit the 15 vector registers V8 allocates on
// x86-64: with R = 4, two blocks take 4 x 2 + 4 + 2 + 1 = 15.
constexpr int kValueBlocks = 2;

// out_r[d] = sum_j p_r[j] * v_j[d] for R rows (p_r = p + r * keys, out_r =
// out + r * kHidden) of one head (v_head[j * kHidden + d]), d < 32, in passes
// over the keys: each pass accumulates kValueBlocks f32x4 blocks of d for the
// R rows, each lane summing over the keys j = 0, 1, ... in order, from 0.0f,
// as stage 00 does per d. A lane's sum never meets another pass's: splitting
// d into passes changes when a sum is computed, not what it adds or in which
// order.
template <int R>
inline void weighted_values_rows(const float* p, const float* v_head, int keys, float* out) {
    constexpr int kBlocks = kHeadDim / 4;
    static_assert(kBlocks % kValueBlocks == 0, "the passes must cover the head's 32 dimensions");
    for (int b0 = 0; b0 < kBlocks; b0 += kValueBlocks) {
        v128_t acc[R][kValueBlocks];
        for (auto& row : acc)
            for (v128_t& block : row) block = wasm_f32x4_splat(0.0f);
#pragma clang loop unroll_count(kStepsPerTrip)
        for (int j = 0; j < keys; ++j) {
            const float* vj = v_head + static_cast<std::size_t>(j) * kHidden + 4 * b0;
            v128_t pj[R];
            for (int r = 0; r < R; ++r) pj[r] = wasm_f32x4_splat(p[r * keys + j]);
            for (int b = 0; b < kValueBlocks; ++b) {
                const v128_t vb = wasm_v128_load(vj + 4 * b);
                for (int r = 0; r < R; ++r) acc[r][b] = wasm_f32x4_add(acc[r][b], wasm_f32x4_mul(pj[r], vb));
            }
        }
        for (int r = 0; r < R; ++r)
            for (int b = 0; b < kValueBlocks; ++b) wasm_v128_store(out + r * kHidden + 4 * (b0 + b), acc[r][b]);
    }
}

}  // namespace
}  // namespace bx::stage
