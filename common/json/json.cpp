// The JSON reader and writer declared in json.hpp.
//
// A plain recursive-descent parser over the input bytes. tokenizer.json is
// parsed on every request in stage 00, so the hot paths (strings without
// escapes, short numbers, long arrays) copy each byte once and never re-scan.
#include "common/json/json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/text/utf8.hpp"

namespace bx::json {

Value::Value() = default;
Value::~Value() = default;
Value::Value(const Value&) = default;
Value::Value(Value&&) noexcept = default;
Value& Value::operator=(const Value&) = default;
Value& Value::operator=(Value&&) noexcept = default;

const Value* Value::find(std::string_view key) const {
    for (const auto& member : members) {
        if (member.first == key) return &member.second;
    }
    return nullptr;
}

double Value::as_double() const {
    if (kind != Kind::Number) return 0.0;
    // strtod is correctly rounded on glibc and musl (wasi-libc); the text is
    // JSON number syntax, which is a subset of what strtod accepts.
    return std::strtod(text.c_str(), nullptr);
}

bool Value::as_int64(std::int64_t& out) const {
    if (kind != Kind::Number) return false;
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && text[i] == '-') {
        negative = true;
        ++i;
    }
    if (i == text.size()) return false;
    // Accumulate as a negative number so that INT64_MIN fits.
    std::int64_t value = 0;
    for (; i < text.size(); ++i) {
        char c = text[i];
        if (c < '0' || c > '9') return false;  // fraction or exponent: not an integer literal
        int digit = c - '0';
        if (value < (INT64_MIN + digit) / 10) return false;
        value = value * 10 - digit;
    }
    if (!negative) {
        if (value == INT64_MIN) return false;
        value = -value;
    }
    out = value;
    return true;
}

namespace {

constexpr int kMaxDepth = 512;

class Parser {
public:
    Parser(std::string_view input, Error& error, std::size_t max_values)
        : p_(input.data()), begin_(input.data()), end_(input.data() + input.size()), error_(error),
          values_left_(max_values) {}

    bool parse_document(Value& out) {
        skip_whitespace();
        if (!parse_value(out, 0)) return false;
        skip_whitespace();
        if (p_ != end_) return fail("trailing characters after the JSON value");
        return true;
    }

private:
    const char* p_;
    const char* begin_;
    const char* end_;
    Error& error_;
    std::size_t values_left_;

    // Counts one value (or key) against the budget, before anything is built for it.
    bool count_value() {
        if (values_left_ == 0) {
            fail("too many values");
            error_.too_many_values = true;
            return false;
        }
        --values_left_;
        return true;
    }

    bool fail(const char* message) {
        error_.offset = static_cast<std::size_t>(p_ - begin_);
        error_.message = message;
        return false;
    }

    void skip_whitespace() {
        while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    }

    bool literal(const char* word, std::size_t length) {
        if (static_cast<std::size_t>(end_ - p_) < length || std::memcmp(p_, word, length) != 0) {
            return fail("invalid literal");
        }
        p_ += length;
        return true;
    }

    bool parse_value(Value& out, int depth) {
        if (p_ == end_) return fail("unexpected end of input, expected a value");
        if (!count_value()) return false;
        switch (*p_) {
            case '{': return parse_object(out, depth + 1);
            case '[': return parse_array(out, depth + 1);
            case '"': out.kind = Kind::String; return parse_string(out.text);
            case 't': out.kind = Kind::Bool; out.boolean = true; return literal("true", 4);
            case 'f': out.kind = Kind::Bool; out.boolean = false; return literal("false", 5);
            case 'n': out.kind = Kind::Null; return literal("null", 4);
            default:
                if (*p_ == '-' || (*p_ >= '0' && *p_ <= '9')) return parse_number(out);
                return fail("expected a value");
        }
    }

    bool parse_array(Value& out, int depth) {
        if (depth > kMaxDepth) return fail("nesting deeper than 512");
        out.kind = Kind::Array;
        ++p_;  // '['
        skip_whitespace();
        if (p_ != end_ && *p_ == ']') {
            ++p_;
            return true;
        }
        for (;;) {
            // The budget is checked before the element is made.
            if (values_left_ == 0) return count_value();
            out.items.emplace_back();
            if (!parse_value(out.items.back(), depth)) return false;
            skip_whitespace();
            if (p_ == end_) return fail("unexpected end of input in array");
            if (*p_ == ',') {
                ++p_;
                skip_whitespace();
                continue;
            }
            if (*p_ == ']') {
                ++p_;
                return true;
            }
            return fail("expected ',' or ']' in array");
        }
    }

    bool parse_object(Value& out, int depth) {
        if (depth > kMaxDepth) return fail("nesting deeper than 512");
        out.kind = Kind::Object;
        ++p_;  // '{'
        skip_whitespace();
        if (p_ != end_ && *p_ == '}') {
            ++p_;
            return true;
        }
        for (;;) {
            if (p_ == end_ || *p_ != '"') return fail("expected a string as object key");
            if (!count_value()) return false;
            out.members.emplace_back();
            auto& member = out.members.back();
            if (!parse_string(member.first)) return false;
            skip_whitespace();
            if (p_ == end_ || *p_ != ':') return fail("expected ':' after object key");
            ++p_;
            skip_whitespace();
            if (!parse_value(member.second, depth)) return false;
            skip_whitespace();
            if (p_ == end_) return fail("unexpected end of input in object");
            if (*p_ == ',') {
                ++p_;
                skip_whitespace();
                continue;
            }
            if (*p_ == '}') {
                ++p_;
                return true;
            }
            return fail("expected ',' or '}' in object");
        }
    }

    // Number grammar of RFC 8259; the text is kept as written.
    bool parse_number(Value& out) {
        const char* start = p_;
        if (*p_ == '-') ++p_;
        if (p_ == end_) return fail("expected a digit");
        if (*p_ == '0') {
            ++p_;
        } else if (*p_ >= '1' && *p_ <= '9') {
            while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
        } else {
            return fail("expected a digit");
        }
        if (p_ != end_ && *p_ == '.') {
            ++p_;
            if (p_ == end_ || *p_ < '0' || *p_ > '9') return fail("expected a digit after '.'");
            while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
        }
        if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
            ++p_;
            if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
            if (p_ == end_ || *p_ < '0' || *p_ > '9') return fail("expected a digit in exponent");
            while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
        }
        out.kind = Kind::Number;
        out.text.assign(start, p_);
        return true;
    }

    static int hex_value(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    bool parse_hex4(std::uint32_t& out) {
        // The JSON fuzz target's mutant reads one byte short here (tests/fuzz).
        // mutation-point: hex4-bound
        if (end_ - p_ < 4) return fail("truncated \\u escape");
        out = 0;
        for (int i = 0; i < 4; ++i) {
            int h = hex_value(p_[i]);
            if (h < 0) return fail("invalid hex digit in \\u escape");
            out = out * 16 + static_cast<std::uint32_t>(h);
        }
        p_ += 4;
        return true;
    }

    // p_ is on the opening quote. Plain runs are copied in one append; escapes
    // are decoded; raw bytes must be valid UTF-8 and no control characters.
    bool parse_string(std::string& out) {
        ++p_;
        out.clear();
        for (;;) {
            const char* run = p_;
            while (p_ != end_) {
                unsigned char c = static_cast<unsigned char>(*p_);
                if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
                ++p_;
            }
            out.append(run, p_);
            if (p_ == end_) return fail("unterminated string");
            unsigned char c = static_cast<unsigned char>(*p_);
            if (c == '"') {
                ++p_;
                return true;
            }
            if (c < 0x20) return fail("control character in string");
            if (c >= 0x80) {
                std::size_t length = bx::utf8::valid_sequence_length(
                    std::string_view(p_, static_cast<std::size_t>(end_ - p_)));
                if (length == 0) return fail("invalid UTF-8 in string");
                out.append(p_, length);
                p_ += length;
                continue;
            }
            // Backslash escape.
            ++p_;
            if (p_ == end_) return fail("unterminated escape");
            char e = *p_++;
            switch (e) {
                case '"': out.push_back('"'); break;
                case '\\': out.push_back('\\'); break;
                case '/': out.push_back('/'); break;
                case 'b': out.push_back('\b'); break;
                case 'f': out.push_back('\f'); break;
                case 'n': out.push_back('\n'); break;
                case 'r': out.push_back('\r'); break;
                case 't': out.push_back('\t'); break;
                case 'u': {
                    std::uint32_t unit = 0;
                    if (!parse_hex4(unit)) return false;
                    std::uint32_t code_point = unit;
                    if (unit >= 0xDC00 && unit <= 0xDFFF) return fail("lone low surrogate in \\u escape");
                    if (unit >= 0xD800 && unit <= 0xDBFF) {
                        if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') {
                            return fail("lone high surrogate in \\u escape");
                        }
                        p_ += 2;
                        std::uint32_t low = 0;
                        if (!parse_hex4(low)) return false;
                        if (low < 0xDC00 || low > 0xDFFF) return fail("lone high surrogate in \\u escape");
                        code_point = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                    }
                    bx::utf8::append(out, code_point);
                    break;
                }
                default: return fail("invalid escape character");
            }
        }
    }
};

}  // namespace

bool parse(std::string_view input, Value& out, Error& error, std::size_t max_values) {
    out = Value{};
    Parser parser(input, error, max_values);
    return parser.parse_document(out);
}

void append_string(std::string& out, std::string_view s) {
    static const char kHex[] = "0123456789abcdef";
    out.push_back('"');
    std::size_t run = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        out.append(s.data() + run, i - run);
        run = i + 1;
        switch (c) {
            case '"': out.append("\\\""); break;
            case '\\': out.append("\\\\"); break;
            case '\n': out.append("\\n"); break;
            case '\r': out.append("\\r"); break;
            case '\t': out.append("\\t"); break;
            case '\b': out.append("\\b"); break;
            case '\f': out.append("\\f"); break;
            default:
                out.append("\\u00");
                out.push_back(kHex[c >> 4]);
                out.push_back(kHex[c & 15]);
        }
    }
    out.append(s.data() + run, s.size() - run);
    out.push_back('"');
}

void write(std::string& out, const Value& value) {
    switch (value.kind) {
        case Kind::Null: out.append("null"); return;
        case Kind::Bool: out.append(value.boolean ? "true" : "false"); return;
        case Kind::Number: out.append(value.text); return;
        case Kind::String: append_string(out, value.text); return;
        case Kind::Array:
            out.push_back('[');
            for (std::size_t k = 0; k < value.items.size(); ++k) {
                if (k) out.push_back(',');
                write(out, value.items[k]);
            }
            out.push_back(']');
            return;
        case Kind::Object:
            out.push_back('{');
            for (std::size_t k = 0; k < value.members.size(); ++k) {
                if (k) out.push_back(',');
                append_string(out, value.members[k].first);
                out.push_back(':');
                write(out, value.members[k].second);
            }
            out.push_back('}');
            return;
    }
}

void append_float(std::string& out, float value) {
    if (!std::isfinite(value)) {
        out.append("null");
        return;
    }
    // The shortest of %.1g .. %.9g that reads back to the same f32: 9 significant
    // digits always round-trip a float, fewer usually do.
    char buffer[32];
    for (int precision = 1; precision <= 9; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, static_cast<double>(value));
        if (std::strtof(buffer, nullptr) == value) break;
    }
    out.append(buffer);
}

}  // namespace bx::json
