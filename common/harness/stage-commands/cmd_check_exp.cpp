// `check-exp`: the stage's exp_in_place (common/stage/exp_kernel.hpp, the exp of
// its softmax) against bx_expf on every f32 bit pattern (unary_check.hpp),
// reported by the path bx_expf takes: the main path, which stage 10 runs on
// vectors, and the edges that it hands back to bx_expf lane by lane.
#include <cstdint>

#include "common/harness/command.hpp"
#include "common/harness/stage-commands/unary_check.hpp"
#include "common/maths/bits.hpp"
#include "common/maths/expf.hpp"
#include "common/maths/expf_constants.hpp"
#include "common/stage/exp_kernel.hpp"

namespace bx::harness {
namespace {

enum class ExpPath { kMain, kEdge, kInfNan, kCount };

int exp_path(float x) {
    const std::uint32_t top12 = (float_bits(x) >> 20) & 0x7ff;
    if (top12 < expf_constants::kTop12Of88) return static_cast<int>(ExpPath::kMain);
    if (top12 < 0x7f8) return static_cast<int>(ExpPath::kEdge);  // below the infinities' 0x7f8
    return static_cast<int>(ExpPath::kInfNan);
}

const char* exp_path_name(int path) {
    switch (static_cast<ExpPath>(path)) {
        case ExpPath::kMain: return "|x| < 88, main path   (vector)";
        case ExpPath::kEdge: return "88 <= |x| < inf       (scalar)";
        default: return "inf or NaN            (scalar)";
    }
}

int check_exp_main(int argc, char** argv) {
    const UnaryCheck check{
        .command = "check-exp",
        .reference_name = "bx_expf",
        .kernel = stage::exp_in_place,
        .reference = bx_expf,
        .classes = static_cast<int>(ExpPath::kCount),
        .classify = exp_path,
        .class_name = exp_path_name,
    };
    return run_unary_check(check, argc, argv);
}

}  // namespace
}  // namespace bx::harness

BX_HARNESS_COMMAND_NAMED(check_exp, "check-exp", "the stage's exp kernel vs bx_expf, bit for bit, on all 2^32 inputs",
                   bx::harness::check_exp_main);
