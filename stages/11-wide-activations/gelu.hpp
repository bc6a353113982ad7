// The GELU kernel: four lanes at a time where erf is a rational polynomial,
// the scalar function everywhere else.
//
// bx_erff (common/maths/erff.cpp) picks one of five approximations by the bit
// pattern of |u|, u = x / sqrt 2. Two of them need nothing but adds,
// multiplies and one divide:
//   A  2^-28   <= |u| < 0.84375   erf(u) = u + u * (r(z) / s(z)),  z = u*u
//   B  0.84375 <= |u| < 1.25      erf(u) = +-(1 - ((1 - erx) - p(t) / q(t))),  t = |u| - 1
// A vector of four inputs computes both, with the same f32 constants
// (common/maths/erff_coefficients.hpp) in the same order, and each lane keeps
// the one its own |u| selects, compared as an unsigned integer as the C code
// compares it. That is the scalar code's arithmetic, lane by lane, so each
// in-range lane has the scalar result's bits.
//
// Every other lane (tiny, |u| >= 1.25, infinities, NaN) is patched after the
// vector store with gelu_scalar of that lane's *input*, taken from the input
// register. The store has already overwritten the buffer: reading the lane
// back from memory would give gelu of the vector's out-of-range guess (the
// post's first bug, which stage 07 keeps runnable for check-gelu to catch).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/maths/erff_coefficients.hpp"
#include "common/maths/gelu.hpp"
#include "common/simd/simd128.hpp"

namespace bx::stage::gelu {
// Unnamed, as in gemm.hpp: each file that includes this header gets its own
// copy, so the unit tests of several stages in one binary each call their own.
namespace {

using namespace bx::erff_coefficients;

inline v128_t splat(float value) { return wasm_f32x4_splat(value); }
inline v128_t add(v128_t a, v128_t b) { return wasm_f32x4_add(a, b); }
inline v128_t mul(v128_t a, v128_t b) { return wasm_f32x4_mul(a, b); }

struct Gelu4 {
    v128_t result;      // gelu of each in-range lane; anything in the others
    unsigned in_range;  // bit l set: lane l's result is exact
};

inline Gelu4 gelu4(v128_t x) {
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
    const v128_t y = wasm_f32x4_sub(one, wasm_f32x4_sub(splat(kOneMinusErx), quotient));
    const v128_t erf_b = wasm_v128_bitselect(wasm_f32x4_neg(y), y, negative);
    const v128_t erf = wasm_v128_bitselect(erf_a, erf_b, in_a);

    // gelu = (0.5 x)(1 + erf), the scalar expression's order.
    const v128_t gelu = mul(mul(splat(0.5f), x), add(one, erf));

    const v128_t in_range =
        wasm_v128_and(wasm_u32x4_ge(abs_bits, wasm_i32x4_splat(static_cast<int>(kTwoPowM28))),
                      wasm_u32x4_lt(abs_bits, wasm_i32x4_splat(static_cast<int>(k1p25))));
    return {gelu, static_cast<unsigned>(wasm_i32x4_bitmask(in_range))};
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

inline void in_place(float* values, std::size_t count) {
    std::size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const v128_t x = wasm_v128_load(values + i);
        const Gelu4 g = gelu4(x);
        wasm_v128_store(values + i, g.result);
        for (unsigned bad = ~g.in_range & 0xfu; bad != 0; bad &= bad - 1) {
            const int l = __builtin_ctz(bad);
            values[i + l] = gelu_scalar(lane(x, l));  // the lane's input, from the register
        }
    }
    for (; i < count; ++i) values[i] = gelu_scalar(values[i]);
}

}  // namespace
}  // namespace bx::stage::gelu
