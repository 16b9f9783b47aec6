// `blockcheck gradescope-package OUT.zip`: the autograder zip Gradescope documents — setup.sh and
// run_autograder at the top (from deploy/gradescope/) beside the sources needed to build
// blockcheck, with the grading options written into run_autograder.
#include "checker/common/cli.hpp"
#include "checker/common/files.hpp"
#include "checker/common/json_exact.hpp"
#include "checker/course/assignment.hpp"
#include "checker/course/product_list.hpp"
#include "checker/exercise/exercise_set.hpp"
#include "checker/batch/archive.hpp"
#include "checker/outputs/gradebook.hpp"

#include <fmt/format.h>

namespace blockcheck {
namespace {

namespace fs = std::filesystem;

struct PackageOptions {
    std::string out;
    ExerciseChoice choice;  // --chapter, --assignment, --exercises
    bool variants = false;
    bool no_sandbox = false;  // run_autograder grades even where no sandbox works
};

unsigned mode_of(const fs::path& file) {
    const fs::perms p = fs::status(file).permissions();
    return (p & fs::perms::owner_exec) != fs::perms::none ? 0755 : 0644;
}

// The full edition's files as data/release/product.txt lists them: what the build and the
// grader read, and nothing else of the repository (no .git, tests or build output).
std::vector<ArchiveEntry> source_entries(const fs::path& root) {
    std::vector<ArchiveEntry> entries;
    for (const fs::path& f : full_edition_files(root))
        entries.push_back({f.generic_string(), read_file(root / f), "", false, mode_of(root / f)});
    return entries;
}

// The assignment's place in the zip (unpacked into /autograder/source), and run_autograder's option naming it.
constexpr const char* packed_assignment = "assignment.json";
constexpr const char* packed_assignment_option = "--assignment \"$autograder/source/assignment.json\"";

// run_autograder with its `grade_options=()` line filled in.
std::string run_autograder_text(const fs::path& template_file, const PackageOptions& o) {
    std::string text = read_file(template_file);
    const std::string line = "\ngrade_options=()\n";
    const auto at = text.find(line);
    if (at == std::string::npos) throw InputFileError(template_file.string() + ": no 'grade_options=()' line to fill in");
    std::string options;
    for (const std::string& chapter : o.choice.chapters) options += fmt::format("{}--chapter '{}'", options.empty() ? "" : " ", chapter);
    // An assignment travels in the zip, beside the sources (assignment_entry).
    if (chosen_assignment(o.choice)) options += options.empty() ? packed_assignment_option : std::string(" ") + packed_assignment_option;
    if (o.variants) options += options.empty() ? "--variants" : " --variants";
    if (o.no_sandbox) options += options.empty() ? "--no-sandbox" : " --no-sandbox";
    return text.replace(at, line.size(), "\ngrade_options=(" + options + ")\n");
}

int gradescope_package(const Context& context, const PackageOptions& o) {
    const Lang lang = context.lang;
    if (!fs::path(o.out).filename().string().ends_with(".zip"))
        throw InputFileError(fmt::format("gradescope-package: {}: {}", o.out,
                                         tr(lang, "the autograder must be a .zip file", "自动评分包必须是 .zip 文件")));
    // chosen_exercises checks the chapter names and ids (plain words, safe inside quotes).
    const ExerciseSet set = chosen_exercises(ExerciseSet::load(context.root), o.choice);
    const fs::path deploy = context.root / "deploy" / "gradescope";
    std::vector<ArchiveEntry> entries = {{"setup.sh", read_file(deploy / "setup.sh"), "", false, 0755},
                                         {"run_autograder", run_autograder_text(deploy / "run_autograder", o), "", false, 0755}};
    for (ArchiveEntry& e : source_entries(context.root)) entries.push_back(std::move(e));
    if (const std::optional<Assignment> a = chosen_assignment(o.choice))
        entries.push_back({packed_assignment, assignment_json(*a), "", false, 0644});
    if (fs::path(o.out).has_parent_path()) fs::create_directories(fs::path(o.out).parent_path());
    write_archive(o.out, entries);
    double points = 0;
    for (const Exercise& e : set.all()) points += e.max_score();
    fmt::print("{}\n", fmt::format(fmt::runtime(tr(lang, "wrote {}: setup.sh, run_autograder and {} source files; grades {} exercises, {} points{}",
                                                   "已写入 {}：setup.sh、run_autograder 与 {} 个源文件；评 {} 道练习，共 {} 分{}")),
                                   o.out, entries.size() - 2, set.all().size(), score_text(points),
                                   o.variants ? tr(lang, ", on inputs drawn per student (shown after the due date)",
                                                   "，每名学生使用各自的变体输入（截止后显示）")
                                              : ""));
    if (o.no_sandbox)
        fmt::print(stderr, "blockcheck: {}\n",
                   tr(lang, "--no-sandbox: where Gradescope's machine has no sandbox, run_autograder grades anyway, and "
                            "each student's program runs without isolation (results.json says so)",
                      "--no-sandbox：若 Gradescope 的机器没有可用沙箱，run_autograder 仍会评分，"
                      "每名学生的程序都在无隔离的情况下运行（results.json 会注明）"));
    return 0;
}

}  // namespace

void add_gradescope_package_command(CLI::App& app, Context& context) {
    auto o = std::make_shared<PackageOptions>();
    CLI::App* cmd = app.add_subcommand("gradescope-package", "write Gradescope's autograder zip (setup.sh, run_autograder, the sources)");
    cmd->add_option("out", o->out, "the zip to write, e.g. autograder.zip")->required();
    add_exercise_choice(cmd, o->choice);
    cmd->add_flag("--variants", o->variants,
                  "score each student on inputs of their own; those tests show after the due date, the book's inputs as feedback");
    cmd->add_flag("--no-sandbox", o->no_sandbox,
                  "let run_autograder grade where no sandbox works (by default it refuses: score 0 and a message)");
    cmd->footer(
        "Upload the zip as the autograder of a programming assignment with the Ubuntu 24.04 base image.\n"
        "Gradescope runs setup.sh once (apt packages, then the build) and run_autograder per submission;\n"
        "run_autograder refuses to run a program where no sandbox works, unless packed with --no-sandbox\n"
        "(docs/sandbox.md).\n"
        "The files and results.json are described in docs/platforms.md.");
    cmd->callback([&context, o] { context.run = [&context, o] { return gradescope_package(context, *o); }; });
}

}  // namespace blockcheck
