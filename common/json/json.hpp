// A small JSON reader and writer: enough for tokenizer.json (2 MB, 31k pieces),
// request bodies and JSONL corpora. Numbers keep their source text, so each
// reader can choose its reading: as_double() is the correctly rounded f64
// (strtod); the tokenizer's scores are read the way the reference reads them,
// with serde_json's default (not correctly rounded) parser: serde_f64.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bx::json {

enum class Kind : std::uint8_t { Null, Bool, Number, String, Array, Object };

class Value {
public:
    Kind kind = Kind::Null;
    bool boolean = false;
    std::string text;                                   // String: decoded UTF-8; Number: source text
    std::vector<Value> items;                           // Array
    std::vector<std::pair<std::string, Value>> members; // Object, in source order

    // Declared here and defaulted in json.cpp: a std::pair holding the (still
    // incomplete) Value cannot have its special members synthesised in-class.
    Value();
    ~Value();
    Value(const Value&);
    Value(Value&&) noexcept;
    Value& operator=(const Value&);
    Value& operator=(Value&&) noexcept;

    bool is(Kind k) const { return kind == k; }
    // Object member by key (first match), or nullptr.
    const Value* find(std::string_view key) const;
    // Number as f64 (correctly rounded from the source text, like strtod), or 0
    // for non-numbers. Not what serde_json gives for 17-digit texts: see serde_f64.hpp.
    double as_double() const;
    // Number as integer if it is one exactly and fits; false otherwise.
    bool as_int64(std::int64_t& out) const;
};

struct Error {
    std::size_t offset = 0;   // byte offset into the input
    std::string message;      // e.g. "expected ':' after object key"
    bool too_many_values = false;  // the input was refused for its number of values alone
};

// Parses exactly one JSON value (surrounding whitespace allowed). Rejects invalid
// UTF-8 in strings, lone surrogates in \u escapes, trailing garbage, depth > 512,
// and more than `max_values` values (every array, object, string, number, true,
// false and null counts one, and so does each object key). A Value costs about
// 40 bytes before its contents, so an untrusted input gets a budget: without
// one, a 2 MiB body of `[0,0,...]` needs some 120 MiB of memory.
bool parse(std::string_view input, Value& out, Error& error,
           std::size_t max_values = static_cast<std::size_t>(-1));

// Appends `s` as a JSON string literal (quotes included, control characters and
// quotes escaped, UTF-8 passed through) to `out`.
void append_string(std::string& out, std::string_view s);

// Appends `value` as compact JSON: members in their order, numbers as their
// source text (so a value read and written again keeps every digit). Stage 04's
// build-time generator writes the slim tokenizer.json with it.
void write(std::string& out, const Value& value);

// Appends a float as the shortest text that reads back to the same f32 bits
// ("1e-07", "-0.5", "NaN"-free: NaN/inf are written as null).
void append_float(std::string& out, float value);

}  // namespace bx::json
