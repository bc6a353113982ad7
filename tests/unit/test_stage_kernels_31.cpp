// Stage 31's attention kernels (stages/31-shuffled-broadcasts/attention.hpp),
// each row's numbers broadcast by shuffles from one load of four, four steps
// per trip, against stage 00's loops, bit for bit: scores for 4 query rows and
// for 1, with key counts that leave a four-key step; P.V for 4 rows and 1 with
// key counts from 1 to 7 past a multiple of four, so the keys after the last
// whole trip (taken one at a time) run too. A shuffle that broadcast the wrong
// lane, a trip that skipped the keys left over, or a trip that summed its four
// products before the accumulator (the kept mistake four-key-sums) would
// change the bits.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "common/maths/bits.hpp"
#include "stages/31-shuffled-broadcasts/attention.hpp"
#include "tests/unit/attention_reference.hpp"

using namespace bx::test;

namespace {

// One stage's scores for R rows, as attention_reference.hpp's
// score_differences() calls them.
template <int R>
std::size_t score_differences(int keys, std::mt19937& rng) {
    return bx::test::score_differences<R>(keys, rng, [](const float* q, const float* kt, int n, float scale, float* out) {
        bx::stage::score_rows<R>(q, kt, n, scale, out);
    });
}

// P.V of R rows: how many outputs differ from stage 00's (attention_reference.hpp).
template <int R>
std::size_t context_differences(int keys, std::mt19937& rng) {
    return bx::test::weighted_values_differences<R>(keys, rng, [](const float* p, const float* v, int n, float* out) {
        bx::stage::weighted_values_rows<R>(p, v, n, out);
    });
}

}  // namespace

TEST_CASE("stage 31: scores from broadcast query values equal stage 00's, four-key steps included",
          "[stage31][attention]") {
    std::mt19937 rng(310);
    for (int keys : {256, 4, 12, 20, 252}) {
        INFO("keys " << keys);
        CHECK(score_differences<4>(keys, rng) == 0);
        CHECK(score_differences<1>(keys, rng) == 0);
    }
}

TEST_CASE("stage 31: P.V from broadcast weights equals stage 00's, keys past the last trip included",
          "[stage31][attention]") {
    std::mt19937 rng(311);
    for (int keys : {256, 255, 254, 253, 7, 4, 3, 1}) {
        INFO("keys " << keys);
        CHECK(context_differences<4>(keys, rng) == 0);
        CHECK(context_differences<1>(keys, rng) == 0);
    }
}
