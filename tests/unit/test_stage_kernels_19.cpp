// Stage 19's scores (stages/19-eight-key-scores/attention.hpp), eight keys
// per step in a rolled d loop, against stage 00's loop, bit for bit: R query
// rows per call for every R forward.cpp uses (4, then 1 for the rows left),
// and key counts with four keys left over after the steps of eight (the
// four-key step), on projections with real activations' spread.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "stages/19-eight-key-scores/attention.hpp"
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

}  // namespace

TEST_CASE("stage 19: eight keys per step score exactly as stage 00, four-key tails included", "[stage19][attention]") {
    std::mt19937 rng(190);
    for (int keys : {256, 4, 12, 20, 252}) {
        INFO("keys " << keys);
        CHECK(score_differences<4>(keys, rng) == 0);
        CHECK(score_differences<1>(keys, rng) == 0);
    }
}
