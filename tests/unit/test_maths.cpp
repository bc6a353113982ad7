// The scalar maths every stage shares: rounding, quantisation, exp, erf,
// GELU, LayerNorm. The exhaustive proofs (all 2^32 inputs against wasi-libc)
// are `cli check-maths` in the wasm build; here are the fixed points, edge
// cases and golden values that catch an accidental change quickly, natively.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/maths/bits.hpp"
#include "common/maths/erff.hpp"
#include "common/maths/expf.hpp"
#include "common/maths/gelu.hpp"
#include "common/maths/layer_norm.hpp"
#include "common/maths/quantize.hpp"
#include "common/maths/round.hpp"

using bx::float_bits;
using bx::float_from_bits;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Distance in ulps between two finite floats of the same sign.
long ulps(float a, float b) {
    return std::labs(static_cast<long>(float_bits(a)) - static_cast<long>(float_bits(b)));
}

struct Golden {
    std::uint32_t x, y;
};

}  // namespace

TEST_CASE("round_half_away rounds ties away from zero", "[maths]") {
    CHECK(bx::round_half_away(0.5f) == 1.0f);
    CHECK(bx::round_half_away(-0.5f) == -1.0f);
    CHECK(bx::round_half_away(1.5f) == 2.0f);
    CHECK(bx::round_half_away(2.5f) == 3.0f);  // ties to even would give 2
    CHECK(bx::round_half_away(-2.5f) == -3.0f);
    CHECK(bx::round_half_away(2.4999998f) == 2.0f);
    CHECK(bx::round_half_away(0.49999997f) == 0.0f);  // floor(x + 0.5) gets this wrong
    CHECK(bx::round_half_away(8388609.0f) == 8388609.0f);  // 2^23 + 1: already whole
    CHECK(bx::round_half_away(-126.5f) == -127.0f);
    CHECK(std::isnan(bx::round_half_away(kNaN)));
    CHECK(bx::round_half_away(kInf) == kInf);
    CHECK(std::signbit(bx::round_half_away(-0.25f)));  // -0.25 -> -0
}

TEST_CASE("round_half_away agrees with roundf on a sweep", "[maths]") {
    // roundf is specified as ties-away; check ours against it on many bit patterns.
    for (std::uint64_t b = 0; b < (1ull << 32); b += 9973) {
        const float x = float_from_bits(static_cast<std::uint32_t>(b));
        if (std::isnan(x)) continue;
        REQUIRE(float_bits(bx::round_half_away(x)) == float_bits(std::roundf(x)));
    }
}

TEST_CASE("quantize_value clamps, rounds and zeroes NaN", "[maths]") {
    CHECK(bx::quantize_value(0.5f) == 1);
    CHECK(bx::quantize_value(-0.5f) == -1);
    CHECK(bx::quantize_value(126.5f) == 127);
    CHECK(bx::quantize_value(127.49f) == 127);
    CHECK(bx::quantize_value(1000.0f) == 127);
    CHECK(bx::quantize_value(-1000.0f) == -127);  // never -128
    CHECK(bx::quantize_value(kInf) == 127);
    CHECK(bx::quantize_value(-kInf) == -127);
    CHECK(bx::quantize_value(kNaN) == 0);
    CHECK(bx::quantize_value(-kNaN) == 0);
}

TEST_CASE("quantize_row_scalar follows the contract", "[maths]") {
    std::int8_t q[8];
    SECTION("an all-zero row has scale 0 and zeros") {
        const float x[4] = {0.0f, -0.0f, 0.0f, 0.0f};
        CHECK(bx::quantize_row_scalar(x, 4, q) == 0.0f);
        for (int i = 0; i < 4; ++i) CHECK(q[i] == 0);
    }
    SECTION("max |x| = 127 gives scale 1: each value quantises as itself") {
        const float x[6] = {127.0f, -3.5f, 2.5f, -127.0f, 0.49f, 10.0f};
        CHECK(bx::quantize_row_scalar(x, 6, q) == 1.0f);
        const int want[6] = {127, -4, 3, -127, 0, 10};
        for (int i = 0; i < 6; ++i) CHECK(q[i] == want[i]);
    }
    SECTION("the scale is amax / 127 and values scale by 127 / amax") {
        const float x[3] = {2.0f, -1.0f, 0.5f};
        CHECK(bx::quantize_row_scalar(x, 3, q) == 2.0f / 127.0f);
        CHECK(q[0] == 127);
        CHECK(q[1] == bx::quantize_value(-1.0f * (127.0f / 2.0f)));  // -63.5 -> -64
        CHECK(q[1] == -64);
        CHECK(q[2] == 32);  // 31.75 -> 32
    }
    SECTION("NaN never wins the max and quantises to 0") {
        const float x[3] = {kNaN, 1.0f, -0.5f};
        CHECK(bx::quantize_row_scalar(x, 3, q) == 1.0f / 127.0f);
        CHECK(q[0] == 0);
        CHECK(q[1] == 127);
        CHECK(q[2] == -64);
    }
    SECTION("an infinity makes the scale infinite and every q 0") {
        const float x[3] = {kInf, 1.0f, -2.0f};
        CHECK(bx::quantize_row_scalar(x, 3, q) == kInf);
        for (int i = 0; i < 3; ++i) CHECK(q[i] == 0);
    }
}

TEST_CASE("bx_expf: special values", "[maths]") {
    CHECK(bx::bx_expf(0.0f) == 1.0f);
    CHECK(bx::bx_expf(-0.0f) == 1.0f);
    CHECK(float_bits(bx::bx_expf(-kInf)) == 0u);
    CHECK(bx::bx_expf(kInf) == kInf);
    CHECK(std::isnan(bx::bx_expf(kNaN)));
    CHECK(bx::bx_expf(88.73f) == kInf);  // just above ln(2^128)
    CHECK(float_bits(bx::bx_expf(-104.0f)) == 0u);
    CHECK(bx::bx_expf(-103.9f) > 0.0f);  // still a subnormal
}

TEST_CASE("bx_expf: golden values (wasi-libc's expf gives the same bits)", "[maths]") {
    const Golden golden[] = {
        {0x3f800000u, 0x402df854u}, {0xbf800000u, 0x3ebc5ab2u}, {0x3f000000u, 0x3fd3094cu},
        {0xc1200000u, 0x383e6bceu}, {0x41a00000u, 0x4de75844u}, {0x42b00000u, 0x7ef882b7u},
        {0xc2af0000u, 0x006cb2bcu}, {0xc2c80000u, 0x0000001bu}, {0x3727c5acu, 0x3f800054u},
        {0x3eb17218u, 0x3fb504f3u},
    };
    for (const Golden& g : golden) {
        INFO("x bits " << std::hex << g.x);
        CHECK(float_bits(bx::bx_expf(float_from_bits(g.x))) == g.y);
    }
}

TEST_CASE("bx_expf is within an ulp of exp in double", "[maths]") {
    for (float x = -87.0f; x < 88.0f; x += 0.0123f) {
        const float want = static_cast<float>(std::exp(static_cast<double>(x)));
        INFO("x = " << x);
        REQUIRE(ulps(bx::bx_expf(x), want) <= 1);
    }
}

TEST_CASE("bx_erff: special values and symmetry", "[maths]") {
    CHECK(float_bits(bx::bx_erff(0.0f)) == 0u);
    CHECK(float_bits(bx::bx_erff(-0.0f)) == 0x80000000u);
    CHECK(bx::bx_erff(kInf) == 1.0f);
    CHECK(bx::bx_erff(-kInf) == -1.0f);
    CHECK(std::isnan(bx::bx_erff(kNaN)));
    CHECK(bx::bx_erff(6.0f) == 1.0f);
    CHECK(bx::bx_erff(1e-30f) > 1e-30f);  // erf(x) ~ 1.128 x for tiny x
    for (float x = 0.0f; x < 7.0f; x += 0.00731f)
        REQUIRE(float_bits(bx::bx_erff(-x)) == (float_bits(bx::bx_erff(x)) ^ 0x80000000u));
}

TEST_CASE("bx_erff: golden values (wasi-libc's erff gives the same bits)", "[maths]") {
    const Golden golden[] = {
        {0x3dcccccdu, 0x3de652f5u}, {0x3f000000u, 0x3f053f7bu},
        {0x3f580000u, 0x3f4468e6u},  // 0.84375: glibc 2.36 gives ...e7 here (FreeBSD's older form)
        {0x3f800000u, 0x3f57bb3du}, {0x3fa00000u, 0x3f6c432fu}, {0x40000000u, 0x3f7ecd71u},
        {0x4036db6eu, 0x3f7ffc82u}, {0x40600000u, 0x3f7ffff4u}, {0x40bccccdu, 0x3f800000u},
        {0xbf333333u, 0xbf2d8461u}, {0xbf8ccccdu, 0xbf61551fu}, {0xc0800000u, 0xbf800000u},
    };
    for (const Golden& g : golden) {
        INFO("x bits " << std::hex << g.x);
        CHECK(float_bits(bx::bx_erff(float_from_bits(g.x))) == g.y);
    }
}

TEST_CASE("bx_erff is within 2 ulps of erf in double", "[maths]") {
    for (float x = -6.5f; x < 6.5f; x += 0.00377f) {
        const float want = static_cast<float>(std::erf(static_cast<double>(x)));
        INFO("x = " << x);
        REQUIRE(ulps(bx::bx_erff(x), want) <= 2);
    }
}

TEST_CASE("gelu_scalar", "[maths]") {
    CHECK(float_bits(bx::gelu_scalar(0.0f)) == 0u);
    CHECK(bx::gelu_scalar(10.0f) == 10.0f);
    CHECK(bx::gelu_scalar(-10.0f) == 0.0f);
    CHECK(std::isnan(bx::gelu_scalar(kNaN)));
    // The contract's expression, spelled out: (0.5 x)(1 + erf(x * 0.70710678f)).
    for (float x = -5.0f; x < 5.0f; x += 0.0317f) {
        const float want = (0.5f * x) * (1.0f + bx::bx_erff(x * 0.70710678118654752f));
        REQUIRE(float_bits(bx::gelu_scalar(x)) == float_bits(want));
        REQUIRE(std::fabs(bx::gelu_scalar(x) - 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)))) < 1e-5);
    }
}

TEST_CASE("layer_norm_scalar", "[maths]") {
    std::vector<float> gamma(384, 1.0f), beta(384, 0.0f), x(384), y(384);
    SECTION("a constant row gives beta") {
        for (int c = 0; c < 384; ++c) beta[c] = 0.25f * static_cast<float>(c % 7);
        std::fill(x.begin(), x.end(), 3.0f);
        bx::layer_norm_scalar(x.data(), 384, gamma.data(), beta.data(), y.data());
        for (int c = 0; c < 384; ++c) REQUIRE(y[c] == beta[c]);
    }
    SECTION("mean 0, variance 1, and in place gives the same bits") {
        for (int c = 0; c < 384; ++c) x[c] = std::sin(0.1f * static_cast<float>(c)) * 3.0f + 1.0f;
        bx::layer_norm_scalar(x.data(), 384, gamma.data(), beta.data(), y.data());
        double mean = 0, var = 0;
        for (float v : y) mean += v;
        mean /= 384;
        for (float v : y) var += (v - mean) * (v - mean);
        var /= 384;
        CHECK(std::fabs(mean) < 1e-5);
        CHECK(std::fabs(var - 1.0) < 1e-4);
        std::vector<float> z = x;
        bx::layer_norm_scalar(z.data(), 384, gamma.data(), beta.data(), z.data());
        for (int c = 0; c < 384; ++c) REQUIRE(float_bits(z[c]) == float_bits(y[c]));
    }
}
