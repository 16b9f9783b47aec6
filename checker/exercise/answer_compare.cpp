// Grading one answer part. Every number is compared in Real (50 digits) against the
// reference; the tolerance follows from the precision the exercise declares, never from the
// number of digits the header happened to print.
#include "checker/exercise/answer_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <limits>

namespace blockcheck {

namespace {

constexpr long long exponent_clamp = 1'000'000'000;  // beyond any precision MPFR can hold
constexpr std::size_t answer_quote_limit = 40;  // bytes of an answer token quoted in a message

// ---- decimal anatomy ---------------------------------------------------------------------

// A decimal's text cut into its digits before and after the point and its exponent.
struct DecimalParts {
    std::string_view integer, fraction;
    long long exponent = 0;
};

std::string_view take_digits(std::string_view text, std::size_t& i) {
    std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return text.substr(start, i - start);
}

// The exponent after 'e', clamped to +-exponent_clamp.
long long read_exponent(std::string_view text, std::size_t i) {
    bool negative = i < text.size() && text[i] == '-';
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    long long value = 0;
    for (char c : take_digits(text, i)) value = std::min(exponent_clamp, value * 10 + (c - '0'));
    return negative ? -value : value;
}

DecimalParts split_decimal(std::string_view text) {
    DecimalParts parts;
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    parts.integer = take_digits(text, i);
    if (i < text.size() && text[i] == '.') parts.fraction = take_digits(text, ++i);
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) parts.exponent = read_exponent(text, i + 1);
    return parts;
}

// ---- messages ----------------------------------------------------------------------------

std::string backticked(std::string_view text) { return "`" + printable(text, answer_quote_limit) + "`"; }

// An error as the messages print it: 1.3e-03.
std::string sci(const Real& x) { return fmt::format("{:.1e}", x.convert_to<double>()); }

Text places_text(int n) {
    return {fmt::format("{} decimal place{}", n, n == 1 ? "" : "s"), fmt::format("{} 位小数", n)};
}

Text join(const Text& a, const Text& b) { return {a.en + b.en, a.zh + b.zh}; }

// "; expected 0.848528137424" when revealing, nothing otherwise.
Text reveal_text(const Value& expected, const AnswerCompareOptions& options) {
    if (!options.reveal) return {};
    std::string value = format_value(expected, 12);
    return {"; expected " + value, "；正确值为 " + value};
}

// Shapes, for mismatch messages.
Text shape_of(const Reading& given) {
    return std::visit(
        [](const auto& r) -> Text {
            using R = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<R, NumberText>) return {"a number", "一个数"};
            else if constexpr (std::is_same_v<R, std::vector<NumberText>>)
                return {fmt::format("a vector of {} element{}", r.size(), r.size() == 1 ? "" : "s"),
                        fmt::format("一个含 {} 个元素的向量", r.size())};
            else if constexpr (std::is_same_v<R, std::vector<std::vector<NumberText>>>) {
                std::size_t cols = r.empty() ? 0 : r.front().size();
                return {fmt::format("a {}x{} matrix", r.size(), cols), fmt::format("一个 {}x{} 矩阵", r.size(), cols)};
            } else if constexpr (std::is_same_v<R, bool>) return {r ? "true" : "false", r ? "true" : "false"};
            else if constexpr (std::is_same_v<R, Undefined>) return {"undefined", "undefined"};
            else return {"the word " + backticked(r.word), "单词 " + backticked(r.word)};
        },
        given);
}

Text shape_of(const Value& expected) {
    return std::visit(
        [](const auto& v) -> Text {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, Real>) return {"a number", "一个数"};
            else if constexpr (std::is_same_v<V, Vector<Real>>)
                return {fmt::format("a vector of {} element{}", v.size(), v.size() == 1 ? "" : "s"),
                        fmt::format("一个含 {} 个元素的向量", v.size())};
            else if constexpr (std::is_same_v<V, Matrix<Real>>)
                return {fmt::format("a {}x{} matrix", v.rows, v.cols), fmt::format("一个 {}x{} 矩阵", v.rows, v.cols)};
            else if constexpr (std::is_same_v<V, bool>) return {"true or false", "true 或 false"};
            else if constexpr (std::is_same_v<V, Undefined>) return {"undefined", "undefined"};
            else return {"a word", "一个单词"};
        },
        expected);
}

Text shape_mismatch(const Value& expected, const Reading& given) {
    Text e = shape_of(expected), g = shape_of(given);
    return {fmt::format("wrong shape: expected {}, got {}", e.en, g.en),
            fmt::format("形状不对：应为{}，实际给出{}", e.zh, g.zh)};
}

// ---- results -----------------------------------------------------------------------------

PartResult result(const AnswerSpec& spec, const ProgramLine* given, Verdict verdict, Text message) {
    PartResult r;
    r.name = spec.name;
    r.verdict = verdict;
    r.max_score = spec.points;
    // score = points when correct; a grader fault never costs the student points
    r.score = verdict == Verdict::correct || verdict == Verdict::grader_fault ? spec.points : 0;
    r.message = std::move(message);
    r.line = given ? given->line : 0;
    return r;
}

std::optional<double> relative(const Real& error, const Real& expected) {
    using std::abs;
    if (expected == 0) return std::nullopt;
    return (error / abs(expected)).convert_to<double>();
}

// ---- numbers -----------------------------------------------------------------------------

Real double_epsilon() { return Real(std::numeric_limits<double>::epsilon()); }  // 2^-52, exact
Real reference_epsilon() {
    static const Real value = parse_real<Real>("1e-45");
    return value;
}

// The value of one unit of the declared last place, for an expected element.
Real declared_unit(const Precision& precision, const Real& expected, const Real& part_max) {
    using std::abs;
    using std::floor;
    using std::log10;
    using std::pow;
    if (precision.unit == Precision::decimals) return pow(Real(10), Real(-precision.places));
    // significant digits: unit = 10^(floor(log10 |x|) - places + 1), x the element (or the part's largest)
    const Real magnitude = expected != 0 ? abs(expected) : part_max != 0 ? part_max : Real(1);
    return pow(Real(10), floor(log10(magnitude)) - Real(precision.places - 1));
}

// The bounds one element is graded by.
struct Bounds {
    Real declared;   // half a unit of the declared last place
    Real slack;      // a few double rounding errors: 64 * 2^-52 * scale
    Real tolerance;  // what applies: max(declared, slack), or the written digits for answer_decimal
    Real written;    // half a unit of the last digit the text gives: what printing it rounded away
    bool held_to_written = false;  // more digits than a double holds (answer_decimal): held to them all
    // An error beyond both double rounding and the rounding of the digits printed: something in
    // the computation itself (float arithmetic, a short constant) made it.
    bool unexplained(const Real& error) const { return error > slack && error > written; }
};

Bounds bounds_for(std::string_view text, const Real& expected, const Real& part_max, const Precision& precision) {
    using std::abs;
    using std::pow;
    Bounds b;
    b.declared = Real(0.5) * declared_unit(precision, expected, part_max);
    // scale = max(|expected element|, largest |element| of the whole expected part, 1)
    const Real scale = std::max({abs(expected), part_max, Real(1)});
    b.slack = Real(64) * double_epsilon() * scale;
    b.tolerance = std::max(b.declared, b.slack);
    b.written = Real(0.5) * pow(Real(10), Real(-decimals(text)));
    if (significant(text) > 17) {
        // written out on purpose beyond a double: tol = max(half a unit of its last digit, 1e-45 * scale)
        b.tolerance = std::min(b.tolerance, std::max(b.written, reference_epsilon() * scale));
        b.held_to_written = true;
    }
    return b;
}

// Fewer digits than declared: decimal places after the point, or significant digits.
bool too_few_digits(std::string_view text, const Precision& precision) {
    if (precision.unit == Precision::decimals) return decimals(text) < precision.places;
    // a zero written as 0.000...: count every digit written
    if (significant(text) == 0) {
        DecimalParts parts = split_decimal(text);
        return static_cast<int>(parts.integer.size() + parts.fraction.size()) < precision.places;
    }
    return significant(text) < precision.places;
}

// given - expected, reduced modulo 360 into [-180, 180] for an angle in degrees.
Real difference(const Real& given, const Real& expected, bool angle) {
    using std::floor;
    Real d = given - expected;
    if (angle) d -= Real(360) * floor((d + Real(180)) / Real(360));
    return d;
}

// One number of a part against its reference.
struct ElementGrade {
    Verdict verdict = Verdict::correct;
    bool non_finite = false;  // nan, inf, or a decimal beyond the range of numbers
    Real error;
    Bounds bounds;
};

ElementGrade grade_element(const NumberText& given, const Real& expected, const Real& part_max, const AnswerSpec& spec) {
    // nan and inf never match a finite reference
    if (is_non_finite_text(given.text)) return {Verdict::wrong, true, Real(0), {}};
    Real value;
    try {
        value = number_value(given);
    } catch (const ProtocolError&) {
        return {Verdict::wrong, true, Real(0), {}};
    }
    using std::abs;
    ElementGrade g;
    g.error = abs(difference(value, expected, spec.kind == AnswerKind::angle));
    g.bounds = bounds_for(given.text, expected, part_max, spec.precision);
    // fewer digits than the answer declares: too_few_digits, whatever the value
    if (too_few_digits(given.text, spec.precision)) g.verdict = Verdict::too_few_digits;
    // correct iff |given - expected| <= tol
    else g.verdict = g.error <= g.bounds.tolerance ? Verdict::correct : Verdict::wrong;
    return g;
}

// One number of a part: the text given, its reference and where it sits ("element 2").
struct Cell {
    const NumberText* given;
    const Real* expected;
    Text where;  // empty for a single number
};

Text cell_name(std::size_t index) { return {fmt::format("element {}", index), fmt::format("元素 [{}]", index)}; }
Text cell_name(std::size_t row, std::size_t col) {
    return {fmt::format("row {}, column {}", row, col), fmt::format("元素 [{}][{}]", row, col)};
}

std::optional<std::vector<Cell>> vector_cells(const Reading& given, const Vector<Real>& expected) {
    auto* items = std::get_if<std::vector<NumberText>>(&given);
    if (!items || items->size() != expected.size()) return std::nullopt;
    std::vector<Cell> cells;
    for (std::size_t i = 0; i < expected.size(); ++i) cells.push_back({&(*items)[i], &expected[i], cell_name(i)});
    return cells;
}

std::optional<std::vector<Cell>> matrix_cells(const Reading& given, const Matrix<Real>& expected) {
    auto* rows = std::get_if<std::vector<std::vector<NumberText>>>(&given);
    if (!rows || rows->size() != expected.rows) return std::nullopt;
    std::vector<Cell> cells;
    for (std::size_t r = 0; r < expected.rows; ++r) {
        if ((*rows)[r].size() != expected.cols) return std::nullopt;
        for (std::size_t c = 0; c < expected.cols; ++c)
            cells.push_back({&(*rows)[r][c], &expected(r, c), cell_name(r, c)});
    }
    return cells;
}

// The given numbers paired with the reference's; nullopt when the shapes differ.
std::optional<std::vector<Cell>> pair_cells(const Reading& given, const Value& expected) {
    if (auto* x = std::get_if<Real>(&expected)) {
        auto* number = std::get_if<NumberText>(&given);
        if (!number) return std::nullopt;
        return std::vector<Cell>{{number, x, Text{}}};
    }
    if (auto* v = std::get_if<Vector<Real>>(&expected)) return vector_cells(given, *v);
    return matrix_cells(given, std::get<Matrix<Real>>(expected));
}

// The grades of all cells, and which one the message is about.
struct CellSummary {
    std::vector<ElementGrade> grades;
    std::size_t worst = 0;  // the wrong cell with the largest error, else the first with too few digits
    std::size_t wrong = 0, too_few = 0;
    Verdict verdict = Verdict::correct;
};

// Worse first: non-finite, then larger error.
bool worse(const ElementGrade& a, const ElementGrade& b) {
    if (a.non_finite != b.non_finite) return a.non_finite;
    return a.error > b.error;
}

CellSummary grade_cells(const std::vector<Cell>& cells, const AnswerSpec& spec) {
    using std::abs;
    Real part_max(0);
    for (const Cell& c : cells) part_max = std::max(part_max, abs(*c.expected));
    CellSummary s;
    for (const Cell& c : cells) s.grades.push_back(grade_element(*c.given, *c.expected, part_max, spec));
    std::optional<std::size_t> worst_wrong, first_too_few;
    for (std::size_t i = 0; i < s.grades.size(); ++i) {
        const ElementGrade& g = s.grades[i];
        if (g.verdict == Verdict::wrong) {
            ++s.wrong;
            if (!worst_wrong || worse(g, s.grades[*worst_wrong])) worst_wrong = i;
        } else if (g.verdict == Verdict::too_few_digits) {
            if (s.too_few++ == 0) first_too_few = i;
        }
    }
    // the part's verdict is the worst element's: wrong wins over too_few_digits
    if (worst_wrong) s.verdict = Verdict::wrong, s.worst = *worst_wrong;
    else if (first_too_few) s.verdict = Verdict::too_few_digits, s.worst = *first_too_few;
    return s;
}

// "element 2 is wrong: " or "wrong: " for a single number.
Text subject(const Text& where, const Text& single_en_zh, const Text& element_en_zh) {
    if (where.en.empty()) return single_en_zh;
    return {where.en + element_en_zh.en, where.zh + element_en_zh.zh};
}

// "; 2 of 4 elements wrong" for lists, nothing for a single number.
Text count_text(std::size_t count, std::size_t total, const Text& what) {
    if (total <= 1) return {};
    return {fmt::format("; {} of {} elements {}", count, total, what.en), fmt::format("；{} 个元素中有 {} 个{}", total, count, what.zh)};
}

// "off by 2.0e-06; 6 decimal places asked, so up to 5.0e-07 is accepted"
Text error_text(const ElementGrade& g, const AnswerSpec& spec) {
    const std::string off = sci(g.error), bound = sci(g.bounds.tolerance);
    if (g.bounds.held_to_written)
        return {fmt::format("off by {}; the answer is written to more digits than a double holds and is held to all of "
                            "them, so up to {} is accepted", off, bound),
                fmt::format("差了 {}；答案写出的位数超过 double 所能保存的位数，每一位都要算对，所以误差不超过 {} 才算对",
                            off, bound)};
    const Text asked = spec.precision.describe();
    const std::string turn_en = spec.kind == AnswerKind::angle ? " (modulo a full turn)" : "";
    const std::string turn_zh = spec.kind == AnswerKind::angle ? "（按整圈取模）" : "";
    return {fmt::format("off by {}{}; {} asked, so up to {} is accepted", off, turn_en, asked.en, bound),
            fmt::format("差了 {}{}；本题要求 {}，误差不超过 {} 即算对", off, turn_zh, asked.zh, bound)};
}

Text wrong_text(const Cell& cell, const ElementGrade& g, const AnswerSpec& spec) {
    if (g.non_finite)
        return join(subject(cell.where, {"wrong: ", "错误："}, {" is ", " 是 "}),
                    {backticked(cell.given->text) + ", which never matches a finite value",
                     backticked(cell.given->text) + "，不可能与有限的正确值相符"});
    return join(subject(cell.where, {"wrong: ", "错误："}, {" is wrong: ", " 错误："}), error_text(g, spec));
}

Text too_few_text(const Cell& cell, const ElementGrade& g, const Precision& precision) {
    const Text asked = precision.describe();
    Text t = join(subject(cell.where, {"too few digits: ", "位数不足："}, {" has too few digits: ", " 位数不足："}),
                  {fmt::format("{} is written to fewer than the {} this answer asks for", backticked(cell.given->text), asked.en),
                   fmt::format("{} 写出的位数少于本题要求的 {}", backticked(cell.given->text), asked.zh)});
    if (g.error <= std::max(g.bounds.tolerance, g.bounds.written)) return t;  // rounded right, only short
    return join(t, {"; the digits given are also off by " + sci(g.error), "；而且给出的数字本身也差了 " + sci(g.error)});
}

// The note of a correct answer that is not exact to double precision: how far, and what that
// usually means.
Text inexact_note(const ElementGrade& g, const Real& expected) {
    using std::abs;
    const std::string off = sci(g.error);
    const std::string rel = expected == 0 ? off : sci(g.error / abs(expected));
    return {fmt::format("; note: {} off the exact value (relative {}), more than double rounding explains: usually "
                        "float (single precision) arithmetic, or a constant such as pi typed with few digits",
                        off, rel),
            fmt::format("；注意：与精确值相差 {}（相对误差 {}），超出了 double 舍入误差的范围：通常是用了 float（单精度）"
                        "运算，或是把 pi 之类的常数写得位数太少",
                        off, rel)};
}

Text numbers_message(const AnswerSpec& spec, const std::vector<Cell>& cells, const CellSummary& s,
                     const Value& expected, const AnswerCompareOptions& options, std::size_t worst_error) {
    const Cell& cell = cells[s.worst];
    const ElementGrade& g = s.grades[s.worst];
    if (s.verdict == Verdict::wrong)
        return join(join(wrong_text(cell, g, spec), count_text(s.wrong, cells.size(), {"wrong", "错误"})),
                    reveal_text(expected, options));
    if (s.verdict == Verdict::too_few_digits)
        return join(too_few_text(cell, g, spec.precision),
                    count_text(s.too_few, cells.size(), {"have too few digits", "位数不足"}));
    const Text asked = spec.precision.describe();
    Text correct{"correct to " + asked.en, "正确，精确到 " + asked.zh};
    const ElementGrade& largest = s.grades[worst_error];
    if (largest.bounds.unexplained(largest.error)) return join(correct, inexact_note(largest, *cells[worst_error].expected));
    return correct;
}

PartResult grade_numbers(const AnswerSpec& spec, const ProgramLine& given, const Value& expected,
                         const AnswerCompareOptions& options) {
    auto cells = pair_cells(given.value, expected);
    if (!cells) return result(spec, &given, Verdict::wrong, shape_mismatch(expected, given.value));
    CellSummary s = grade_cells(*cells, spec);
    // the worst element's errors; for a correct part, the largest over all elements
    std::size_t at = s.worst;
    if (s.verdict == Verdict::correct)
        for (std::size_t i = 0; i < s.grades.size(); ++i)
            if (worse(s.grades[i], s.grades[at])) at = i;
    PartResult r = result(spec, &given, s.verdict, numbers_message(spec, *cells, s, expected, options, at));
    if (!s.grades[at].non_finite) {
        r.abs_error = s.grades[at].error.convert_to<double>();
        r.rel_error = relative(s.grades[at].error, *(*cells)[at].expected);
        r.inexact = s.verdict == Verdict::correct && s.grades[at].bounds.unexplained(s.grades[at].error);
    }
    return r;
}

// ---- integers ----------------------------------------------------------------------------

PartResult grade_integer(const AnswerSpec& spec, const ProgramLine& given, const Real& expected,
                         const AnswerCompareOptions& options) {
    auto* number = std::get_if<NumberText>(&given.value);
    if (!number) return result(spec, &given, Verdict::wrong, shape_mismatch(Value(expected), given.value));
    Text reveal = reveal_text(Value(expected), options);
    if (is_non_finite_text(number->text))
        return result(spec, &given, Verdict::wrong,
                      join({"wrong: " + backticked(number->text) + " never matches a whole number",
                            "错误：" + backticked(number->text) + " 不可能等于一个整数"}, reveal));
    // an integer answer must be an exact whole number
    if (!is_whole_text(number->text))
        return result(spec, &given, Verdict::wrong,
                      join({"wrong: " + backticked(number->text) + " is not a whole number",
                            "错误：" + backticked(number->text) + " 不是整数"}, reveal));
    Real value;
    try {
        value = number_value(*number);
    } catch (const ProtocolError& e) {
        return result(spec, &given, Verdict::wrong, join(join({"wrong: ", "错误："}, e.message()), reveal));
    }
    using std::abs;
    Real error = abs(value - expected);
    PartResult r = result(spec, &given, error == 0 ? Verdict::correct : Verdict::wrong,
                          error == 0 ? Text{"correct", "正确"}
                                     : join({"wrong: off by " + to_decimal(error, 12), "错误：相差 " + to_decimal(error, 12)}, reveal));
    r.abs_error = error.convert_to<double>();
    r.rel_error = relative(error, expected);
    return r;
}

// ---- booleans and choices ----------------------------------------------------------------

// The explanation of a boolean or choice: given once the part is right, or with --reveal;
// never with a wrong answer otherwise, since it gives the answer away.
Text explained(Text message, const AnswerSpec& spec, bool shown) {
    if (!shown || (spec.explain.en.empty() && spec.explain.zh.empty())) return message;
    return {message.en + ". " + spec.explain.en, message.zh + "。" + spec.explain.in(Lang::zh)};
}

PartResult grade_boolean(const AnswerSpec& spec, const ProgramLine& given, bool expected, const AnswerCompareOptions& options) {
    auto* number = std::get_if<NumberText>(&given.value);
    if (number && (number->text == "0" || number->text == "1"))
        return result(spec, &given, Verdict::wrong,
                      {"wrong: print true or false (for example with std::boolalpha), not " + backticked(number->text),
                       "错误：应输出 true 或 false（例如使用 std::boolalpha），而不是 " + backticked(number->text)});
    auto* value = std::get_if<bool>(&given.value);
    if (!value) return result(spec, &given, Verdict::wrong, shape_mismatch(Value(expected), given.value));
    // booleans match exactly
    if (*value == expected) return result(spec, &given, Verdict::correct, explained({"correct", "正确"}, spec, true));
    std::string said = *value ? "true" : "false";
    Text message = join({"wrong: the output says " + said, "错误：输出为 " + said}, reveal_text(Value(expected), options));
    return result(spec, &given, Verdict::wrong, explained(message, spec, options.reveal));
}

// The word a choice answer gives: a bare word, or true/false or a number written as one.
std::optional<std::string> given_word(const Reading& given) {
    if (auto* choice = std::get_if<Choice>(&given)) return choice->word;
    if (auto* value = std::get_if<bool>(&given)) return std::string(*value ? "true" : "false");
    if (auto* number = std::get_if<NumberText>(&given)) return number->text;
    return std::nullopt;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

PartResult grade_choice(const AnswerSpec& spec, const ProgramLine& given, const Choice& expected,
                        const AnswerCompareOptions& options) {
    auto word = given_word(given.value);
    if (!word) return result(spec, &given, Verdict::wrong, shape_mismatch(Value(expected), given.value));
    // choices match as words, case-insensitively
    if (lower(*word) == lower(expected.word))
        return result(spec, &given, Verdict::correct, explained({"correct", "正确"}, spec, true));
    Text message = join({"wrong: the output says " + backticked(*word), "错误：输出为 " + backticked(*word)},
                        reveal_text(Value(expected), options));
    return result(spec, &given, Verdict::wrong, explained(message, spec, options.reveal));
}

// ---- dispatch ----------------------------------------------------------------------------

// True when the reference value is of the kind the exercise declares (undefined fits any kind).
bool reference_fits(AnswerKind kind, const Value& expected) {
    if (std::holds_alternative<Undefined>(expected)) return true;
    switch (kind) {
        case AnswerKind::number:
        case AnswerKind::angle:
        case AnswerKind::integer: return std::holds_alternative<Real>(expected);
        case AnswerKind::vector: return std::holds_alternative<Vector<Real>>(expected);
        case AnswerKind::matrix: return std::holds_alternative<Matrix<Real>>(expected);
        case AnswerKind::boolean: return std::holds_alternative<bool>(expected);
        case AnswerKind::choice: return std::holds_alternative<Choice>(expected);
    }
    return false;
}

bool finite(const Real& x) { return boost::multiprecision::isfinite(x); }

// True when every number of the reference value is finite.
bool all_finite(const Value& expected) {
    if (auto* x = std::get_if<Real>(&expected)) return finite(*x);
    if (auto* v = std::get_if<Vector<Real>>(&expected)) return std::all_of(v->begin(), v->end(), finite);
    if (auto* m = std::get_if<Matrix<Real>>(&expected)) return std::all_of(m->values.begin(), m->values.end(), finite);
    return true;
}

// True for a vector or matrix without elements: there is no element to grade or to report.
bool is_empty(const Value& expected) {
    if (auto* v = std::get_if<Vector<Real>>(&expected)) return v->empty();
    if (auto* m = std::get_if<Matrix<Real>>(&expected)) return m->values.empty();
    return false;
}
}  // namespace

// Why the reference cannot grade this part; nullopt when it can.
std::optional<Text> reference_fault(const AnswerSpec& spec, const Value& expected) {
    std::string kind(answer_kind_name(spec.kind));
    if (!reference_fits(spec.kind, expected)) {
        Text shape = shape_of(expected);
        return Text{fmt::format("the reference answer is {} but the exercise declares a {} answer", shape.en, kind),
                    fmt::format("参考答案是{}，但题目声明的答案类型是 {}", shape.zh, kind)};
    }
    if (!all_finite(expected))
        return Text{"the reference answer is not finite", "参考答案不是有限值"};
    if (is_empty(expected)) return Text{"the reference answer has no elements", "参考答案没有任何元素"};
    using std::floor;
    auto* x = std::get_if<Real>(&expected);
    if (spec.kind == AnswerKind::integer && x && floor(*x) != *x)
        return Text{"the reference answer of an integer part is not a whole number", "整数答案的参考值不是整数"};
    return std::nullopt;
}

namespace {

PartResult grader_fault(const AnswerSpec& spec, const ProgramLine* given, const Text& why) {
    return result(spec, given, Verdict::grader_fault,
                  {"grader fault: " + why.en + "; this costs no points", "评分器故障：" + why.zh + "；不扣分"});
}

// `undefined` on either side; nullopt when neither side is undefined.
std::optional<PartResult> grade_undefined(const AnswerSpec& spec, const ProgramLine& given, const Value& expected,
                                          const AnswerCompareOptions& options) {
    bool expected_undefined = std::holds_alternative<Undefined>(expected);
    bool given_undefined = std::holds_alternative<Undefined>(given.value);
    if (!expected_undefined && !given_undefined) return std::nullopt;
    // undefined is correct iff the reference is undefined
    if (expected_undefined && given_undefined)
        return result(spec, &given, Verdict::correct, {"correct: the quantity has no value here", "正确：此处该量没有值"});
    if (expected_undefined)
        return result(spec, &given, Verdict::wrong,
                      {"wrong: this quantity has no value here (it is undefined), but the output gives " +
                           shape_of(given.value).en,
                       "错误：此处该量没有值（undefined），但输出给出了" + shape_of(given.value).zh});
    return result(spec, &given, Verdict::wrong,
                  join({"wrong: the output says undefined, but this quantity has a value here",
                        "错误：输出为 undefined，但此处该量是有值的"},
                       reveal_text(expected, options)));
}

}  // namespace

// ---- public ------------------------------------------------------------------------------

std::string_view verdict_name(Verdict verdict) {
    switch (verdict) {
        case Verdict::correct: return "correct";
        case Verdict::wrong: return "wrong";
        case Verdict::too_few_digits: return "too_few_digits";
        case Verdict::missing: return "missing";
        case Verdict::unparseable: return "unparseable";
        case Verdict::compile_error: return "compile_error";
        case Verdict::crashed: return "crashed";
        case Verdict::timed_out: return "timed_out";
        case Verdict::output_limit: return "output_limit";
        case Verdict::grader_fault: return "grader_fault";
    }
    return "grader_fault";
}

std::optional<AnswerKind> answer_kind_from_name(std::string_view name) {
    for (AnswerKind kind : {AnswerKind::number, AnswerKind::integer, AnswerKind::vector, AnswerKind::matrix,
                            AnswerKind::boolean, AnswerKind::choice, AnswerKind::angle})
        if (answer_kind_name(kind) == name) return kind;
    return std::nullopt;
}

std::string_view answer_kind_name(AnswerKind kind) {
    switch (kind) {
        case AnswerKind::number: return "number";
        case AnswerKind::integer: return "integer";
        case AnswerKind::vector: return "vector";
        case AnswerKind::matrix: return "matrix";
        case AnswerKind::boolean: return "boolean";
        case AnswerKind::choice: return "choice";
        case AnswerKind::angle: return "angle";
    }
    return "number";
}

int decimals(std::string_view text) {
    DecimalParts parts = split_decimal(text);
    // decimals = digits after the point minus the exponent
    return static_cast<int>(static_cast<long long>(parts.fraction.size()) - parts.exponent);
}

int significant(std::string_view text) {
    DecimalParts parts = split_decimal(text);
    std::string digits = std::string(parts.integer) + std::string(parts.fraction);
    // significant digits: all digits from the first nonzero one
    std::size_t first = digits.find_first_not_of('0');
    return first == std::string::npos ? 0 : static_cast<int>(digits.size() - first);
}

bool is_whole_text(std::string_view text) {
    if (!is_decimal(text)) return false;
    DecimalParts parts = split_decimal(text);
    std::string digits = std::string(parts.integer) + std::string(parts.fraction);
    // the digits from the point's final position onwards must all be zero
    long long point = static_cast<long long>(parts.integer.size()) + parts.exponent;
    std::size_t from = static_cast<std::size_t>(std::clamp<long long>(point, 0, static_cast<long long>(digits.size())));
    return digits.find_first_not_of('0', from) == std::string::npos;
}

PartResult grade_part(const AnswerSpec& spec, const ProgramLine* given, const Value& expected,
                      const AnswerCompareOptions& options) {
    if (!given)
        return result(spec, nullptr, Verdict::missing,
                      {fmt::format("no line `{} = ...` in the output", spec.name),
                       fmt::format("输出中没有 `{} = ...` 这一行", spec.name)});
    if (auto fault = reference_fault(spec, expected)) return grader_fault(spec, given, *fault);
    if (auto undefined = grade_undefined(spec, *given, expected, options)) return *undefined;
    switch (spec.kind) {
        case AnswerKind::integer: return grade_integer(spec, *given, std::get<Real>(expected), options);
        case AnswerKind::boolean: return grade_boolean(spec, *given, std::get<bool>(expected), options);
        case AnswerKind::choice: return grade_choice(spec, *given, std::get<Choice>(expected), options);
        default: return grade_numbers(spec, *given, expected, options);
    }
}

bool within_tolerance(const AnswerSpec& spec, const Reading& given, const Value& candidate) {
    if (!all_finite(candidate)) return false;
    if (spec.kind == AnswerKind::integer) {
        auto* number = std::get_if<NumberText>(&given);
        auto* x = std::get_if<Real>(&candidate);
        if (!number || !x || !is_whole_text(number->text)) return false;
        try {
            return number_value(*number) == *x;
        } catch (const ProtocolError&) {
            return false;
        }
    }
    if (!std::holds_alternative<Real>(candidate) && !std::holds_alternative<Vector<Real>>(candidate) &&
        !std::holds_alternative<Matrix<Real>>(candidate))
        return false;
    auto cells = pair_cells(given, candidate);
    if (!cells) return false;
    const CellSummary s = grade_cells(*cells, spec);
    return s.wrong == 0 && std::all_of(s.grades.begin(), s.grades.end(), [](const ElementGrade& g) {
               return !g.non_finite && g.error <= g.bounds.tolerance;
           });
}

Text Precision::describe() const {
    if (unit == significant)
        return {fmt::format("{} significant digit{}", places, places == 1 ? "" : "s"), fmt::format("{} 位有效数字", places)};
    return places_text(places);
}

PartResult unparseable_part(const AnswerSpec& spec, const ProtocolIssue& issue) {
    PartResult r;
    r.name = spec.name;
    r.verdict = Verdict::unparseable;
    r.max_score = spec.points;
    r.message = issue.message;
    r.line = issue.line;
    return r;
}

}  // namespace blockcheck
