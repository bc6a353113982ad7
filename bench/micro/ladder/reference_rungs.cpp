// The bottom rung of every ladder: stage 00's scalar arithmetic, which the
// stages before a kernel's first vector version use unchanged (their range
// comes from CMake: BX_SCALAR_<KERNEL>_STAGES).
#include <cstddef>
#include <algorithm>
#include <vector>

#include "bench/micro/ladder/rung.hpp"
#include "common/maths/expf.hpp"
#include "common/maths/gelu.hpp"
#include "common/maths/layer_norm.hpp"
#include "common/maths/quantize.hpp"
#include "tests/unit/attention_reference.hpp"
#include "tests/unit/gemm_reference.hpp"

namespace {

using bx::ladder::Kernel;

#ifdef BX_SCALAR_GEMM_STAGES
// Stage 00's linear(): quantise a row, one int8 dot product per output,
// dequantise (tests/unit/gemm_reference.hpp, which the unit tests hold every
// stage's GEMM to).
bx::ladder::GemmRun scalar_gemm(const bx::LinearView& layer) {
    return [layer](const float* x, int rows, float* y) {
        const std::vector<float> in(x, x + static_cast<std::size_t>(rows) * static_cast<std::size_t>(layer.cols));
        const std::vector<float> out = bx::test::reference_linear(layer, in, rows);
        std::copy(out.begin(), out.end(), y);
    };
}
const bool gemm = bx::ladder::add_rung(Kernel::gemm, {"00-naive", BX_SCALAR_GEMM_STAGES, scalar_gemm});
#endif
#ifdef BX_SCALAR_GELU_STAGES
void scalar_gelu(float* values, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) values[i] = bx::gelu_scalar(values[i]);
}
const bool gelu = bx::ladder::add_rung(Kernel::gelu, {"00-naive", BX_SCALAR_GELU_STAGES, nullptr, scalar_gelu});
#endif
#ifdef BX_SCALAR_EXP_STAGES
void scalar_exp(float* values, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) values[i] = bx::bx_expf(values[i]);
}
const bool exp = bx::ladder::add_rung(Kernel::exp, {"00-naive", BX_SCALAR_EXP_STAGES, nullptr, scalar_exp});
#endif
#ifdef BX_SCALAR_QUANTISE_STAGES
const bool quantise = bx::ladder::add_rung(Kernel::quantise,
                                           {"00-naive", BX_SCALAR_QUANTISE_STAGES, nullptr, nullptr, bx::quantize_row_scalar});
#endif

#ifdef BX_SCALAR_ATTENTION_STAGES
const bool attention = bx::ladder::add_rung(Kernel::attention, {"00-naive", BX_SCALAR_ATTENTION_STAGES, nullptr, nullptr,
                                                                nullptr, bx::test::reference_attention_layer});
#endif
#ifdef BX_SCALAR_LAYERNORM_STAGES
void scalar_norm(float* x, int rows, const float* gamma, const float* beta) {
    for (int r = 0; r < rows; ++r) bx::layer_norm_scalar(x + r * bx::kHidden, bx::kHidden, gamma, beta, x + r * bx::kHidden);
}
const bool layernorm = bx::ladder::add_rung(Kernel::layernorm, {"00-naive", BX_SCALAR_LAYERNORM_STAGES, nullptr, nullptr,
                                                                nullptr, nullptr, scalar_norm});
#endif

}  // namespace
