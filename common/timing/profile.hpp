// The forward pass's phase profiler: three buckets, filled only at phase
// boundaries (a clock read per phase, never inside an inner loop), as in the post.
#pragma once

#include <cstdint>

#include "common/timing/clock.hpp"

namespace bx {

enum class Phase : int { Matmul = 0, Attention = 1, Other = 2 };

struct Profile {
    double ms[3] = {0.0, 0.0, 0.0};

    void clear() { ms[0] = ms[1] = ms[2] = 0.0; }
    double total() const { return ms[0] + ms[1] + ms[2]; }
};

// Adds the time since the previous lap (or construction) to one bucket.
// snippet: phase-timer
class PhaseTimer {
public:
    explicit PhaseTimer(Profile& profile) : profile_(profile), last_(now_ns()) {}

    void lap(Phase phase) {
        const std::uint64_t now = now_ns();
        profile_.ms[static_cast<int>(phase)] += static_cast<double>(now - last_) * 1e-6;
        last_ = now;
    }

private:
    Profile& profile_;
    std::uint64_t last_;
};
// end-snippet

}  // namespace bx
