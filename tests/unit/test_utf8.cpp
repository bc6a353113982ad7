// UTF-8 validation, decoding, offset tables and grapheme clusters.
#include <catch2/catch.hpp>

#include <string>

#include "common/text/grapheme.hpp"
#include "common/text/utf8.hpp"

namespace utf8 = bx::utf8;

TEST_CASE("utf8: well-formed and ill-formed sequences", "[utf8]") {
    CHECK(utf8::is_valid(""));
    CHECK(utf8::is_valid("plain ascii"));
    CHECK(utf8::is_valid("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"));          // é € 😀
    CHECK(utf8::is_valid("\xEF\xBF\xBF\xF4\x8F\xBF\xBF"));                  // U+FFFF, U+10FFFF
    CHECK_FALSE(utf8::is_valid("\x80"));                                     // lone continuation
    CHECK_FALSE(utf8::is_valid("\xC3"));                                     // truncated
    CHECK_FALSE(utf8::is_valid("\xC0\x80"));                                 // overlong NUL
    CHECK_FALSE(utf8::is_valid("\xE0\x9F\xBF"));                             // overlong 3-byte
    CHECK_FALSE(utf8::is_valid("\xF0\x8F\xBF\xBF"));                         // overlong 4-byte
    CHECK_FALSE(utf8::is_valid("\xED\xA0\x80"));                             // surrogate
    CHECK_FALSE(utf8::is_valid("\xF4\x90\x80\x80"));                         // > U+10FFFF
    CHECK_FALSE(utf8::is_valid("\xF5\x80\x80\x80"));
    CHECK_FALSE(utf8::is_valid("a\xE2\x82"));                                // truncated at end
    CHECK(utf8::valid_sequence_length("\xE2\x96\x81rest") == 3);
}

TEST_CASE("utf8: decode and append round trip", "[utf8]") {
    for (char32_t c : {U'\0', U'A', U'\u00E9', U'\u07FF', U'\u0800', U'\u2581', U'\uFFFF', U'\U00010000',
                       U'\U0001F600', U'\U0010FFFF'}) {
        std::string s;
        utf8::append(s, c);
        CHECK(s.size() == utf8::encoded_length(c));
        CHECK(utf8::is_valid(s));
        std::size_t i = 0;
        CHECK(utf8::decode(s, i) == c);
        CHECK(i == s.size());
    }
}

TEST_CASE("utf8: byte offsets to code points and UTF-16 units", "[utf8]") {
    const std::string s = "a\xC3\xA9\xF0\x9F\x98\x80z";  // a é 😀 z: bytes 0,1,3,7
    auto cp = utf8::code_point_offset_table(s);
    auto u16 = utf8::utf16_offset_table(s);
    REQUIRE(cp.size() == s.size() + 1);
    CHECK(cp[0] == 0);
    CHECK(cp[1] == 1);
    CHECK(cp[3] == 2);
    CHECK(cp[7] == 3);
    CHECK(cp[8] == 4);
    CHECK(u16[7] == 4);  // the emoji is two UTF-16 units
    CHECK(u16[8] == 5);
    CHECK(utf8::count_code_points(s) == 4);
}

namespace {

// The clusters of `s`, as lengths in bytes.
std::vector<std::size_t> clusters(std::string_view s) {
    std::vector<std::size_t> lengths;
    for (std::size_t at = 0; at < s.size();) {
        std::size_t end = bx::grapheme::cluster_end(s, at);
        lengths.push_back(end - at);
        at = end;
    }
    return lengths;
}

}  // namespace

TEST_CASE("grapheme: UAX #29 rules", "[utf8]") {
    using V = std::vector<std::size_t>;
    CHECK(clusters("ab") == V{1, 1});
    CHECK(clusters("\r\n") == V{2});                                  // GB3
    CHECK(clusters("\n\xCC\x81") == V{1, 2});                         // GB4: nothing joins a control
    CHECK(clusters("e\xCC\x81x") == V{3, 1});                         // GB9: e + U+0301
    CHECK(clusters("\xE0\xA4\x95\xE0\xA4\xBE") == V{6});              // क + ा (SpacingMark, GB9a)
    CHECK(clusters("\xD8\x80" "a") == V{3});                          // U+0600 Prepend (GB9b)
    CHECK(clusters("\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8") == V{9});   // L V T jamo (GB6-8)
    CHECK(clusters("\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9") == V{11});  // 👨‍👩 (GB11)
    CHECK(clusters("\xF0\x9F\x87\xAB\xF0\x9F\x87\xB7\xF0\x9F\x87\xA9") == V{8, 4});  // 🇫🇷🇩 (GB12/13)
    CHECK(clusters("\xC2\xAD\xCC\x81") == V{2, 2});                   // soft hyphen is a control
    // GB9c: consonant + virama + consonant (क्क), but not without the virama.
    CHECK(clusters("\xE0\xA4\x95\xE0\xA5\x8D\xE0\xA4\x95") == V{9});
    CHECK(clusters("\xE0\xA4\x95\xE0\xA4\x95") == V{3, 3});
}
