// Cluster boundaries by the rules of UAX #29 (GB3..GB13, GB9c included: the
// reference applies it, and it matters, e.g. क + ् + क़ + U+0301 is one cluster
// of 11 bytes, normalised character by character, so the accent survives).
#include "common/text/grapheme.hpp"

#include "common/text/range_table.hpp"
#include "common/text/utf8.hpp"

namespace bx::grapheme {

using bx::text::lookup_range;

GraphemeClass class_of(char32_t c) {
    if (c >= 0x20 && c < 0x7F) return GraphemeClass::Other;  // printable ASCII
    return lookup_range(kClassRanges, kClassRangeCount, c, GraphemeClass::Other);
}

ConjunctClass conjunct_class_of(char32_t c) {
    if (c < 0x300) return ConjunctClass::None;
    return lookup_range(kConjunctRanges, kConjunctRangeCount, c, ConjunctClass::None);
}

namespace {

using G = GraphemeClass;

bool is_control(G g) { return g == G::Control || g == G::CR || g == G::LF; }

}  // namespace

std::size_t cluster_end(std::string_view text, std::size_t start) {
    std::size_t i = start;
    const char32_t first = utf8::decode(text, i);
    G previous = class_of(first);
    // GB9c: a consonant seen, then (after any extends) a linker seen.
    enum class Conjunct { None, AfterConsonant, AfterLinker };
    auto conjunct_step = [](Conjunct state, ConjunctClass c) {
        if (c == ConjunctClass::Consonant) return Conjunct::AfterConsonant;
        if (state != Conjunct::None && c == ConjunctClass::Linker) return Conjunct::AfterLinker;
        if (state != Conjunct::None && c == ConjunctClass::Extend) return state;
        return Conjunct::None;
    };
    Conjunct conjunct = conjunct_step(Conjunct::None, conjunct_class_of(first));
    // GB11 needs "pictograph, then Extend*, then ZWJ" before a pictograph;
    // GB12/13 need the parity of the regional indicators run.
    bool pictograph_then_extends = previous == G::ExtendedPictographic;
    bool zwj_after_pictograph = false;
    int regional_indicators = previous == G::RegionalIndicator ? 1 : 0;
    while (i < text.size()) {
        std::size_t next_index = i;
        const char32_t next_char = utf8::decode(text, next_index);
        G next = class_of(next_char);
        ConjunctClass next_conjunct = conjunct_class_of(next_char);
        bool join;
        if (previous == G::CR && next == G::LF) {
            join = true;                                              // GB3
        } else if (is_control(previous) || is_control(next)) {
            join = false;                                             // GB4, GB5
        } else if (previous == G::L && (next == G::L || next == G::V || next == G::LV || next == G::LVT)) {
            join = true;                                              // GB6
        } else if ((previous == G::LV || previous == G::V) && (next == G::V || next == G::T)) {
            join = true;                                              // GB7
        } else if ((previous == G::LVT || previous == G::T) && next == G::T) {
            join = true;                                              // GB8
        } else if (next == G::Extend || next == G::ZWJ || next == G::SpacingMark) {
            join = true;                                              // GB9, GB9a
        } else if (previous == G::Prepend) {
            join = true;                                              // GB9b
        } else if (conjunct == Conjunct::AfterLinker && next_conjunct == ConjunctClass::Consonant) {
            join = true;                                              // GB9c
        } else if (zwj_after_pictograph && next == G::ExtendedPictographic) {
            join = true;                                              // GB11
        } else if (previous == G::RegionalIndicator && next == G::RegionalIndicator) {
            join = regional_indicators % 2 == 1;                      // GB12, GB13
        } else {
            join = false;                                             // GB999
        }
        if (!join) break;
        // Track the GB11 and GB12/13 state across the joined character.
        zwj_after_pictograph = pictograph_then_extends && next == G::ZWJ;
        if (next == G::ExtendedPictographic) {
            pictograph_then_extends = true;
        } else if (next != G::Extend) {
            pictograph_then_extends = false;
        }
        regional_indicators = next == G::RegionalIndicator ? regional_indicators + 1 : 0;
        conjunct = conjunct_step(conjunct, next_conjunct);
        previous = next;
        i = next_index;
    }
    return i;
}

}  // namespace bx::grapheme
