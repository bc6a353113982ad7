// Float <-> bit-pattern helpers. The libm algorithms we follow pick their
// branches by comparing the IEEE-754 bit pattern of the argument with integer
// constants, never by comparing floats: that is exact and has no NaN surprises.
#pragma once

#include <bit>
#include <cstdint>

namespace bx {

inline std::uint32_t float_bits(float x) { return std::bit_cast<std::uint32_t>(x); }
inline float float_from_bits(std::uint32_t b) { return std::bit_cast<float>(b); }
inline std::uint64_t double_bits(double x) { return std::bit_cast<std::uint64_t>(x); }
inline double double_from_bits(std::uint64_t b) { return std::bit_cast<double>(b); }

}  // namespace bx
