#include "common/service/entities.hpp"

#include <algorithm>

#include "common/text/words.hpp"

namespace bx::service {

std::vector<Entity> locate_entities(std::string_view text, const std::vector<TokenSpan>& spans,
                                    std::span<const ByteRange> token_bytes,
                                    const LabelScheme& scheme) {
    struct Placed {
        ByteRange range;
        int type = 0;
        float score = 0.0f;
        float probability_sum = 0.0f;
        int tokens = 0;
    };
    std::vector<Placed> placed;
    const bx::words::WordMap words(spans.empty() ? std::string_view() : text);
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
        if (range.empty()) continue;
        // The entity tests, the request fuzz target and its second mutant check this.
        // mutation-point: whole-words
        words.widen_to_words(range.begin, range.end);

        placed.push_back({range, span.type, span.score, span.probability_sum, span.tokens()});
        // Merge backwards while the newest overlaps the one before it; this
        // keeps the list sorted and disjoint whatever order the offsets come in.
        while (placed.size() >= 2 && placed.back().range.begin < placed[placed.size() - 2].range.end) {
            const Placed later = placed.back();
            placed.pop_back();
            Placed& earlier = placed.back();
            earlier.range.begin = std::min(earlier.range.begin, later.range.begin);
            earlier.range.end = std::max(earlier.range.end, later.range.end);
            earlier.probability_sum += later.probability_sum;
            earlier.tokens += later.tokens;
            earlier.score = earlier.probability_sum / static_cast<float>(earlier.tokens);
        }
    }

    std::vector<Entity> entities;
    entities.reserve(placed.size());
    CodePointCounter counter(text);
    for (const Placed& p : placed) {
        Entity entity;
        entity.label = p.type >= 0 && static_cast<std::size_t>(p.type) < scheme.types.size()
                           ? scheme.types[static_cast<std::size_t>(p.type)]
                           : std::string("UNKNOWN");
        entity.bytes = p.range;
        entity.start = counter.at(p.range.begin);
        // The request fuzz target's mutant ends each entity one code point early.
        // mutation-point: entity-end
        entity.end = counter.at(p.range.end);
        entity.text = std::string(text.substr(p.range.begin, p.range.end - p.range.begin));
        entity.score = p.score;
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
