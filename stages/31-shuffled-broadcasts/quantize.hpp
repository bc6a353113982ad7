// The activation quantiser: common/maths/quantize.cpp's
// quantize_row_scalar, sixteen values per step, with every result bit the
// same. Per row:
//   amax = max |x_c| (NaN never wins)   s_in = amax / 127
//   inv  = amax > 0 ? 127 / amax : 0    q_c = clamp(round_half_away(x_c * inv), -127, 127), NaN -> 0
//
// Why each step is exact:
//   - amax: a maximum picks one of the values, so the order it looks at them
//     in cannot change the result (no rounding happens; +0 is the only zero
//     |x| can give). pmax(m, a) is `m < a ? a : m`: a NaN `a` compares false
//     and leaves m, as the scalar `a > amax` does.
//   - s_in and inv: one scalar division each, as before.
//   - x * inv: the same f32 multiply per lane.
//   - rounding: wasm's f32x4.nearest rounds ties to even (2.5 -> 2), the
//     reference rounds them away from zero (2.5 -> 3). So the reference's
//     steps, per lane: trunc, the exact fraction, and +-1 where |fraction| >= 0.5.
//   - clamp: pmin(a, b) is `b < a ? b : a`. With the value first, a NaN makes
//     both comparisons false and stays NaN; the saturating convert then turns
//     it into 0, as the reference does. With the bound first, a NaN would
//     become the bound (127): the post's first version
//     (kept runnable as the variant `pmin-swapped` where it was found).
//   - the convert and the two narrowing steps only see integers in
//     [-127, 127], which they keep exactly.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "common/maths/quantize.hpp"
#include "common/simd/simd128.hpp"

namespace bx::stage::quant {

// max |x_c| over the row, starting from 0: four running maxima, then the
// four lanes and the tail with the scalar comparison.
inline float row_amax(const float* x, int n) {
    v128_t m = wasm_f32x4_splat(0.0f);
    int c = 0;
    for (; c + 4 <= n; c += 4) m = wasm_f32x4_pmax(m, wasm_f32x4_abs(wasm_v128_load(x + c)));
    float amax = 0.0f;
    const float lanes[4] = {wasm_f32x4_extract_lane(m, 0), wasm_f32x4_extract_lane(m, 1),
                            wasm_f32x4_extract_lane(m, 2), wasm_f32x4_extract_lane(m, 3)};
    for (float a : lanes)
        if (a > amax) amax = a;
    for (; c < n; ++c) {
        const float a = std::fabs(x[c]);
        if (a > amax) amax = a;
    }
    return amax;
}

// Four values to four int32 in [-127, 127], each exactly quantize_value(x * inv).
inline v128_t quantize4(v128_t x, v128_t inv) {
    const v128_t scaled = wasm_f32x4_mul(x, inv);
    const v128_t whole = wasm_f32x4_trunc(scaled);
    const v128_t fraction = wasm_f32x4_sub(scaled, whole);  // exact
    const v128_t away = wasm_f32x4_ge(wasm_f32x4_abs(fraction), wasm_f32x4_splat(0.5f));
    const v128_t one_with_sign =  // copysign(1, scaled)
        wasm_v128_or(wasm_f32x4_splat(1.0f), wasm_v128_and(scaled, wasm_i32x4_splat(INT32_MIN)));
    const v128_t rounded = wasm_v128_bitselect(wasm_f32x4_add(whole, one_with_sign), whole, away);
    const v128_t top = wasm_f32x4_splat(127.0f), bottom = wasm_f32x4_splat(-127.0f);
    const v128_t clamped = wasm_f32x4_pmax(wasm_f32x4_pmin(rounded, top), bottom);  // NaN stays NaN
    return wasm_i32x4_trunc_sat_f32x4(clamped);  // NaN -> 0
}

// q[c] = quantize_value(x[c] * inv) for c < n: sixteen per step, narrowed
// i32 -> i16 -> i8 (saturating, but every value already fits), then the tail.
inline void quantize_scaled(const float* x, int n, float inv, std::int8_t* q) {
    const v128_t inv4 = wasm_f32x4_splat(inv);
    int c = 0;
    for (; c + 16 <= n; c += 16) {
        const v128_t a = quantize4(wasm_v128_load(x + c), inv4);
        const v128_t b = quantize4(wasm_v128_load(x + c + 4), inv4);
        const v128_t d = quantize4(wasm_v128_load(x + c + 8), inv4);
        const v128_t e = quantize4(wasm_v128_load(x + c + 12), inv4);
        const v128_t low = wasm_i16x8_narrow_i32x4(a, b);
        const v128_t high = wasm_i16x8_narrow_i32x4(d, e);
        wasm_v128_store(q + c, wasm_i8x16_narrow_i16x8(low, high));
    }
    for (; c < n; ++c) q[c] = quantize_value(x[c] * inv);
}

// The whole row: the reference's amax, s_in and inv, then the vector steps.
inline float quantize_row(const float* x, int n, std::int8_t* q) {
    const float amax = row_amax(x, n);
    const float s_in = amax / 127.0f;
    const float inv = amax > 0.0f ? 127.0f / amax : 0.0f;  // an all-zero row: zeros, scale 0
    quantize_scaled(x, n, inv, q);
    return s_in;
}

}  // namespace bx::stage::quant
