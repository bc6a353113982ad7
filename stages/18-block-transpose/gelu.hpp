// The GELU kernel: four lanes at a time, with erf's third range also in SIMD,
// computed on lanes gathered four at a time.
//
// bx_erff (common/maths/erff.cpp) picks one of five approximations by the bit
// pattern of |u|, u = x / sqrt 2. Two of them need nothing but adds,
// multiplies and one divide:
//   A  2^-28   <= |u| < 0.84375   erf(u) = u + u * (r(z) / s(z)),  z = u*u
//   B  0.84375 <= |u| < 1.25      erf(u) = +-(1 - ((1 - erx) - p(t) / q(t))),  t = |u| - 1
// On the model's real inputs about one lane in six lands in the third range
// (make check-gelu-census), where a scalar bx_erff costs two scalar bx_expf calls:
//   C  1.25    <= |u| < 6         erf(u) = +-(1 - e1 * e2 / |u|), with
//        e1 = exp(-a*a - 0.5625), a = |u| cut to 11 mantissa bits,
//        e2 = exp((a - |u|)(a + |u|) + R(s) / S(s)),  s = 1 / (u*u)
//   D  6       <= |u| < inf       erf(u) = +-1
// R and S are one of two pairs of polynomials, by whether |u| < 1/0.35:
// both pairs are computed and each lane keeps its own. The exponentials are
// bx_expf's main path, which every argument in C reaches (they lie between
// -37 and 1), widened to double two lanes at a time (softmax.hpp's
// exp_main_path, proven by check-exp).
//
// C on four lanes costs the same whether one lane needs it or four, and a
// group of four that holds a C lane holds little more than one on average,
// so computing C for such groups costs more than it saves (measured). in_place() therefore works in
// two loops: the first computes A, B and D for every group and lists the
// lanes it leaves; the second computes C on those lanes four at a time.
//
// Every lane computes the scalar code's operations, with the same f32
// constants (common/maths/erff_coefficients.hpp), in the same order, and keeps
// the branch its own |u| selects, compared as an unsigned integer as the C
// code compares it; so each lane has the scalar result's bits.
//
// The lanes left that are not in C (|u| < 2^-28, infinities, NaN; none seen
// in real inputs) go to gelu_scalar with their *input*: the first loop leaves
// the input in place for every lane it does not compute (the post's first
// bug was reading back a lane the vector store had overwritten).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/maths/bits.hpp"
#include "common/maths/erff_coefficients.hpp"
#include "common/maths/gelu.hpp"
#include "common/simd/simd128.hpp"

#include "softmax.hpp"

namespace bx::stage::gelu {
// Unnamed, as in gemm.hpp: each file that includes this header gets its own
// copy, so the unit tests of several stages in one binary each call their own.
namespace {

using namespace bx::erff_coefficients;

inline v128_t splat(float value) { return wasm_f32x4_splat(value); }
inline v128_t add(v128_t a, v128_t b) { return wasm_f32x4_add(a, b); }
inline v128_t mul(v128_t a, v128_t b) { return wasm_f32x4_mul(a, b); }
inline v128_t sub(v128_t a, v128_t b) { return wasm_f32x4_sub(a, b); }
inline v128_t div(v128_t a, v128_t b) { return wasm_f32x4_div(a, b); }

// bx_expf of four lanes whose inputs all take its main path (|x| < 88): two
// f64x2 halves, each rounded back to f32 as the scalar code's final cast does.
[[gnu::always_inline]] inline v128_t exp4_main(v128_t x) {
    const v128_t low = softmax::exp_main_path(wasm_f64x2_promote_low_f32x4(x));
    const v128_t high = softmax::exp_main_path(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(x, x, 2, 3, 0, 1)));
    return wasm_i64x2_shuffle(wasm_f32x4_demote_f64x2_zero(low), wasm_f32x4_demote_f64x2_zero(high), 0, 2);
}

// Range C's coefficients, from the constant term up (s_a[0] = s_b[0] = 1).
inline constexpr float kRa[] = {ra0, ra1, ra2, ra3, ra4, ra5, ra6, ra7};
inline constexpr float kSa[] = {1.0f, sa1, sa2, sa3, sa4, sa5, sa6, sa7, sa8};
inline constexpr float kRb[] = {rb0, rb1, rb2, rb3, rb4, rb5, rb6};
inline constexpr float kSb[] = {1.0f, sb1, sb2, sb3, sb4, sb5, sb6, sb7};

// c[0] + s * (c[1] + s * (... + s * c[N-1])), innermost first: the nested
// expression of erff.cpp, operation for operation.
template <std::size_t N>
[[gnu::always_inline]] inline v128_t horner(v128_t s, const float (&c)[N]) {
    v128_t acc = splat(c[N - 1]);
    for (std::size_t i = N - 1; i-- > 0;) acc = add(splat(c[i]), mul(s, acc));
    return acc;
}

// erfc(|u|) for the lanes in range C (ax = |u|), erff.cpp's
// erfc_from_0p84375 past 1.25, four lanes at a time. Both pairs of
// polynomials are computed, and each lane keeps the pair its |u| selects.
inline v128_t erfc_c(v128_t ax) {
    const v128_t s = div(splat(1.0f), mul(ax, ax));
    const v128_t in_b = wasm_u32x4_ge(ax, wasm_i32x4_splat(static_cast<int>(kOneOver0p35)));
    const v128_t big_r = wasm_v128_bitselect(horner(s, kRb), horner(s, kRa), in_b);
    const v128_t big_s = wasm_v128_bitselect(horner(s, kSb), horner(s, kSa), in_b);
    // a = |u| cut to its top 11 mantissa bits, so a*a is exact.
    const v128_t a = wasm_v128_and(ax, wasm_i32x4_splat(static_cast<int>(0xffffe000u)));
    const v128_t e1 = exp4_main(sub(mul(wasm_f32x4_neg(a), a), splat(0.5625f)));
    const v128_t e2 = exp4_main(add(mul(sub(a, ax), add(a, ax)), div(big_r, big_s)));
    return div(mul(e1, e2), ax);
}

// GELU of four inputs whose |u| may lie in any range but C: A and B as stage
// 07 computes them, D as 1, and `later` marks the lanes left for later
// (range C, and |u| < 2^-28, infinities and NaN).
struct Gelu4 {
    v128_t result;  // gelu of each lane not in `later`; anything in the others
    v128_t later;   // all ones in a lane left for later
};

[[gnu::always_inline]] inline Gelu4 gelu4(v128_t x) {
    const v128_t one = splat(1.0f);
    const v128_t u = mul(x, splat(kGeluInputScale));
    const v128_t abs_bits = wasm_v128_and(u, wasm_i32x4_splat(0x7fffffff));
    const v128_t negative = wasm_i32x4_lt(u, wasm_i32x4_splat(0));  // sign bit set

    // Branch A's polynomials in z = u*u, as in bx_erff.
    const v128_t z = mul(u, u);
    const v128_t r = add(splat(pp0), mul(z, add(splat(pp1), mul(z, add(splat(pp2),
                     mul(z, add(splat(pp3), mul(z, splat(pp4)))))))));
    const v128_t s = add(one, mul(z, add(splat(qq1), mul(z, add(splat(qq2),
                     mul(z, add(splat(qq3), mul(z, add(splat(qq4), mul(z, splat(qq5)))))))))));

    // Branch B's polynomials in t = |u| - 1.
    const v128_t t = wasm_f32x4_sub(abs_bits, one);
    const v128_t p = add(splat(pa0), mul(t, add(splat(pa1), mul(t, add(splat(pa2), mul(t, add(splat(pa3),
                     mul(t, add(splat(pa4), mul(t, add(splat(pa5), mul(t, splat(pa6)))))))))))));
    const v128_t q = add(one, mul(t, add(splat(qa1), mul(t, add(splat(qa2), mul(t, add(splat(qa3),
                     mul(t, add(splat(qa4), mul(t, add(splat(qa5), mul(t, splat(qa6)))))))))))));

    // Each lane divides only the pair its branch uses: one divide for both
    // branches, and the same quotient the scalar code computes.
    const v128_t in_a = wasm_u32x4_lt(abs_bits, wasm_i32x4_splat(static_cast<int>(k0p84375)));
    const v128_t quotient = wasm_f32x4_div(wasm_v128_bitselect(r, p, in_a), wasm_v128_bitselect(s, q, in_a));

    const v128_t erf_a = add(u, mul(u, quotient));
    // B: 1 - ((1 - erx) - p/q); D: 1 - 2^-120, which rounds to 1, as the
    // scalar expression does.
    const v128_t in_d = wasm_u32x4_ge(abs_bits, wasm_i32x4_splat(static_cast<int>(k6)));
    const v128_t y = wasm_v128_bitselect(one, wasm_f32x4_sub(one, wasm_f32x4_sub(splat(kOneMinusErx), quotient)), in_d);
    const v128_t erf_past_a = wasm_v128_bitselect(wasm_f32x4_neg(y), y, negative);
    const v128_t erf = wasm_v128_bitselect(erf_a, erf_past_a, in_a);

    // gelu = (0.5 x)(1 + erf), the scalar expression's order.
    const v128_t gelu = mul(mul(splat(0.5f), x), add(one, erf));

    const v128_t in_c = wasm_v128_and(wasm_u32x4_ge(abs_bits, wasm_i32x4_splat(static_cast<int>(k1p25))),
                                      wasm_u32x4_lt(abs_bits, wasm_i32x4_splat(static_cast<int>(k6))));
    const v128_t edge = wasm_v128_or(wasm_u32x4_lt(abs_bits, wasm_i32x4_splat(static_cast<int>(kTwoPowM28))),
                                     wasm_u32x4_ge(abs_bits, wasm_i32x4_splat(static_cast<int>(kInfOrNan))));
    return {gelu, wasm_v128_or(in_c, edge)};
}

// GELU of four inputs in range C (lanes with other inputs get anything):
// erf(u) = +-(1 - erfc(|u|)), erfc from erfc_c.
[[gnu::always_inline]] inline v128_t gelu4_range_c(v128_t x) {
    const v128_t one = splat(1.0f);
    const v128_t u = mul(x, splat(kGeluInputScale));
    const v128_t abs_bits = wasm_v128_and(u, wasm_i32x4_splat(0x7fffffff));
    const v128_t y = wasm_f32x4_sub(one, erfc_c(abs_bits));
    const v128_t erf = wasm_v128_bitselect(wasm_f32x4_neg(y), y, wasm_i32x4_lt(u, wasm_i32x4_splat(0)));
    return mul(mul(splat(0.5f), x), add(one, erf));
}

inline bool in_range_c(float x) {
    const std::uint32_t abs_bits = float_bits(x * kGeluInputScale) & 0x7fffffffu;
    return abs_bits >= k1p25 && abs_bits < k6;
}

// GELU in place, in blocks of up to 1024 values. The first loop computes
// every group of four with gelu4 and stores it; a lane left for later keeps
// its input, and its index goes on a list. The second loop takes the list
// four at a time: range C's lanes from gelu4_range_c on the four inputs
// gathered into one v128, any other lane (tiny, infinite, NaN: never seen in
// real inputs) from gelu_scalar of its input. Neither loop calls anything on
// its common path, and the expensive range is computed on four lanes that
// all need it instead of on whole groups of which one lane does.
inline void in_place(float* values, std::size_t count) {
    constexpr std::size_t kBlock = 1024;
    for (std::size_t start = 0; start < count; start += kBlock) {
        float* block = values + start;
        const std::size_t n = count - start < kBlock ? count - start : kBlock;
        std::uint16_t later[kBlock];
        std::size_t n_later = 0;
        std::size_t i = 0;
        for (; i + 4 <= n; i += 4) {
            const v128_t x = wasm_v128_load(block + i);
            const Gelu4 g = gelu4(x);
            wasm_v128_store(block + i, wasm_v128_bitselect(x, g.result, g.later));
            for (unsigned lanes = static_cast<unsigned>(wasm_i32x4_bitmask(g.later)); lanes != 0; lanes &= lanes - 1)
                later[n_later++] = static_cast<std::uint16_t>(i + static_cast<std::size_t>(__builtin_ctz(lanes)));
        }
        for (; i < n; ++i) later[n_later++] = static_cast<std::uint16_t>(i);  // a tail shorter than four
        for (std::size_t k = 0; k < n_later; k += 4) {
            std::size_t at[4];
            for (std::size_t l = 0; l < 4; ++l) at[l] = later[k + l < n_later ? k + l : n_later - 1];
            float x[4] = {block[at[0]], block[at[1]], block[at[2]], block[at[3]]};
            float y[4];
            wasm_v128_store(y, gelu4_range_c(wasm_v128_load(x)));
            for (std::size_t l = 0; l < 4; ++l) block[at[l]] = in_range_c(x[l]) ? y[l] : gelu_scalar(x[l]);
        }
    }
}

}  // namespace
}  // namespace bx::stage::gelu
