#include "common/service/entities.hpp"

#include <algorithm>

namespace bx::service {

std::vector<Entity> locate_entities(std::string_view text, const std::vector<TokenSpan>& spans,
                                    std::span<const ByteRange> token_bytes,
                                    const LabelScheme& scheme) {
    std::vector<Entity> entities;
    CodePointCounter counter(text);
    std::size_t previous_end = 0;
    for (const TokenSpan& span : spans) {
        if (span.first < 0 || span.last < span.first ||
            static_cast<std::size_t>(span.last) >= token_bytes.size()) {
            continue;  // a span outside the tokens cannot be placed; never index past them
        }
        ByteRange range = token_bytes[static_cast<std::size_t>(span.first)];
        for (int t = span.first + 1; t <= span.last; ++t) {
            const ByteRange& r = token_bytes[static_cast<std::size_t>(t)];
            range.begin = std::min(range.begin, r.begin);
            range.end = std::max(range.end, r.end);
        }
        range = trim_whitespace(text, snap_to_characters(text, range));
        if (range.begin < previous_end) {
            range.begin = std::min(previous_end, range.end);
            range = trim_whitespace(text, range);
        }
        if (range.empty()) continue;

        Entity entity;
        entity.label = span.type >= 0 && static_cast<std::size_t>(span.type) < scheme.types.size()
                           ? scheme.types[static_cast<std::size_t>(span.type)]
                           : std::string("UNKNOWN");
        entity.bytes = range;
        entity.start = counter.at(range.begin);
        // The request fuzz target's mutant ends each entity one code point early.
        // mutation-point: entity-end
        entity.end = counter.at(range.end);
        entity.text = std::string(text.substr(range.begin, range.end - range.begin));
        entity.score = span.score;
        previous_end = range.end;
        entities.push_back(std::move(entity));
    }
    return entities;
}

std::string redact_entities(std::string_view text, const std::vector<Entity>& entities) {
    std::string out;
    out.reserve(text.size());
    std::size_t copied = 0;  // bytes of `text` already handled
    for (const Entity& e : entities) {
        if (e.bytes.begin < copied || e.bytes.end > text.size()) continue;  // sorted, in range
        out.append(text.substr(copied, e.bytes.begin - copied));
        out += '[';
        out += e.label;
        out += ']';
        copied = e.bytes.end;
    }
    out.append(text.substr(copied));
    return out;
}

}  // namespace bx::service
