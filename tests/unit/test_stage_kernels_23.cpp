// Stage 23's exp with its edge lanes computed after the loop
// (stages/23-exp-edge-list/softmax.hpp: exp_listed(), through exp_in_place()
// and the softmax rows) against bx_expf and stage 00's softmax, bit for bit:
// edge lanes (|x| >= 88, infinities, NaN) in every lane position, none, one
// group's worth, every group holding one, and buffers that cross the list's
// block of 256; rows of scores whose spread sends many x - max past -88.
// The proof is check-exp on all 2^32 inputs (CTest); this is the fast check.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "common/maths/bits.hpp"
#include "common/maths/expf.hpp"
#include "stages/23-exp-edge-list/softmax.hpp"
#include "tests/unit/attention_reference.hpp"
#include "tests/unit/lane_groups.hpp"

namespace {

std::size_t buffer_differences(std::vector<float> values) {
    return bx::test::buffer_differences(
        std::move(values), [](float* v, std::size_t n) { bx::stage::softmax::exp_in_place(v, n); }, bx::bx_expf);
}

}  // namespace

TEST_CASE("stage 23 exp: edge lanes in every lane position", "[stage23][exp]") {
    std::vector<std::uint32_t> inputs;
    for (int d = -200; d <= 200; ++d) {
        const std::uint32_t b = bx::float_bits(88.0f) + static_cast<std::uint32_t>(d);
        inputs.push_back(b);
        inputs.push_back(b ^ 0x80000000u);
    }
    for (const std::uint32_t special : {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7fa5a5a5u, 0x00000000u,
                                        0x80000000u, 0x3f800000u, 0xc2cff1b4u, 0xc2d00000u})
        inputs.push_back(special);
    CHECK(bx::test::differences_in_every_lane(
              inputs, [](float* v, std::size_t k) { bx::stage::softmax::exp_in_place(v, k); }, bx::bx_expf) == 0);
}

TEST_CASE("stage 23 exp: lists empty, full, and across blocks", "[stage23][exp]") {
    std::mt19937 rng(23);
    std::uniform_real_distribution<float> main_path(-87.0f, 87.0f), edge(-200.0f, -88.0f);
    for (const std::size_t count : {std::size_t{4}, std::size_t{255}, std::size_t{256}, std::size_t{257},
                                    std::size_t{1023}, std::size_t{1030}})
        for (int every : {0, 1, 4, 64}) {  // an edge input every `every` values (0: none)
            std::vector<float> values(count);
            for (std::size_t i = 0; i < count; ++i)
                values[i] = every != 0 && i % static_cast<std::size_t>(every) == 0 ? edge(rng) : main_path(rng);
            INFO("count " << count << ", an edge every " << every);
            CHECK(buffer_differences(values) == 0);
        }
    std::vector<float> last_only(1024, -1.0f);
    last_only.back() = std::numeric_limits<float>::quiet_NaN();
    CHECK(buffer_differences(last_only) == 0);
}

TEST_CASE("stage 23 softmax: rows whose exps take the edge path", "[stage23][exp]") {
    std::mt19937 rng(230);
    for (int trial = 0; trial < 400; ++trial) {
        std::normal_distribution<float> score(0.0f, trial % 2 == 0 ? 60.0f : 3.0f);
        std::vector<float> rows(4 * bx::test::kKeys);
        for (float& v : rows) v = score(rng);
        std::vector<float> stage = rows, reference = rows;
        bx::stage::softmax::rows_in_place<4>(stage.data(), bx::test::kKeys);
        for (int r = 0; r < 4; ++r) bx::test::reference_softmax(reference.data() + r * bx::test::kKeys, bx::test::kKeys);
        CHECK(bx::test::same_bits(stage.data(), reference.data(), stage.size()));
    }
}
