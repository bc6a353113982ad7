// What check-gelu and check-exp share: a stage's vector kernel for a function of one
// f32 against its scalar reference, on every f32 bit pattern in [--from, --to)
// (all 2^32 by default: NaNs, infinities, subnormals, both zeros), comparing
// result bits. Exit status 1 when any input differs; the first --show of them
// are printed with the input, the kernel's and the reference's bits. --first
// stops after the block holding the first difference.
//
// Inputs go through the kernel in blocks, in bit-pattern order, so each group
// of four the kernel forms holds neighbouring patterns: every lane position
// sees every class of input, next to every other class. The report counts
// inputs and differences per class (the kernel's vector and fallback ranges).
//
// With --first the blocks are visited in bit-reversed order of their index
// (when their count is a power of two, as for the whole range or a half): the
// first blocks visited then lie spread over the whole range, so a kernel that
// is wrong over a region of inputs (one sign, one range of exponents) is found
// after a few of its blocks, however far into the range the region lies. The
// order only changes how soon a difference is met; every block is still
// visited until one is.
#pragma once

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/harness/args.hpp"
#include "common/maths/bits.hpp"
#include "common/stage/stage.hpp"

namespace bx::harness {

struct UnaryCheck {
    const char* command;         // "check-gelu"
    const char* reference_name;  // "gelu_scalar"
    void (*kernel)(float* values, std::size_t count);
    float (*reference)(float x);
    int classes;
    int (*classify)(float x);            // 0 .. classes-1
    const char* (*class_name)(int klass);
};

inline constexpr const char* kUnaryCheckUsage = "[--from 0] [--to 0x100000000] [--show 5] [--first]";

// Block i of `count` blocks in the order they are visited: i itself, or with
// `scattered`, i with its log2(count) bits reversed (count a power of two).
inline std::uint64_t visit_order(std::uint64_t i, std::uint64_t count, bool scattered) {
    if (!scattered || count == 0 || (count & (count - 1)) != 0) return i;
    std::uint64_t reversed = 0;
    for (std::uint64_t bit = 1; bit < count; bit <<= 1, i >>= 1) reversed = (reversed << 1) | (i & 1);
    return reversed;
}

inline int run_unary_check(const UnaryCheck& check, int argc, char** argv) {
    constexpr std::uint64_t kBlock = 1 << 16;
    Args args(argc, argv);
    const std::uint64_t from = std::strtoull(args.value("--from", "0").c_str(), nullptr, 0);
    const std::uint64_t to = std::strtoull(args.value("--to", "0x100000000").c_str(), nullptr, 0);
    const long show = args.number("--show", 5);
    const bool stop_at_first = args.flag("--first");
    if (!args.all_used(kUnaryCheckUsage)) return 2;
    if (from > to || to > 0x100000000ull) {
        std::fprintf(stderr, "%s: need 0 <= --from <= --to <= 2^32\n", check.command);
        return 2;
    }

    std::vector<std::uint64_t> inputs(static_cast<std::size_t>(check.classes));
    std::vector<std::uint64_t> differ(static_cast<std::size_t>(check.classes));
    std::uint64_t total_differ = 0;
    long shown = 0;
    const std::string stage_name(stage::name());
    std::vector<float> block(kBlock);
    const auto start = std::chrono::steady_clock::now();

    const std::uint64_t blocks = (to - from + kBlock - 1) / kBlock;
    for (std::uint64_t visited = 0; visited < blocks; ++visited) {
        const std::uint64_t base = from + visit_order(visited, blocks, stop_at_first) * kBlock;
        const std::size_t n = static_cast<std::size_t>(to - base < kBlock ? to - base : kBlock);
        for (std::size_t i = 0; i < n; ++i) block[i] = float_from_bits(static_cast<std::uint32_t>(base + i));
        check.kernel(block.data(), n);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t input_bits = static_cast<std::uint32_t>(base + i);
            const float x = float_from_bits(input_bits);
            const auto klass = static_cast<std::size_t>(check.classify(x));
            ++inputs[klass];
            const std::uint32_t vector_bits = float_bits(block[i]);
            const std::uint32_t scalar_bits = float_bits(check.reference(x));
            if (vector_bits == scalar_bits) continue;
            ++differ[klass];
            if (total_differ++ == 0 || shown < show) {
                ++shown;
                std::printf("  x = %a [0x%08x]: %s gives 0x%08x (%a), %s 0x%08x (%a)\n", static_cast<double>(x),
                            input_bits, stage_name.c_str(), vector_bits, static_cast<double>(block[i]),
                            check.reference_name, scalar_bits, static_cast<double>(float_from_bits(scalar_bits)));
            }
        }
        if (stop_at_first && total_differ > 0) break;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::uint64_t checked = 0;
    for (const std::uint64_t n : inputs) checked += n;
    std::printf("%s %s: inputs [0x%08" PRIx64 ", 0x%09" PRIx64 "), %" PRIu64 " checked\n", check.command,
                stage_name.c_str(), from, to, checked);
    for (int k = 0; k < check.classes; ++k)
        std::printf("  %-36s %11" PRIu64 " inputs, %" PRIu64 " differ\n", check.class_name(k),
                    inputs[static_cast<std::size_t>(k)], differ[static_cast<std::size_t>(k)]);
    std::printf("%s: %" PRIu64 " of %" PRIu64 " inputs differ from %s (%.1f s)\n", check.command, total_differ, checked,
                check.reference_name, seconds);
    return total_differ == 0 ? 0 : 1;
}

}  // namespace bx::harness
