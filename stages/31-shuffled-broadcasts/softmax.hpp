// The softmax: every step but the sum four lanes at a time, and the sums of
// several rows side by side, each in its own row's order.
// The range test of exp is a float comparison (below(), at_least()).
// Exp's edge lanes are computed after its loop, so the loop calls nothing.
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
//   - exp: exp_listed below, bx_expf's main path on four lanes and bx_expf
//     for the edge lanes, proven equal to bx_expf on all 2^32 inputs by check-exp.
//
// Everything here is in an unnamed namespace (see gemm.hpp).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "common/maths/expf.hpp"
#include "common/maths/expf_constants.hpp"
#include "common/simd/simd128.hpp"

namespace bx::stage::softmax {
namespace {

// exp (here) and erf (gelu.hpp) pick their formula by comparing the bits of
// |x| with a bound, as unsigned integers, in the scalar code. wasm has
// unsigned i32x4 comparisons, but x86 has only signed ones (pcmpgtd), so V8
// builds each unsigned `<` from four instructions (pmaxud, pcmpeqd, and an
// all-ones register to invert it) and each `>=` from two; and clang turns a
// signed comparison written in the source back into an unsigned one as soon
// as it sees that the sign bit is clear. A float comparison is one x86
// instruction (cmpps), and IEEE 754 orders the non-negative floats as their
// bit patterns: for |x| and a bound that are not NaN, |x| < bound as floats
// exactly when bits(|x|) < bits(bound) as integers, subnormals, zero and
// infinity included. A NaN is greater than every bound as an integer and
// compares false as a float: below() gives false either way, at_least()
// gives false where the integer test gives true, so a caller that must see
// NaN in at_least()'s answer tests for it apart. Below: magnitude(), then the
// two tests.
//
// magnitude(): |x| in each lane, its sign bit cleared.
inline v128_t magnitude(v128_t x) {
    return wasm_v128_and(x, wasm_i32x4_splat(0x7fffffff));
}
// All ones in the lanes whose magnitude m is below / at least the float whose
// bits are `bound` (not a NaN).
inline v128_t below(v128_t m, std::uint32_t bound) {
    return wasm_f32x4_lt(m, wasm_f32x4_splat(std::bit_cast<float>(bound)));
}
inline v128_t at_least(v128_t m, std::uint32_t bound) {
    return wasm_f32x4_ge(m, wasm_f32x4_splat(std::bit_cast<float>(bound)));
}

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

// Lane indices must be constants in wasm, hence the switch.
inline float lane(v128_t v, int l) {
    switch (l) {
        case 0: return wasm_f32x4_extract_lane(v, 0);
        case 1: return wasm_f32x4_extract_lane(v, 1);
        case 2: return wasm_f32x4_extract_lane(v, 2);
        default: return wasm_f32x4_extract_lane(v, 3);
    }
}

// bx_expf's main path on four lanes, each widened to double and rounded back
// to f32 as the scalar code's final cast does (round to nearest). Right for
// every lane with |x| < 88; lanes past it get anything.
inline v128_t exp4_main_path(v128_t x) {
    const v128_t low = exp_main_path(wasm_f64x2_promote_low_f32x4(x));
    const v128_t high = exp_main_path(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(x, x, 2, 3, 0, 1)));
    return wasm_i64x2_shuffle(wasm_f32x4_demote_f64x2_zero(low), wasm_f32x4_demote_f64x2_zero(high), 0, 2);
}

// The lanes of x that bx_expf does not send down its main path (|x| >= 88,
// infinities, NaN), as four bits. The top 12 bits of |x| are below 88's
// exactly when |x|'s bits are below 88's top 12 bits followed by 20 zeros;
// NaN is not below, as it is not in the scalar test.
inline unsigned edge_lanes(v128_t x) {
    const v128_t main_path = below(magnitude(x), bx::expf_constants::kTop12Of88 << 20);
    return ~static_cast<unsigned>(wasm_i32x4_bitmask(main_path)) & 0xfu;
}

// out[i .. i+4) = bx_expf of the four arguments input(i), for i = 0, 4, ...,
// count - 4 (count a multiple of 4; out may be where input reads from).
//
// Calling bx_expf for an edge lane from inside the loop would cost every
// trip: the call is almost never made, but V8 must plan for it. A call may
// overwrite every vector register, so the main path's constants would live in
// stack slots, loaded again on every trip, and the loop's own values would be
// stored around the branch to the call. Here the loop only notes the groups that hold an
// edge lane, their arguments and where they are, on a list; it calls nothing.
// After the loop, each noted group's edge lanes are computed by bx_expf from
// their own arguments and written over what the main path left there.
template <class Input>
inline void exp_listed(float* out, std::size_t count, Input input) {
    constexpr std::size_t kBlock = 256;
    for (std::size_t start = 0; start < count; start += kBlock) {
        const std::size_t n = count - start < kBlock ? count - start : kBlock;
        v128_t edge_arguments[kBlock / 4];
        std::uint16_t edge_at[kBlock / 4];
        std::size_t n_edge = 0;
        for (std::size_t i = 0; i < n; i += 4) {
            const v128_t x = input(start + i);
            wasm_v128_store(out + start + i, exp4_main_path(x));
            if (edge_lanes(x) != 0) {
                edge_arguments[n_edge] = x;
                edge_at[n_edge++] = static_cast<std::uint16_t>(i);
            }
        }
        for (std::size_t k = 0; k < n_edge; ++k) {
            float* const at = out + start + edge_at[k];
            const v128_t x = edge_arguments[k];
            for (unsigned edge = edge_lanes(x); edge != 0; edge &= edge - 1) {
                const int l = __builtin_ctz(edge);
                at[l] = bx_expf(lane(x, l));
            }
        }
    }
}

// values[i] = bx_expf(values[i]) for i < count: four at a time, the tail
// one by one.
inline void exp_in_place(float* values, std::size_t count) {
    const std::size_t whole = count / 4 * 4;
    exp_listed(values, whole, [values](std::size_t i) { return wasm_v128_load(values + i); });
    for (std::size_t i = whole; i < count; ++i) values[i] = bx_expf(values[i]);
}

// The max of one row: lanes start at p[0], each keeps `m < a ? a : m`, then
// the lanes are combined with the scalar step.
inline float row_max(const float* p, int n) {
    v128_t lanes_max = wasm_f32x4_splat(p[0]);
    for (int j = 0; j < n; j += 4) lanes_max = wasm_f32x4_pmax(lanes_max, wasm_v128_load(p + j));
    float m = lane(lanes_max, 0);
    for (int l = 1; l < 4; ++l)
        if (lane(lanes_max, l) > m) m = lane(lanes_max, l);
    return m;
}

// p[j] = exp(p[j] - m), four lanes at a time.
inline void exp_shifted(float* p, int n, float m) {
    const v128_t m4 = wasm_f32x4_splat(m);
    exp_listed(p, static_cast<std::size_t>(n),
               [p, m4](std::size_t j) { return wasm_f32x4_sub(wasm_v128_load(p + j), m4); });
}

// p[j] = p[j] / z, four lanes at a time.
inline void divide(float* p, int n, float z) {
    const v128_t z4 = wasm_f32x4_splat(z);
    for (int j = 0; j < n; j += 4) wasm_v128_store(p + j, wasm_f32x4_div(wasm_v128_load(p + j), z4));
}

// Softmax of R rows of n scores each (row r at p + r * n, n a multiple of 4),
// in place. Each row's max, exps and divides are computed as for that row alone.
// The sums are where the time goes: a float sum is a chain, each add waiting for the one
// before, so one row's 256 adds take 256 add latencies. Here the R rows'
// chains run side by side, R independent sums, each adding its own row's
// values in the order j = 0, 1, ..., from 0.0f: stage 00's sum, R at a time.
template <int R>
inline void rows_in_place(float* p, int n) {
    float z[R];
    for (int r = 0; r < R; ++r) {
        exp_shifted(p + r * n, n, row_max(p + r * n, n));
        z[r] = 0.0f;
    }
    for (int j = 0; j < n; ++j)
        for (int r = 0; r < R; ++r) z[r] += p[r * n + j];
    for (int r = 0; r < R; ++r) divide(p + r * n, n, z[r]);
}

}  // namespace
}  // namespace bx::stage::softmax
