// The stage's quantiser behind the optional stage interface
// (common/stage/quantize_kernel.hpp), for check-quant.
#include "common/stage/quantize_kernel.hpp"

#include "quantize.hpp"

namespace bx::stage {

float quantize_row(const float* x, int n, std::int8_t* q) { return quant::quantize_row(x, n, q); }

void quantize_scaled(const float* x, int n, float inv, std::int8_t* q) { quant::quantize_scaled(x, n, inv, q); }

}  // namespace bx::stage
