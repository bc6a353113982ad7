// UTF-8 helpers declared in utf8.hpp.
#include "common/text/utf8.hpp"

namespace bx::utf8 {

std::size_t valid_sequence_length(std::string_view s) {
    if (s.empty()) return 0;
    const auto* b = reinterpret_cast<const unsigned char*>(s.data());
    const std::size_t n = s.size();
    unsigned char c0 = b[0];
    if (c0 < 0x80) return 1;
    auto continuation = [](unsigned char c) { return (c & 0xC0) == 0x80; };
    if (c0 >= 0xC2 && c0 <= 0xDF) {
        return n >= 2 && continuation(b[1]) ? 2 : 0;
    }
    if (c0 >= 0xE0 && c0 <= 0xEF) {
        if (n < 3 || !continuation(b[1]) || !continuation(b[2])) return 0;
        if (c0 == 0xE0 && b[1] < 0xA0) return 0;   // overlong
        if (c0 == 0xED && b[1] >= 0xA0) return 0;  // surrogates U+D800..DFFF
        return 3;
    }
    if (c0 >= 0xF0 && c0 <= 0xF4) {
        if (n < 4 || !continuation(b[1]) || !continuation(b[2]) || !continuation(b[3])) return 0;
        if (c0 == 0xF0 && b[1] < 0x90) return 0;   // overlong
        if (c0 == 0xF4 && b[1] >= 0x90) return 0;  // above U+10FFFF
        return 4;
    }
    return 0;  // continuation byte, C0/C1 overlong leads, F5..FF
}

bool is_valid(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        // ASCII fast path: most text is mostly ASCII.
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        std::size_t length = valid_sequence_length(s.substr(i));
        if (length == 0) return false;
        i += length;
    }
    return true;
}

char32_t decode(std::string_view s, std::size_t& i) {
    const auto* b = reinterpret_cast<const unsigned char*>(s.data()) + i;
    unsigned char c0 = b[0];
    if (c0 < 0x80) {
        i += 1;
        return c0;
    }
    if (c0 < 0xE0) {
        i += 2;
        return (char32_t(c0 & 0x1F) << 6) | (b[1] & 0x3F);
    }
    if (c0 < 0xF0) {
        i += 3;
        return (char32_t(c0 & 0x0F) << 12) | (char32_t(b[1] & 0x3F) << 6) | (b[2] & 0x3F);
    }
    i += 4;
    return (char32_t(c0 & 0x07) << 18) | (char32_t(b[1] & 0x3F) << 12) | (char32_t(b[2] & 0x3F) << 6) |
           (b[3] & 0x3F);
}

void append(std::string& out, char32_t c) {
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}

std::size_t count_code_points(std::string_view s) {
    std::size_t count = 0;
    for (char c : s) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return count;
}

namespace {

// Shared by both tables: each sequence adds `units(length)` at its first byte.
template <typename Units>
std::vector<std::uint32_t> offset_table(std::string_view s, Units units) {
    std::vector<std::uint32_t> table(s.size() + 1);
    std::uint32_t count = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        table[i] = count;
        unsigned char c = static_cast<unsigned char>(s[i]);
        if ((c & 0xC0) != 0x80) count += units(sequence_length(c));
        // Bytes inside a sequence already count it: only boundaries matter.
        if ((c & 0xC0) == 0x80) table[i] = count;
    }
    table[s.size()] = count;
    return table;
}

}  // namespace

std::vector<std::uint32_t> code_point_offset_table(std::string_view s) {
    return offset_table(s, [](std::size_t) { return 1u; });
}

std::vector<std::uint32_t> utf16_offset_table(std::string_view s) {
    return offset_table(s, [](std::size_t length) { return length == 4 ? 2u : 1u; });
}

}  // namespace bx::utf8
