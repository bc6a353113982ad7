// Fuzz target, differential: stage 00's Unigram step (the oracle: a hash map
// and a trie of nodes, built from tokenizer.json) against the last stage's
// (a vocabulary blob made at build time), on every input the fuzzer invents.
// Any disagreement is a bug in one of them.
//
// Both tokenizers are built from the same embedded tokenizer.json, once.
// CMake compiles each stage's tokenizer with bx::stage renamed (BX_FIRST_NS,
// BX_LAST_NS), so both live in this one program. For valid UTF-8 input:
//   - the step alone, on the input as one normalised pre-token: the same
//     pieces (id, begin, end), in the same order;
//   - the whole encode: the same ids, tokens and offsets.
// The mutant build links the last stage's tokenizer with the post's
// tie-break mutation (`>` made `>=`, bx_mutated_copy); it must be caught.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/embed/embedded.hpp"
#include "common/text/utf8.hpp"
#include "common/tokenizer/tokenizer.hpp"
#include "fuzz_support.hpp"

namespace bx::BX_FIRST_NS {
std::unique_ptr<bx::Tokenizer> load_tokenizer_from_json(std::string_view json, std::string* error);
}  // namespace bx::BX_FIRST_NS
namespace bx::BX_LAST_NS {
std::unique_ptr<bx::Tokenizer> load_tokenizer_from_json(std::string_view json, std::string* error);
}  // namespace bx::BX_LAST_NS

namespace {

struct Pair {
    std::unique_ptr<bx::Tokenizer> first, last;
};

const Pair& tokenizers() {
    static const Pair pair = [] {
        const std::span<const char> bytes = bx::embedded_tokenizer_json();
        const std::string_view json(bytes.data(), bytes.size());
        std::string error;
        Pair p;
        p.first = bx::BX_FIRST_NS::load_tokenizer_from_json(json, &error);
        if (!p.first) bx::fuzz::fail("stage 00's tokenizer does not load: " + error);
        p.last = bx::BX_LAST_NS::load_tokenizer_from_json(json, &error);
        if (!p.last) bx::fuzz::fail("the last stage's tokenizer does not load: " + error);
        return p;
    }();
    return pair;
}

std::string describe(const std::vector<bx::Piece>& pieces, const bx::UnigramStep& step) {
    std::string out;
    for (const bx::Piece& p : pieces) {
        out += " " + std::string(step.id_to_token(p.id)) + "(" + std::to_string(p.id) + ")@" +
               std::to_string(p.begin) + "-" + std::to_string(p.end);
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    bx::fuzz::write_seeds_if_asked([](std::vector<std::string>& seeds) {
        // Pre-tokens as the step sees them (words with their leading '▁') and
        // whole texts.
        for (const std::string& text : bx::fuzz::corpus_texts(BX_ROOT "/assets/corpora/handwritten.jsonl")) {
            seeds.push_back(text);
            std::string word = "\xE2\x96\x81";
            for (char c : text) {
                if (c == ' ') {
                    seeds.push_back(word);
                    word = "\xE2\x96\x81";
                } else {
                    word += c;
                }
            }
        }
    });
    tokenizers();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (text.empty() || !bx::utf8::is_valid(text)) return 0;
    const Pair& p = tokenizers();

    std::vector<bx::Piece> a, b;
    p.first->step().encode(text, a);
    p.last->step().encode(text, b);
    bool same = a.size() == b.size();
    for (std::size_t i = 0; same && i < a.size(); ++i) {
        same = a[i].id == b[i].id && a[i].begin == b[i].begin && a[i].end == b[i].end;
    }
    if (!same) {
        bx::fuzz::fail("the Unigram steps disagree on \"" + std::string(text) + "\":\n  stage 00:  " +
                       describe(a, p.first->step()) + "\n  last stage:" + describe(b, p.last->step()));
    }

    const bx::Encoding x = p.first->encode(text), y = p.last->encode(text);
    bx::fuzz::require(x.ids == y.ids && x.tokens == y.tokens && x.offsets == y.offsets,
                      "the encodings disagree on \"" + std::string(text) + "\"");
    return 0;
}
