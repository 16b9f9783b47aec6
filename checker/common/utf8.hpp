// UTF-8, byte by byte: where a character starts and ends, and whether the bytes are one.
#pragma once

#include <cstddef>
#include <string_view>

namespace blockcheck {

// The length of the UTF-8 sequence starting at s[i] (1 to 4 bytes), or 0 when the bytes there
// are not valid UTF-8 (overlong forms, surrogates and code points above U+10FFFF included).
inline std::size_t utf8_length(std::string_view s, std::size_t i) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char b = byte(i);
    if (b < 0x80) return 1;
    std::size_t n = b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
    // Overlong forms, UTF-16 surrogates and code points above U+10FFFF.
    if (b == 0xE0 && byte(i + 1) < 0xA0) return 0;
    if (b == 0xED && byte(i + 1) > 0x9F) return 0;
    if (b == 0xF0 && byte(i + 1) < 0x90) return 0;
    if (b == 0xF4 && byte(i + 1) > 0x8F) return 0;
    return n;
}

}  // namespace blockcheck
