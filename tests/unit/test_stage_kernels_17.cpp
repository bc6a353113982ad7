// Stage 17's vector GELU (stages/17-compact-erfc/gelu.hpp), which adds erf's
// two-exponential range C (1.25 <= |u| < 6), on lanes gathered four at a
// time, and range D (|u| >= 6) to the vector path, against gelu_scalar, bit
// for bit: both sides of every branch boundary of |u| (C's two polynomial
// pairs meet at 1/0.35), NaNs and infinities (still scalar), every f32
// pattern of x in C and D at a stride, and random patterns, each input in
// every lane position next to inputs of other branches; and long buffers,
// whose gathered lanes cross the kernel's blocks and end in a partial four.
// The proof is check-gelu on all 2^32 inputs (wasm and native, CTest); this is
// the fast check.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "common/maths/bits.hpp"
#include "common/maths/gelu.hpp"
#include "stages/17-compact-erfc/gelu.hpp"
#include "tests/unit/lane_groups.hpp"

namespace {

using bx::float_bits;

std::size_t count_differences(const std::vector<std::uint32_t>& inputs) {
    return bx::test::differences_in_every_lane(inputs, [](float* v, std::size_t n) { bx::stage::gelu::in_place(v, n); },
                                               bx::gelu_scalar);
}

}  // namespace

TEST_CASE("stage 17 vector GELU: branch boundaries of |u|, both signs, every lane", "[stage17][gelu]") {
    std::vector<std::uint32_t> inputs;
    bx::test::add_gelu_boundary(inputs, 0x1p-28f, 100);
    bx::test::add_gelu_boundary(inputs, 0.84375f, 100);
    bx::test::add_gelu_boundary(inputs, 1.25f, 300);
    bx::test::add_gelu_boundary(inputs, 1.0f / 0.35f, 300);
    bx::test::add_gelu_boundary(inputs, 6.0f, 300);
    REQUIRE(count_differences(inputs) == 0);
}

TEST_CASE("stage 17 vector GELU: NaNs, infinities and huge values keep the scalar bits", "[stage17][gelu]") {
    const std::vector<std::uint32_t> inputs = {
        0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0x7f800001u, 0xff800001u, 0x7fbfffffu,  // NaNs, quiet and signalling
        0x7f800000u, 0xff800000u,                                                      // infinities
        0x7f7fffffu, 0xff7fffffu, 0x4b000000u, 0xcb000000u, 0x41100000u, 0xc1100000u,  // max, 2^23, +-9
        0x00000000u, 0x80000000u, 0x00000001u, 0x3f800000u, 0xbfc00000u,              // zeros, tiny, others
    };
    REQUIRE(count_differences(inputs) == 0);
}

TEST_CASE("stage 17 vector GELU: x in ranges C and D at a stride, and random patterns", "[stage17][gelu]") {
    std::vector<std::uint32_t> inputs;
    const std::uint32_t from = float_bits(1.25f / bx::kGeluInputScale), to = float_bits(12.0f);
    for (std::uint32_t b = from; b < to; b += 211) {
        inputs.push_back(b);
        inputs.push_back(b | 0x80000000u);
    }
    std::mt19937 rng(17);
    for (int i = 0; i < (1 << 17); ++i) inputs.push_back(static_cast<std::uint32_t>(rng()));
    REQUIRE(count_differences(inputs) == 0);
}

TEST_CASE("stage 17 vector GELU: long buffers, C lanes gathered across blocks and tails", "[stage17][gelu]") {
    std::mt19937 rng(1717);
    std::normal_distribution<float> activation(0.0f, 2.5f);  // about a third of the values in C
    for (std::size_t count : {std::size_t{1}, std::size_t{7}, std::size_t{1023}, std::size_t{1024}, std::size_t{1029},
                              std::size_t{4099}}) {
        std::vector<float> values(count);
        for (auto& v : values) v = activation(rng);
        std::vector<float> want(count);
        for (std::size_t i = 0; i < count; ++i) want[i] = bx::gelu_scalar(values[i]);
        bx::stage::gelu::in_place(values.data(), count);
        std::size_t differ = 0;
        for (std::size_t i = 0; i < count; ++i) differ += float_bits(values[i]) != float_bits(want[i]) ? 1 : 0;
        INFO("count " << count);
        CHECK(differ == 0);
    }
}
