// `check`: does this stage reproduce stage 00 exactly on a corpus?
//
// Compares every compared row (reference.hpp) of every text with stage 00's
// reference: the logit-bit hash decides (bits, not tolerance: -0.0 vs 0.0
// and NaN payloads count), the labels give the agreement line. Any difference
// exits 1, after writing this stage's logits for the differing texts to
// --diff-out so that stage 00's `explain` can say by how much and where
// (a WASI program cannot start another, so the Makefile runs the two in turn).
//
// --limit N checks only the first N texts (a quick partial run; the
// reference still covers the whole corpus).
//
// --part K/N checks texts K, K+N, K+2N, ... only: the corpus dealt round-robin
// into N parts, as `make baseline` deals it, so every part holds every kind of
// text the corpus has (it is written kind by kind). CI gives each stage one
// part (common/harness/tests.cmake says why); `make test-slow` and
// `make check-results` check every text.
//
// --mutate N flips the lowest bit of one logit of text N (its first content
// row, label O) after the forward pass: the deliberate mutation that shows
// this check can fail.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/harness/corpus.hpp"
#include "common/harness/files.hpp"
#include "common/harness/progress.hpp"
#include "common/harness/fnv.hpp"
#include "common/harness/reference.hpp"
#include "common/harness/runner.hpp"

namespace bx::harness {
namespace {

constexpr const char* kUsage =
    "--ref FILE.ref [--corpus assets/corpora/equivalence.jsonl] [--diff-out FILE] [--model FILE] [--mutate N]\n"
    "            [--limit N] [--part K/N]";

int fail(const std::string& message) {
    std::fprintf(stderr, "check: %s\n", message.c_str());
    return 2;
}

void flip_lowest_bit(float& value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, 4);
    bits ^= 1u;
    std::memcpy(&value, &bits, 4);
}

// "K/N" with 0 <= K < N: sets *part and *parts; false otherwise.
bool parse_part(const std::string& text, long* part, long* parts) {
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos) return false;
    char* end = nullptr;
    *part = std::strtol(text.c_str(), &end, 10);
    if (end != text.c_str() + slash) return false;
    *parts = std::strtol(text.c_str() + slash + 1, &end, 10);
    return *end == '\0' && slash + 1 < text.size() && *parts >= 1 && *part >= 0 && *part < *parts;
}

int check_main(int argc, char** argv) {
    Args args(argc, argv);
    const std::string corpus_path = args.value("--corpus", "assets/corpora/equivalence.jsonl");
    const std::string ref_path = args.value("--ref");
    const std::string diff_path = args.value("--diff-out");
    const std::string model_path = args.value("--model");
    const long mutate = args.number("--mutate", -1);
    const long limit = args.number("--limit", -1);
    const std::string part_text = args.value("--part", "0/1");
    if (!args.all_used(kUsage)) return 2;
    if (ref_path.empty()) return fail(std::string("--ref is required\nusage: check ") + kUsage);
    long part = 0, parts = 1;
    if (!parse_part(part_text, &part, &parts)) return fail("--part wants K/N with 0 <= K < N, not '" + part_text + "'");

    std::string error, bytes;
    Runner runner;
    Corpus corpus;
    Reference reference;
    if (!runner.open(model_path, &error) || !load_corpus(corpus_path, corpus, &error) ||
        !read_file(ref_path, bytes, &error) || !parse_reference(bytes, reference, &error))
        return fail(error);
    if (reference.model != runner.model_fingerprint())
        return fail(ref_path + " was made with another model (" + hex16(reference.model) + ", this build has " +
                    hex16(runner.model_fingerprint()) + "): remake it with stage 00");
    if (reference.corpus != corpus.fingerprint || reference.texts.size() != corpus.texts.size())
        return fail(ref_path + " was made from another version of " + corpus_path + ": remake it with stage 00");

    LogitsFile diff;
    diff.model = runner.model_fingerprint();
    diff.corpus = corpus.fingerprint;
    diff.corpus_texts = static_cast<std::uint32_t>(corpus.texts.size());
    long rows = 0, agree = 0;
    int reported = 0;
    const std::size_t count = limit >= 0 && static_cast<std::size_t>(limit) < corpus.texts.size()
                                  ? static_cast<std::size_t>(limit)
                                  : corpus.texts.size();
    const Progress progress("check", count);
    // snippet: check-compare
    std::size_t checked = 0;
    for (std::size_t i = static_cast<std::size_t>(part); i < count; i += static_cast<std::size_t>(parts)) {
        progress.done(i - static_cast<std::size_t>(part));  // texts of the corpus passed, roughly
        ++checked;
        TextLogits text;
        if (!runner.run(corpus.texts[i], text, &error)) return fail("text " + std::to_string(i) + ": " + error);
        if (static_cast<long>(i) == mutate && !text.logits.empty())
            flip_lowest_bit(text.logits[text.rows > 1 ? kLabels : 0]);

        const TextRecord got = make_record(text);
        const TextRecord& want = reference.texts[i];
        rows += static_cast<long>(want.labels.size());
        const std::size_t common = std::min(want.labels.size(), got.labels.size());
        for (std::size_t r = 0; r < common; ++r) agree += want.labels[r] == got.labels[r];
        if (got.logits_hash == want.logits_hash && got.ids_hash == want.ids_hash &&
            got.labels.size() == want.labels.size())
            continue;
        if (reported++ < 20)
            std::printf("  text %zu differs%s\n", i,
                        got.ids_hash != want.ids_hash ? " (token ids differ: tokenizer changed?)" : "");
        diff.entries.push_back(make_entry(static_cast<std::uint32_t>(i), text));
    }
    // end-snippet
    if (checked == 0) return fail("no text to check (--part " + part_text + ", " + std::to_string(count) + " texts)");
    diff.corpus_rows = static_cast<std::uint64_t>(rows);
    diff.corpus_rows_agree = static_cast<std::uint64_t>(agree);

    const double percent = rows > 0 ? 100.0 * static_cast<double>(agree) / static_cast<double>(rows) : 100.0;
    // "1043 texts", "40 of 1043 texts", "261 texts (part 0/4 of 1043)".
    std::string which = std::to_string(checked);
    if (parts > 1)
        which += " texts (part " + part_text + " of " + std::to_string(count) + ")";
    else
        which += (checked < corpus.texts.size() ? " of " + std::to_string(corpus.texts.size()) : "") + " texts";
    if (diff.entries.empty()) {
        std::printf("label agreement %ld/%ld (%.2f%%), max |dlogit| 0.00e0, mean |dlogit| 0.00e0\n", agree, rows,
                    percent);
        std::printf("check: %s, %d windows: every logit bit identical to stage 00\n", which.c_str(),
                    runner.forwards());
        return 0;
    }
    std::printf("label agreement %ld/%ld (%.2f%%); %zu of %s differ from stage 00 in logit bits\n", agree, rows,
                percent, diff.entries.size(), which.c_str());
    if (!diff_path.empty()) {
        if (!write_file(diff_path, format_logits_file(diff), &error)) return fail(error);
        std::printf("check: this stage's logits for those texts -> %s (stage 00's `explain` reports |dlogit|)\n",
                    diff_path.c_str());
    }
    return 1;
}

}  // namespace
}  // namespace bx::harness

BX_HARNESS_COMMAND(check, "compare every logit bit with stage 00's reference on a corpus", bx::harness::check_main);
