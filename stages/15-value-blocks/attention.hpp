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
// Everything here is in an unnamed namespace: each file that includes this
// header gets its own copy, so unit tests can include it next to other
// stages' kernels.
#pragma once

#include <cstddef>
#include <utility>

#include "common/model/model_view.hpp"
#include "common/simd/simd128.hpp"

namespace bx::stage {
namespace {

// Keys scored per step: one f32x4, a key per lane.
constexpr int kKeysPerStep = 4;

// kt[h][d][j] = k[j][32h + d], for `keys` key rows of kHidden floats. In k, key
// j's dimension d and key j+1's are a whole row apart; in kt the keys of one
// (head, dimension) pair are adjacent, so four of them are one v128 load.
inline void transpose_keys(const float* k, int keys, float* kt) {
    const std::size_t n = static_cast<std::size_t>(keys);
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t c = 0; c < kHidden; ++c) kt[c * n + j] = k[j * kHidden + c];
}

// The number of query rows handled per pass over the keys and values, a
// compile-time parameter: the count that the sweep over query rows found
// fastest here (`make bench-sweep STAGE=06`).
constexpr int kQueryRows = 4;

// The dot products of R query rows (q_r = q + r * kHidden, one head's 32
// values each) with keys j..j+3, one key per lane, one accumulator per row.
// Each lane starts at 0.0f and adds q_r[d] * k[j+lane][d] for d = 0, 1, ...,
// 31 in that order: stage 00's sum for that row and key. The fold over D
// unrolls the d loop; each load of kt_j (dimension D of keys j..j+3) is used
// by all R rows.
template <int R, std::size_t... D>
inline void dot_4_keys(const float* q, const float* kt_j, std::size_t keys, v128_t (&acc)[R],
                       std::index_sequence<D...>) {
    for (v128_t& a : acc) a = wasm_f32x4_splat(0.0f);
    auto step = [&](std::size_t d) {
        const v128_t keys_at_d = wasm_v128_load(kt_j + d * keys);
        for (int r = 0; r < R; ++r)
            acc[r] = wasm_f32x4_add(acc[r], wasm_f32x4_mul(wasm_f32x4_splat(q[r * kHidden + d]), keys_at_d));
    };
    (step(D), ...);
}

// scores[r * keys + j] = (q_r . k_j) * scale for R rows and every key j <
// keys (a multiple of 4), reading one head's block of kt (kt_head[d * keys +
// j]). One loop back-edge per four keys for all R rows.
template <int R>
inline void score_rows(const float* q, const float* kt_head, int keys, float scale, float* scores) {
    const std::size_t n = static_cast<std::size_t>(keys);
    const v128_t scale4 = wasm_f32x4_splat(scale);
    for (std::size_t j = 0; j < n; j += kKeysPerStep) {
        v128_t dot[R];
        dot_4_keys<R>(q, kt_head + j, n, dot, std::make_index_sequence<kHeadDim>{});
        for (int r = 0; r < R; ++r) wasm_v128_store(scores + r * n + j, wasm_f32x4_mul(dot[r], scale4));
    }
}

// How many 4-wide blocks of a head's 32 dimensions one pass over the keys
// accumulates, a compile-time parameter (SWEEP in CMakeLists.txt times the
// others). R rows x kValueBlocks accumulators, R splatted weights, the value
// blocks and one product must fit the 15 vector registers V8 allocates on
// x86-64: with R = 4, two blocks take 4 x 2 + 4 + 2 + 1 = 15.
#ifndef BX_VALUE_BLOCKS
#define BX_VALUE_BLOCKS 2
#endif
constexpr int kValueBlocks = BX_VALUE_BLOCKS;

// A mistake kept buildable (VARIANT=split-keys, which the logit check must
// fail): a tempting way to shorten the chain of dependent additions, summing
// the even and the odd keys apart and adding the two sums at the end. Every
// output is within a few ulps of the right one, and most are not its bits.
#ifndef BX_VARIANT_SPLIT_KEYS
#define BX_VARIANT_SPLIT_KEYS 0
#endif
#if BX_VARIANT_SPLIT_KEYS
template <int R>
inline void weighted_values_split_keys(const float* p, const float* v_head, int keys, float* out) {
    for (int r = 0; r < R; ++r)
        for (int b = 0; b < kHeadDim / 4; ++b) {
            v128_t even = wasm_f32x4_splat(0.0f), odd = wasm_f32x4_splat(0.0f);
            for (int j = 0; j + 1 < keys; j += 2) {
                const float* vj = v_head + static_cast<std::size_t>(j) * kHidden + 4 * b;
                even = wasm_f32x4_add(even, wasm_f32x4_mul(wasm_f32x4_splat(p[r * keys + j]), wasm_v128_load(vj)));
                odd = wasm_f32x4_add(odd, wasm_f32x4_mul(wasm_f32x4_splat(p[r * keys + j + 1]),
                                                         wasm_v128_load(vj + kHidden)));
            }
            wasm_v128_store(out + r * kHidden + 4 * b, wasm_f32x4_add(even, odd));
        }
}
#endif

// snippet: value-blocks
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
#if BX_VARIANT_SPLIT_KEYS
    return weighted_values_split_keys<R>(p, v_head, keys, out);
#endif
    for (int b0 = 0; b0 < kBlocks; b0 += kValueBlocks) {
        v128_t acc[R][kValueBlocks];
        for (auto& row : acc)
            for (v128_t& block : row) block = wasm_f32x4_splat(0.0f);
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
// end-snippet

}  // namespace
}  // namespace bx::stage
