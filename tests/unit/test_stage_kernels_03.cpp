// Stage 03's attention kernels (stages/03-simd-attention/attention.hpp)
// against stage 00's scalar loops: the transpose is a transpose, scoring four
// keys per step and P.V across the head dimension are bit-identical to the
// scalar sums, and the failed d-lanes variant is not (which is why it failed).
//
// BX_VARIANT_DLANES is defined here only to compile the variant's kernel next
// to the others; the kernels are in an unnamed namespace, so this file has its
// own copy, and it links with stage 00 only, as every unit test.
#define BX_VARIANT_DLANES 1
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "stages/03-simd-attention/attention.hpp"
#include "tests/unit/attention_reference.hpp"

using namespace bx::test;

TEST_CASE("stage 03: transpose_keys puts k[j][32h+d] at kt[h][d][j]", "[stage03][attention]") {
    std::mt19937 rng(3);
    const std::vector<float> k = random_matrix(kKeys, rng);
    std::vector<float> kt(k.size());
    bx::stage::transpose_keys(k.data(), kKeys, kt.data());
    bool all = true;
    for (int h = 0; h < bx::kHeads; ++h)
        for (int d = 0; d < bx::kHeadDim; ++d)
            for (int j = 0; j < kKeys; ++j)
                all = all && kt[static_cast<std::size_t>((h * bx::kHeadDim + d) * kKeys + j)] ==
                                 k[static_cast<std::size_t>(j * bx::kHidden + h * bx::kHeadDim + d)];
    CHECK(all);
}

TEST_CASE("stage 03: four keys per step score exactly as stage 00's scalar loop", "[stage03][attention]") {
    std::mt19937 rng(30);
    const std::vector<float> q = random_matrix(8, rng);
    const std::vector<float> k = random_matrix(kKeys, rng);
    std::vector<float> kt(k.size());
    bx::stage::transpose_keys(k.data(), kKeys, kt.data());
    std::vector<float> scores(kKeys);
    for (int h = 0; h < bx::kHeads; ++h) {
        const int off = h * bx::kHeadDim;
        for (int i = 0; i < 8; ++i) {
            const float* qi = q.data() + i * bx::kHidden + off;
            bx::stage::score_4_keys(qi, kt.data() + static_cast<std::size_t>(off) * kKeys, kKeys, kScale,
                                    scores.data());
            const std::vector<float> want = reference_scores(qi, k.data() + off);
            INFO("head " << h << ", query " << i);
            CHECK(same_bits(scores.data(), want.data(), kKeys));
        }
    }
}

TEST_CASE("stage 03: P.V across the head dimension sums over keys exactly as stage 00", "[stage03][attention]") {
    std::mt19937 rng(31);
    const std::vector<float> v = random_matrix(kKeys, rng);
    const std::vector<float> p = random_probabilities(rng);
    for (int h = 0; h < bx::kHeads; ++h) {
        const int off = h * bx::kHeadDim;
        float got[bx::kHeadDim];
        bx::stage::weighted_values(p.data(), v.data() + off, kKeys, got);
        const std::vector<float> want = reference_context(p.data(), v.data() + off);
        INFO("head " << h);
        CHECK(same_bits(got, want.data(), bx::kHeadDim));
    }
}

TEST_CASE("stage 03: the d-lanes variant reorders the d-sum and changes scores", "[stage03][attention]") {
    // Same products, added as four interleaved partial sums: some scores must
    // differ in their bits. This is the post's failed first attempt.
    std::mt19937 rng(32);
    const std::vector<float> q = random_matrix(1, rng);
    const std::vector<float> k = random_matrix(kKeys, rng);
    long differ = 0;
    std::vector<float> scores(kKeys);
    for (int h = 0; h < bx::kHeads; ++h) {
        const int off = h * bx::kHeadDim;
        bx::stage::score_d_lanes(q.data() + off, k.data() + off, kKeys, kScale, scores.data());
        const std::vector<float> want = reference_scores(q.data() + off, k.data() + off);
        for (int j = 0; j < kKeys; ++j)
            differ += std::memcmp(&scores[static_cast<std::size_t>(j)], &want[static_cast<std::size_t>(j)], sizeof(float)) != 0;
    }
    INFO(differ << " of " << bx::kHeads * kKeys << " scores differ");
    CHECK(differ > 0);
}
