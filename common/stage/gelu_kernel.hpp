// An optional part of the stage interface, for stages whose GELU is their own
// kernel (stage 07 on). A stage that lists the `check-gelu` harness commands in
// its bx_stage() call must define both functions; the harness then checks the
// kernel against the scalar reference (common/maths/gelu.hpp) on every f32
// input, and can watch the real GELU inputs of a forward pass.
#pragma once

#include <cstddef>

namespace bx::stage {

// values[i] = gelu(values[i]) for i < count, bit-identical to gelu_scalar.
void gelu_in_place(float* values, std::size_t count);

// When set, every gelu_in_place call shows the observer its inputs first (one
// test of a pointer per call, i.e. per layer: free). nullptr switches it off.
using GeluObserver = void (*)(const float* inputs, std::size_t count, void* context);
void observe_gelu_inputs(GeluObserver observer, void* context);

}  // namespace bx::stage
