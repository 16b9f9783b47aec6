// Grading numeric answers. Every number is compared in Real (50 digits) against the
// reference; the tolerance follows from the precision the exercise declares, never from the
// number of digits the header happened to print. The digits a number was written with come
// from the protocol's one scan of it (NumberText::decimal).
#include "checker/exercise/answer_numbers.hpp"

#include "checker/exercise/answer_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace blockcheck::answers {

namespace {

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

Bounds bounds_for(const DecimalAnatomy& digits, const Real& expected, const Real& part_max, const Precision& precision) {
    using std::abs;
    using std::pow;
    Bounds b;
    b.declared = Real(0.5) * declared_unit(precision, expected, part_max);
    // scale = max(|expected element|, largest |element| of the whole expected part, 1)
    const Real scale = std::max({abs(expected), part_max, Real(1)});
    b.slack = Real(64) * double_epsilon() * scale;
    b.tolerance = std::max(b.declared, b.slack);
    b.written = Real(0.5) * pow(Real(10), Real(-digits.decimals()));
    if (digits.significant() > 17) {
        // written out on purpose beyond a double: tol = max(half a unit of its last digit, 1e-45 * scale)
        b.tolerance = std::min(b.tolerance, std::max(b.written, reference_epsilon() * scale));
        b.held_to_written = true;
    }
    return b;
}

// Fewer digits than declared: decimal places after the point, or significant digits.
bool too_few_digits(const DecimalAnatomy& digits, const Precision& precision) {
    if (precision.unit == Precision::decimals) return digits.decimals() < precision.places;
    // a zero written as 0.000...: count every digit written
    if (digits.significant() == 0) return digits.digits() < precision.places;
    return digits.significant() < precision.places;
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
    if (!given.finite()) return {Verdict::wrong, true, Real(0), {}};
    Real value;
    try {
        value = number_value(given);
    } catch (const ProtocolError&) {
        return {Verdict::wrong, true, Real(0), {}};
    }
    using std::abs;
    ElementGrade g;
    g.error = abs(difference(value, expected, spec.kind == AnswerKind::angle));
    g.bounds = bounds_for(*given.decimal, expected, part_max, spec.precision);
    // fewer digits than the answer declares: too_few_digits, whatever the value
    if (too_few_digits(*given.decimal, spec.precision)) g.verdict = Verdict::too_few_digits;
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
Text error_text(const ElementGrade& g, const AnswerSpec& spec, bool whole_given) {
    const std::string off = sci(g.error), bound = sci(g.bounds.tolerance);
    if (g.bounds.held_to_written)
        return {fmt::format("off by {}; the answer is written to more digits than a double holds and is held to all of "
                            "them, so up to {} is accepted", off, bound),
                fmt::format("差了 {}；答案写出的位数超过 double 所能保存的位数，每一位都要算对，所以误差不超过 {} 才算对",
                            off, bound)};
    const Text asked = spec.precision.describe();
    // a number asked to 0 decimal places is a whole number: no "off by" that would give it away
    if (spec.precision.unit == Precision::decimals && spec.precision.places == 0)
        return whole_given ? Text{"not the number asked for (0 decimal places: the value rounded to a whole number)",
                                  "不是所求的数（0 位小数：把值四舍五入到整数）"}
                           : Text{"not the whole number asked for (0 decimal places: the value rounded to a whole number)",
                                  "不是所求的整数（0 位小数：把值四舍五入到整数）"};
    const std::string turn_en = spec.kind == AnswerKind::angle ? " (modulo a full turn)" : "";
    const std::string turn_zh = spec.kind == AnswerKind::angle ? "（按整圈取模）" : "";
    return {fmt::format("off by {}{}; {} asked, so up to {} is accepted", off, turn_en, asked.en, bound),
            fmt::format("差了 {}{}；本题要求 {}，误差不超过 {} 即算对", off, turn_zh, asked.zh, bound)};
}

Text wrong_text(const Cell& cell, const ElementGrade& g, const AnswerSpec& spec) {
    if (g.non_finite)
        return join(join(subject(cell.where, {"wrong: ", "错误："}, {" is ", " 是 "}), non_finite_named(*cell.given)),
                    {", which never matches a finite value", "，不可能与有限的正确值相符"});
    // "not the whole number asked for" only of a value that is not a whole number
    bool whole = false;
    try {
        using std::floor;
        const Real value = number_value(*cell.given);
        whole = value == floor(value);
    } catch (const ProtocolError&) {
    }
    return join(subject(cell.where, {"wrong: ", "错误："}, {" is wrong: ", " 错误："}), error_text(g, spec, whole));
}

// The digits written are the exact value rounded, or cut, at the last place written.
bool right_so_far(const NumberText& given, const Real& expected, const ElementGrade& g) {
    if (g.error <= std::max(g.bounds.tolerance, g.bounds.written)) return true;  // rounded
    Real value;
    try {
        value = number_value(given);
    } catch (const ProtocolError&) {
        return false;
    }
    using std::abs;
    const Real unit = Real(2) * g.bounds.written;
    const bool same_side = value == 0 || (value < 0) == (expected < 0);
    return same_side && abs(value) <= abs(expected) && abs(expected) - abs(value) < unit;  // cut
}

Text too_few_text(const Cell& cell, const ElementGrade& g, const Precision& precision) {
    const Text asked = precision.describe();
    Text t = join(subject(cell.where, {"too few digits: ", "位数不足："}, {" has too few digits: ", " 位数不足："}),
                  {fmt::format("{} is written to fewer than the {} this answer asks for", backticked(cell.given->text), asked.en),
                   fmt::format("{} 写出的位数少于本题要求的 {}", backticked(cell.given->text), asked.zh)});
    if (right_so_far(*cell.given, *cell.expected, g))
        return join(t, {"; the digits written are right so far: write more of them",
                        "；已写出的数字都是对的：请写出更多位"});
    return join(t, {"; the digits given are also off by " + sci(g.error), "；而且给出的数字本身也差了 " + sci(g.error)});
}

// The note of a correct answer that is not exact to double precision: how far, and what that
// usually means.
Text inexact_note(const ElementGrade& g, const Real& expected) {
    using std::abs;
    const std::string off = sci(g.error);
    // relative to the exact value only where that is not about zero (there it says nothing)
    const bool near_zero = abs(expected) <= std::max(g.bounds.declared, g.error);
    const Text relative = near_zero ? Text{}
                                    : Text{fmt::format(" (relative {})", sci(g.error / abs(expected))),
                                           fmt::format("（相对误差 {}）", sci(g.error / abs(expected)))};
    return {fmt::format("; note: {} off the exact value{}, more than double rounding explains: usually "
                        "float (single precision) arithmetic, or a constant such as pi typed with few digits",
                        off, relative.en),
            fmt::format("；注意：与精确值相差 {}{}，超出了 double 舍入误差的范围：通常是用了 float（单精度）"
                        "运算，或是把 pi 之类的常数写得位数太少",
                        off, relative.zh)};
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

}  // namespace

PartResult grade_numbers(const AnswerSpec& spec, const ProgramLine& given, const Value& expected,
                         const AnswerCompareOptions& options) {
    auto cells = pair_cells(given.value, expected);
    if (!cells) return part_result(spec, &given, Verdict::wrong, shape_mismatch(expected, given.value));
    CellSummary s = grade_cells(*cells, spec);
    // the worst element's errors; for a correct part, the largest over all elements
    std::size_t at = s.worst;
    if (s.verdict == Verdict::correct)
        for (std::size_t i = 0; i < s.grades.size(); ++i)
            if (worse(s.grades[i], s.grades[at])) at = i;
    PartResult r = part_result(spec, &given, s.verdict, numbers_message(spec, *cells, s, expected, options, at));
    if (!s.grades[at].non_finite) {
        r.abs_error = s.grades[at].error.convert_to<double>();
        r.rel_error = relative(s.grades[at].error, *(*cells)[at].expected);
        r.inexact = s.verdict == Verdict::correct && s.grades[at].bounds.unexplained(s.grades[at].error);
    }
    return r;
}

PartResult grade_integer(const AnswerSpec& spec, const ProgramLine& given, const Real& expected,
                         const AnswerCompareOptions& options) {
    auto* number = std::get_if<NumberText>(&given.value);
    if (!number) return part_result(spec, &given, Verdict::wrong, shape_mismatch(Value(expected), given.value));
    Text reveal = reveal_text(Value(expected), options);
    if (!number->finite())
        return part_result(spec, &given, Verdict::wrong,
                           join(join(join({"wrong: ", "错误："}, non_finite_named(*number)),
                                     {" never matches a whole number", " 不可能等于一个整数"}), reveal));
    // an integer answer must be an exact whole number
    if (!number->decimal->whole())
        return part_result(spec, &given, Verdict::wrong,
                           join({"wrong: " + backticked(number->text) + " is not a whole number",
                                 "错误：" + backticked(number->text) + " 不是整数"}, reveal));
    Real value;
    try {
        value = number_value(*number);
    } catch (const ProtocolError& e) {
        return part_result(spec, &given, Verdict::wrong, join(join({"wrong: ", "错误："}, e.message()), reveal));
    }
    using std::abs;
    Real error = abs(value - expected);
    // never how far: with the student's own value that would be the answer
    PartResult r = part_result(spec, &given, error == 0 ? Verdict::correct : Verdict::wrong,
                               error == 0 ? Text{"correct", "正确"} : join({"wrong", "错误"}, reveal));
    r.abs_error = error.convert_to<double>();
    r.rel_error = relative(error, expected);
    return r;
}

bool numbers_within_tolerance(const AnswerSpec& spec, const Reading& given, const Value& candidate) {
    if (spec.kind == AnswerKind::integer) {
        auto* number = std::get_if<NumberText>(&given);
        auto* x = std::get_if<Real>(&candidate);
        if (!number || !x || !number->finite() || !number->decimal->whole()) return false;
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

}  // namespace blockcheck::answers
