// #embed (C23, accepted by clang 19 in C++ as an extension) turns a file into
// an initializer list at compile time; ~5 s for a 23 MB model. CMake defines
// BX_EMBED_MODEL / BX_EMBED_TOKENIZER to the file paths when the files exist.
//
// The element type is `char`, not `unsigned char`: clang 19 reports a bogus
// narrowing error for the latter.
#include "common/embed/embedded.hpp"

#pragma clang diagnostic ignored "-Wc23-extensions"  // #embed is C23; the build is clang-only

namespace bx {

namespace {
#ifdef BX_EMBED_MODEL
alignas(64) const char kModel[] = {
#embed BX_EMBED_MODEL
};
#endif

#ifdef BX_EMBED_TOKENIZER
alignas(64) const char kTokenizerJson[] = {
#embed BX_EMBED_TOKENIZER
};
#endif
}  // namespace

std::span<const char> embedded_model() {
#ifdef BX_EMBED_MODEL
    return {kModel, sizeof kModel};
#else
    return {};
#endif
}

std::span<const char> embedded_tokenizer_json() {
#ifdef BX_EMBED_TOKENIZER
    return {kTokenizerJson, sizeof kTokenizerJson};
#else
    return {};
#endif
}

}  // namespace bx
