// Fuzz target: the tokenizer's encode (common/tokenizer: special tokens,
// normaliser, pre-tokeniser, post-processor; the last stage's Unigram step),
// on any bytes.
//
// Properties:
//   - ill-formed UTF-8 gives exactly <s> </s> (the documented answer; the
//     service refuses such text before it gets here);
//   - otherwise ids, tokens and offsets have one entry per token, <s> first
//     and </s> last with offsets (0, 0), every id inside the vocabulary and
//     equal to the token's id, every content token non-empty, and every offset
//     a range of whole characters inside the text, never going backwards;
//   - the offset oracle (common/tokenizer/offset_check.hpp): every content
//     token's original characters, normalised alone, read as the token, and
//     every grapheme cluster outside all ranges normalises to nothing or a
//     space.
//     Its mutant (fuzz_tokenizer_mutant_kept-range) lets kept characters take
//     the range at their new position, as HF's offsets do after a deletion.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/text/utf8.hpp"
#include "common/tokenizer/offset_check.hpp"
#include "common/tokenizer/tokenizer.hpp"
#include "fuzz_support.hpp"

namespace bx::BX_LAST_NS {
std::shared_ptr<const bx::Tokenizer> load_tokenizer(std::string* error);
}  // namespace bx::BX_LAST_NS

namespace {

const bx::Tokenizer& tokenizer() {
    static const std::shared_ptr<const bx::Tokenizer> loaded = [] {
        std::string error;
        auto t = bx::BX_LAST_NS::load_tokenizer(&error);
        if (!t) bx::fuzz::fail("the last stage's tokenizer does not load: " + error);
        return t;
    }();
    return *loaded;
}

bool on_boundary(std::string_view text, std::size_t at) {
    return at == text.size() || (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) != 0x80);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    bx::fuzz::write_seeds_if_asked([](std::vector<std::string>& seeds) {
        seeds = bx::fuzz::corpus_texts(BX_ROOT "/assets/corpora/handwritten.jsonl");
        for (const char* text : {"<s>Anna</s><pad> <unk><mask>", "  two  spaces\tand\nlines  ", "\xEF\xAC\x81 ligature",
                                 "\xE2\x80\x8B\xEF\xBB\xBF zero width", "\xF0\x9F\x98\x80\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD",
                                 "\xC3\xA9 vs e\xCC\x81", "\x01\x01\x01" "Call Anna", "a<s>\x7F\xC2\xAD" "b", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", "\xFF", "a\xC3"}) {
            seeds.emplace_back(text);
        }
    });
    tokenizer();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using bx::fuzz::require;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const bx::Tokenizer& t = tokenizer();
    const bx::Encoding encoding = t.encode(text);
    const std::size_t n = encoding.ids.size();
    require(n >= 2 && encoding.tokens.size() == n && encoding.offsets.size() == n, "ids, tokens and offsets differ in length");
    require(encoding.tokens.front() == "<s>" && encoding.tokens.back() == "</s>", "not <s> ... </s>");
    require(encoding.offsets.front() == bx::Span{} && encoding.offsets.back() == bx::Span{}, "<s> or </s> with an offset");
    if (!bx::utf8::is_valid(text)) {
        require(n == 2, "ill-formed UTF-8 gave content tokens");
        return 0;
    }
    const auto vocab = static_cast<std::int32_t>(t.step().vocab_size());
    std::uint32_t previous_begin = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t id = encoding.ids[i];
        require(id >= 0 && id < vocab, "id " + std::to_string(id) + " outside the vocabulary");
        if (i == 0 || i + 1 == n) continue;
        const bx::Span span = encoding.offsets[i];
        require(!encoding.tokens[i].empty(), "an empty content token");
        const std::int32_t by_text = t.step().token_to_id(encoding.tokens[i]);
        require(by_text == id || (by_text < 0 && id == t.step().unk_id()), "token \"" + encoding.tokens[i] + "\" has another id");
        require(span.begin <= span.end && span.end <= text.size(), "an offset outside the text");
        require(on_boundary(text, span.begin) && on_boundary(text, span.end), "an offset inside a character");
        require(span.begin >= previous_begin, "offsets go backwards");
        previous_begin = span.begin;
    }
    const std::string fault = bx::check_offsets(t, text, encoding);
    require(fault.empty(), "the offset oracle: " + fault);
    return 0;
}
