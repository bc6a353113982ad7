// The attention kernels, R query rows at a time. Each v128 of K (four keys at
// one dimension) and of V (four dimensions of one key) is loaded once and used
// by all R rows, and one loop back-edge serves R rows. Wasm SIMD128
// (common/simd/simd128.hpp), in the directions that contain no reordered sum:
// a score's lanes go across keys, each lane summing over d in stage 00's
// order; P.V's lanes go across d, each summing over keys in order. Processing
// several rows together changes which values sit in which register, not any
// row's operations or their order.
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

// out_r[d] = sum_j p_r[j] * v_j[d] for R rows (p_r = p + r * keys, out_r =
// out + r * kHidden) of one head (v_head[j * kHidden + d]), d < 32: per row,
// eight f32x4 accumulators across d, each lane summing over the keys j = 0,
// 1, ... in order, from 0.0f, as stage 00 does per d. Each v128 of a value
// row is loaded once for all R rows.
template <int R>
inline void weighted_values_rows(const float* p, const float* v_head, int keys, float* out) {
    constexpr int kBlocks = kHeadDim / 4;
    v128_t acc[R][kBlocks];
    for (auto& row : acc)
        for (v128_t& block : row) block = wasm_f32x4_splat(0.0f);
    for (int j = 0; j < keys; ++j) {
        const float* vj = v_head + static_cast<std::size_t>(j) * kHidden;
        v128_t pj[R];
        for (int r = 0; r < R; ++r) pj[r] = wasm_f32x4_splat(p[r * keys + j]);
        for (int b = 0; b < kBlocks; ++b) {
            const v128_t vb = wasm_v128_load(vj + 4 * b);
            for (int r = 0; r < R; ++r) acc[r][b] = wasm_f32x4_add(acc[r][b], wasm_f32x4_mul(pj[r], vb));
        }
    }
    for (int r = 0; r < R; ++r)
        for (int b = 0; b < kBlocks; ++b) wasm_v128_store(out + r * kHidden + 4 * b, acc[r][b]);
}

}  // namespace
}  // namespace bx::stage
