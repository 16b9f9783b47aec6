// `blockcheck hint ID`: the next hint for an exercise.
#include "checker/common/cli.hpp"
#include "checker/student/workspace.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace blockcheck {
namespace {

int hint(const Context& context, const std::string& id) {
    const Workspace workspace(context.root);
    const Exercise& e = workspace.exercises().at(id);
    const Lang lang = context.lang;
    if (e.hints.empty()) {
        fmt::print("{}\n", tr(lang, "This exercise has no hints; `./blockcheck show` restates it.", "本题没有提示；`./blockcheck show` 可以再看一遍题目。"));
        return 0;
    }
    const int shown = workspace.hints_shown(id);
    const int index = std::min<int>(shown, int(e.hints.size()) - 1);
    fmt::print("{} {}/{}: {}\n", tr(lang, "Hint", "提示"), index + 1, e.hints.size(), e.hints[index].in(lang));
    if (index + 1 == int(e.hints.size()))
        fmt::print("{}\n", tr(lang, "That was the last hint. `./blockcheck check ID --reveal` shows expected values.",
                              "这是最后一条提示。`./blockcheck check ID --reveal` 会显示期望值。"));
    else fmt::print("{}\n", tr(lang, "Run the same command again for the next hint.", "再运行一次同样的命令，看下一条提示。"));
    workspace.record_hint(id, std::min<int>(shown + 1, int(e.hints.size())));
    return 0;
}

}  // namespace

void add_hint_command(CLI::App& app, Context& context) {
    auto hint_id = std::make_shared<std::string>();
    CLI::App* h = app.add_subcommand("hint", "the next hint for an exercise");
    h->add_option("id", *hint_id, "exercise id")->required();
    h->callback([&context, hint_id] { context.run = [&context, hint_id] { return hint(context, *hint_id); }; });
}

}  // namespace blockcheck
