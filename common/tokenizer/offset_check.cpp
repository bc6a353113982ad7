// See offset_check.hpp.
#include "common/tokenizer/offset_check.hpp"

#include <vector>

#include "common/text/grapheme.hpp"
#include "common/text/utf8.hpp"
#include "common/tokenizer/normalized_string.hpp"
#include "common/tokenizer/precompiled_normalizer.hpp"

namespace bx {

namespace {

// `original` normalised on its own, each ' ' written as the metaspace.
std::string normalise_alone(const TokenizerConfig& config, std::string_view original) {
    NormalizedString normalized(original, 0);
    if (!config.charsmap.empty()) apply_precompiled(config.charsmap, normalized);
    std::string out;
    for (char c : normalized.text()) {
        if (c == ' ') {
            out += config.metaspace;
        } else {
            out.push_back(c);
        }
    }
    return out;
}

// Each character of `original` normalised alone, concatenated: how the
// normaliser reads a cluster too long to be looked up whole (6 bytes or
// more), which a substring of it, normalised as one piece, might not be.
std::string normalise_each(const TokenizerConfig& config, std::string_view original) {
    std::string out;
    for (std::size_t i = 0; i < original.size();) {
        const std::size_t start = i;
        i += utf8::sequence_length(static_cast<unsigned char>(original[i]));
        out += normalise_alone(config, original.substr(start, i - start));
    }
    return out;
}

bool only_metaspaces(std::string_view s, std::string_view metaspace) {
    while (s.starts_with(metaspace)) s.remove_prefix(metaspace.size());
    return s.empty();
}

std::string quoted(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (static_cast<unsigned char>(c) < 0x20) {
            static const char* hex = "0123456789abcdef";
            out += "\\u00";
            out += hex[(c >> 4) & 0xF];
            out += hex[c & 0xF];
        } else {
            out += c;
        }
    }
    return out + "\"";
}

}  // namespace

std::string check_offsets(const Tokenizer& tokenizer, std::string_view text, const Encoding& encoding) {
    const TokenizerConfig& config = tokenizer.config();
    const std::string& metaspace = config.metaspace;
    std::vector<bool> covered(text.size() + 1, false);
    const std::size_t content_begin = config.prefix_ids.size();
    const std::size_t content_end = encoding.ids.size() - config.suffix_ids.size();
    for (std::size_t k = content_begin; k < content_end; ++k) {
        const Span span = encoding.offsets[k];
        if (span.begin > span.end || span.end > text.size()) {
            return "token " + std::to_string(k) + " has a range outside the text";
        }
        for (std::uint32_t i = span.begin; i < span.end; ++i) covered[i] = true;
        std::string_view token = encoding.tokens[k];
        if (token.starts_with(metaspace)) token.remove_prefix(metaspace.size());
        if (token.empty()) continue;
        const std::string_view original = text.substr(span.begin, span.end - span.begin);
        // An added token typed in the text is split out before normalising, so
        // it reads as itself; one written otherwise ("＜s＞") reads normalised.
        bool added_token = false;
        for (const AddedToken& added : config.added_tokens) added_token = added_token || added.content == token;
        const std::string read = normalise_alone(config, original);
        if (read.find(token) == std::string::npos && normalise_each(config, original).find(token) == std::string::npos &&
            !(added_token && original == token)) {
            return "token " + std::to_string(k) + " " + quoted(encoding.tokens[k]) + " covers " + quoted(original) +
                   " (bytes " + std::to_string(span.begin) + "-" + std::to_string(span.end) + "), which reads " +
                   quoted(read);
        }
    }
    // Cluster by cluster, as the normaliser reads: a combining mark the
    // charsmap drops with its base (a whole-cluster lookup) reads as itself alone.
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = grapheme::cluster_end(text, start);
        const std::string_view cluster = text.substr(start, end - start);
        bool any_covered = false;
        for (std::size_t i = start; i < end; ++i) any_covered = any_covered || covered[i];
        if (!any_covered && !only_metaspaces(normalise_alone(config, cluster), metaspace) &&
            !only_metaspaces(normalise_each(config, cluster), metaspace)) {
            return "the characters " + quoted(cluster) + " at byte " + std::to_string(start) +
                   " are in no token's range, yet they normalise to something";
        }
        start = end;
    }
    return {};
}

}  // namespace bx
