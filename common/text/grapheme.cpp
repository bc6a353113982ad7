// Cluster boundaries by the rules of UAX #29 (GB3..GB13). GB9c (Indic conjunct
// clusters) is not implemented: it only joins sequences of 9 bytes or more,
// which the normaliser treats character by character either way, and it could
// only move a later boundary in rare Indic-plus-combining-mark sequences.
#include "common/text/grapheme.hpp"

#include "common/text/utf8.hpp"

namespace bx::grapheme {

GraphemeClass class_of(char32_t c) {
    if (c >= 0x20 && c < 0x7F) return GraphemeClass::Other;  // printable ASCII
    std::size_t lo = 0, hi = kClassRangeCount;
    while (lo < hi) {
        std::size_t mid = (lo + hi) / 2;
        if (kClassRanges[mid].last < c) {
            lo = mid + 1;
        } else if (kClassRanges[mid].first > c) {
            hi = mid;
        } else {
            return kClassRanges[mid].value;
        }
    }
    return GraphemeClass::Other;
}

namespace {

using G = GraphemeClass;

bool is_control(G g) { return g == G::Control || g == G::CR || g == G::LF; }

}  // namespace

std::size_t cluster_end(std::string_view text, std::size_t start) {
    std::size_t i = start;
    G previous = class_of(utf8::decode(text, i));
    // GB11 needs "pictograph, then Extend*, then ZWJ" before a pictograph;
    // GB12/13 need the parity of the regional indicators run.
    bool pictograph_then_extends = previous == G::ExtendedPictographic;
    bool zwj_after_pictograph = false;
    int regional_indicators = previous == G::RegionalIndicator ? 1 : 0;
    while (i < text.size()) {
        std::size_t next_index = i;
        G next = class_of(utf8::decode(text, next_index));
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
        previous = next;
        i = next_index;
    }
    return i;
}

}  // namespace bx::grapheme
