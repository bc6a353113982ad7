#include "common/text/words.hpp"

#include <algorithm>

#include "common/text/range_table.hpp"
#include "common/text/utf8.hpp"

namespace bx::words {

WordClass class_of(char32_t c) {
    // The ASCII answers without a search: most text is mostly ASCII.
    if (c < 0x80) {
        if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) return WordClass::Letter;
        if (c == ' ' || (c >= 0x09 && c <= 0x0D)) return WordClass::Space;
        // General_Category P in ASCII; $ + < = > ^ ` | ~ are symbols. The word
        // tests and their mutant (bx_ascii_shortcut_mutant_tests) check this
        // list against the generated table.
        // mutation-point: ascii-punctuation
        if (std::string_view(R"(!"#%&'()*,-./:;?@[\]_{})").find(static_cast<char>(c)) != std::string_view::npos) {
            return WordClass::Punctuation;
        }
        return WordClass::Other;
    }
    return bx::text::lookup_range(kWordClassRanges, kWordClassRangeCount, c, WordClass::Other);
}

WordClass class_before(std::string_view text, std::size_t at) {
    if (at == 0 || at > text.size()) return WordClass::Other;
    std::size_t begin = at - 1;  // back over continuation bytes (10xxxxxx) to the lead byte
    while (begin > 0 && (static_cast<unsigned char>(text[begin]) & 0xC0) == 0x80) --begin;
    return class_of(bx::utf8::decode(text, begin));
}

WordMap::WordMap(std::string_view text) {
    // The word being built: its first letter's start and its last letter's
    // (or attached mark's) end so far; punctuation after it is only kept if
    // another letter follows before the next space.
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::size_t begin = kNone, end = kNone;
    bool spaceless_open = false;  // the word being built is one spaceless character
    auto close = [&] {
        if (begin != kNone) words_.push_back({begin, end});
        begin = end = kNone;
        spaceless_open = false;
    };
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t at = i;
        const WordClass c = class_of(bx::utf8::decode(text, i));
        switch (c) {
            case WordClass::Space:
                close();
                break;
            case WordClass::Spaceless:
                close();
                begin = at;
                end = i;
                spaceless_open = true;
                break;
            case WordClass::Mark:
                // A mark belongs to the character before it.
                if (spaceless_open || (begin != kNone && end == at)) {
                    end = i;
                    break;
                }
                [[fallthrough]];
            case WordClass::Letter:
                if (spaceless_open) close();
                if (begin == kNone) begin = at;
                end = i;
                break;
            case WordClass::Other:
            case WordClass::Punctuation:
                if (spaceless_open) close();
                break;
        }
    }
    close();
}

const Word* WordMap::inside(std::size_t at) const {
    // The first word that ends after `at`; `at` is inside it if it starts before.
    auto it = std::upper_bound(words_.begin(), words_.end(), at,
                               [](std::size_t offset, const Word& w) { return offset < w.end; });
    if (it == words_.end() || it->begin >= at) return nullptr;
    return &*it;
}

const Word* WordMap::first_from(std::size_t at) const {
    auto it = std::lower_bound(words_.begin(), words_.end(), at,
                               [](const Word& w, std::size_t offset) { return w.begin < offset; });
    return it == words_.end() ? nullptr : &*it;
}

void WordMap::widen_to_words(std::size_t& begin, std::size_t& end) const {
    if (const Word* w = inside(begin)) begin = w->begin;
    if (const Word* w = inside(end)) end = w->end;
}

}  // namespace bx::words
