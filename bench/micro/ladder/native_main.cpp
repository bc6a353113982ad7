// A kernel ladder under Google Benchmark, natively (the stages' wasm SIMD
// through SIMDe: a cross-check of the ranking, never the wasm numbers). Every
// rung is checked first; a rung that fails is reported and not timed, and the
// program then exits 1 after timing the others.
#include <benchmark/benchmark.h>

#include "bench/micro/ladder/ladder.hpp"

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    bool failed = false;
    const auto ladders = bx::ladder::checked_rungs(&failed);
    std::vector<std::unique_ptr<bx::ladder::Workload>> workloads;
    for (const auto& [kernel, list] : ladders) {
        workloads.push_back(std::make_unique<bx::ladder::Workload>(kernel));
        const bx::ladder::Workload& workload = *workloads.back();
        for (const bx::ladder::Rung& rung : list) {
            std::function<void()> pass = workload.pass(rung);
            const std::string name = std::string(bx::ladder::kernel_name(kernel)) + "/" + rung.stage + " [" + rung.stages + "]";
            benchmark::RegisterBenchmark(name.c_str(), [pass](benchmark::State& state) {
                for (auto _ : state) pass();
            })->Unit(benchmark::kMicrosecond);
        }
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return failed ? 1 : 0;
}
