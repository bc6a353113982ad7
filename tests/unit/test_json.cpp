// JSON reader/writer: the grammar's edges, error reporting, and the two number
// readings (strtod's correctly rounded one, serde_json's reference one).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "common/json/json.hpp"
#include "common/json/serde_f64.hpp"

using bx::json::Kind;
using bx::json::Value;

namespace {

bool parses(std::string_view text, Value& v) {
    bx::json::Error e;
    return bx::json::parse(text, v, e);
}

std::string error_of(std::string_view text) {
    Value v;
    bx::json::Error e;
    REQUIRE_FALSE(bx::json::parse(text, v, e));
    return e.message;
}

std::uint64_t bits(double d) {
    std::uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
}

}  // namespace

TEST_CASE("json: values of every kind, members in source order", "[json]") {
    Value v;
    REQUIRE(parses(R"( {"b": [1, -2.5e3, true, false, null], "a": {"x": "y"}, "b": 0} )", v));
    REQUIRE(v.is(Kind::Object));
    REQUIRE(v.members.size() == 3);
    CHECK(v.members[0].first == "b");
    CHECK(v.members[1].first == "a");
    const Value* b = v.find("b");  // the first "b"
    REQUIRE(b);
    REQUIRE(b->is(Kind::Array));
    CHECK(b->items[0].text == "1");
    CHECK(b->items[1].as_double() == -2500.0);
    CHECK(b->items[2].boolean);
    CHECK_FALSE(b->items[3].boolean);
    CHECK(b->items[4].is(Kind::Null));
    CHECK(v.find("a")->find("x")->text == "y");
    CHECK(v.find("zzz") == nullptr);
}

TEST_CASE("json: string escapes and UTF-8", "[json]") {
    Value v;
    REQUIRE(parses(R"("a\"b\\c\/d\b\f\n\r\t\u00e9\u20AC\ud83d\ude00")", v));
    CHECK(v.text == "a\"b\\c/d\b\f\n\r\t\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
    REQUIRE(parses("\"\xE2\x96\x81x\"", v));  // raw UTF-8 passes through
    CHECK(v.text == "\xE2\x96\x81x");
    REQUIRE(parses(R"("\u0000")", v));
    CHECK(v.text == std::string(1, '\0'));
}

TEST_CASE("json: errors name the problem", "[json]") {
    CHECK(error_of("") == "unexpected end of input, expected a value");
    CHECK(error_of("{\"a\" 1}") == "expected ':' after object key");
    CHECK(error_of("[1,]") == "expected a value");
    CHECK(error_of("[1 2]") == "expected ',' or ']' in array");
    CHECK(error_of("{1:2}") == "expected a string as object key");
    CHECK(error_of("1 2") == "trailing characters after the JSON value");
    CHECK(error_of("01") == "trailing characters after the JSON value");
    CHECK(error_of("1.") == "expected a digit after '.'");
    CHECK(error_of("1e+") == "expected a digit in exponent");
    CHECK(error_of("-") == "expected a digit");
    CHECK(error_of("tru") == "invalid literal");
    CHECK(error_of("\"abc") == "unterminated string");
    CHECK(error_of("\"a\nb\"") == "control character in string");
    CHECK(error_of(R"("\x")") == "invalid escape character");
    CHECK(error_of(R"("\u12G4")") == "invalid hex digit in \\u escape");
    CHECK(error_of(R"("\ud800")") == "lone high surrogate in \\u escape");
    CHECK(error_of(R"("\ud800\u0041")") == "lone high surrogate in \\u escape");
    CHECK(error_of(R"("\udc00")") == "lone low surrogate in \\u escape");
    CHECK(error_of("\"\xC0\xAF\"") == "invalid UTF-8 in string");      // overlong '/'
    CHECK(error_of("\"\xED\xA0\x80\"") == "invalid UTF-8 in string");  // encoded surrogate
    CHECK(error_of("\"\xF4\x90\x80\x80\"") == "invalid UTF-8 in string");  // > U+10FFFF
    CHECK(error_of(std::string(513, '[') + std::string(513, ']')) == "nesting deeper than 512");
    Value v;
    CHECK(parses(std::string(512, '[') + std::string(512, ']'), v));

    bx::json::Error e;
    REQUIRE_FALSE(bx::json::parse("[1, x]", v, e));
    CHECK(e.offset == 4);
}

TEST_CASE("json: integers", "[json]") {
    Value v;
    std::int64_t i = 0;
    REQUIRE(parses("-9223372036854775808", v));
    REQUIRE(v.as_int64(i));
    CHECK(i == INT64_MIN);
    REQUIRE(parses("9223372036854775808", v));
    CHECK_FALSE(v.as_int64(i));
    REQUIRE(parses("3.0", v));
    CHECK_FALSE(v.as_int64(i));
    REQUIRE(parses("\"3\"", v));
    CHECK_FALSE(v.as_int64(i));
}

TEST_CASE("json: writer escapes and float round trip", "[json]") {
    std::string out;
    bx::json::append_string(out, std::string("a\"\\\n\x01\xE2\x96\x81", 8));
    CHECK(out == "\"a\\\"\\\\\\n\\u0001\xE2\x96\x81\"");
    for (float f : {0.0f, -0.0f, 1.0f, -0.5f, 1e-7f, 3.14159274f, 1.17549435e-38f, 1e-45f, 3.40282347e38f,
                    0.1f, 123456789.0f}) {
        out.clear();
        bx::json::append_float(out, f);
        float back = std::strtof(out.c_str(), nullptr);
        CHECK(std::memcmp(&back, &f, 4) == 0);
    }
    out.clear();
    bx::json::append_float(out, 1e-7f);
    CHECK(out == "1e-07");
    out.clear();
    bx::json::append_float(out, std::nanf(""));
    CHECK(out == "null");
}

TEST_CASE("json: serde_json's number reading, not strtod's", "[json]") {
    double d = 0;
    // Exact f32 values printed with 17 digits: serde_json (default features)
    // rounds the 17-digit significand to f64, then divides by 1e16.
    REQUIRE(bx::json::serde_json_f64("-3.2588272094726562", d));
    CHECK(bits(d) == bits(-3.258827209472656));
    CHECK(bits(d) != bits(std::strtod("-3.2588272094726562", nullptr)));
    REQUIRE(bx::json::serde_json_f64("-7.4037251472473145", d));
    CHECK(bits(d) == bits(-7.403725147247315));
    // Short texts agree with strtod.
    for (const char* s : {"0.0", "-1.5", "12.25", "-10.0", "1e3", "2.5E-3", "-0"}) {
        REQUIRE(bx::json::serde_json_f64(s, d));
        CHECK(d == std::strtod(s, nullptr));
    }
    REQUIRE(bx::json::serde_json_f64("-0", d));
    CHECK_FALSE(std::signbit(d));  // the integer 0
    REQUIRE(bx::json::serde_json_f64("-0.0", d));
    CHECK(std::signbit(d));
    CHECK_FALSE(bx::json::serde_json_f64("1e400", d));  // out of range, as serde_json
    REQUIRE(bx::json::serde_json_f64("1e-400", d));
    CHECK(d == 0.0);
    CHECK_FALSE(bx::json::serde_json_f64("01", d));
    CHECK_FALSE(bx::json::serde_json_f64("1.", d));
}
