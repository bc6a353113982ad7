// See precompiled_normalizer.hpp.
#include "common/tokenizer/precompiled_normalizer.hpp"

#include "common/text/grapheme.hpp"
#include "common/text/utf8.hpp"

namespace bx {

namespace {

// Records "old_part became new_part" as char changes, the way HF's helper
// does: every new char replaces one old char (0); when the new text is longer,
// its last (new - old) chars are insertions (+1); when it is shorter, the last
// recorded change absorbs the difference (-N) -- which is the previous part's
// last char when new_part is empty, and nothing at all at the very start.
void record_replacement(std::vector<CharChange>& changes, std::string_view old_part,
                        std::string_view new_part) {
    int old_count = static_cast<int>(utf8::count_code_points(old_part));
    int new_count = static_cast<int>(utf8::count_code_points(new_part));
    int diff = new_count - old_count;
    for (std::size_t i = 0; i < new_part.size();) changes.push_back({utf8::decode(new_part, i), 0});
    if (diff > 0) {
        for (std::size_t k = changes.size() - static_cast<std::size_t>(diff); k < changes.size(); ++k) {
            changes[k].change = 1;
        }
    } else if (diff < 0 && !changes.empty()) {
        changes.back().change += diff;
    }
}

}  // namespace

void apply_precompiled(const PrecompiledCharsmap& charsmap, NormalizedString& text) {
    const std::string& s = text.text();
    std::vector<CharChange> changes;
    changes.reserve(s.size());
    bool modified = false;
    std::size_t start = 0;
    while (start < s.size()) {
        std::size_t end = grapheme::cluster_end(s, start);
        std::string_view cluster(s.data() + start, end - start);
        start = end;
        if (cluster.size() < 6) {
            if (auto replacement = charsmap.transform(cluster)) {
                record_replacement(changes, cluster, *replacement);
                modified = true;
                continue;
            }
        }
        for (std::size_t i = 0; i < cluster.size();) {
            std::size_t char_start = i;
            char32_t c = utf8::decode(cluster, i);
            std::string_view part = cluster.substr(char_start, i - char_start);
            if (auto replacement = charsmap.transform(part)) {
                record_replacement(changes, part, *replacement);
                modified = true;
            } else {
                changes.push_back({c, 0});
            }
        }
    }
    if (modified) text.transform(changes);
}

}  // namespace bx
