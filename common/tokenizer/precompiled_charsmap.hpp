// sentencepiece's "precompiled charsmap": the normalisation rules (here NFKC
// plus sentencepiece's whitespace/control handling) compiled into a blob:
//
//   u32 (little endian)  trie_bytes
//   trie_bytes / 4 x u32 darts-clone double-array trie, keys = UTF-8 source strings
//   the rest             normalised strings, each ending in a NUL byte
//
// A key's value is the byte offset of its replacement in the second part.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bx {

class PrecompiledCharsmap {
public:
    // From the base64 text in tokenizer.json. False with *error on a bad blob.
    bool load_base64(std::string_view base64, std::string* error);
    bool load_blob(std::string_view blob, std::string* error);

    bool empty() const { return units_.empty(); }

    // The replacement for the *shortest* key that is a prefix of `chunk`, as
    // spm_precompiled's `transform` does (it takes the first hit of a
    // common-prefix search), or nothing when no key is a prefix.
    std::optional<std::string_view> transform(std::string_view chunk) const;

private:
    std::vector<std::uint32_t> units_;
    std::string normalized_;
};

// Standard base64 (with padding) to bytes; false on invalid input.
bool decode_base64(std::string_view text, std::string& out);

}  // namespace bx
