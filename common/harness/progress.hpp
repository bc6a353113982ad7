// A progress line on stderr for long corpora (stage 00 takes about a second a
// window, so the equivalence corpus runs for minutes): at most one line every
// `every` texts, and only once a run has lasted a few seconds.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstddef>

#include "common/timing/clock.hpp"

namespace bx::harness {

class Progress {
public:
    Progress(const char* what, std::size_t total, std::size_t every = 100)
        : what_(what), total_(total), every_(every), start_(now_ns()) {}

    void done(std::size_t count) const {
        if (count % every_ != 0 || count == total_) return;
        const double seconds = static_cast<double>(now_ns() - start_) * 1e-9;
        if (seconds < 5.0) return;
        std::fprintf(stderr, "%s: %zu/%zu texts, %.0f s\n", what_, count, total_, seconds);
    }

private:
    const char* what_;
    std::size_t total_, every_;
    std::uint64_t start_;
};

}  // namespace bx::harness
