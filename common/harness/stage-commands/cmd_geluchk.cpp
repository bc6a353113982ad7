// `geluchk`: the stage's gelu_in_place (common/stage/gelu_kernel.hpp) against
// stage 00's gelu_scalar on every f32 bit pattern in [--from, --to) (all 2^32
// by default: NaNs, infinities, subnormals, both zeros), comparing result bits.
// Exit status 1 when any input differs; the first --show of them are printed
// with the input, the kernel's and the scalar result's bits.
//
// Inputs go through the kernel in blocks, in bit-pattern order, so each group
// of four the kernel forms holds neighbouring patterns: every lane position
// sees every class of input, next to every other class.
//
// NaN inputs: both sides must give the same NaN bits. The kernel hands NaN
// lanes to gelu_scalar itself, with the input taken from its register (a
// lane extract is a bit copy, never canonicalised), so the check holds there
// exactly as it would for any other scalar input.
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/harness/stage-commands/gelu_ranges.hpp"
#include "common/maths/bits.hpp"
#include "common/maths/gelu.hpp"
#include "common/stage/gelu_kernel.hpp"
#include "common/stage/stage.hpp"

namespace bx::harness {
namespace {

constexpr const char* kUsage = "[--from 0] [--to 0x100000000] [--show 5] [--first]";
constexpr std::uint64_t kBlock = 1 << 16;

int geluchk_main(int argc, char** argv) {
    Args args(argc, argv);
    const std::uint64_t from = std::strtoull(args.value("--from", "0").c_str(), nullptr, 0);
    const std::uint64_t to = std::strtoull(args.value("--to", "0x100000000").c_str(), nullptr, 0);
    const long show = args.number("--show", 5);
    const bool stop_at_first = args.flag("--first");
    if (!args.all_used(kUsage)) return 2;
    if (from > to || to > 0x100000000ull) {
        std::fprintf(stderr, "geluchk: need 0 <= --from <= --to <= 2^32\n");
        return 2;
    }

    constexpr int kRanges = static_cast<int>(GeluRange::kCount);
    std::uint64_t inputs[kRanges] = {};
    std::uint64_t differ[kRanges] = {};
    std::uint64_t total_differ = 0;
    long shown = 0;
    std::vector<float> block(kBlock);
    const auto start = std::chrono::steady_clock::now();

    for (std::uint64_t base = from; base < to; base += kBlock) {
        const std::size_t n = static_cast<std::size_t>(to - base < kBlock ? to - base : kBlock);
        for (std::size_t i = 0; i < n; ++i) block[i] = float_from_bits(static_cast<std::uint32_t>(base + i));
        stage::gelu_in_place(block.data(), n);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t input_bits = static_cast<std::uint32_t>(base + i);
            const float x = float_from_bits(input_bits);
            const int range = static_cast<int>(gelu_range(x));
            ++inputs[range];
            const std::uint32_t vector_bits = float_bits(block[i]);
            const std::uint32_t scalar_bits = float_bits(gelu_scalar(x));
            if (vector_bits == scalar_bits) continue;
            ++differ[range];
            if (total_differ++ == 0 || shown < show) {
                ++shown;
                std::printf("  x = %a [0x%08x]: %s gives 0x%08x (%a), gelu_scalar 0x%08x (%a)\n",
                            static_cast<double>(x), input_bits, std::string(stage::name()).c_str(), vector_bits,
                            static_cast<double>(block[i]), scalar_bits,
                            static_cast<double>(float_from_bits(scalar_bits)));
            }
        }
        if (stop_at_first && total_differ > 0) break;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::uint64_t checked = 0;
    for (int r = 0; r < kRanges; ++r) checked += inputs[r];
    std::printf("geluchk %s: inputs [0x%08" PRIx64 ", 0x%09" PRIx64 "), %" PRIu64 " checked\n",
                std::string(stage::name()).c_str(), from, to, checked);
    for (int r = 0; r < kRanges; ++r)
        std::printf("  %-36s %11" PRIu64 " inputs, %" PRIu64 " differ\n",
                    gelu_range_name(static_cast<GeluRange>(r)), inputs[r], differ[r]);
    std::printf("geluchk: %" PRIu64 " of %" PRIu64 " inputs differ from gelu_scalar (%.1f s)\n", total_differ,
                checked, seconds);
    return total_differ == 0 ? 0 : 1;
}

}  // namespace
}  // namespace bx::harness

BX_HARNESS_COMMAND(geluchk, "the stage's GELU kernel vs gelu_scalar, bit for bit, on all 2^32 inputs",
                   bx::harness::geluchk_main);
