// The stage's name, as CMake passes it (the directory name).
#include "common/stage/stage.hpp"

#ifndef BX_STAGE_NAME
#define BX_STAGE_NAME "30-preinitialised"
#endif

namespace bx::stage {

std::string_view name() { return BX_STAGE_NAME; }

}  // namespace bx::stage
