// Reading and searching a precompiled charsmap (see precompiled_charsmap.hpp).
#include "common/tokenizer/precompiled_charsmap.hpp"

namespace bx {

bool decode_base64(std::string_view text, std::string& out) {
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+') return 62;
        if (c == '/') return 63;
        return -1;
    };
    out.clear();
    out.reserve(text.size() / 4 * 3);
    std::uint32_t bits = 0;
    int bit_count = 0;
    std::size_t i = 0;
    for (; i < text.size() && text[i] != '='; ++i) {
        int v = value(text[i]);
        if (v < 0) return false;
        bits = (bits << 6) | static_cast<std::uint32_t>(v);
        bit_count += 6;
        if (bit_count >= 8) {
            bit_count -= 8;
            out.push_back(static_cast<char>((bits >> bit_count) & 0xFF));
        }
    }
    for (; i < text.size(); ++i) {
        if (text[i] != '=') return false;  // only padding may follow padding
    }
    return true;
}

bool PrecompiledCharsmap::load_base64(std::string_view base64, std::string* error) {
    std::string blob;
    if (!decode_base64(base64, blob)) {
        if (error) *error = "precompiled_charsmap is not valid base64";
        return false;
    }
    return load_blob(blob, error);
}

bool PrecompiledCharsmap::load_blob(std::string_view blob, std::string* error) {
    auto u32_at = [&](std::size_t at) {
        const auto* b = reinterpret_cast<const unsigned char*>(blob.data()) + at;
        return std::uint32_t(b[0]) | (std::uint32_t(b[1]) << 8) | (std::uint32_t(b[2]) << 16) |
               (std::uint32_t(b[3]) << 24);
    };
    if (blob.size() < 4) {
        if (error) *error = "precompiled_charsmap is too short";
        return false;
    }
    std::uint32_t trie_bytes = u32_at(0);
    if (trie_bytes % 4 != 0 || trie_bytes == 0 || trie_bytes > blob.size() - 4) {
        if (error) *error = "precompiled_charsmap has a bad trie size";
        return false;
    }
    units_.resize(trie_bytes / 4);
    for (std::size_t k = 0; k < units_.size(); ++k) units_[k] = u32_at(4 + 4 * k);
    normalized_.assign(blob.substr(4 + trie_bytes));
    return true;
}

std::optional<std::string_view> PrecompiledCharsmap::transform(std::string_view chunk) const {
    if (units_.empty()) return std::nullopt;
    // darts-clone unit layout: bit 8 = has a leaf child, low byte (+ bit 31) =
    // label, bits 10.. = offset to the children (scaled by 256 when bit 9 is set).
    auto has_leaf = [](std::uint32_t unit) { return ((unit >> 8) & 1) != 0; };
    auto value = [](std::uint32_t unit) { return unit & 0x7FFFFFFFu; };
    auto label = [](std::uint32_t unit) { return unit & 0x800000FFu; };
    auto offset = [](std::uint32_t unit) { return (unit >> 10) << ((unit & (1u << 9)) >> 6); };

    std::size_t node = offset(units_[0]);
    for (char ch : chunk) {
        auto c = static_cast<unsigned char>(ch);
        if (c == 0) break;  // keys are NUL-terminated
        node ^= c;
        if (node >= units_.size()) return std::nullopt;
        std::uint32_t unit = units_[node];
        if (label(unit) != c) return std::nullopt;
        node ^= offset(unit);
        if (node >= units_.size()) return std::nullopt;
        if (has_leaf(unit)) {
            // The first (shortest) key found is the one used.
            std::size_t start = value(units_[node]);
            if (start >= normalized_.size()) return std::nullopt;
            std::size_t end = normalized_.find('\0', start);
            if (end == std::string::npos) end = normalized_.size();
            return std::string_view(normalized_).substr(start, end - start);
        }
    }
    return std::nullopt;
}

}  // namespace bx
