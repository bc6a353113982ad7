// An oracle for the tokenizer's offsets that does not trust its bookkeeping:
// it asks the normaliser again, about the original characters alone.
//
//   1. A token reads what it covers. The original characters of a content
//      token's range, normalised on their own (the charsmap; spaces as '▁'),
//      as one piece or character by character (a long cluster is normalised
//      per character), contain the token's text (its leading '▁' aside, which
//      stands for the word boundary the pre-tokeniser adds). An added token
//      typed in the text reads as itself.
//   2. Nothing is left out. Every grapheme cluster outside every token's
//      range normalises on its own (whole, or character by character) to
//      nothing or to spaces: the normaliser deleted it (a control or format
//      character) or it was a space.
//
// Offsets that slide past deleted characters fail both: the token's range
// holds the deleted characters (which read as nothing), and the characters it
// came from lie outside every range. check-tok runs this on every text, the
// tokenizer fuzz target on every input and the hostile-text test on every case.
#pragma once

#include <string>
#include <string_view>

#include "common/tokenizer/tokenizer.hpp"

namespace bx {

// Empty when `encoding` (of `text`, by `tokenizer`) holds both properties;
// otherwise the first fault, in words.
std::string check_offsets(const Tokenizer& tokenizer, std::string_view text, const Encoding& encoding);

}  // namespace bx
