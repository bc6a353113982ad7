// Stage 02's int8 GEMM (stages/02-blocked-gemm/gemm.hpp) against the plain
// loops of stage 00: the same int8 rows and scales, and outputs equal bit for
// bit, for every tile shape the edges produce (row counts not divisible by 4,
// odd output counts such as the classifier's 81) and both real k (384, 1536).
//
// The kernels are header functions in an unnamed namespace, so this file gets
// its own copy of stage 02's; it links with stage 00 only, as every unit test.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "common/maths/quantize.hpp"
#include "stages/02-blocked-gemm/gemm.hpp"
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

TEST_CASE("stage 02: quantising all rows up front gives each row's own int8 values and scale", "[stage02][gemm]") {
    std::mt19937 rng(2);
    const int rows = 7, k = 384;
    std::vector<float> x = random_rows(rows, k, rng);
    for (int c = 0; c < k; ++c) x[static_cast<std::size_t>(3 * k + c)] = 0.0f;  // an all-zero row: scale 0
    bx::stage::QuantizedRows quantized;
    bx::stage::quantize_rows(x.data(), rows, k, quantized);
    REQUIRE(quantized.q.size() == static_cast<std::size_t>(rows * k));
    REQUIRE(quantized.scale.size() == static_cast<std::size_t>(rows));
    std::vector<std::int8_t> q(static_cast<std::size_t>(k));
    for (int t = 0; t < rows; ++t) {
        const float s_in = bx::quantize_row_scalar(x.data() + t * k, k, q.data());
        CHECK(std::memcmp(&s_in, &quantized.scale[static_cast<std::size_t>(t)], sizeof s_in) == 0);
        CHECK(std::memcmp(q.data(), quantized.q.data() + t * k, static_cast<std::size_t>(k)) == 0);
    }
}

TEST_CASE("stage 02: the 4x2-tiled GEMM equals stage 00's linear bit for bit, edge tiles included",
          "[stage02][gemm]") {
    std::mt19937 rng(20);
    CHECK(edge_tile_differences(tiled_linear, rng) == std::vector<std::string>{});
}

TEST_CASE("stage 02: the GEMM writes exactly rows x outputs values", "[stage02][gemm]") {
    std::mt19937 rng(21);
    const OwnedLinear layer(81, 384, rng);
    const int rows = 7;  // e.g. live = 7 in the last layer: one 4-row tile, then 3
    const std::vector<float> x = random_rows(rows, 384, rng);
    bx::stage::QuantizedRows quantized;
    bx::stage::quantize_rows(x.data(), rows, 384, quantized);
    const float sentinel = -12345.0f;
    std::vector<float> y(static_cast<std::size_t>((rows + 1) * 81), sentinel);
    bx::stage::gemm(layer.view, quantized, rows, y.data());
    for (std::size_t i = 0; i < static_cast<std::size_t>(rows * 81); ++i) CHECK(y[i] != sentinel);
    for (std::size_t i = static_cast<std::size_t>(rows * 81); i < y.size(); ++i) CHECK(y[i] == sentinel);
}

TEST_CASE("stage 02: extreme int8 values over k = 1536 stay exact (no i16 or i32 overflow)", "[stage02][gemm]") {
    std::mt19937 rng(22);
    OwnedLinear layer(4, 1536, rng);
    const std::vector<float> x = make_extreme(layer);
    CHECK(same_bits(tiled_linear(layer.view, x, 5), reference_linear(layer.view, x, 5)));
}
