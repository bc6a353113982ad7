// The few UTF-8 facts the redaction service needs about the request text:
// is it valid, where do the whitespace and character boundaries lie, and how
// many code points precede a byte offset (the JSON API counts code points).
//
// Built on common/text/utf8 (validation, decoding); what is here is what only
// the service needs: where a refusal points, and how an entity's byte range
// is widened, trimmed and counted.
#pragma once

#include <cstddef>
#include <string_view>

namespace bx::service {

inline constexpr std::size_t kValidUtf8 = static_cast<std::size_t>(-1);

// Byte offset of the first byte that does not start a well-formed UTF-8
// sequence (overlong forms, surrogates and code points above U+10FFFF are
// ill-formed), or kValidUtf8 when the whole text is valid.
std::size_t first_invalid_utf8(std::string_view text);

// A byte range [begin, end) of the text.
struct ByteRange {
    std::size_t begin = 0;
    std::size_t end = 0;
    bool empty() const { return end <= begin; }
};

// Widens a range to whole characters (begin back to a lead byte, end forward
// past continuation bytes) and clamps it to the text. Valid UTF-8 assumed.
ByteRange snap_to_characters(std::string_view text, ByteRange range);

// Drops Unicode White_Space characters (ASCII space, tab, newlines, NBSP,
// U+2000..U+200A, U+3000, ...) from both ends of a character-aligned range.
// The tokenizer folds a space into the next piece ("▁John"), so a span's raw
// byte range usually starts with one.
ByteRange trim_whitespace(std::string_view text, ByteRange range);

// Counts code points up to increasing byte offsets in one pass over the text:
// ask for offsets in non-decreasing order (entities are sorted), and each
// answer costs only the bytes since the previous one.
class CodePointCounter {
public:
    explicit CodePointCounter(std::string_view text) : text_(text) {}
    // Code points in text[0, byte_offset); byte_offset on a character boundary.
    std::size_t at(std::size_t byte_offset);

private:
    std::string_view text_;
    std::size_t byte_ = 0;
    std::size_t code_points_ = 0;
};

}  // namespace bx::service
