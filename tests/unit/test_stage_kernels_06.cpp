// Stage 06's attention kernels (stages/06-four-query-rows/attention.hpp):
// R query rows per pass give every row exactly the scores and the context
// stage 00 computes for it alone, bit for bit, for every R the sweep builds
// (1, 2, 3, 4, 8) and for row counts that are not multiples of R (the rows
// left at the end go one by one, as forward.cpp does).
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "stages/06-four-query-rows/attention.hpp"
#include "tests/unit/attention_reference.hpp"

using namespace bx::test;

namespace {

// Scores of `rows` query rows of head h, R rows per call and the rest one by
// one, compared row by row with stage 00's loop; then P.V the same way.
template <int R>
void check_rows(int rows, std::mt19937& rng) {
    const std::vector<float> q = random_matrix(rows, rng);
    const std::vector<float> k = random_matrix(kKeys, rng);
    const std::vector<float> v = random_matrix(kKeys, rng);
    std::vector<float> kt(k.size());
    bx::stage::transpose_keys(k.data(), kKeys, kt.data());
    std::vector<float> p(static_cast<std::size_t>(rows) * kKeys);
    for (int i = 0; i < rows; ++i) {
        const std::vector<float> row = random_probabilities(rng);
        std::copy(row.begin(), row.end(), p.begin() + static_cast<std::ptrdiff_t>(i) * kKeys);
    }
    for (int h = 0; h < bx::kHeads; h += 5) {
        const int off = h * bx::kHeadDim;
        std::vector<float> scores(static_cast<std::size_t>(rows) * kKeys);
        std::vector<float> ctx(static_cast<std::size_t>(rows) * bx::kHidden);
        auto run = [&]<int Rows>(int i) {
            bx::stage::score_rows<Rows>(q.data() + i * bx::kHidden + off, kt.data() + static_cast<std::size_t>(off) * kKeys,
                                        kKeys, kScale, scores.data() + static_cast<std::size_t>(i) * kKeys);
            bx::stage::weighted_values_rows<Rows>(p.data() + static_cast<std::size_t>(i) * kKeys, v.data() + off, kKeys,
                                                  ctx.data() + i * bx::kHidden + off);
        };
        int i = 0;
        for (; i + R <= rows; i += R) run.template operator()<R>(i);
        for (; i < rows; ++i) run.template operator()<1>(i);
        for (int r = 0; r < rows; ++r) {
            INFO("R " << R << ", rows " << rows << ", head " << h << ", row " << r);
            const std::vector<float> want_scores = reference_scores(q.data() + r * bx::kHidden + off, k.data() + off);
            CHECK(same_bits(scores.data() + static_cast<std::size_t>(r) * kKeys, want_scores.data(), kKeys));
            const std::vector<float> want_ctx = reference_context(p.data() + static_cast<std::size_t>(r) * kKeys, v.data() + off);
            CHECK(same_bits(ctx.data() + r * bx::kHidden + off, want_ctx.data(), bx::kHeadDim));
        }
    }
}

}  // namespace

TEST_CASE("stage 06: R query rows per pass score and weigh exactly as stage 00, row by row", "[stage06][attention]") {
    std::mt19937 rng(60);
    for (int rows : {1, 2, 3, 5, 7, 9, 13}) {
        check_rows<1>(rows, rng);
        check_rows<2>(rows, rng);
        check_rows<3>(rows, rng);
        check_rows<4>(rows, rng);
        check_rows<8>(rows, rng);
    }
}
