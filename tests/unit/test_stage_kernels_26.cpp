// Stage 26's GEMM (stages/26-unrolled-walk/gemm.hpp), which walks k two pairs
// per trip with output rows in its lanes, on weights packed by
// packed_weights.hpp, against the plain loops of
// stage 00, bit for bit: every edge tile (groups of fewer than four tokens,
// blocks of fewer than eight outputs), extreme values, and the two layouts on
// their own: each lane of a packed, widened v128 holds its output's pair of
// weights, and each token's pair of activations is where the tile reads it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "common/maths/quantize.hpp"
#include "stages/26-unrolled-walk/gemm.hpp"
#include "stages/26-unrolled-walk/packed_weights.hpp"
#include "tests/unit/gemm_reference.hpp"
#include "tests/unit/packed_gemm.hpp"

using namespace bx::test;

TEST_CASE("stage 26: the GEMM walking two pairs per trip equals stage 00's linear bit for bit, edge tiles included",
          "[stage26][gemm]") {
    std::mt19937 rng(260);
    CHECK(edge_tile_differences(packed_linear, rng) == std::vector<std::string>{});
}

TEST_CASE("stage 26: extreme values over k = 1536 stay exact", "[stage26][gemm]") {
    std::mt19937 rng(261);
    OwnedLinear layer(4, 1536, rng);
    const std::vector<float> x = make_extreme(layer);
    CHECK(same_bits(packed_linear(layer.view, x, 5), reference_linear(layer.view, x, 5)));
}

TEST_CASE("stage 26: a packed, widened v128 holds one pair of weights per output", "[stage26][gemm]") {
    std::mt19937 rng(262);
    const int rows = 19, k = 48;  // three blocks of 8, the last with 3 outputs
    OwnedLinear layer(rows, k, rng);
    const std::vector<std::int8_t> packed = packed_copy(layer.view);
    const int width = bx::stage::kBlockOutputs;
    std::size_t wrong = 0;
    for (int block = 0; block * width < rows; ++block)
        for (int pair = 0; pair < k / 2; ++pair)
            for (int v = 0; v < width / 4; ++v) {
                const std::int8_t* at = packed.data() + static_cast<std::size_t>(block) * width * k +
                                        static_cast<std::size_t>(pair) * 2 * width + 8 * v;
                std::int16_t lanes[8];
                wasm_v128_store(lanes, bx::stage::load_widened(at));
                for (int j = 0; j < 4; ++j) {
                    const int o = block * width + 4 * v + j;
                    const std::int16_t want0 = o < rows ? layer.w[static_cast<std::size_t>(o * k + 2 * pair)] : 0;
                    const std::int16_t want1 = o < rows ? layer.w[static_cast<std::size_t>(o * k + 2 * pair + 1)] : 0;
                    wrong += (lanes[2 * j] != want0) + (lanes[2 * j + 1] != want1);
                }
            }
    CHECK(wrong == 0);
}

TEST_CASE("stage 26: quantize_rows puts each token's pair of k where the tile reads it", "[stage26][gemm]") {
    std::mt19937 rng(263);
    const int rows = 7, k = 64;
    const std::vector<float> x = random_rows(rows, k, rng);
    bx::stage::QuantizedRows quantized;
    bx::stage::quantize_rows(x.data(), rows, k, quantized);
    const int tokens = bx::stage::kTileTokens;
    std::size_t wrong = 0;
    std::vector<std::int8_t> q(static_cast<std::size_t>(k));
    for (int t = 0; t < rows; ++t) {
        const float scale = bx::quantize_row_scalar(x.data() + t * k, k, q.data());
        wrong += quantized.scale[static_cast<std::size_t>(t)] != scale;
        const std::int16_t* group = quantized.q.data() + static_cast<std::size_t>(t / tokens) * tokens * k;
        for (int c = 0; c < k; ++c)
            wrong += group[(c / 2) * 2 * tokens + (t % tokens) * 2 + c % 2] != q[static_cast<std::size_t>(c)];
    }
    // The group's filling rows are zeros with scale 0.
    for (int t = rows; t % tokens != 0; ++t) {
        wrong += quantized.scale[static_cast<std::size_t>(t)] != 0.0f;
        const std::int16_t* group = quantized.q.data() + static_cast<std::size_t>(t / tokens) * tokens * k;
        for (int c = 0; c < k; ++c) wrong += group[(c / 2) * 2 * tokens + (t % tokens) * 2 + c % 2] != 0;
    }
    CHECK(wrong == 0);
}
