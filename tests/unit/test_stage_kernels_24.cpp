// Stage 24's GELU with range B computed on gathered lanes
// (stages/24-gathered-range-b/gelu.hpp: the first loop computes A and lists
// B and the rest; the second computes B four lanes at a time) against
// gelu_scalar, bit for bit: both of B's boundaries (0.84375 and 1.25) and
// A's lower one in every lane, range D and the edges (now the scalar
// function's), lists of B lanes of every length mod four (padding), B, A and
// C lanes mixed in every place of a group, and buffers crossing the blocks.
// The proof is check-gelu on all 2^32 inputs (CTest); this is the fast check.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "common/maths/bits.hpp"
#include "common/maths/gelu.hpp"
#include "stages/24-gathered-range-b/gelu.hpp"
#include "tests/unit/lane_groups.hpp"

namespace {

std::size_t buffer_differences(std::vector<float> values) {
    return bx::test::buffer_differences(
        std::move(values), [](float* v, std::size_t n) { bx::stage::gelu::in_place(v, n); }, bx::gelu_scalar);
}

}  // namespace

TEST_CASE("stage 24 vector GELU: range B's boundaries, D and the edges, in every lane", "[stage24][gelu]") {
    std::vector<std::uint32_t> inputs;
    for (const float boundary : {0x1p-28f, 0.84375f, 1.25f, 6.0f}) bx::test::add_gelu_boundary(inputs, boundary, 250);
    for (const std::uint32_t special : {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x00000000u, 0x80000001u,
                                        0x42c80000u, 0xc2c80000u})
        inputs.push_back(special);
    CHECK(bx::test::differences_in_every_lane(
              inputs, [](float* v, std::size_t k) { bx::stage::gelu::in_place(v, k); }, bx::gelu_scalar) == 0);
}

TEST_CASE("stage 24 vector GELU: lists of B lanes of every length, mixed with A and C", "[stage24][gelu]") {
    const float a = 0.5f, b = -1.5f, c = 2.5f;  // |u| = 0.35, 1.06, 1.77: ranges A, B, C
    for (int b_lanes = 0; b_lanes <= 9; ++b_lanes)
        for (int first : {0, 1, 3}) {
            std::vector<float> values(64, a);
            for (int l = 0; l < b_lanes; ++l) values[static_cast<std::size_t>(first + 5 * l)] = b + 0.01f * l;
            values[63] = c;
            INFO("B lanes " << b_lanes << ", first at " << first);
            CHECK(buffer_differences(values) == 0);
        }
    for (int pattern = 0; pattern < 81; ++pattern) {  // every assignment of A, B, C to a group's four lanes
        std::vector<float> values(8);
        int p = pattern;
        for (std::size_t l = 0; l < 4; ++l, p /= 3) values[l] = values[l + 4] = p % 3 == 0 ? a : p % 3 == 1 ? b : c;
        INFO("pattern " << pattern);
        CHECK(buffer_differences(values) == 0);
    }
    std::mt19937 rng(24);
    std::normal_distribution<float> activation(0.0f, 1.5f);
    for (const std::size_t count : {std::size_t{1}, std::size_t{3}, std::size_t{1023}, std::size_t{1024},
                                    std::size_t{1029}, std::size_t{4099}}) {
        std::vector<float> values(count);
        for (float& v : values) v = activation(rng);
        INFO("count " << count);
        CHECK(buffer_differences(values) == 0);
    }
}
