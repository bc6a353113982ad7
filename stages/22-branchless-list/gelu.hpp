// The GELU kernel: four lanes at a time, with erf's third range also in SIMD,
// computed on lanes gathered four at a time by lane loads and stores (see
// in_place()). Its range tests are float comparisons (softmax.hpp's below()
// and at_least()). The first loop lists the lanes it leaves for later without
// branches (see append_lanes()).
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
// the branch its own |u| selects, compared as an integer as the C code
// compares its bits (as floats here, which order |u| as its bits; NaN is
// tested apart); so each lane has the scalar result's bits.
//
// The lanes left that are not in C (|u| < 2^-28, infinities, NaN; none seen
// in real inputs) go to gelu_scalar with their *input*: the first loop leaves
// the input in place for every lane it does not compute (the post's first
// bug was reading back a lane the vector store had overwritten).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

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
    const v128_t in_b = softmax::at_least(ax, kOneOver0p35);
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
    const v128_t abs_bits = softmax::magnitude(u);
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
    const v128_t in_a = softmax::below(abs_bits, k0p84375);
    const v128_t quotient = wasm_f32x4_div(wasm_v128_bitselect(r, p, in_a), wasm_v128_bitselect(s, q, in_a));

    const v128_t erf_a = add(u, mul(u, quotient));
    // B: 1 - ((1 - erx) - p/q); D: 1 - 2^-120, which rounds to 1, as the
    // scalar expression does.
    const v128_t in_d = softmax::at_least(abs_bits, k6);
    const v128_t y = wasm_v128_bitselect(one, wasm_f32x4_sub(one, wasm_f32x4_sub(splat(kOneMinusErx), quotient)), in_d);
    const v128_t erf_past_a = wasm_v128_bitselect(wasm_f32x4_neg(y), y, negative);
    const v128_t erf = wasm_v128_bitselect(erf_a, erf_past_a, in_a);

    // gelu = (0.5 x)(1 + erf), the scalar expression's order.
    const v128_t gelu = mul(mul(splat(0.5f), x), add(one, erf));

    const v128_t in_c = wasm_v128_and(softmax::at_least(abs_bits, k1p25), softmax::below(abs_bits, k6));
    // |u| below 2^-28, or infinite or NaN (its exponent bits all ones: a NaN
    // would compare false with the float test).
    const v128_t exponent = wasm_v128_and(u, wasm_i32x4_splat(static_cast<std::int32_t>(kInfOrNan)));
    const v128_t edge = wasm_v128_or(softmax::below(abs_bits, kTwoPowM28),
                                     wasm_i32x4_eq(exponent, wasm_i32x4_splat(static_cast<std::int32_t>(kInfOrNan))));
    return {gelu, wasm_v128_or(in_c, edge)};
}

// GELU of four inputs in range C (lanes with other inputs get anything):
// erf(u) = +-(1 - erfc(|u|)), erfc from erfc_c; and which lanes are in C.
struct GeluC {
    v128_t result;  // gelu of each lane in range C; anything in the others
    v128_t in_c;    // all ones in a lane whose input is in range C
};
[[gnu::always_inline]] inline GeluC gelu4_range_c(v128_t x) {
    const v128_t one = splat(1.0f);
    const v128_t u = mul(x, splat(kGeluInputScale));
    const v128_t abs_bits = softmax::magnitude(u);
    const v128_t y = wasm_f32x4_sub(one, erfc_c(abs_bits));
    const v128_t erf = wasm_v128_bitselect(wasm_f32x4_neg(y), y, wasm_i32x4_lt(u, wasm_i32x4_splat(0)));
    const v128_t in_c = wasm_v128_and(softmax::at_least(abs_bits, k1p25), softmax::below(abs_bits, k6));
    return {mul(mul(splat(0.5f), x), add(one, erf)), in_c};
}

// snippet: branchless-list
// How the first loop lists its lanes. About one lane
// in six is left for later on real inputs, so about half the groups hold one
// (make check-gelu-census), and which do follows the data: testing each
// group's mask and, when it is not zero, walking its set bits one by one takes
// two branches that the processor guesses wrong about as often as right, each
// time losing the work it had started. Here every group appends the same way, with no branch: a table
// gives, for each of the 16 masks, its set lanes' numbers in order, packed as
// four 16-bit values; adding i to each and storing all four writes the
// group's entries (and, past them, values that the next group's store or the
// padding overwrites), and the count moves on by the number of set lanes.
// Which lanes are listed, and in which order, is what a branching walk lists.
//
// A mistake kept buildable (VARIANT=first-field-only, which the logit check
// and check-gelu must fail): i added to the packed word as a plain number, which
// moves only its first field; the group's other entries then point into the
// block's first group, whose lanes are computed again from their results,
// while the group's own lanes are never computed.
#ifndef BX_VARIANT_FIRST_FIELD_ONLY
#define BX_VARIANT_FIRST_FIELD_ONLY 0
#endif
constexpr std::array<std::uint64_t, 16> kSetLanes = [] {
    std::array<std::uint64_t, 16> table{};
    for (unsigned mask = 0; mask < 16; ++mask) {
        unsigned slot = 0;
        for (unsigned lane = 0; lane < 4; ++lane)
            if (mask & (1u << lane)) table[mask] |= std::uint64_t{lane} << (16 * slot++);
    }
    return table;
}();
// Appends i + lane for each lane set in `mask` (four bits) to list[0 .. n),
// writing list[n .. n + 4); list entries and i are below 2^16.
inline void append_lanes(std::uint16_t* list, std::size_t& n, std::size_t i, unsigned mask) {
#if BX_VARIANT_FIRST_FIELD_ONLY
    const std::uint64_t entries = kSetLanes[mask] + static_cast<std::uint64_t>(i);
#else
    const std::uint64_t entries = kSetLanes[mask] + static_cast<std::uint64_t>(i) * 0x0001000100010001u;
#endif
    std::memcpy(list + n, &entries, sizeof entries);
    n += static_cast<std::size_t>(__builtin_popcount(mask));
}
// end-snippet

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
//
// How the second loop moves its lanes (the idea of stage 20). Stage 17 read
// the four inputs into a float array and loaded it as one v128, stored the
// results to another array, and checked each lane's range in scalar code
// before writing it back. Four 32-bit stores followed by a 128-bit load of
// the same bytes is the one pattern x86 cannot forward from its store buffer:
// the load waits until the stores have reached the cache. Here each input
// goes straight into its lane (v128.load32_lane, one vpinsrd from memory
// under V8) and each result straight from its lane to its place
// (v128.store32_lane); the range test is one SIMD comparison for the four,
// and only a group with a lane outside C takes the per-lane path. The list is
// padded to whole groups by repeating its last index: that lane is computed
// twice from the same input, and both stores write the same bits.
inline void in_place(float* values, std::size_t count) {
    constexpr std::size_t kBlock = 1024;
    for (std::size_t start = 0; start < count; start += kBlock) {
        float* block = values + start;
        const std::size_t n = count - start < kBlock ? count - start : kBlock;
        std::uint16_t later[kBlock + 3];  // + 3: padding to a whole group
        std::size_t n_later = 0;
        std::size_t i = 0;
        for (; i + 4 <= n; i += 4) {
            const v128_t x = wasm_v128_load(block + i);
            const Gelu4 g = gelu4(x);
            wasm_v128_store(block + i, wasm_v128_bitselect(x, g.result, g.later));
            append_lanes(later, n_later, i, static_cast<unsigned>(wasm_i32x4_bitmask(g.later)));
        }
        for (; i < n; ++i) later[n_later++] = static_cast<std::uint16_t>(i);  // a tail shorter than four
        for (; n_later % 4 != 0; ++n_later) later[n_later] = later[n_later - 1];
        for (std::size_t k = 0; k < n_later; k += 4) {
            float* const at0 = block + later[k];
            float* const at1 = block + later[k + 1];
            float* const at2 = block + later[k + 2];
            float* const at3 = block + later[k + 3];
            v128_t x = wasm_v128_load32_zero(at0);
            x = wasm_v128_load32_lane(at1, x, 1);
            x = wasm_v128_load32_lane(at2, x, 2);
            x = wasm_v128_load32_lane(at3, x, 3);
            const GeluC g = gelu4_range_c(x);
            if (wasm_i32x4_all_true(g.in_c)) {
                wasm_v128_store32_lane(at0, g.result, 0);
                wasm_v128_store32_lane(at1, g.result, 1);
                wasm_v128_store32_lane(at2, g.result, 2);
                wasm_v128_store32_lane(at3, g.result, 3);
            } else {  // a lane outside C (a tail, or an edge input): lane by lane
                float inputs[4], results[4];
                wasm_v128_store(inputs, x);
                wasm_v128_store(results, g.result);
                float* const at[4] = {at0, at1, at2, at3};
                for (int l = 0; l < 4; ++l) *at[l] = in_range_c(inputs[l]) ? results[l] : gelu_scalar(inputs[l]);
            }
        }
    }
}

}  // namespace
}  // namespace bx::stage::gelu
