// `cli bench`: the timing half of bench/e2e/bench.mjs, as one JSON object on stdout.
//
// It measures what the post's Server-Timing header reported, inside one process
// (one wasm instance), so the host only has to start it and read the numbers:
//   tok_load   building the tokenizer from the embedded data (stage 00 parses
//              tokenizer.json every time; later stages precompute it)
//   tok_parse, tok_read   the two steps of stage 00's tok_load that are common
//              code (parse tokenizer.json, read it into a config), timed apart
//   model_load opening the embedded model (taking pointers; ~0 by design)
//   encode     tokenising the whole corpus
//   forward    one window through the encoder, per run, with the phase profile;
//              wall time, and also the thread's CPU time, which leaves out the
//              time the thread was not running: on a machine shared with other
//              work (a training job, builds) it is the steadier of the two
//
// The forwards cycle over every window of the corpus (all texts, all windows,
// pads included as the stage sees them), so a run's time depends on its window:
// each run records its window's live count. Warm-up forwards run first (their
// times are reported too, so a reader can see the times settle) and are not
// part of the figures. Correctness is not judged here (that is `check`), but
// the bit pattern of every live logit of the first pass over the windows is
// hashed, so two builds or runtimes of the same stage can be seen to compute
// the same thing.
//
// --hash-pass 0 skips that first pass (logits_fnv is then null): many short
// rounds (bench.mjs) hash in their first round only, and an instruction count
// (bench/instructions.mjs) wants no more forwards than the runs it asks for.
#include <cstdio>
#include <memory>
#include <span>
#include <time.h>
#include <string>
#include <vector>

#include "common/embed/embedded.hpp"
#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/harness/corpus.hpp"
#include "common/harness/fnv.hpp"
#include "common/harness/prepared_windows.hpp"
#include "common/harness/runner.hpp"
#include "common/json/json.hpp"
#include "common/stage/stage.hpp"
#include "common/timing/clock.hpp"
#include "common/tokenizer/tokenizer_config.hpp"

namespace {

constexpr const char* kUsage =
    "--corpus FILE [--runs N (20)] [--warmup N (5)] [--tok-loads N (3)] [--hash-pass 0|1 (1)] [--model FILE]";

double ms_since(std::uint64_t start) { return static_cast<double>(bx::now_ns() - start) * 1e-6; }

// CPU time of this thread (WASI clock 3 under wasi-libc, which Node's uvwasi maps
// to the host thread's CPU clock); 0 when the host does not provide it.
std::uint64_t thread_cpu_ns() {
    timespec ts{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

void append_number(std::string& out, double value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", value);
    out += buf;
}

void append_list(std::string& out, const std::vector<double>& values) {
    out += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) out += ',';
        append_number(out, values[i]);
    }
    out += ']';
}

int fail(const std::string& message) {
    std::fprintf(stderr, "bench: %s\n", message.c_str());
    return 1;
}

int run_bench(int argc, char** argv) {
    bx::harness::Args args(argc, argv);
    const std::string corpus_path = args.value("--corpus");
    const long runs = args.number("--runs", 20);
    const long warmup = args.number("--warmup", 5);
    const long tok_loads = args.number("--tok-loads", 3);
    const long hash_pass = args.number("--hash-pass", 1);
    const std::string model_path = args.value("--model");
    if (!args.all_used(kUsage)) return 2;
    if (corpus_path.empty() || runs < 1 || warmup < 0 || tok_loads < 1 || (hash_pass != 0 && hash_pass != 1)) {
        std::fprintf(stderr, "usage: bench %s\n", kUsage);
        return 2;
    }

    std::string error;
    bx::harness::Corpus corpus;
    if (!bx::harness::load_corpus(corpus_path, corpus, &error)) return fail(error);
    bx::harness::Runner runner;
    if (!runner.open(model_path, &error)) return fail(error);
    const bx::ModelView& model = runner.model();

    // model_load: only meaningful for the embedded model (a file is copied first).
    double model_load_ms = -1.0;
    if (model_path.empty()) {
        const std::span<const char> bytes = bx::embedded_model();
        const std::uint64_t start = bx::now_ns();
        const auto view = bx::ModelView::open(bytes.data(), bytes.size(), &error);
        model_load_ms = ms_since(start);
        if (!view) return fail("model: " + error);
    }

    // tok_load: a fresh tokenizer each time, as a fresh instance per request builds one.
    std::vector<double> tok_load_ms;
    std::shared_ptr<const bx::Tokenizer> tokenizer;
    for (long i = 0; i < tok_loads; ++i) {
        tokenizer.reset();
        const std::uint64_t start = bx::now_ns();
        tokenizer = bx::stage::load_tokenizer(&error);
        tok_load_ms.push_back(ms_since(start));
        if (!tokenizer) return fail("tokenizer: " + error);
    }

    // What stages 00-03 do inside tok_load, timed on its own with the same
    // code: parse the whole tokenizer.json, then read it into a config (the
    // 31,000 pieces and scores, the charsmap). The rest of their tok_load is
    // indexing the vocabulary; stage 04 does neither at run time.
    std::vector<double> tok_parse_ms, tok_read_ms;
    if (const std::span<const char> json_text = bx::embedded_tokenizer_json(); !json_text.empty()) {
        for (long i = 0; i < tok_loads; ++i) {
            bx::json::Value root;
            bx::json::Error parse_error;
            std::uint64_t start = bx::now_ns();
            const bool parsed = bx::json::parse(std::string_view(json_text.data(), json_text.size()), root, parse_error);
            tok_parse_ms.push_back(ms_since(start));
            bx::TokenizerConfig config;
            start = bx::now_ns();
            const bool read = parsed && bx::read_tokenizer_config(root, config, &error);
            tok_read_ms.push_back(ms_since(start));
            if (!read) return fail("tokenizer.json: " + (parsed ? error : parse_error.message));
        }
    }

    // Every window of every text, ready to go.
    std::vector<bx::harness::PreparedWindow> windows;
    const std::uint64_t encode_start = bx::now_ns();
    if (!bx::harness::prepare_windows(*tokenizer, corpus, windows, &error)) return fail(error);
    const double encode_ms = ms_since(encode_start);
    if (windows.empty()) return fail("the corpus has no texts");

    std::vector<float> logits(std::size_t{bx::kWindow} * bx::kLabels);
    bx::Profile profile;
    auto forward = [&](const bx::harness::PreparedWindow& w) {
        const std::uint64_t start = bx::now_ns();
        bx::stage::forward(model, w.ids.data(), w.live, logits.data(), profile);
        return ms_since(start);
    };

    // The first pass over all windows doubles as warm-up and as the logit hash.
    bx::harness::Fnv64 logit_hash;
    std::vector<double> warmup_ms;
    if (hash_pass) for (const bx::harness::PreparedWindow& w : windows) {
        warmup_ms.push_back(forward(w));
        for (int i = 0; i < w.live * bx::kLabels; ++i) logit_hash.add_float_bits(logits[static_cast<std::size_t>(i)]);
    }
    for (long i = 0; i < warmup; ++i) warmup_ms.push_back(forward(windows[static_cast<std::size_t>(i) % windows.size()]));

    profile.clear();
    std::vector<double> forward_ms, forward_cpu_ms;
    std::vector<double> live;
    for (long i = 0; i < runs; ++i) {
        const bx::harness::PreparedWindow& w = windows[static_cast<std::size_t>(i) % windows.size()];
        const std::uint64_t cpu_start = thread_cpu_ns();
        forward_ms.push_back(forward(w));
        forward_cpu_ms.push_back(static_cast<double>(thread_cpu_ns() - cpu_start) * 1e-6);
        live.push_back(w.live);
    }

    std::string json = "{\"stage\":";
    bx::json::append_string(json, bx::stage::name());
    json += ",\"corpus\":";
    bx::json::append_string(json, corpus.path);
    json += ",\"texts\":" + std::to_string(corpus.texts.size());
    json += ",\"windows\":" + std::to_string(windows.size());
    json += ",\"runs\":" + std::to_string(runs);
    json += ",\"model_load_ms\":";
    if (model_load_ms < 0) json += "null"; else append_number(json, model_load_ms);
    json += ",\"tok_load_ms\":";
    append_list(json, tok_load_ms);
    json += ",\"tok_parse_ms\":";
    append_list(json, tok_parse_ms);
    json += ",\"tok_read_ms\":";
    append_list(json, tok_read_ms);
    json += ",\"encode_ms\":";
    append_number(json, encode_ms);
    json += ",\"warmup_ms\":";
    append_list(json, warmup_ms);
    json += ",\"forward_ms\":";
    append_list(json, forward_ms);
    json += ",\"forward_cpu_ms\":";
    append_list(json, forward_cpu_ms);
    json += ",\"live\":";
    append_list(json, live);
    // Per forward, averaged over the timed runs.
    json += ",\"profile_ms\":{\"matmul\":";
    append_number(json, profile.ms[0] / static_cast<double>(runs));
    json += ",\"attention\":";
    append_number(json, profile.ms[1] / static_cast<double>(runs));
    json += ",\"other\":";
    append_number(json, profile.ms[2] / static_cast<double>(runs));
    json += "},\"logits_fnv\":";
    if (hash_pass) {
        char hash[24];
        std::snprintf(hash, sizeof hash, "\"%016llx\"", static_cast<unsigned long long>(logit_hash.value()));
        json += hash;
    } else {
        json += "null";
    }
    json += "}\n";
    std::fputs(json.c_str(), stdout);
    return 0;
}

}  // namespace

BX_HARNESS_COMMAND(bench, kUsage, run_bench);
