// Stage 12's side-by-side sums against stage 00's one-row loops, bit for bit:
// softmax over four rows at once (stages/12-interleaved-sums/softmax.hpp)
// against reference_softmax row by row, and LayerNorm over four rows at once
// (norm.hpp) against layer_norm_scalar, on rows shaped like real ones and on
// rows with zeros, huge values, infinities and NaN, in every row position.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "common/maths/layer_norm.hpp"
#include "stages/12-interleaved-sums/norm.hpp"
#include "stages/12-interleaved-sums/softmax.hpp"
#include "tests/unit/attention_reference.hpp"

namespace {

constexpr int kHidden = 384;

// Four rows of n values: rows[r * n + c].
std::vector<float> random_rows(int n, std::mt19937& rng, float spread) {
    std::normal_distribution<float> normal(0.0f, spread);
    std::vector<float> rows(static_cast<std::size_t>(4 * n));
    for (float& v : rows) v = normal(rng);
    return rows;
}

// Plants a special value in one row: the other rows must be unaffected and
// the planted row must still match its own reference.
void plant(std::vector<float>& rows, int n, std::mt19937& rng, float value) {
    std::uniform_int_distribution<int> at(0, 4 * n - 1);
    rows[static_cast<std::size_t>(at(rng))] = value;
}

bool softmax_matches(const std::vector<float>& rows, int n) {
    std::vector<float> stage = rows, reference = rows;
    bx::stage::softmax::rows_in_place<4>(stage.data(), n);
    for (int r = 0; r < 4; ++r) bx::test::reference_softmax(reference.data() + r * n, n);
    return bx::test::same_bits(stage.data(), reference.data(), stage.size());
}

bool norm_matches(const std::vector<float>& rows, const std::vector<float>& gamma, const std::vector<float>& beta) {
    std::vector<float> four(rows.size()), one(rows.size()), reference(rows.size());
    bx::stage::norm::layer_norm_rows<4>(rows.data(), kHidden, gamma.data(), beta.data(), four.data());
    for (int r = 0; r < 4; ++r) {
        bx::stage::norm::layer_norm_rows<1>(rows.data() + r * kHidden, kHidden, gamma.data(), beta.data(),
                                            one.data() + r * kHidden);
        bx::layer_norm_scalar(rows.data() + r * kHidden, kHidden, gamma.data(), beta.data(),
                              reference.data() + r * kHidden);
    }
    return bx::test::same_bits(four.data(), reference.data(), four.size()) &&
           bx::test::same_bits(one.data(), reference.data(), one.size());
}

}  // namespace

TEST_CASE("stage 12 softmax: four rows' sums side by side give each row's own sum") {
    std::mt19937 rng(12);
    const float inf = std::numeric_limits<float>::infinity();
    const float specials[] = {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(), 1e30f, -1e30f};
    for (int trial = 0; trial < 600; ++trial) {
        std::vector<float> rows = random_rows(bx::test::kKeys, rng, trial % 5 == 0 ? 40.0f : 3.0f);
        if (trial % 3 == 0) plant(rows, bx::test::kKeys, rng, specials[trial % 7]);
        CHECK(softmax_matches(rows, bx::test::kKeys));
    }
}

TEST_CASE("stage 12 LayerNorm: four rows side by side, and one, equal layer_norm_scalar") {
    std::mt19937 rng(120);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> gamma(kHidden), beta(kHidden);
    for (float& g : gamma) g = 1.0f + 0.1f * normal(rng);
    for (float& b : beta) b = 0.1f * normal(rng);
    const float inf = std::numeric_limits<float>::infinity();
    const float specials[] = {0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(), 3e38f, 1e-40f};
    for (int trial = 0; trial < 600; ++trial) {
        std::vector<float> rows = random_rows(kHidden, rng, trial % 4 == 0 ? 500.0f : 2.0f);
        if (trial % 3 == 0) plant(rows, kHidden, rng, specials[trial % 7]);
        if (trial == 1)
            for (int c = 0; c < kHidden; ++c) rows[static_cast<std::size_t>(2 * kHidden + c)] = 0.25f;  // a flat row
        CHECK(norm_matches(rows, gamma, beta));
    }
}
