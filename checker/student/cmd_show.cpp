// `blockcheck show ID`: the task, its inputs and what to print.
#include "checker/common/cli.hpp"
#include "checker/exercise/diagnosis.hpp"
#include "checker/student/pages.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

std::string kind_text(const AnswerSpec& a, Lang lang) {
    const std::string precision = a.precision.describe().in(lang);
    const std::string comma(tr(lang, ", ", "，"));
    switch (a.kind) {
        case AnswerKind::number: return std::string(tr(lang, "number", "数")) + comma + precision;
        case AnswerKind::angle:
            return std::string(tr(lang, "angle in degrees, modulo 360", "角度（度），按 360 取模")) + comma + precision;
        case AnswerKind::vector: return std::string(tr(lang, "vector", "向量")) + comma + precision;
        case AnswerKind::matrix: return std::string(tr(lang, "matrix", "矩阵")) + comma + precision;
        case AnswerKind::integer: return std::string(tr(lang, "integer", "整数"));
        case AnswerKind::boolean: return std::string(tr(lang, "true / false", "true / false（布尔值）"));
        case AnswerKind::choice: return std::string(tr(lang, "choice", "选择"));
    }
    return {};
}

// `show ID --json`: the task, its inputs, its answers and the mistakes it diagnoses.
nlohmann::ordered_json show_json(const Exercise& e) {
    nlohmann::ordered_json answers = nlohmann::ordered_json::array();
    for (const AnswerSpec& a : e.answers) {
        nlohmann::ordered_json answer = {{"name", a.name}, {"kind", answer_kind_name(a.kind)}, {"points", a.points}};
        if (a.kind == AnswerKind::number || a.kind == AnswerKind::vector || a.kind == AnswerKind::matrix ||
            a.kind == AnswerKind::angle)
            answer[a.precision.unit == Precision::significant ? "significant" : "decimals"] = a.precision.places;
        answers.push_back(answer);
    }
    nlohmann::ordered_json inputs = nlohmann::ordered_json::object();
    for (const auto& [name, value] : e.inputs) inputs[name] = value;
    nlohmann::ordered_json mistakes = e.mistakes;
    return {{"id", e.id},
            {"title", {{"zh", e.title.zh}, {"en", e.title.en}}},
            {"prompt", {{"zh", e.prompt.zh}, {"en", e.prompt.en}}},
            {"source", e.source},
            {"inputs", inputs},
            {"answers", answers},
            {"mistakes", mistakes},
            {"generic_mistakes", generic_mistakes()}};
}

int show(const Context& context, const std::string& id, bool json) {
    const Workspace workspace(context.root);
    const Exercise& e = workspace.exercises().at(id);
    if (json) fmt::print("{}\n", show_json(e).dump(2));
    else fmt::print("{}", show_text(workspace.exercises(), e, context.lang));
    return 0;
}

}  // namespace

std::string show_text(const ExerciseSet& set, const Exercise& e, Lang lang) {
    std::string out = fmt::format("{} — {}\n", e.id, e.title.in(lang));
    const std::string section = e.section.in(lang).empty() ? "" : " " + e.section.in(lang);
    out += fmt::format("{}{} · {} · {:g} {}\n\n", set.chapter_title(e.chapter).in(lang), section,
                       e.kind == "exercise" ? tr(lang, "exercise", "习题") : tr(lang, "worked example", "例题"), e.max_score(),
                       tr(lang, "points", "分"));
    out += fmt::format("{}\n\n", e.prompt.in(lang));
    out += fmt::format("{}\n", tr(lang, "Inputs (the book's values; your program reads them on standard input):",
                                  "输入（书中的数值；程序从标准输入读取）："));
    if (e.inputs.empty()) out += fmt::format("  {}\n", tr(lang, "(none)", "（无）"));
    for (const auto& [name, value] : e.inputs) out += fmt::format("  {} = {}\n", name, value);
    out += fmt::format("\n{}\n", tr(lang, "Answers to print, one `name = value` line each:", "需要输出的答案，每行一个 `名称 = 值`："));
    for (const AnswerSpec& a : e.answers) {
        std::string options;
        if (auto it = e.options.find(a.name); it != e.options.end())
            for (const std::string& o : it->second) options += (options.empty() ? " [" : "/") + o;
        out += fmt::format("  {:<26} {}{}{} · {:g} {}\n", a.name, kind_text(a, lang), options, options.empty() ? "" : "]",
                           a.points, tr(lang, "pt", "分"));
    }
    out += fmt::format("\n{}\n{}\n", tr_format(lang, "Your program: {}", "你的程序：{}", e.source),
                       fmt::format("  ./blockcheck run {0}    ./blockcheck check {0}    ./blockcheck hint {0}", e.id));
    return out;
}

void add_show_command(CLI::App& app, Context& context) {
    auto id = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    CLI::App* s = app.add_subcommand("show", "the exercise's task, its inputs and what to print");
    s->add_option("id", *id, "exercise id (see `blockcheck list`)")->required();
    s->add_flag("--json", *json, "the exercise as JSON, with the ids of the mistakes it diagnoses");
    s->callback([&context, id, json] { context.run = [&context, id, json] { return show(context, *id, *json); }; });

}

}  // namespace blockcheck
