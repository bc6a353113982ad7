// Microbenchmarks of the scalar maths every stage starts from (common/maths/).
// These functions *are* stage 00's arithmetic, so there is nothing older to
// compare them with at run time; instead each benchmark first checks that its
// outputs still have the fingerprint they had when stage 00 was frozen (FNV-1a
// of the output bits on fixed inputs). If someone changes common/maths, every
// baseline is invalid, and these benchmarks refuse to time (SkipWithError)
// until the fingerprints are deliberately updated here.
#include <benchmark/benchmark.h>

#include <cinttypes>
#include <cstdio>
#include <string>

#include "bench/micro/inputs.hpp"
#include "common/maths/erff.hpp"
#include "common/maths/expf.hpp"
#include "common/maths/gelu.hpp"
#include "common/maths/layer_norm.hpp"
#include "common/maths/quantize.hpp"

namespace {

using bx::bench::activations;
using bx::bench::fingerprint;

constexpr int kRows = 256;  // a window

// Returns true when `got` is the frozen fingerprint; otherwise skips the benchmark.
bool check_fingerprint(benchmark::State& state, std::uint64_t got, std::uint64_t frozen) {
    if (got == frozen) return true;
    char message[160];
    std::snprintf(message, sizeof message,
                  "output fingerprint %016" PRIx64 " differs from stage 00's %016" PRIx64 ": not timed", got, frozen);
    state.SkipWithError(message);
    return false;
}

void quantize_rows(const std::vector<float>& x, int cols, std::vector<std::int8_t>& q, std::vector<float>& scales) {
    for (int t = 0; t < kRows; ++t) scales[t] = bx::quantize_row_scalar(x.data() + t * cols, cols, q.data() + t * cols);
}

void BM_QuantizeRowScalar(benchmark::State& state) {
    const int cols = static_cast<int>(state.range(0));
    const std::vector<float> x = activations(std::size_t{kRows} * cols, 11u + cols);
    std::vector<std::int8_t> q(x.size());
    std::vector<float> scales(kRows);
    quantize_rows(x, cols, q, scales);
    const std::uint64_t frozen = cols == 384 ? 0x3bcc2901e1352402ull : 0xc8fda7369f9557e2ull;
    if (!check_fingerprint(state, fingerprint(q) ^ fingerprint(scales), frozen)) return;
    for (auto _ : state) {
        quantize_rows(x, cols, q, scales);
        benchmark::DoNotOptimize(q.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * kRows * cols);
}
BENCHMARK(BM_QuantizeRowScalar)->Arg(384)->Arg(1536);

void BM_GeluScalar(benchmark::State& state) {
    const std::vector<float> x = activations(std::size_t{kRows} * 1536, 21u, 6.0f);
    std::vector<float> y(x.size());
    auto run = [&] { for (std::size_t i = 0; i < x.size(); ++i) y[i] = bx::gelu_scalar(x[i]); };
    run();
    if (!check_fingerprint(state, fingerprint(y), 0xb6524194fbc9ee47ull)) return;
    for (auto _ : state) {
        run();
        benchmark::DoNotOptimize(y.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(x.size()));
}
BENCHMARK(BM_GeluScalar);

void BM_LayerNormScalar(benchmark::State& state) {
    const std::vector<float> x = activations(std::size_t{kRows} * 384, 31u);
    const std::vector<float> gamma = activations(384, 32u, 1.5f), beta = activations(384, 33u, 0.5f);
    std::vector<float> y(x.size());
    auto run = [&] {
        for (int t = 0; t < kRows; ++t) bx::layer_norm_scalar(x.data() + t * 384, 384, gamma.data(), beta.data(), y.data() + t * 384);
    };
    run();
    if (!check_fingerprint(state, fingerprint(y), 0xba54917cf9ca246dull)) return;
    for (auto _ : state) {
        run();
        benchmark::DoNotOptimize(y.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * kRows * 384);
}
BENCHMARK(BM_LayerNormScalar);

// Softmax's exponentials for one head: 256 x 256 scores minus their row max (<= 0).
void BM_Expf(benchmark::State& state) {
    std::vector<float> x = activations(std::size_t{kRows} * kRows, 41u, 20.0f);
    for (float& v : x) v = v > 0 ? -v : v;
    std::vector<float> y(x.size());
    auto run = [&] { for (std::size_t i = 0; i < x.size(); ++i) y[i] = bx::bx_expf(x[i]); };
    run();
    if (!check_fingerprint(state, fingerprint(y), 0x1b66992ce95a4fdeull)) return;
    for (auto _ : state) {
        run();
        benchmark::DoNotOptimize(y.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(x.size()));
}
BENCHMARK(BM_Expf);

void BM_Erff(benchmark::State& state) {
    const std::vector<float> x = activations(std::size_t{kRows} * 1536, 51u, 4.0f);
    std::vector<float> y(x.size());
    auto run = [&] { for (std::size_t i = 0; i < x.size(); ++i) y[i] = bx::bx_erff(x[i]); };
    run();
    if (!check_fingerprint(state, fingerprint(y), 0x2347e322f456d6ceull)) return;
    for (auto _ : state) {
        run();
        benchmark::DoNotOptimize(y.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(x.size()));
}
BENCHMARK(BM_Erff);

}  // namespace
