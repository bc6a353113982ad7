// `check-maths`: bx_expf and bx_erff against this build's libc expf and erff on
// every f32 bit pattern (2^32 inputs, NaNs, infinities and subnormals
// included), comparing result bits.
//
// In the wasm build the libc is wasi-libc (musl's maths): every input must
// match, which proves our scalar maths is musl's. In a native build the libc
// is glibc, and the differences it reports are the reason we carry our own:
// glibc rounds some inputs differently, so linking it natively would make the
// native logits differ from the wasm ones.
//
// NaN results are compared by bits too: both sides run the same IEEE
// operations on the same engine, so even payloads must agree.
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/maths/bits.hpp"
#include "common/maths/erff.hpp"
#include "common/maths/expf.hpp"

namespace bx::harness {
namespace {

constexpr const char* kUsage = "[--from 0] [--to 0x100000000] [--only expf|erff] [--show 5]";

// The libc functions, called through pointers so that the compiler cannot
// fold or replace them: we want the library's code.
using UnaryFn = float (*)(float);
volatile UnaryFn libc_expf = ::expf;
volatile UnaryFn libc_erff = ::erff;

struct Result {
    std::uint64_t differ = 0;
    std::uint32_t first = 0;
};

Result compare(const char* name, float (*ours)(float), UnaryFn theirs, std::uint64_t from, std::uint64_t to,
               long show) {
    Result result;
    long shown = 0;
    for (std::uint64_t b = from; b < to; ++b) {
        const float x = float_from_bits(static_cast<std::uint32_t>(b));
        const std::uint32_t mine = float_bits(ours(x));
        const std::uint32_t libc = float_bits(theirs(x));
        if (mine == libc) continue;
        if (result.differ++ == 0) result.first = static_cast<std::uint32_t>(b);
        if (shown++ < show)
            std::printf("  %s(%a) [0x%08x]: ours 0x%08x (%a), libc 0x%08x (%a)\n", name, static_cast<double>(x),
                        static_cast<unsigned>(b), mine, static_cast<double>(float_from_bits(mine)), libc,
                        static_cast<double>(float_from_bits(libc)));
    }
    std::printf("%s: %" PRIu64 " of %" PRIu64 " inputs differ from this libc's %s\n", name, result.differ, to - from,
                name);
    return result;
}

int check_maths_main(int argc, char** argv) {
    Args args(argc, argv);
    const std::uint64_t from = std::strtoull(args.value("--from", "0").c_str(), nullptr, 0);
    const std::uint64_t to = std::strtoull(args.value("--to", "0x100000000").c_str(), nullptr, 0);
    const std::string only = args.value("--only");
    const long show = args.number("--show", 5);
    if (!args.all_used(kUsage)) return 2;
    if (from > to || to > 0x100000000ull) {
        std::fprintf(stderr, "check-maths: need 0 <= --from <= --to <= 2^32\n");
        return 2;
    }
    std::uint64_t differ = 0;
    if (only.empty() || only == "expf") differ += compare("expf", bx_expf, libc_expf, from, to, show).differ;
    if (only.empty() || only == "erff") differ += compare("erff", bx_erff, libc_erff, from, to, show).differ;
    return differ == 0 ? 0 : 1;
}

}  // namespace
}  // namespace bx::harness

BX_HARNESS_COMMAND_NAMED(check_maths, "check-maths", "bx_expf / bx_erff vs this libc's expf / erff, bit for bit, on all 2^32 inputs",
                   bx::harness::check_maths_main);
