// bx_expf: e^x for f32, bit-identical to wasi-libc's (musl's) expf on every input.
//
// Why our own: the softmax calls exp, and a native build would otherwise link
// glibc's expf, whose results differ from the wasm build's musl expf on some
// inputs. Writing the algorithm out ourselves makes both targets compute the
// same bits, and lets the exhaustive check (tests/, label `slow`) prove it.
#pragma once

namespace bx {

float bx_expf(float x);

}  // namespace bx
