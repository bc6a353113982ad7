// UTF-8: validation, decoding, encoding, and offset conversion.
//
// Our code keeps text as UTF-8 bytes and byte offsets. Two other units appear
// at the edges: the JSON API and the reference tokenizer count code points
// (Rust `char`s), and JavaScript strings count UTF-16 code units. The tables
// below convert byte offsets into either.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bx::utf8 {

// Length (1..4) of the well-formed UTF-8 sequence at the start of `s`, or 0 if
// it is not well formed (RFC 3629: no overlongs, no surrogates, <= U+10FFFF).
std::size_t valid_sequence_length(std::string_view s);

// True if all of `s` is well-formed UTF-8.
bool is_valid(std::string_view s);

// Length of the sequence that starts with `lead`, for text already validated.
inline std::size_t sequence_length(unsigned char lead) {
    if (lead < 0x80) return 1;
    if (lead < 0xE0) return 2;
    if (lead < 0xF0) return 3;
    return 4;
}

// Decodes the code point at byte `i` of validated text and moves `i` past it.
char32_t decode(std::string_view s, std::size_t& i);

// Appends the UTF-8 encoding of `code_point` (a scalar value) to `out`.
void append(std::string& out, char32_t code_point);

// Encoded length of a scalar value.
inline std::size_t encoded_length(char32_t c) {
    return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

// Number of code points in validated text.
std::size_t count_code_points(std::string_view s);

// For validated text: table[b] = number of code points (or UTF-16 code units)
// that start before byte b, for b in 0..size (size + 1 entries). A byte offset
// inside a sequence maps like the start of that sequence's successor would not:
// it counts the sequence as already begun, so only boundaries are meaningful.
std::vector<std::uint32_t> code_point_offset_table(std::string_view s);
std::vector<std::uint32_t> utf16_offset_table(std::string_view s);

}  // namespace bx::utf8
