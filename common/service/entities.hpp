// From token spans back to the caller's text: which characters each entity
// covers, and the text with every entity replaced by its label.
//
// Offsets in the JSON API are Unicode code points (not bytes, not UTF-16 code
// units): `start` inclusive, `end` exclusive, so text[start:end] in Python
// gives the entity. Internally everything is byte ranges until the last step.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/service/bioes.hpp"
#include "common/service/labels.hpp"
#include "common/service/text_offsets.hpp"

namespace bx::service {

struct Entity {
    std::string label;      // entity type, e.g. "GIVEN_NAME"
    ByteRange bytes;        // in the original text, whitespace trimmed
    std::size_t start = 0;  // code points, inclusive
    std::size_t end = 0;    // code points, exclusive
    std::string text;       // the original characters
    float score = 0.0f;     // TokenSpan::score
};

// Maps each span to the original text. `token_bytes[t]` is content token t's
// byte range (the tokenizer's offsets). A span covers from the smallest begin
// to the largest end of its tokens, widened to whole characters, trimmed of
// whitespace, then widened to whole words (common/text/words.hpp): an entity
// never starts or ends inside a word. When the model's span cuts a word
// ("Web" of "Weber", "hitfield" after an entity's "W") the entity takes the
// whole word: a redactor hides a little too much rather than leak the rest of
// a name. Sentence punctuation the span ends with after a letter or digit
// (the "." of "030 1234567.") is left out. One exception, a fragment: a span
// that starts inside a run of letters or digits ("ency" of "emergency") of a
// word whose first piece the model left O starts at the next word instead, or
// is dropped if it ends before it (common/service/README.md, "Entities are
// whole words").
// Entities never overlap: one that would overlap the entity before it (two
// spans cutting the same word, or a ligature that two tokens share) is merged
// into that entity, which keeps its label and scores the mean over all the
// merged tokens (each span's probability sum added in span order, divided by
// the total token count). Result sorted by position, empty ranges dropped.
std::vector<Entity> locate_entities(std::string_view text, const std::vector<TokenSpan>& spans,
                                    std::span<const ByteRange> token_bytes,
                                    const LabelScheme& scheme);

// The minimum score of a reported entity when the request names none
// (common/service/README.md, "A minimum score of 0.5": the measurement behind it).
inline constexpr float kDefaultMinScore = 0.5f;

// Removes every entity whose score is below `min_score` (an entity scoring
// exactly the minimum stays), keeping the others in order. A minimum of 0
// keeps everything: scores are probabilities' means, never negative.
void drop_below_min_score(std::vector<Entity>& entities, float min_score);

// The text with each entity's characters replaced by "[LABEL]".
std::string redact_entities(std::string_view text, const std::vector<Entity>& entities);

}  // namespace bx::service
