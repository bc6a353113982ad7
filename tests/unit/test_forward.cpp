// Stage 00's forward pass, the oracle. What can be checked without a second
// implementation: plumbing (a model with zero weights must give exactly the
// classifier bias), determinism, that pads are attended to, that the phase
// profiler is fed. The bit-for-bit comparisons with other stages and with
// the wasm build are `make check` and the native-vs-wasm cross-check.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "bxm_test_model.hpp"
#include "common/model/model_view.hpp"
#include "common/stage/stage.hpp"

using bx::test::make_test_model;
using bx::test::TestModel;

namespace {

std::vector<std::int32_t> window(std::initializer_list<std::int32_t> content) {
    std::vector<std::int32_t> ids = {0};
    ids.insert(ids.end(), content.begin(), content.end());
    ids.push_back(2);
    ids.resize(bx::kWindow, 1);
    return ids;
}

std::vector<float> run(const bx::ModelView& model, const std::vector<std::int32_t>& ids, int live,
                       bx::Profile* profile = nullptr) {
    std::vector<float> logits(std::size_t{bx::kWindow} * bx::kLabels, 12345.0f);
    bx::Profile local;
    bx::stage::forward(model, ids.data(), live, logits.data(), profile ? *profile : local);
    return logits;
}

bool same_bits(const float* a, const float* b, std::size_t n) { return std::memcmp(a, b, n * sizeof(float)) == 0; }

}  // namespace

TEST_CASE("zero weights and biases give exactly the classifier bias on every row", "[forward]") {
    TestModel m = make_test_model(8, /*zero_weights=*/true);
    float* cls_bias = m.f32("cls.bias");
    for (int l = 0; l < bx::kLabels; ++l) cls_bias[l] = 0.125f * static_cast<float>(l) - 3.0f;
    const auto model = bx::ModelView::open(m.bytes(), m.size, nullptr);
    REQUIRE(model);
    const auto ids = window({4, 5, 6});
    const std::vector<float> logits = run(*model, ids, 5);
    // Every dot product is 0, so y = bias + (0 * s_in) * s_w = bias, on all 256 rows.
    for (int t = 0; t < bx::kWindow; ++t)
        REQUIRE(same_bits(logits.data() + t * bx::kLabels, cls_bias, bx::kLabels));
}

TEST_CASE("the forward pass is deterministic and fills every row", "[forward]") {
    TestModel m = make_test_model(8);
    const auto model = bx::ModelView::open(m.bytes(), m.size, nullptr);
    REQUIRE(model);
    const auto ids = window({4, 5, 6, 7, 3});
    bx::Profile profile;
    const std::vector<float> a = run(*model, ids, 7, &profile);
    // Same input, and `live` = 256 instead of 7: stage 00 computes all 256
    // rows whatever `live` says (later stages use it to skip work, never to
    // change a live row), so the bits must not move.
    const std::vector<float> b = run(*model, ids, bx::kWindow);
    CHECK(same_bits(a.data(), b.data(), a.size()));
    for (float v : a) REQUIRE(std::isfinite(v));
    for (float v : a) REQUIRE(v != 12345.0f);  // stage 00 writes pad rows too
    CHECK(profile.ms[0] > 0.0);                 // matmul
    CHECK(profile.ms[1] > 0.0);                 // attention
    CHECK(profile.ms[2] > 0.0);                 // other
}

TEST_CASE("pads are keys: changing a pad position changes the real rows", "[forward]") {
    // The post: "padding is load-bearing". A different id at a pad position
    // (the model never sees a mask) must change the live rows' logits.
    TestModel m = make_test_model(8);
    const auto model = bx::ModelView::open(m.bytes(), m.size, nullptr);
    REQUIRE(model);
    auto ids = window({4, 5});
    const std::vector<float> a = run(*model, ids, 4);
    ids[200] = 6;
    const std::vector<float> b = run(*model, ids, 4);
    CHECK_FALSE(same_bits(a.data(), b.data(), 4 * bx::kLabels));
}

TEST_CASE("ids outside the vocabulary read as <unk>", "[forward]") {
    TestModel m = make_test_model(8);
    const auto model = bx::ModelView::open(m.bytes(), m.size, nullptr);
    REQUIRE(model);
    const std::vector<float> a = run(*model, window({4, 3}), 4);
    const std::vector<float> b = run(*model, window({4, 99}), 4);
    const std::vector<float> c = run(*model, window({4, -7}), 4);
    CHECK(same_bits(a.data(), b.data(), a.size()));
    CHECK(same_bits(a.data(), c.data(), a.size()));
}

TEST_CASE("stage name", "[forward]") { CHECK(bx::stage::name() == "00-naive"); }
