// LayerNorm: common/maths/layer_norm.cpp's layer_norm_scalar for
// R rows at once. A row's mean and variance are two float sums over its 384
// values, each a chain of dependent adds; for R rows there are R independent
// chains, and running them side by side hides the add latency. Each row keeps
// its own operations in its own order (sum from 0.0f, c = 0, 1, ...; the
// squared deviations likewise; then the same divide, sqrt and element step),
// so each row's result is layer_norm_scalar's.
//
// Everything here is in an unnamed namespace (see gemm.hpp).
#pragma once

#include <cmath>

#include "common/maths/layer_norm.hpp"

namespace bx::stage::norm {
namespace {

// y_r = LN(x_r) for rows x_r = x + r * n, y_r = y + r * n (y may be x).
template <int R>
inline void layer_norm_rows(const float* x, int n, const float* gamma, const float* beta, float* y) {
    const float count = static_cast<float>(n);
    float sum[R], mean[R], sq[R];
    for (int r = 0; r < R; ++r) sum[r] = 0.0f, sq[r] = 0.0f;
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < R; ++r) sum[r] += x[r * n + c];
    for (int r = 0; r < R; ++r) mean[r] = sum[r] / count;
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < R; ++r) {
            const float d = x[r * n + c] - mean[r];
            sq[r] += d * d;
        }
    for (int r = 0; r < R; ++r) {
        const float var = sq[r] / count;
        const float inv = 1.0f / std::sqrt(var + kLayerNormEps);
        const float* xr = x + r * n;
        float* yr = y + r * n;
        for (int c = 0; c < n; ++c) yr[c] = ((xr[c] - mean[r]) * inv) * gamma[c] + beta[c];
    }
}

}  // namespace
}  // namespace bx::stage::norm
