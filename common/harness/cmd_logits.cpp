// `logits`: one window straight through the stage's forward pass, no
// tokenizer: `--ids 0,5,6,2` (padded with <pad> to 256; live = the ids
// given) -> 256 x 81 little-endian f32 in --out. For cross-checks against
// other implementations of the contract (common/harness/contract/).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/harness/files.hpp"
#include "common/harness/runner.hpp"

namespace bx::harness {
namespace {

constexpr const char* kUsage = "--ids 0,ID,...,2 --out FILE [--model FILE]";

int logits_main(int argc, char** argv) {
    Args args(argc, argv);
    const std::string ids_text = args.value("--ids");
    const std::string out_path = args.value("--out");
    const std::string model_path = args.value("--model");
    if (!args.all_used(kUsage)) return 2;
    std::vector<std::int32_t> ids;
    for (const char* p = ids_text.c_str(); *p;) {
        char* end;
        ids.push_back(static_cast<std::int32_t>(std::strtol(p, &end, 10)));
        if (end == p) break;
        p = *end == ',' ? end + 1 : end;
    }
    if (ids.empty() || ids.size() > static_cast<std::size_t>(kWindow) || out_path.empty()) {
        std::fprintf(stderr, "logits: need 1..256 ids and --out\nusage: logits %s\n", kUsage);
        return 2;
    }
    std::string error;
    Runner runner;
    if (!runner.open(model_path, &error)) {
        std::fprintf(stderr, "logits: %s\n", error.c_str());
        return 2;
    }
    const int live = static_cast<int>(ids.size());
    ids.resize(kWindow, 1);  // <pad>
    std::vector<float> logits(std::size_t{kWindow} * kLabels);
    bx::stage::forward(runner.model(), ids.data(), live, logits.data(), runner.profile());
    const std::string_view bytes(reinterpret_cast<const char*>(logits.data()), logits.size() * sizeof(float));
    if (!write_file(out_path, bytes, &error)) {
        std::fprintf(stderr, "logits: %s\n", error.c_str());
        return 2;
    }
    return 0;
}

}  // namespace
}  // namespace bx::harness

BX_HARNESS_COMMAND(logits, "one window of ids through the forward pass, raw f32 logits out", bx::harness::logits_main);
