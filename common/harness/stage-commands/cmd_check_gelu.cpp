// `check-gelu`: the stage's gelu_in_place (common/stage/gelu_kernel.hpp) against
// stage 00's gelu_scalar on every f32 bit pattern (unary_check.hpp), reported
// per branch class of bx_erff (gelu_ranges.hpp).
//
// NaN inputs: both sides must give the same NaN bits. The kernel hands NaN
// lanes to gelu_scalar itself, with the input taken from its register (a
// lane extract is a bit copy, never canonicalised), so the check holds there
// exactly as it would for any other scalar input.
#include "common/harness/command.hpp"
#include "common/harness/stage-commands/gelu_ranges.hpp"
#include "common/harness/stage-commands/unary_check.hpp"
#include "common/maths/gelu.hpp"
#include "common/stage/gelu_kernel.hpp"

namespace bx::harness {
namespace {

int check_gelu_main(int argc, char** argv) {
    const UnaryCheck check{
        .command = "check-gelu",
        .reference_name = "gelu_scalar",
        .kernel = stage::gelu_in_place,
        .reference = gelu_scalar,
        .classes = static_cast<int>(GeluRange::kCount),
        .classify = [](float x) { return static_cast<int>(gelu_range(x)); },
        .class_name = [](int k) { return gelu_range_name(static_cast<GeluRange>(k)); },
    };
    return run_unary_check(check, argc, argv);
}

}  // namespace
}  // namespace bx::harness

BX_HARNESS_COMMAND_NAMED(check_gelu, "check-gelu", "the stage's GELU kernel vs gelu_scalar, bit for bit, on all 2^32 inputs",
                   bx::harness::check_gelu_main);
