// What a reader sees of the request's text, and how an entity found in it is
// put back on the text as sent.
//
// The model reads the text without its Default_Ignorable code points
// (common/text/ignorable.hpp: soft hyphens, zero-width spaces, joiners, the
// BOM, bidi controls, variation selectors, tag characters, ...). Rendered,
// "Pa\u00ADblo Ga\u00ADrcía" is "Pablo García", and that is what the model must
// read: left in, the soft hyphens cut the surname into pieces the model does
// not take for a name, and it comes back in clear. Removing them is the only
// change: every other character reaches the tokenizer as sent, so the
// tokenizer still sees exactly what the reference would be given.
//
// Everything after the removal (tokenizing, the model, the entity rules,
// the identifiers) works on the visible text; the entities are then mapped
// back. An entity covers the ignorable characters inside its words (they lie
// between its visible characters) and those at its two edges, up to the
// visible character before it and the one after it: a redacted name leaves
// no invisible fragment of itself behind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/service/entities.hpp"
#include "common/service/text_offsets.hpp"

namespace bx::service {

class VisibleText {
public:
    // `text` is valid UTF-8.
    explicit VisibleText(std::string_view text);

    // The text without its ignorable characters (the text itself when it has none).
    std::string_view text() const { return removed_ ? std::string_view(visible_) : original_; }
    // True when some character was removed.
    bool removed_any() const { return removed_; }

    // A character-aligned byte range of text() as a range of the original
    // text, widened over the ignorable characters at both its edges.
    ByteRange covering(ByteRange visible) const;
    // The same range without widening: from its first visible character's
    // first byte to its last one's last byte.
    ByteRange exact(ByteRange visible) const;

    // Entities found in text() (sorted, disjoint) as entities of the original
    // text: bytes widened by covering(), code-point offsets and text taken
    // from the original. Where two entities touch, the ignorable characters
    // between them go to the first one.
    void map_to_original(std::vector<Entity>& entities) const;

private:
    std::string_view original_;
    std::string visible_;
    // origin_[b]: the original byte of visible byte b; origin_[size] is the
    // original's size. Filled only when something was removed.
    std::vector<std::uint32_t> origin_;
    bool removed_ = false;
};

}  // namespace bx::service
