// The stage's GELU behind the optional stage interface
// (common/stage/gelu_kernel.hpp): the kernel of gelu.hpp, plus the observer
// that `check-gelu-census` uses to watch real inputs.
#include "common/stage/gelu_kernel.hpp"

#include "gelu.hpp"

namespace bx::stage {
namespace {

GeluObserver g_observer = nullptr;
void* g_observer_context = nullptr;

}  // namespace

void observe_gelu_inputs(GeluObserver observer, void* context) {
    g_observer = observer;
    g_observer_context = context;
}

void gelu_in_place(float* values, std::size_t count) {
    if (g_observer != nullptr) g_observer(values, count, g_observer_context);
    gelu::in_place(values, count);
}

}  // namespace bx::stage
