// What the build made from assets/tokenizer/tokenizer.json for this stage
// (build-time/make_tokenizer_data.cpp), embedded in the binary.
#pragma once

#include <span>

namespace bx::stage {

// The vocabulary blob (FORMAT.md).
std::span<const char> embedded_vocab_blob();

// tokenizer.json without model.vocab: normaliser, pre-tokeniser, post-processor.
std::span<const char> embedded_slim_tokenizer_json();

}  // namespace bx::stage
