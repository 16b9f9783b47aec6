// `blockcheck list`: every exercise and worked example, with its status from the last check.
#include "checker/common/cli.hpp"
#include "checker/student/pages.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

nlohmann::ordered_json exercise_json(const Workspace& workspace, const Exercise& e) {
    nlohmann::ordered_json inputs = nlohmann::ordered_json::object(), answers = nlohmann::ordered_json::array();
    for (const auto& [name, value] : e.inputs) inputs[name] = value;
    for (const AnswerSpec& a : e.answers) {
        nlohmann::ordered_json answer = {{"name", a.name}, {"kind", answer_kind_name(a.kind)}, {"points", a.points}};
        const bool has_digits = a.kind == AnswerKind::number || a.kind == AnswerKind::vector ||
                                a.kind == AnswerKind::matrix || a.kind == AnswerKind::angle;
        // digits: the declared places; precision says whether they are decimals or significant digits
        answer["digits"] = has_digits ? nlohmann::ordered_json(a.precision.places) : nlohmann::ordered_json(nullptr);
        if (has_digits)
            answer["precision"] = a.precision.unit == Precision::significant ? "significant" : "decimals";
        answers.push_back(answer);
    }
    return {{"id", e.id},
            {"chapter", e.chapter},
            {"kind", e.kind},
            {"section", e.section.en},
            {"title", {{"zh", e.title.zh}, {"en", e.title.en}}},
            {"source", e.source},
            {"points", e.max_score()},
            {"inputs", inputs},
            {"answers", answers},
            {"status", workspace.last_status(e.id)}};
}

// The kind and status words in the reader's language (the JSON keeps the contract's words).
std::string kind_label(const std::string& kind, Lang lang) {
    return std::string(kind == "exercise" ? tr(lang, "exercise", "习题") : tr(lang, "worked-example", "例题"));
}
std::string status_label(const std::string& status, Lang lang) {
    if (status == "done") return std::string(tr(lang, "done", "已完成"));
    if (status == "failing") return std::string(tr(lang, "failing", "未通过"));
    return std::string(tr(lang, "not_done", "未完成"));
}

int list(const Context& context, bool as_json) {
    const Workspace workspace(context.root);
    if (as_json) {
        nlohmann::ordered_json all = nlohmann::ordered_json::array();
        for (const Exercise& e : workspace.exercises().all()) all.push_back(exercise_json(workspace, e));
        fmt::print("{}\n", nlohmann::ordered_json{{"exercises", all}}.dump(2));
        return 0;
    }
    fmt::print("{}", list_text(workspace, context.lang));
    return 0;
}

}  // namespace

std::string list_text(const Workspace& workspace, Lang lang) {
    std::string out;
    std::size_t id_w = 2, chapter_w = 5, section_w = 7;
    for (const Exercise& e : workspace.exercises().all()) {
        id_w = std::max(id_w, e.id.size());
        chapter_w = std::max(chapter_w, e.chapter.size());
        section_w = std::max(section_w, e.section.in(lang).size());
    }
    out += fmt::format("{:<{}}  {:<{}}  {:<15}  {:<{}}  {:>6}  {:<11}  {}\n", "id", id_w, tr(lang, "chapter", "章"), chapter_w,
               tr(lang, "kind", "类型"), tr(lang, "section", "小节"), section_w, tr(lang, "points", "分值"),
               tr(lang, "status", "状态"), tr(lang, "title", "标题"));
    for (const Exercise& e : workspace.exercises().all())
        out += fmt::format("{:<{}}  {:<{}}  {:<15}  {:<{}}  {:>6g}  {:<11}  {}\n", e.id, id_w, e.chapter, chapter_w, kind_label(e.kind, lang),
                   e.section.in(lang), section_w, e.max_score(), status_label(workspace.last_status(e.id), lang), e.title.in(lang));
    return out;
}

void add_list_command(CLI::App& app, Context& context) {
    auto as_json = std::make_shared<bool>(false);
    CLI::App* cmd = app.add_subcommand("list", "every exercise and worked example: id, chapter, points, status");
    cmd->add_flag("--json", *as_json, "print the list as JSON");
    cmd->callback([&context, as_json] { context.run = [&context, as_json] { return list(context, *as_json); }; });
}

}  // namespace blockcheck
