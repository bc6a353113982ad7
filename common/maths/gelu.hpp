// GELU with the exact erf (not the tanh approximation, which changes outputs):
//   gelu(x) = (0.5 x) (1 + erf(x / sqrt 2)), with bx_erff, in this order.
#pragma once

namespace bx {

float gelu_scalar(float x);

}  // namespace bx
