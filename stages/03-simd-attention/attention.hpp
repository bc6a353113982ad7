// The attention kernels: wasm SIMD128 (common/simd/simd128.hpp) in the
// directions that contain no reordered sum.
//
// A score is a sum over the head dimension d, and float addition is not
// associative, so spreading d across lanes changes the bits (that variant is
// below, behind BX_VARIANT_DLANES, because it fails the check). Different keys
// are independent sums, though: with one key per lane, every lane performs
// stage 00's additions for its key in stage 00's order. For P.V it is the
// other way round: the sum runs over keys, the 32 head dimensions are
// independent, so the lanes go across d and each sums over keys in order.
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

// snippet: transpose-k
// kt[h][d][j] = k[j][32h + d], for `keys` key rows of kHidden floats. In k, key
// j's dimension d and key j+1's are a whole row apart; in kt the keys of one
// (head, dimension) pair are adjacent, so four of them are one v128 load.
inline void transpose_keys(const float* k, int keys, float* kt) {
    const std::size_t n = static_cast<std::size_t>(keys);
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t c = 0; c < kHidden; ++c) kt[c * n + j] = k[j * kHidden + c];
}
// end-snippet

// snippet: scores-4-keys
// The dot products of q (one head's 32 values) with keys j..j+3, one key per
// lane. Each lane starts at 0.0f and adds q[d] * k[j+lane][d] for d = 0, 1,
// ..., 31 in that order: stage 00's sum for that key. The fold over D unrolls
// the d loop completely (kt_j[D * keys] is dimension D of keys j..j+3).
template <std::size_t... D>
inline v128_t dot_4_keys(const float* q, const float* kt_j, std::size_t keys, std::index_sequence<D...>) {
    v128_t acc = wasm_f32x4_splat(0.0f);
    ((acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wasm_f32x4_splat(q[D]), wasm_v128_load(kt_j + D * keys)))), ...);
    return acc;
}

// scores[j] = (q . k_j) * scale for every key j < keys (a multiple of 4),
// reading one head's block of kt (kt_head[d * keys + j]). One loop back-edge
// per four keys, instead of one per multiply.
inline void score_4_keys(const float* q, const float* kt_head, int keys, float scale, float* scores) {
    const std::size_t n = static_cast<std::size_t>(keys);
    const v128_t scale4 = wasm_f32x4_splat(scale);
    for (std::size_t j = 0; j < n; j += kKeysPerStep) {
        const v128_t dot = dot_4_keys(q, kt_head + j, n, std::make_index_sequence<kHeadDim>{});
        wasm_v128_store(scores + j, wasm_f32x4_mul(dot, scale4));
    }
}
// end-snippet

// snippet: pv
// out[d] = sum_j p[j] * v_j[d] for one head (v_head[j * kHidden + d]), d < 32:
// eight f32x4 accumulators side by side across d, each lane summing over the
// keys j = 0, 1, ... in order, starting from 0.0f, as stage 00 does per d.
inline void weighted_values(const float* p, const float* v_head, int keys, float* out) {
    constexpr int kBlocks = kHeadDim / 4;
    v128_t acc[kBlocks];
    for (v128_t& block : acc) block = wasm_f32x4_splat(0.0f);
    for (int j = 0; j < keys; ++j) {
        const v128_t pj = wasm_f32x4_splat(p[j]);
        const float* vj = v_head + static_cast<std::size_t>(j) * kHidden;
        for (int b = 0; b < kBlocks; ++b) acc[b] = wasm_f32x4_add(acc[b], wasm_f32x4_mul(pj, wasm_v128_load(vj + 4 * b)));
    }
    for (int b = 0; b < kBlocks; ++b) wasm_v128_store(out + 4 * b, acc[b]);
}
// end-snippet

#if defined(BX_VARIANT_DLANES)
// snippet: d-lanes-scores
// THE FAILED VARIANT (kept to show why it fails the check): lanes along d.
// Lane l sums q[d] * k_j[d] for d = l, l+4, ..., l+28, and the four partial
// sums are added at the end. The same products, but added in another order
// than stage 00's d = 0, 1, ..., 31, so some scores round differently.
inline void score_d_lanes(const float* q, const float* k_head, int keys, float scale, float* scores) {
    for (int j = 0; j < keys; ++j) {
        const float* kj = k_head + static_cast<std::size_t>(j) * kHidden;
        v128_t partial = wasm_f32x4_splat(0.0f);
        for (int d = 0; d < kHeadDim; d += 4)
            partial = wasm_f32x4_add(partial, wasm_f32x4_mul(wasm_v128_load(q + d), wasm_v128_load(kj + d)));
        const float dot = (wasm_f32x4_extract_lane(partial, 0) + wasm_f32x4_extract_lane(partial, 1)) +
                          (wasm_f32x4_extract_lane(partial, 2) + wasm_f32x4_extract_lane(partial, 3));
        scores[j] = dot * scale;
    }
}
// end-snippet
#endif

}  // namespace
}  // namespace bx::stage
