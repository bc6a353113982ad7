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

#include <bit>
#include <cstdint>

#include "common/maths/bits.hpp"
#include "common/maths/expf_constants.hpp"

namespace bx {
namespace {

using namespace expf_constants;

// Bits 20..30 of a float: its exponent and top 3 mantissa bits. Comparing these
// is a cheap "is |x| at least about 88" test.
inline std::uint32_t top12(float x) { return float_bits(x) >> 20; }
static_assert(std::bit_cast<std::uint32_t>(88.0f) >> 20 == kTop12Of88);

}  // namespace

float bx_expf(float x) {
    const std::uint32_t abs_top = top12(x) & 0x7ff;
    if (abs_top >= kTop12Of88) {  // |x| >= 88, inf or NaN: the edges, handled apart
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
