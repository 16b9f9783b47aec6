// The pieces of answer messages; see answer_text.hpp.
#include "checker/exercise/answer_text.hpp"

#include <fmt/format.h>

#include <cctype>

namespace blockcheck::answers {

namespace {
constexpr std::size_t answer_quote_limit = 40;  // bytes of an answer token quoted in a message
}  // namespace

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

Text non_finite_named(const NumberText& number) {
    std::string word;
    for (char c : number.text) word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string quoted = backticked(number.text);
    if (word.find("nan") != std::string::npos)
        return {quoted + " (NaN, not a number: what 0/0 or inf - inf gives)", quoted + "（NaN，非数：0/0 或 inf - inf 的结果）"};
    if (word.find("inf") != std::string::npos)
        return {quoted + " (infinity: a division by zero, or an overflow)", quoted + "（无穷大：除以零，或溢出）"};
    return {quoted + " (beyond the range of a number)", quoted + "（超出了数的范围）"};
}

const NumberText* first_non_finite(const Reading& given) {
    if (auto* n = std::get_if<NumberText>(&given)) return n->finite() ? nullptr : n;
    if (auto* v = std::get_if<std::vector<NumberText>>(&given))
        for (const NumberText& n : *v)
            if (!n.finite()) return &n;
    if (auto* m = std::get_if<std::vector<std::vector<NumberText>>>(&given))
        for (const auto& row : *m)
            for (const NumberText& n : row)
                if (!n.finite()) return &n;
    return nullptr;
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
    // never a count: the length or shape asked for may be an answer of the exercise (the heads of
    // a group, a width), and the prompt states it
    return std::visit(
        [](const auto& v) -> Text {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, Real>) return {"a number", "一个数"};
            else if constexpr (std::is_same_v<V, Vector<Real>>) return {"a vector", "一个向量"};
            else if constexpr (std::is_same_v<V, Matrix<Real>>) return {"a matrix", "一个矩阵"};
            else if constexpr (std::is_same_v<V, bool>) return {"true or false", "true 或 false"};
            else if constexpr (std::is_same_v<V, Undefined>) return {"undefined", "undefined"};
            else return {"a word", "一个单词"};
        },
        expected);
}

Text shape_mismatch(const Value& expected, const Reading& given) {
    const Text g = shape_of(given);
    const bool same_kind = (std::holds_alternative<Vector<Real>>(expected) && std::holds_alternative<std::vector<NumberText>>(given)) ||
                           (std::holds_alternative<Matrix<Real>>(expected) &&
                            std::holds_alternative<std::vector<std::vector<NumberText>>>(given));
    if (same_kind)
        return {fmt::format("wrong shape: got {}, and this answer has another {} (the prompt states it)",
                            g.en, std::holds_alternative<Vector<Real>>(expected) ? "length" : "shape"),
                fmt::format("形状不对：给出了{}，而这一项答案的{}不同（题目中写明了）", g.zh,
                            std::holds_alternative<Vector<Real>>(expected) ? "长度" : "形状")};
    const Text e = shape_of(expected);
    return {fmt::format("wrong shape: expected {}, got {}", e.en, g.en), fmt::format("形状不对：应为{}，实际给出{}", e.zh, g.zh)};
}

PartResult part_result(const AnswerSpec& spec, const ProgramLine* given, Verdict verdict, Text message) {
    PartResult r;
    r.name = spec.name;
    r.verdict = verdict;
    r.max_score = spec.points;
    // score = points when correct; a grader fault never costs the student points
    r.score = verdict == Verdict::correct || verdict == Verdict::grader_fault ? spec.points : 0;
    r.message = std::move(message);
    r.line = given ? given->line : 0;
    if (given) r.given = given->text.substr(given->text.find('=') == std::string::npos ? 0 : given->text.find('=') + 1);
    return r;
}

std::optional<double> relative(const Real& error, const Real& expected) {
    using std::abs;
    if (expected == 0) return std::nullopt;
    return (error / abs(expected)).convert_to<double>();
}

}  // namespace blockcheck::answers
