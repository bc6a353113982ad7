// Alignment bookkeeping for NormalizedString (see normalized_string.hpp).
#include "common/tokenizer/normalized_string.hpp"

#include <algorithm>

#include "common/text/utf8.hpp"

namespace bx {

NormalizedString::NormalizedString(std::string_view original, std::uint32_t shift)
    : normalized_(original), shift_(shift) {
    alignments_.resize(original.size());
    std::size_t i = 0;
    while (i < original.size()) {
        std::size_t length = utf8::sequence_length(static_cast<unsigned char>(original[i]));
        Span span{shift + static_cast<std::uint32_t>(i), shift + static_cast<std::uint32_t>(i + length)};
        for (std::size_t k = 0; k < length; ++k) alignments_[i + k] = span;
        i += length;
    }
}

void NormalizedString::rewrite(const std::vector<Rewrite>& rewrites) {
    std::string out;
    std::vector<Span> out_alignments;
    out.reserve(normalized_.size());
    out_alignments.reserve(alignments_.size());
    std::size_t kept_until = 0;  // bytes before this are written or rewritten
    auto keep = [&](std::size_t end) {
        for (std::size_t i = kept_until; i < end; ++i) {
            out.push_back(normalized_[i]);
            // A kept byte keeps its own range, whatever was deleted before it.
            // The tokenizer's unit and fuzz tests have a mutant that takes the
            // range at the byte's new position instead (the offsets HF reports
            // after a deleted character): they must catch it.
            // mutation-point: kept-range
            out_alignments.push_back(alignments_[i]);
        }
    };
    for (const Rewrite& r : rewrites) {
        keep(r.begin);
        const Span origin{alignments_[r.begin].begin, alignments_[r.end - 1].end};
        out.append(r.replacement);
        out_alignments.insert(out_alignments.end(), r.replacement.size(), origin);
        kept_until = r.end;
    }
    keep(normalized_.size());
    normalized_ = std::move(out);
    alignments_ = std::move(out_alignments);
}

void NormalizedString::collapse_space_runs() {
    std::string out;
    std::vector<Span> out_alignments;
    out.reserve(normalized_.size());
    out_alignments.reserve(alignments_.size());
    std::size_t i = 0;
    while (i < normalized_.size()) {
        if (normalized_[i] == ' ') {
            std::size_t run_end = i;
            while (run_end < normalized_.size() && normalized_[run_end] == ' ') ++run_end;
            if (run_end - i >= 2) {
                out.push_back(' ');
                out_alignments.push_back(alignments_[run_end - 1]);
                i = run_end;
                continue;
            }
        }
        out.push_back(normalized_[i]);
        out_alignments.push_back(alignments_[i]);
        ++i;
    }
    normalized_ = std::move(out);
    alignments_ = std::move(out_alignments);
}

void NormalizedString::replace_spaces(std::string_view replacement) {
    std::string out;
    std::vector<Span> out_alignments;
    out.reserve(normalized_.size() + normalized_.size() / 4);
    out_alignments.reserve(out.capacity());
    for (std::size_t i = 0; i < normalized_.size(); ++i) {
        if (normalized_[i] == ' ') {
            out.append(replacement);
            out_alignments.insert(out_alignments.end(), replacement.size(), alignments_[i]);
        } else {
            out.push_back(normalized_[i]);
            out_alignments.push_back(alignments_[i]);
        }
    }
    normalized_ = std::move(out);
    alignments_ = std::move(out_alignments);
}

void NormalizedString::prepend(std::string_view s) {
    if (normalized_.empty()) return;
    normalized_.insert(0, s);
    alignments_.insert(alignments_.begin(), s.size(), alignments_[0]);
}

NormalizedString NormalizedString::slice(std::size_t begin, std::size_t end) const {
    NormalizedString piece;
    piece.normalized_.assign(normalized_, begin, end - begin);
    piece.alignments_.assign(alignments_.begin() + static_cast<std::ptrdiff_t>(begin),
                             alignments_.begin() + static_cast<std::ptrdiff_t>(end));
    piece.shift_ = begin < end ? alignments_[begin].begin : shift_;
    return piece;
}

std::vector<NormalizedString> NormalizedString::split_before(std::string_view delimiter) const {
    // Each delimiter opens a new piece; text before the first one is a piece of
    // its own; a delimiter directly followed by another delimiter (or the end)
    // is a piece of just itself. Empty pieces never occur.
    std::vector<NormalizedString> pieces;
    std::size_t piece_start = 0;
    std::size_t i = 0;
    while (i < normalized_.size()) {
        if (normalized_.compare(i, delimiter.size(), delimiter) == 0) {
            if (i > piece_start) pieces.push_back(slice(piece_start, i));
            piece_start = i;
            i += delimiter.size();
        } else {
            i += utf8::sequence_length(static_cast<unsigned char>(normalized_[i]));
        }
    }
    if (normalized_.size() > piece_start) pieces.push_back(slice(piece_start, normalized_.size()));
    return pieces;
}

}  // namespace bx
