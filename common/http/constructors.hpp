// The C++ global constructors of a component's core module. We link without
// crt1 (a crt would make preview1 calls), so nothing runs them at
// instantiation: the first call into the module does, once. That first call
// is a request's (incoming_handler.cpp) or, in a module pre-initialised at
// build time, the pre-initialiser's (preinit/preinitialise.cpp), whose
// "already run" is then part of the memory image like everything else.
#pragma once

namespace bx::wasi {

void run_constructors_once();

}  // namespace bx::wasi
