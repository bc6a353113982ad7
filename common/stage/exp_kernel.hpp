// An optional part of the stage interface, for stages whose exp is their own
// kernel (stage 10 on: softmax's exp four lanes at a time). A stage that lists
// the `check-exp` harness command in its bx_stage() call must define it; the
// harness then checks it against bx_expf (common/maths/expf.hpp) on every f32
// input.
#pragma once

#include <cstddef>

namespace bx::stage {

// values[i] = bx_expf(values[i]) for i < count, bit-identical, with the same
// kernel the stage's softmax uses.
void exp_in_place(float* values, std::size_t count);

}  // namespace bx::stage
