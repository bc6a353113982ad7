// Stage 07's vector GELU (stages/07-simd-gelu/gelu.hpp) against gelu_scalar,
// bit for bit, on the inputs where a mistake would hide: both sides of every
// branch boundary of |u| (u = x / sqrt 2), NaNs with several payloads,
// infinities, zeros, subnormals, and a million random patterns, each input
// tried in every lane position next to inputs of other branches. The proof is
// check-gelu on all 2^32 inputs (wasm and native, CTest); this is the fast check.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "common/maths/bits.hpp"
#include "common/maths/gelu.hpp"
#include "stages/07-simd-gelu/gelu.hpp"
#include "tests/unit/lane_groups.hpp"

namespace {

using bx::float_bits;
using bx::float_from_bits;

std::size_t count_differences(const std::vector<std::uint32_t>& inputs) {
    return bx::test::differences_in_every_lane(inputs, [](float* v, std::size_t n) { bx::stage::gelu::in_place(v, n); },
                                               bx::gelu_scalar);
}

}  // namespace

TEST_CASE("stage 07 vector GELU: branch boundaries of |u|, both signs, every lane") {
    std::vector<std::uint32_t> inputs;
    bx::test::add_gelu_boundary(inputs, 0x1p-28f, 300);
    bx::test::add_gelu_boundary(inputs, 0.84375f, 300);
    bx::test::add_gelu_boundary(inputs, 1.25f, 300);
    bx::test::add_gelu_boundary(inputs, 6.0f, 30);
    bx::test::add_gelu_boundary(inputs, 1.0f / 0.35f, 30);
    REQUIRE(count_differences(inputs) == 0);
}

TEST_CASE("stage 07 vector GELU: NaNs, infinities, zeros, subnormals keep the scalar bits") {
    const std::vector<std::uint32_t> inputs = {
        0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0x7f800001u, 0xff800001u, 0x7fbfffffu,  // NaNs, quiet and signalling
        0x7f800000u, 0xff800000u,                                                      // infinities
        0x00000000u, 0x80000000u,                                                      // zeros
        0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, 0x00400000u,             // subnormals
        0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0xbf800000u, 0x3e800000u, 0xbfc00000u,  // max, +-1, others
    };
    REQUIRE(count_differences(inputs) == 0);
}

TEST_CASE("stage 07 vector GELU: a million random bit patterns, and activation-like values") {
    std::mt19937 rng(7);
    std::vector<std::uint32_t> inputs(1 << 19);
    for (auto& b : inputs) b = static_cast<std::uint32_t>(rng());
    std::normal_distribution<float> activation(0.0f, 1.5f);  // what the FFN feeds GELU
    for (int i = 0; i < (1 << 19); ++i) inputs.push_back(float_bits(activation(rng)));
    REQUIRE(count_differences(inputs) == 0);
}

TEST_CASE("stage 07 vector GELU: a tail that is not a multiple of four") {
    std::vector<float> values = {0.1f, -0.5f, 1.0f, -1.1f, 3.0f, 0.3f, -0.2f};
    std::vector<float> want;
    for (float v : values) want.push_back(bx::gelu_scalar(v));
    bx::stage::gelu::in_place(values.data(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i) CHECK(float_bits(values[i]) == float_bits(want[i]));
}
