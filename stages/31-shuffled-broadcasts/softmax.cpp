// The stage's exp behind the optional stage interface
// (common/stage/exp_kernel.hpp): softmax.hpp's kernel, for check-exp.
#include "common/stage/exp_kernel.hpp"

#include "softmax.hpp"

namespace bx::stage {

void exp_in_place(float* values, std::size_t count) { softmax::exp_in_place(values, count); }

}  // namespace bx::stage
