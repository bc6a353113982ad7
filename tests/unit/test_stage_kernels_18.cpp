// Stage 18's key transpose (stages/18-block-transpose/attention.hpp), four keys
// by four dimensions at a time, against the plain double loop, bit for bit:
// whole windows and key counts that leave keys over, with values whose bit
// patterns would show any lane put in the wrong place (every element unique,
// NaN payloads and negative zeros among them).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "common/maths/bits.hpp"
#include "stages/18-block-transpose/attention.hpp"

namespace {

// The number of elements of kt that differ from stage 03's double loop.
std::size_t transpose_differences(int keys, std::mt19937& rng) {
    std::vector<float> k(static_cast<std::size_t>(keys) * bx::kHidden);
    std::uniform_int_distribution<std::uint32_t> bits;
    for (std::size_t i = 0; i < k.size(); ++i)
        k[i] = bx::float_from_bits(i % 7 == 0 ? 0x7fc00000u | static_cast<std::uint32_t>(i)  // a NaN naming its place
                                              : (bits(rng) & 0xff800000u) | static_cast<std::uint32_t>(i));
    std::vector<float> want(k.size()), got(k.size());
    const std::size_t n = static_cast<std::size_t>(keys);
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t c = 0; c < bx::kHidden; ++c) want[c * n + j] = k[j * bx::kHidden + c];
    bx::stage::transpose_keys(k.data(), keys, got.data());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < k.size(); ++i) differ += bx::float_bits(got[i]) != bx::float_bits(want[i]) ? 1 : 0;
    return differ;
}

}  // namespace

TEST_CASE("stage 18: keys transposed in 4x4 blocks land where the double loop puts them", "[stage18][attention]") {
    std::mt19937 rng(180);
    for (int keys : {256, 4, 1, 3, 5, 7, 13, 255}) {
        INFO("keys " << keys);
        CHECK(transpose_differences(keys, rng) == 0);
    }
}
