// How `rerun` and `verify` print the values of worked steps: the book's six decimals by
// default, or a requested number of significant digits.
#pragma once

#include "checker/common/i18n.hpp"
#include "solutions/worked/worked.hpp"

#include <fmt/format.h>

#include <ios>
#include <string>

namespace blockcheck {

// The decimals the book prints.
inline constexpr int book_decimals = 6;

// "-0.000" (a tiny negative rounded away) reads as "0.000".
inline std::string without_negative_zero(std::string text) {
    if (!text.empty() && text.front() == '-' && text.find_first_of("123456789") == std::string::npos) text.erase(0, 1);
    return text;
}

// x with exactly `decimals` digits after the point.
template <class T>
std::string fixed_decimals(const T& x, int decimals) {
    if constexpr (std::is_same_v<T, double>) {
        return without_negative_zero(fmt::format("{:.{}f}", x, decimals));
    } else {
        using std::abs;
        using std::round;
        // str(0, fixed) prints every digit the type carries; whole numbers go through an integer.
        const T whole = round(x);
        if (decimals == 0 && abs(whole) < T(1e18)) return fmt::format("{}", whole.template convert_to<long long>());
        return without_negative_zero(x.str(decimals, std::ios_base::fixed));
    }
}

// x in scientific notation with `significant` significant digits; zero is "0".
template <class T>
std::string scientific(const T& x, int significant) {
    if (x == 0) return "0";
    if constexpr (std::is_same_v<T, double>) return fmt::format("{:.{}e}", x, significant - 1);
    else return x.str(significant - 1, std::ios_base::scientific);
}

// One number of a step. digits == 0: the book's form (six decimals; integers whole; differences
// in scientific notation); otherwise `digits` significant digits.
template <class T>
std::string format_number(const T& x, StepKind kind, int digits) {
    switch (kind) {
        case StepKind::integer: return fixed_decimals(x, 0);
        case StepKind::boolean: return x != 0 ? "true" : "false";
        case StepKind::undefined: return "undefined";
        case StepKind::difference: return digits == 0 ? scientific(x, 2) : scientific(x, digits);
        case StepKind::real: break;
    }
    return digits == 0 ? fixed_decimals(x, book_decimals) : without_negative_zero(to_decimal(x, digits));
}

// Row r of a step's value as "[a, b, ...]".
template <class T>
std::string format_row(const Step<T>& step, std::size_t r, int digits) {
    std::string out = "[";
    for (std::size_t c = 0; c < step.value.cols; ++c)
        out += (c ? ", " : "") + format_number(step.value(r, c), step.kind, digits);
    return out + "]";
}

// The whole value on one line: "x", "[a, b]" or "[[a, b], [c, d]]".
template <class T>
std::string format_inline(const Step<T>& step, int digits) {
    if (step.kind == StepKind::undefined) return "undefined";
    switch (step.form) {
        case StepForm::scalar: return format_number(step.value(0, 0), step.kind, digits);
        case StepForm::vector: return format_row(step, 0, digits);
        case StepForm::matrix: break;
    }
    std::string out = "[";
    for (std::size_t r = 0; r < step.value.rows; ++r) out += (r ? ", " : "") + format_row(step, r, digits);
    return out + "]";
}

}  // namespace blockcheck
