// Stage 27's attention kernels (stages/27-unrolled-attention/attention.hpp),
// two steps per trip round the scores' walk over d and P.V's walk over the
// keys, against stage 00's loops, bit for bit: scores for 4 query rows and
// for 1, with key counts that leave a four-key step; P.V for 4 rows and 1
// with even and odd key counts, so the unrolled loop's remainder (one key
// left after the pairs) runs too. A trip that skipped the remainder, or summed
// its two steps in two chains (the kept mistake split-keys), would change
// the bits.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "common/maths/bits.hpp"
#include "stages/27-unrolled-attention/attention.hpp"
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

TEST_CASE("stage 27: scores two steps of d per trip equal stage 00's, four-key steps included",
          "[stage27][attention]") {
    std::mt19937 rng(270);
    for (int keys : {256, 4, 12, 20, 252}) {
        INFO("keys " << keys);
        CHECK(score_differences<4>(keys, rng) == 0);
        CHECK(score_differences<1>(keys, rng) == 0);
    }
}

TEST_CASE("stage 27: P.V two keys per trip equals stage 00's, odd key counts included", "[stage27][attention]") {
    std::mt19937 rng(271);
    for (int keys : {256, 255, 7, 1, 2}) {
        INFO("keys " << keys);
        CHECK(context_differences<4>(keys, rng) == 0);
        CHECK(context_differences<1>(keys, rng) == 0);
    }
}
