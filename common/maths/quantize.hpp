// Dynamic per-row int8 quantisation of activations (README, THE ARITHMETIC).
// Every linear layer quantises its input rows with this before the integer
// dot products; later stages' SIMD quantisers must reproduce it bit for bit.
#pragma once

#include <cstdint>

namespace bx {

// Quantises x[0..n) into q[0..n) and returns the row's scale s_in, so that
// x_c ~= q_c * s_in:
//   amax = max |x_c| (from 0, NaN never wins),  s_in = amax / 127,
//   inv  = amax > 0 ? 127 / amax : 0,
//   q_c  = clamp(round_half_away(x_c * inv), -127, 127), NaN -> 0.
float quantize_row_scalar(const float* x, int n, std::int8_t* q);

// The element step alone: round, clamp, NaN -> 0. Exposed for exhaustive tests.
std::int8_t quantize_value(float scaled);

}  // namespace bx
