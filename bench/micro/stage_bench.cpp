// Microbenchmarks of one stage (this file is compiled once per stage, linked
// with that stage's library: bench_micro_NN). Everything a stage exposes is
// timed here, and nothing is timed before it is shown to reproduce stage 00:
//
//   BM_Forward/short, /full   bx::stage::forward on the first window of the
//                             shortest one-window text and of the longest text
//                             of the eval corpus. Check: the stage's logits for
//                             both whole texts hash to stage 00's reference
//                             (assets/baselines/eval.ref), bit for bit.
//   BM_LoadTokenizer          bx::stage::load_tokenizer. Check: the tokenizer
//                             it builds encodes the short text to the reference ids.
//
// A kernel alone, every stage's version side by side, is the kernel ladders'
// job (bench/micro/ladder, make bench-ladders).
//
// Corpus and reference default to the repository's; override with the
// environment variables BX_BENCH_CORPUS and BX_BENCH_REF.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "common/embed/embedded.hpp"
#include "common/harness/corpus.hpp"
#include "common/harness/files.hpp"
#include "common/harness/reference.hpp"
#include "common/harness/runner.hpp"
#include "common/service/windows.hpp"
#include "common/stage/stage.hpp"


namespace {

std::string setting(const char* env, const char* relative) {
    const char* value = std::getenv(env);
    return value && *value ? std::string(value) : std::string(BX_BENCH_ROOT) + "/" + relative;
}

struct Window {
    std::vector<std::int32_t> ids = std::vector<std::int32_t>(bx::kWindow);
    int live = 0;
};

// Everything the stage benchmarks share, built and checked once.
struct Fixture {
    bool ok = false;
    std::string why;  // when !ok: why nothing may be timed
    bx::harness::Runner runner;
    std::string short_text;
    std::uint64_t short_ids_hash = 0;
    Window short_window, full_window;

    Fixture() { ok = prepare(); }

    bool fail(const std::string& message) {
        why = message;
        return false;
    }

    static Window first_window(const std::vector<std::int32_t>& ids) {
        Window w;
        const std::span<const std::int32_t> content(ids.data() + 1, ids.size() - 2);
        const int count = std::min<int>(static_cast<int>(content.size()), bx::service::kWindowContent);
        w.live = bx::service::fill_window_ids(content, {0, count}, w.ids.data());
        return w;
    }

    bool prepare() {
        std::string error, bytes;
        bx::harness::Corpus corpus;
        bx::harness::Reference reference;
        const std::string corpus_path = setting("BX_BENCH_CORPUS", "assets/corpora/eval.jsonl");
        const std::string ref_path = setting("BX_BENCH_REF", "assets/baselines/eval.ref");
        if (!runner.open("", &error)) return fail(error);
        if (!bx::harness::load_corpus(corpus_path, corpus, &error)) return fail(error);
        if (!bx::harness::read_file(ref_path, bytes, &error) || !bx::harness::parse_reference(bytes, reference, &error))
            return fail("stage 00 reference: " + error);
        if (reference.texts.size() != corpus.texts.size() || reference.corpus != corpus.fingerprint ||
            reference.model != runner.model_fingerprint())
            return fail("the reference was made for another corpus or model");

        // The shortest text that fits one window, and the longest text.
        int shortest = -1, longest = -1;
        std::vector<bx::harness::TextLogits> results(corpus.texts.size());
        for (std::size_t i = 0; i < corpus.texts.size(); ++i) {
            if (!runner.run(corpus.texts[i], results[i], &error)) return fail(error);
            const int n = static_cast<int>(results[i].ids.size());
            if (results[i].windows == 1 && (shortest < 0 || n < static_cast<int>(results[shortest].ids.size()))) shortest = static_cast<int>(i);
            if (longest < 0 || n > static_cast<int>(results[longest].ids.size())) longest = static_cast<int>(i);
        }
        if (shortest < 0) return fail("no one-window text in the corpus");
        for (const int i : {shortest, longest}) {
            const bx::harness::TextRecord record = bx::harness::make_record(results[i]);
            if (record.ids_hash != reference.texts[i].ids_hash) return fail("text " + std::to_string(i) + ": ids differ from stage 00");
            if (record.logits_hash != reference.texts[i].logits_hash)
                return fail("text " + std::to_string(i) + ": logits differ from stage 00");
        }
        short_text = corpus.texts[shortest];
        short_ids_hash = reference.texts[shortest].ids_hash;
        short_window = first_window(results[shortest].ids);
        full_window = first_window(results[longest].ids);
        return true;
    }
};

Fixture& fixture() {
    static Fixture f;
    return f;
}

void BM_Forward(benchmark::State& state, bool full) {
    Fixture& f = fixture();
    if (!f.ok) {
        state.SkipWithError(("not timed: " + f.why).c_str());
        return;
    }
    const Window& w = full ? f.full_window : f.short_window;
    std::vector<float> logits(std::size_t{bx::kWindow} * bx::kLabels);
    bx::Profile profile;
    for (auto _ : state) {
        bx::stage::forward(f.runner.model(), w.ids.data(), w.live, logits.data(), profile);
        benchmark::DoNotOptimize(logits.data());
    }
    const double n = static_cast<double>(state.iterations());
    state.counters["live"] = w.live;
    state.counters["matmul_ms"] = profile.ms[0] / n;
    state.counters["attention_ms"] = profile.ms[1] / n;
    state.counters["other_ms"] = profile.ms[2] / n;
}
BENCHMARK_CAPTURE(BM_Forward, short, false)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Forward, full, true)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_LoadTokenizer(benchmark::State& state) {
    Fixture& f = fixture();
    if (!f.ok) {
        state.SkipWithError(("not timed: " + f.why).c_str());
        return;
    }
    std::string error;
    std::shared_ptr<const bx::Tokenizer> tokenizer = bx::stage::load_tokenizer(&error);
    if (!tokenizer) {
        state.SkipWithError(("not timed: " + error).c_str());
        return;
    }
    if (bx::harness::ids_hash(tokenizer->encode(f.short_text).ids) != f.short_ids_hash) {
        state.SkipWithError("not timed: the tokenizer's ids differ from stage 00");
        return;
    }
    for (auto _ : state) {
        tokenizer = bx::stage::load_tokenizer(&error);
        benchmark::DoNotOptimize(tokenizer.get());
    }
}
BENCHMARK(BM_LoadTokenizer)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
