// The GEMM's floor natively (bench/floor/kernels.mjs has the wasm kernels and
// says what they measure): the same three kernels, in the project's one SIMD
// spelling (SIMDe maps i32x4.dot_i16x8_s to pmaddwd), compiled by clang for the
// build machine's baseline x86-64. A cross-check of what the core can issue,
// not a wasm number.
//   floor-native ROUNDS    one JSON object on stdout
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <time.h>
#include <vector>

#include "common/simd/simd128.hpp"

namespace {

constexpr std::int64_t kWindowDots = 6LL * 256 * (4LL * 384 * 384 + 2LL * 384 * 1536) / 8;
constexpr std::int64_t kWindowFloatPairs = 2LL * 6 * 256 * 256 * 384 / 4;
constexpr int kRegisterDotsPerTrip = 48, kLoadDotsPerTrip = 32, kFloatPairsPerTrip = 48;  // kernels.mjs
constexpr std::int64_t kWeightBytes = 2048, kPairBytes = 1024;

std::int64_t now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

std::int64_t lanes(v128_t v) {
    return std::int64_t{wasm_i32x4_extract_lane(v, 0)} + wasm_i32x4_extract_lane(v, 1) + wasm_i32x4_extract_lane(v, 2) +
           wasm_i32x4_extract_lane(v, 3);
}

// Six accumulators and six distinct weight vectors (distinct, so that no two
// products are the same and none can be merged), one splat per group of six.
[[gnu::noinline]] std::int64_t registers(std::int64_t trips, const std::int16_t* seed) {
    v128_t w[6], s[6];
    for (int k = 0; k < 6; ++k) { w[k] = wasm_v128_load(seed + 8 * k); s[k] = wasm_i32x4_splat(0); }
#pragma clang loop unroll(disable)
    for (std::int64_t t = 0; t < trips; ++t)
        for (int g = 0; g < kRegisterDotsPerTrip / 6; ++g) {
            const v128_t a = wasm_i32x4_splat(static_cast<std::int32_t>(t + g));
            for (int k = 0; k < 6; ++k) s[k] = wasm_i32x4_add(s[k], wasm_i32x4_dot_i16x8(a, w[k]));
        }
    std::int64_t total = 0;
    for (const v128_t& v : s) total += lanes(v);
    return total;
}

[[gnu::noinline]] std::int64_t loads(std::int64_t trips, const std::int8_t* weights, const std::int16_t* pairs) {
    v128_t s[4][2];
    for (auto& row : s) row[0] = row[1] = wasm_i32x4_splat(0);
#pragma clang loop unroll(disable)
    for (std::int64_t t = 0; t < trips; ++t) {
        const std::int8_t* wp = weights + (t * 16 * (kLoadDotsPerTrip / 8)) % kWeightBytes;
        const std::int16_t* ap = pairs + ((t * 16 * (kLoadDotsPerTrip / 8)) % kPairBytes) / 2;
        for (int u = 0; u < kLoadDotsPerTrip / 8; ++u) {
            const v128_t w0 = wasm_i16x8_load8x8(wp + 16 * u), w1 = wasm_i16x8_load8x8(wp + 16 * u + 8);
            for (int r = 0; r < 4; ++r) {
                const v128_t p = wasm_v128_load32_splat(ap + 8 * u + 2 * r);
                s[r][0] = wasm_i32x4_add(s[r][0], wasm_i32x4_dot_i16x8(p, w0));
                s[r][1] = wasm_i32x4_add(s[r][1], wasm_i32x4_dot_i16x8(p, w1));
            }
        }
    }
    std::int64_t total = 0;
    for (auto& row : s) total += lanes(row[0]) + lanes(row[1]);
    return total;
}

// Six accumulators and six vectors made from `trips`, one splat of the
// trip's counter per group of six; every multiply followed by its own add
// (the build's -ffp-contract=off keeps them apart, as the stages need).
[[gnu::noinline]] float floats(std::int64_t trips) {
    v128_t w[6], s[6];
    for (int k = 0; k < 6; ++k) {
        w[k] = wasm_f32x4_splat(static_cast<float>(trips + k + 1));
        s[k] = wasm_f32x4_splat(0.0f);
    }
#pragma clang loop unroll(disable)
    for (std::int64_t t = 0; t < trips; ++t)
        for (int g = 0; g < kFloatPairsPerTrip / 6; ++g) {
            const v128_t a = wasm_f32x4_splat(static_cast<float>(static_cast<std::int32_t>(t + g)));
            for (int k = 0; k < 6; ++k) s[k] = wasm_f32x4_add(s[k], wasm_f32x4_mul(a, w[k]));
        }
    float total = 0.0f;
    for (const v128_t& v : s)
        total += wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1) + wasm_f32x4_extract_lane(v, 2) +
                 wasm_f32x4_extract_lane(v, 3);
    return total;
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
    std::vector<std::int16_t> seed(48);
    std::vector<std::int8_t> weights(kWeightBytes);
    std::vector<std::int16_t> pairs(kPairBytes / 2);
    for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<std::int16_t>(static_cast<int>(i * 37 % 255) - 127);
    for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<std::int8_t>(static_cast<int>(i * 37 % 255) - 127);
    for (std::size_t i = 0; i < pairs.size(); ++i) pairs[i] = static_cast<std::int16_t>(static_cast<int>(i * 53 % 255) - 127);
    std::vector<std::int64_t> reg, load, flt;
    std::int64_t check = 0;
    float float_check = 0.0f;
    for (int round = -1; round < rounds; ++round) {
        const std::int64_t t0 = now_ns();
        check += registers(kWindowDots / kRegisterDotsPerTrip, seed.data());
        const std::int64_t t1 = now_ns();
        check += loads(kWindowDots / kLoadDotsPerTrip, weights.data(), pairs.data());
        const std::int64_t t2 = now_ns();
        float_check += floats(kWindowFloatPairs / kFloatPairsPerTrip);
        const std::int64_t t3 = now_ns();
        if (round >= 0) { reg.push_back(t1 - t0); load.push_back(t2 - t1); flt.push_back(t3 - t2); }
    }
    std::printf("{\"registers_ns\": [");
    for (std::size_t i = 0; i < reg.size(); ++i) std::printf("%s%lld", i ? ", " : "", static_cast<long long>(reg[i]));
    std::printf("], \"loads_ns\": [");
    for (std::size_t i = 0; i < load.size(); ++i) std::printf("%s%lld", i ? ", " : "", static_cast<long long>(load[i]));
    std::printf("], \"floats_ns\": [");
    for (std::size_t i = 0; i < flt.size(); ++i) std::printf("%s%lld", i ? ", " : "", static_cast<long long>(flt[i]));
    std::printf("], \"checksum\": %lld, \"float_checksum\": %g}\n", static_cast<long long>(check), static_cast<double>(float_check));
    return 0;
}
