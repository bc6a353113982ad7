// The tokenizer data the build computed (bx_stage_data in CMakeLists.txt):
// the vocabulary blob and the slim tokenizer.json, compiled into the binary
// with #embed like the model, so loading them is taking a pointer.
#include "tokenizer_data.hpp"

#pragma clang diagnostic ignored "-Wc23-extensions"  // #embed is C23; the build is clang-only

#if !defined(BX_DATA_VOCAB_BLOB) || !defined(BX_DATA_TOKENIZER_SLIM_JSON)
#error "CMake passes the generated files' paths (bx_stage_data)"
#endif

namespace bx::stage {

namespace {
// 8-aligned like every section start inside it (FORMAT.md), although the
// reader needs no alignment.
alignas(8) const char kVocabBlob[] = {
#embed BX_DATA_VOCAB_BLOB
};

const char kSlimJson[] = {
#embed BX_DATA_TOKENIZER_SLIM_JSON
};
}  // namespace

std::span<const char> embedded_vocab_blob() { return {kVocabBlob, sizeof kVocabBlob}; }

std::span<const char> embedded_slim_tokenizer_json() { return {kSlimJson, sizeof kSlimJson}; }

}  // namespace bx::stage
