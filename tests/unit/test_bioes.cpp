// BIOES decoding, label confidence, and the mapping of entities back to text.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/maths/expf.hpp"
#include "common/service/bioes.hpp"
#include "common/service/entities.hpp"
#include "common/service/labels.hpp"
#include "common/service/text_offsets.hpp"

using namespace bx::service;

namespace {

LabelScheme format_scheme() {
    const std::vector<std::string> names = format_label_names();
    std::vector<std::string_view> views(names.begin(), names.end());
    LabelScheme scheme;
    std::string error;
    REQUIRE(parse_label_scheme(views, scheme, &error));
    return scheme;
}

// A scheme of the given names, for label counts other than the model's 81.
LabelScheme scheme_of(std::initializer_list<std::string_view> names) {
    LabelScheme scheme;
    std::string error;
    REQUIRE(parse_label_scheme(std::vector<std::string_view>(names), scheme, &error));
    return scheme;
}

// Label index of tag `tag` ("B", "I", "E", "S") for type `type` in FORMAT.md order.
int label_of(const char* tag, int type) {
    const int offset = tag[0] == 'B' ? 1 : tag[0] == 'I' ? 2 : tag[0] == 'E' ? 3 : 4;
    return 4 * type + offset;
}

constexpr int kGiven = 0, kSurname = 1, kCity = 17, kState = 18;

std::vector<TokenChoice> tags(std::initializer_list<int> labels) {
    std::vector<TokenChoice> out;
    for (int l : labels) out.push_back({l, 1.0f});
    return out;
}

struct Simple { int first, last, type; };

std::vector<Simple> simple(const std::vector<TokenSpan>& spans) {
    std::vector<Simple> out;
    for (const auto& s : spans) out.push_back({s.first, s.last, s.type});
    return out;
}

bool operator==(const Simple& a, const Simple& b) {
    return a.first == b.first && a.last == b.last && a.type == b.type;
}

std::uint32_t bits(float f) { std::uint32_t u; std::memcpy(&u, &f, 4); return u; }

}  // namespace

namespace Catch {
template <> struct StringMaker<Simple> {
    static std::string convert(const Simple& s) {
        return "{" + std::to_string(s.first) + ".." + std::to_string(s.last) + " t" +
               std::to_string(s.type) + "}";
    }
};
}  // namespace Catch

TEST_CASE("the FORMAT.md label names parse into 20 types", "[bioes]") {
    const LabelScheme scheme = format_scheme();
    REQUIRE(scheme.size() == 81);
    REQUIRE(scheme.types.size() == 20);
    CHECK(scheme.types[0] == "GIVEN_NAME");
    CHECK(scheme.types[19] == "ZIP_CODE");
    CHECK(scheme.labels[0].tag == Tag::O);
    CHECK(scheme.labels[label_of("E", kCity)].tag == Tag::E);
    CHECK(scheme.labels[label_of("E", kCity)].type == kCity);
}

TEST_CASE("bad label names are named in the error", "[bioes]") {
    LabelScheme scheme;
    std::string error;
    for (std::string_view bad : {"X-CITY", "B-", "B", "BCITY", ""}) {
        const std::string_view names[] = {"O", bad};
        CHECK_FALSE(parse_label_scheme(names, scheme, &error));
        CHECK(error.find("model label 1") != std::string::npos);
    }
}

TEST_CASE("choose_label: argmax, first wins ties, NaN never wins", "[bioes]") {
    const LabelScheme four = scheme_of({"O", "S-CITY", "S-STATE", "B-CITY"});
    const float plain[] = {0.5f, 2.0f, -1.0f, 2.0f};
    CHECK(choose_label(plain, four).label == 1);
    const LabelScheme three = scheme_of({"O", "S-CITY", "S-STATE"});
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float with_nan[] = {0.5f, nan, 1.0f};
    CHECK(choose_label(with_nan, three).label == 2);
}

TEST_CASE("choose_label: probability in the documented order", "[bioes]") {
    // One label per type: the type's probability is the label's.
    const LabelScheme s = scheme_of({"O", "S-CITY", "S-STATE", "S-ZIP", "S-SSN"});
    const float logits[] = {0.25f, 3.0f, -2.0f, 1.5f, 3.0f};
    const TokenChoice c = choose_label(logits, s);
    REQUIRE(c.label == 1);
    float z = 0.0f;
    for (float l : logits) z += bx::bx_expf(l - 3.0f);
    CHECK(bits(c.probability) == bits(1.0f / z));
    CHECK(c.probability == Approx(std::exp(0.0) / (std::exp(-2.75) + 2 + std::exp(-5.0) + std::exp(-1.5))));

    const float uniform[81] = {};
    CHECK(choose_label(uniform, format_scheme()).probability == Approx(1.0 / 81));
}

TEST_CASE("choose_label: a token's probability is its type's, whatever its tag", "[bioes][type-score]") {
    // "García" after a hostile run (round 12's weights): sure it is a surname,
    // unsure whether another surname follows. S 0.45, B 0.30, E 0.20, O 0.05.
    const LabelScheme s = scheme_of({"O", "B-SURNAME", "I-SURNAME", "E-SURNAME", "S-SURNAME", "S-CITY"});
    const float logits[] = {std::log(0.05f), std::log(0.30f), -30.0f, std::log(0.20f), std::log(0.45f), -30.0f};
    const TokenChoice c = choose_label(logits, s);
    REQUIRE(c.label == 4);  // S-SURNAME
    float z = 0.0f, mass = 0.0f;
    for (int j = 0; j < 6; ++j) {
        const float e = bx::bx_expf(logits[j] - logits[4]);
        z += e;
        if (j >= 1 && j <= 4) mass += e;
    }
    CHECK(bits(c.probability) == bits(mass / z));
    CHECK(c.probability == Approx(0.95).epsilon(1e-4));
    CHECK(c.probability >= kDefaultMinScore);  // reported: the tag alone (0.45) is not

    // Another type's mass does not count, nor does O's.
    const float city_near[] = {std::log(0.05f), -30.0f, -30.0f, -30.0f, std::log(0.5f), std::log(0.45f)};
    CHECK(choose_label(city_near, s).probability == Approx(0.5).epsilon(1e-4));
    const float mostly_o[] = {std::log(0.6f), std::log(0.2f), -30.0f, -30.0f, std::log(0.2f), -30.0f};
    const TokenChoice o = choose_label(mostly_o, s);
    CHECK(o.label == 0);
    CHECK(o.probability == Approx(0.6).epsilon(1e-4));
}

TEST_CASE("decode_bioes: well-formed sequences", "[bioes]") {
    const LabelScheme s = format_scheme();
    const int O = 0;
    CHECK(simple(decode_bioes(tags({O, O}), s)).empty());
    CHECK(simple(decode_bioes(tags({label_of("B", kGiven), label_of("I", kGiven),
                                   label_of("E", kGiven)}), s)) ==
          std::vector<Simple>{{0, 2, kGiven}});
    CHECK(simple(decode_bioes(tags({O, label_of("S", kGiven), label_of("S", kSurname), O}), s)) ==
          std::vector<Simple>{{1, 1, kGiven}, {2, 2, kSurname}});
    CHECK(simple(decode_bioes(tags({label_of("B", kCity), label_of("E", kCity), O,
                                   label_of("B", kState), label_of("E", kState)}), s)) ==
          std::vector<Simple>{{0, 1, kCity}, {3, 4, kState}});
}

TEST_CASE("decode_bioes: repairs keep every non-O token in an entity", "[bioes]") {
    const LabelScheme s = format_scheme();
    const int O = 0;
    const int B = label_of("B", kCity), I = label_of("I", kCity), E = label_of("E", kCity);

    SECTION("an unterminated span is closed by O or the end") {
        CHECK(simple(decode_bioes(tags({B, I, O}), s)) == std::vector<Simple>{{0, 1, kCity}});
        CHECK(simple(decode_bioes(tags({O, B, I}), s)) == std::vector<Simple>{{1, 2, kCity}});
    }
    SECTION("a lone I starts a span, a lone E is one token") {
        CHECK(simple(decode_bioes(tags({O, I, I, E, O}), s)) == std::vector<Simple>{{1, 3, kCity}});
        CHECK(simple(decode_bioes(tags({O, E, O}), s)) == std::vector<Simple>{{1, 1, kCity}});
        CHECK(simple(decode_bioes(tags({E, E}), s)) ==
              std::vector<Simple>{{0, 0, kCity}, {1, 1, kCity}});
    }
    SECTION("B and S always start afresh") {
        CHECK(simple(decode_bioes(tags({B, B, E}), s)) ==
              std::vector<Simple>{{0, 0, kCity}, {1, 2, kCity}});
        CHECK(simple(decode_bioes(tags({B, label_of("S", kCity), E}), s)) ==
              std::vector<Simple>{{0, 0, kCity}, {1, 1, kCity}, {2, 2, kCity}});
    }
    SECTION("a change of type splits") {
        CHECK(simple(decode_bioes(tags({B, label_of("E", kState)}), s)) ==
              std::vector<Simple>{{0, 0, kCity}, {1, 1, kState}});
        CHECK(simple(decode_bioes(tags({B, label_of("I", kState), E}), s)) ==
              std::vector<Simple>{{0, 0, kCity}, {1, 1, kState}, {2, 2, kCity}});
    }
    SECTION("labels outside the scheme count as O") {
        CHECK(simple(decode_bioes(tags({B, 999, -1, E}), s)) ==
              std::vector<Simple>{{0, 0, kCity}, {3, 3, kCity}});
    }
}

TEST_CASE("decode_bioes: score is the mean probability in token order", "[bioes]") {
    const LabelScheme s = format_scheme();
    std::vector<TokenChoice> tokens{{label_of("B", kGiven), 0.5f},
                                    {label_of("I", kGiven), 0.25f},
                                    {label_of("E", kGiven), 0.75f},
                                    {0, 0.9f},
                                    {label_of("S", kSurname), 0.125f}};
    const auto spans = decode_bioes(tokens, s);
    REQUIRE(spans.size() == 2);
    CHECK(bits(spans[0].score) == bits(((0.0f + 0.5f) + 0.25f + 0.75f) / 3.0f));
    CHECK(spans[1].score == 0.125f);
}

TEST_CASE("UTF-8 validation finds the first bad byte", "[bioes][text]") {
    CHECK(first_invalid_utf8("") == kValidUtf8);
    CHECK(first_invalid_utf8("plain ascii") == kValidUtf8);
    CHECK(first_invalid_utf8("Zo\xC3\xAB \xE2\x82\xAC \xF0\x9F\x98\x80") == kValidUtf8);
    CHECK(first_invalid_utf8("ab\xC0\x80") == 2);          // overlong NUL
    CHECK(first_invalid_utf8("ab\xE0\x80\x80") == 2);      // overlong 3-byte
    CHECK(first_invalid_utf8("a\xED\xA0\x80") == 1);       // surrogate U+D800
    CHECK(first_invalid_utf8("\xF4\x90\x80\x80") == 0);    // above U+10FFFF
    CHECK(first_invalid_utf8("abc\xE2\x82") == 3);         // truncated at the end
    CHECK(first_invalid_utf8("x\x80y") == 1);              // stray continuation
    CHECK(first_invalid_utf8("\xFF") == 0);
}

TEST_CASE("trim_whitespace and code-point offsets", "[bioes][text]") {
    const std::string text = "a\xC2\xA0 b\xE3\x80\x80";  // a, NBSP, space, b, ideographic space
    const ByteRange all = trim_whitespace(text, {0, text.size()});
    CHECK(all.begin == 0);
    CHECK(all.end == text.size() - 3);
    const ByteRange inner = trim_whitespace(text, {1, text.size()});
    CHECK(inner.begin == 4);
    CHECK(trim_whitespace(text, {1, 4}).empty());

    CodePointCounter counter(text);
    CHECK(counter.at(0) == 0);
    CHECK(counter.at(3) == 2);
    CHECK(counter.at(text.size()) == 5);
    CHECK(counter.at(1) == 1);  // going back restarts, still right

    CHECK(snap_to_characters(text, {2, 2}).begin == 1);
    CHECK(snap_to_characters(text, {0, 2}).end == 3);
    CHECK(snap_to_characters(text, {0, 99}).end == text.size());
}

TEST_CASE("entities map back to trimmed text with code-point offsets", "[bioes][entities]") {
    const LabelScheme s = format_scheme();
    // "Hi Zoë Müller! 😀 Paris" with tokenizer-style ranges that include the leading space.
    const std::string text = "Hi Zo\xC3\xAB M\xC3\xBCller! \xF0\x9F\x98\x80 Paris";
    const std::vector<ByteRange> tokens{
        {0, 2},   // "Hi"
        {2, 5},   // " Zo"
        {5, 7},   // "ë"
        {7, 15},  // " Müller"
        {15, 16}, // "!"
        {16, 21}, // " 😀"
        {21, 27}, // " Paris"
    };
    REQUIRE(text.size() == 27);
    const std::vector<TokenSpan> spans{{1, 2, kGiven, 0.5f}, {3, 3, kSurname, 0.25f},
                                       {6, 6, kCity, 1.0f}};
    const auto entities = locate_entities(text, spans, tokens, s);
    REQUIRE(entities.size() == 3);
    CHECK(entities[0].label == "GIVEN_NAME");
    CHECK(entities[0].text == "Zo\xC3\xAB");
    CHECK(entities[0].start == 3);
    CHECK(entities[0].end == 6);
    CHECK(entities[0].score == 0.5f);
    CHECK(entities[1].text == "M\xC3\xBCller");
    CHECK(entities[1].start == 7);
    CHECK(entities[1].end == 13);
    CHECK(entities[2].text == "Paris");
    CHECK(entities[2].start == 17);  // the emoji is one code point (two UTF-16 units)
    CHECK(entities[2].end == 22);

    CHECK(redact_entities(text, entities) ==
          "Hi [GIVEN_NAME] [SURNAME]! \xF0\x9F\x98\x80 [CITY]");
}

TEST_CASE("entities below the minimum score are not reported", "[bioes][entities][min-score]") {
    const auto entity = [](std::string text, float score) {
        Entity e;
        e.label = "CITY";
        e.text = std::move(text);
        e.score = score;
        return e;
    };
    std::vector<Entity> entities{entity("Paris", 0.99f), entity("wrote", 0.4999999f),
                                 entity("Lyon", kDefaultMinScore), entity("who", 0.25f)};
    std::vector<Entity> everything = entities;
    drop_below_min_score(entities, kDefaultMinScore);
    REQUIRE(entities.size() == 2);  // the one at exactly the minimum stays
    CHECK(entities[0].text == "Paris");
    CHECK(entities[1].text == "Lyon");
    drop_below_min_score(everything, 0.0f);
    CHECK(everything.size() == 4);
}

TEST_CASE("overlapping or empty entities are merged or dropped", "[bioes][entities]") {
    const LabelScheme s = format_scheme();
    const std::string text = "\xEF\xAC\x81x y";  // "ﬁx y": a ligature two tokens share
    const std::vector<ByteRange> tokens{{0, 3}, {0, 3}, {3, 4}, {4, 5}};
    const std::vector<TokenSpan> spans{{0, 0, kGiven, 1.0f, 1.0f}, {1, 2, kSurname, 0.5f, 1.0f},
                                       {3, 3, kCity, 1.0f, 1.0f}};
    const auto entities = locate_entities(text, spans, tokens, s);
    // "ﬁ" widens to the word "ﬁx"; the second span overlaps it and merges into
    // it (the first's label, the mean over all three tokens); the space-only
    // span is dropped.
    REQUIRE(entities.size() == 1);
    CHECK(entities[0].label == "GIVEN_NAME");
    CHECK(entities[0].text == "\xEF\xAC\x81x");
    CHECK(entities[0].start == 0);
    CHECK(entities[0].end == 2);
    CHECK(entities[0].score == 2.0f / 3.0f);
    CHECK(redact_entities(text, entities) == "[GIVEN_NAME] y");

    const std::vector<TokenSpan> outside{{2, 9, kCity, 1.0f}};
    CHECK(locate_entities(text, outside, tokens, s).empty());
}

TEST_CASE("an entity never starts or ends inside a word", "[bioes][entities]") {
    const LabelScheme s = format_scheme();
    // "Call Anna Weber at Whitfield & Co." tokenized the way a Unigram model
    // may cut it: " Anna" " Web" "er", " W" "hit" "field".
    const std::string text = "Call Anna Weber at Whitfield & Co.";
    const std::vector<ByteRange> tokens{{0, 4},   {4, 9},   {9, 13},  {13, 15}, {15, 18}, {18, 20},
                                        {20, 23}, {23, 28}, {28, 30}, {30, 33}, {33, 34}};
    REQUIRE(text.substr(9, 4) == " Web");
    REQUIRE(text.substr(18, 2) == " W");
    // The model marks "Web" without its "er", and "W" and "hitfield" as two
    // spans (its first piece is in an entity, so the second one is no fragment).
    const std::vector<TokenSpan> spans{{1, 1, kGiven, 0.9f, 0.9f},
                                       {2, 2, kSurname, 0.75f, 0.75f},
                                       {5, 5, kSurname, 1.0f, 1.0f},
                                       {6, 7, kGiven, 0.25f, 0.5f}};
    const auto entities = locate_entities(text, spans, tokens, s);
    REQUIRE(entities.size() == 3);
    CHECK(entities[0].text == "Anna");
    CHECK(entities[1].text == "Weber");      // widened forward to the word's end
    CHECK(entities[1].start == 10);
    CHECK(entities[1].end == 15);
    CHECK(entities[2].text == "Whitfield");  // the two spans merged, the first's label
    CHECK(entities[2].label == "SURNAME");
    CHECK(entities[2].score == 0.5f);        // (1.0 + 0.5) / 3 tokens
    CHECK(redact_entities(text, entities) == "Call [GIVEN_NAME] [SURNAME] at [SURNAME] & Co.");

    // Two spans that cut one word ("Th" "urs" "day") become one entity.
    const std::string day = "On Thursday";
    const std::vector<ByteRange> day_tokens{{0, 2}, {2, 5}, {5, 8}, {8, 11}};
    const std::vector<TokenSpan> day_spans{{1, 1, kCity, 0.5f, 0.5f}, {2, 3, kGiven, 0.5f, 1.0f}};
    const auto merged = locate_entities(day, day_spans, day_tokens, s);
    REQUIRE(merged.size() == 1);
    CHECK(merged[0].label == "CITY");
    CHECK(merged[0].text == "Thursday");
    CHECK(merged[0].score == 0.5f);
}

TEST_CASE("a span that starts inside a word the model left O is a fragment", "[bioes][entities][fragment-start]") {
    const LabelScheme s = format_scheme();
    // "Call the emergency line": only the word-final piece "ency" is marked,
    // its first piece " emerg" is O. Widening would redact "emergency".
    const std::string text = "Call the emergency line";
    const std::vector<ByteRange> tokens{{0, 4}, {4, 8}, {8, 14}, {14, 18}, {18, 23}};
    REQUIRE(text.substr(14, 4) == "ency");
    const std::vector<TokenSpan> ency{{3, 3, kCity, 0.5f, 0.5f}};
    CHECK(locate_entities(text, ency, tokens, s).empty());
    // A span that runs on past the word keeps the words after it.
    const std::vector<TokenSpan> ency_line{{3, 4, kCity, 0.5f, 1.0f}};
    const auto line = locate_entities(text, ency_line, tokens, s);
    REQUIRE(line.size() == 1);
    CHECK(line[0].text == "line");
    CHECK(line[0].start == 19);
    CHECK(line[0].score == 0.5f);  // the span's score, all its tokens

    // Digits are a run too: "4" of "02:14:07" after the O piece "02:1".
    const std::string time = "at 02:14:07 UTC";
    const std::vector<ByteRange> time_tokens{{0, 2}, {2, 5}, {5, 7}, {7, 8}, {8, 11}, {11, 15}};
    const std::vector<TokenSpan> four{{3, 4, kCity, 0.5f, 1.0f}};
    CHECK(locate_entities(time, four, time_tokens, s).empty());

    // After a word's inner punctuation the span keeps the whole word: the
    // phone number of "Tel:0612345678" is not dropped with its O field name.
    const std::string tel = "Tel:0612345678 now";
    const std::vector<ByteRange> tel_tokens{{0, 3}, {3, 4}, {4, 6}, {6, 14}, {14, 18}};
    const std::vector<TokenSpan> phone{{2, 3, kCity, 0.5f, 1.0f}};
    const auto kept = locate_entities(tel, phone, tel_tokens, s);
    REQUIRE(kept.size() == 1);
    CHECK(kept[0].text == "Tel:0612345678");
}

TEST_CASE("an entity does not take the sentence's punctuation after it", "[bioes][entities][sentence-punctuation]") {
    const LabelScheme s = format_scheme();
    // "Call 030 1234567." with the final "." a token of the phone span.
    const std::string text = "Call 030 1234567.";
    const std::vector<ByteRange> tokens{{0, 4}, {4, 8}, {8, 16}, {16, 17}};
    const std::vector<TokenSpan> phone{{1, 3, kCity, 0.5f, 1.5f}};
    const auto found = locate_entities(text, phone, tokens, s);
    REQUIRE(found.size() == 1);
    CHECK(found[0].text == "030 1234567");
    // Inner punctuation stays ("example.com"), only the trailing "," goes; a
    // span of a symbol alone is kept as the model gave it.
    const std::string mail = "Write anna@example.com, please (+)";
    const std::vector<ByteRange> mail_tokens{{0, 5}, {5, 22}, {22, 23}, {23, 30}, {30, 32}, {32, 33}, {33, 34}};
    const std::vector<TokenSpan> address{{1, 2, kCity, 0.5f, 1.0f}, {5, 5, kCity, 0.5f, 0.5f}};
    const auto written = locate_entities(mail, address, mail_tokens, s);
    REQUIRE(written.size() == 2);
    CHECK(written[0].text == "anna@example.com");
    CHECK(written[1].text == "+");
}

TEST_CASE("an entity does not take a bracket or quote it did not open", "[bioes][entities][unpaired-bracket]") {
    const LabelScheme s = format_scheme();
    // "Call (030 1234567)." with "(030" and "1234567)." tokens of the phone span.
    const std::string text = "Call (030 1234567).";
    const std::vector<ByteRange> tokens{{0, 4}, {4, 9}, {9, 19}};
    const std::vector<TokenSpan> phone{{1, 2, kCity, 0.5f, 1.0f}};
    const auto found = locate_entities(text, phone, tokens, s);
    REQUIRE(found.size() == 1);
    CHECK(found[0].text == "030 1234567");
    CHECK(redact_entities(text, found) == "Call ([CITY]).");
    // Quotes and guillemets around a name, a closing bracket the entity opened.
    const std::string quoted = "He said \"Anna\" and \u00ABWeber\u00BB, (415) 555-0132)";
    const std::vector<ByteRange> q_tokens{{0, 2}, {2, 7}, {7, 14}, {14, 18}, {18, 29}, {29, 35}, {35, 45}};
    const std::vector<TokenSpan> q_spans{{2, 2, kCity, 0.5f, 0.5f}, {4, 4, kCity, 0.5f, 0.5f}, {5, 6, kCity, 0.5f, 1.0f}};
    const auto q = locate_entities(quoted, q_spans, q_tokens, s);
    REQUIRE(q.size() == 3);
    CHECK(q[0].text == "Anna");
    CHECK(q[1].text == "Weber");
    CHECK(q[2].text == "(415) 555-0132");
    // Brackets around the whole entity are the sentence's, those inside it
    // stay.
    const std::string inner = "ticket [a(b)c] )";
    const std::vector<ByteRange> i_tokens{{0, 6}, {6, 14}, {14, 15}, {15, 16}};
    const std::vector<TokenSpan> i_spans{{1, 1, kCity, 0.5f, 0.5f}};
    const auto kept = locate_entities(inner, i_spans, i_tokens, s);
    REQUIRE(kept.size() == 1);
    CHECK(kept[0].text == "a(b)c");
}

TEST_CASE("an entity of punctuation alone is dropped", "[bioes][entities][punctuation-only]") {
    const LabelScheme s = format_scheme();
    // "¡Hola Diego!" with "¡" a span of its own before the name's: the "¡"
    // stays in the text, the name is hidden.
    const std::string hola = "\u00A1Hola Diego!";
    const std::vector<ByteRange> tokens{{0, 2}, {2, 6}, {6, 12}, {12, 13}};
    const std::vector<TokenSpan> spans{{0, 0, kCity, 0.5f, 0.5f}, {1, 2, kCity, 0.5f, 1.0f}};
    const auto found = locate_entities(hola, spans, tokens, s);
    REQUIRE(found.size() == 1);
    CHECK(found[0].text == "Hola Diego");
    CHECK(redact_entities(hola, found) == "\u00A1[CITY]!");
    // Dashes, a bracket, an ellipsis and spaces between them: all punctuation,
    // all dropped. A symbol ("+", "\u24B6" circled A) is kept: it may be a letter to the model.
    const std::string marks = "a -- ) \u2026 ( ] b + \u24B6";
    const std::vector<ByteRange> m_tokens{{0, 1}, {1, 4}, {4, 6}, {6, 10}, {10, 12}, {12, 14}, {14, 16}, {16, 18}, {18, 22}};
    const std::vector<TokenSpan> m_spans{{1, 1, kCity, 0.5f, 0.5f}, {2, 5, kCity, 0.5f, 2.0f},
                                         {7, 7, kCity, 0.5f, 0.5f}, {8, 8, kCity, 0.5f, 0.5f}};
    const auto kept = locate_entities(marks, m_spans, m_tokens, s);
    REQUIRE(kept.size() == 2);
    CHECK(kept[0].text == "+");
    CHECK(kept[1].text == "\u24B6");
}
