// Stage 10's softmax kernels (stages/10-simd-softmax/softmax.hpp) against
// stage 00's arithmetic, bit for bit. exp4 against bx_expf where a mistake
// would hide: both sides of the |x| = 88 switch to the scalar fallback, the
// overflow and underflow edges, infinities, NaNs with several payloads, zeros,
// subnormals, and a million random patterns, each in every lane position. The
// whole softmax row against stage 00's loops on rows shaped like real scores
// and on rows made to trip the max: +0 and -0 as the maximum, NaN first or
// elsewhere, infinities, equal values, spreads beyond 88. The proof for exp
// is check-exp on all 2^32 inputs (wasm and native, CTest); this is the fast check.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "common/maths/bits.hpp"
#include "common/maths/expf.hpp"
#include "stages/10-simd-softmax/softmax.hpp"
#include "tests/unit/attention_reference.hpp"
#include "tests/unit/lane_groups.hpp"

namespace {

using bx::float_bits;
using bx::float_from_bits;

std::size_t exp_differences(const std::vector<std::uint32_t>& inputs) {
    return bx::test::differences_in_every_lane(
        inputs, [](float* v, std::size_t n) { bx::stage::softmax::exp_in_place(v, n); }, bx::bx_expf);
}

void add_around(std::vector<std::uint32_t>& inputs, float x, int ulps) {
    const std::uint32_t bits = float_bits(x);
    for (int d = -ulps; d <= ulps; ++d) {
        inputs.push_back(bits + static_cast<std::uint32_t>(d));
        inputs.push_back((bits + static_cast<std::uint32_t>(d)) ^ 0x80000000u);  // and its negative
    }
}

bool same_row(const std::vector<float>& a, const std::vector<float>& b) {
    return bx::test::same_bits(a.data(), b.data(), a.size());
}

// The stage's softmax and stage 00's on a copy of `row`: identical bits?
bool softmax_matches(const std::vector<float>& row) {
    std::vector<float> stage = row, reference = row;
    bx::stage::softmax::row_in_place(stage.data(), static_cast<int>(stage.size()));
    bx::test::reference_softmax(reference.data(), static_cast<int>(reference.size()));
    return same_row(stage, reference);
}

}  // namespace

TEST_CASE("stage 10 exp4: the fallback switch, the edges and the specials, in every lane") {
    std::vector<std::uint32_t> inputs;
    add_around(inputs, 88.0f, 300);                  // the switch to the scalar fallback
    add_around(inputs, 0x1.62e42ep6f, 50);           // overflow to inf above this
    add_around(inputs, 0x1.9fe368p6f, 50);           // underflow to 0 below minus this
    add_around(inputs, 0.0f, 200);                   // zeros and the smallest subnormals
    add_around(inputs, std::numeric_limits<float>::min(), 50);
    add_around(inputs, 1.0f, 50);
    for (const std::uint32_t special : {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fa5a5a5u,
                                        0xffbfffffu, 0x7fffffffu})
        inputs.push_back(special);
    CHECK(exp_differences(inputs) == 0);
}

TEST_CASE("stage 10 exp4: a million random bit patterns") {
    std::mt19937 rng(10);
    std::vector<std::uint32_t> inputs(1 << 20);
    for (std::uint32_t& x : inputs) x = static_cast<std::uint32_t>(rng());
    // Half of them where softmax's inputs live: x - max, in (-100, 0].
    std::uniform_real_distribution<float> softmax_like(-100.0f, 0.0f);
    for (std::size_t i = 0; i < inputs.size(); i += 2) inputs[i] = float_bits(softmax_like(rng));
    std::vector<float> values(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) values[i] = float_from_bits(inputs[i]);
    bx::stage::softmax::exp_in_place(values.data(), values.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        if (float_bits(values[i]) != float_bits(bx::bx_expf(float_from_bits(inputs[i])))) ++differ;
    CHECK(differ == 0);
}

TEST_CASE("stage 10 exp_in_place: a tail shorter than four") {
    for (std::size_t count = 1; count <= 7; ++count) {
        std::vector<float> values(count), expect(count);
        for (std::size_t i = 0; i < count; ++i) values[i] = -0.37f * static_cast<float>(i) + 89.5f * (i == 5);
        for (std::size_t i = 0; i < count; ++i) expect[i] = bx::bx_expf(values[i]);
        bx::stage::softmax::exp_in_place(values.data(), count);
        CHECK(same_row(values, expect));
    }
}

TEST_CASE("stage 10 softmax: rows like real attention scores") {
    std::mt19937 rng(1010);
    std::normal_distribution<float> score(0.0f, 3.0f);
    for (int trial = 0; trial < 2000; ++trial) {
        std::vector<float> row(bx::test::kKeys);
        for (float& s : row) s = score(rng) * (trial % 7 == 0 ? 20.0f : 1.0f);  // some spread past 88
        CHECK(softmax_matches(row));
    }
}

TEST_CASE("stage 10 softmax: rows made to trip the max") {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> position(0, bx::test::kKeys - 1);
    auto row_of = [](float fill) { return std::vector<float>(bx::test::kKeys, fill); };
    std::vector<std::vector<float>> rows;
    for (int t = 0; t < 200; ++t) {
        // The maximum is a zero of either sign, placed anywhere, other lanes negative.
        std::vector<float> zeros = row_of(-1.0f);
        for (int k = 0; k < 4; ++k) zeros[static_cast<std::size_t>(position(rng))] = (rng() & 1) ? 0.0f : -0.0f;
        rows.push_back(zeros);
        // A NaN somewhere (first, or later), an infinity, a -infinity.
        std::vector<float> with_nan = row_of(0.5f);
        with_nan[static_cast<std::size_t>(t % 3 == 0 ? 0 : position(rng))] = nan;
        rows.push_back(with_nan);
        std::vector<float> with_inf = row_of(1.0f);
        with_inf[static_cast<std::size_t>(position(rng))] = (t & 1) ? inf : -inf;
        rows.push_back(with_inf);
    }
    rows.push_back(row_of(0.0f));
    rows.push_back(row_of(-0.0f));
    rows.push_back(row_of(3.25f));
    for (const std::vector<float>& row : rows) CHECK(softmax_matches(row));
}
