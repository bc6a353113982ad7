// Stage 16's GEMM (stages/16-simd-epilogue/gemm.hpp), whose whole tiles are
// totalled and dequantised four rows at a time, against the plain loops of
// stage 00, bit for bit: every edge tile (whole tiles take the SIMD end,
// the rows left over the scalar one), extreme values, and the two pieces of
// the end on their own: row_totals() against the lane sums added one by
// one, including sums that wrap around int32 as the scalar ones do, and
// dequantise4() against dequantise() on values whose roundings differ
// between the right order and the folded one.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "stages/16-simd-epilogue/gemm.hpp"
#include "tests/unit/gemm_reference.hpp"

namespace {

using namespace bx::test;

std::vector<float> simd_end_linear(const bx::LinearView& layer, const std::vector<float>& x, int rows) {
    bx::stage::QuantizedRows quantized;
    bx::stage::quantize_rows(x.data(), rows, layer.cols, quantized);
    std::vector<float> y(static_cast<std::size_t>(rows) * static_cast<std::size_t>(layer.rows));
    bx::stage::gemm(layer, quantized, rows, y.data());
    return y;
}

}  // namespace

TEST_CASE("stage 16: the GEMM with the SIMD end equals stage 00's linear bit for bit, edge tiles included",
          "[stage16][gemm]") {
    std::mt19937 rng(160);
    CHECK(edge_tile_differences(simd_end_linear, rng) == std::vector<std::string>{});
}

TEST_CASE("stage 16: extreme values over k = 1536 stay exact", "[stage16][gemm]") {
    std::mt19937 rng(161);
    OwnedLinear layer(4, 1536, rng);
    const std::vector<float> x = make_extreme(layer);
    CHECK(same_bits(simd_end_linear(layer.view, x, 5), reference_linear(layer.view, x, 5)));
}

TEST_CASE("stage 16: row_totals gives each row's lane total in its lane", "[stage16][gemm]") {
    std::mt19937 rng(162);
    std::uniform_int_distribution<std::int32_t> any(std::numeric_limits<std::int32_t>::min(),
                                                    std::numeric_limits<std::int32_t>::max());
    for (int trial = 0; trial < 1000; ++trial) {
        std::int32_t lanes[4][4];
        for (auto& row : lanes)
            for (auto& lane : row) lane = any(rng);  // totals wrap around, as int32 sums of lanes do
        v128_t s[4];
        for (int r = 0; r < 4; ++r) s[r] = wasm_v128_load(lanes[r]);
        std::int32_t got[4];
        wasm_v128_store(got, bx::stage::row_totals(s[0], s[1], s[2], s[3]));
        for (int r = 0; r < 4; ++r) {
            std::uint32_t want = 0;  // wrapping addition, spelled without signed overflow
            for (int l = 0; l < 4; ++l) want += static_cast<std::uint32_t>(lanes[r][l]);
            CHECK(static_cast<std::uint32_t>(got[r]) == want);
        }
    }
}

TEST_CASE("stage 16: dequantise4 is dequantise in every lane", "[stage16][gemm]") {
    std::mt19937 rng(163);
    std::uniform_int_distribution<std::int32_t> acc(-30'000'000, 30'000'000);  // past 2^24: the conversion rounds
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::size_t differ = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        std::int32_t a[4];
        float s_in[4];
        for (int r = 0; r < 4; ++r) {
            a[r] = acc(rng);
            s_in[r] = 1e-3f * unit(rng);
        }
        const float bias = unit(rng) - 0.5f, s_w = 1e-2f * unit(rng);
        float got[4];
        wasm_v128_store(got, bx::stage::dequantise4(wasm_v128_load(a), wasm_v128_load(s_in), bias, s_w));
        for (int r = 0; r < 4; ++r) {
            const float want = bx::stage::dequantise(a[r], s_in[r], bias, s_w);
            if (std::memcmp(&got[r], &want, sizeof want) != 0) ++differ;
        }
    }
    CHECK(differ == 0);
}
