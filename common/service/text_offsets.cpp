#include "common/service/text_offsets.hpp"

#include <cstdint>

#include "common/text/utf8.hpp"

namespace bx::service {
namespace {

bool is_continuation(unsigned char b) { return (b & 0xC0) == 0x80; }

// Unicode's White_Space property (PropList.txt), all 25 code points.
bool is_white_space(std::uint32_t c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}

}  // namespace

std::size_t first_invalid_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        if (static_cast<unsigned char>(text[i]) < 0x80) { ++i; continue; }
        const std::size_t length = bx::utf8::valid_sequence_length(text.substr(i));
        if (length == 0) return i;
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
        std::size_t next = begin;
        if (!is_white_space(bx::utf8::decode(text, next))) break;
        begin = next;
    }
    while (end > begin) {
        std::size_t start = end - 1;  // back to the lead byte of the last character
        while (start > begin && is_continuation(static_cast<unsigned char>(text[start]))) --start;
        std::size_t next = start;
        if (!is_white_space(bx::utf8::decode(text, next))) break;
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
