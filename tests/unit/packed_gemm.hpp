// The GEMM of a stage whose weights are packed for it (stages 25 on), run the
// way its forward pass runs it: the weights packed by the stage's own
// packed_weights.hpp, the rows quantised by its quantize_rows(), then gemm().
//
// Include it after the stage's gemm.hpp and packed_weights.hpp: it names
// bx::stage, which each stage's headers define in an unnamed namespace, so
// every test file gets the helpers for the one stage it includes.
#pragma once

#include <cstdint>
#include <vector>

#include "common/model/model_view.hpp"

namespace bx::test {
namespace {

// The layer's weights in the order the stage's GEMM reads them.
std::vector<std::int8_t> packed_copy(const LinearView& layer) {
    std::vector<std::int8_t> packed(stage::packed::packed_size(layer.rows, layer.cols, stage::kBlockOutputs));
    stage::packed::pack(layer.w, layer.rows, layer.cols, stage::kBlockOutputs, packed.data());
    return packed;
}

// y = layer(x) for `rows` rows through the stage's GEMM.
std::vector<float> packed_linear(const LinearView& layer, const std::vector<float>& x, int rows) {
    stage::QuantizedRows quantized;
    stage::quantize_rows(x.data(), rows, layer.cols, quantized);
    const std::vector<std::int8_t> packed = packed_copy(layer);
    std::vector<float> y(static_cast<std::size_t>(rows) * static_cast<std::size_t>(layer.rows));
    stage::gemm(layer, packed.data(), quantized, rows, y.data());
    return y;
}

}  // namespace
}  // namespace bx::test
