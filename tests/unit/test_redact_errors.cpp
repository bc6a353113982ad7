// Every way POST /redact refuses a request: status and message, decided by the
// pure request check (no HTTP, no tokenizer, no model).
#include <catch2/catch.hpp>

#include "common/text/utf8.hpp"

#include <string>

#include "common/service/redact_request.hpp"
#include "common/service/service_error.hpp"

using bx::service::check_text;
using bx::service::error_json;
using bx::service::kDefaultMinScore;
using bx::service::kMaxTextBytes;
using bx::service::parse_redact_request;
using bx::service::RedactRequest;

namespace {

constexpr const char* kJson = "application/json";

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

// A body {"text": "<n x 'a'>"}.
std::string body_with_text_of(std::size_t n) { return "{\"text\":\"" + std::string(n, 'a') + "\"}"; }

// The body is refused with 400 and exactly this message.
void check_refused(const std::string& body, const std::string& message) {
    INFO(body);
    const RedactRequest r = parse_redact_request(kJson, body);
    CHECK(r.error.status == 400);
    CHECK(r.error.message == message);
    CHECK(r.text.empty());  // a refused request carries no text
}

}  // namespace

TEST_CASE("a well-formed request passes", "[redact][errors]") {
    const RedactRequest r = parse_redact_request(kJson, R"({"text": "Call Anna on 030 1234567"})");
    CHECK(r.error.status == 0);
    CHECK(r.text == "Call Anna on 030 1234567");

    // Escapes are decoded; other members are ignored.
    const RedactRequest e = parse_redact_request(kJson, R"({"x":1,"text":"Zo\u00eb\n"})");
    CHECK(e.error.status == 0);
    CHECK(e.text == "Zo\xC3\xAB\n");

    // A key given twice is refused and named: readers differ on which value wins.
    const RedactRequest twice = parse_redact_request(kJson, R"({"text":"ok","text":"Anna Weber"})");
    CHECK(twice.error.status == 400);
    CHECK(twice.error.message == "the key \"text\" appears more than once in the request body; send it once");
    CHECK(twice.text.empty());
    CHECK(parse_redact_request(kJson, R"({"text":"ok","a":1,"b":2,"a":3})").error.status == 400);

    // More values than the budget: 413, before more are built.
    std::string many = R"({"text":"x","pad":[)";
    for (std::size_t i = 0; i < bx::service::kMaxBodyValues; ++i) many += i ? ",0" : "0";
    many += "]}";
    const RedactRequest big = parse_redact_request(kJson, many);
    CHECK(big.error.status == 413);
    CHECK(big.error.message.rfind("request body holds more than 65536 JSON values", 0) == 0);

    CHECK(parse_redact_request(kJson, R"({"text": ""})").error.status == 0);
}

TEST_CASE("Content-Type: JSON or nothing, else 415", "[redact][errors]") {
    for (const char* ok : {"", "application/json", "Application/JSON", " application/json ; charset=UTF-8",
                           "application/json;charset=\"utf-8\"", "application/ld+json",
                           "application/json; foo=bar"}) {
        INFO(ok);
        CHECK(parse_redact_request(ok, R"({"text":"x"})").error.status == 0);
    }
    const RedactRequest plain = parse_redact_request("text/plain", R"({"text":"x"})");
    CHECK(plain.error.status == 415);
    CHECK(plain.error.message ==
          "Content-Type must be application/json (got \"text/plain\"); with curl, add -H "
          "'Content-Type: application/json'");

    CHECK(parse_redact_request("application/x-www-form-urlencoded", "text=x").error.status == 415);
    CHECK(parse_redact_request("application/jsonx", "{}").error.status == 415);
    // Quoted, the value is cut on a character and bad bytes become U+FFFD:
    // the message stays valid UTF-8 (79 x 'a', then a 2-byte 'é' that would
    // straddle the 80-byte cut, and a stray byte before it).
    const RedactRequest cut = parse_redact_request(std::string(78, 'a') + "\xFF\xC3\xA9", "{}");
    CHECK(cut.error.status == 415);
    CHECK(bx::utf8::is_valid(cut.error.message));
    CHECK(cut.error.message.find(std::string(78, 'a') + "\xEF\xBF\xBD...") != std::string::npos);
    CHECK(parse_redact_request("application/+json", "{}").error.status == 415);
    CHECK(parse_redact_request("text/json+xml", "{}").error.status == 415);

    const RedactRequest latin = parse_redact_request("application/json; charset=latin1", R"({"text":"x"})");
    CHECK(latin.error.status == 415);
    CHECK(latin.error.message == "Content-Type charset must be utf-8 (got \"latin1\")");

    // A huge header value is shown cut short.
    const RedactRequest huge = parse_redact_request(std::string(10000, 'x'), "{}");
    CHECK(huge.error.status == 415);
    CHECK(huge.error.message.size() < 200);
}

TEST_CASE("invalid UTF-8 in the body is 400, with the byte", "[redact][errors]") {
    const RedactRequest r = parse_redact_request(kJson, "{\"text\":\"ab\xFF\"}");
    CHECK(r.error.status == 400);
    CHECK(r.error.message ==
          "request body is not valid UTF-8 (first bad byte at line 1, column 12 (byte 11))");

    // Outside a string too, and a lone surrogate encoded in UTF-8.
    CHECK(parse_redact_request(kJson, "\xC0\x80{}").error.status == 400);
    const RedactRequest s = parse_redact_request(kJson, "{\"text\":\"\xED\xA0\x80\"}");
    CHECK(s.error.status == 400);
    CHECK(contains(s.error.message, "not valid UTF-8"));
}

TEST_CASE("invalid JSON is 400, with where", "[redact][errors]") {
    const RedactRequest r = parse_redact_request(kJson, "{\n  \"text\" \"x\"}");
    CHECK(r.error.status == 400);
    CHECK(contains(r.error.message, "request body is not valid JSON: "));
    CHECK(contains(r.error.message, " at line 2, column 10 (byte 11)"));

    for (const char* bad : {"", "   ", "{", "{\"text\":\"x\"} trailing", "{'text':'x'}",
                            "{\"text\":\"\\ud800\"}", "{\"text\":\"tab\there\"}"}) {
        INFO(bad);
        const RedactRequest b = parse_redact_request(kJson, bad);
        CHECK(b.error.status == 400);
        CHECK(contains(b.error.message, "request body is not valid JSON: "));
    }
}

TEST_CASE("the JSON must be an object with a string \"text\"", "[redact][errors]") {
    const RedactRequest array = parse_redact_request(kJson, R"(["text"])");
    CHECK(array.error.status == 400);
    CHECK(array.error.message == "request body must be a JSON object {\"text\": \"...\"}, got an array");
    CHECK(parse_redact_request(kJson, R"("text")").error.message ==
          "request body must be a JSON object {\"text\": \"...\"}, got a string");

    const RedactRequest missing = parse_redact_request(kJson, R"({"txt":"x"})");
    CHECK(missing.error.status == 400);
    CHECK(missing.error.message == "missing \"text\": the body must be {\"text\": \"...\"}");
    CHECK(parse_redact_request(kJson, "{}").error.status == 400);

    const std::pair<const char*, const char*> wrong[] = {
        {R"({"text":42})", "a number"},      {R"({"text":null})", "null"},
        {R"({"text":true})", "a boolean"},   {R"({"text":["x"]})", "an array"},
        {R"({"text":{"t":"x"}})", "an object"},
    };
    for (const auto& [body, kind] : wrong) check_refused(body, std::string("\"text\" must be a string, got ") + kind);
}

TEST_CASE("\"min_score\" is optional, a number from 0 to 1", "[redact][errors]") {
    CHECK(parse_redact_request(kJson, R"({"text":"x"})").min_score == kDefaultMinScore);
    CHECK(kDefaultMinScore == 0.5f);
    const std::pair<const char*, float> fine[] = {
        {R"({"text":"x","min_score":0})", 0.0f},     {R"({"text":"x","min_score":1})", 1.0f},
        {R"({"min_score":0.25,"text":"x"})", 0.25f}, {R"({"text":"x","min_score":-0.0})", 0.0f},
        {R"({"text":"x","min_score":5e-1})", 0.5f},
    };
    for (const auto& [body, value] : fine) {
        INFO(body);
        const RedactRequest r = parse_redact_request(kJson, body);
        CHECK(r.error.status == 0);
        CHECK(r.min_score == value);
        CHECK(r.text == "x");
    }
    const std::pair<const char*, const char*> wrong[] = {
        {R"({"text":"x","min_score":"0.5"})", "a string"}, {R"({"text":"x","min_score":null})", "null"},
        {R"({"text":"x","min_score":true})", "a boolean"}, {R"({"text":"x","min_score":[0]})", "an array"},
        {R"({"text":"x","min_score":1.5})", "1.5"},        {R"({"text":"x","min_score":-0.1})", "-0.1"},
        {R"({"text":"x","min_score":1e999})", "1e999"},
    };
    for (const auto& [body, got] : wrong) {
        check_refused(body, std::string("\"min_score\" must be a number from 0 to 1, got ") + got);
    }
    // A huge number is cut short in the message.
    const RedactRequest huge = parse_redact_request(kJson, "{\"text\":\"x\",\"min_score\":" + std::string(500, '9') + "}");
    CHECK(huge.error.status == 400);
    CHECK(huge.error.message.size() < 200);
    // The text's own errors come first.
    CHECK(parse_redact_request(kJson, R"({"min_score":7})").error.message ==
          "missing \"text\": the body must be {\"text\": \"...\"}");
}

TEST_CASE("text over 64 KiB is 413; exactly 64 KiB is fine", "[redact][errors]") {
    CHECK(kMaxTextBytes == 65536);
    CHECK(parse_redact_request(kJson, body_with_text_of(kMaxTextBytes)).error.status == 0);
    const RedactRequest r = parse_redact_request(kJson, body_with_text_of(kMaxTextBytes + 1));
    CHECK(r.error.status == 413);
    CHECK(r.error.message == "text is 65537 bytes of UTF-8; the limit is 65536 bytes (64 KiB)");
    CHECK(r.text.empty());

    // The limit is on the decoded text, not the body: escapes do not count twice.
    std::string escaped = "{\"text\":\"";
    for (std::size_t i = 0; i < kMaxTextBytes; ++i) escaped += "\\u0061";
    escaped += "\"}";
    CHECK(parse_redact_request(kJson, escaped).error.status == 0);
}

TEST_CASE("plain text (the harness's stdin) gets the same checks", "[redact][errors]") {
    CHECK(check_text("fine").status == 0);
    CHECK(check_text("bad \xC3(").status == 400);
    CHECK(check_text("bad \xC3(").message == "text is not valid UTF-8 (first bad byte at offset 4)");
    CHECK(check_text(std::string(kMaxTextBytes + 1, 'a')).status == 413);
}

TEST_CASE("errors are written like the router's", "[redact][errors]") {
    CHECK(error_json({400, "missing \"text\"\n"}) ==
          "{\"error\":{\"status\":400,\"message\":\"missing \\\"text\\\"\\n\"}}");
}
