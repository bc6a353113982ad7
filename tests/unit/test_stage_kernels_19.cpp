// Stage 19's GEMM (stages/19-paired-products/gemm.hpp), whose walk multiplies
// pairs (a_i + b_(i+8)) * (a_(i+8) + b_i) and subtracts the rows' pair sums,
// against the plain loops of stage 00, bit for bit: every edge tile, and the
// extremes (weights of +-127 and a row of -128, activations quantised to
// +-127), where a pair's factors reach +-255 and the sums are largest. The
// two row sums on their own: each against the pair products added one by one.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "stages/19-paired-products/gemm.hpp"
#include "tests/unit/gemm_reference.hpp"

namespace {

using namespace bx::test;

std::vector<float> paired_linear(const bx::LinearView& layer, const std::vector<float>& x, int rows) {
    bx::stage::QuantizedRows quantized;
    bx::stage::quantize_rows(x.data(), rows, layer.cols, quantized);
    std::vector<float> y(static_cast<std::size_t>(rows) * static_cast<std::size_t>(layer.rows));
    bx::stage::gemm(layer, quantized, rows, y.data());
    return y;
}

// sum over each step of 16 values of v[i] * v[i + 8], i < 8, one at a time.
template <typename T>
std::int64_t pair_sum_one_by_one(const T* v, int k) {
    std::int64_t sum = 0;
    for (int c = 0; c < k; c += 16)
        for (int i = 0; i < 8; ++i) sum += static_cast<std::int64_t>(v[c + i]) * static_cast<std::int64_t>(v[c + i + 8]);
    return sum;
}

}  // namespace

TEST_CASE("stage 19: the paired GEMM equals stage 00's linear bit for bit, edge tiles included", "[stage19][gemm]") {
    std::mt19937 rng(190);
    CHECK(edge_tile_differences(paired_linear, rng) == std::vector<std::string>{});
}

TEST_CASE("stage 19: extreme values over k = 1536 stay exact", "[stage19][gemm]") {
    std::mt19937 rng(191);
    OwnedLinear layer(4, 1536, rng);
    const std::vector<float> x = make_extreme(layer);
    CHECK(same_bits(paired_linear(layer.view, x, 5), reference_linear(layer.view, x, 5)));
}

TEST_CASE("stage 19: each row's pair sum is its pair products added one by one", "[stage19][gemm]") {
    std::mt19937 rng(192);
    OwnedLinear layer(6, 1536, rng);
    const std::vector<float> x = make_extreme(layer);  // a weight row of -128s: the largest sum
    const std::vector<std::int32_t> weights = bx::stage::weight_pair_sums(layer.view);
    for (int o = 0; o < layer.view.rows; ++o)
        CHECK(weights[static_cast<std::size_t>(o)] == pair_sum_one_by_one(layer.w.data() + o * 1536, 1536));

    bx::stage::QuantizedRows quantized;
    bx::stage::quantize_rows(x.data(), 5, 1536, quantized);
    for (int t = 0; t < 5; ++t) {
        std::vector<std::int8_t> bytes(1536);
        bx::quantize_row_scalar(x.data() + static_cast<std::size_t>(t) * 1536, 1536, bytes.data());
        CHECK(quantized.pair_sum[static_cast<std::size_t>(t)] == pair_sum_one_by_one(bytes.data(), 1536));
    }
    for (std::size_t t = 5; t < quantized.pair_sum.size(); ++t) CHECK(quantized.pair_sum[t] == 0);  // filling rows
}
