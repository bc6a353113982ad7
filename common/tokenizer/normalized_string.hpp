// A piece of text being normalised, with the map back to the original bytes.
//
// This mirrors Hugging Face's NormalizedString closely, because the offsets the
// reference reports come out of its alignment bookkeeping, quirks included:
// every normalised byte carries the original range of the character it came
// from, and edits are applied as a list of (new char, change) pairs where
// change is 0 (replaces the next old char), +1 (inserted, takes the alignment
// of the byte before) or -N (replaces the next old char and drops N more).
// Alignments here are absolute byte offsets into the whole original text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/tokenizer/tokenizer.hpp"

namespace bx {

struct CharChange {
    char32_t c;
    int change;
};

class NormalizedString {
public:
    NormalizedString() = default;
    // `original` is the slice of the whole text that starts at byte `shift`.
    NormalizedString(std::string_view original, std::uint32_t shift);

    const std::string& text() const { return normalized_; }
    const std::vector<Span>& alignments() const { return alignments_; }
    bool empty() const { return normalized_.empty(); }

    // Replaces the whole normalised text by `changes` (HF's transform over the
    // full range with initial_offset 0).
    void transform(const std::vector<CharChange>& changes);

    // Every maximal run of two or more ' ' becomes one ' ' (HF Replace with
    // Regex " {2,}"): the new space takes the alignment of the run's last byte.
    void collapse_space_runs();

    // Every ' ' becomes `replacement`, aligned with that space.
    void replace_spaces(std::string_view replacement);

    // `s` in front, aligned with the first character (no-op when empty).
    void prepend(std::string_view s);

    // Splits before every occurrence of `delimiter` (HF MergedWithNext): the
    // delimiter starts the next piece; consecutive delimiters stand alone.
    std::vector<NormalizedString> split_before(std::string_view delimiter) const;

    // The original byte range of normalised bytes [begin, end), end > begin.
    Span original_span(std::uint32_t begin, std::uint32_t end) const {
        return {alignments_[begin].begin, alignments_[end - 1].end};
    }

private:
    std::string normalized_;
    std::vector<Span> alignments_;
    std::uint32_t shift_ = 0;  // absolute start of this piece's original text

    NormalizedString slice(std::size_t begin, std::size_t end) const;
};

}  // namespace bx
