// See constructors.hpp.
#include "common/http/constructors.hpp"

extern "C" void __wasm_call_ctors();

namespace bx::wasi {

void run_constructors_once() {
    static bool constructed = false;
    if (constructed) return;
    constructed = true;
    __wasm_call_ctors();
}

}  // namespace bx::wasi
