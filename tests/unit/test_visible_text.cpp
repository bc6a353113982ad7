// What the model reads of a text with characters that render as nothing, and
// how entities found there land back on the text as sent
// (common/service/visible_text.hpp, common/text/ignorable.hpp).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "common/service/visible_text.hpp"
#include "common/text/ignorable.hpp"

using bx::service::ByteRange;
using bx::service::Entity;
using bx::service::VisibleText;

namespace {

// The entity covering `part` of the visible text, as found there.
Entity entity_on(std::string_view visible, std::string_view part, const char* label) {
    const std::size_t at = visible.find(part);
    REQUIRE(at != std::string_view::npos);
    Entity e;
    e.label = label;
    e.bytes = {at, at + part.size()};
    e.text = std::string(part);
    return e;
}

}  // namespace

TEST_CASE("ignorable: Default_Ignorable_Code_Point, nothing else", "[ignorable]") {
    for (char32_t c : {U'\u00AD', U'\u034F', U'\u200B', U'\u200C', U'\u200D', U'\u2060', U'\uFEFF',
                       U'\u202E', U'\u2066', U'\uFE0F', U'\U000E0041', U'\U000E0100', U'\u3164'}) {
        INFO(static_cast<std::uint32_t>(c));
        CHECK(bx::text::is_default_ignorable(c));
    }
    // Visible, or white space: a reader sees them, so the model must read them.
    for (char32_t c : {U'a', U' ', U'\t', U'\u00A0', U'\u00AC', U'\u00AE', U'\u0301', U'\u2009', U'\u2010',
                       U'\u3000', U'\uFFFD', U'\U0001F600'}) {
        INFO(static_cast<std::uint32_t>(c));
        CHECK_FALSE(bx::text::is_default_ignorable(c));
    }
}

TEST_CASE("visible text: ignorable characters removed, nothing else", "[ignorables]") {
    const VisibleText plain("Call Anna Weber on 030 1234567.");
    CHECK_FALSE(plain.removed_any());
    CHECK(plain.text() == "Call Anna Weber on 030 1234567.");

    const VisibleText hidden("Call An\u200Bna We\u00ADber on 030\u2060 1234567.\uFEFF");
    CHECK(hidden.removed_any());
    CHECK(hidden.text() == "Call Anna Weber on 030 1234567.");

    CHECK(VisibleText("\u200B\u200C\u200D").text().empty());
    CHECK(VisibleText("Zo\u00EB \u0301").text() == "Zo\u00EB \u0301");  // marks are visible
}

TEST_CASE("visible text: an entity covers the ignorable characters inside it and at its edges", "[ignorables]") {
    // "\u00AD" is two bytes, "\u200B" three.
    const std::string text = "Call \u200BAn\u00ADna\u00AD We\u200B\u200Bber\u2060 now.";
    const VisibleText visible(text);
    REQUIRE(visible.text() == "Call Anna Weber now.");
    std::vector<Entity> entities{entity_on(visible.text(), "Anna", "GIVEN_NAME"),
                                 entity_on(visible.text(), "Weber", "SURNAME")};
    visible.map_to_original(entities);
    REQUIRE(entities.size() == 2);
    CHECK(entities[0].text == "\u200BAn\u00ADna\u00AD");
    CHECK(entities[0].start == 5);
    CHECK(entities[0].end == 12);
    CHECK(entities[1].text == "We\u200B\u200Bber\u2060");
    CHECK(entities[1].start == 13);
    CHECK(entities[1].end == 21);
    CHECK(text.substr(entities[1].bytes.begin, entities[1].bytes.end - entities[1].bytes.begin) == entities[1].text);
}

TEST_CASE("visible text: touching entities share no character", "[ignorables]") {
    const std::string text = "x Anna\u200BWeber y";
    const VisibleText visible(text);
    std::vector<Entity> entities{entity_on(visible.text(), "Anna", "GIVEN_NAME"),
                                 entity_on(visible.text(), "Weber", "SURNAME")};
    visible.map_to_original(entities);
    CHECK(entities[0].text == "Anna\u200B");
    CHECK(entities[1].text == "Weber");
    CHECK(entities[0].bytes.end == entities[1].bytes.begin);
}

TEST_CASE("visible text: a token's exact range leaves the edges alone", "[ignorables]") {
    const std::string text = "\u200BAn\u00ADna\u200B";
    const VisibleText visible(text);
    const ByteRange exact = visible.exact({0, 4});
    CHECK(text.substr(exact.begin, exact.end - exact.begin) == "An\u00ADna");
    const ByteRange covering = visible.covering({0, 4});
    CHECK(covering.begin == 0);
    CHECK(covering.end == text.size());
}
