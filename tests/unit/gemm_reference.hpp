// Stage 00's linear layer, for the unit tests of later stages' GEMMs
// (test_stage_kernels_02.cpp, _11.cpp): a seeded random layer with its own
// storage, activation rows shaped like real ones, the plain loops (quantise a
// row, one int8 dot product per output, dequantise) and a bit comparison.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/maths/quantize.hpp"
#include "common/model/model_view.hpp"

namespace bx::test {

// A linear layer with its own storage, filled from a seeded generator.
struct OwnedLinear {
    std::vector<std::int8_t> w;
    std::vector<float> scale, bias;
    bx::LinearView view;

    OwnedLinear(int outputs, int k, std::mt19937& rng, int weight_limit = 127) {
        std::uniform_int_distribution<int> weight(-weight_limit, weight_limit);
        std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
        w.resize(static_cast<std::size_t>(outputs) * static_cast<std::size_t>(k));
        for (auto& value : w) value = static_cast<std::int8_t>(weight(rng));
        scale.resize(static_cast<std::size_t>(outputs));
        bias.resize(static_cast<std::size_t>(outputs));
        for (auto& value : scale) value = 0.001f + 0.01f * std::fabs(unit(rng));
        for (auto& value : bias) value = unit(rng);
        view = bx::LinearView{w.data(), scale.data(), bias.data(), outputs, k};
    }
};

inline std::vector<float> random_rows(int rows, int k, std::mt19937& rng) {
    std::normal_distribution<float> normal(0.0f, 2.0f);
    std::vector<float> x(static_cast<std::size_t>(rows) * static_cast<std::size_t>(k));
    for (auto& value : x) value = normal(rng);
    return x;
}

// Stage 00's linear(): quantise a row, one int8 dot product per output, dequantise.
inline std::vector<float> reference_linear(const bx::LinearView& layer, const std::vector<float>& x, int rows) {
    std::vector<float> y(static_cast<std::size_t>(rows) * static_cast<std::size_t>(layer.rows));
    std::vector<std::int8_t> q(static_cast<std::size_t>(layer.cols));
    for (int t = 0; t < rows; ++t) {
        const float s_in = bx::quantize_row_scalar(x.data() + t * layer.cols, layer.cols, q.data());
        for (int o = 0; o < layer.rows; ++o) {
            std::int32_t acc = 0;
            for (int i = 0; i < layer.cols; ++i)
                acc += std::int32_t{q[static_cast<std::size_t>(i)]} * std::int32_t{layer.w[o * layer.cols + i]};
            y[static_cast<std::size_t>(t * layer.rows + o)] =
                layer.bias[o] + (static_cast<float>(acc) * s_in) * layer.scale[o];
        }
    }
    return y;
}

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}


// Every edge tile a GEMM meets: k of 16, 384 and 1536; 1, 2, 3, 81 (the
// classifier) and 384 outputs; 1 to 9 rows (whole tiles and every remainder).
// `tiled(view, x, rows)` is the GEMM under test; returns the (k, outputs, rows)
// cases whose outputs differ from stage 00's in any bit.
template <typename Tiled>
std::vector<std::string> edge_tile_differences(Tiled tiled, std::mt19937& rng) {
    std::vector<std::string> differ;
    for (const int k : {16, 384, 1536}) {
        for (const int outputs : {1, 2, 3, 81, 384}) {
            const OwnedLinear layer(outputs, k, rng);
            for (int rows = 1; rows <= 9; ++rows) {
                const std::vector<float> x = random_rows(rows, k, rng);
                if (!same_bits(tiled(layer.view, x, rows), reference_linear(layer.view, x, rows)))
                    differ.push_back("k " + std::to_string(k) + ", outputs " + std::to_string(outputs) + ", rows " +
                                     std::to_string(rows));
            }
        }
    }
    return differ;
}

// Extreme values over k = 1536, for a layer of 4 outputs and k = 1536: weights
// of +-127 and a row of -128, activations that quantise to +-127 in every
// position (5 rows). dot_i16x8 adds two products of at most 127 * 128 into an
// i32 lane; the largest |acc| here is 1536 * 127 * 127, far below 2^31.
inline std::vector<float> make_extreme(OwnedLinear& layer) {
    for (std::size_t i = 0; i < layer.w.size(); ++i) layer.w[i] = static_cast<std::int8_t>(i % 3 == 0 ? -127 : 127);
    std::fill(layer.w.begin() + 1536, layer.w.begin() + 3072, static_cast<std::int8_t>(-128));
    std::vector<float> x(5 * 1536, 1.0f);
    for (std::size_t i = 1536; i < 3072; ++i) x[i] = -1.0f;
    for (std::size_t i = 3072; i < 4608; ++i) x[i] = (i % 2 == 0) ? 3.0f : -3.0f;
    return x;
}

}  // namespace bx::test
