// The tokenizer's parts on small hand-made inputs: Viterbi tie-break and
// unknown fusion, the alignment bookkeeping, the pipeline around the model, the
// refusal of unsupported tokenizer.json components, and (with the embedded
// tokenizer.json) the Precompiled normaliser's cluster rules.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "common/embed/embedded.hpp"
#include "common/stage/stage.hpp"
#include "common/tokenizer/normalized_string.hpp"
#include "common/tokenizer/offset_check.hpp"
#include "common/tokenizer/precompiled_normalizer.hpp"
#include "common/tokenizer/tokenizer.hpp"
#include "common/tokenizer/tokenizer_config.hpp"
#include "unigram.hpp"

namespace {

std::vector<bx::VocabEntry> tiny_vocab() {
    return {{"<s>", 0.0}, {"<pad>", 0.0}, {"</s>", 0.0}, {"<unk>", 0.0}, {"a", -1.0}, {"b", -1.0},
            {"ab", -2.0},   // ties with "a" + "b": the first path found stays
            {"\xE2\x96\x81", -3.0}, {"\xE2\x96\x81" "a", -1.5}, {"c", -4.0}};
}

std::string pieces_of(const bx::stage::NaiveUnigram& model, std::string_view text) {
    std::vector<bx::Piece> pieces;
    model.encode(text, pieces);
    std::string out;
    for (const bx::Piece& p : pieces) {
        if (!out.empty()) out += "|";
        out += std::string(text.substr(p.begin, p.end - p.begin)) + "=" + std::to_string(p.id);
    }
    return out;
}

}  // namespace

TEST_CASE("unigram: the strict > keeps the first of equal-scoring paths", "[tokenizer]") {
    bx::stage::NaiveUnigram model(tiny_vocab(), 3);
    // "ab" (-2, found from position 0) and "a"+"b" (-1 + -1, found later) tie.
    CHECK(pieces_of(model, "ab") == "ab=6");
    CHECK(pieces_of(model, "abab") == "ab=6|ab=6");
    CHECK(pieces_of(model, "ba") == "b=5|a=4");
}

TEST_CASE("unigram: unknown characters, penalty and fusion", "[tokenizer]") {
    bx::stage::NaiveUnigram model(tiny_vocab(), 3);
    // "é" and "😀" are not in the vocabulary: each is an unknown (score
    // min_score - 10 = -14), and consecutive unknowns become one piece.
    CHECK(pieces_of(model, "a\xC3\xA9\xF0\x9F\x98\x80" "b") == "a=4|\xC3\xA9\xF0\x9F\x98\x80=3|b=5");
    CHECK(pieces_of(model, "\xC3\xA9") == "\xC3\xA9=3");
    // A piece exists for "c" but it scores -4: still better than an unknown.
    CHECK(pieces_of(model, "c") == "c=9");
    CHECK(pieces_of(model, "") == "");
}

TEST_CASE("unigram: duplicate pieces keep the last id", "[tokenizer]") {
    auto vocab = tiny_vocab();
    vocab.push_back({"a", -0.5});
    bx::stage::NaiveUnigram model(vocab, 3);
    CHECK(model.token_to_id("a") == 10);
    CHECK(pieces_of(model, "a") == "a=10");
}

TEST_CASE("normalized string: every byte keeps the original range it came from", "[tokenizer][kept-range]") {
    SECTION("a replacement takes the whole range it replaces") {
        bx::NormalizedString s("x\xEF\xAC\x81y", 10);  // x ﬁ y, at byte 10 of a longer text
        s.rewrite({{1, 4, "fi"}});
        CHECK(s.text() == "xfiy");
        CHECK(s.original_span(1, 2) == bx::Span{11, 14});
        CHECK(s.original_span(2, 3) == bx::Span{11, 14});
        CHECK(s.original_span(3, 4) == bx::Span{14, 15});
    }
    SECTION("characters deleted at the start shift nothing") {
        // Hugging Face records no change for them, so the characters after
        // them take their ranges: its offsets point 40 characters too early.
        std::string text(40, '\x01');
        text += "ab";
        bx::NormalizedString s(text, 0);
        std::vector<bx::Rewrite> deletions;
        for (std::uint32_t i = 0; i < 40; ++i) deletions.push_back({i, i + 1, ""});
        s.rewrite(deletions);
        CHECK(s.text() == "ab");
        CHECK(s.original_span(0, 1) == bx::Span{40, 41});
        CHECK(s.original_span(1, 2) == bx::Span{41, 42});
    }
    SECTION("deleted between kept characters, and a contraction") {
        // a U+0001 b, then "e" + U+0301 (3 bytes) as one cluster written "é".
        bx::NormalizedString s("a\x01" "be\xCC\x81", 5);
        s.rewrite({{1, 2, ""}, {3, 6, "\xC3\xA9"}});
        CHECK(s.text() == "ab\xC3\xA9");
        CHECK(s.original_span(0, 1) == bx::Span{5, 6});
        CHECK(s.original_span(1, 2) == bx::Span{7, 8});
        CHECK(s.original_span(2, 4) == bx::Span{8, 11});  // the accent too, not only the 'e'
    }
    SECTION("space runs, metaspace, prepend, split") {
        bx::NormalizedString s("a   b ", 0);
        s.collapse_space_runs();
        CHECK(s.text() == "a b ");
        CHECK(s.original_span(1, 2) == bx::Span{3, 4});  // the run's last space
        s.replace_spaces("\xE2\x96\x81");
        s.prepend("\xE2\x96\x81");
        CHECK(s.text() == "\xE2\x96\x81" "a\xE2\x96\x81" "b\xE2\x96\x81");
        CHECK(s.original_span(0, 3) == bx::Span{0, 1});  // aligned with 'a'
        auto words = s.split_before("\xE2\x96\x81");
        REQUIRE(words.size() == 3);
        CHECK(words[1].text() == "\xE2\x96\x81" "b");
        CHECK(words[2].text() == "\xE2\x96\x81");
        CHECK(words[2].original_span(0, 3) == bx::Span{5, 6});
    }
}

namespace {

// A tokenizer.json with no normaliser and the tiny vocabulary.
std::string tiny_tokenizer_json(std::string_view normalizer = "null", std::string_view extra_model = "") {
    std::string vocab;
    for (const auto& entry : tiny_vocab()) {
        if (!vocab.empty()) vocab += ",";
        vocab += "[\"" + entry.piece + "\"," + std::to_string(entry.score) + "]";
    }
    return std::string(R"({"version":"1.0","truncation":null,"padding":null,"added_tokens":[)") +
           R"({"id":0,"content":"<s>","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true},)" +
           R"({"id":3,"content":"<unk>","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true},)" +
           R"({"id":2,"content":"</s>","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true}],)" +
           R"("normalizer":)" + std::string(normalizer) + "," +
           R"("pre_tokenizer":{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true},)" +
           R"("post_processor":{"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},)" +
           R"({"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"</s>","type_id":0}}],"pair":[],)" +
           R"("special_tokens":{"<s>":{"id":"<s>","ids":[0],"tokens":["<s>"]},"</s>":{"id":"</s>","ids":[2],"tokens":["</s>"]}}},)" +
           R"("decoder":null,"model":{"type":"Unigram","unk_id":3,"vocab":[)" + vocab + "]" +
           std::string(extra_model) + "}}";
}

std::string describe(const bx::Encoding& e) {
    std::string out;
    for (std::size_t k = 0; k < e.ids.size(); ++k) {
        out += (k ? " " : "") + e.tokens[k] + "=" + std::to_string(e.ids[k]) + "@" +
               std::to_string(e.offsets[k].begin) + "-" + std::to_string(e.offsets[k].end);
    }
    return out;
}

}  // namespace

TEST_CASE("pipeline: special tokens in the text, metaspace words, template", "[tokenizer]") {
    std::string error;
    auto tokenizer = bx::stage::load_tokenizer_from_json(tiny_tokenizer_json(), &error);
    REQUIRE(tokenizer);
    CHECK(describe(tokenizer->encode("")) == "<s>=0@0-0 </s>=2@0-0");
    CHECK(describe(tokenizer->encode("a b")) == "<s>=0@0-0 \xE2\x96\x81" "a=8@0-1 \xE2\x96\x81=7@1-2 b=5@2-3 </s>=2@0-0");
    // "<s>" typed in the text is the special token; text around it is
    // normalised and pre-tokenised on its own (each piece gets its own '▁').
    CHECK(describe(tokenizer->encode("a<s>b")) ==
          "<s>=0@0-0 \xE2\x96\x81" "a=8@0-1 <s>=0@1-4 \xE2\x96\x81=7@4-5 b=5@4-5 </s>=2@0-0");
    CHECK(describe(tokenizer->encode("<unk></s>")) == "<s>=0@0-0 <unk>=3@0-5 </s>=2@5-9 </s>=2@0-0");
}

TEST_CASE("config: unsupported components are named", "[tokenizer]") {
    std::string error;
    CHECK_FALSE(bx::stage::load_tokenizer_from_json(tiny_tokenizer_json(R"({"type":"NFD"})"), &error));
    CHECK(error == "unsupported normalizer \"NFD\"");
    CHECK_FALSE(bx::stage::load_tokenizer_from_json(
        tiny_tokenizer_json(R"({"type":"Sequence","normalizers":[{"type":"Lowercase"}]})"), &error));
    CHECK(error == "unsupported normalizer \"Lowercase\"");
    CHECK_FALSE(bx::stage::load_tokenizer_from_json(tiny_tokenizer_json("null", R"(,"byte_fallback":true)"), &error));
    CHECK(error == "unsupported Unigram option byte_fallback=true");
    std::string bpe = tiny_tokenizer_json();
    bpe.replace(bpe.find("\"Unigram\""), 9, "\"BPE\"");
    CHECK_FALSE(bx::stage::load_tokenizer_from_json(bpe, &error));
    CHECK(error == "unsupported model \"BPE\"");
    std::string first = tiny_tokenizer_json();
    first.replace(first.find("\"always\""), 8, "\"first\"");
    CHECK_FALSE(bx::stage::load_tokenizer_from_json(first, &error));
    CHECK(error == "unsupported Metaspace prepend_scheme \"first\"");
    CHECK_FALSE(bx::stage::load_tokenizer_from_json("{", &error));
    CHECK(error.rfind("tokenizer.json: ", 0) == 0);
}

TEST_CASE("precompiled: nmt_nfkc cluster rules (embedded tokenizer.json)", "[tokenizer]") {
    std::span<const char> json = bx::embedded_tokenizer_json();
    if (json.empty()) {
        WARN("no embedded tokenizer.json: Precompiled cases skipped");
        return;
    }
    bx::TokenizerConfig config;
    std::string error;
    REQUIRE(bx::read_tokenizer_config(std::string_view(json.data(), json.size()), config, &error));
    auto normalize = [&](std::string_view text) {
        bx::NormalizedString s(text, 0);
        bx::apply_precompiled(config.charsmap, s);
        return s.text();
    };
    CHECK(normalize("\xEF\xBC\xA6\xEF\xBD\x95\xEF\xBD\x8C\xEF\xBD\x8C") == "Full");  // fullwidth
    CHECK(normalize("\xEF\xAC\x81" "ne") == "fine");                                  // ligature ﬁ
    CHECK(normalize("\xC2\xBD") == "1\xE2\x81\x84" "2");                              // ½ -> 1⁄2
    CHECK(normalize("e\xCC\x81") == "\xC3\xA9");                                      // e + U+0301 composes
    // A cluster under 6 bytes whose start has a mapping becomes that mapping
    // alone: fullwidth A + U+0301 loses its accent, as in the reference.
    CHECK(normalize("\xEF\xBC\xA1\xCC\x81") == "A");
    CHECK(normalize("\r\n") == " ");                                                  // one cluster
    // क़ + U+0301 alone is a 5-byte cluster: the accent goes. After क + virama
    // (GB9c) the cluster is 11 bytes, normalised per character: it stays.
    CHECK(normalize("\xE0\xA5\x98\xCC\x81") == "\xE0\xA4\x95\xE0\xA4\xBC");
    CHECK(normalize("\xE0\xA4\x95\xE0\xA5\x8D\xE0\xA5\x98\xCC\x81") ==
          "\xE0\xA4\x95\xE0\xA5\x8D\xE0\xA4\x95\xE0\xA4\xBC\xCC\x81");
    CHECK(normalize("a\xE2\x80\x8B" "b") == "a b");                                   // ZWSP -> space
    CHECK(normalize("\x01" "ab") == "ab");                                            // control removed
}

TEST_CASE("pipeline: offsets after deleted characters point at what was read", "[tokenizer][kept-range]") {
    std::string error;
    auto tokenizer = bx::stage::load_tokenizer(&error);
    REQUIRE(tokenizer);
    // Two texts that once leaked their PII: U+0001 is deleted by the charsmap, at the start
    // of the text and at the start of the piece after a typed "<s>". "▁Anna"
    // covers the space before the name (its '▁') and the name.
    const std::string call = std::string(40, '\x01') + "Call Anna Weber on 030 1234567.";
    const std::string iban = "Hello <s>" + std::string(20, '\x01') +
                             "my name is Anna Weber and my IBAN is DE89 3704 0044 0532 0130 00.";
    for (const std::string& text : {call, iban}) {
        const bx::Encoding e = tokenizer->encode(text);
        INFO(describe(e));
        CHECK(bx::check_offsets(*tokenizer, text, e).empty());
        for (std::size_t k = 0; k < e.tokens.size(); ++k) {
            if (e.tokens[k] == "\xE2\x96\x81" "Anna") {
                CHECK(text.substr(e.offsets[k].begin, e.offsets[k].end - e.offsets[k].begin) == " Anna");
            }
        }
    }
    // Deleted characters inside a word and a contraction: the token covers them.
    const std::string inside = "Hello An\xC2\xAD" "na e\xCC\x81";  // soft hyphen; e + U+0301
    const bx::Encoding e = tokenizer->encode(inside);
    INFO(describe(e));
    CHECK(bx::check_offsets(*tokenizer, inside, e).empty());
    CHECK(e.offsets[e.offsets.size() - 2].end == inside.size());  // the accent is inside the last token
}
