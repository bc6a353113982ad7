// Alignment bookkeeping for NormalizedString (see normalized_string.hpp).
#include "common/tokenizer/normalized_string.hpp"

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

void NormalizedString::transform(const std::vector<CharChange>& changes) {
    // `offset` walks the old text as old characters are consumed: a change of 0
    // or -N consumes one (plus N); an insertion consumes none. HF's Precompiled
    // code does not always consume exactly what it replaced (a character mapped
    // to nothing at the very start is never consumed), and the offsets it then
    // reports shift: we reproduce the walk, not an idealised one.
    std::string out;
    std::vector<Span> out_alignments;
    out.reserve(normalized_.size());
    out_alignments.reserve(alignments_.size());
    std::size_t offset = 0;
    auto consume_one = [&] {
        if (offset < normalized_.size()) {
            offset += utf8::sequence_length(static_cast<unsigned char>(normalized_[offset]));
        }
    };
    for (const CharChange& change : changes) {
        Span align;
        if (change.change > 0) {
            align = offset < 1 ? Span{shift_, shift_} : alignments_[offset - 1];
        } else {
            // HF indexes alignments[offset] here; it cannot run past the end
            // because consumption never gets ahead of the old text.
            align = alignments_[offset < alignments_.size() ? offset : alignments_.size() - 1];
            consume_one();
            for (int k = 0; k < -change.change; ++k) consume_one();
        }
        std::size_t before = out.size();
        utf8::append(out, change.c);
        out_alignments.insert(out_alignments.end(), out.size() - before, align);
    }
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
