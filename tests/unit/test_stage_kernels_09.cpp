// Stage 09's SIMD quantiser (stages/09-simd-quantise/quantize.hpp) against
// quantize_row_scalar, bytes and scale bits, on the rows where its two traps
// would show: exact .5 ties (wasm's f32x4.nearest rounds them to even), NaNs
// and infinities (a clamp with its bound first turns NaN into 127), zeros,
// negative zeros, all-zero rows, and widths with a tail. The proof is
// check-quant (all 2^32 inputs and 20,000 random rows, wasm and native, CTest).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "common/maths/bits.hpp"
#include "common/maths/quantize.hpp"
#include "stages/09-simd-quantise/quantize.hpp"

namespace {

bool same_as_reference(const std::vector<float>& row) {
    const int n = static_cast<int>(row.size());
    std::vector<std::int8_t> q(row.size()), want(row.size());
    const float scale = bx::stage::quant::quantize_row(row.data(), n, q.data());
    const float want_scale = bx::quantize_row_scalar(row.data(), n, want.data());
    return bx::float_bits(scale) == bx::float_bits(want_scale) && q == want;
}

}  // namespace

TEST_CASE("stage 09 quantiser: exact ties round away from zero, as the reference does") {
    // max 127: scale exactly 1, so k + 0.5 is scaled to itself.
    std::vector<float> row = {127.0f};
    for (int k = -126; k <= 126; ++k) row.push_back(static_cast<float>(k) + 0.5f);
    row.push_back(-0.5f);
    row.push_back(0.5f);
    REQUIRE(same_as_reference(row));
    std::vector<std::int8_t> q(row.size());
    bx::stage::quant::quantize_row(row.data(), static_cast<int>(row.size()), q.data());
    CHECK(q[1 + 126 + 2] == 3);  // 2.5 -> 3, not 2
}

TEST_CASE("stage 09 quantiser: NaN gives 0, infinities and zeros as the reference") {
    CHECK(same_as_reference({1.0f, std::nanf(""), -std::nanf(""), 2.0f, -3.0f, 0.0f, -0.0f, 4.0f,
                             5.0f, 6.0f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f}));
    CHECK(same_as_reference({1.0f, INFINITY, 2.0f, -INFINITY, 3.0f, 4.0f, 5.0f, 6.0f,
                             7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f}));
    CHECK(same_as_reference(std::vector<float>(384, 0.0f)));
    CHECK(same_as_reference(std::vector<float>(17, -0.0f)));
}

TEST_CASE("stage 09 quantiser: random rows of the model's widths and odd widths") {
    std::mt19937 rng(3);
    std::normal_distribution<float> activation(0.0f, 2.0f);
    for (int width : {384, 1536, 1, 15, 16, 17, 31, 100}) {
        for (int r = 0; r < 50; ++r) {
            std::vector<float> row(static_cast<std::size_t>(width));
            for (float& v : row) v = std::ldexp(activation(rng), static_cast<int>(rng() % 41) - 20);
            REQUIRE(same_as_reference(row));
        }
    }
}
