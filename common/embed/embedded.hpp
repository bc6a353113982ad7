// The model and the tokenizer, compiled into the binary.
//
// As in the post (include_bytes!), nothing is loaded at run time: the bytes are
// part of the wasm data segment, so "loading" the model is taking a pointer.
// Both spans are empty when the build ran without the files (CMake embeds only
// what exists in assets/ at configure time, and re-configures when they appear).
#pragma once

#include <span>

namespace bx {

// assets/model/model.bxm, 64-byte aligned (see assets/model/FORMAT.md).
std::span<const char> embedded_model();

// assets/tokenizer/tokenizer.json, as UTF-8 text.
std::span<const char> embedded_tokenizer_json();

}  // namespace bx
