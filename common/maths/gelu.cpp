#include "common/maths/gelu.hpp"

#include "common/maths/erff.hpp"

namespace bx {

float gelu_scalar(float x) {
    return (0.5f * x) * (1.0f + bx_erff(x * kGeluInputScale));
}

}  // namespace bx
