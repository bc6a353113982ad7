// `windows`: the corpus's windows and this stage's answer for each, for
// runtimes outside this project (bench/peer/ feeds the same windows to ONNX
// Runtime and compares labels with stage 00's). Writes --out FILE.json:
//   {"stage", "model_fnv", "corpus", "labels", "windows": [{"live", "ids": [256],
//    "argmax": [live]}]}
// and FILE.json.f32: every window's 256 x 81 logits, little-endian f32, in
// window order (rows at or beyond `live` are whatever the stage left there;
// only live rows mean anything).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/harness/corpus.hpp"
#include "common/harness/files.hpp"
#include "common/harness/prepared_windows.hpp"
#include "common/harness/runner.hpp"
#include "common/json/json.hpp"

namespace bx::harness {
namespace {

constexpr const char* kUsage = "--corpus FILE --out FILE.json [--model FILE]";

int windows_fail(const std::string& message) {
    std::fprintf(stderr, "windows: %s\n", message.c_str());
    return 2;
}

int windows_main(int argc, char** argv) {
    Args args(argc, argv);
    const std::string corpus_path = args.value("--corpus");
    const std::string out_path = args.value("--out");
    const std::string model_path = args.value("--model");
    if (!args.all_used(kUsage)) return 2;
    if (corpus_path.empty() || out_path.empty()) {
        std::fprintf(stderr, "windows: --corpus and --out are required\nusage: windows %s\n", kUsage);
        return 2;
    }

    std::string error;
    Corpus corpus;
    Runner runner;
    if (!load_corpus(corpus_path, corpus, &error) || !runner.open(model_path, &error)) return windows_fail(error);
    const std::shared_ptr<const bx::Tokenizer> tokenizer = bx::stage::load_tokenizer(&error);
    if (!tokenizer) return windows_fail("tokenizer: " + error);
    std::vector<PreparedWindow> windows;
    if (!prepare_windows(*tokenizer, corpus, windows, &error)) return windows_fail(error);

    std::vector<float> all_logits(windows.size() * kWindow * kLabels);
    char fnv[24];
    std::snprintf(fnv, sizeof fnv, "%016llx", static_cast<unsigned long long>(runner.model_fingerprint()));
    std::string json = "{\"stage\":";
    bx::json::append_string(json, bx::stage::name());
    json += ",\"model_fnv\":\"";
    json += fnv;
    json += "\",\"corpus\":";
    bx::json::append_string(json, corpus.path);
    json += ",\"labels\":" + std::to_string(kLabels) + ",\"windows\":[";
    for (std::size_t w = 0; w < windows.size(); ++w) {
        const PreparedWindow& window = windows[w];
        float* logits = all_logits.data() + w * kWindow * kLabels;
        bx::stage::forward(runner.model(), window.ids.data(), window.live, logits, runner.profile());
        json += w ? ",\n" : "\n";
        json += "{\"live\":" + std::to_string(window.live) + ",\"ids\":[";
        for (int t = 0; t < kWindow; ++t) json += (t ? "," : "") + std::to_string(window.ids[static_cast<std::size_t>(t)]);
        json += "],\"argmax\":[";
        for (int t = 0; t < window.live; ++t) json += (t ? "," : "") + std::to_string(argmax_row(logits + t * kLabels));
        json += "]}";
    }
    json += "\n]}\n";

    const std::string_view logit_bytes(reinterpret_cast<const char*>(all_logits.data()), all_logits.size() * sizeof(float));
    if (!write_file(out_path, json, &error) || !write_file(out_path + ".f32", logit_bytes, &error))
        return windows_fail(error);
    std::fprintf(stderr, "windows: %zu windows of %zu texts -> %s (+ .f32)\n", windows.size(), corpus.texts.size(),
                 out_path.c_str());
    return 0;
}

}  // namespace
}  // namespace bx::harness

BX_HARNESS_COMMAND(windows, "a corpus's windows (ids) with this stage's labels and logits, for outside runtimes", bx::harness::windows_main);
