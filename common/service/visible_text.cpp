#include "common/service/visible_text.hpp"

#include <algorithm>

#include "common/text/ignorable.hpp"
#include "common/text/utf8.hpp"

namespace bx::service {

VisibleText::VisibleText(std::string_view text) : original_(text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t at = i;
        const char32_t c = bx::utf8::decode(text, i);
        // The tests' generated inside-word cases and their mutant
        // (cli-ignorables-mutant.wasm, bx_ignorables_mutant_tests) check this.
        // mutation-point: ignorables
        if (bx::text::is_default_ignorable(c)) {
            if (!removed_) {  // the first one: copy what came before it
                removed_ = true;
                visible_.reserve(text.size());
                origin_.reserve(text.size() + 1);
                visible_.assign(text.substr(0, at));
                for (std::size_t b = 0; b < at; ++b) origin_.push_back(static_cast<std::uint32_t>(b));
            }
            continue;
        }
        if (!removed_) continue;
        visible_.append(text.substr(at, i - at));
        for (std::size_t b = at; b < i; ++b) origin_.push_back(static_cast<std::uint32_t>(b));
    }
    if (removed_) origin_.push_back(static_cast<std::uint32_t>(text.size()));
}

ByteRange VisibleText::exact(ByteRange visible) const {
    if (!removed_) return visible;
    if (visible.empty()) return {origin_[visible.begin], origin_[visible.begin]};
    return {origin_[visible.begin], origin_[visible.end - 1] + 1};
}

ByteRange VisibleText::covering(ByteRange visible) const {
    if (!removed_) return visible;
    // Back to just after the visible character before the range (its last
    // byte's successor), forward to the visible character after it.
    const std::size_t begin = visible.begin == 0 ? 0 : origin_[visible.begin - 1] + 1;
    return {begin, std::max<std::size_t>(begin, origin_[visible.end])};
}

void VisibleText::map_to_original(std::vector<Entity>& entities) const {
    if (!removed_) return;
    std::size_t previous_end = 0;
    for (Entity& e : entities) {
        ByteRange range = covering(e.bytes);
        range.begin = std::max(range.begin, previous_end);
        e.bytes = range;
        previous_end = range.end;
    }
    CodePointCounter counter(original_);
    for (Entity& e : entities) {
        e.start = counter.at(e.bytes.begin);
        e.end = counter.at(e.bytes.end);
        e.text = std::string(original_.substr(e.bytes.begin, e.bytes.end - e.bytes.begin));
    }
}

}  // namespace bx::service
