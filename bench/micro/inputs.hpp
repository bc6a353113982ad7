// Inputs and fingerprints shared by the microbenchmarks. Inputs are
// deterministic (a fixed xorshift stream), so a fingerprint of the outputs is a
// stable fact about the arithmetic, and every run times the same work.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace bx::bench {

class Xorshift {
public:
    explicit Xorshift(std::uint32_t seed) : s_(seed ? seed : 1) {}
    std::uint32_t next() {
        s_ ^= s_ << 13;
        s_ ^= s_ >> 17;
        s_ ^= s_ << 5;
        return s_;
    }
    // Uniform in [-spread, spread), on a 2^-20 grid (exactly representable).
    float uniform(float spread) {
        return static_cast<float>(static_cast<std::int32_t>(next() >> 11) - (1 << 20)) * (spread / 1048576.0f);
    }

private:
    std::uint32_t s_;
};

// Activation-like values: mostly within a few units, with a few special values
// (zeros, exact .5 steps, negative zero) that rounding code must get right.
inline std::vector<float> activations(std::size_t n, std::uint32_t seed, float spread = 4.0f) {
    Xorshift rng(seed);
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = rng.uniform(spread);
    if (n > 8) {
        v[1] = 0.0f;
        v[3] = -0.0f;
        v[5] = 2.5f;
        v[7] = -0.5f;
    }
    return v;
}

inline std::vector<std::int8_t> int8s(std::size_t n, std::uint32_t seed) {
    Xorshift rng(seed);
    std::vector<std::int8_t> v(n);
    for (auto& x : v) x = static_cast<std::int8_t>(static_cast<int>(rng.next() % 255) - 127);
    return v;
}

// FNV-1a 64 over bytes: bit patterns, so -0.0 vs 0.0 and NaN payloads count.
inline std::uint64_t fingerprint(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < size; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

template <class T>
std::uint64_t fingerprint(const std::vector<T>& v) {
    return fingerprint(v.data(), v.size() * sizeof(T));
}

}  // namespace bx::bench
