// `blockcheck hint ID`: the next hint for an exercise.
#include "checker/common/cli.hpp"
#include "checker/student/pages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace blockcheck {
namespace {

struct HintOptions {
    std::string id;
    std::optional<int> number;  // hint N again
    bool all = false;           // every hint at once
};

void print_hint(const Exercise& e, std::size_t index, Lang lang) {
    fmt::print("{} {}/{}{}{}\n", tr(lang, "Hint", "提示"), index + 1, e.hints.size(), tr(lang, ": ", "："),
               e.hints[index].in(lang));
}

}  // namespace

// What to run after hint `index`: the next hint's command (the same command again when the hint
// was the next one, `hint ID N+1` when it was asked for by number), or after the last one how to
// see the expected values; every command with the exercise's id.
static std::string after_hint(const Exercise& e, std::size_t index, bool by_number, Lang lang) {
    if (index + 1 == e.hints.size())
        return tr_format(lang, "That was the last hint. `./blockcheck check {id} --reveal` shows expected values.",
                         "这是最后一条提示。`./blockcheck check {id} --reveal` 会显示期望值。", fmt::arg("id", e.id));
    if (by_number)
        return tr_format(lang, "`./blockcheck hint {id} {next}` shows the next hint; `--all` shows them all.",
                         "`./blockcheck hint {id} {next}` 显示下一条提示；加 `--all` 可一次看全部。", fmt::arg("id", e.id),
                         fmt::arg("next", index + 2));
    return tr_format(lang, "`./blockcheck hint {id}` again shows the next hint; `--all` shows them all.",
                     "再运行 `./blockcheck hint {id}` 显示下一条提示；加 `--all` 可一次看全部。", fmt::arg("id", e.id));
}

std::string hint_text(const Exercise& e, std::size_t index, bool by_number, Lang lang) {
    return fmt::format("{} {}/{}{}{}\n{}\n", tr(lang, "Hint", "提示"), index + 1, e.hints.size(), tr(lang, ": ", "："),
                       e.hints[index].in(lang), after_hint(e, index, by_number, lang));
}

namespace {

int hint(const Context& context, const HintOptions& o) {
    const Workspace workspace(context.root);
    const Exercise& e = workspace.exercises().at(o.id);
    const Lang lang = context.lang;
    if (e.hints.empty()) {
        fmt::print("{}\n", tr_format(lang, "This exercise has no hints; `./blockcheck show {id}` restates it.",
                                     "本题没有提示；`./blockcheck show {id}` 可以再看一遍题目。", fmt::arg("id", e.id)));
        return 0;
    }
    const int count = int(e.hints.size());
    if (o.number && (*o.number < 1 || *o.number > count)) {
        fmt::print(stderr, "{}\n",
                   fmt::format(fmt::runtime(tr(lang, "blockcheck: hint {}: {} has hints 1 to {}", "blockcheck：hint {}：{} 的提示编号为 1 到 {}")),
                               *o.number, e.id, count));
        return 2;
    }
    if (o.all) {
        for (int i = 0; i < count; ++i) print_hint(e, std::size_t(i), lang);
        workspace.record_hint(o.id, count);
        return 0;
    }
    const int shown = workspace.hints_shown(o.id);
    const int index = o.number ? *o.number - 1 : std::min<int>(shown, count - 1);
    fmt::print("{}", hint_text(e, std::size_t(index), o.number.has_value(), lang));
    workspace.record_hint(o.id, std::max(shown, std::min(index + 1, count)));
    return 0;
}

}  // namespace

void add_hint_command(CLI::App& app, Context& context) {
    auto o = std::make_shared<HintOptions>();
    CLI::App* h = app.add_subcommand("hint", "the next hint for an exercise; `hint ID N` reads hint N again");
    h->add_option("id", o->id, "exercise id")->required();
    h->add_option("number", o->number, "the hint to show again (1 = the first)");
    h->add_flag("--all", o->all, "every hint of the exercise at once");
    h->callback([&context, o] { context.run = [&context, o] { return hint(context, *o); }; });
}

}  // namespace blockcheck
