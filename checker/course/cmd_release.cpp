// `blockcheck release OUT [--variants K]`: write the student edition.
#include "checker/common/cli.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/course/release.hpp"
#include "checker/exercise/protocol.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

int release(const Context& context, const std::filesystem::path& out, int variants) {
    const ExerciseSet exercises = ExerciseSet::load(context.root);
    const ReleaseSummary s = write_release(context.root, exercises, out, variants);
    const Lang lang = context.lang;
    fmt::print("{}\n", lang == Lang::zh
        ? fmt::format("学生版已写入 {}：{} 个文件，{} 道题，{} 组预期答案（书中输入和变体 1-{}，50 位有效数字）。",
                      out.string(), s.files, s.exercises, s.cases, variants)
        : fmt::format("student edition written to {}: {} files, {} exercises, {} expected-answer cases "
                      "(the book's inputs and variants 1-{}, at 50 significant digits).",
                      out.string(), s.files, s.exercises, s.cases, variants));
    // What the working copy of chapters/ holds beyond the templates stays out, each named.
    for (const WorkingCopyFile& f : s.not_shipped)
        fmt::print("  {}{}{}\n", printable(f.path), tr(lang, ": ", "："),
                   f.differs ? tr(lang, "differs from its template (data/templates/); the template ships",
                                  "与其模板（data/templates/）不同；学生版中是模板")
                             : tr(lang, "no exercise's template; left out", "不是任何练习的模板；未放入学生版"));
    fmt::print("{}\n", tr(lang, "It holds no reference solution, no solved program and no block implementation.",
                        "其中没有参考解答、没有写好的程序，也没有模块的实现。"));
    fmt::print("{}\n  cd {} && ./blockcheck\n", tr(lang, "Students start with:", "学生这样开始："), out.string());
    return 0;
}

}  // namespace

void add_release_command(CLI::App& app, Context& context) {
    auto out = std::make_shared<std::string>();
    auto variants = std::make_shared<int>(5);
    CLI::App* cmd = app.add_subcommand("release", "write the student edition: templates, exercises and expected answers, no solutions");
    cmd->add_option("out", *out, "folder to write (absent or empty)")->required();
    cmd->add_option("--variants", *variants, "practice variants to carry, seeds 1..K (default 5)");
    cmd->callback([&context, out, variants] {
        context.run = [&context, out, variants] { return release(context, *out, *variants); };
    });
}

}  // namespace blockcheck
