// Hugging Face's `Precompiled` normaliser: the charsmap applied cluster by
// cluster, exactly as tokenizers 0.22.2 does it (checked against the reference):
//
// - the text is cut into extended grapheme clusters;
// - a cluster shorter than 6 bytes is looked up whole: if any key is a prefix
//   of it, the *whole cluster* becomes the replacement of the shortest such key
//   ("Ａ" + U+0301 becomes "A": the accent is dropped, as sentencepiece does);
// - otherwise each character is looked up on its own (a key that is a prefix
//   of the character's bytes, i.e. the character itself) and kept if none.
//
// Each replacement is aligned with the cluster or character it replaces, so
// the normalised text keeps an exact map back to the original characters.
#pragma once

#include "common/tokenizer/normalized_string.hpp"
#include "common/tokenizer/precompiled_charsmap.hpp"

namespace bx {

void apply_precompiled(const PrecompiledCharsmap& charsmap, NormalizedString& text);

}  // namespace bx
