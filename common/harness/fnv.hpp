// FNV-1a, 64-bit: a tiny, well-known hash for fingerprints (model bytes,
// corpus bytes) and for a text's logit bits. Not cryptographic; it only has
// to make an accidental collision between two different results negligible
// (2^-64 per comparison), and be easy to reproduce from the documentation.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace bx::harness {

class Fnv64 {
public:
    void add_bytes(const void* data, std::size_t size) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < size; ++i) {
            hash_ ^= p[i];
            hash_ *= 0x100000001b3ull;  // the FNV 64-bit prime
        }
    }
    // A float's bit pattern, little-endian: -0.0 and 0.0 differ, and so do NaN payloads.
    void add_float_bits(float value) {
        std::uint32_t bits;
        std::memcpy(&bits, &value, 4);
        add_u32(bits);
    }
    void add_u32(std::uint32_t v) {
        const unsigned char b[4] = {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
                                    static_cast<unsigned char>(v >> 16), static_cast<unsigned char>(v >> 24)};
        add_bytes(b, 4);
    }
    std::uint64_t value() const { return hash_; }

private:
    std::uint64_t hash_ = 0xcbf29ce484222325ull;  // the FNV 64-bit offset basis
};

inline std::uint64_t fnv64(std::string_view bytes) {
    Fnv64 h;
    h.add_bytes(bytes.data(), bytes.size());
    return h.value();
}

}  // namespace bx::harness

namespace bx::harness {

// 16 lowercase hex digits, for fingerprints in messages and files.
inline std::string hex16(std::uint64_t v) {
    static const char kHex[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = kHex[v & 15];
    return out;
}

}  // namespace bx::harness
