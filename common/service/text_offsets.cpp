#include "common/service/text_offsets.hpp"

#include <cstdint>

namespace bx::service {
namespace {

bool is_continuation(unsigned char b) { return (b & 0xC0) == 0x80; }

// Decodes the character starting at `i` of valid UTF-8; sets its length.
std::uint32_t decode(std::string_view s, std::size_t i, std::size_t& length) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char lead = b(0);
    if (lead < 0x80) { length = 1; return lead; }
    if (lead < 0xE0) { length = 2; return (std::uint32_t(lead & 0x1F) << 6) | (b(1) & 0x3F); }
    if (lead < 0xF0) {
        length = 3;
        return (std::uint32_t(lead & 0x0F) << 12) | (std::uint32_t(b(1) & 0x3F) << 6) | (b(2) & 0x3F);
    }
    length = 4;
    return (std::uint32_t(lead & 0x07) << 18) | (std::uint32_t(b(1) & 0x3F) << 12) |
           (std::uint32_t(b(2) & 0x3F) << 6) | (b(3) & 0x3F);
}

// Unicode's White_Space property (PropList.txt), all 25 code points.
bool is_white_space(std::uint32_t c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}

}  // namespace

std::size_t first_invalid_utf8(std::string_view text) {
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        const auto lead = static_cast<unsigned char>(text[i]);
        if (lead < 0x80) { ++i; continue; }
        std::size_t length;
        unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            if (lead == 0xE0) lo = 0xA0;       // no overlong 3-byte forms
            if (lead == 0xED) hi = 0x9F;       // no surrogates D800..DFFF
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            if (lead == 0xF0) lo = 0x90;       // no overlong 4-byte forms
            if (lead == 0xF4) hi = 0x8F;       // nothing above U+10FFFF
        } else {
            return i;                          // C0, C1, F5..FF, or a stray continuation
        }
        if (i + length > n) return i;
        const auto second = static_cast<unsigned char>(text[i + 1]);
        if (second < lo || second > hi) return i;
        for (std::size_t k = 2; k < length; ++k) {
            if (!is_continuation(static_cast<unsigned char>(text[i + k]))) return i;
        }
        i += length;
    }
    return kValidUtf8;
}

ByteRange snap_to_characters(std::string_view text, ByteRange range) {
    const std::size_t n = text.size();
    std::size_t begin = range.begin < n ? range.begin : n;
    std::size_t end = range.end < n ? range.end : n;
    if (end < begin) end = begin;
    while (begin > 0 && begin < n && is_continuation(static_cast<unsigned char>(text[begin]))) --begin;
    while (end < n && is_continuation(static_cast<unsigned char>(text[end]))) ++end;
    return {begin, end};
}

ByteRange trim_whitespace(std::string_view text, ByteRange range) {
    std::size_t begin = range.begin, end = range.end;
    while (begin < end) {
        std::size_t length;
        if (!is_white_space(decode(text, begin, length))) break;
        begin += length;
    }
    while (end > begin) {
        std::size_t start = end - 1;  // back to the lead byte of the last character
        while (start > begin && is_continuation(static_cast<unsigned char>(text[start]))) --start;
        std::size_t length;
        if (!is_white_space(decode(text, start, length))) break;
        end = start;
    }
    return {begin, end};
}

std::size_t CodePointCounter::at(std::size_t byte_offset) {
    if (byte_offset < byte_) {  // out of order: start again rather than answer wrongly
        byte_ = 0;
        code_points_ = 0;
    }
    const std::size_t stop = byte_offset < text_.size() ? byte_offset : text_.size();
    for (; byte_ < stop; ++byte_) {
        if (!is_continuation(static_cast<unsigned char>(text_[byte_]))) ++code_points_;
    }
    return code_points_;
}

}  // namespace bx::service
