// Stage 15's weighted sum of values (stages/15-value-blocks/attention.hpp),
// in passes of kValueBlocks blocks of four dimensions, against stage 00's
// loop, bit for bit: every head, one query row at a time and four, with
// row counts that leave rows over. A pass that forgot to start from 0.0f,
// wrote its blocks to another pass's place, or walked the keys in another
// order would change the outputs.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "stages/15-value-blocks/attention.hpp"
#include "tests/unit/attention_reference.hpp"

using namespace bx::test;

namespace {

// P.V of `rows` query rows of every head, R rows per call and the rest one
// by one (as forward.cpp does), compared row by row with stage 00's loop.
template <int R>
std::vector<std::string> context_differences(int rows, std::mt19937& rng) {
    const std::vector<float> v = random_matrix(kKeys, rng);
    std::vector<float> p(static_cast<std::size_t>(rows) * kKeys);
    for (int i = 0; i < rows; ++i) {
        const std::vector<float> row = random_probabilities(rng);
        std::copy(row.begin(), row.end(), p.begin() + static_cast<std::ptrdiff_t>(i) * kKeys);
    }
    std::vector<std::string> differ;
    for (int h = 0; h < bx::kHeads; ++h) {
        const int off = h * bx::kHeadDim;
        std::vector<float> ctx(static_cast<std::size_t>(rows) * bx::kHidden);
        int i = 0;
        for (; i + R <= rows; i += R)
            bx::stage::weighted_values_rows<R>(p.data() + static_cast<std::size_t>(i) * kKeys, v.data() + off, kKeys,
                                               ctx.data() + i * bx::kHidden + off);
        for (; i < rows; ++i)
            bx::stage::weighted_values_rows<1>(p.data() + static_cast<std::size_t>(i) * kKeys, v.data() + off, kKeys,
                                               ctx.data() + i * bx::kHidden + off);
        for (int r = 0; r < rows; ++r) {
            const std::vector<float> want = reference_context(p.data() + static_cast<std::size_t>(r) * kKeys, v.data() + off);
            if (!same_bits(ctx.data() + r * bx::kHidden + off, want.data(), bx::kHeadDim))
                differ.push_back("R " + std::to_string(R) + ", rows " + std::to_string(rows) + ", head " +
                                 std::to_string(h) + ", row " + std::to_string(r));
        }
    }
    return differ;
}

}  // namespace

TEST_CASE("stage 15: P.V in passes of two blocks weighs exactly as stage 00, every head and row", "[stage15][attention]") {
    std::mt19937 rng(150);
    static_assert(bx::stage::kValueBlocks == 2, "the stage's own pass width");
    for (int rows : {1, 4, 5, 7, 8}) {
        CHECK(context_differences<1>(rows, rng) == std::vector<std::string>{});
        CHECK(context_differences<4>(rows, rng) == std::vector<std::string>{});
    }
}
