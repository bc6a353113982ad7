// bx_expf / bx_erff over arrays with C linkage, built as a shared library so
// that the numpy reference (assets/recipe/train/bxm.py) can use exactly our
// exp and erf. Not part of any stage or CLI (this directory is not globbed).
#include <cstddef>

#include "common/maths/erff.hpp"
#include "common/maths/expf.hpp"

extern "C" void bx_expf_array(const float* x, float* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) y[i] = bx::bx_expf(x[i]);
}

extern "C" void bx_erff_array(const float* x, float* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) y[i] = bx::bx_erff(x[i]);
}
