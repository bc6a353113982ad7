// `eval`: the post's examples/eval.rs. Runs the eval corpus through the stage,
// compares every compared row's logits with stage 00's committed baseline, and
// times the forward pass:
//
//   label agreement 345/345 (100.00%), max |dlogit| 0.00e0, mean |dlogit| 0.00e0
//     per forward: matmul 164.7 ms, attention 51.1 ms, other 28.7 ms
//   forward: median 239.5 ms, min 234.7 ms (50 runs)
//
// Exit status 1 when any logit differs in any bit: max |dlogit| 0 is the bar.
// `--write-baseline` (stage 00 only) writes the baseline instead.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/harness/compare.hpp"
#include "common/harness/corpus.hpp"
#include "common/harness/files.hpp"
#include "common/harness/fnv.hpp"
#include "common/harness/reference.hpp"
#include "common/harness/runner.hpp"

namespace bx::harness {
namespace {

constexpr const char* kUsage =
    "[--corpus assets/corpora/eval.jsonl] [--baseline assets/baselines/eval.bin] [--model FILE]\n"
    "            [--runs 20] [--warmup 3] [--timing-text 0] [--write-baseline]";

int fail(const std::string& message) {
    std::fprintf(stderr, "eval: %s\n", message.c_str());
    return 2;
}

int eval_main(int argc, char** argv) {
    Args args(argc, argv);
    const std::string corpus_path = args.value("--corpus", "assets/corpora/eval.jsonl");
    const std::string baseline_path = args.value("--baseline", "assets/baselines/eval.bin");
    const std::string model_path = args.value("--model");
    const long runs = args.number("--runs", 20);
    const long warmup = args.number("--warmup", 3);
    const long timing_text = args.number("--timing-text", 0);
    const bool write_baseline = args.flag("--write-baseline");
    if (!args.all_used(kUsage)) return 2;

    std::string error;
    Runner runner;
    Corpus corpus;
    if (!runner.open(model_path, &error) || !load_corpus(corpus_path, corpus, &error)) return fail(error);
    if (corpus.texts.empty()) return fail(corpus_path + ": no texts");

    LogitsFile results;
    results.model = runner.model_fingerprint();
    results.corpus = corpus.fingerprint;
    results.corpus_texts = static_cast<std::uint32_t>(corpus.texts.size());
    for (std::size_t i = 0; i < corpus.texts.size(); ++i) {
        TextLogits text;
        if (!runner.run(corpus.texts[i], text, &error)) return fail("text " + std::to_string(i) + ": " + error);
        results.corpus_rows += static_cast<std::uint64_t>(text.rows);
        results.entries.push_back(make_entry(static_cast<std::uint32_t>(i), text));
    }
    results.corpus_rows_agree = results.corpus_rows;

    if (write_baseline) {
        if (!write_file(baseline_path, format_logits_file(results), &error)) return fail(error);
        std::printf("wrote %s: %zu texts, %" PRIu64 " rows (stage %.*s)\n", baseline_path.c_str(),
                    corpus.texts.size(), results.corpus_rows, static_cast<int>(bx::stage::name().size()),
                    bx::stage::name().data());
        return 0;
    }

    // Accuracy against the baseline.
    std::string bytes;
    LogitsFile baseline;
    if (!read_file(baseline_path, bytes, &error) || !parse_logits_file(bytes, baseline, &error)) return fail(error);
    if (baseline.model != results.model)
        return fail(baseline_path + " was made with another model (fingerprint " + hex16(baseline.model) + ", this build " + hex16(results.model) +
                    "); regenerate it with `make baseline STAGE=00`");
    if (baseline.corpus != results.corpus || baseline.entries.size() != results.entries.size())
        return fail(baseline_path + " was made from another version of " + corpus_path +
                    "; regenerate it with `make baseline STAGE=00`");
    DiffStats stats;
    int reported = 0;
    for (std::size_t i = 0; i < results.entries.size(); ++i) {
        const LogitsEntry& want = baseline.entries[i];
        const LogitsEntry& got = results.entries[i];
        DiffStats text;
        text.add(want.logits.data(), want.rows, got.logits.data(), got.rows);
        if (!text.identical() && reported++ < 10)
            std::printf("  text %zu: %ld of %ld logits differ%s\n", i, text.values_differ, text.values,
                        want.ids_hash != got.ids_hash ? " (token ids differ: tokenizer changed?)" : "");
        stats.merge(text);
    }
    std::printf("%s\n", stats.agreement_line().c_str());

    // Timing: one window, warmed up first (V8 tiers up from Liftoff to TurboFan).
    if (timing_text < 0 || timing_text >= static_cast<long>(corpus.texts.size()))
        return fail("--timing-text out of range");
    const std::string& sample = corpus.texts[static_cast<std::size_t>(timing_text)];
    for (long i = 0; i < warmup; ++i)
        if (runner.time_one_forward(sample, &error) < 0) return fail(error);
    runner.profile().clear();
    std::vector<double> times;
    for (long i = 0; i < runs; ++i) {
        const double ms = runner.time_one_forward(sample, &error);
        if (ms < 0) return fail(error);
        times.push_back(ms);
    }
    if (!times.empty()) {
        const Profile& p = runner.profile();
        const double n = static_cast<double>(times.size());
        std::printf("  per forward: matmul %.1f ms, attention %.1f ms, other %.1f ms\n", p.ms[0] / n, p.ms[1] / n,
                    p.ms[2] / n);
        std::sort(times.begin(), times.end());
        const std::size_t mid = times.size() / 2;
        const double median = times.size() % 2 ? times[mid] : 0.5 * (times[mid - 1] + times[mid]);
        std::printf("forward: median %.1f ms, min %.1f ms (%zu runs)\n", median, times.front(), times.size());
    }
    return stats.identical() ? 0 : 1;
}

}  // namespace
}  // namespace bx::harness

BX_HARNESS_COMMAND(eval, "run the eval corpus against the baseline and time the forward pass",
                   bx::harness::eval_main);
