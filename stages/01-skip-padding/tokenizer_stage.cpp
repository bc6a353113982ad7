// The tokenizer: parse the embedded tokenizer.json and index its
// vocabulary, on every call (the post's starting point for Part 4).
#include <memory>

#include "common/embed/embedded.hpp"
#include "common/stage/stage.hpp"
#include "common/tokenizer/tokenizer_config.hpp"
#include "unigram.hpp"

namespace bx::stage {

std::unique_ptr<bx::Tokenizer> load_tokenizer_from_json(std::string_view json, std::string* error) {
    bx::TokenizerConfig config;
    if (!bx::read_tokenizer_config(json, config, error)) return nullptr;
    auto step = std::make_unique<NaiveUnigram>(config.vocab, config.unk_id);
    return std::make_unique<bx::Tokenizer>(std::move(config), std::move(step));
}

std::shared_ptr<const bx::Tokenizer> load_tokenizer(std::string* error) {
    std::span<const char> json = bx::embedded_tokenizer_json();
    if (json.empty()) {
        if (error) *error = "no tokenizer.json was embedded (assets/tokenizer/tokenizer.json missing at build time)";
        return nullptr;
    }
    return load_tokenizer_from_json(std::string_view(json.data(), json.size()), error);
}

}  // namespace bx::stage
