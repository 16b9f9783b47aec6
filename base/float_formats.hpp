// The narrow floating-point formats checkpoints store, widened to double (every value of each
// is a double exactly).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace blockcheck {

// IEEE half: 1 sign, 5 exponent, 10 fraction bits.
inline double half_to_double(std::uint16_t h) {
    const int exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    if (exponent == 0) return sign * std::ldexp(fraction, -24);
    if (exponent == 31) return fraction ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
    return sign * std::ldexp(1024 + fraction, exponent - 25);
}

// bfloat16 is the top half of a float32.
inline double bfloat16_to_double(std::uint16_t b) {
    return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16));
}

}  // namespace blockcheck
