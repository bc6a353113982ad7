// erf(x) in single precision: the algorithm of FreeBSD's s_erff.c (Sun's
// fdlibm, converted to float by Ian Lance Taylor) in the shape musl gives it
// (musl >= 1.1.x computes every |x| >= 0.84375 as 1 - erfc(|x|), and cuts z to
// 11 mantissa bits, not 12). wasi-libc ships musl's version; glibc 2.36 ships
// the older FreeBSD shape, which rounds differently on some inputs. Five
// ranges of |x|, each with its own rational approximation:
//
//   |x| < 2^-28          erf(x) = (8x + 8(2/sqrt(pi) - 1)x) / 8   (first-order Taylor)
//   |x| < 0.84375        erf(x) = x + x * pp(x^2)/qq(x^2)
//   |x| < 1.25           erf(|x|) = 1 - ((1 - c) - pa(s)/qa(s)),  s = |x| - 1, c ~ erf(1)
//   |x| < 6              erf(|x|) = 1 - exp(-x^2 - 0.5625 + R(1/x^2)/S(1/x^2)) / |x|
//   |x| >= 6             erf(|x|) = 1 - 2^-120, which rounds to 1
// then the sign of x is put back.
//
// The range tests compare the bit pattern of |x| with integer constants, as the
// C code does: exact, and NaN cannot slip into a float comparison.
// Every constant is written as its f32 bit pattern, so there is no question of
// how a decimal literal rounds. Every expression keeps the C code's operation
// order; the two exp calls go to bx_expf, musl's expf.
#include "common/maths/erff.hpp"

#include <cstdint>

#include "common/maths/bits.hpp"
#include "common/maths/erff_coefficients.hpp"
#include "common/maths/expf.hpp"

namespace bx {
namespace {

// Boundaries, erx and every polynomial (shared with the stages that compute
// erf four lanes at a time).
using namespace erff_coefficients;

// erfc(|x|) for 0.84375 <= |x| < 6 (abs_bits is the bit pattern of |x|).
float erfc_from_0p84375(std::uint32_t abs_bits) {
    const float ax = float_from_bits(abs_bits);
    if (abs_bits < k1p25) {
        const float s = ax - 1.0f;
        const float p = pa0 + s * (pa1 + s * (pa2 + s * (pa3 + s * (pa4 + s * (pa5 + s * pa6)))));
        const float q = 1.0f + s * (qa1 + s * (qa2 + s * (qa3 + s * (qa4 + s * (qa5 + s * qa6)))));
        return kOneMinusErx - p / q;
    }
    const float s = 1.0f / (ax * ax);
    float big_r, big_s;
    if (abs_bits < kOneOver0p35) {
        big_r = ra0 + s * (ra1 + s * (ra2 + s * (ra3 + s * (ra4 + s * (ra5 + s * (ra6 + s * ra7))))));
        big_s = 1.0f + s * (sa1 + s * (sa2 + s * (sa3 + s * (sa4 + s * (sa5 + s * (sa6 + s * (sa7 + s * sa8)))))));
    } else {
        big_r = rb0 + s * (rb1 + s * (rb2 + s * (rb3 + s * (rb4 + s * (rb5 + s * rb6)))));
        big_s = 1.0f + s * (sb1 + s * (sb2 + s * (sb3 + s * (sb4 + s * (sb5 + s * (sb6 + s * sb7))))));
    }
    // exp(-x^2) is split as exp(-z^2) * exp((z - x)(z + x)) with z = |x| cut to
    // its top 11 mantissa bits: z*z is then exact and -x^2 loses nothing.
    const float z = float_from_bits(abs_bits & 0xffffe000u);
    return bx_expf(-z * z - 0.5625f) * bx_expf((z - ax) * (z + ax) + big_r / big_s) / ax;
}

}  // namespace

float bx_erff(float x) {
    const std::uint32_t bits = float_bits(x);
    const std::uint32_t abs_bits = bits & 0x7fffffffu;
    const bool negative = (bits >> 31) != 0;

    if (abs_bits >= kInfOrNan) {
        // erf(+-inf) = +-1 + 1/+-inf = +-1; a NaN propagates through 1/x.
        return (negative ? -1.0f : 1.0f) + 1.0f / x;
    }

    if (abs_bits < k0p84375) {
        if (abs_bits < kTwoPowM28) {
            // erf(x) ~ x + efx x; computed on 8x and scaled back so that efx x
            // cannot underflow for the smallest x.
            return 0.125f * (8.0f * x + kEfx8 * x);
        }
        const float z = x * x;
        const float r = pp0 + z * (pp1 + z * (pp2 + z * (pp3 + z * pp4)));
        const float s = 1.0f + z * (qq1 + z * (qq2 + z * (qq3 + z * (qq4 + z * qq5))));
        const float y = r / s;
        return x + x * y;
    }

    // From here on erf(|x|) = 1 - erfc(|x|), and the sign is put back at the end.
    float y;
    if (abs_bits < k6)
        y = 1.0f - erfc_from_0p84375(abs_bits);
    else
        y = 1.0f - 0x1p-120f;  // rounds to 1: erf is 1 to within half an ulp here
    return negative ? -y : y;
}

}  // namespace bx
