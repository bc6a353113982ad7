// `check-gelu-census`: where the GELU inputs of real forward passes fall. Runs a
// corpus (the eval corpus by default) through the stage while watching every
// gelu_in_place call (common/stage/gelu_kernel.hpp), and counts
//   - values whose |u| lies in stage 07's vector range [2^-28, 1.25),
//   - groups of four (as the kernel forms them: consecutive, from the start of
//     each call's buffer) whose four values all lie in it, which is what
//     decides between falling back per lane and per group, and
//   - groups holding a value of range C (1.25 <= |u| < 6), the groups for
//     which stage 17 computes its two-exponential branch.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/harness/corpus.hpp"
#include "common/harness/runner.hpp"
#include "common/harness/stage-commands/gelu_ranges.hpp"
#include "common/stage/gelu_kernel.hpp"

namespace bx::harness {
namespace {

constexpr const char* kUsage = "[--corpus assets/corpora/eval.jsonl] [--model FILE] [--limit N]";

struct Census {
    std::uint64_t values = 0;
    std::uint64_t values_in_range = 0;
    std::uint64_t groups = 0;
    std::uint64_t groups_in_range = 0;
    std::uint64_t groups_with_c = 0;
    std::uint64_t by_range[static_cast<int>(GeluRange::kCount)] = {};
};

void count(const float* inputs, std::size_t n, void* context) {
    Census& census = *static_cast<Census*>(context);
    for (std::size_t g = 0; g + 4 <= n; g += 4) {
        int in_range = 0;
        bool with_c = false;
        for (std::size_t l = 0; l < 4; ++l) {
            const GeluRange range = gelu_range(inputs[g + l]);
            ++census.by_range[static_cast<int>(range)];
            in_range += gelu_vector_range(range) ? 1 : 0;
            with_c = with_c || range == GeluRange::kExp;
        }
        census.groups_with_c += with_c ? 1 : 0;
        census.values += 4;
        census.values_in_range += static_cast<std::uint64_t>(in_range);
        ++census.groups;
        census.groups_in_range += in_range == 4 ? 1 : 0;
    }
    for (std::size_t i = n - n % 4; i < n; ++i) {  // the kernel's scalar tail (none when n % 4 == 0)
        ++census.by_range[static_cast<int>(gelu_range(inputs[i]))];
        ++census.values;
    }
}

double percent(std::uint64_t part, std::uint64_t whole) {
    return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

int check_gelu_census_main(int argc, char** argv) {
    Args args(argc, argv);
    const std::string corpus_path = args.value("--corpus", "assets/corpora/eval.jsonl");
    const std::string model_path = args.value("--model");
    const long limit = args.number("--limit", -1);
    if (!args.all_used(kUsage)) return 2;

    std::string error;
    Runner runner;
    Corpus corpus;
    if (!runner.open(model_path, &error) || !load_corpus(corpus_path, corpus, &error)) {
        std::fprintf(stderr, "check-gelu-census: %s\n", error.c_str());
        return 2;
    }
    Census census;
    stage::observe_gelu_inputs(count, &census);
    std::size_t texts = 0;
    for (; texts < corpus.texts.size() && (limit < 0 || static_cast<long>(texts) < limit); ++texts) {
        TextLogits out;
        if (!runner.run(corpus.texts[texts], out, &error)) {
            stage::observe_gelu_inputs(nullptr, nullptr);
            std::fprintf(stderr, "check-gelu-census: text %zu: %s\n", texts, error.c_str());
            return 2;
        }
    }
    stage::observe_gelu_inputs(nullptr, nullptr);

    std::printf("check-gelu-census %s: %zu texts of %s, %d forward passes, %" PRIu64 " GELU inputs\n",
                std::string(stage::name()).c_str(), texts, corpus_path.c_str(), runner.forwards(), census.values);
    for (int r = 0; r < static_cast<int>(GeluRange::kCount); ++r)
        std::printf("  %-36s %11" PRIu64 " (%5.1f%%)\n", gelu_range_name(static_cast<GeluRange>(r)),
                    census.by_range[r], percent(census.by_range[r], census.values));
    std::printf("values in A or B (stage 07's vector range): %5.1f%% (%" PRIu64 " of %" PRIu64 ")\n",
                percent(census.values_in_range, census.values), census.values_in_range, census.values);
    std::printf("groups of 4 entirely in A or B:             %5.1f%% (%" PRIu64 " of %" PRIu64 ")\n",
                percent(census.groups_in_range, census.groups), census.groups_in_range, census.groups);
    std::printf("groups of 4 holding a value in C:           %5.1f%% (%" PRIu64 " of %" PRIu64 ")\n",
                percent(census.groups_with_c, census.groups), census.groups_with_c, census.groups);
    return 0;
}

}  // namespace
}  // namespace bx::harness

BX_HARNESS_COMMAND_NAMED(check_gelu_census, "check-gelu-census", "where real GELU inputs fall among erf's branches (the vector range's share)",
                   bx::harness::check_gelu_census_main);
