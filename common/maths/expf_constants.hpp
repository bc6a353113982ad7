// bx_expf's constants: the 2^(i/32) table, the scaling and rounding
// constants and the cubic's coefficients, in one place, so that every vector
// exp (stage 10 on) uses exactly the values the scalar one uses. What each is
// for: common/maths/expf.cpp.
#pragma once

#include <cstdint>

namespace bx::expf_constants {

constexpr int kTableBits = 5;
constexpr int kTableSize = 1 << kTableBits;  // 32

// kPow2Table[i] = bits(2^(i/32)) - (i << 47), where 2^(i/32) is rounded to the
// nearest double. Subtracting i << 47 lets the lookup below add k << 47 for any
// k (not just k mod 32) and land on 2^(k/32) with the right exponent.
// Regenerate (and check) with common/maths/gen_exp2_table.py.
constexpr std::uint64_t kPow2Table[kTableSize] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
};

// 32 / ln 2: scales x so that the integer part of the product indexes 2^(1/32) steps.
constexpr double kInvLn2Times32 = 0x1.71547652b82fep+0 * kTableSize;

// Adding 1.5 * 2^52 to a double of magnitude < 2^51 rounds it to an integer
// (ties to even, the current rounding mode) and leaves that integer in the low
// bits of the sum's bit pattern: a rounding and a conversion in one addition.
constexpr double kRoundShift = 0x1.8p+52;

// Minimax cubic for 2^(r/32) - 1 on |r| <= 1/2, pre-divided by powers of 32
// (the coefficients are Arm's, for 2^r on |r| <= 1/64).
constexpr double kPoly3 = 0x1.c6af84b912394p-5 / kTableSize / kTableSize / kTableSize;
constexpr double kPoly2 = 0x1.ebfce50fac4f3p-3 / kTableSize / kTableSize;
constexpr double kPoly1 = 0x1.62e42ff0c52d6p-1 / kTableSize;

// Inputs with |x| below about 88 take the main path: the top 12 bits of |x|
// (exponent and 3 mantissa bits) below those of 88.0f.
constexpr std::uint32_t kTop12Of88 = 0x42b;  // bits(88.0f) = 0x42b00000

}  // namespace bx::expf_constants
