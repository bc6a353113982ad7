// What every rung of a ladder is run on, and the check each must pass before
// it is timed: the same inputs through stage 00's scalar arithmetic
// (common/maths, and stage 00's linear layer), compared bit for bit.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench/micro/ladder/rung.hpp"

namespace bx::ladder {

// One kernel's workload: a full window's worth of its work, from a fixed seed.
//   gemm      256 tokens x 384 -> 1536 outputs (the FFN's first layer)
//   gelu      256 x 1536 activations
//   exp       256 x 256 softmax arguments (a score minus its row's maximum)
//   quantise  256 rows of 384
//   attention one layer's attention: Q, K and V of 256 x 384, every head
//   layernorm 256 rows of 384
// The check runs the timing inputs and, for the element-wise kernels, a list
// of edge values after them (zeros, subnormals, infinities, NaN, range ends).
class Workload {
public:
    explicit Workload(Kernel kernel);
    ~Workload();
    Kernel kernel() const { return kernel_; }
    std::string describe() const;

    // "" when the rung gives the reference's bits on every input, else the
    // first difference, for the report.
    std::string check(const Rung& rung) const;

    // One pass over the timing inputs with the rung (for in-place kernels the
    // inputs are copied to a scratch buffer first, for every rung alike).
    std::function<void()> pass(const Rung& rung) const;

private:
    Kernel kernel_;
    struct Data;
    std::unique_ptr<Data> data_;
};

// The rungs of every kernel that has any, checked: the ones that failed are
// reported on stderr and left out. Sets *failed when any did.
std::vector<std::pair<Kernel, std::vector<Rung>>> checked_rungs(bool* failed);

}  // namespace bx::ladder
