// GELU with the exact erf (not the tanh approximation, which changes outputs):
//   gelu(x) = (0.5 x) (1 + erf(x / sqrt 2)), with bx_erff, in this order.
#pragma once

namespace bx {

// 1/sqrt(2) rounded to f32. GELU multiplies by it (dividing by sqrt(2) would
// round differently); vector GELUs must use this same value.
inline constexpr float kGeluInputScale = 0.70710678118654752f;

float gelu_scalar(float x);

}  // namespace bx
