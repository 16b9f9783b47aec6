// Exact decimal text <-> scalar, for double and the multiprecision types alike: "0.1" read at
// 50 digits is one tenth, not the double nearest it.
#pragma once

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
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

// Exponents beyond this are clamped when digits are counted: beyond any precision MPFR holds,
// and far from overflowing a long long when added to a digit count.
constexpr long long decimal_exponent_clamp = 1'000'000'000;

// What one scan of a decimal's text found: how many digits stand before and after the point,
// where the nonzero ones are, and the exponent. The single owner of decimal anatomy: grading
// counts digits from it, never by scanning the text again.
struct DecimalAnatomy {
    long long integer_digits = 0;   // before the point
    long long fraction_digits = 0;  // after the point
    long long first_nonzero = -1;   // index of the first nonzero digit among all digits; -1 when none
    long long last_nonzero = -1;    // index of the last nonzero digit; -1 when none
    long long exponent = 0;         // after 'e', clamped to +-decimal_exponent_clamp

    long long digits() const { return integer_digits + fraction_digits; }

    // Digits after the point minus the exponent: "8.48528e-1" -> 6, "1152" -> 0, "1.5e3" -> -2.
    int decimals() const { return static_cast<int>(fraction_digits - exponent); }

    // Digits from the first nonzero one: "0.00120" -> 3, "0.000" -> 0.
    int significant() const { return first_nonzero < 0 ? 0 : static_cast<int>(digits() - first_nonzero); }

    // True when the value is a whole number: no nonzero digit right of the point's final place
    // ("1152.0" and "1.152e3" are, "1152.5" and "1e-400" are not).
    bool whole() const { return last_nonzero < 0 || last_nonzero < integer_digits + exponent; }
};

// Scans a plain decimal: optional sign, digits with an optional point, optional exponent. No
// spaces, no hex, no inf or nan: nullopt for anything else.
inline std::optional<DecimalAnatomy> scan_decimal(std::string_view text) {
    std::size_t i = 0, n = text.size();
    DecimalAnatomy d;
    auto is_digit = [&] { return i < n && text[i] >= '0' && text[i] <= '9'; };
    auto take_digit = [&] {
        const long long index = d.digits();
        if (text[i++] != '0') {
            if (d.first_nonzero < 0) d.first_nonzero = index;
            d.last_nonzero = index;
        }
    };
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    for (; is_digit(); ++d.integer_digits) take_digit();
    if (i < n && text[i] == '.')
        for (++i; is_digit(); ++d.fraction_digits) take_digit();
    if (d.digits() == 0) return std::nullopt;
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        const bool negative = i < n && text[i] == '-';
        if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
        if (!is_digit()) return std::nullopt;
        for (; is_digit(); ++i) d.exponent = std::min(decimal_exponent_clamp, d.exponent * 10 + (text[i] - '0'));
        if (negative) d.exponent = -d.exponent;
    }
    if (i != n) return std::nullopt;
    return d;
}

// True when `text` is a plain decimal (see scan_decimal).
inline bool is_decimal(std::string_view text) { return scan_decimal(text).has_value(); }

// Converts a text scan_decimal accepted, exactly at T's precision.
template <class T>
T decimal_value(std::string_view text) {
    if constexpr (std::is_floating_point_v<T>) {
        std::string_view body = text.front() == '+' ? text.substr(1) : text;
        T value = 0;
        auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), value);
        if (error != std::errc() || end != body.data() + body.size())
            throw std::invalid_argument("'" + std::string(text) + "' is out of " +
                                        (sizeof(T) == 4 ? "float" : "double") + "'s range");
        return value;
    } else {
        return T(std::string(text));
    }
}

// Reads a decimal exactly at T's precision ("0.1" is one tenth, not the double nearest it).
template <class T>
T parse_real(std::string_view text) {
    if (!is_decimal(text))
        throw std::invalid_argument("'" + std::string(text) + "' is not a decimal number");
    return decimal_value<T>(text);
}

// Prints `significant` significant digits; the shortest round trip for double (or float) when 0.
template <class T>
std::string to_decimal(const T& x, int significant = 0) {
    if constexpr (std::is_floating_point_v<T>) {
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
