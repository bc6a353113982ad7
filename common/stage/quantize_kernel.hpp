// An optional part of the stage interface, for stages whose activation
// quantiser is their own kernel (stage 09 on). A stage that lists the
// `check-quant` harness command in its bx_stage() call defines both functions;
// check-quant checks them against the scalar reference (common/maths/quantize.hpp).
#pragma once

#include <cstdint>

namespace bx::stage {

// The whole row, bit-identical to quantize_row_scalar: q[0..n) and s_in.
float quantize_row(const float* x, int n, std::int8_t* q);

// The element step alone, for a given inv: q[c] = quantize_value(x[c] * inv).
void quantize_scaled(const float* x, int n, float inv, std::int8_t* q);

}  // namespace bx::stage
