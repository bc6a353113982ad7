// What we read from tokenizer.json: exactly the components an XLM-R style
// Unigram tokenizer uses, and nothing else. Anything we do not implement is
// refused by name, so a different tokenizer.json cannot be half-understood.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/json/json.hpp"
#include "common/tokenizer/precompiled_charsmap.hpp"

namespace bx {

// A token matched in the raw text before normalisation ("<s>" typed by a user).
struct AddedToken {
    std::int32_t id = 0;
    std::string content;
};

struct VocabEntry {
    std::string piece;
    double score = 0;        // as the reference holds it (serde_json's parse)
};

struct TokenizerConfig {
    std::vector<AddedToken> added_tokens;
    PrecompiledCharsmap charsmap;     // normalizer Sequence[0]
    bool collapse_spaces = false;     // normalizer Sequence[1]: Replace " {2,}" -> " "
    std::string metaspace = "\xE2\x96\x81";  // '▁'
    std::vector<std::int32_t> prefix_ids, suffix_ids;  // TemplateProcessing around $A
    std::vector<std::string> prefix_tokens, suffix_tokens;
    std::int32_t unk_id = 0;
    std::vector<VocabEntry> vocab;    // the Unigram model, for the stage to index
};

// Where the Unigram vocabulary lives. Up to stage 03 it is read from
// tokenizer.json's model.vocab. From stage 04 on it is compiled into a blob at
// build time, and the stage embeds a "slim" tokenizer.json whose model has no
// vocab (its unk_id is then checked against the blob by the stage).
enum class VocabSource { Json, Elsewhere };

// Reads a parsed tokenizer.json. False with *error naming the first thing
// missing or unsupported (e.g. `unsupported normalizer "NFD"`).
bool read_tokenizer_config(const json::Value& root, TokenizerConfig& out, std::string* error,
                           VocabSource vocab = VocabSource::Json);

// Parses the text and reads it.
bool read_tokenizer_config(std::string_view json_text, TokenizerConfig& out, std::string* error,
                           VocabSource vocab = VocabSource::Json);

}  // namespace bx
