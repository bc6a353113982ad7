// See precompiled_normalizer.hpp.
#include "common/tokenizer/precompiled_normalizer.hpp"

#include "common/text/grapheme.hpp"
#include "common/text/utf8.hpp"

namespace bx {

void apply_precompiled(const PrecompiledCharsmap& charsmap, NormalizedString& text) {
    const std::string& s = text.text();
    std::vector<Rewrite> rewrites;
    std::size_t start = 0;
    while (start < s.size()) {
        const std::size_t end = grapheme::cluster_end(s, start);
        const std::string_view cluster(s.data() + start, end - start);
        if (cluster.size() < 6) {
            if (auto replacement = charsmap.transform(cluster)) {
                rewrites.push_back({static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(end), *replacement});
                start = end;
                continue;
            }
        }
        for (std::size_t i = start; i < end;) {
            const std::size_t char_start = i;
            i += utf8::sequence_length(static_cast<unsigned char>(s[i]));
            if (auto replacement = charsmap.transform(std::string_view(s.data() + char_start, i - char_start))) {
                rewrites.push_back({static_cast<std::uint32_t>(char_start), static_cast<std::uint32_t>(i), *replacement});
            }
        }
        start = end;
    }
    if (!rewrites.empty()) text.rewrite(rewrites);
}

}  // namespace bx
