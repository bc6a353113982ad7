// Stage 19's scores (stages/19-eight-key-scores/attention.hpp), eight keys
// per step in a rolled d loop, against stage 00's loop, bit for bit: R query
// rows per call for every R forward.cpp uses (4, then 1 for the rows left),
// and key counts with four keys left over after the steps of eight (the
// four-key step), on projections with real activations' spread.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "common/maths/bits.hpp"
#include "stages/19-eight-key-scores/attention.hpp"
#include "tests/unit/attention_reference.hpp"

using namespace bx::test;

namespace {

// The scores of R rows of head h against `keys` keys, compared with stage
// 00's d-sum per (row, key): the number of scores whose bits differ.
template <int R>
std::size_t score_differences(int keys, std::mt19937& rng) {
    const std::vector<float> q = random_matrix(R, rng);
    const std::vector<float> k = random_matrix(keys, rng);
    std::vector<float> kt(k.size());
    const std::size_t n = static_cast<std::size_t>(keys);
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t c = 0; c < bx::kHidden; ++c) kt[c * n + j] = k[j * bx::kHidden + c];
    std::size_t differ = 0;
    for (int h = 0; h < bx::kHeads; h += 3) {
        const int off = h * bx::kHeadDim;
        std::vector<float> scores(static_cast<std::size_t>(R) * n);
        bx::stage::score_rows<R>(q.data() + off, kt.data() + static_cast<std::size_t>(off) * n, keys, kScale,
                                 scores.data());
        for (int r = 0; r < R; ++r)
            for (std::size_t j = 0; j < n; ++j) {
                float dot = 0.0f;
                for (int d = 0; d < bx::kHeadDim; ++d)
                    dot += q[static_cast<std::size_t>(r * bx::kHidden + off + d)] * k[j * bx::kHidden + off + d];
                differ += bx::float_bits(scores[r * n + j]) != bx::float_bits(dot * kScale) ? 1 : 0;
            }
    }
    return differ;
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
