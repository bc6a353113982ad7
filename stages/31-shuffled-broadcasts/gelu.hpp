// The GELU kernel: four lanes at a time, with erf's second and third ranges
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
// so computing C for such groups costs more than it saves (measured); the
// same holds, less strongly, for B. in_place() therefore works in three
// loops: the first computes A for every group and lists the lanes in B and
// the lanes it leaves; the second computes B, the third C, on their lanes
// four at a time.
//
// Every lane computes the scalar code's operations, with the same f32
// constants (common/maths/erff_coefficients.hpp), in the same order, and keeps
// the branch its own |u| selects, compared as an integer as the C code
// compares its bits (as floats here, which order |u| as its bits; NaN is
// tested apart); so each lane has the scalar result's bits.
//
// The lanes left that are not in C (D, |u| < 2^-28, infinities, NaN; none
// seen in real inputs) go to gelu_scalar with their *input*: the first loop
// leaves the input in place for every lane it does not compute (the post's first
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

// GELU of four inputs in range A (lanes with other inputs get anything),
// with bx_erff's operations in its order, and which lanes are in A and which in B. A lane
// in neither (range C, D, |u| < 2^-28, infinities, NaN) is left for the last
// loop.
struct GeluA {
    v128_t result;  // gelu of each lane in range A; anything in the others
    v128_t in_a;    // all ones in a lane whose input is in range A
    v128_t in_b;    // all ones in a lane whose input is in range B
};
[[gnu::always_inline]] inline GeluA gelu4_range_a(v128_t x) {
    const v128_t one = splat(1.0f);
    const v128_t u = mul(x, splat(kGeluInputScale));
    const v128_t abs_bits = softmax::magnitude(u);

    // Branch A's polynomials in z = u*u, as in bx_erff.
    const v128_t z = mul(u, u);
    const v128_t r = add(splat(pp0), mul(z, add(splat(pp1), mul(z, add(splat(pp2),
                     mul(z, add(splat(pp3), mul(z, splat(pp4)))))))));
    const v128_t s = add(one, mul(z, add(splat(qq1), mul(z, add(splat(qq2),
                     mul(z, add(splat(qq3), mul(z, add(splat(qq4), mul(z, splat(qq5)))))))))));
    const v128_t erf = add(u, mul(u, wasm_f32x4_div(r, s)));

    // gelu = (0.5 x)(1 + erf), the scalar expression's order.
    const v128_t gelu = mul(mul(splat(0.5f), x), add(one, erf));
    const v128_t in_a = wasm_v128_and(softmax::at_least(abs_bits, kTwoPowM28), softmax::below(abs_bits, k0p84375));
    const v128_t in_b = wasm_v128_and(softmax::at_least(abs_bits, k0p84375), softmax::below(abs_bits, k1p25));
    return {gelu, in_a, in_b};
}

// GELU of four inputs in range B (lanes with other inputs get anything):
// erf(u) = +-(1 - ((1 - erx) - p(t) / q(t))), t = |u| - 1, with
// bx_erff's operations in its order.
[[gnu::always_inline]] inline v128_t gelu4_range_b(v128_t x) {
    const v128_t one = splat(1.0f);
    const v128_t u = mul(x, splat(kGeluInputScale));
    const v128_t t = wasm_f32x4_sub(softmax::magnitude(u), one);
    const v128_t p = add(splat(pa0), mul(t, add(splat(pa1), mul(t, add(splat(pa2), mul(t, add(splat(pa3),
                     mul(t, add(splat(pa4), mul(t, add(splat(pa5), mul(t, splat(pa6)))))))))))));
    const v128_t q = add(one, mul(t, add(splat(qa1), mul(t, add(splat(qa2), mul(t, add(splat(qa3),
                     mul(t, add(splat(qa4), mul(t, add(splat(qa5), mul(t, splat(qa6)))))))))))));
    const v128_t y = wasm_f32x4_sub(one, wasm_f32x4_sub(splat(kOneMinusErx), wasm_f32x4_div(p, q)));
    const v128_t erf = wasm_v128_bitselect(wasm_f32x4_neg(y), y, wasm_i32x4_lt(u, wasm_i32x4_splat(0)));
    return mul(mul(splat(0.5f), x), add(one, erf));
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
    const std::uint64_t entries = kSetLanes[mask] + static_cast<std::uint64_t>(i) * 0x0001000100010001u;
    std::memcpy(list + n, &entries, sizeof entries);
    n += static_cast<std::size_t>(__builtin_popcount(mask));
}

inline bool in_range_c(float x) {
    const std::uint32_t abs_bits = float_bits(x * kGeluInputScale) & 0x7fffffffu;
    return abs_bits >= k1p25 && abs_bits < k6;
}

// Four listed lanes of a block: their places, and their values in one v128,
// each put straight into its lane (v128.load32_lane).
struct Gathered {
    float* at[4];
    v128_t x;
};
inline Gathered gather4(float* block, const std::uint16_t* list) {
    Gathered g{{block + list[0], block + list[1], block + list[2], block + list[3]}, {}};
    g.x = wasm_v128_load32_zero(g.at[0]);
    g.x = wasm_v128_load32_lane(g.at[1], g.x, 1);
    g.x = wasm_v128_load32_lane(g.at[2], g.x, 2);
    g.x = wasm_v128_load32_lane(g.at[3], g.x, 3);
    return g;
}
// Each lane of `result` straight to its place (v128.store32_lane).
inline void scatter4(const Gathered& g, v128_t result) {
    wasm_v128_store32_lane(g.at[0], result, 0);
    wasm_v128_store32_lane(g.at[1], result, 1);
    wasm_v128_store32_lane(g.at[2], result, 2);
    wasm_v128_store32_lane(g.at[3], result, 3);
}

// Pads a list to whole groups of four by repeating its last index: that lane
// is computed twice from the same input, and both stores write the same bits.
inline void pad_to_groups(std::uint16_t* list, std::size_t& n) {
    for (; n % 4 != 0; ++n) list[n] = list[n - 1];
}

// GELU in place, in blocks of up to 1024 values, in three loops. On real inputs
// 59% of the lanes are in range A, 23% in B and 18% in C (make
// check-gelu-census). Computing A and B for every group of four, both pairs of
// polynomials for every lane with each lane keeping one, would spend nearly
// half of the first loop's arithmetic on B, for a quarter of the lanes. Here
// the first loop computes A only and lists the lanes in B and
// the lanes left for the end (C, D, and the edges) on two lists; the second
// computes B on its list four lanes at a time, as the third does for C
// and anything rarer. A lane the first loop does not
// compute keeps its input, which a later loop reads.
inline void in_place(float* values, std::size_t count) {
    constexpr std::size_t kBlock = 1024;
    for (std::size_t start = 0; start < count; start += kBlock) {
        float* block = values + start;
        const std::size_t n = count - start < kBlock ? count - start : kBlock;
        std::uint16_t in_b[kBlock + 3], later[kBlock + 3];  // + 3: padding to a whole group
        std::size_t n_b = 0, n_later = 0;
        std::size_t i = 0;
        for (; i + 4 <= n; i += 4) {
            const v128_t x = wasm_v128_load(block + i);
            const GeluA g = gelu4_range_a(x);
            wasm_v128_store(block + i, wasm_v128_bitselect(g.result, x, g.in_a));
            const auto a = static_cast<unsigned>(wasm_i32x4_bitmask(g.in_a));
            const auto b = static_cast<unsigned>(wasm_i32x4_bitmask(g.in_b));
            append_lanes(in_b, n_b, i, b);
            append_lanes(later, n_later, i, ~(a | b) & 0xfu);
        }
        for (; i < n; ++i) later[n_later++] = static_cast<std::uint16_t>(i);  // a tail shorter than four
        pad_to_groups(in_b, n_b);
        pad_to_groups(later, n_later);
        for (std::size_t k = 0; k < n_b; k += 4) {
            const Gathered g = gather4(block, in_b + k);
            scatter4(g, gelu4_range_b(g.x));
        }
        for (std::size_t k = 0; k < n_later; k += 4) {
            const Gathered g = gather4(block, later + k);
            const GeluC c = gelu4_range_c(g.x);
            if (wasm_i32x4_all_true(c.in_c)) {
                scatter4(g, c.result);
            } else {  // a lane outside C (a tail, D, or an edge input): lane by lane
                float inputs[4], results[4];
                wasm_v128_store(inputs, g.x);
                wasm_v128_store(results, c.result);
                for (int l = 0; l < 4; ++l) *g.at[l] = in_range_c(inputs[l]) ? results[l] : gelu_scalar(inputs[l]);
            }
        }
    }
}

}  // namespace
}  // namespace bx::stage::gelu
