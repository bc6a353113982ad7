// `check-tok`: is this stage's tokenizer the reference tokenizer, bit for bit?
//
// For every text of a corpus, the stage's ids and tokens must equal the
// reference's (Hugging Face's tokenizers wheel, run by tokref.py, whose output
// for the default corpus must also equal the golden files), and every vocabulary score must have the reference's f64 bits.
// Offsets must pass the offset oracle (common/tokenizer/offset_check.hpp) on
// every text; they equal the reference's (compared in its unit, code points)
// except where the reference loses track of deleted or merged characters,
// which is counted and reported (common/tokenizer/README.md, "Offsets: where
// we part from the reference"). Any failure prints the first few texts with
// context and exits 1.
//
// The expected file is JSONL as tokref.py writes it: an optional first line
// {"scores":[...]}, then {"ids":[...],"tokens":[...],"offsets":[[b,e],...]}
// per text, in corpus order. The reference's scores may instead come as the
// golden set's TSV (--scores: id, f64 bits in 16 hex digits, text, piece). (A WASI program cannot start Python, so the
// Makefile runs tokref.py first: check-tok.mk.)
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/harness/args.hpp"
#include "common/harness/command.hpp"
#include "common/harness/corpus.hpp"
#include "common/harness/files.hpp"
#include "common/json/json.hpp"
#include "common/stage/stage.hpp"
#include "common/text/utf8.hpp"
#include "common/timing/clock.hpp"
#include "common/tokenizer/offset_check.hpp"

namespace bx::harness {
namespace {

constexpr const char* kUsage =
    "--expected FILE.jsonl [--corpus assets/corpora/tokcheck.jsonl] [--scores FILE.tsv] [--tokenizer tokenizer.json] "
    "[--show N]";

int fail(const std::string& message) {
    std::fprintf(stderr, "check-tok: %s\n", message.c_str());
    return 2;
}

struct Expected {
    std::vector<std::int32_t> ids;
    std::vector<std::string> tokens;
    std::vector<Span> offsets;  // code points
};

// The golden set's scores.tsv: line k is "k<TAB>16 hex digits<TAB>...".
bool read_score_bits(const std::string& tsv, std::vector<std::uint64_t>& out) {
    for (std::size_t at = 0; at < tsv.size();) {
        std::size_t end = tsv.find('\n', at);
        if (end == std::string::npos) end = tsv.size();
        std::string_view line(tsv.data() + at, end - at);
        at = end + 1;
        if (line.empty()) continue;
        std::size_t tab = line.find('\t');
        if (tab == std::string_view::npos || line.size() < tab + 17) return false;
        if (std::strtoull(std::string(line.substr(0, tab)).c_str(), nullptr, 10) != out.size()) return false;
        std::uint64_t bits = 0;
        for (char c : line.substr(tab + 1, 16)) {
            int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (h < 0) return false;
            bits = bits * 16 + static_cast<std::uint64_t>(h);
        }
        out.push_back(bits);
    }
    return true;
}

// Compares the stage's scores with the reference's bit patterns.
int compare_scores(const UnigramStep& step, const std::vector<std::uint64_t>& want, long show) {
    if (want.size() != step.vocab_size()) {
        std::printf("MISMATCH vocabulary size: reference %zu, stage %zu\n", want.size(), step.vocab_size());
        return 1;
    }
    int failures = 0;
    for (std::size_t id = 0; id < want.size(); ++id) {
        double got = step.score(static_cast<std::int32_t>(id));
        std::uint64_t got_bits;
        std::memcpy(&got_bits, &got, sizeof got);
        if (got_bits != want[id]) {
            if (failures < show) {
                double want_value;
                std::memcpy(&want_value, &want[id], sizeof want_value);
                std::printf("MISMATCH score of id %zu (%s): reference %.17g, stage %.17g\n", id,
                            std::string(step.id_to_token(static_cast<std::int32_t>(id))).c_str(), want_value, got);
            }
            ++failures;
        }
    }
    return failures;
}

bool read_expected_line(const json::Value& line, Expected& out) {
    const json::Value* ids = line.find("ids");
    const json::Value* tokens = line.find("tokens");
    const json::Value* offsets = line.find("offsets");
    if (!ids || !tokens || !offsets || !ids->is(json::Kind::Array) || !tokens->is(json::Kind::Array) ||
        !offsets->is(json::Kind::Array)) {
        return false;
    }
    for (const json::Value& id : ids->items) {
        std::int64_t v = 0;
        if (!id.as_int64(v)) return false;
        out.ids.push_back(static_cast<std::int32_t>(v));
    }
    for (const json::Value& token : tokens->items) out.tokens.push_back(token.text);
    for (const json::Value& pair : offsets->items) {
        std::int64_t b = 0, e = 0;
        if (pair.items.size() != 2 || !pair.items[0].as_int64(b) || !pair.items[1].as_int64(e)) return false;
        out.offsets.push_back({static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(e)});
    }
    return true;
}

// One token as "id:'text'@b-e", for the mismatch report.
std::string describe(std::int32_t id, const std::string& token, Span span) {
    std::string s = std::to_string(id) + ":";
    json::append_string(s, token);
    s += "@" + std::to_string(span.begin) + "-" + std::to_string(span.end);
    return s;
}

void report(std::size_t index, const std::string& text, const Expected& want, const Expected& got,
            const std::string& offset_fault) {
    std::size_t n = want.ids.size() < got.ids.size() ? want.ids.size() : got.ids.size();
    std::size_t first = 0;
    while (first < n && want.ids[first] == got.ids[first] && want.tokens[first] == got.tokens[first] &&
           want.offsets[first] == got.offsets[first]) {
        ++first;
    }
    std::string quoted;
    json::append_string(quoted, text.size() > 300 ? text.substr(0, 300) + "..." : text);
    std::printf("MISMATCH text %zu (%zu vs %zu tokens, first difference at token %zu): %s\n", index,
                want.ids.size(), got.ids.size(), first, quoted.c_str());
    std::size_t from = first >= 3 ? first - 3 : 0;
    for (int side = 0; side < 2; ++side) {
        const Expected& e = side == 0 ? want : got;
        std::string line = side == 0 ? "  reference:" : "  stage:    ";
        for (std::size_t k = from; k < e.ids.size() && k < first + 4; ++k) {
            line += (k == first ? " >>" : " ") + describe(e.ids[k], e.tokens[k], e.offsets[k]);
        }
        std::printf("%s\n", line.c_str());
    }
    if (!offset_fault.empty()) std::printf("  offsets: %s\n", offset_fault.c_str());
}

int check_tok_main(int argc, char** argv) {
    Args args(argc, argv);
    const std::string corpus_path = args.value("--corpus", "assets/corpora/tokcheck.jsonl");
    const std::string expected_path = args.value("--expected");
    const std::string tokenizer_path = args.value("--tokenizer");
    const std::string scores_path = args.value("--scores");
    const long show = args.number("--show", 5);
    if (!args.all_used(kUsage)) return 2;
    if (expected_path.empty()) return fail(std::string("--expected is required\nusage: check-tok ") + kUsage);

    std::string error, expected_bytes;
    Corpus corpus;
    if (!load_corpus(corpus_path, corpus, &error) || !read_file(expected_path, expected_bytes, &error)) {
        return fail(error);
    }

    const std::uint64_t load_start = now_ns();
    std::shared_ptr<const Tokenizer> tokenizer;
    if (tokenizer_path.empty()) {
        tokenizer = stage::load_tokenizer(&error);
    } else {
        std::string json_text;
        if (!read_file(tokenizer_path, json_text, &error)) return fail(error);
        tokenizer = stage::load_tokenizer_from_json(json_text, &error);
    }
    if (!tokenizer) return fail("loading the tokenizer: " + error);
    const double load_ms = static_cast<double>(now_ns() - load_start) / 1e6;

    // Split the expected file into lines; an optional scores line comes first.
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at < expected_bytes.size();) {
        std::size_t end = expected_bytes.find('\n', at);
        if (end == std::string::npos) end = expected_bytes.size();
        if (end > at) lines.emplace_back(expected_bytes.data() + at, end - at);
        at = end + 1;
    }
    std::size_t line_index = 0;
    int failures = 0;
    std::size_t scores_checked = 0;
    if (!lines.empty() && lines[0].starts_with("{\"scores\"")) {
        json::Value scores_line;
        json::Error parse_error;
        if (!json::parse(lines[0], scores_line, parse_error)) return fail(expected_path + ":1: " + parse_error.message);
        const json::Value* scores = scores_line.find("scores");
        if (!scores || !scores->is(json::Kind::Array)) return fail(expected_path + ":1: no scores array");
        // The reference wrote shortest round-trip digits: strtod gives its bits back.
        std::vector<std::uint64_t> bits;
        for (const json::Value& score : scores->items) {
            double value = score.as_double();
            std::uint64_t b;
            std::memcpy(&b, &value, sizeof b);
            bits.push_back(b);
        }
        if (scores_path.empty()) {
            failures += compare_scores(tokenizer->step(), bits, show);
            scores_checked = bits.size();
        }
        line_index = 1;
    }
    if (!scores_path.empty()) {
        std::string tsv;
        std::vector<std::uint64_t> bits;
        if (!read_file(scores_path, tsv, &error)) return fail(error);
        if (!read_score_bits(tsv, bits)) return fail(scores_path + ": not id<TAB>bits lines");
        failures += compare_scores(tokenizer->step(), bits, show);
        scores_checked = bits.size();
    }
    if (lines.size() - line_index != corpus.texts.size()) {
        return fail(expected_path + " has " + std::to_string(lines.size() - line_index) + " encodings for " +
                    std::to_string(corpus.texts.size()) + " texts of " + corpus_path);
    }

    std::size_t tokens = 0;
    std::size_t differing_texts = 0;
    std::size_t own_offset_texts = 0, own_offset_tokens = 0;  // oracle-checked, not the reference's
    std::uint64_t encode_ns = 0;
    for (std::size_t i = 0; i < corpus.texts.size(); ++i, ++line_index) {
        const std::string& text = corpus.texts[i];
        json::Value line;
        json::Error parse_error;
        Expected want;
        if (!json::parse(lines[line_index], line, parse_error) || !read_expected_line(line, want)) {
            return fail(expected_path + ":" + std::to_string(line_index + 1) + ": not an encoding");
        }
        const std::uint64_t t0 = now_ns();
        Encoding encoding = tokenizer->encode(text);
        encode_ns += now_ns() - t0;
        const std::string offset_fault = check_offsets(*tokenizer, text, encoding);

        Expected got;
        got.ids = std::move(encoding.ids);
        got.tokens = std::move(encoding.tokens);
        const std::vector<std::uint32_t> code_points = utf8::code_point_offset_table(text);
        for (const Span& span : encoding.offsets) got.offsets.push_back({code_points[span.begin], code_points[span.end]});
        tokens += got.ids.size();
        if (got.ids != want.ids || got.tokens != want.tokens || !offset_fault.empty()) {
            if (static_cast<long>(differing_texts) < show) report(i, text, want, got, offset_fault);
            ++differing_texts;
        } else if (got.offsets != want.offsets) {
            ++own_offset_texts;
            for (std::size_t k = 0; k < got.offsets.size(); ++k) own_offset_tokens += got.offsets[k] != want.offsets[k];
        }
    }

    std::printf("check-tok: %zu texts, %zu tokens, ", corpus.texts.size(), tokens);
    if (scores_checked) std::printf("%zu scores, ", scores_checked);
    if (differing_texts == 0 && failures == 0) {
        std::printf("identical\n");
        std::printf("check-tok: offsets pass the offset oracle on every text; they are the reference's except "
                    "%zu tokens in %zu texts where it loses track of deleted or merged characters\n",
                    own_offset_tokens, own_offset_texts);
    } else {
        std::printf("DIFFERENT (%zu texts, %d scores)\n", differing_texts, failures);
    }
    std::printf("check-tok: load %.1f ms, encode %.1f ms in all (%.1f us per text)%s\n", load_ms,
                static_cast<double>(encode_ns) / 1e6,
                corpus.texts.empty() ? 0.0 : static_cast<double>(encode_ns) / 1e3 / static_cast<double>(corpus.texts.size()),
                scores_checked ? "" : "; scores not checked (no reference scores line)");
    return differing_texts == 0 && failures == 0 ? 0 : 1;
}

}  // namespace

BX_HARNESS_COMMAND_NAMED(check_tok, "check-tok", "compare the stage tokenizer with the reference: ids, tokens, offsets, scores", check_tok_main);

}  // namespace bx::harness
