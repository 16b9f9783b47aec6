// UTF-8, through utfcpp: where a character starts and ends, and whether the bytes are one.
#pragma once

#include <utf8.h>

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace blockcheck {

// The length of the UTF-8 sequence starting at s[i] (1 to 4 bytes), or 0 when the bytes there
// are not valid UTF-8 (overlong forms, surrogates and code points above U+10FFFF included).
inline std::size_t utf8_length(std::string_view s, std::size_t i) {
    const char* start = s.data() + i;
    const char* window = start + std::min<std::size_t>(4, s.size() - i);  // a character is at most 4 bytes
    if (utf8::find_invalid(start, window) == start) return 0;
    const char* next = start;
    utf8::unchecked::next(next);  // the bytes there were found valid
    return static_cast<std::size_t>(next - start);
}

// Whether all of `text` is valid UTF-8.
inline bool is_utf8(std::string_view text) { return utf8::is_valid(text.begin(), text.end()); }

}  // namespace blockcheck
