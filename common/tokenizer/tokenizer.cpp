// The encoding pipeline (see tokenizer.hpp).
#include "common/tokenizer/tokenizer.hpp"

#include <cstring>

#include "common/text/utf8.hpp"
#include "common/tokenizer/normalized_string.hpp"
#include "common/tokenizer/precompiled_normalizer.hpp"

namespace bx {

namespace {

// A stretch of the original text: either an added token found verbatim, or
// ordinary text for the normaliser.
struct Segment {
    std::uint32_t begin;
    std::uint32_t end;
    const AddedToken* token;  // nullptr for ordinary text
};

// HF matches added tokens in the raw text leftmost-first, longest at a given
// start (aho-corasick LeftmostLongest), before any normalisation.
std::vector<Segment> split_added_tokens(std::string_view text, const std::vector<AddedToken>& tokens) {
    std::vector<Segment> segments;
    std::uint32_t plain_start = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        const AddedToken* best = nullptr;
        for (const AddedToken& token : tokens) {
            if (token.content.size() <= text.size() - i &&
                std::memcmp(text.data() + i, token.content.data(), token.content.size()) == 0 &&
                (!best || token.content.size() > best->content.size())) {
                best = &token;
            }
        }
        if (!best) {
            ++i;
            continue;
        }
        auto at = static_cast<std::uint32_t>(i);
        if (at > plain_start) segments.push_back({plain_start, at, nullptr});
        auto token_end = static_cast<std::uint32_t>(i + best->content.size());
        segments.push_back({at, token_end, best});
        plain_start = token_end;
        i = token_end;
    }
    if (text.size() > plain_start) {
        segments.push_back({plain_start, static_cast<std::uint32_t>(text.size()), nullptr});
    }
    return segments;
}

}  // namespace

Tokenizer::Tokenizer(TokenizerConfig config, std::unique_ptr<UnigramStep> step)
    : config_(std::move(config)), step_(std::move(step)) {}

Encoding Tokenizer::encode(std::string_view text) const {
    Encoding encoding;
    auto emit = [&](std::int32_t id, std::string token, Span span) {
        encoding.ids.push_back(id);
        encoding.tokens.push_back(std::move(token));
        encoding.offsets.push_back(span);
    };
    for (std::size_t k = 0; k < config_.prefix_ids.size(); ++k) {
        emit(config_.prefix_ids[k], config_.prefix_tokens[k], {0, 0});
    }

    std::vector<Piece> pieces;
    std::vector<Segment> segments;
    if (utf8::is_valid(text)) segments = split_added_tokens(text, config_.added_tokens);
    for (const Segment& segment : segments) {
        if (segment.token) {
            // The tokenizer fuzz target's mutant ends a special token one byte late.
            // mutation-point: special-end
            emit(segment.token->id, segment.token->content, {segment.begin, segment.end});
            continue;
        }
        NormalizedString normalized(text.substr(segment.begin, segment.end - segment.begin), segment.begin);
        if (!config_.charsmap.empty()) apply_precompiled(config_.charsmap, normalized);
        if (config_.collapse_spaces) normalized.collapse_space_runs();
        // Metaspace, prepend_scheme "always", split: each word starts with '▁'.
        normalized.replace_spaces(config_.metaspace);
        if (normalized.text().compare(0, config_.metaspace.size(), config_.metaspace) != 0) {
            normalized.prepend(config_.metaspace);
        }
        for (const NormalizedString& word : normalized.split_before(config_.metaspace)) {
            pieces.clear();
            step_->encode(word.text(), pieces);
            for (const Piece& piece : pieces) {
                emit(piece.id, word.text().substr(piece.begin, piece.end - piece.begin),
                     word.original_span(piece.begin, piece.end));
            }
        }
    }

    for (std::size_t k = 0; k < config_.suffix_ids.size(); ++k) {
        emit(config_.suffix_ids[k], config_.suffix_tokens[k], {0, 0});
    }
    return encoding;
}

}  // namespace bx
