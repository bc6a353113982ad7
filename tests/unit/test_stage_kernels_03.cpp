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

namespace {

constexpr int kKeys = 256;
constexpr float kScale = 0.17677669529663687f;  // 1/sqrt(32), as stage 00

// Projections with the spread real activations have (a few large values).
std::vector<float> random_matrix(int rows, std::mt19937& rng) {
    std::normal_distribution<float> normal(0.0f, 1.5f);
    std::uniform_int_distribution<int> rare(0, 49);
    std::vector<float> m(static_cast<std::size_t>(rows) * bx::kHidden);
    for (auto& value : m) value = normal(rng) * (rare(rng) == 0 ? 8.0f : 1.0f);
    return m;
}

// Stage 00: for each key, the d-sum in order 0..31 from 0.0f, then the scale.
std::vector<float> reference_scores(const float* q, const float* k_head) {
    std::vector<float> scores(kKeys);
    for (int j = 0; j < kKeys; ++j) {
        const float* kj = k_head + j * bx::kHidden;
        float dot = 0.0f;
        for (int d = 0; d < bx::kHeadDim; ++d) dot += q[d] * kj[d];
        scores[static_cast<std::size_t>(j)] = dot * kScale;
    }
    return scores;
}

bool same_bits(const float* a, const float* b, std::size_t n) { return std::memcmp(a, b, n * sizeof(float)) == 0; }

}  // namespace

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
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::vector<float> p(kKeys);
    float z = 0.0f;
    for (auto& value : p) z += (value = unit(rng) * unit(rng));
    for (auto& value : p) value = value / z;
    for (int h = 0; h < bx::kHeads; ++h) {
        const int off = h * bx::kHeadDim;
        float got[bx::kHeadDim], want[bx::kHeadDim];
        bx::stage::weighted_values(p.data(), v.data() + off, kKeys, got);
        for (int d = 0; d < bx::kHeadDim; ++d) {
            float acc = 0.0f;
            for (int j = 0; j < kKeys; ++j) acc += p[static_cast<std::size_t>(j)] * v[static_cast<std::size_t>(j * bx::kHidden + off + d)];
            want[d] = acc;
        }
        INFO("head " << h);
        CHECK(same_bits(got, want, bx::kHeadDim));
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
