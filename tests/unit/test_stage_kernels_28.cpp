// Stage 28's GEMM (stages/28-one-load-tile/gemm.hpp), which reads a tile
// step's four token pairs with one 16-byte load and spreads each with a
// shuffle, against the plain loops of stage 00, bit for bit: every edge tile
// (groups of fewer than four tokens, blocks of fewer than eight outputs),
// extreme values over k = 1536, and the spread on its own: token r's spread
// vector holds its own pair of k in every lane, both halves of it (the kept
// mistake half-pair repeats the first half).
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "stages/28-one-load-tile/gemm.hpp"
#include "stages/28-one-load-tile/packed_weights.hpp"
#include "tests/unit/gemm_reference.hpp"
#include "tests/unit/packed_gemm.hpp"

using namespace bx::test;

TEST_CASE("stage 28: the GEMM with one load per tile step equals stage 00's linear bit for bit, edge tiles included",
          "[stage28][gemm]") {
    std::mt19937 rng(280);
    CHECK(edge_tile_differences(packed_linear, rng) == std::vector<std::string>{});
}

TEST_CASE("stage 28: extreme values over k = 1536 stay exact", "[stage28][gemm]") {
    std::mt19937 rng(281);
    OwnedLinear layer(4, 1536, rng);
    const std::vector<float> x = make_extreme(layer);
    CHECK(same_bits(packed_linear(layer.view, x, 5), reference_linear(layer.view, x, 5)));
}

TEST_CASE("stage 28: each token's spread holds its own pair in every lane", "[stage28][gemm]") {
    // Four tokens' pairs of k as the packing stores them: distinct values, so
    // a wrong lane or a wrong half shows.
    const std::int16_t pairs[8] = {101, -102, 203, -204, 305, -306, 407, -408};
    const v128_t loaded = wasm_v128_load(pairs);
    const v128_t spread[4] = {bx::stage::spread_pair<0>(loaded), bx::stage::spread_pair<1>(loaded),
                              bx::stage::spread_pair<2>(loaded), bx::stage::spread_pair<3>(loaded)};
    std::size_t wrong = 0;
    for (int r = 0; r < 4; ++r) {
        std::int16_t lanes[8];
        wasm_v128_store(lanes, spread[r]);
        for (int j = 0; j < 4; ++j) wrong += (lanes[2 * j] != pairs[2 * r]) + (lanes[2 * j + 1] != pairs[2 * r + 1]);
    }
    CHECK(wrong == 0);
}
