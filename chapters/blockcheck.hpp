// blockcheck.hpp — the one header an exercise program includes.
//
// An exercise program reads its inputs from standard input and prints its answers on
// standard output, one per line, as `name = value`:
//
//     #include "blockcheck.hpp"
//     using namespace bc;
//
//     int main() {
//         std::vector<double> row = input_vector("row");   // row = [3, 4]
//         double sum = 0;
//         for (double v : row) sum += v * v;
//         answer("mean_square", sum / row.size());          // mean_square = 1.2500000000000000e+01
//     }
//
// Inputs (each call looks the name up; stdin is read once, on the first call):
//     double                            input_number("x")     x = 1.5
//     long                              input_integer("n")    n = 12
//     std::vector<double>               input_vector("row")   row = [3, 4]
//     std::vector<std::vector<double>>  input_matrix("w")     w = [[1, 0], [0, 1]]
//     bool                              input_boolean("b")    b = true
// A misspelled, missing or malformed input prints a message naming it (and listing the inputs
// there are) on stderr and exits with 2.
//
// Answers (each line is flushed as soon as it is printed, so answers given before a crash count):
//     answer("name", 0.5)                 a number (double, float, long double)
//     answer("name", 42L)                 an integer (int, long, std::size_t, ...)
//     answer("name", vector)              [a, b, ...]     std::vector of any number type
//     answer("name", matrix)              [[a, b], [c, d]] std::vector of such vectors
//     answer("name", true)                true or false
//     answer_choice("name", "B")          a choice, as a bare word
//     undefined("name")                   the quantity has no value
//     answer_decimal("name", "0.84852813742385702928")
//                                         a number worked out to more digits than a double
//                                         carries, printed exactly as given
// Doubles are printed with 17 significant digits ("%.16e"), so the exact double comes back
// when the line is read; you never need to round an answer yourself.
//
// Scoring: each number is checked to the precision this exercise declares (decimal places, or
// significant digits for small quantities), never to the digits the header prints; a value
// within half a unit of the last declared digit is correct, fewer digits than declared is
// too_few_digits, and only answer_decimal holds you to more.
// 评分规则：每个数按本题声明的精度检查（小数位数，或对很小的量用有效数字），与头文件打印的位数
// 无关；误差在声明的最后一位的半个单位以内即为正确，位数少于声明的判为 too_few_digits，只有
// answer_decimal 会按写出的全部位数检查。
//
// Plain C++17 over a handful of standard headers (the C library's, <limits>, <string>, <type_traits> and
// <vector>): it compiles in a blink.
#ifndef BLOCKCHECK_STUDENT_HEADER
#define BLOCKCHECK_STUDENT_HEADER

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace bc {

using Matrix = std::vector<std::vector<double>>;

// ---- the interface (the functions are defined further down) ---------------------------
double input_number(const char* name);
long input_integer(const char* name);
std::vector<double> input_vector(const char* name);
Matrix input_matrix(const char* name);
bool input_boolean(const char* name);
void answer_choice(const char* name, const char* word);
void undefined(const char* name);
void answer_decimal(const char* name, const char* decimal);

namespace detail {
void print_double(double x);
void begin(const char* name);
void end();
}  // namespace detail

// ---- answers --------------------------------------------------------------------------

namespace detail {

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

// True for the values answer() prints: any integer, floating or bool, and vectors of them
// nested to any depth (a vector is [a, b], a vector of vectors [[a, b], [c, d]]).
template <class T>
constexpr bool printable_answer() {
    if constexpr (is_vector<T>::value) return printable_answer<typename T::value_type>();
    else return std::is_arithmetic<T>::value;
}

template <class T>
void print_value(const T& x) {
    if constexpr (is_vector<T>::value) {
        std::printf("[");
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (i) std::printf(", ");
            print_value(x[i]);
        }
        std::printf("]");
    } else if constexpr (std::is_same<T, bool>::value) {
        std::printf("%s", x ? "true" : "false");
    } else if constexpr (std::is_floating_point<T>::value) {
        print_double(static_cast<double>(x));
    } else if constexpr (std::is_signed<T>::value) {
        std::printf("%lld", static_cast<long long>(x));
    } else {
        std::printf("%llu", static_cast<unsigned long long>(x));
    }
}

}  // namespace detail

// One answer line `name = value`, flushed at once: an answer printed before a crash still counts.
template <class T>
void answer(const char* name, const T& value) {
    static_assert(detail::printable_answer<T>(),
                  "answer(name, value) takes a number (integer or floating), a bool, or a std::vector of them "
                  "(nested for a matrix); use answer_choice or answer_decimal for text");
    detail::begin(name);
    detail::print_value(value);
    detail::end();
}

}  // namespace bc

// The grader compiles the definitions once (BLOCKCHECK_HEADER_OBJECT, into an object every
// program links) and then reads this header as the interface above only
// (BLOCKCHECK_PREBUILT_HEADER), which saves most of a compile; compiled by hand, the header is
// whole as usual. Either way a program behaves the same.
#ifdef BLOCKCHECK_PREBUILT_HEADER
extern template class std::vector<double>;
extern template class std::vector<std::vector<double>>;
extern template void bc::answer(const char*, const double&);
extern template void bc::answer(const char*, const int&);
extern template void bc::answer(const char*, const long&);
extern template void bc::answer(const char*, const unsigned long&);
extern template void bc::answer(const char*, const bool&);
extern template void bc::answer(const char*, const std::vector<double>&);
extern template void bc::answer(const char*, const bc::Matrix&);
#else

namespace bc {

namespace detail {

struct Input {
    std::string name, text;
    int line;
};

[[noreturn]] inline void fail(const std::string& message) {
    std::fprintf(stderr, "blockcheck: %s\n", message.c_str());
    std::exit(2);
}

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

inline std::string trim(const std::string& s) {
    std::size_t begin = 0, end = s.size();
    while (begin < end && is_space(s[begin])) ++begin;
    while (end > begin && is_space(s[end - 1])) --end;
    return s.substr(begin, end - begin);
}

// Every `name = value` line of standard input, read on first use.
inline const std::vector<Input>& inputs() {
    static const std::vector<Input> all = [] {
        std::vector<Input> lines;
        std::string line;
        int number = 0;
        for (int c = std::getchar();; c = std::getchar()) {
            if (c != '\n' && c != EOF) {
                line += static_cast<char>(c);
                continue;
            }
            ++number;
            std::string text = trim(line);
            line.clear();
            if (!text.empty() && text[0] != '#') {
                std::size_t eq = text.find('=');
                if (eq == std::string::npos)
                    fail("standard input line " + std::to_string(number) + " should be `name = value`, got: " + text);
                Input in{trim(text.substr(0, eq)), trim(text.substr(eq + 1)), number};
                for (const Input& seen : lines)
                    if (seen.name == in.name)
                        fail("input '" + in.name + "' is given twice (lines " + std::to_string(seen.line) + " and " +
                             std::to_string(number) + ")");
                lines.push_back(in);
            }
            if (c == EOF) break;
        }
        return lines;
    }();
    return all;
}

inline const Input& find(const char* name) {
    std::string names;
    for (const Input& in : inputs()) {
        if (in.name == name) return in;
        names += (names.empty() ? "" : ", ") + in.name;
    }
    fail(std::string("this exercise has no input '") + name + "'; its inputs are: " + names);
}

[[noreturn]] inline void malformed(const Input& in, const char* expected) {
    fail("input '" + in.name + "' (line " + std::to_string(in.line) + ") should be " + expected +
         ", got: " + in.text);
}

// A small reader over one value's text: numbers, [lists] and [[nested lists]].
struct Reader {
    const std::string& s;
    std::size_t i = 0;

    void skip() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    }
    bool eat(char c) {
        skip();
        if (i < s.size() && s[i] == c) return ++i, true;
        return false;
    }
    bool at_end() {
        skip();
        return i == s.size();
    }
    // A decimal: optional sign, digits with an optional point, optional exponent.
    bool number(double& out) {
        skip();
        std::size_t start = i, digits = 0;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
        if (i < s.size() && s[i] == '.')
            for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) ++digits;
        if (digits == 0) return false;
        if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
            ++i;
            if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
            std::size_t exponent_digits = 0;
            while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exponent_digits;
            if (exponent_digits == 0) return false;
        }
        out = std::strtod(s.substr(start, i - start).c_str(), nullptr);
        return std::isfinite(out);
    }
    bool vector(std::vector<double>& out) {
        if (!eat('[')) return false;
        if (eat(']')) return true;
        do {
            double x;
            if (!number(x)) return false;
            out.push_back(x);
        } while (eat(','));
        return eat(']');
    }
    bool matrix(Matrix& out) {
        if (!eat('[')) return false;
        if (eat(']')) return true;
        do {
            std::vector<double> row;
            if (!vector(row)) return false;
            if (!out.empty() && row.size() != out.front().size()) return false;
            out.push_back(row);
        } while (eat(','));
        return eat(']');
    }
};

inline void print_double(double x) { std::printf("%.16e", x); }

inline void begin(const char* name) { std::printf("%s = ", name); }
inline void end() {
    std::printf("\n");
    std::fflush(stdout);  // an answer printed before a crash still counts
}

}  // namespace detail

// ---- inputs ---------------------------------------------------------------------------

inline double input_number(const char* name) {
    const detail::Input& in = detail::find(name);
    detail::Reader r{in.text};
    double x;
    if (!r.number(x) || !r.at_end()) detail::malformed(in, "a number such as 1.5");
    return x;
}

inline long input_integer(const char* name) {
    const detail::Input& in = detail::find(name);
    detail::Reader r{in.text};
    double x;
    if (!r.number(x) || !r.at_end() || x != std::floor(x) || std::fabs(x) > 9e15)
        detail::malformed(in, "a whole number such as 12");
    return static_cast<long>(x);
}

inline std::vector<double> input_vector(const char* name) {
    const detail::Input& in = detail::find(name);
    detail::Reader r{in.text};
    std::vector<double> v;
    if (!r.vector(v) || !r.at_end()) detail::malformed(in, "a vector such as [3, 4]");
    return v;
}

inline Matrix input_matrix(const char* name) {
    const detail::Input& in = detail::find(name);
    detail::Reader r{in.text};
    Matrix m;
    if (!r.matrix(m) || !r.at_end()) detail::malformed(in, "a matrix with rows of equal length such as [[1, 0], [0, 1]]");
    return m;
}

inline bool input_boolean(const char* name) {
    const detail::Input& in = detail::find(name);
    if (in.text == "true") return true;
    if (in.text == "false") return false;
    detail::malformed(in, "true or false");
}

// ---- answers --------------------------------------------------------------------------

inline void answer_choice(const char* name, const char* word) {
    detail::begin(name);
    std::printf("%s", word);
    detail::end();
}

inline void undefined(const char* name) {
    detail::begin(name);
    std::printf("undefined");
    detail::end();
}

inline void answer_decimal(const char* name, const char* decimal) {
    std::string text(decimal);
    detail::Reader r{text};
    double ignored;
    if (!r.number(ignored) || !r.at_end())
        std::fprintf(stderr, "blockcheck: answer_decimal(\"%s\", \"%s\"): not a decimal number\n", name, decimal);
    detail::begin(name);
    std::printf("%s", decimal);
    detail::end();
}

}  // namespace bc

#endif  // BLOCKCHECK_PREBUILT_HEADER

#ifdef BLOCKCHECK_HEADER_OBJECT
template class std::vector<double>;
template class std::vector<std::vector<double>>;
template void bc::answer(const char*, const double&);
template void bc::answer(const char*, const int&);
template void bc::answer(const char*, const long&);
template void bc::answer(const char*, const unsigned long&);
template void bc::answer(const char*, const bool&);
template void bc::answer(const char*, const std::vector<double>&);
template void bc::answer(const char*, const bc::Matrix&);
#endif

#endif  // BLOCKCHECK_STUDENT_HEADER
