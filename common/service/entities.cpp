#include "common/service/entities.hpp"

#include <algorithm>

#include "common/text/utf8.hpp"
#include "common/text/words.hpp"

namespace bx::service {

namespace {

// The bytes of the text that lie in a token the model labelled (a token of
// some span; the BIOES decoding puts every non-O token in one). Asked at a
// word's first byte, it says whether the model put the word's first piece in
// an entity or left it O.
class LabelledBytes {
public:
    LabelledBytes(const std::vector<TokenSpan>& spans, std::span<const ByteRange> token_bytes) {
        for (const TokenSpan& span : spans) {
            for (int t = std::max(span.first, 0);
                 t <= span.last && static_cast<std::size_t>(t) < token_bytes.size(); ++t) {
                if (!token_bytes[static_cast<std::size_t>(t)].empty()) {
                    ranges_.push_back(token_bytes[static_cast<std::size_t>(t)]);
                }
            }
        }
        std::sort(ranges_.begin(), ranges_.end(),
                  [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
        reach_.reserve(ranges_.size());
        for (const ByteRange& r : ranges_) reach_.push_back(std::max(reach_.empty() ? 0 : reach_.back(), r.end));
    }

    bool contains(std::size_t at) const {
        // The last range that begins at or before `at`; some range up to it reaches past `at`?
        auto it = std::upper_bound(ranges_.begin(), ranges_.end(), at,
                                   [](std::size_t offset, const ByteRange& r) { return offset < r.begin; });
        if (it == ranges_.begin()) return false;
        return reach_[static_cast<std::size_t>(it - ranges_.begin()) - 1] > at;
    }

    // How many characters of text[begin, end) lie in a labelled token.
    std::size_t labelled_characters(std::string_view text, std::size_t begin, std::size_t end) const {
        // From the first range that reaches past `begin` (reach_ never decreases).
        auto first = std::upper_bound(reach_.begin(), reach_.end(), begin);
        std::size_t count = 0, done = begin;  // characters before `done` are counted
        for (auto i = static_cast<std::size_t>(first - reach_.begin());
             i < ranges_.size() && ranges_[i].begin < end; ++i) {
            const std::size_t from = std::max(done, ranges_[i].begin);
            const std::size_t to = std::min(end, ranges_[i].end);
            if (from < to) {
                count += bx::utf8::count_code_points(text.substr(from, to - from));
                done = to;
            }
        }
        return count;
    }

private:
    std::vector<ByteRange> ranges_;    // sorted by begin
    std::vector<std::size_t> reach_;   // reach_[i]: the largest end among ranges_[0..i]
};

bool is_letter_digit_or_mark(bx::words::WordClass c) {
    return c == bx::words::WordClass::Letter || c == bx::words::WordClass::Mark ||
           c == bx::words::WordClass::Spaceless;
}

// A span that begins in the middle of a run of letters or digits
// ("Kontoinhaber|in", "confirm|amos", "02:1|4") of a word whose first piece
// the model left O, and whose characters the model labelled at most half of,
// is the tail of an ordinary word, not a name cut short: the entity starts at
// the next word instead, and is dropped when nothing is left. A span after a
// word's inner punctuation ("Tel:|0612345678"), one whose word starts in an
// entity ("W|hitfield", the model's B on "▁W") and one covering most of its
// word ("C|hang", "account|s@example.com") keep the whole word.
// Returns false when the span is dropped.
bool skip_fragment_start(std::string_view text, const bx::words::WordMap& words,
                         const LabelledBytes& labelled, ByteRange& range) {
    const bx::words::Word* word = words.inside(range.begin);
    if (!word || !is_letter_digit_or_mark(bx::words::class_before(text, range.begin)) ||
        labelled.contains(word->begin)) {
        return true;
    }
    const std::size_t characters =
        bx::utf8::count_code_points(text.substr(word->begin, word->end - word->begin));
    if (2 * labelled.labelled_characters(text, word->begin, word->end) > characters) return true;
    const bx::words::Word* next = words.first_from(word->end);
    if (!next || next->begin >= range.end) return false;
    range.begin = next->begin;
    return true;
}

// The marks that end or divide a sentence, in ASCII, fullwidth and CJK forms.
// Only these and the brackets and quotes below: a symbol that ends an entity
// may read as a letter to the model (NFKC makes the square "🈸" a Han character).
bool is_sentence_punctuation(char32_t c) {
    switch (c) {
        case U'.': case U',': case U';': case U':': case U'!': case U'?':
        case U'\u3002': case U'\u3001': case U'\uFF0E': case U'\uFF0C': case U'\uFF1B': case U'\uFF1A':
        case U'\uFF01': case U'\uFF1F': case U'\u2026':
            return true;
        default:
            return false;
    }
}

// A bracket or quote pair: what opens it and what closes it. A straight quote
// opens and closes with the same character.
struct Pair {
    char32_t open;
    char32_t close;
};
constexpr Pair kPairs[] = {
    {U'(', U')'}, {U'[', U']'}, {U'{', U'}'}, {U'\u00AB', U'\u00BB'} /* « » */, {U'\u2039', U'\u203A'} /* ‹ › */,
    {U'\u201C', U'\u201D'} /* “ ” */, {U'\u201E', U'\u201C'} /* „ “ */, {U'\u2018', U'\u2019'} /* ‘ ’ */,
    {U'\u201A', U'\u2018'} /* ‚ ‘ */, {U'"', U'"'}, {U'\'', U'\''}, {U'\uFF08', U'\uFF09'} /* （ ） */,
    {U'\uFF3B', U'\uFF3D'} /* ［ ］ */, {U'\u300C', U'\u300D'} /* 「 」 */, {U'\u300E', U'\u300F'} /* 『 』 */,
    {U'\u3010', U'\u3011'} /* 【 】 */, {U'\u300A', U'\u300B'} /* 《 》 */, {U'\u3008', U'\u3009'} /* 〈 〉 */,
};

// How many times each character of a pair occurs in text[begin, end).
struct PairCount {
    int opens = 0;
    int closes = 0;
};
PairCount count_pair(std::string_view text, std::size_t begin, std::size_t end, const Pair& pair) {
    PairCount n;
    for (std::size_t at = begin; at < end;) {
        const char32_t c = bx::utf8::decode(text, at);
        if (c == pair.open) ++n.opens;
        else if (c == pair.close) ++n.closes;
    }
    return n;
}

// `c`, ending an entity text[begin, end) right after it, closes nothing the
// entity opened: for each pair `c` closes, what lies between the entity's first
// character (when that character opens the same pair: "(030 1234567)" is
// enclosed, not written with brackets) and `c` holds no opener left open. A
// straight quote is left open when an odd number of them lie there.
bool closes_nothing_inside(std::string_view text, std::size_t begin, std::size_t end, char32_t c) {
    std::size_t after_first = begin;
    const char32_t first = begin < end ? bx::utf8::decode(text, after_first) : 0;
    bool is_closer = false;
    for (const Pair& pair : kPairs) {
        if (pair.close != c) continue;
        is_closer = true;
        const PairCount n = count_pair(text, first == pair.open ? after_first : begin, end, pair);
        if (pair.open == pair.close ? n.closes % 2 == 1 : n.opens > n.closes) return false;
    }
    return is_closer;
}

// `c`, starting an entity whose text after it is text[begin, end), opens
// something the entity never closes.
bool opens_nothing_inside(std::string_view text, std::size_t begin, std::size_t end, char32_t c) {
    bool is_opener = false;
    for (const Pair& pair : kPairs) {
        if (pair.open != c) continue;
        is_opener = true;
        const PairCount n = count_pair(text, begin, end, pair);
        if (pair.open == pair.close ? n.closes % 2 == 1 : n.closes > n.opens) return false;
    }
    return is_opener;
}

// Moves the end of `range` back over what the sentence put after the entity:
// sentence punctuation, and brackets or quotes that close nothing the entity
// opened ("(030 1234567)." ends at "7"), as long as a letter, digit or mark
// comes before the new end (a range of punctuation alone is left for
// is_punctuation_only to drop). Punctuation inside the entity ("example.com", "(415) 555-0132")
// and a bracket the entity opened stay.
void drop_trailing_punctuation(std::string_view text, ByteRange& range) {
    std::size_t end = range.end;
    while (end > range.begin) {
        std::size_t start = end - 1;
        while (start > range.begin && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
        std::size_t at = start;
        const char32_t c = bx::utf8::decode(text, at);
        // The entity tests and their mutant (bx_unpaired_bracket_mutant_tests) check this.
        // mutation-point: unpaired-bracket
        const bool sentence_mark = is_sentence_punctuation(c) || closes_nothing_inside(text, range.begin, start, c);
        if (!sentence_mark) break;
        end = start;
        if (end > range.begin && is_letter_digit_or_mark(bx::words::class_before(text, end))) range.end = end;
    }
}

// Moves the start of `range` past brackets and quotes that open something the
// entity never closes ("(030 1234567" starts at "0"), when a letter, digit or
// mark follows.
void drop_leading_openers(std::string_view text, ByteRange& range) {
    while (range.begin < range.end) {
        std::size_t next = range.begin;
        const char32_t c = bx::utf8::decode(text, next);
        if (next >= range.end || !opens_nothing_inside(text, next, range.end, c)) break;
        std::size_t after = next;
        if (!is_letter_digit_or_mark(bx::words::class_of(bx::utf8::decode(text, after)))) break;
        range.begin = next;
    }
}

// True when `range` holds nothing but punctuation (General_Category P) and
// white space: a "¡" or a "--" the model labelled on its own. Punctuation is
// never personal data, so such an entity hides nothing, and redacting it would
// take the sentence's punctuation ("¡Hola" losing its "¡"). Symbols do not
// count: one may read as a letter to the model once normalised.
bool is_punctuation_only(std::string_view text, ByteRange range) {
    for (std::size_t i = range.begin; i < range.end;) {
        const bx::words::WordClass c = bx::words::class_of(bx::utf8::decode(text, i));
        if (c != bx::words::WordClass::Punctuation && c != bx::words::WordClass::Space) return false;
    }
    return true;
}

}  // namespace

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
    const LabelledBytes labelled(spans, token_bytes);
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
        // The entity tests and their mutant (bx_entities_mutant_tests) check this.
        // mutation-point: fragment-start
        if (!skip_fragment_start(text, words, labelled, range)) continue;
        // The entity tests, the request fuzz target and its second mutant check this.
        // mutation-point: whole-words
        words.widen_to_words(range.begin, range.end);
        // A "." or "," the model put at the end ("030 1234567.") is the
        // sentence's, not the entity's, and so is a bracket the entity did not
        // open. The entity tests and their mutants
        // (bx_sentence_punctuation_mutant_tests, bx_unpaired_bracket_mutant_tests) check this.
        // mutation-point: sentence-punctuation
        drop_trailing_punctuation(text, range);
        drop_leading_openers(text, range);
        // The entity tests and their mutant (bx_punctuation_only_mutant_tests) check this.
        // mutation-point: punctuation-only
        if (is_punctuation_only(text, range)) continue;

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

void drop_below_min_score(std::vector<Entity>& entities, float min_score) {
    // The entity tests and their mutant (bx_min_score_mutant_tests) check this.
    // mutation-point: min-score
    std::erase_if(entities, [min_score](const Entity& e) { return e.score < min_score; });
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
