// Stage 14's GEMM (stages/14-widening-loads/gemm.hpp), whose weight rows are
// widened to int16 by the loads that read them (v128.load8x8_s), against the
// plain loops of stage 00, bit for bit. What could go wrong is in the
// weights: a half read from the wrong eight bytes, or widened without its
// sign. So the layers here have negative weights everywhere (random ones,
// and rows of -128 and -127), every edge tile, and k of 16, 384 and 1536.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "stages/14-widening-loads/gemm.hpp"
#include "tests/unit/gemm_reference.hpp"

namespace {

using namespace bx::test;

std::vector<float> widening_linear(const bx::LinearView& layer, const std::vector<float>& x, int rows) {
    bx::stage::QuantizedRows quantized;
    bx::stage::quantize_rows(x.data(), rows, layer.cols, quantized);
    std::vector<float> y(static_cast<std::size_t>(rows) * static_cast<std::size_t>(layer.rows));
    bx::stage::gemm(layer, quantized, rows, y.data());
    return y;
}

}  // namespace

TEST_CASE("stage 14: the GEMM with widening loads equals stage 00's linear bit for bit, edge tiles included",
          "[stage14][gemm]") {
    std::mt19937 rng(140);
    CHECK(edge_tile_differences(widening_linear, rng) == std::vector<std::string>{});
}

TEST_CASE("stage 14: negative weights keep their sign in both halves of a step", "[stage14][gemm]") {
    std::mt19937 rng(141);
    OwnedLinear layer(3, 384, rng);
    // Row 0: -1 in the low eight bytes of every step, +1 in the high eight;
    // row 1 the other way round; row 2 all -128. A half read from the wrong
    // bytes, or widened as unsigned (255, 128), changes every output.
    for (int c = 0; c < 384; ++c) {
        const bool low = c % 16 < 8;
        layer.w[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(low ? -1 : 1);
        layer.w[static_cast<std::size_t>(384 + c)] = static_cast<std::int8_t>(low ? 1 : -1);
        layer.w[static_cast<std::size_t>(768 + c)] = static_cast<std::int8_t>(-128);
    }
    const std::vector<float> x = random_rows(6, 384, rng);
    CHECK(same_bits(widening_linear(layer.view, x, 6), reference_linear(layer.view, x, 6)));
}

TEST_CASE("stage 14: extreme values over k = 1536 stay exact", "[stage14][gemm]") {
    std::mt19937 rng(143);
    OwnedLinear layer(4, 1536, rng);
    const std::vector<float> x = make_extreme(layer);
    CHECK(same_bits(widening_linear(layer.view, x, 5), reference_linear(layer.view, x, 5)));
}
