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
// to the largest end of its tokens, widened to whole characters, then
// whitespace-trimmed. Entities never overlap: one that starts before the
// previous one ends (possible when normalisation makes two tokens share one
// character, e.g. a ligature) starts where the previous one ends instead, and
// an entity left empty is dropped. Result sorted by position.
std::vector<Entity> locate_entities(std::string_view text, const std::vector<TokenSpan>& spans,
                                    std::span<const ByteRange> token_bytes,
                                    const LabelScheme& scheme);

// The text with each entity's characters replaced by "[LABEL]".
std::string redact_entities(std::string_view text, const std::vector<Entity>& entities);

}  // namespace bx::service
