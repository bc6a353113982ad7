// The constants of bx_erff, in one place, because stage 07 computes two of
// its branches four lanes at a time, stage 17 every branch but the tiny one,
// and both must use the very same f32 values (common/maths/erff.cpp uses
// these too). Every value is written as its f32 bit pattern, so no decimal
// literal can round differently.
#pragma once

#include <bit>
#include <cstdint>

namespace bx::erff_coefficients {

inline constexpr float f(std::uint32_t bits) { return std::bit_cast<float>(bits); }

// Range boundaries on the bit pattern of |x|.
inline constexpr std::uint32_t kInfOrNan = 0x7f800000;   // exponent all ones
inline constexpr std::uint32_t k0p84375 = 0x3f580000;    // 0.84375
inline constexpr std::uint32_t kTwoPowM28 = 0x31800000;  // 2^-28
inline constexpr std::uint32_t k1p25 = 0x3fa00000;       // 1.25
inline constexpr std::uint32_t k6 = 0x40c00000;          // 6.0
inline constexpr std::uint32_t kOneOver0p35 = 0x4036db6d;  // ~2.857 = 1/0.35

inline constexpr float kErx = f(0x3f58560b);    // 0.84506291151: erf(1) rounded to f32
inline constexpr float kOneMinusErx = 1.0f - kErx;  // exact: both are multiples of 2^-24 below 1
inline constexpr float kEfx8 = f(0x3f8375d4);   // 8 * (2/sqrt(pi) - 1)

// |x| < 0.84375: erf(x) = x + x * pp(z) / qq(z), z = x^2.
inline constexpr float pp0 = f(0x3e0375d4), pp1 = f(0xbea66beb), pp2 = f(0xbce9528f),
                       pp3 = f(0xbbbd1489), pp4 = f(0xb7c756b1);
inline constexpr float qq1 = f(0x3ecbbbce), qq2 = f(0x3d852a63), qq3 = f(0x3ba68116),
                       qq4 = f(0x390aee49), qq5 = f(0xb684e21a);

// 0.84375 <= |x| < 1.25: erfc(|x|) = (1 - erx) - pa(s) / qa(s), s = |x| - 1.
inline constexpr float pa0 = f(0xbb1acdc6), pa1 = f(0x3ed46805), pa2 = f(0xbebe9208),
                       pa3 = f(0x3ea2fe54), pa4 = f(0xbde31cc2), pa5 = f(0x3d1151b3),
                       pa6 = f(0xbb0df9c0);
inline constexpr float qa1 = f(0x3dd9f331), qa2 = f(0x3f0a5785), qa3 = f(0x3d931ae7),
                       qa4 = f(0x3e013307), qa5 = f(0x3c5f6e13), qa6 = f(0x3c445aa3);

// 1.25 <= |x| < 1/0.35: the exponent's correction is ra(s) / sa(s), s = 1/x^2.
inline constexpr float ra0 = f(0xbc21a093), ra1 = f(0xbf31a0b7), ra2 = f(0xc128f022),
                       ra3 = f(0xc2798057), ra4 = f(0xc322658c), ra5 = f(0xc3389ae7),
                       ra6 = f(0xc2a2932b), ra7 = f(0xc11d077e);
inline constexpr float sa1 = f(0x419d35ce), sa2 = f(0x4309a863), sa3 = f(0x43d9486f),
                       sa4 = f(0x442158c9), sa5 = f(0x43d6810b), sa6 = f(0x42d9451f),
                       sa7 = f(0x40d23f7c), sa8 = f(0xbd777f97);

// 1/0.35 <= |x| < 6: the same with rb(s) / sb(s).
inline constexpr float rb0 = f(0xbc21a092), rb1 = f(0xbf4c9dd4), rb2 = f(0xc18e104b),
                       rb3 = f(0xc320a2ea), rb4 = f(0xc41f6441), rb5 = f(0xc480230b),
                       rb6 = f(0xc3f1c275);
inline constexpr float sb1 = f(0x41f2b459), sb2 = f(0x43a2e571), sb3 = f(0x44c01759),
                       sb4 = f(0x4547fdbb), sb5 = f(0x451f90ce), sb6 = f(0x43ed43a7),
                       sb7 = f(0xc1b38712);

}  // namespace bx::erff_coefficients
