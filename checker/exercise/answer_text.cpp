// The pieces of answer messages; see answer_text.hpp.
#include "checker/exercise/answer_text.hpp"

#include <fmt/format.h>

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
