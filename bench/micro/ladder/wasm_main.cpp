// A kernel ladder as a WASI program, for the runtimes the harness has
// (wasmtime with and without epoch interruption, V8): there is no Google
// Benchmark for wasm32-wasi, so this is its small equivalent. Every rung is
// checked first (a failure is reported, the rung left out, and the exit
// status is 1); then the rungs are timed in interleaved rounds, each round
// one pass of every rung in turn, and each rung's median pass is printed as
// one JSON object on stdout:
//   ladder-<kernel>.wasm [--rounds N] [--warmup N]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <time.h>
#include <vector>

#include "bench/micro/ladder/ladder.hpp"

namespace {

double now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
    int rounds = 15, warmup = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--rounds")) rounds = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--warmup")) warmup = std::atoi(argv[i + 1]);
        else { std::fprintf(stderr, "usage: %s [--rounds N] [--warmup N]\n", argv[0]); return 2; }
    }
    bool failed = false;
    const auto ladders = bx::ladder::checked_rungs(&failed);
    std::printf("{\"ladders\": [");
    for (std::size_t l = 0; l < ladders.size(); ++l) {
        const auto& [kernel, list] = ladders[l];
        const bx::ladder::Workload workload(kernel);
        std::vector<std::function<void()>> passes;
        for (const bx::ladder::Rung& rung : list) passes.push_back(workload.pass(rung));
        std::vector<std::vector<double>> times(list.size());
        for (int round = -warmup; round < rounds; ++round)
            for (std::size_t r = 0; r < passes.size(); ++r) {
                const double start = now_ns();
                passes[r]();
                const double elapsed = now_ns() - start;
                if (round >= 0) times[r].push_back(elapsed);
            }
        std::printf("%s{\"kernel\": \"%s\", \"workload\": \"%s\", \"rounds\": %d, \"rungs\": [", l ? ", " : "",
                    bx::ladder::kernel_name(kernel), workload.describe().c_str(), rounds);
        for (std::size_t r = 0; r < list.size(); ++r) {
            std::printf("%s{\"stage\": \"%s\", \"stages\": \"%s\", \"code\": \"%s\", \"median_ns\": %.0f, \"pass_ns\": [",
                        r ? ", " : "", list[r].stage.c_str(), list[r].stages.c_str(), list[r].code.c_str(), median(times[r]));
            for (std::size_t i = 0; i < times[r].size(); ++i) std::printf("%s%.0f", i ? ", " : "", times[r][i]);
            std::printf("]}");
        }
        std::printf("]}");
    }
    std::printf("]}\n");
    return failed ? 1 : 0;
}
