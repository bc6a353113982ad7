// The tokenizer, built once per instance and then shared by every request.
// Building it reads the slim tokenizer.json (normaliser, pre-tokeniser,
// post-processor) and validates the vocabulary blob's header and tables.
//
// Why once is enough: the tokenizer depends only on data embedded in the
// module, never on a request, and every caller only reads it (encode is
// const). Why once is free: the component is pre-initialised at build time
// (`wasmtime wizer`, see CMakeLists.txt). Wizer runs the module's
// `wizer-initialize` export (common/http/preinitialise.cpp), which asks for
// the tokenizer once, and then writes the module's whole memory back out as
// its data: the tokenizer this function built is in the memory image every
// new instance starts from, so a request finds it already there.
//
// Exactness: the tokenizer is the one a request would build, byte for byte
// in the same memory; only the moment it is built moves. Its ids and offsets are
// compared with the reference by check-tok, and the logits by the checks.
#include <memory>
#include <string>

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

namespace {

std::shared_ptr<const bx::Tokenizer> build_tokenizer(std::string* error) {
    bx::TokenizerConfig config;
    std::span<const char> slim = embedded_slim_tokenizer_json();
    if (!bx::read_tokenizer_config(std::string_view(slim.data(), slim.size()), config, error,
                                   bx::VocabSource::Elsewhere)) {
        return nullptr;
    }
    return assemble(std::move(config), BlobUnigram::open(embedded_vocab_blob(), error), error);
}

// The outcome of the one build: the tokenizer, or why there is none.
struct Built {
    std::shared_ptr<const bx::Tokenizer> tokenizer;
    std::string error;
};

}  // namespace

std::shared_ptr<const bx::Tokenizer> load_tokenizer(std::string* error) {
    static const Built built = [] {
        Built b;
        b.tokenizer = build_tokenizer(&b.error);
        return b;
    }();
    if (!built.tokenizer && error) *error = built.error;
    return built.tokenizer;
}

}  // namespace bx::stage
