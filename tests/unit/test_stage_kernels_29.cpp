// Stage 29's GEMM (stages/29-eight-token-tile/gemm.hpp), a tile of eight
// tokens by eight outputs that reads each step's pairs with two 16-byte
// loads, against the plain loops of stage 00, bit for bit: every edge tile
// (groups of one to seven tokens, blocks of fewer than eight outputs),
// extreme values over k = 1536, and the step on its own: each of the eight
// tokens' accumulators must hold its own pair times the weights (the kept
// mistake pair-units gives tokens 4..7 the pairs of tokens 2..5).
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "stages/29-eight-token-tile/gemm.hpp"
#include "stages/29-eight-token-tile/packed_weights.hpp"
#include "tests/unit/gemm_reference.hpp"
#include "tests/unit/packed_gemm.hpp"

using namespace bx::test;

TEST_CASE("stage 29: the eight-token GEMM equals stage 00's linear bit for bit, edge tiles included",
          "[stage29][gemm]") {
    std::mt19937 rng(290);
    CHECK(edge_tile_differences(packed_linear, rng) == std::vector<std::string>{});
}

TEST_CASE("stage 29: extreme values over k = 1536 stay exact", "[stage29][gemm]") {
    std::mt19937 rng(291);
    OwnedLinear layer(4, 1536, rng);
    const std::vector<float> x = make_extreme(layer);
    CHECK(same_bits(packed_linear(layer.view, x, 5), reference_linear(layer.view, x, 5)));
}

TEST_CASE("stage 29: one step gives each of the eight tokens its own pair's products", "[stage29][gemm]") {
    static_assert(bx::stage::kTileTokens == 8 && bx::stage::kBlockVectors == 2);
    // Eight tokens' pairs as the packing stores them, and weights of 1 and 2
    // for the pair's two values in every output: token r's lane sums are
    // then pair[0] + 2 * pair[1], different for every token.
    const std::int16_t pairs[16] = {1, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47};
    std::int8_t weights[16];
    for (int i = 0; i < 16; ++i) weights[i] = static_cast<std::int8_t>(i % 2 ? 2 : 1);
    v128_t sum[8][2];
    for (auto& row : sum)
        for (v128_t& s : row) s = wasm_i32x4_splat(0);
    bx::stage::tile_step(pairs, weights, sum);
    std::size_t wrong = 0;
    for (int r = 0; r < 8; ++r)
        for (int v = 0; v < 2; ++v) {
            std::int32_t lanes[4];
            wasm_v128_store(lanes, sum[r][v]);
            for (std::int32_t lane : lanes) wrong += lane != pairs[2 * r] + 2 * pairs[2 * r + 1];
        }
    CHECK(wrong == 0);
}
