// Where an f32 input x lands among bx_erff's branches, by the bit pattern of
// |u|, u = x * kGeluInputScale: the classes check-gelu and check-gelu-census report.
// Stage 07's vector path covers exactly kA and kB; stage 17's also kC and kD.
#pragma once

#include <cstdint>

#include "common/maths/bits.hpp"
#include "common/maths/erff_coefficients.hpp"
#include "common/maths/gelu.hpp"

namespace bx::harness {

enum class GeluRange { kTiny, kA, kB, kExp, kOne, kInfNan, kCount };

inline const char* gelu_range_name(GeluRange range) {
    switch (range) {
        case GeluRange::kTiny: return "|u| < 2^-28            (tiny)";
        case GeluRange::kA: return "2^-28 <= |u| < 0.84375 (A, rational)";
        case GeluRange::kB: return "0.84375 <= |u| < 1.25  (B, rational)";
        case GeluRange::kExp: return "1.25 <= |u| < 6        (C, two expf)";
        case GeluRange::kOne: return "6 <= |u| < inf         (D, erf = 1)";
        default: return "inf or NaN";
    }
}

inline GeluRange gelu_range(float x) {
    using namespace bx::erff_coefficients;
    const std::uint32_t abs_bits = float_bits(x * kGeluInputScale) & 0x7fffffffu;
    if (abs_bits < kTwoPowM28) return GeluRange::kTiny;
    if (abs_bits < k0p84375) return GeluRange::kA;
    if (abs_bits < k1p25) return GeluRange::kB;
    if (abs_bits < k6) return GeluRange::kExp;
    if (abs_bits < kInfOrNan) return GeluRange::kOne;
    return GeluRange::kInfNan;
}

// Stage 07's vector range (stage 17 adds kC and kD).
inline bool gelu_vector_range(GeluRange range) { return range == GeluRange::kA || range == GeluRange::kB; }

}  // namespace bx::harness
