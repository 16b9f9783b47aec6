// `blockcheck release OUT [--variants K]`: write the student edition.
#include "checker/common/cli.hpp"
#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/course/assignment.hpp"
#include "checker/course/release.hpp"
#include "checker/exercise/protocol.hpp"

#include <fmt/format.h>

#include <set>

namespace blockcheck {
namespace {

namespace fs = std::filesystem;

// Takes out of the edition the definitions and templates of the exercises not assigned, so its
// board shows the assignment's exercises only; a chapter left without exercises loses its chapter.json too.
// Returns the number of files taken out.
std::size_t drop_unassigned(const ExerciseSet& all, const ExerciseSet& assigned, const fs::path& out) {
    std::size_t dropped = 0;
    std::set<std::string> chapters_left;
    for (const Exercise& e : assigned.all()) chapters_left.insert(e.chapter);
    for (const Exercise& e : all.all()) {
        if (!chapters_left.count(e.chapter)) dropped += fs::remove(out / "data/exercises" / e.chapter / "chapter.json");
        if (assigned.find(e.id)) continue;
        dropped += fs::remove(out / "data/exercises" / e.chapter / e.file.filename());
        dropped += fs::remove(out / e.source);
    }
    return dropped;
}

int release(const Context& context, const fs::path& out, int variants, const ExerciseChoice& choice) {
    const ExerciseSet all = ExerciseSet::load(context.root);
    const ExerciseSet exercises = chosen_exercises(all, choice);
    ReleaseSummary s = write_release(context.root, exercises, out, variants);
    if (!choice.whole()) s.files -= drop_unassigned(all, exercises, out);
    // The assignment travels too: the edition's board counts its points (workspace.cpp).
    if (const std::optional<Assignment> a = chosen_assignment(choice)) {
        write_file_atomically(out / released_assignment, assignment_json(*a));
        s.files += 1;
    }
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
    auto choice = std::make_shared<ExerciseChoice>();
    CLI::App* cmd = app.add_subcommand("release", "write the student edition: templates, exercises and expected answers, no solutions");
    cmd->add_option("out", *out, "folder to write (absent or empty)")->required();
    cmd->add_option("--variants", *variants, "practice variants to carry, seeds 1..K (default 5)");
    add_exercise_choice(cmd, *choice);
    cmd->callback([&context, out, variants, choice] {
        context.run = [&context, out, variants, choice] { return release(context, *out, *variants, *choice); };
    });
}

}  // namespace blockcheck
