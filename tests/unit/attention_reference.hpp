// Stage 00's attention arithmetic, one query row at a time, for the unit tests
// of later stages' attention kernels (test_stage_kernels_03.cpp, _06.cpp, _10.cpp, _19.cpp, _27.cpp, _31.cpp):
// random projections shaped like real ones, a score's d-sum in order, P.V's
// sum over keys in order, and a bit-for-bit comparison.
#pragma once

#include <cstddef>
#include <cstring>
#include <random>
#include <vector>

#include "common/maths/bits.hpp"
#include "common/maths/expf.hpp"
#include "common/model/model_view.hpp"

namespace bx::test {

inline constexpr int kKeys = 256;
inline constexpr float kScale = 0.17677669529663687f;  // 1/sqrt(32), as stage 00

// Projections with the spread real activations have (a few large values).
inline std::vector<float> random_matrix(int rows, std::mt19937& rng) {
    std::normal_distribution<float> normal(0.0f, 1.5f);
    std::uniform_int_distribution<int> rare(0, 49);
    std::vector<float> m(static_cast<std::size_t>(rows) * bx::kHidden);
    for (auto& value : m) value = normal(rng) * (rare(rng) == 0 ? 8.0f : 1.0f);
    return m;
}

// Attention probabilities: positive, summing to about one.
inline std::vector<float> random_probabilities(std::mt19937& rng) {
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::vector<float> p(kKeys);
    float z = 0.0f;
    for (auto& value : p) z += (value = unit(rng) * unit(rng));
    for (auto& value : p) value = value / z;
    return p;
}

// Stage 00: for each key, the d-sum in order 0..31 from 0.0f, then the scale.
inline std::vector<float> reference_scores(const float* q, const float* k_head) {
    std::vector<float> scores(kKeys);
    for (int j = 0; j < kKeys; ++j) {
        const float* kj = k_head + j * bx::kHidden;
        float dot = 0.0f;
        for (int d = 0; d < bx::kHeadDim; ++d) dot += q[d] * kj[d];
        scores[static_cast<std::size_t>(j)] = dot * kScale;
    }
    return scores;
}

// Stage 00: for each d of one head, the sum over keys j in order from 0.0f.
inline std::vector<float> reference_context(const float* p, const float* v_head) {
    std::vector<float> out(bx::kHeadDim);
    for (int d = 0; d < bx::kHeadDim; ++d) {
        float acc = 0.0f;
        for (int j = 0; j < kKeys; ++j) acc += p[j] * v_head[static_cast<std::size_t>(j) * bx::kHidden + d];
        out[static_cast<std::size_t>(d)] = acc;
    }
    return out;
}

// Stage 00's softmax of one row, in place: the max, exp and sum in one loop
// in order, then the divide.
inline void reference_softmax(float* p, int n) {
    float m = p[0];
    for (int j = 1; j < n; ++j)
        if (p[j] > m) m = p[j];
    float z = 0.0f;
    for (int j = 0; j < n; ++j) {
        p[j] = bx::bx_expf(p[j] - m);
        z += p[j];
    }
    for (int j = 0; j < n; ++j) p[j] = p[j] / z;
}

// Stage 00's attention of one whole layer: for every head and query row, the
// scores, the softmax and P.V above, in that order (the attention ladder's
// bottom rung and its check).
inline void reference_attention_layer(const float* q, const float* k, const float* v, float* ctx) {
    for (int h = 0; h < bx::kHeads; ++h) {
        const int off = h * bx::kHeadDim;
        for (int i = 0; i < kKeys; ++i) {
            std::vector<float> p = reference_scores(q + i * bx::kHidden + off, k + off);
            reference_softmax(p.data(), kKeys);
            const std::vector<float> out = reference_context(p.data(), v + off);
            std::memcpy(ctx + i * bx::kHidden + off, out.data(), out.size() * sizeof(float));
        }
    }
}

inline bool same_bits(const float* a, const float* b, std::size_t n) { return std::memcmp(a, b, n * sizeof(float)) == 0; }

// Scores of R query rows of every third head against `keys` keys (one key per
// lane, K transposed as the stages keep it), computed by `score_rows` (a
// stage's score_rows<R>: q, K^T of the head, keys, scale, out), compared with
// stage 00's d-sum per (row, key): how many scores differ in any bit.
template <int R, typename ScoreRows>
std::size_t score_differences(int keys, std::mt19937& rng, ScoreRows score_rows) {
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
        score_rows(q.data() + off, kt.data() + static_cast<std::size_t>(off) * n, keys, kScale, scores.data());
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

// P.V of R rows of every head over `keys` keys (any count, so a kernel's
// remainder after its unrolled trips runs too), computed by `weighted_values`
// (a stage's weighted_values_rows<R>: weights, V of the head, keys, out),
// compared with stage 00's sum over the keys in order per (row, dimension):
// how many outputs differ in any bit.
template <int R, typename WeightedValues>
std::size_t weighted_values_differences(int keys, std::mt19937& rng, WeightedValues weighted_values) {
    const std::vector<float> v = random_matrix(keys, rng);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::vector<float> p(static_cast<std::size_t>(R) * static_cast<std::size_t>(keys));
    for (float& value : p) value = unit(rng) * unit(rng) / static_cast<float>(keys);
    std::size_t differ = 0;
    for (int h = 0; h < bx::kHeads; ++h) {
        const int off = h * bx::kHeadDim;
        std::vector<float> ctx(static_cast<std::size_t>(R) * bx::kHidden);
        weighted_values(p.data(), v.data() + off, keys, ctx.data() + off);
        for (int r = 0; r < R; ++r)
            for (int d = 0; d < bx::kHeadDim; ++d) {
                float acc = 0.0f;
                for (int j = 0; j < keys; ++j)
                    acc += p[static_cast<std::size_t>(r * keys + j)] *
                           v[static_cast<std::size_t>(j) * bx::kHidden + static_cast<std::size_t>(off + d)];
                differ += bx::float_bits(ctx[static_cast<std::size_t>(r * bx::kHidden + off + d)]) != bx::float_bits(acc) ? 1 : 0;
            }
    }
    return differ;
}

}  // namespace bx::test
