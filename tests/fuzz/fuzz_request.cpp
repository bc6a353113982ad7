// Fuzz target: the whole request path, from a method, a path, a Content-Type
// and raw body bytes to the response (common/service: router, validation,
// tokenizer, windowing, label decoding, entity placement, JSON). Everything is
// the service's real code with the last stage's real tokenizer, except the
// forward pass: a cheap deterministic stub, defined here and only here, so that
// thousands of requests a second go through.
//
// Input layout: byte 0 picks the method, byte 1 the path (the last choice
// takes the path from the input, up to the first '\n'), byte 2 the
// Content-Type (or none); the rest is the body.
//
// Properties of every answer:
//   - a status the service documents (200, 204, 400, 404, 405, 413, 415; never
//     a 500: the tokenizer and the model are the embedded ones); no body for
//     204 (OPTIONS) and HEAD; Cache-Control: no-store on every /redact answer;
//   - Content-Type with charset=utf-8 and nosniff, a body of valid UTF-8;
//   - an error body is {"error": {"status": <the status>, "message": "..."}};
//   - a 200 from POST /redact: every entity's text is the request text's code
//     points [start, end), entities are in order and apart, every score is in
//     [0, 1], no entity starts or ends inside a word (common/text/words.hpp),
//     and "redacted" is the text with each entity replaced by [LABEL].
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/http/http.hpp"
#include "common/json/json.hpp"
#include "common/service/router.hpp"
#include "common/stage/stage.hpp"
#include "common/text/utf8.hpp"
#include "common/text/words.hpp"
#include "fuzz_support.hpp"

// ---- the stage: the last stage's tokenizer, a stub forward pass ----------------
// (CMake compiles the last stage's tokenizer with bx::stage renamed
// bx::BX_LAST_NS, so this program can define bx::stage itself.)
namespace bx::BX_LAST_NS {
std::shared_ptr<const bx::Tokenizer> load_tokenizer(std::string* error);
std::unique_ptr<bx::Tokenizer> load_tokenizer_from_json(std::string_view json, std::string* error);
}  // namespace bx::BX_LAST_NS

namespace bx::stage {

std::string_view name() { return "fuzz-stub"; }

// The last stage's tokenizer, loaded once and shared by every request (the
// interface hands out a shared, const tokenizer): loading reads only embedded
// data, never the request, and the tokenizer and blob targets fuzz it on their own.
std::shared_ptr<const bx::Tokenizer> load_tokenizer(std::string* error) {
    static const std::shared_ptr<const bx::Tokenizer> loaded = bx::BX_LAST_NS::load_tokenizer(error);
    return loaded;
}

std::unique_ptr<bx::Tokenizer> load_tokenizer_from_json(std::string_view json, std::string* error) {
    return bx::BX_LAST_NS::load_tokenizer_from_json(json, error);
}

// Each real position gets one label chosen by its token id (so a word is
// labelled the same in every window), about one in three not O, in no BIOES
// order: decoding must cope with any sequence. Rows past `live` are NaN:
// stages may leave them unwritten, so the service must never read them.
void forward(const bx::ModelView& model, const std::int32_t* ids, int live, float* logits, bx::Profile&) {
    const int labels = bx::kLabels;
    (void)model;
    for (int row = 0; row < bx::kWindow; ++row) {
        float* out = logits + static_cast<std::size_t>(row) * labels;
        if (row >= live) {
            for (int l = 0; l < labels; ++l) out[l] = std::numeric_limits<float>::quiet_NaN();
            continue;
        }
        const std::uint32_t h = static_cast<std::uint32_t>(ids[row]) * 2654435761u;
        const int chosen = (h >> 28) < 5 ? static_cast<int>((h >> 8) % labels) : 0;
        for (int l = 0; l < labels; ++l) out[l] = l == chosen ? 6.0f : static_cast<float>((h >> (l % 24)) & 3) * 0.25f;
    }
}

}  // namespace bx::stage

// ---- the input -------------------------------------------------------------------
namespace {

constexpr std::string_view kMethods[] = {"POST", "GET", "PUT", "HEAD", "OPTIONS", "DELETE", "post"};
constexpr std::string_view kPaths[] = {"/redact", "/ping", "/", "/page.js", "/page.css", "/redact?x=1", "/nope"};
constexpr std::string_view kContentTypes[] = {"application/json",
                                              "application/json; charset=utf-8",
                                              "APPLICATION/JSON;CHARSET=UTF-8",
                                              "application/problem+json",
                                              "application/json; charset=latin1",
                                              "text/plain",
                                              "application/x-www-form-urlencoded"};
constexpr std::size_t kNoContentType = std::size(kContentTypes);

bx::http::Request request_from(std::string_view input) {
    bx::http::Request request;
    const auto byte = [&](std::size_t i) -> std::size_t { return i < input.size() ? static_cast<unsigned char>(input[i]) : 0; };
    request.method = std::string(kMethods[byte(0) % std::size(kMethods)]);
    const std::size_t path_choice = byte(1) % (std::size(kPaths) + 1);
    const std::size_t content_type = byte(2) % (kNoContentType + 1);
    std::string_view rest = input.size() > 3 ? input.substr(3) : std::string_view();
    if (path_choice < std::size(kPaths)) {
        request.path = std::string(kPaths[path_choice]);
    } else {
        // A path of the input's own: wasi:http hands the component a string, so
        // only valid UTF-8 arrives; other bytes are replaced.
        const std::size_t newline = rest.find('\n');
        std::string_view raw = rest.substr(0, newline);
        rest = newline == std::string_view::npos ? std::string_view() : rest.substr(newline + 1);
        request.path = "/";
        for (std::size_t i = 0; i < raw.size();) {
            const std::size_t n = bx::utf8::valid_sequence_length(raw.substr(i));
            request.path += n ? std::string(raw.substr(i, n)) : std::string("?");
            i += n ? n : 1;
        }
    }
    if (content_type != kNoContentType) request.headers.emplace_back("Content-Type", std::string(kContentTypes[content_type]));
    request.body = std::string(rest);
    return request;
}

// ---- the properties ----------------------------------------------------------------
using bx::fuzz::fail;
using bx::fuzz::require;

// Byte offset of each code point boundary (size + 1 entries).
std::vector<std::size_t> code_point_starts(std::string_view text) {
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
    }
    starts.push_back(text.size());
    return starts;
}

void check_redaction(const bx::http::Request& request, const bx::json::Value& answer) {
    bx::json::Value body;
    bx::json::Error error;
    require(bx::json::parse(request.body, body, error), "200 for a body that is not JSON");
    const bx::json::Value* text_member = body.find("text");
    require(text_member && text_member->is(bx::json::Kind::String), "200 without a \"text\" string");
    const std::string& text = text_member->text;
    const std::vector<std::size_t> starts = code_point_starts(text);
    const std::size_t code_points = starts.size() - 1;

    const bx::json::Value* redacted = answer.find("redacted");
    const bx::json::Value* entities = answer.find("entities");
    require(redacted && redacted->is(bx::json::Kind::String), "no \"redacted\" string");
    require(entities && entities->is(bx::json::Kind::Array), "no \"entities\" array");

    const bx::words::WordMap words(text);
    std::string expected;
    std::int64_t previous_end = 0;
    for (const bx::json::Value& entity : entities->items) {
        const bx::json::Value* label = entity.find("label");
        const bx::json::Value* start = entity.find("start");
        const bx::json::Value* end = entity.find("end");
        const bx::json::Value* piece = entity.find("text");
        const bx::json::Value* score = entity.find("score");
        std::int64_t s = -1, e = -1;
        require(label && label->is(bx::json::Kind::String) && !label->text.empty(), "an entity without a label");
        require(start && start->as_int64(s) && end && end->as_int64(e), "an entity without integer start/end");
        require(previous_end <= s && s < e && static_cast<std::size_t>(e) <= code_points,
                "entity [" + std::to_string(s) + ", " + std::to_string(e) + ") out of order or out of the text (" +
                    std::to_string(code_points) + " code points)");
        const std::size_t byte_begin = starts[static_cast<std::size_t>(s)], byte_end = starts[static_cast<std::size_t>(e)];
        const std::string_view covered = std::string_view(text).substr(byte_begin, byte_end - byte_begin);
        require(piece && piece->is(bx::json::Kind::String) && piece->text == covered,
                "entity text \"" + (piece ? piece->text : std::string()) + "\" is not text[start:end] \"" +
                    std::string(covered) + "\"");
        require(!words.inside(byte_begin) && !words.inside(byte_end),
                "an entity starts or ends inside a word: \"" + std::string(covered) + "\"");
        require(score && score->is(bx::json::Kind::Number) && score->as_double() >= 0.0 && score->as_double() <= 1.0,
                "an entity score that is not a number in [0, 1]");
        expected += text.substr(starts[static_cast<std::size_t>(previous_end)],
                                byte_begin - starts[static_cast<std::size_t>(previous_end)]);
        expected += "[" + label->text + "]";
        previous_end = e;
    }
    expected += text.substr(starts[static_cast<std::size_t>(previous_end)]);
    require(redacted->text == expected, "\"redacted\" is not the text with each entity replaced by its label");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    bx::fuzz::write_seeds_if_asked([](std::vector<std::string>& seeds) {
        // POST /redact with JSON, each hand-written text; then one of each
        // route, Content-Type and refusal.
        for (const std::string& body : bx::fuzz::handwritten_request_bodies()) seeds.push_back(std::string("\x00\x00\x00", 3) + body);
        for (std::size_t m = 0; m < std::size(kMethods); ++m) {
            for (std::size_t p = 0; p <= std::size(kPaths); ++p) {
                std::string seed{static_cast<char>(m), static_cast<char>(p), static_cast<char>(kNoContentType)};
                if (p == std::size(kPaths)) seed += "redact/../ping?q=\xC3\xA9\n";
                seeds.push_back(seed + "{\"text\": \"Anna\"}");
            }
        }
        for (std::size_t c = 0; c <= kNoContentType; ++c) {
            seeds.push_back(std::string{'\0', '\0', static_cast<char>(c)} + "{\"text\": \"Call Anna on 030 1234567\"}");
        }
        for (const char* body : {"", "{", "[]", "{\"text\": 5}", "{\"txt\": \"a\"}", "{\"text\": \"\"}",
                                 "{\"text\": \"a\\u0000b\"}", "\xFF\xFE", "{\"text\": \"\xED\xA0\x80\"}"}) {
            seeds.push_back(std::string("\x00\x00\x00", 3) + body);
        }
    });
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const bx::http::Request request = request_from(std::string_view(reinterpret_cast<const char*>(data), size));
    const bx::http::Response response = bx::service::handle(request);

    const int status = response.status;
    require(status == 200 || status == 204 || status == 400 || status == 404 || status == 405 || status == 413 ||
                status == 415,
            "status " + std::to_string(status));
    require(bx::http::find_header(response.headers, "x-content-type-options") == "nosniff", "no nosniff");
    if (bx::http::path_only(request.path) == "/redact") {
        require(bx::http::find_header(response.headers, "cache-control") == "no-store", "/redact without no-store");
    }
    if (status == 204 || request.method == "HEAD") {
        require(response.body.empty(), "a body with 204 or HEAD");
        return 0;
    }
    const std::string_view content_type = bx::http::find_header(response.headers, "content-type");
    require(content_type.find("charset=utf-8") != std::string_view::npos, "Content-Type without charset=utf-8");
    require(bx::utf8::is_valid(response.body), "a body that is not valid UTF-8");
    if (content_type.find("json") == std::string_view::npos) return 0;

    bx::json::Value answer;
    bx::json::Error error;
    if (!bx::json::parse(response.body, answer, error)) fail("a JSON answer that does not parse: " + response.body);
    if (status != 200) {
        const bx::json::Value* what = answer.find("error");
        const bx::json::Value* code = what ? what->find("status") : nullptr;
        const bx::json::Value* message = what ? what->find("message") : nullptr;
        std::int64_t n = 0;
        require(code && code->as_int64(n) && n == status, "an error body whose status is not the response's");
        require(message && message->is(bx::json::Kind::String) && !message->text.empty(), "an error without a message");
        return 0;
    }
    if (request.method == "POST" && bx::http::path_only(request.path) == "/redact") check_redaction(request, answer);
    return 0;
}
