#include "common/maths/quantize.hpp"

#include <cmath>

#include "common/maths/round.hpp"

namespace bx {

std::int8_t quantize_value(float scaled) {
    const float r = round_half_away(scaled);
    // Both comparisons are false for NaN, which falls through to the test below.
    if (r > 127.0f) return 127;
    if (r < -127.0f) return -127;
    if (r != r) return 0;  // NaN
    return static_cast<std::int8_t>(r);
}

float quantize_row_scalar(const float* x, int n, std::int8_t* q) {
    // `a > amax` is false when a is NaN, so a NaN element never becomes the max.
    float amax = 0.0f;
    for (int c = 0; c < n; ++c) {
        const float a = std::fabs(x[c]);
        if (a > amax) amax = a;
    }
    const float s_in = amax / 127.0f;
    // An all-zero row quantises to zeros with scale 0 (no division by zero).
    const float inv = amax > 0.0f ? 127.0f / amax : 0.0f;
    for (int c = 0; c < n; ++c) q[c] = quantize_value(x[c] * inv);
    return s_in;
}

}  // namespace bx
