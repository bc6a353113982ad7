// Round to nearest, ties away from zero (2.5 -> 3, -2.5 -> -3): C's roundf and
// Rust's f32::round, the rounding the activation quantiser uses. Not the
// hardware default (ties to even), and not wasm's f32.nearest.
#pragma once

#include <cmath>

namespace bx {

// trunc(x) drops the fraction; x - trunc(x) is exact (it keeps bits x already
// has), so testing it against 0.5 is never fooled by rounding, unlike the
// textbook floor(x + 0.5), which sends 0.49999997f to 1. For |x| >= 2^23 x is
// already an integer and the fraction is 0. NaN stays NaN (the test is false).
// snippet: round-half-away
inline float round_half_away(float x) {
    const float whole = std::trunc(x);
    const float fraction = x - whole;
    if (std::fabs(fraction) >= 0.5f) return whole + std::copysign(1.0f, x);
    return whole;
}
// end-snippet

}  // namespace bx
