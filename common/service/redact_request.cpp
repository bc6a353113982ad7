#include "common/service/redact_request.hpp"

#include <algorithm>
#include <vector>

#include "common/json/json.hpp"
#include "common/service/text_offsets.hpp"
#include "common/text/utf8.hpp"

namespace bx::service {
namespace {

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool equals_ignore_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    }
    return true;
}

bool ends_with_ignore_case(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && equals_ignore_case(s.substr(s.size() - suffix.size()), suffix);
}

std::string_view trim_ows(std::string_view s) {  // HTTP "optional whitespace"
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// Cuts a value short for a message, so a huge header or number cannot make a
// huge error body. The message goes out as UTF-8 JSON, while a header's value
// is any bytes: the cut falls between characters, and each byte that does not
// start a well-formed sequence is written as U+FFFD.
std::string shortened(std::string_view value) {
    constexpr std::size_t kShown = 80;  // bytes of the value shown, at most
    std::string out;
    std::size_t i = 0;
    while (i < value.size()) {
        const std::size_t n = utf8::valid_sequence_length(value.substr(i));
        if (i + (n ? n : 1) > kShown) break;
        if (n) {
            out.append(value.substr(i, n));
        } else {
            out += "\xEF\xBF\xBD";  // U+FFFD
        }
        i += n ? n : 1;
    }
    if (i < value.size()) out += "...";
    return out;
}

std::string quoted(std::string_view value) { return "\"" + shortened(value) + "\""; }

const char* kind_name(json::Kind kind) {
    switch (kind) {
        case json::Kind::Null: return "null";
        case json::Kind::Bool: return "a boolean";
        case json::Kind::Number: return "a number";
        case json::Kind::String: return "a string";
        case json::Kind::Array: return "an array";
        case json::Kind::Object: return "an object";
    }
    return "something else";
}

// Line and column (both from 1, column in bytes) of a byte offset.
std::string where(std::string_view body, std::size_t offset) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < body.size(); ++i) {
        if (body[i] == '\n') { ++line; column = 1; } else { ++column; }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + " (byte " +
           std::to_string(offset) + ")";
}

// The optional "min_score": a JSON number from 0 to 1 (read as f64, then
// rounded to the f32 the scores are compared in).
ServiceError read_min_score(const json::Value& value, float& out) {
    const std::string rule = "\"min_score\" must be a number from 0 to 1, got ";
    if (!value.is(json::Kind::Number)) return {400, rule + kind_name(value.kind)};
    const double d = value.as_double();
    if (!(d >= 0.0 && d <= 1.0)) return {400, rule + shortened(value.text)};
    out = static_cast<float>(d);
    return {};
}

// The first key that the object holds twice, in sorted order (so a body of
// many keys costs n log n, not n^2); nullptr when every key is unique.
const std::string* duplicate_key(const json::Value& object) {
    std::vector<const std::string*> keys;
    keys.reserve(object.members.size());
    for (const auto& member : object.members) keys.push_back(&member.first);
    std::sort(keys.begin(), keys.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
    const auto twice = std::adjacent_find(keys.begin(), keys.end(),
                                          [](const std::string* a, const std::string* b) { return *a == *b; });
    return twice == keys.end() ? nullptr : *twice;
}

}  // namespace

ServiceError check_content_type(std::string_view content_type) {
    const std::string_view value = trim_ows(content_type);
    if (value.empty()) return {};  // absent: read the body as JSON anyway
    const std::size_t semicolon = value.find(';');
    const std::string_view media = trim_ows(value.substr(0, semicolon));
    const bool is_json = equals_ignore_case(media, "application/json") ||
                         (media.size() > 17 && equals_ignore_case(media.substr(0, 12), "application/") &&
                          ends_with_ignore_case(media, "+json"));
    if (!is_json) {
        return {415, "Content-Type must be application/json (got " + quoted(value) +
                         "); with curl, add -H 'Content-Type: application/json'"};
    }
    // Parameters: only charset matters, and only UTF-8 is JSON's encoding.
    std::string_view rest = semicolon == std::string_view::npos ? std::string_view{}
                                                                : value.substr(semicolon + 1);
    while (!rest.empty()) {
        const std::size_t next = rest.find(';');
        const std::string_view param = trim_ows(rest.substr(0, next));
        rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
        const std::size_t eq = param.find('=');
        if (eq == std::string_view::npos) continue;
        if (!equals_ignore_case(trim_ows(param.substr(0, eq)), "charset")) continue;
        std::string_view charset = trim_ows(param.substr(eq + 1));
        if (charset.size() >= 2 && charset.front() == '"' && charset.back() == '"') {
            charset = charset.substr(1, charset.size() - 2);
        }
        if (!equals_ignore_case(charset, "utf-8") && !equals_ignore_case(charset, "utf8")) {
            return {415, "Content-Type charset must be utf-8 (got " + quoted(charset) + ")"};
        }
    }
    return {};
}

ServiceError check_text(std::string_view text) {
    const std::size_t bad = first_invalid_utf8(text);
    if (bad != kValidUtf8) {
        return {400, "text is not valid UTF-8 (first bad byte at offset " + std::to_string(bad) + ")"};
    }
    if (text.size() > kMaxTextBytes) {
        return {413, "text is " + std::to_string(text.size()) + " bytes of UTF-8; the limit is " +
                         std::to_string(kMaxTextBytes) + " bytes (64 KiB)"};
    }
    return {};
}

RedactRequest parse_redact_request(std::string_view content_type, std::string_view body) {
    RedactRequest request;
    request.error = check_content_type(content_type);
    if (request.error.failed()) return request;

    const std::size_t bad = first_invalid_utf8(body);
    if (bad != kValidUtf8) {
        request.error = {400, "request body is not valid UTF-8 (first bad byte at " +
                                  where(body, bad) + ")"};
        return request;
    }

    json::Value root;
    json::Error parse_error;
    if (!json::parse(body, root, parse_error, kMaxBodyValues)) {
        if (parse_error.too_many_values) {
            request.error = {413, "request body holds more than " + std::to_string(kMaxBodyValues) +
                                      " JSON values (counted up to " + where(body, parse_error.offset) +
                                      "); a request needs only {\"text\": \"...\"}"};
            return request;
        }
        request.error = {400, "request body is not valid JSON: " + parse_error.message + " at " +
                                  where(body, parse_error.offset)};
        return request;
    }
    if (!root.is(json::Kind::Object)) {
        request.error = {400, std::string("request body must be a JSON object {\"text\": \"...\"}, got ") +
                                  kind_name(root.kind)};
        return request;
    }
    if (const std::string* key = duplicate_key(root)) {
        // Readers differ on which of two values counts (ours took the first,
        // most take the last): a proxy in front of us could check one text
        // while we redact another. Refuse rather than guess.
        std::string shown;
        json::append_string(shown, shortened(*key));
        request.error = {400, "the key " + shown + " appears more than once in the request body; send it once"};
        return request;
    }
    const json::Value* text = root.find("text");
    if (text == nullptr) {
        request.error = {400, "missing \"text\": the body must be {\"text\": \"...\"}"};
        return request;
    }
    if (!text->is(json::Kind::String)) {
        request.error = {400, std::string("\"text\" must be a string, got ") + kind_name(text->kind)};
        return request;
    }
    request.error = check_text(text->text);  // the parser already checked UTF-8; the limit is new
    if (request.error.failed()) return request;
    if (const json::Value* min_score = root.find("min_score")) {
        request.error = read_min_score(*min_score, request.min_score);
        if (request.error.failed()) return request;
    }
    request.text = text->text;
    return request;
}

}  // namespace bx::service
