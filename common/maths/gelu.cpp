#include "common/maths/gelu.hpp"

#include "common/maths/erff.hpp"

namespace bx {

float gelu_scalar(float x) {
    // 0.70710678118654752f is 1/sqrt(2) rounded to f32; multiplying by it is
    // what the contract says (not dividing by sqrt(2), which rounds differently).
    return (0.5f * x) * (1.0f + bx_erff(x * 0.70710678118654752f));
}

}  // namespace bx
