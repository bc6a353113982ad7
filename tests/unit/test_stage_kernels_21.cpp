// Stage 21's range tests as float comparisons (stages/21-float-range-tests/
// softmax.hpp: magnitude(), below(), at_least()) against the unsigned integer
// comparisons of the scalar code, lane by lane: every bound the kernels use,
// with the patterns around it on both sides and of both signs, zeros,
// subnormals, infinities and NaNs of several payloads (below() must say no
// for NaN, as the integer test does; at_least() says no where the integer
// test says yes, which is why the edge test finds NaN by its exponent). Then
// both kernels that use them, GELU and exp, around their switches in every
// lane. The proofs are check-gelu and check-exp on all 2^32 inputs (CTest).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "common/maths/bits.hpp"
#include "common/maths/erff_coefficients.hpp"
#include "common/maths/expf.hpp"
#include "common/maths/expf_constants.hpp"
#include "common/maths/gelu.hpp"
#include "stages/21-float-range-tests/gelu.hpp"
#include "tests/unit/lane_groups.hpp"

namespace {

using bx::float_bits;
using bx::float_from_bits;

// Each bound's own pattern, the `reach` on either side, both signs.
std::vector<std::uint32_t> patterns_around(std::uint32_t bound, int reach) {
    std::vector<std::uint32_t> out;
    for (int d = -reach; d <= reach; ++d) {
        const std::uint32_t b = bound + static_cast<std::uint32_t>(d);
        out.push_back(b);
        out.push_back(b ^ 0x80000000u);
    }
    return out;
}

// below() and at_least() of four patterns against the integer tests on
// bits(|x|): the number of lanes that disagree. NaN: below() must give false,
// at_least() gives false (the integer test's true is tested apart).
int disagreements(const std::uint32_t (&four)[4], std::uint32_t bound) {
    const v128_t x = wasm_v128_load(four);
    const v128_t m = bx::stage::softmax::magnitude(x);
    std::uint32_t lt[4], ge[4];
    wasm_v128_store(lt, bx::stage::softmax::below(m, bound));
    wasm_v128_store(ge, bx::stage::softmax::at_least(m, bound));
    int differ = 0;
    for (int l = 0; l < 4; ++l) {
        const std::uint32_t abs_bits = four[l] & 0x7fffffffu;
        const bool nan = abs_bits > 0x7f800000u;
        differ += (lt[l] != 0) != (!nan && abs_bits < bound) ? 1 : 0;
        differ += (ge[l] != 0) != (!nan && abs_bits >= bound) ? 1 : 0;
    }
    return differ;
}

}  // namespace

TEST_CASE("stage 21 range tests: below() and at_least() answer as the unsigned bit tests", "[stage21]") {
    using namespace bx::erff_coefficients;
    const std::uint32_t bounds[] = {kTwoPowM28, k0p84375, k1p25, kOneOver0p35, k6, kInfOrNan,
                                    bx::expf_constants::kTop12Of88 << 20};
    std::vector<std::uint32_t> inputs = {0x00000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x3f800000u,
                                         0x7f7fffffu, 0x7f800000u, 0x7f800001u, 0x7fc00000u, 0x7fffffffu};
    for (const std::uint32_t bound : bounds)
        for (const std::uint32_t p : patterns_around(bound, 300)) inputs.push_back(p);
    const std::size_t n = inputs.size();
    for (const std::uint32_t bound : bounds) {
        int differ = 0;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t lane = 0; lane < 4; ++lane) {
                std::uint32_t four[4];
                for (std::size_t l = 0; l < 4; ++l) four[l] = inputs[(i + (l + 4 - lane) % 4 * 7919) % n];
                differ += disagreements(four, bound);
            }
        INFO("bound 0x" << std::hex << bound);
        CHECK(differ == 0);
    }
}

TEST_CASE("stage 21 GELU and exp: every switch of range, in every lane", "[stage21]") {
    std::vector<std::uint32_t> gelu_inputs;
    for (const float boundary : {0x1p-28f, 0.84375f, 1.25f, 1.0f / 0.35f, 6.0f})
        bx::test::add_gelu_boundary(gelu_inputs, boundary, 200);
    for (const std::uint32_t special : {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x00000000u, 0x80000001u})
        gelu_inputs.push_back(special);
    CHECK(bx::test::differences_in_every_lane(
              gelu_inputs, [](float* v, std::size_t k) { bx::stage::gelu::in_place(v, k); }, bx::gelu_scalar) == 0);

    std::vector<std::uint32_t> exp_inputs = patterns_around(float_bits(88.0f), 300);
    for (const std::uint32_t p : patterns_around(float_bits(0x1.9fe368p6f), 50)) exp_inputs.push_back(p);
    for (const std::uint32_t special : {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffbfffffu, 0x00000000u})
        exp_inputs.push_back(special);
    CHECK(bx::test::differences_in_every_lane(
              exp_inputs, [](float* v, std::size_t k) { bx::stage::softmax::exp_in_place(v, k); }, bx::bx_expf) == 0);
}
