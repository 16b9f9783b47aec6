// `blockcheck new ID --chapter CH [--kind exercise|worked-example]`: start a new exercise.
#include "checker/common/cli.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/course/authoring.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

int create(const Context& context, const NewExercise& spec) {
    const Lang lang = context.lang;
    const std::vector<std::string> written = write_new_exercise(context.root, spec);
    fmt::print("{}\n", tr(lang, "written:", "已写入："));
    for (const std::string& path : written) fmt::print("  {}\n", path);
    const std::string& id = spec.id;
    if (lang == Lang::zh)
        fmt::print("下一步（详见 docs/authoring.md）：\n"
                   "  1. 编辑 data/exercises/{1}/{0}.json：题目、输入、变体范围、答案、提示（两种语言）\n"
                   "  2. 在 solutions/{1}/{0}.cpp 里通过模块算出每个答案\n"
                   "  3. 写好 tests/solved/{1}/{0}.cpp；模板（data/templates/{1}.json 中的 {0}.cpp，学生版发布的就是它；\n"
                   "     chapters/{1}/{0}.cpp 是你的工作副本）只读输入、不作答\n"
                   "  4. ./blockcheck validate {0}      （会重新构建；直到没有问题为止）\n"
                   "  5. ./blockcheck show {0}，然后 ./blockcheck test\n", id, spec.chapter);
    else
        fmt::print("Next steps (docs/authoring.md has the details):\n"
                   "  1. edit data/exercises/{1}/{0}.json: prompt, inputs, variant ranges, answers, hints (both languages)\n"
                   "  2. compute every answer through the block in solutions/{1}/{0}.cpp\n"
                   "  3. write tests/solved/{1}/{0}.cpp; keep the template ({0}.cpp in data/templates/{1}.json, what the\n"
                   "     student edition ships; chapters/{1}/{0}.cpp is your working copy) reading the inputs, answering nothing\n"
                   "  4. ./blockcheck validate {0}      (rebuilds; repeat until it reports no problem)\n"
                   "  5. ./blockcheck show {0}, then ./blockcheck test\n", id, spec.chapter);
    return 0;
}

}  // namespace

void add_new_command(CLI::App& app, Context& context) {
    auto spec = std::make_shared<NewExercise>();
    CLI::App* cmd = app.add_subcommand("new", "start a new exercise: definition, template, reference and solved skeletons");
    cmd->add_option("id", spec->id, "the exercise id (lower-case letters, digits, _)")->required();
    cmd->add_option("--chapter", spec->chapter, "the chapter folder, e.g. ch25 (a new one is created)")->required();
    cmd->add_option("--kind", spec->kind, "exercise (default) or worked-example")
        ->check(CLI::IsMember({"exercise", "worked-example"}));
    cmd->callback([&context, spec] { context.run = [&context, spec] { return create(context, *spec); }; });
}

}  // namespace blockcheck
