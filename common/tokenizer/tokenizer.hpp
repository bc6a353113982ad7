// The tokenizer: Hugging Face's pipeline for an XLM-R style Unigram model,
// bit-for-bit (ids, tokens and offsets) equal to tokenizers 0.22.2.
//
//   text -> split out special tokens written in the text ("<s>")
//        -> normalise each other piece (Precompiled charsmap, then " {2,}" -> " ")
//        -> pre-tokenise (Metaspace: ' ' -> '▁', prepend '▁', split before each '▁')
//        -> the stage's Unigram step on each pre-token
//        -> post-process: "<s> $A </s>"
//
// Everything but the Unigram step is common code; the step is what the stages
// optimise (the post's Part 4), so it comes in through UnigramStep, which the
// Tokenizer owns. README.md in this directory lists the reference's behaviours
// (quirks included) that this code reproduces, and how each was established.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/tokenizer/tokenizer_config.hpp"

namespace bx {

// A byte range [begin, end) in the original text.
struct Span {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    bool operator==(const Span&) const = default;
};

// One token chosen by the Unigram step: its id and its byte range within the
// normalised pre-token it came from. The token's text is that range (for an
// unknown piece too: HF keeps the text, with the unknown id).
struct Piece {
    std::int32_t id = 0;
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
};

struct Encoding {
    std::vector<std::int32_t> ids;
    std::vector<std::string> tokens;
    std::vector<Span> offsets;  // bytes of the original text; (0,0) for <s> and </s>
};

// The model step a stage supplies: Viterbi over one normalised pre-token.
class UnigramStep {
public:
    virtual ~UnigramStep() = default;
    // Appends the pieces of `normalized` (non-empty, valid UTF-8) to `out`, in order.
    virtual void encode(std::string_view normalized, std::vector<Piece>& out) const = 0;
    // -1 when the piece is not in the vocabulary.
    virtual std::int32_t token_to_id(std::string_view piece) const = 0;
    // Empty when out of range.
    virtual std::string_view id_to_token(std::int32_t id) const = 0;
    virtual std::int32_t unk_id() const = 0;
    // The vocabulary's scores as the step uses them (check-tok compares their
    // bits with the reference's).
    virtual std::size_t vocab_size() const = 0;
    virtual double score(std::int32_t id) const = 0;
};

class Tokenizer {
public:
    // `config` comes from read_tokenizer_config(); `step` from the stage.
    Tokenizer(TokenizerConfig config, std::unique_ptr<UnigramStep> step);

    // Encodes UTF-8 text, with <s> and </s>. The caller validates the text (our
    // JSON reader only yields valid UTF-8); ill-formed text gives just <s> </s>
    // rather than reading past a truncated sequence.
    Encoding encode(std::string_view text) const;

    const TokenizerConfig& config() const { return config_; }
    const UnigramStep& step() const { return *step_; }

private:
    TokenizerConfig config_;
    std::unique_ptr<UnigramStep> step_;
};

}  // namespace bx
