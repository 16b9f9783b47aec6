// Grading one answer part: the dispatch on the answer's kind, the reference's own faults,
// undefined, booleans and choices. Numbers and integers are graded in answer_numbers.cpp, the
// messages' common pieces come from answer_text.cpp.
#include "checker/exercise/answer_compare.hpp"

#include "checker/exercise/answer_numbers.hpp"
#include "checker/exercise/answer_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace blockcheck::answers {

namespace {

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
        return part_result(spec, &given, Verdict::wrong,
                           {"wrong: print true or false (for example with std::boolalpha), not " + backticked(number->text),
                            "错误：应输出 true 或 false（例如使用 std::boolalpha），而不是 " + backticked(number->text)});
    auto* value = std::get_if<bool>(&given.value);
    if (!value) return part_result(spec, &given, Verdict::wrong, shape_mismatch(Value(expected), given.value));
    // booleans match exactly
    if (*value == expected) return part_result(spec, &given, Verdict::correct, explained({"correct", "正确"}, spec, true));
    std::string said = *value ? "true" : "false";
    Text message = join({"wrong: the output says " + said, "错误：输出为 " + said}, reveal_text(Value(expected), options));
    return part_result(spec, &given, Verdict::wrong, explained(message, spec, options.reveal));
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
    if (!word) return part_result(spec, &given, Verdict::wrong, shape_mismatch(Value(expected), given.value));
    // choices match as words, case-insensitively
    if (lower(*word) == lower(expected.word))
        return part_result(spec, &given, Verdict::correct, explained({"correct", "正确"}, spec, true));
    Text message = join({"wrong: the output says " + backticked(*word), "错误：输出为 " + backticked(*word)},
                        reveal_text(Value(expected), options));
    return part_result(spec, &given, Verdict::wrong, explained(message, spec, options.reveal));
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

PartResult grader_fault(const AnswerSpec& spec, const ProgramLine* given, const Text& why) {
    return part_result(spec, given, Verdict::grader_fault,
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
        return part_result(spec, &given, Verdict::correct, {"correct: the quantity has no value here", "正确：此处该量没有值"});
    // never "it is undefined": that is the answer; only with --reveal
    // nan or inf where the quantity has no value: named as what it is, and the protocol's way to
    // say "no value" shown (a program that computed 0/0 knows it met a zero denominator)
    if (const NumberText* odd = expected_undefined ? first_non_finite(given.value) : nullptr)
        return part_result(spec, &given, Verdict::wrong,
                           join(join(join({"wrong: the output gives ", "错误：输出给出了 "}, non_finite_named(*odd)),
                                     {fmt::format(", which is not a value; a quantity with no value is answered with "
                                                  "`undefined(\"{}\")`, never with nan or inf", spec.name),
                                      fmt::format("，这不是一个值；没有值的量要用 `undefined(\"{}\")` 作答，不能输出 nan 或 inf",
                                                  spec.name)}),
                                reveal_text(expected, options)));
    if (expected_undefined)
        return part_result(spec, &given, Verdict::wrong,
                           join({"wrong: the output gives " + shape_of(given.value).en + ", and that is not this part's answer",
                                 "错误：输出给出了" + shape_of(given.value).zh + "，这不是这一项的答案"},
                                reveal_text(expected, options)));
    return part_result(spec, &given, Verdict::wrong,
                       join({"wrong: the output says undefined, but this quantity has a value here",
                             "错误：输出为 undefined，但此处该量是有值的"},
                            reveal_text(expected, options)));
}

}  // namespace

}  // namespace blockcheck::answers

namespace blockcheck {

// Why the reference cannot grade this part; nullopt when it can.
std::optional<Text> reference_fault(const AnswerSpec& spec, const Value& expected) {
    using namespace answers;
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

PartResult grade_part(const AnswerSpec& spec, const ProgramLine* given, const Value& expected,
                      const AnswerCompareOptions& options) {
    using namespace answers;
    if (!given)
        return part_result(spec, nullptr, Verdict::missing,
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
    return answers::all_finite(candidate) && answers::numbers_within_tolerance(spec, given, candidate);
}

Text Precision::describe() const {
    if (unit == significant)
        return {fmt::format("{} significant digit{}", places, places == 1 ? "" : "s"), fmt::format("{} 位有效数字", places)};
    return answers::places_text(places);
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
