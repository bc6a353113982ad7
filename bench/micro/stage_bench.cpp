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
//   BM_Kernel_*               only for stages that expose kernels through the
//                             optional header kernels.hpp (bench/README.md):
//                             each is compared with stage 00's arithmetic on the
//                             same inputs before timing.
//
// Corpus and reference default to the repository's; override with the
// environment variables BX_BENCH_CORPUS and BX_BENCH_REF.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench/micro/inputs.hpp"
#include "common/embed/embedded.hpp"
#include "common/harness/corpus.hpp"
#include "common/harness/files.hpp"
#include "common/harness/reference.hpp"
#include "common/harness/runner.hpp"
#include "common/maths/expf.hpp"
#include "common/maths/gelu.hpp"
#include "common/maths/quantize.hpp"
#include "common/service/windows.hpp"
#include "common/stage/stage.hpp"

#if __has_include("kernels.hpp")
#include "kernels.hpp"
#endif

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
    std::unique_ptr<bx::Tokenizer> tokenizer = bx::stage::load_tokenizer(&error);
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

// ---- per-kernel entry points (optional, see bench/README.md) ------------------

[[maybe_unused]] constexpr int kRows = bx::kWindow;

[[maybe_unused]] void skip_unless(benchmark::State& state, bool same, const char* what) {
    if (!same) state.SkipWithError((std::string("not timed: ") + what + " differs from stage 00's arithmetic").c_str());
}

#ifdef BX_KERNEL_QUANTIZE_ROWS
void BM_Kernel_QuantizeRows(benchmark::State& state) {
    const int cols = static_cast<int>(state.range(0));
    const std::vector<float> x = bx::bench::activations(std::size_t{kRows} * cols, 7u + cols);
    std::vector<std::int8_t> q(x.size()), q_ref(x.size());
    std::vector<float> s(kRows), s_ref(kRows);
    for (int t = 0; t < kRows; ++t) s_ref[t] = bx::quantize_row_scalar(x.data() + t * cols, cols, q_ref.data() + t * cols);
    bx::stage::kernels::quantize_rows(x.data(), kRows, cols, q.data(), s.data());
    skip_unless(state, q == q_ref && bx::bench::fingerprint(s) == bx::bench::fingerprint(s_ref), "quantize_rows");
    if (state.error_occurred()) return;
    for (auto _ : state) {
        bx::stage::kernels::quantize_rows(x.data(), kRows, cols, q.data(), s.data());
        benchmark::DoNotOptimize(q.data());
    }
}
BENCHMARK(BM_Kernel_QuantizeRows)->Arg(384)->Arg(1536);
#endif

#ifdef BX_KERNEL_GEMM
// The first layer's Q projection (384 -> 384) and FFN input (384 -> 1536), real weights.
void BM_Kernel_Gemm(benchmark::State& state) {
    Fixture& f = fixture();
    if (!f.ok) return state.SkipWithError(("not timed: " + f.why).c_str());
    const bx::LinearView& layer = state.range(0) == 0 ? f.runner.model().layers[0].q : f.runner.model().layers[0].ffn_in;
    const std::vector<float> x = bx::bench::activations(std::size_t{kRows} * layer.cols, 99u);
    std::vector<std::int8_t> q(x.size());
    std::vector<float> scales(kRows);
    for (int t = 0; t < kRows; ++t) scales[t] = bx::quantize_row_scalar(x.data() + t * layer.cols, layer.cols, q.data() + t * layer.cols);
    std::vector<float> y(std::size_t{kRows} * layer.rows), y_ref(y.size());
    for (int t = 0; t < kRows; ++t)
        for (int o = 0; o < layer.rows; ++o) {
            std::int32_t acc = 0;
            for (int k = 0; k < layer.cols; ++k) acc += std::int32_t{q[t * layer.cols + k]} * std::int32_t{layer.w[o * layer.cols + k]};
            y_ref[t * layer.rows + o] = layer.bias[o] + (static_cast<float>(acc) * scales[t]) * layer.scale[o];
        }
    bx::stage::kernels::gemm(layer, q.data(), scales.data(), kRows, y.data());
    skip_unless(state, bx::bench::fingerprint(y) == bx::bench::fingerprint(y_ref), "gemm");
    if (state.error_occurred()) return;
    for (auto _ : state) {
        bx::stage::kernels::gemm(layer, q.data(), scales.data(), kRows, y.data());
        benchmark::DoNotOptimize(y.data());
    }
}
BENCHMARK(BM_Kernel_Gemm)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
#endif

#ifdef BX_KERNEL_GELU
void BM_Kernel_Gelu(benchmark::State& state) {
    const std::vector<float> x = bx::bench::activations(std::size_t{kRows} * 1536, 21u, 6.0f);
    std::vector<float> y = x, y_ref(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y_ref[i] = bx::gelu_scalar(x[i]);
    bx::stage::kernels::gelu_inplace(y.data(), y.size());
    skip_unless(state, bx::bench::fingerprint(y) == bx::bench::fingerprint(y_ref), "gelu_inplace");
    if (state.error_occurred()) return;
    for (auto _ : state) {
        state.PauseTiming();
        y = x;
        state.ResumeTiming();
        bx::stage::kernels::gelu_inplace(y.data(), y.size());
        benchmark::DoNotOptimize(y.data());
    }
}
BENCHMARK(BM_Kernel_Gelu)->Unit(benchmark::kMillisecond);
#endif

#ifdef BX_KERNEL_ATTENTION
// Stage 00's attention, written from the contract, for all 256 query rows.
void attention_reference(const float* q, const float* k, const float* v, float* ctx) {
    std::vector<float> s(kRows);
    for (int h = 0; h < bx::kHeads; ++h) {
        const int off = h * bx::kHeadDim;
        for (int i = 0; i < kRows; ++i) {
            for (int j = 0; j < kRows; ++j) {
                float dot = 0.0f;
                for (int d = 0; d < bx::kHeadDim; ++d) dot += q[i * bx::kHidden + off + d] * k[j * bx::kHidden + off + d];
                s[j] = dot * 0.17677669529663687f;
            }
            float m = s[0];
            for (int j = 1; j < kRows; ++j)
                if (s[j] > m) m = s[j];
            float z = 0.0f;
            for (int j = 0; j < kRows; ++j) z += (s[j] = bx::bx_expf(s[j] - m));
            for (int j = 0; j < kRows; ++j) s[j] = s[j] / z;
            for (int d = 0; d < bx::kHeadDim; ++d) {
                float acc = 0.0f;
                for (int j = 0; j < kRows; ++j) acc += s[j] * v[j * bx::kHidden + off + d];
                ctx[i * bx::kHidden + off + d] = acc;
            }
        }
    }
}

void BM_Kernel_Attention(benchmark::State& state) {
    const std::size_t n = std::size_t{kRows} * bx::kHidden;
    const std::vector<float> q = bx::bench::activations(n, 61u, 2.0f), k = bx::bench::activations(n, 62u, 2.0f),
                             v = bx::bench::activations(n, 63u, 2.0f);
    std::vector<float> ctx(n), ctx_ref(n);
    attention_reference(q.data(), k.data(), v.data(), ctx_ref.data());
    bx::stage::kernels::attention(q.data(), k.data(), v.data(), kRows, ctx.data());
    skip_unless(state, bx::bench::fingerprint(ctx) == bx::bench::fingerprint(ctx_ref), "attention");
    if (state.error_occurred()) return;
    for (auto _ : state) {
        bx::stage::kernels::attention(q.data(), k.data(), v.data(), kRows, ctx.data());
        benchmark::DoNotOptimize(ctx.data());
    }
}
BENCHMARK(BM_Kernel_Attention)->Unit(benchmark::kMillisecond);
#endif

}  // namespace
