// Characters that render as nothing: Unicode's Default_Ignorable_Code_Point.
//
// A reader of "An\u00ADna We\u200Bber" sees "Anna Weber"; a tokenizer sees a
// soft hyphen and a zero-width space and cuts the name into pieces the model
// does not read as a name. The service therefore takes these characters out
// of the text before the model reads it (common/service/visible_text.hpp).
// The set is Unicode's, generated into ignorable_table.cpp by
// gen_ignorable_table.mjs from Node's Unicode data: soft hyphen, combining
// grapheme joiner, Arabic letter mark, Hangul fillers, Khmer inherent vowels,
// Mongolian variation selectors, zero-width space, non-joiner and joiner,
// bidi marks, embeddings, overrides and isolates, word joiner and the
// invisible operators, variation selectors, the byte order mark, tag
// characters, and the unassigned code points Unicode keeps for more of them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bx::text {

enum class Ignorable : std::uint8_t { No, Yes };

struct IgnorableRange {
    char32_t first;
    char32_t last;
    Ignorable value;
};

// Sorted, disjoint, every range Yes; generated into ignorable_table.cpp.
extern const IgnorableRange kIgnorableRanges[];
extern const std::size_t kIgnorableRangeCount;

// Default_Ignorable_Code_Point. None is ASCII (the first is U+00AD), so
// ASCII answers without a search.
bool is_default_ignorable(char32_t code_point);

}  // namespace bx::text
