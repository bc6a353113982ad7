// The softmax: every step but the sum, four lanes at a time.
//
// The softmax of a row p of 256 scores, as the oracle computes it, is three loops:
//   m = p[0]; for j: if (p[j] > m) m = p[j]          the row max
//   for j: p[j] = bx_expf(p[j] - m); z += p[j]       exp, and the sum z
//   for j: p[j] = p[j] / z                           normalise
// Only the sum is a float reduction whose order matters, so it stays a scalar
// loop in stage 00's order. The rest is done per lane, and each lane computes
// exactly what the scalar loop computed for its element:
//   - max: `pmax(m, a)` is `m < a ? a : m`, the scalar step. Lanes start at
//     p[0] and are combined with the scalar step. A maximum is one of the
//     values, so grouping cannot change it; the one freedom is *which* of
//     two values that compare equal is kept, which only matters for +0 and
//     -0, and then p[j] - m differs at most in a zero's sign, whose exp is 1
//     either way. A NaN never wins a comparison, as in the scalar loop.
//   - p[j] - m and p[j] / z: one f32 subtract or divide per lane.
//   - exp: exp4 below, bx_expf's main path on four lanes, proven equal to
//     bx_expf on all 2^32 inputs by check-exp.
//
// Everything here is in an unnamed namespace (see gemm.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/maths/expf.hpp"
#include "common/maths/expf_constants.hpp"
#include "common/simd/simd128.hpp"

#ifndef BX_VARIANT_NO_FALLBACK
#define BX_VARIANT_NO_FALLBACK 0
#endif

namespace bx::stage::softmax {
namespace {

// snippet: exp2-pairs
// bx_expf's main path on two lanes in f64x2: the same double operations in
// the same order (common/maths/expf.cpp), so each lane rounds exactly where
// the scalar code rounds. wasm has no gather, so the table is read one lane
// at a time.
inline v128_t exp_main_path(v128_t xd) {
    using namespace bx::expf_constants;
    const auto splat = [](double v) { return wasm_f64x2_splat(v); };
    const v128_t z = wasm_f64x2_mul(splat(kInvLn2Times32), xd);
    const v128_t shifted = wasm_f64x2_add(z, splat(kRoundShift));  // k in the low bits
    const v128_t kd = wasm_f64x2_sub(shifted, splat(kRoundShift));
    const v128_t r = wasm_f64x2_sub(z, kd);
    const auto k0 = static_cast<std::uint64_t>(wasm_i64x2_extract_lane(shifted, 0));
    const auto k1 = static_cast<std::uint64_t>(wasm_i64x2_extract_lane(shifted, 1));
    const v128_t table = wasm_i64x2_make(static_cast<std::int64_t>(kPow2Table[k0 % kTableSize]),
                                         static_cast<std::int64_t>(kPow2Table[k1 % kTableSize]));
    const v128_t s = wasm_i64x2_add(table, wasm_i64x2_shl(shifted, 52 - kTableBits));
    const v128_t poly_high = wasm_f64x2_add(wasm_f64x2_mul(splat(kPoly3), r), splat(kPoly2));
    const v128_t r2 = wasm_f64x2_mul(r, r);
    const v128_t poly_low = wasm_f64x2_add(wasm_f64x2_mul(splat(kPoly1), r), splat(1.0));
    const v128_t y = wasm_f64x2_add(wasm_f64x2_mul(poly_high, r2), poly_low);
    return wasm_f64x2_mul(y, s);
}
// end-snippet

// Lane indices must be constants in wasm, hence the switch.
inline float lane(v128_t v, int l) {
    switch (l) {
        case 0: return wasm_f32x4_extract_lane(v, 0);
        case 1: return wasm_f32x4_extract_lane(v, 1);
        case 2: return wasm_f32x4_extract_lane(v, 2);
        default: return wasm_f32x4_extract_lane(v, 3);
    }
}

// snippet: exp4
// e^x on four lanes, bit-identical to bx_expf per lane. Lanes with |x| < 88
// (top 12 bits of |x| below 88's) take the main path, widened to double two
// lanes at a time and rounded back to f32 as the scalar code's final cast
// does (round to nearest). Every other lane (|x| >= 88, infinities, NaN) is
// recomputed by bx_expf from the lane's own input, taken from the register.
inline v128_t exp4(v128_t x) {
    const v128_t low = exp_main_path(wasm_f64x2_promote_low_f32x4(x));
    const v128_t high = exp_main_path(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(x, x, 2, 3, 0, 1)));
    v128_t result = wasm_i64x2_shuffle(wasm_f32x4_demote_f64x2_zero(low), wasm_f32x4_demote_f64x2_zero(high), 0, 2);
#if !BX_VARIANT_NO_FALLBACK
    const v128_t top12 = wasm_v128_and(wasm_u32x4_shr(x, 20), wasm_i32x4_splat(0x7ff));
    const v128_t main_path = wasm_u32x4_lt(top12, wasm_i32x4_splat(static_cast<int>(bx::expf_constants::kTop12Of88)));
    const unsigned fallback = ~static_cast<unsigned>(wasm_i32x4_bitmask(main_path)) & 0xfu;
    if (fallback != 0) {
        float lanes[4];
        wasm_v128_store(lanes, result);
        for (unsigned bad = fallback; bad != 0; bad &= bad - 1) {
            const int l = __builtin_ctz(bad);
            lanes[l] = bx_expf(lane(x, l));
        }
        result = wasm_v128_load(lanes);
    }
#endif
    return result;
}
// end-snippet

// values[i] = bx_expf(values[i]) for i < count: four at a time, the tail
// one by one.
inline void exp_in_place(float* values, std::size_t count) {
    std::size_t i = 0;
    for (; i + 4 <= count; i += 4) wasm_v128_store(values + i, exp4(wasm_v128_load(values + i)));
    for (; i < count; ++i) values[i] = bx_expf(values[i]);
}

// snippet: softmax-row
// Softmax of one row of n scores (n a multiple of 4), in place.
inline void row_in_place(float* p, int n) {
    // The max: lanes start at p[0], each keeps `m < a ? a : m`.
    v128_t lanes_max = wasm_f32x4_splat(p[0]);
    for (int j = 0; j < n; j += 4) lanes_max = wasm_f32x4_pmax(lanes_max, wasm_v128_load(p + j));
    float m = lane(lanes_max, 0);
    for (int l = 1; l < 4; ++l)
        if (lane(lanes_max, l) > m) m = lane(lanes_max, l);

    // exp(p[j] - m), four lanes at a time.
    const v128_t m4 = wasm_f32x4_splat(m);
    for (int j = 0; j < n; j += 4) wasm_v128_store(p + j, exp4(wasm_f32x4_sub(wasm_v128_load(p + j), m4)));

    // The sum: a float reduction, so stage 00's order, one element at a time.
    float z = 0.0f;
    for (int j = 0; j < n; ++j) z += p[j];

    const v128_t z4 = wasm_f32x4_splat(z);
    for (int j = 0; j < n; j += 4) wasm_v128_store(p + j, wasm_f32x4_div(wasm_v128_load(p + j), z4));
}
// end-snippet

}  // namespace
}  // namespace bx::stage::softmax
