// bx_erff: the error function for f32, bit-identical to wasi-libc's (musl's)
// erff on every input. GELU needs it; a native build would otherwise get
// glibc's erff, which rounds differently on some inputs.
#pragma once

namespace bx {

float bx_erff(float x);

}  // namespace bx
