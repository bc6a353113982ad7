// The tokenizer: the vocabulary was compiled at build time. Loading
// reads the slim tokenizer.json (normaliser, pre-tokeniser, post-processor:
// small and cheap) and validates the vocabulary blob's header and tables.
#include <memory>

#include "common/stage/stage.hpp"
#include "common/tokenizer/tokenizer_config.hpp"
#include "tokenizer_data.hpp"
#include "unigram.hpp"
#include "vocab_blob_writer.hpp"

namespace bx::stage {

namespace {

// The slim config and the blob were made from one tokenizer.json: they must
// agree on the unknown piece.
std::unique_ptr<bx::Tokenizer> assemble(bx::TokenizerConfig config, std::unique_ptr<BlobUnigram> step,
                                        std::string* error) {
    if (!step) return nullptr;
    if (step->unk_id() != config.unk_id) {
        if (error) *error = "tokenizer.json and the vocabulary blob disagree on unk_id";
        return nullptr;
    }
    return std::make_unique<bx::Tokenizer>(std::move(config), std::move(step));
}

}  // namespace

// A whole tokenizer.json: the blob is made here, as the build would make it.
std::unique_ptr<bx::Tokenizer> load_tokenizer_from_json(std::string_view json, std::string* error) {
    bx::TokenizerConfig config;
    if (!bx::read_tokenizer_config(json, config, error)) return nullptr;
    std::string blob = write_vocab_blob(config.vocab, config.unk_id);
    config.vocab = {};
    return assemble(std::move(config), BlobUnigram::adopt(std::move(blob), error), error);
}

std::shared_ptr<const bx::Tokenizer> load_tokenizer(std::string* error) {
    bx::TokenizerConfig config;
    std::span<const char> slim = embedded_slim_tokenizer_json();
    if (!bx::read_tokenizer_config(std::string_view(slim.data(), slim.size()), config, error,
                                   bx::VocabSource::Elsewhere)) {
        return nullptr;
    }
    return assemble(std::move(config), BlobUnigram::open(embedded_vocab_blob(), error), error);
}

}  // namespace bx::stage
