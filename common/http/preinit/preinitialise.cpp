// The pre-initialiser's entry point, linked only into the components of stages
// that are pre-initialised at build time (bx_stage(PREINITIALISE)).
//
// `wasmtime wizer` instantiates the core module, calls this export, and then
// writes the instance's memory and globals back out as a new module without
// the export. It may not call an import (wizer traps), so this does only what
// needs no host: the global constructors, and whatever the service would build
// from embedded data at the start of every request (service::prepare). What is
// built here is then in the memory image every new instance starts from.
#include "common/http/constructors.hpp"
#include "common/service/redact.hpp"

// snippet: wizer-initialize
extern "C" __attribute__((export_name("wizer-initialize")))
void bx_wizer_initialize() {
    bx::wasi::run_constructors_once();
    bx::service::prepare();
}
// end-snippet
