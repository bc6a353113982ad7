// Where words start and end (common/text/words.hpp): what an entity may not cut.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "common/text/range_table.hpp"
#include "common/text/words.hpp"

using bx::words::WordMap;

namespace {

// The words of `text`, as strings.
std::vector<std::string> words_of(const std::string& text) {
    std::vector<std::string> out;
    const WordMap map(text);
    for (const auto& w : map.words()) out.push_back(text.substr(w.begin, w.end - w.begin));
    return out;
}

// `part` of `text` widened to whole words.
std::string widened(const std::string& text, const std::string& part) {
    std::size_t begin = text.find(part);
    REQUIRE(begin != std::string::npos);
    std::size_t end = begin + part.size();
    WordMap(text).widen_to_words(begin, end);
    return text.substr(begin, end - begin);
}

using Words = std::vector<std::string>;

}  // namespace

TEST_CASE("words: split at spaces, sentence punctuation left out", "[words]") {
    CHECK(words_of("Call the emergency line, (030) 1234567.") ==
          Words{"Call", "the", "emergency", "line", "030", "1234567"});
    CHECK(words_of("  \t\n") == Words{});
    CHECK(words_of("-- ... --") == Words{});
    // NBSP and the ideographic space are White_Space too.
    CHECK(words_of("Anna\xC2\xA0Weber\xE3\x80\x80Paris") == Words{"Anna", "Weber", "Paris"});
}

TEST_CASE("words: punctuation inside a run of non-space characters belongs to the word", "[words]") {
    CHECK(words_of("Write to anna.weber@example.com.") == Words{"Write", "to", "anna.weber@example.com"});
    CHECK(words_of("see <https://example.com/a?b=c>!") == Words{"see", "https://example.com/a?b=c"});
    CHECK(words_of("Jean-Pierre O'Brien, 123-4567") == Words{"Jean-Pierre", "O'Brien", "123-4567"});
    CHECK(words_of("IBAN DE89 3704 0044") == Words{"IBAN", "DE89", "3704", "0044"});
    CHECK(words_of("+49 30 1234567") == Words{"49", "30", "1234567"});
}

TEST_CASE("words: marks stay with their letter", "[words]") {
    CHECK(words_of("Zoe\xCC\x81 Mu\xCC\x88ller") == Words{"Zoe\xCC\x81", "Mu\xCC\x88ller"});  // combining accents
}

TEST_CASE("words: in scripts without spaces every character is a word", "[words]") {
    // 東京都に住む: Han and Hiragana, one word per character.
    CHECK(words_of("\xE6\x9D\xB1\xE4\xBA\xAC\xE9\x83\xBD\xE3\x81\xAB") ==
          Words{"\xE6\x9D\xB1", "\xE4\xBA\xAC", "\xE9\x83\xBD", "\xE3\x81\xAB"});
    // Latin beside Han splits at the script change.
    CHECK(words_of("abc\xE6\x9D\xB1" "def") == Words{"abc", "\xE6\x9D\xB1", "def"});
    // Thai: a vowel sign (a mark) stays with its consonant: วั is one word.
    CHECK(words_of("\xE0\xB8\xA7\xE0\xB8\xB1\xE0\xB8\xAA") == Words{"\xE0\xB8\xA7\xE0\xB8\xB1", "\xE0\xB8\xAA"});
}

TEST_CASE("words: inside() is true strictly inside a word only", "[words]") {
    const std::string text = "ab, cd";
    const WordMap map(text);
    CHECK_FALSE(map.inside(0));  // before "ab"
    CHECK(map.inside(1));        // a|b
    CHECK_FALSE(map.inside(2));  // ab|,
    CHECK_FALSE(map.inside(3));  // ,| 
    CHECK_FALSE(map.inside(4));  // before "cd"
    CHECK(map.inside(5));
    CHECK_FALSE(map.inside(6));  // the end
    CHECK_FALSE(map.inside(99));
}

TEST_CASE("words: first_from() and class_before()", "[words]") {
    const std::string text = "ab, c\xC3\xA9 d";  // "ab, cé d"
    const WordMap map(text);
    REQUIRE(map.first_from(0) != nullptr);
    CHECK(map.first_from(0)->begin == 0);
    CHECK(map.first_from(1)->begin == 4);   // the next word that starts at or after a|b
    CHECK(map.first_from(4)->begin == 4);
    CHECK(map.first_from(5)->begin == 8);
    CHECK(map.first_from(9) == nullptr);
    CHECK(bx::words::class_before(text, 0) == bx::words::WordClass::Other);
    CHECK(bx::words::class_before(text, 1) == bx::words::WordClass::Letter);  // a
    CHECK(bx::words::class_before(text, 3) == bx::words::WordClass::Punctuation);  // ,
    CHECK(bx::words::class_before(text, 4) == bx::words::WordClass::Space);
    CHECK(bx::words::class_before(text, 7) == bx::words::WordClass::Letter);  // é, two bytes back
    CHECK(bx::words::class_before(text, 99) == bx::words::WordClass::Other);
}

TEST_CASE("words: a range that cuts a word is widened to all of it", "[words]") {
    CHECK(widened("Call the emergency line", "ency") == "emergency");
    CHECK(widened("Call the emergency line", "the emer") == "the emergency");
    CHECK(widened("Ask Anna Weber today", "Anna Web") == "Anna Weber");
    CHECK(widened("Mail anna.weber@example.com.", "weber@exa") == "anna.weber@example.com");
    CHECK(widened("Ask Anna Weber today", "Anna") == "Anna");  // already whole: unchanged
    CHECK(widened("Call (030) 1234", "030") == "030");        // brackets are not part of it
}

TEST_CASE("words: the ASCII shortcut of class_of() agrees with the generated table", "[words][ascii-shortcut]") {
    // class_of() answers ASCII from a hand-written list (most text is ASCII);
    // the table, generated from Unicode's data, is the authority.
    for (char32_t c = 0; c < 0x80; ++c) {
        const bx::words::WordClass table = bx::text::lookup_range(
            bx::words::kWordClassRanges, bx::words::kWordClassRangeCount, c, bx::words::WordClass::Other);
        INFO("code point " << static_cast<unsigned>(c));
        CHECK(bx::words::class_of(c) == table);
    }
}
