// e^x in single precision, the table-driven algorithm musl uses since 1.1.20
// (written by Arm for their optimized-routines; wasi-libc inherits it).
//
// Idea: work in double, where there is room to spare.
//   x / ln2 * 32 = k + r,  k an integer, |r| <= 1/2
//   e^x = 2^(k/32) * 2^(r/32)
// 2^(k/32) = 2^(k div 32) * 2^((k mod 32)/32): the second factor comes from a
// 32-entry table, the first is added straight into the exponent bits.
// 2^(r/32) is a cubic polynomial in r. One final rounding double -> float.
//
// Every operation below is one IEEE double operation (no FMA: native builds use
// -ffp-contract=off, wasm has no FMA), so the result is the same bits on any
// target, and the same bits as musl's C code compiled for wasm32.
#include "common/maths/expf.hpp"

#include <cstdint>

#include "common/maths/bits.hpp"

namespace bx {
namespace {

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

// Bits 20..30 of a float: its exponent and top 3 mantissa bits. Comparing these
// is a cheap "is |x| at least about 88" test.
inline std::uint32_t top12(float x) { return float_bits(x) >> 20; }

}  // namespace

float bx_expf(float x) {
    const std::uint32_t abs_top = top12(x) & 0x7ff;
    if (abs_top >= top12(88.0f)) {  // |x| >= 88, inf or NaN: the edges, handled apart
        if (float_bits(x) == float_bits(-__builtin_inff())) return 0.0f;
        if (abs_top >= top12(__builtin_inff())) return x + x;  // +inf stays, NaN quietens
        // musl computes these by overflowing / underflowing a product so the FP
        // flags get raised; we have no use for flags, only for the value.
        if (x > 0x1.62e42ep6f) return __builtin_inff();  // above ln(2^128)
        if (x < -0x1.9fe368p6f) return 0.0f;              // below ln(2^-150)
    }

    const double xd = static_cast<double>(x);
    double z = kInvLn2Times32 * xd;
    // k = round(z) both as a double (kd) and in the low bits of ki.
    double kd = z + kRoundShift;
    const std::uint64_t ki = double_bits(kd);
    kd -= kRoundShift;
    const double r = z - kd;  // |r| <= 1/2, exact

    // s = 2^(k/32): table entry for k mod 32, exponent shifted by k div 32.
    std::uint64_t t = kPow2Table[ki % kTableSize];
    t += ki << (52 - kTableBits);
    const double s = double_from_bits(t);

    // 2^(r/32) ~= 1 + p1 r + p2 r^2 + p3 r^3, evaluated as (p3 r + p2) r^2 + (p1 r + 1).
    z = kPoly3 * r + kPoly2;
    const double r2 = r * r;
    double y = kPoly1 * r + 1.0;
    y = z * r2 + y;
    y = y * s;
    return static_cast<float>(y);
}

}  // namespace bx
