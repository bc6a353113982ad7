// Stage 13's GEMM (stages/13-packed-activations/gemm.hpp), whose activations
// are packed for the register tile, against the plain loops of stage 00, bit
// for bit: each row's int8 values and scale sit where the tile reads them
// (the filling rows of the last group are zeros with scale 0), and the tiled
// product matches on every edge tile (row counts not divisible by 4, odd
// output counts such as the classifier's 81, k of 16, 384 and 1536), on
// extreme values, and when a product reads fewer rows than were quantised
// (the last layer's queries: `live` rows of a 256-row input).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "common/maths/quantize.hpp"
#include "stages/13-packed-activations/gemm.hpp"
#include "tests/unit/gemm_reference.hpp"

namespace {

using namespace bx::test;

std::vector<float> packed_linear(const bx::LinearView& layer, const std::vector<float>& x, int rows,
                                 int quantised_rows) {
    bx::stage::QuantizedRows quantized;
    bx::stage::quantize_rows(x.data(), quantised_rows, layer.cols, quantized);
    std::vector<float> y(static_cast<std::size_t>(rows) * static_cast<std::size_t>(layer.rows));
    bx::stage::gemm(layer, quantized, rows, y.data());
    return y;
}

std::vector<float> tiled_linear(const bx::LinearView& layer, const std::vector<float>& x, int rows) {
    return packed_linear(layer, x, rows, rows);
}

}  // namespace

TEST_CASE("stage 13: each row's values and scale sit where the tile reads them", "[stage13][gemm]") {
    std::mt19937 rng(13);
    const int rows = 7, k = 1536, group = bx::stage::kTileTokens, step = bx::stage::kStepBytes;
    std::vector<float> x = random_rows(rows, k, rng);
    for (int c = 0; c < k; ++c) x[static_cast<std::size_t>(3 * k + c)] = 0.0f;  // an all-zero row: scale 0
    x[5] = 1e30f;                                                                 // one huge value: most round to 0
    bx::stage::QuantizedRows quantized;
    bx::stage::quantize_rows(x.data(), rows, k, quantized);
    const int groups = (rows + group - 1) / group;
    REQUIRE(quantized.q.size() == static_cast<std::size_t>(groups * group * k));
    REQUIRE(quantized.scale.size() == static_cast<std::size_t>(groups * group));
    std::vector<std::int8_t> q(static_cast<std::size_t>(k));
    for (int t = 0; t < groups * group; ++t) {
        const float s_in = t < rows ? bx::quantize_row_scalar(x.data() + t * k, k, q.data()) : 0.0f;
        if (t >= rows) std::fill(q.begin(), q.end(), std::int8_t{0});
        CHECK(std::memcmp(&s_in, &quantized.scale[static_cast<std::size_t>(t)], sizeof s_in) == 0);
        std::size_t differ = 0;
        for (int c = 0; c < k; ++c) {
            // group t / group, step c / 16, row t % group within the step, lane c % 16
            const std::size_t at = static_cast<std::size_t>((t / group) * group * k + (c / step) * group * step +
                                                            (t % group) * step + c % step);
            if (quantized.q[at] != q[static_cast<std::size_t>(c)]) ++differ;
        }
        CHECK(differ == 0);
    }
}

TEST_CASE("stage 13: the packed GEMM equals stage 00's linear bit for bit, edge tiles included", "[stage13][gemm]") {
    std::mt19937 rng(130);
    CHECK(edge_tile_differences(tiled_linear, rng) == std::vector<std::string>{});
}

TEST_CASE("stage 13: a product of fewer rows than were quantised reads only those rows", "[stage13][gemm]") {
    std::mt19937 rng(131);
    OwnedLinear layer(81, 384, rng);
    const int quantised = 12;
    const std::vector<float> x = random_rows(quantised, 384, rng);
    for (int rows = 1; rows <= quantised; ++rows) {
        INFO("rows " << rows << " of " << quantised);
        CHECK(same_bits(packed_linear(layer.view, x, rows, quantised), reference_linear(layer.view, x, rows)));
    }
}

TEST_CASE("stage 13: extreme values over k = 1536 stay exact", "[stage13][gemm]") {
    std::mt19937 rng(133);
    OwnedLinear layer(4, 1536, rng);
    const std::vector<float> x = make_extreme(layer);
    CHECK(same_bits(tiled_linear(layer.view, x, 5), reference_linear(layer.view, x, 5)));
}
