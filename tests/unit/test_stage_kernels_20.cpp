// Stage 20's vector GELU (stages/20-lane-gather/gelu.hpp), whose lanes left
// for later are gathered and scattered by lane loads and stores, against
// gelu_scalar, bit for bit: buffers whose lists of lanes left for later end
// in every remainder of four (the padding repeats the last index), lists that
// mix range C with edge inputs (the lane-by-lane path), each input in every
// lane position, and long buffers crossing the kernel's blocks. The proof is
// check-gelu on all 2^32 inputs (wasm and native, CTest); this is the fast check.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "common/maths/bits.hpp"
#include "common/maths/gelu.hpp"
#include "stages/20-lane-gather/gelu.hpp"
#include "tests/unit/lane_groups.hpp"

namespace {

using bx::float_bits;

std::size_t count_differences(const std::vector<std::uint32_t>& inputs) {
    return bx::test::differences_in_every_lane(inputs, [](float* v, std::size_t n) { bx::stage::gelu::in_place(v, n); },
                                               bx::gelu_scalar);
}

// GELU of `values` in place against gelu_scalar of each: the number that differ.
std::size_t buffer_differences(std::vector<float> values) {
    return bx::test::buffer_differences(
        std::move(values), [](float* v, std::size_t n) { bx::stage::gelu::in_place(v, n); }, bx::gelu_scalar);
}

}  // namespace

TEST_CASE("stage 20 vector GELU: lists of every length mod four, padded by their last index", "[stage20][gelu]") {
    // 1..9 values of range C among values of range A, first and last place included
    for (int c_lanes = 1; c_lanes <= 9; ++c_lanes)
        for (int first : {0, 1, 5}) {
            std::vector<float> values(64, 0.25f);  // range A: done by the first loop
            for (int l = 0; l < c_lanes; ++l) values[static_cast<std::size_t>(first + 6 * l)] = 2.0f + 0.37f * l;  // C
            INFO("C lanes " << c_lanes << ", first at " << first);
            CHECK(buffer_differences(values) == 0);
        }
}

TEST_CASE("stage 20 vector GELU: range C next to edge inputs and tails, lane by lane", "[stage20][gelu]") {
    std::vector<std::uint32_t> inputs;
    bx::test::add_gelu_boundary(inputs, 1.25f, 200);
    bx::test::add_gelu_boundary(inputs, 6.0f, 200);
    bx::test::add_gelu_boundary(inputs, 0x1p-28f, 50);
    for (std::uint32_t edge : {0x7fc00000u, 0xff800000u, 0x7f800000u, 0x00000001u, 0x80000000u}) inputs.push_back(edge);
    REQUIRE(count_differences(inputs) == 0);
    std::mt19937 rng(20);
    std::normal_distribution<float> activation(0.0f, 2.5f);
    for (std::size_t count : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{1023},
                              std::size_t{1024}, std::size_t{1029}, std::size_t{4099}}) {
        std::vector<float> values(count);
        for (auto& v : values) v = activation(rng);
        INFO("count " << count);
        CHECK(buffer_differences(values) == 0);
    }
}
