// `dump`: writes a corpus's reference (see reference.hpp): per text, the
// argmax labels of every compared row and a 64-bit hash of the logit bits.
// Run with stage 00's CLI, it makes the oracle that `check` compares against.
#include <cstdio>
#include <string>

#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/harness/corpus.hpp"
#include "common/harness/files.hpp"
#include "common/harness/progress.hpp"
#include "common/harness/reference.hpp"
#include "common/harness/runner.hpp"

namespace bx::harness {
namespace {

constexpr const char* kUsage = "--out FILE.ref [--corpus assets/corpora/equivalence.jsonl] [--model FILE]";

int dump_main(int argc, char** argv) {
    Args args(argc, argv);
    const std::string corpus_path = args.value("--corpus", "assets/corpora/equivalence.jsonl");
    const std::string out_path = args.value("--out");
    const std::string model_path = args.value("--model");
    if (!args.all_used(kUsage)) return 2;
    if (out_path.empty()) {
        std::fprintf(stderr, "dump: --out is required\nusage: dump %s\n", kUsage);
        return 2;
    }

    std::string error;
    Runner runner;
    Corpus corpus;
    if (!runner.open(model_path, &error) || !load_corpus(corpus_path, corpus, &error)) {
        std::fprintf(stderr, "dump: %s\n", error.c_str());
        return 2;
    }
    Reference reference;
    reference.model = runner.model_fingerprint();
    reference.corpus = corpus.fingerprint;
    long rows = 0;
    const Progress progress("dump", corpus.texts.size());
    for (std::size_t i = 0; i < corpus.texts.size(); ++i) {
        progress.done(i);
        TextLogits text;
        if (!runner.run(corpus.texts[i], text, &error)) {
            std::fprintf(stderr, "dump: text %zu: %s\n", i, error.c_str());
            return 2;
        }
        rows += text.rows;
        reference.texts.push_back(make_record(text));
    }
    if (!write_file(out_path, format_reference(reference), &error)) {
        std::fprintf(stderr, "dump: %s\n", error.c_str());
        return 2;
    }
    const std::string_view stage = bx::stage::name();
    std::printf("dump: %zu texts, %d windows, %ld rows from stage %.*s -> %s\n", corpus.texts.size(),
                runner.forwards(), rows, static_cast<int>(stage.size()), stage.data(), out_path.c_str());
    return 0;
}

}  // namespace
}  // namespace bx::harness

BX_HARNESS_COMMAND(dump, "write a corpus's reference (labels + logit-bit hashes) for check", bx::harness::dump_main);
