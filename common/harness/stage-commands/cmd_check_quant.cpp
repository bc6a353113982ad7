// `check-quant`: the stage's activation quantiser (common/stage/quantize_kernel.hpp)
// against the scalar reference (common/maths/quantize.hpp), two ways:
//
//   exhaustive  every f32 bit pattern in [--from, --to) (all 2^32 by default)
//               through the element step at scale exactly 1 (inv = 127/127), so
//               each input is quantised as itself: the rounding, the clamp and
//               the NaN rule on every input there is. Then the same patterns as
//               whole rows [127, p, p+1, ... p+14], whose max |x| is 127 (so
//               their scale is exactly 1) unless a pattern is larger: the row
//               path too, max and scale included.
//   random      --rows rows (20,000 by default, seeded, so the same every run)
//               of the model's widths and of odd widths (a tail), with scales
//               from 2^-20 to 2^20, exact .5 ties, zeros, negative zeros, NaNs,
//               infinities, and all-zero rows; int8 values and the scale's bits.
//
// Without --only, the random rows run when --from is 0 (so a check split into
// ranges over several processes runs them once). Exit status 1 on any difference; the first are printed with the input, the
// kernel's result and the reference's. --first stops at the first difference
// (the random rows run first: they find a broken rounding or NaN rule fast).
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/maths/bits.hpp"
#include "common/maths/quantize.hpp"
#include "common/stage/quantize_kernel.hpp"
#include "common/stage/stage.hpp"

namespace bx::harness {
namespace {

constexpr const char* kUsage =
    "[--only exhaustive|random] [--from 0] [--to 0x100000000] [--rows 20000] [--seed 9] [--show 5] [--first]";

struct Report {
    std::uint64_t compared = 0;
    std::uint64_t differ = 0;
    long shown = 0;
    long show = 5;
    bool stop_at_first = false;
    bool stop() const { return stop_at_first && differ > 0; }
};

void print_value(const char* what, float x) {
    std::printf("%s %a [0x%08x]", what, static_cast<double>(x), float_bits(x));
}

// One element that differs: the input, what it was scaled by, and both results.
void report_element(Report& report, const char* where, float x, float inv, int simd, int scalar) {
    if (report.shown++ >= report.show) return;
    std::printf("  %s: ", where);
    print_value("x =", x);
    std::printf(", x * inv = %a; %s gives %d, the reference %d\n", static_cast<double>(x * inv),
                std::string(stage::name()).c_str(), simd, scalar);
}

// The reference's inv for a row (its amax loop and division), for reports.
float reference_inv(const float* row, int width) {
    float amax = 0.0f;
    for (int c = 0; c < width; ++c)
        if (std::fabs(row[c]) > amax) amax = std::fabs(row[c]);
    return amax > 0.0f ? 127.0f / amax : 0.0f;
}

// One row through the kernel and the reference: int8 values and scale bits.
// On a difference, counts it and reports the row's first differing element
// (and the scale, if that differs too).
void check_row(const float* row, int width, std::vector<std::int8_t>& q, std::vector<std::int8_t>& want,
               const std::string& label, Report& report) {
    q.assign(static_cast<std::size_t>(width), 0);
    want.assign(static_cast<std::size_t>(width), 0);
    const float scale = stage::quantize_row(row, width, q.data());
    const float want_scale = quantize_row_scalar(row, width, want.data());
    ++report.compared;
    if (float_bits(scale) == float_bits(want_scale) && q == want) return;
    ++report.differ;
    for (std::size_t c = 0; c < q.size(); ++c) {
        if (q[c] == want[c]) continue;
        const std::string where = label + ", element " + std::to_string(c);
        report_element(report, where.c_str(), row[c], reference_inv(row, width), q[c], want[c]);
        break;
    }
    if (float_bits(scale) != float_bits(want_scale) && report.shown++ < report.show)
        std::printf("  %s: scale 0x%08x, the reference 0x%08x\n", label.c_str(), float_bits(scale), float_bits(want_scale));
}

void exhaustive(std::uint64_t from, std::uint64_t to, Report& elements, Report& rows) {
    constexpr std::size_t kBlock = 1 << 16;
    constexpr int kRowWidth = 16;
    std::vector<float> x(kBlock);
    std::vector<std::int8_t> q(kBlock), q_row, want_row;
    for (std::uint64_t base = from; base < to && !elements.stop() && !rows.stop(); base += kBlock) {
        const std::size_t n = static_cast<std::size_t>(to - base < kBlock ? to - base : kBlock);
        for (std::size_t i = 0; i < n; ++i) x[i] = float_from_bits(static_cast<std::uint32_t>(base + i));
        // The element step at scale exactly 1.
        const float inv = 127.0f / 127.0f;
        stage::quantize_scaled(x.data(), static_cast<int>(n), inv, q.data());
        for (std::size_t i = 0; i < n; ++i) {
            ++elements.compared;
            const int want = quantize_value(x[i] * inv);
            if (q[i] == want) continue;
            ++elements.differ;
            report_element(elements, "element step", x[i], inv, q[i], want);
        }
        // Rows [127, 15 patterns].
        for (std::size_t i = 0; i < n; i += kRowWidth - 1) {
            float row[kRowWidth] = {127.0f};
            const std::size_t take = n - i < kRowWidth - 1 ? n - i : kRowWidth - 1;
            for (std::size_t j = 0; j < take; ++j) row[j + 1] = x[i + j];
            check_row(row, static_cast<int>(take) + 1, q_row, want_row, "row [127, ...]", rows);
        }
    }
}

// A random value of about magnitude 2^e, with the special values mixed in.
float special_or(std::mt19937& rng, float value) {
    switch (rng() % 64) {
        case 0: return 0.0f;
        case 1: return -0.0f;
        case 2: return std::nanf("");
        case 3: return float_from_bits(0x7fc00000u | (static_cast<std::uint32_t>(rng()) & 0x3fffffu) | (rng() % 2 ? 0x80000000u : 0));
        case 4: return rng() % 2 ? INFINITY : -INFINITY;
        default: return value;
    }
}

void random_rows(long count, std::uint32_t seed, Report& report) {
    std::mt19937 rng(seed);
    const int widths[] = {384, 1536, 16, 17, 33, 1, 100};
    std::vector<float> row;
    std::vector<std::int8_t> q, want;
    for (long r = 0; r < count && !report.stop(); ++r) {
        const int width = widths[static_cast<std::size_t>(r) % std::size(widths)];
        row.assign(static_cast<std::size_t>(width), 0.0f);
        const int e = static_cast<int>(rng() % 41) - 20;  // scale 2^-20 .. 2^20
        const float unit = std::ldexp(1.0f, e);
        const int kind = static_cast<int>(r % 5);
        for (int c = 0; c < width; ++c) {
            float v;
            if (kind == 0) {
                v = 0.0f;  // an all-zero row (r % 5 == 0 and only zeros, signs mixed)
                if (rng() % 2) v = -0.0f;
            } else if (kind == 1) {
                // Exact ties: the row's max is 127 * unit, so inv = 1/unit exactly and
                // (k + 0.5) * unit scales to exactly k + 0.5.
                const int k = static_cast<int>(rng() % 254) - 127;
                v = c == 0 ? 127.0f * unit : (static_cast<float>(k) + 0.5f) * unit;
            } else {
                std::uniform_real_distribution<float> u(-1.0f, 1.0f);
                v = special_or(rng, u(rng) * 127.0f * unit);
            }
            row[static_cast<std::size_t>(c)] = v;
        }
        check_row(row.data(), width, q, want, "random row " + std::to_string(r) + " (width " + std::to_string(width) + ")",
                  report);
    }
}

int check_quant_main(int argc, char** argv) {
    Args args(argc, argv);
    const std::string only = args.value("--only");
    const std::uint64_t from = std::strtoull(args.value("--from", "0").c_str(), nullptr, 0);
    const std::uint64_t to = std::strtoull(args.value("--to", "0x100000000").c_str(), nullptr, 0);
    const long rows = args.number("--rows", 20000);
    const long seed = args.number("--seed", 9);
    const long show = args.number("--show", 5);
    const bool first = args.flag("--first");
    if (!args.all_used(kUsage)) return 2;
    if (from > to || to > 0x100000000ull || rows < 0 || (!only.empty() && only != "exhaustive" && only != "random")) {
        std::fprintf(stderr, "check-quant: need 0 <= --from <= --to <= 2^32, --rows >= 0, --only exhaustive|random\n");
        return 2;
    }
    const std::string name(stage::name());
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    std::uint64_t differ = 0;

    // The random rows run once per whole check: in the part that starts at 0
    // when common/harness/range-parts.sh splits the inputs.
    if ((only.empty() && from == 0) || only == "random") {
        Report random{.show = show, .stop_at_first = first};
        random_rows(rows, static_cast<std::uint32_t>(seed), random);
        std::printf("check-quant %s, random: %" PRIu64 " of %" PRIu64 " rows differ (widths 1 to 1536, scales 2^-20 to 2^20, "
                    "ties, zeros, -0, NaNs, infinities, all-zero rows; seed %ld)\n",
                    name.c_str(), random.differ, random.compared, seed);
        differ += random.differ;
    }
    if ((only.empty() || only == "exhaustive") && !(first && differ > 0)) {
        Report elements{.show = show, .stop_at_first = first};
        Report row_report{.show = show, .stop_at_first = first};
        exhaustive(from, to, elements, row_report);
        std::printf("check-quant %s, exhaustive [0x%08" PRIx64 ", 0x%09" PRIx64 "): element step at scale 1: %" PRIu64 " of %" PRIu64
                    " inputs differ; rows [127, ...]: %" PRIu64 " of %" PRIu64 " rows differ\n",
                    name.c_str(), from, to, elements.differ, elements.compared, row_report.differ, row_report.compared);
        differ += elements.differ + row_report.differ;
    }
    std::printf("check-quant: %" PRIu64 " differences (%.1f s)\n", differ, seconds());
    return differ == 0 ? 0 : 1;
}

}  // namespace
}  // namespace bx::harness

BX_HARNESS_COMMAND_NAMED(check_quant, "check-quant", "the stage's quantiser vs the scalar reference: all 2^32 inputs, and random rows",
                   bx::harness::check_quant_main);
