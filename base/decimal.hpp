// Exact decimal text <-> scalar, for double and the multiprecision types alike: "0.1" read at
// 50 digits is one tenth, not the double nearest it.
#pragma once

#include <charconv>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace blockcheck {

// Significant decimal digits a scalar type carries.
template <class T>
constexpr int decimal_digits() {
    if constexpr (std::is_same_v<T, double>) return 17;
    else return std::numeric_limits<T>::digits10;
}

// True when `text` is a plain decimal: optional sign, digits with an optional point,
// optional exponent. No spaces, no hex, no inf or nan.
inline bool is_decimal(std::string_view text) {
    std::size_t i = 0, n = text.size();
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    std::size_t digits = 0;
    while (i < n && text[i] >= '0' && text[i] <= '9') ++i, ++digits;
    if (i < n && text[i] == '.') {
        ++i;
        while (i < n && text[i] >= '0' && text[i] <= '9') ++i, ++digits;
    }
    if (digits == 0) return false;
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
        std::size_t exp_digits = 0;
        while (i < n && text[i] >= '0' && text[i] <= '9') ++i, ++exp_digits;
        if (exp_digits == 0) return false;
    }
    return i == n;
}

// Reads a decimal exactly at T's precision ("0.1" is one tenth, not the double nearest it).
template <class T>
T parse_real(std::string_view text) {
    if (!is_decimal(text))
        throw std::invalid_argument("'" + std::string(text) + "' is not a decimal number");
    if constexpr (std::is_same_v<T, double>) {
        std::string_view body = text.front() == '+' ? text.substr(1) : text;
        double value = 0;
        auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), value);
        if (error != std::errc() || end != body.data() + body.size())
            throw std::invalid_argument("'" + std::string(text) + "' is out of double's range");
        return value;
    } else {
        return T(std::string(text));
    }
}

// Prints `significant` significant digits; the shortest round trip for double when 0.
template <class T>
std::string to_decimal(const T& x, int significant = 0) {
    if constexpr (std::is_same_v<T, double>) {
        char buffer[64];
        auto result = significant > 0
            ? std::to_chars(buffer, buffer + sizeof buffer, x, std::chars_format::general, significant)
            : std::to_chars(buffer, buffer + sizeof buffer, x);
        return std::string(buffer, result.ptr);
    } else {
        return x.str(significant > 0 ? significant : decimal_digits<T>());
    }
}

}  // namespace blockcheck
