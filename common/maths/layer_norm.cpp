#include "common/maths/layer_norm.hpp"

#include <cmath>

namespace bx {

void layer_norm_scalar(const float* x, int n, const float* gamma, const float* beta, float* y) {
    const float count = static_cast<float>(n);
    // Plain left-to-right sums: float addition is not associative, so the
    // order is part of the result. Without -ffast-math the compiler keeps it.
    float sum = 0.0f;
    for (int c = 0; c < n; ++c) sum += x[c];
    const float mean = sum / count;
    float sq = 0.0f;
    for (int c = 0; c < n; ++c) {
        const float d = x[c] - mean;
        sq += d * d;
    }
    const float var = sq / count;
    const float inv = 1.0f / std::sqrt(var + kLayerNormEps);  // sqrt is correctly rounded everywhere
    for (int c = 0; c < n; ++c) y[c] = ((x[c] - mean) * inv) * gamma[c] + beta[c];
}

}  // namespace bx
