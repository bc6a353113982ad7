// `explain`: the second half of a failed `check`, run with stage 00's CLI.
// Recomputes stage 00's logits for the texts in a diff file (written by the
// failing stage's `check --diff-out`) and reports which tokens differ, how,
// and the whole corpus's agreement line with max and mean |dlogit|.
// Always exits 1 when the diff file lists any difference.
#include <cstdio>
#include <cstring>
#include <string>

#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/harness/compare.hpp"
#include "common/harness/corpus.hpp"
#include "common/harness/files.hpp"
#include "common/harness/reference.hpp"
#include "common/harness/runner.hpp"

namespace bx::harness {
namespace {

constexpr const char* kUsage = "--diff FILE [--corpus assets/corpora/equivalence.jsonl] [--model FILE]";

int fail(const std::string& message) {
    std::fprintf(stderr, "explain: %s\n", message.c_str());
    return 2;
}

// Prints the differing rows of one text (at most `budget` lines).
void report_rows(std::uint32_t index, const TextLogits& oracle, const LogitsEntry& candidate, const ModelView& model,
                 int& budget) {
    const int rows = oracle.rows < candidate.rows ? oracle.rows : candidate.rows;
    if (oracle.rows != candidate.rows)
        std::printf("  text %u: stage 00 has %d rows, the candidate %d\n", index, oracle.rows, candidate.rows);
    for (int r = 0; r < rows && budget > 0; ++r) {
        const float* a = oracle.logits.data() + r * kLabels;
        const float* b = candidate.logits.data() + r * kLabels;
        if (std::memcmp(a, b, sizeof(float) * kLabels) == 0) continue;
        DiffStats row;
        row.add(a, 1, b, 1);
        const int token = oracle.row_token[static_cast<std::size_t>(r)];
        const std::string& piece = oracle.tokens[static_cast<std::size_t>(token)];
        const std::string_view want = model.label_names[argmax_row(a)];
        const std::string_view got = model.label_names[argmax_row(b)];
        std::printf("  text %u row %d (token %d \"%s\"): %ld logits differ, max |dlogit| %s, label %.*s -> %.*s\n",
                    index, r, token, piece.c_str(), row.values_differ, format_sci(row.max_abs).c_str(),
                    static_cast<int>(want.size()), want.data(), static_cast<int>(got.size()), got.data());
        --budget;
    }
}

int explain_main(int argc, char** argv) {
    Args args(argc, argv);
    const std::string corpus_path = args.value("--corpus", "assets/corpora/equivalence.jsonl");
    const std::string diff_path = args.value("--diff");
    const std::string model_path = args.value("--model");
    if (!args.all_used(kUsage)) return 2;
    if (diff_path.empty()) return fail(std::string("--diff is required\nusage: explain ") + kUsage);

    std::string error, bytes;
    Runner runner;
    Corpus corpus;
    LogitsFile diff;
    if (!runner.open(model_path, &error) || !load_corpus(corpus_path, corpus, &error) ||
        !read_file(diff_path, bytes, &error) || !parse_logits_file(bytes, diff, &error))
        return fail(error);
    if (diff.model != runner.model_fingerprint()) return fail(diff_path + " was made with another model");
    if (diff.corpus != corpus.fingerprint) return fail(diff_path + " was made from another version of " + corpus_path);

    DiffStats stats;
    int budget = 50;
    for (const LogitsEntry& entry : diff.entries) {
        if (entry.text >= corpus.texts.size()) return fail("diff entry for text " + std::to_string(entry.text) + " out of range");
        TextLogits oracle;
        if (!runner.run(corpus.texts[entry.text], oracle, &error)) return fail(error);
        if (ids_hash(oracle.ids) != entry.ids_hash)
            std::printf("  text %u: token ids differ from stage 00's (tokenizer changed?)\n", entry.text);
        stats.add(oracle.logits.data(), oracle.rows, entry.logits.data(), entry.rows);
        report_rows(entry.text, oracle, entry, runner.model(), budget);
    }
    // The whole corpus's line: its row counts come from the check, the
    // differences from here (texts not in the diff were bit-identical).
    DiffStats corpus_stats = stats;
    corpus_stats.rows = static_cast<long>(diff.corpus_rows);
    corpus_stats.rows_agree = static_cast<long>(diff.corpus_rows_agree);
    corpus_stats.values = static_cast<long>(diff.corpus_rows) * kLabels;
    std::printf("%s\n", corpus_stats.agreement_line().c_str());
    std::printf("explain: %zu texts differ, %ld logits differ in bits%s\n", diff.entries.size(), stats.values_differ,
                stats.values_differ > 0 && stats.max_abs == 0.0 ? " (only in sign of zero or NaN payload)" : "");
    return diff.entries.empty() ? 0 : 1;
}

}  // namespace
}  // namespace bx::harness

BX_HARNESS_COMMAND(explain, "stage 00: say where and by how much a failed check's texts differ",
                   bx::harness::explain_main);
