// LayerNorm over one row, in the contract's order (README, THE ARITHMETIC):
//   mean = (sum x_c, left to right) / n
//   var  = (sum (x_c - mean)^2, left to right) / n
//   inv  = 1 / sqrt(var + 1e-12)
//   y_c  = ((x_c - mean) * inv) * gamma_c + beta_c
// y may be the same array as x (each y_c depends only on x_c and the two sums).
#pragma once

namespace bx {

inline constexpr float kLayerNormEps = 1e-12f;

void layer_norm_scalar(const float* x, int n, const float* gamma, const float* beta, float* y);

}  // namespace bx
