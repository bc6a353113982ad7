// The stage's name, as CMake passes it (the directory name).
#include "common/stage/stage.hpp"

#ifndef BX_STAGE_NAME
#error "CMake passes the stage's name (bx_stage in common/cmake/stage.cmake)"
#endif

namespace bx::stage {

std::string_view name() { return BX_STAGE_NAME; }

}  // namespace bx::stage
