// Grading one answer part. Every number is compared in Real (50 digits) against the
// reference; the tolerance follows from the digits the student wrote.
#include "checker/exercise/answer_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <limits>

namespace blockcheck {

namespace {

constexpr long long exponent_clamp = 1'000'000'000;  // beyond any precision MPFR can hold
constexpr std::size_t token_quote_limit = 40;

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

std::string backticked(std::string_view text) { return "`" + printable(text, token_quote_limit) + "`"; }

// An error as the messages print it: 1.3e-03.
std::string sci(const Real& x) { return fmt::format("{:.1e}", x.convert_to<double>()); }

Text places(int n) {
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

Real tolerance_for(std::string_view text, const Real& expected, const Real& part_max) {
    using std::abs;
    using std::pow;
    // half_unit = 0.5 * 10^-decimals(text)
    Real half_unit = Real(0.5) * pow(Real(10), Real(-decimals(text)));
    // scale = max(|expected element|, largest |element| of the whole expected part, 1)
    Real scale = std::max({abs(expected), part_max, Real(1)});
    // significant(text) <= 17: tol = max(half_unit, 64 * 2^-52 * scale), so an honest double computation passes
    if (significant(text) <= 17) return std::max(half_unit, Real(64) * double_epsilon() * scale);
    // more digits than a double holds: tol = max(half_unit, 1e-45 * scale), held to the reference's precision
    return std::max(half_unit, reference_epsilon() * scale);
}

// One number of a part against its reference.
struct ElementGrade {
    Verdict verdict = Verdict::correct;
    bool non_finite = false;  // nan, inf, or a decimal beyond the range of numbers
    Real error, tolerance;
    int decimals = 0;
};

ElementGrade grade_element(const NumberText& given, const Real& expected, const Real& part_max, int digits) {
    // nan and inf never match a finite reference
    if (is_non_finite_text(given.text)) return {Verdict::wrong, true, Real(0), Real(0), 0};
    Real value;
    try {
        value = number_value(given);
    } catch (const ProtocolError&) {
        return {Verdict::wrong, true, Real(0), Real(0), 0};
    }
    using std::abs;
    ElementGrade g;
    g.decimals = decimals(given.text);
    g.error = abs(value - expected);
    g.tolerance = tolerance_for(given.text, expected, part_max);
    // fewer decimal places than the answer asks for: too_few_digits, whatever the value
    if (g.decimals < digits) g.verdict = Verdict::too_few_digits;
    // correct iff |given - expected| <= tol
    else g.verdict = g.error <= g.tolerance ? Verdict::correct : Verdict::wrong;
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

CellSummary grade_cells(const std::vector<Cell>& cells, int digits) {
    using std::abs;
    Real part_max(0);
    for (const Cell& c : cells) part_max = std::max(part_max, abs(*c.expected));
    CellSummary s;
    for (const Cell& c : cells) s.grades.push_back(grade_element(*c.given, *c.expected, part_max, digits));
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

Text error_text(const ElementGrade& g, const Real& expected) {
    using std::abs;
    std::string rel = expected == 0 ? "" : sci(g.error / abs(expected));
    Text t{"absolute error " + sci(g.error), "绝对误差 " + sci(g.error)};
    if (!rel.empty()) t = join(t, {", relative error " + rel, "，相对误差 " + rel});
    return join(t, {" (allowed " + sci(g.tolerance) + ")", "（允许 " + sci(g.tolerance) + "）"});
}

Text wrong_text(const Cell& cell, const ElementGrade& g) {
    if (g.non_finite)
        return join(subject(cell.where, {"wrong: ", "错误："}, {" is ", " 是 "}),
                    {backticked(cell.given->text) + ", which never matches a finite value",
                     backticked(cell.given->text) + "，不可能与有限的正确值相符"});
    return join(subject(cell.where, {"wrong: ", "错误："}, {" is wrong: ", " 错误："}), error_text(g, *cell.expected));
}

Text too_few_text(const Cell& cell, const ElementGrade& g, int digits) {
    Text given = places(std::max(g.decimals, 0));
    Text t = join(subject(cell.where, {"too few digits: ", "位数不足："}, {" has too few digits: ", " 位数不足："}),
                  {fmt::format("gave {} ({}), this answer asks for at least {}", given.en, backticked(cell.given->text),
                               places(digits).en),
                   fmt::format("给出了 {}（{}），本题至少要求 {}", given.zh, backticked(cell.given->text), places(digits).zh)});
    if (g.error <= g.tolerance) return t;
    return join(t, {"; the digits given are also off by " + sci(g.error), "；而且给出的数字本身也差了 " + sci(g.error)});
}

Text numbers_message(const AnswerSpec& spec, const std::vector<Cell>& cells, const CellSummary& s,
                     const Value& expected, const AnswerCompareOptions& options) {
    const Cell& cell = cells[s.worst];
    const ElementGrade& g = s.grades[s.worst];
    if (s.verdict == Verdict::wrong)
        return join(join(wrong_text(cell, g), count_text(s.wrong, cells.size(), {"wrong", "错误"})),
                    reveal_text(expected, options));
    if (s.verdict == Verdict::too_few_digits)
        return join(too_few_text(cell, g, spec.digits),
                    count_text(s.too_few, cells.size(), {"have too few digits", "位数不足"}));
    return {fmt::format("correct to {}", places(spec.digits).en), fmt::format("正确，精确到 {}", places(spec.digits).zh)};
}

PartResult grade_numbers(const AnswerSpec& spec, const ProgramLine& given, const Value& expected,
                         const AnswerCompareOptions& options) {
    auto cells = pair_cells(given.value, expected);
    if (!cells) return result(spec, &given, Verdict::wrong, shape_mismatch(expected, given.value));
    CellSummary s = grade_cells(*cells, spec.digits);
    PartResult r = result(spec, &given, s.verdict, numbers_message(spec, *cells, s, expected, options));
    // the worst element's errors; for a correct part, the largest over all elements
    std::size_t at = s.worst;
    if (s.verdict == Verdict::correct)
        for (std::size_t i = 0; i < s.grades.size(); ++i)
            if (worse(s.grades[i], s.grades[at])) at = i;
    if (!s.grades[at].non_finite) {
        r.abs_error = s.grades[at].error.convert_to<double>();
        r.rel_error = relative(s.grades[at].error, *(*cells)[at].expected);
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

Text explained(Text message, const AnswerSpec& spec) {
    if (spec.explain.en.empty() && spec.explain.zh.empty()) return message;
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
    if (*value == expected) return result(spec, &given, Verdict::correct, {"correct", "正确"});
    std::string said = *value ? "true" : "false";
    Text message = join({"wrong: the output says " + said, "错误：输出为 " + said}, reveal_text(Value(expected), options));
    return result(spec, &given, Verdict::wrong, explained(message, spec));
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
    if (lower(*word) == lower(expected.word)) return result(spec, &given, Verdict::correct, {"correct", "正确"});
    Text message = join({"wrong: the output says " + backticked(*word), "错误：输出为 " + backticked(*word)},
                        reveal_text(Value(expected), options));
    return result(spec, &given, Verdict::wrong, explained(message, spec));
}

// ---- dispatch ----------------------------------------------------------------------------

// True when the reference value is of the kind the exercise declares (undefined fits any kind).
bool reference_fits(AnswerKind kind, const Value& expected) {
    if (std::holds_alternative<Undefined>(expected)) return true;
    switch (kind) {
        case AnswerKind::number:
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
    using std::floor;
    auto* x = std::get_if<Real>(&expected);
    if (spec.kind == AnswerKind::integer && x && floor(*x) != *x)
        return Text{"the reference answer of an integer part is not a whole number", "整数答案的参考值不是整数"};
    return std::nullopt;
}

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
                            AnswerKind::boolean, AnswerKind::choice})
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
