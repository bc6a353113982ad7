// Stage 22's branch-free list of GELU's lanes left for later
// (stages/22-branchless-list/gelu.hpp: kSetLanes, append_lanes()) against the
// bit-by-bit walk of stage 20: every mask at the first, a middle and the last
// group of a block, and long runs of random masks, giving the same entries in
// the same order and the same count; then the whole kernel against
// gelu_scalar on buffers whose C lanes sit at every place of their groups.
// The proof is check-gelu on all 2^32 inputs (CTest); this is the fast check.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "common/maths/bits.hpp"
#include "common/maths/gelu.hpp"
#include "stages/22-branchless-list/gelu.hpp"
#include "tests/unit/lane_groups.hpp"

namespace {

// Stage 20's way: the set bits of `mask`, lowest first, each plus i.
void walk_bits(std::vector<std::uint16_t>& list, std::size_t i, unsigned mask) {
    for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1)
        list.push_back(static_cast<std::uint16_t>(i + static_cast<std::size_t>(__builtin_ctz(lanes))));
}

std::size_t buffer_differences(std::vector<float> values) {
    return bx::test::buffer_differences(
        std::move(values), [](float* v, std::size_t n) { bx::stage::gelu::in_place(v, n); }, bx::gelu_scalar);
}

}  // namespace

TEST_CASE("stage 22 append_lanes: every mask gives stage 20's entries and count", "[stage22][gelu]") {
    for (const std::size_t i : {std::size_t{0}, std::size_t{512}, std::size_t{1020}})
        for (unsigned mask = 0; mask < 16; ++mask) {
            std::uint16_t list[8] = {};
            std::size_t n = 0;
            bx::stage::gelu::append_lanes(list, n, i, mask);
            std::vector<std::uint16_t> want;
            walk_bits(want, i, mask);
            INFO("i " << i << ", mask " << mask);
            REQUIRE(n == want.size());
            CHECK(std::vector<std::uint16_t>(list, list + n) == want);
        }
}

TEST_CASE("stage 22 append_lanes: a block's worth of random masks builds stage 20's list", "[stage22][gelu]") {
    std::mt19937 rng(22);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<std::uint16_t> list(1024 + 3), want;
        std::size_t n = 0;
        for (std::size_t i = 0; i + 4 <= 1024; i += 4) {
            const unsigned mask = trial % 4 == 0 ? 0xfu : static_cast<unsigned>(rng() % 16);
            bx::stage::gelu::append_lanes(list.data(), n, i, mask);
            walk_bits(want, i, mask);
        }
        REQUIRE(n == want.size());
        CHECK(std::vector<std::uint16_t>(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(n)) == want);
    }
}

TEST_CASE("stage 22 vector GELU: range C at every place of its group, in buffers of every length", "[stage22][gelu]") {
    for (int pattern = 0; pattern < 16; ++pattern)
        for (const std::size_t count : {std::size_t{4}, std::size_t{7}, std::size_t{64}, std::size_t{1030}}) {
            std::vector<float> values(count, 0.5f);  // range A
            for (std::size_t i = 0; i < count; ++i)
                if (pattern & (1 << (i % 4))) values[i] = -1.5f - 0.001f * static_cast<float>(i);  // range C
            INFO("pattern " << pattern << ", count " << count);
            CHECK(buffer_differences(values) == 0);
        }
    std::mt19937 rng(220);
    std::normal_distribution<float> activation(0.0f, 2.5f);
    std::vector<float> values(4099);
    for (float& v : values) v = activation(rng);
    CHECK(buffer_differences(values) == 0);
}
