// `blockcheck show ID`: the task, its inputs and what to print.
#include "checker/common/cli.hpp"
#include "checker/student/workspace.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

std::string kind_text(const AnswerSpec& a, Lang lang) {
    switch (a.kind) {
        case AnswerKind::number: return fmt::format("{}, {} {}", tr(lang, "number", "数"), a.digits, tr(lang, "decimals", "位小数"));
        case AnswerKind::vector: return fmt::format("{}, {} {}", tr(lang, "vector", "向量"), a.digits, tr(lang, "decimals", "位小数"));
        case AnswerKind::matrix: return fmt::format("{}, {} {}", tr(lang, "matrix", "矩阵"), a.digits, tr(lang, "decimals", "位小数"));
        case AnswerKind::integer: return std::string(tr(lang, "integer", "整数"));
        case AnswerKind::boolean: return "true / false";
        case AnswerKind::choice: return std::string(tr(lang, "choice", "选择"));
    }
    return {};
}

int show(const Context& context, const std::string& id) {
    const Workspace workspace(context.root);
    const Exercise& e = workspace.exercises().at(id);
    const Lang lang = context.lang;
    fmt::print("{} — {}\n", e.id, e.title.in(lang));
    fmt::print("{} {} · {} · {:g} {}\n\n", workspace.exercises().chapter_title(e.chapter).in(lang), e.section,
               e.kind == "exercise" ? tr(lang, "exercise", "习题") : tr(lang, "worked example", "例题"), e.max_score(),
               tr(lang, "points", "分"));
    fmt::print("{}\n\n", e.prompt.in(lang));
    fmt::print("{}\n", tr(lang, "Inputs (the book's values; your program reads them on standard input):",
                          "输入（书中的数值；程序从标准输入读取）："));
    if (e.inputs.empty()) fmt::print("  {}\n", tr(lang, "(none)", "（无）"));
    for (const auto& [name, value] : e.inputs) fmt::print("  {} = {}\n", name, value);
    fmt::print("\n{}\n", tr(lang, "Answers to print, one `name = value` line each:", "需要输出的答案，每行一个 `名称 = 值`："));
    for (const AnswerSpec& a : e.answers) {
        std::string options;
        if (auto it = e.options.find(a.name); it != e.options.end())
            for (const std::string& o : it->second) options += (options.empty() ? " [" : "/") + o;
        fmt::print("  {:<24} {}{}{} · {:g} {}\n", a.name, kind_text(a, lang), options, options.empty() ? "" : "]",
                   a.points, tr(lang, "pt", "分"));
    }
    fmt::print("\n{} {}\n{}\n", tr(lang, "Your program:", "你的程序："), e.source,
               fmt::format("  ./blockcheck run {0}    ./blockcheck check {0}    ./blockcheck hint {0}", e.id));
    return 0;
}

}  // namespace

void add_show_command(CLI::App& app, Context& context) {
    auto id = std::make_shared<std::string>();
    CLI::App* s = app.add_subcommand("show", "the exercise's task, its inputs and what to print");
    s->add_option("id", *id, "exercise id (see `blockcheck list`)")->required();
    s->callback([&context, id] { context.run = [&context, id] { return show(context, *id); }; });

}

}  // namespace blockcheck
