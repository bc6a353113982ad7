// Stage 11's GEMM (stages/11-wide-activations/gemm.hpp), whose activations
// are stored widened to int16, against the plain loops of stage 00, bit for
// bit: the widened rows hold each row's int8 values and scale, and the tiled
// product matches on every edge tile (row counts not divisible by 4, odd
// output counts such as the classifier's 81, k of 16, 384 and 1536) and on
// extreme values.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "common/maths/quantize.hpp"
#include "stages/11-wide-activations/gemm.hpp"
#include "tests/unit/gemm_reference.hpp"

namespace {

using namespace bx::test;

std::vector<float> tiled_linear(const bx::LinearView& layer, const std::vector<float>& x, int rows) {
    bx::stage::QuantizedRows quantized;
    bx::stage::quantize_rows(x.data(), rows, layer.cols, quantized);
    std::vector<float> y(static_cast<std::size_t>(rows) * static_cast<std::size_t>(layer.rows));
    bx::stage::gemm(layer, quantized, rows, y.data());
    return y;
}

}  // namespace

TEST_CASE("stage 11: the widened rows hold each row's int8 values and scale", "[stage11][gemm]") {
    std::mt19937 rng(11);
    const int rows = 7, k = 1536;
    std::vector<float> x = random_rows(rows, k, rng);
    for (int c = 0; c < k; ++c) x[static_cast<std::size_t>(3 * k + c)] = 0.0f;  // an all-zero row: scale 0
    x[5] = 1e30f;                                                                 // one huge value: most round to 0
    bx::stage::QuantizedRows quantized;
    bx::stage::quantize_rows(x.data(), rows, k, quantized);
    REQUIRE(quantized.q.size() == static_cast<std::size_t>(rows * k));
    std::vector<std::int8_t> q(static_cast<std::size_t>(k));
    for (int t = 0; t < rows; ++t) {
        const float s_in = bx::quantize_row_scalar(x.data() + t * k, k, q.data());
        CHECK(std::memcmp(&s_in, &quantized.scale[static_cast<std::size_t>(t)], sizeof s_in) == 0);
        std::size_t differ = 0;
        for (int c = 0; c < k; ++c)
            if (quantized.q[static_cast<std::size_t>(t * k + c)] != q[static_cast<std::size_t>(c)]) ++differ;
        CHECK(differ == 0);
    }
}

TEST_CASE("stage 11: the tiled GEMM equals stage 00's linear bit for bit, edge tiles included", "[stage11][gemm]") {
    std::mt19937 rng(110);
    CHECK(edge_tile_differences(tiled_linear, rng) == std::vector<std::string>{});
}

TEST_CASE("stage 11: extreme values over k = 1536 stay exact", "[stage11][gemm]") {
    std::mt19937 rng(111);
    OwnedLinear layer(4, 1536, rng);
    const std::vector<float> x = make_extreme(layer);
    CHECK(same_bits(tiled_linear(layer.view, x, 5), reference_linear(layer.view, x, 5)));
}
