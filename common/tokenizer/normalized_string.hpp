// A piece of text being normalised, with the map back to the original bytes.
//
// Every normalised byte carries the original range it came from (absolute
// byte offsets into the whole original text). An edit names the old bytes it
// replaces, so whatever it writes in their place -- nothing, one character or
// many -- is aligned with exactly those bytes: a token's range is then the
// original characters its normalised text was made from, and nothing else.
// (Hugging Face's NormalizedString infers the alignment from a list of
// per-character changes instead, and loses track when a character is deleted
// at the start of a piece: README.md, "Offsets: where we part from the
// reference".)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/tokenizer/tokenizer.hpp"

namespace bx {

// One edit: the bytes [begin, end) of the current normalised text become
// `replacement` (empty: they are deleted).
struct Rewrite {
    std::uint32_t begin;
    std::uint32_t end;
    std::string_view replacement;
};

class NormalizedString {
public:
    NormalizedString() = default;
    // `original` is the slice of the whole text that starts at byte `shift`.
    NormalizedString(std::string_view original, std::uint32_t shift);

    const std::string& text() const { return normalized_; }
    const std::vector<Span>& alignments() const { return alignments_; }
    bool empty() const { return normalized_.empty(); }

    // Applies `rewrites` (sorted, disjoint, each on whole characters); bytes
    // outside them are kept as they are. What a rewrite writes takes the
    // original range of all the bytes it replaces.
    void rewrite(const std::vector<Rewrite>& rewrites);

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
